"""What the end-to-end tests' small stdio MCP servers share (stdlib only).

A server is a few lines that import this module (written beside it in the sandbox)
and call `serve` with what is its own: its name, how it answers `tools/call`, its
tools, and anything else it does with a message. One JSON-RPC message a line, in and
out, as MCP's stdio transport has it.
"""

import json
import sys


def send(message):
    """Writes `message` as one line on stdout, at once."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def answer(mid, result):
    send({"jsonrpc": "2.0", "id": mid, "result": result})


def text(mid, words):
    """Answers a tool call with one text block."""
    answer(mid, {"content": [{"type": "text", "text": words}]})


def serve(name, call, tools=(), initialize=True, other=None):
    """Answers each line of stdin until it ends: `initialize` as the server `name`
    (not at all when `initialize` is false), `tools/list` with `tools`, `tools/call`
    by `call(mid, params)`, and any other request with `{}`. `other(message)`, when
    given, sees each message first and returns true for one it has dealt with."""
    for raw in sys.stdin:
        message = json.loads(raw)
        mid, method = message.get("id"), message.get("method")
        if other is not None and other(message):
            continue
        if method == "initialize":
            if initialize:
                answer(mid, {"protocolVersion": "2025-06-18",
                             "capabilities": {"tools": {}},
                             "serverInfo": {"name": name, "version": "1"}})
        elif method == "tools/list":
            answer(mid, {"tools": list(tools)})
        elif method == "tools/call":
            call(mid, message.get("params") or {})
        elif mid is not None:
            answer(mid, {})
