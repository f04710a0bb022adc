#!/usr/bin/env python3
"""The scripted MCP agent of mur-eval: solves each task with the MCP Python SDK's client.

    agent.py --config .mcp.json --task TASK

reads the session's URL from the MCP client configuration the MCP profile writes (the
`mcpServers` shape), connects with the SDK's `Client` (protocol 2026-07-28 when the server
speaks it) and makes the tool calls of TASK's script below. It answers a confirmation
question (elicitation) with yes. A failed tool call ends it with exit 1.

The SDK is the pinned 2.x line of tests/interop/requirements-modern.txt (venv
`target/interop-modern-venv`, made by `.ci/run`).
"""

import argparse
import asyncio
import base64
import json
import os
import re
import sys
import time
from pathlib import Path

from mcp import Client
from mcp.types import ElicitResult, Implementation

AGENT = Implementation(name="mur-eval-mcp-agent", version="1.0")


def received(tool, arguments, result, started):
    """Logs a tool call and what a model host gives the model of its result, when
    `mur-eval study` asks for a transcript (MUR_EVAL_TRANSCRIPT, schema
    mur-eval-transcript/1): the study measures the context the agent got from it, and
    shows the call in the run's trace. That is the result's content blocks — a text
    block's text, an image block apart under `images` (a host gives the model an image,
    not its base64 as text: the study counts it by its pixel size), any other block as
    JSON — or its structuredContent when it has none; not the whole CallToolResult, whose
    structuredContent repeats the text block's JSON (and isError, resultType), which
    counted every result twice."""
    path = os.environ.get("MUR_EVAL_TRANSCRIPT")
    if path:
        blocks = result.content or []
        images = [block.model_dump(by_alias=True, exclude_none=True)
                  for block in blocks if getattr(block, "type", None) == "image"]
        texts = [block.text if getattr(block, "type", None) == "text"
                 else block.model_dump_json(by_alias=True, exclude_none=True)
                 for block in blocks if getattr(block, "type", None) != "image"]
        if blocks:
            text = "\n".join(texts)
        else:
            text = json.dumps(result.structured_content, separators=(",", ":"))
        line = {"schema": "mur-eval-transcript/1", "kind": "result", "what": tool,
                "arguments": arguments, "time": started, "text": text}
        if images:
            line["images"] = images
        with open(path, "a", encoding="utf-8") as transcript:
            transcript.write(json.dumps(line) + "\n")


async def confirm(_context, params):
    """Says yes to the app's question (clearTodos asks for `confirm`)."""
    print(f"question: {params.message} -> yes", file=sys.stderr)
    return ElicitResult(action="accept", content={"confirm": True})


class Agent:
    """One connection to the session and the calls of a task's script."""

    def __init__(self, url):
        self.url = url
        self.client = None

    async def __aenter__(self):
        await self.connect()
        return self

    async def __aexit__(self, *exc):
        await self.client.__aexit__(*exc)

    async def connect(self):
        self.client = Client(self.url, client_info=AGENT, elicitation_callback=confirm)
        await self.client.__aenter__()

    async def call(self, tool, raw=False, **arguments):
        """Calls `tool`; its structured result (a dict), or with `raw` the whole result."""
        started = time.time() * 1000
        result = await self.client.call_tool(tool, arguments)
        received(tool, arguments, result, started)
        text = " ".join(block.text for block in result.content if block.type == "text")
        print(f"{tool} {json.dumps(arguments)} -> {text[:300]}", flush=True)
        if result.is_error:
            sys.exit(f"error: `{tool}` failed: {text}")
        if raw or result.structured_content is None:
            return result
        return result.structured_content

    async def reload(self, attempts=100):
        """Calls `reload` on a connection of its own, which goes down with the app, then
        connects again once the app answers at the same URL."""
        await self.client.__aexit__(None, None, None)
        try:
            async with Client(self.url, client_info=AGENT) as client:
                started = time.time() * 1000
                result = await client.call_tool("reload", {})
                received("reload", {}, result, started)
                print(f"reload {{}} -> {result.structured_content}", flush=True)
        except Exception as error:  # the app may close the connection as it answers
            print(f"reload: the connection went down ({type(error).__name__})", flush=True)
        for _ in range(attempts):
            try:
                await self.connect()
                # Listing the tools reaches the server without calling a tool.
                await self.client.list_tools()
                return
            except Exception:
                await asyncio.sleep(0.1)
        sys.exit("error: the app did not come back after the reload")


# One script per task: the calls a person who knows the app would make.

async def count_to_three(a):
    for _ in range(3):
        await a.call("click", selector="#btn-inc")


async def add_todo(a, text="buy milk"):
    await a.call("switchComponent", component="todo")
    await a.call("type", selector="#todo-input", text=text)
    await a.call("click", selector="#todo-add")
    await a.call("waitFor", selector="#todo-list ListItem", text=text)


async def finish_todo(a):
    await add_todo(a, "water plants")
    await a.call("toggle", selector='ListItem:text("water plants")')


async def select_todo(a):
    await a.call("switchComponent", component="todo")
    await a.call("select", selector="#todo-list", item='ListItem:text("bravo")')


async def forest_theme(a):
    await a.call("switchComponent", component="settings")
    await a.call("select", selector="#theme", item="#theme-forest")


async def advanced_settings(a):
    await a.call("switchComponent", component="settings")
    await a.call("expand", selector="#advanced")
    await a.call("toggle", selector="#verbose")
    await a.call("type", selector="#cache-size", text="128", clear=True)


async def scroll_log(a):
    await a.call("switchComponent", component="settings")
    await a.call("scroll", selector="#log", to="#log-150")


async def first_warning(a):
    line = await a.call("state", selector='#log *:text("warn")')
    number = int(re.match(r"\d+", line["text"]).group())
    await a.call("fire", target="counter.set", args={"value": number})


async def about_title(a):
    windows = await a.call("windows")
    title = next(w["title"] for w in windows["windows"] if w["id"] != "main")
    await a.call("switchComponent", component="todo")
    await a.call("type", selector="#todo-input", text=title)


async def updates_off(a):
    await a.call("toggle", selector="#check-updates")


async def settings_screenshot(a):
    await a.call("switchComponent", component="settings")
    await a.call("toggle", selector="#dark-mode")
    shot = await a.call("screenshot", raw=True, window="main")
    image = next(block for block in shot.content if block.type == "image")
    Path("settings.png").write_bytes(base64.b64decode(image.data))


async def restart(a):
    await a.reload()
    await a.call("fire", target="counter.set", args={"value": 1})


async def clear_todos(a):
    await a.call("clearTodos")


async def focus_cache(a):
    await a.call("switchComponent", component="settings")
    await a.call("expand", selector="#advanced")
    await a.call("focus", selector="#cache-size")


SCRIPTS = {
    name.replace("_", "-"): script
    for name, script in globals().items()
    if asyncio.iscoroutinefunction(script) and name not in ("confirm", "main")
}


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True, help="the MCP client configuration (.mcp.json)")
    parser.add_argument("--task", required=True, choices=sorted(SCRIPTS))
    args = parser.parse_args()
    servers = json.loads(Path(args.config).read_text())["mcpServers"]
    url = next(iter(servers.values()))["url"]
    async with Agent(url) as agent:
        await SCRIPTS[args.task](agent)


if __name__ == "__main__":
    asyncio.run(main())
