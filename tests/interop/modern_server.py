"""A stateless (2026-07-28) MCP server from a third party for mur's interop tests.

The Python MCP SDK 2.x's MCPServer over streamable HTTP, bound to 127.0.0.1 on a
port the OS picks. It answers modern requests (protocol version and client
context in each request's `_meta`, no `initialize`). Its tools:

- `count(steps)` reports progress once per step (`ctx.report_progress`), so a
  client that sends a progress token sees `steps` notifications in the
  response stream;
- `wipe()` asks for confirmation first: its `confirm` parameter is resolved by
  asking the client (`Elicit`), which on this revision is an input-required
  result the client answers by calling again with `inputResponses` and the
  `requestState`;
- `echo(text)` returns its text, as `elicit_server.py`'s (1.x) does.

Prints `interop-modern: listening on 127.0.0.1:<port>` once it listens,
`interop-modern: request <Mcp-Method> <MCP-Protocol-Version>` for each POST,
and `interop-modern: wipe answered <confirm>` when a confirmation arrives.
Runs until killed.
"""

import asyncio
from typing import Annotated

from pydantic import BaseModel, Field

from mcp.server.mcpserver import Context, Elicit, MCPServer, Resolve

import interop_serve

say = interop_serve.sayer("interop-modern")


class Confirm(BaseModel):
    confirm: bool = Field(description="Wipe everything?")


def ask_confirm() -> Elicit[Confirm]:
    return Elicit("Wipe all 3 records? This cannot be undone.", Confirm)


server = MCPServer("interop-modern")


@server.tool()
async def count(steps: int, ctx: Context) -> str:
    """Counts to `steps`, reporting progress at each."""
    for step in range(1, steps + 1):
        await asyncio.sleep(0.01)
        await ctx.report_progress(step, steps, f"step {step}")
    return f"counted to {steps}"


@server.tool()
async def wipe(answer: Annotated[Confirm, Resolve(ask_confirm)]) -> str:
    """Wipes the records once the user confirms."""
    say(f"wipe answered {answer.confirm}")
    return "wiped 3 records" if answer.confirm else "kept 3 records"


@server.tool()
def echo(text: str) -> str:
    """Returns its text."""
    return text


def app():
    """The streamable-HTTP app, with each POST's method and revision reported."""

    def request(headers: dict) -> None:
        method = headers.get(b"mcp-method", b"-").decode()
        version = headers.get(b"mcp-protocol-version", b"-").decode()
        say(f"request {method} {version}")

    return interop_serve.reporting(server.streamable_http_app(), "POST", request)


if __name__ == "__main__":
    interop_serve.main("modern_server.py", app, say)
