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

from mcp.server.fastmcp import Context, FastMCP
from mcp.shared.exceptions import McpError
from pydantic import BaseModel

import interop_serve

say = interop_serve.sayer("interop-elicit")


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

    def ended(headers: dict) -> None:
        say(f"session ended {headers.get(b'mcp-session-id', b'').decode()}")

    return interop_serve.reporting(server.streamable_http_app(), "DELETE", ended)


if __name__ == "__main__":
    interop_serve.main("elicit_server.py", app, say)
