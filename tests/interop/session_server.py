"""A session-based MCP server from a third party that can restart on its port.

The Python MCP SDK's FastMCP over streamable HTTP (the 2025-11-25 session form:
`initialize`, `Mcp-Session-Id`, `DELETE`), bound to 127.0.0.1 on the port given
as its one argument (0: one the OS picks), so that a test can stop it and start
it again where its clients (a proxy) still send: the new process knows none of
the old one's sessions and answers their ids with HTTP 404, as MCP asks. Its tool
`session` returns the id of the session it is called in.

Prints `interop-session: listening on 127.0.0.1:<port>` once it listens, then
`interop-session: session ended <id>` when a client deletes its session. Runs
until killed.
"""

import asyncio
import socket
import sys

import uvicorn
from mcp.server.fastmcp import Context, FastMCP

import interop_serve

say = interop_serve.sayer("interop-session")

server = FastMCP("interop-session", host="127.0.0.1", log_level="WARNING")


@server.tool()
def session(ctx: Context) -> str:
    """The id of the session this call is made in."""
    return ctx.request_context.request.headers.get("mcp-session-id", "")


def app():
    """The streamable-HTTP app, with each DELETE of a session reported."""

    def ended(headers: dict) -> None:
        say(f"session ended {headers.get(b'mcp-session-id', b'').decode()}")

    return interop_serve.reporting(server.streamable_http_app(), "DELETE", ended)


async def serve(port: int) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # The port of a server just killed is taken again at once.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    config = uvicorn.Config(app(), log_level="warning", lifespan="on")
    say(f"listening on 127.0.0.1:{sock.getsockname()[1]}")
    await uvicorn.Server(config).serve(sockets=[sock])


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.exit("usage: session_server.py PORT (0: any)")
    asyncio.run(serve(int(sys.argv[1])))
