"""A session-based MCP server from a third party for mur's interop tests.

The Python MCP SDK's FastMCP over streamable HTTP (the 2025-11-25 session
form: `initialize`, `Mcp-Session-Id`, `DELETE`), bound to 127.0.0.1 on a port
the OS picks. Its tool `ask` asks the client a question (`ctx.elicit`), which
sends an `elicitation/create` request in the tool call's SSE response stream.

Prints `interop-elicit: listening on 127.0.0.1:<port>` once it listens, then
one line per event the test checks:
`interop-elicit: elicit refused: <message>` when the client answers the
question with a JSON-RPC error, and `interop-elicit: session ended <id>` when
the client deletes its session. Runs until killed.
"""

import asyncio
import socket
import sys

import uvicorn
from mcp.server.fastmcp import Context, FastMCP
from mcp.shared.exceptions import McpError
from pydantic import BaseModel


def say(text: str) -> None:
    print(f"interop-elicit: {text}", flush=True)


class Name(BaseModel):
    name: str


server = FastMCP("interop-elicit", host="127.0.0.1", log_level="WARNING")


@server.tool()
async def ask(ctx: Context) -> str:
    """Asks the client for a name."""
    try:
        answer = await ctx.elicit(message="What is your name?", schema=Name)
    except McpError as e:
        say(f"elicit refused: {e.error.message}")
        raise
    say(f"elicit answered: {answer.action}")
    return f"hello {getattr(answer, 'data', None)}"


@server.tool()
def echo(text: str) -> str:
    """Returns its text."""
    return text


def app():
    """The streamable-HTTP app, with each DELETE of a session reported."""
    inner = server.streamable_http_app()

    async def wrapper(scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "DELETE":
            headers = dict(scope.get("headers") or [])
            session = headers.get(b"mcp-session-id", b"").decode()
            say(f"session ended {session}")
        await inner(scope, receive, send)

    return wrapper


async def main() -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    config = uvicorn.Config(app(), log_level="warning", lifespan="on")
    uv = uvicorn.Server(config)
    say(f"listening on 127.0.0.1:{port}")
    await uv.serve(sockets=[sock])


if __name__ == "__main__":
    if sys.argv[1:]:
        sys.exit("usage: elicit_server.py (no arguments)")
    asyncio.run(main())
