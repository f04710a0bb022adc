"""A stdio MCP client from the Python MCP SDK (1.x) for mur's proxy test
(tests/tests/e2e/bridge_proxy.rs): it launches `mur devtools proxy` as its
server, as an agent host that only launches stdio servers would.

Usage: proxy_client.py MUR [MUR ARGS…]. With the environment it was given
(the test's sandbox), it initializes, lists the tools, reads `state` of
`#count`, clicks `#btn-inc`, reads it again, adds a todo on the `todo` page
and calls `clearTodos`, whose question it answers (confirm: true) in its
elicitation callback. Prints one
JSON object with what it saw.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client


async def main() -> None:
    params = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:], env=dict(os.environ))
    asked = []

    async def answer(context, request: types.ElicitRequestParams):
        asked.append(request.message)
        return types.ElicitResult(action="accept", content={"confirm": True})

    def text(result: types.CallToolResult):
        return json.loads(result.content[0].text)

    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, elicitation_callback=answer) as session:
            init = await session.initialize()
            tools = await session.list_tools()
            before = await session.call_tool("state", {"selector": "#count"})
            await session.call_tool("click", {"selector": "#btn-inc"})
            after = await session.call_tool("state", {"selector": "#count"})
            await session.call_tool("switchComponent", {"component": "todo"})
            await session.call_tool("type", {"selector": "#todo-input", "text": "buy milk"})
            await session.call_tool("invoke", {"selector": "#todo-add"})
            wait = {"selector": "#todo-list > ListItem", "text": "buy milk", "timeoutMs": 5000}
            await session.call_tool("waitFor", wait)
            cleared = await session.call_tool("clearTodos", {})
    print(json.dumps({
        "server": init.serverInfo.name,
        "capabilities": init.capabilities.model_dump(exclude_none=True),
        "tools": sorted(t.name for t in tools.tools),
        "before": text(before)["text"],
        "after": text(after)["text"],
        "asked": asked,
        "cleared": text(cleared),
    }))


asyncio.run(main())
