"""A stdio MCP server from the Python MCP SDK for mur's bridge tests
(tests/tests/e2e/bridge_stdio.rs): what `mur devtools bridge` launches.

Runs over stdin and stdout with the SDK's 1.x line (FastMCP) or its 2.x line
(MCPServer), whichever is installed. Its tools:

- `count()` adds one to a counter kept in this process and returns it, so
  calls answered 1, 2, 3 went to one warm process, and 1 again to a new one;
- `crash()` ends this process at once (status 3), as a server that dies;
- `greet()` asks the client for a name (`ctx.elicit`) and greets it;
- `fails_after_greet()` reports progress once, waits until a `greet` has had
  its answer (or refusal) since it started, then fails (`isError: true`) for a
  reason of its own, as a call in flight beside another's question;
- `steps(n, wait_for_greet)` reports progress once per step; with
  `wait_for_greet`, after the first it waits until a `greet` has had its
  answer (or refusal), as a call that is surely still in flight when another
  call's question is asked, however slow the machine;
- `search(query, limit, mode, tags)` echoes its arguments: optional ones
  (`anyOf` with `null`) and an enum (`$ref` into `$defs`), as pydantic writes
  the schemas of most Python MCP servers.

Prints `stdio-server: started` on stderr (the bridge's log) when it starts.
"""

import asyncio
import enum
import os
import sys
from typing import Optional

from pydantic import BaseModel

try:
    from mcp.server.fastmcp import Context, FastMCP as Server
except ImportError:
    from mcp.server.mcpserver import Context, MCPServer as Server


class Name(BaseModel):
    name: str


server = Server("interop-stdio")
counted = 0
# Set when a `greet` has had its answer (or refusal), then replaced: a tool that
# waits for the next greet awaits the event current when it started.
greeted = asyncio.Event()


@server.tool()
def count() -> int:
    """Adds one to this process's counter and returns it."""
    global counted
    counted += 1
    return counted


@server.tool()
def crash() -> str:
    """Ends the server process at once."""
    print("stdio-server: crashing on purpose", file=sys.stderr, flush=True)
    os._exit(3)


@server.tool()
async def greet(ctx: Context) -> str:
    """Asks the client for a name and greets it."""
    global greeted
    try:
        answer = await ctx.elicit(message="Who is there?", schema=Name)
    finally:
        greeted.set()
        greeted = asyncio.Event()
    if answer.action != "accept":
        return f"no name ({answer.action})"
    return f"hello {answer.data.name}"


@server.tool()
async def fails_after_greet(ctx: Context) -> str:
    """Reports progress once, waits for a greet's answer, then fails."""
    greet = greeted
    await ctx.report_progress(0, 1)
    await asyncio.wait_for(greet.wait(), 60)
    raise ValueError("failed for a reason of its own")


@server.tool()
async def steps(n: int, ctx: Context, wait_for_greet: bool = False) -> str:
    """Reports progress once per step; with wait_for_greet, waits after the
    first until a greet has had its answer."""
    greet = greeted
    for step in range(1, n + 1):
        await asyncio.sleep(0.01)
        await ctx.report_progress(step, n)
        if step == 1 and wait_for_greet:
            await asyncio.wait_for(greet.wait(), 60)
    return f"{n} steps"


class Mode(enum.Enum):
    FAST = "fast"
    SLOW = "slow"


@server.tool()
def search(
    query: str,
    limit: Optional[int] = None,
    mode: Optional[Mode] = None,
    tags: Optional[list[str]] = None,
) -> dict:
    """Echoes the arguments it was given."""
    return {
        "query": query,
        "limit": limit,
        "mode": mode.value if mode else None,
        "tags": tags,
    }


if __name__ == "__main__":
    print("stdio-server: started", file=sys.stderr, flush=True)
    server.run()
