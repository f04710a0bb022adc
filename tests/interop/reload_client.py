"""An HTTP MCP client from the Python MCP SDK (2.x) for mur's reload test
(tests/tests/e2e/interop_python.rs): it asks a devtools session to reload and
sends its next request at once, as an agent does (the SDK itself lists the
tools after a call, to check the call's structured output against them).

Usage: reload_client.py ENDPOINT ROUNDS. Each round calls `reload`, then
lists the tools (not from the SDK's cache), and prints one line:
`reload: PID tools: N`, the pid the reload answered from and how many tools
the next request found. An exception ends it with its type and message.
"""

import asyncio
import sys

from mcp import Client


async def main(url: str, rounds: int) -> None:
    async with Client(url) as client:
        for _ in range(rounds):
            reloaded = await client.call_tool("reload", {})
            tools = await client.list_tools(cache_mode="bypass")
            pid = reloaded.structured_content["pid"]
            print(f"reload: {pid} tools: {len(tools.tools)}", flush=True)


try:
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
except BaseException as error:  # an ExceptionGroup from the SDK's task group too
    print(f"failed: {type(error).__name__}: {error!r}"[:2000], flush=True)
    sys.exit(1)
