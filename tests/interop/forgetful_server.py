"""A session-based (2025-06-18) MCP server that forgets its sessions on request.

Streamable HTTP, JSON answers only, stdlib only, bound to 127.0.0.1 on the port
given as its first argument (0: one the OS picks). Its tools: `forget` drops every
session (a request in one later is answered HTTP 404, as MCP asks of a server that
ended it), and `slow`, which counts its runs and answers `slow run #N` once the
server has been asked to open a session after forgetting (so, in a test, once the
client has had its 404: no sleep decides the order). With `--initialize-hangs`,
`initialize` is never answered (a client's call then ends in its bound before its
tool call is sent).

Prints, flushed, `forgetful: listening on 127.0.0.1:<port>`, then one line per
POST as received (`forgetful: <method> session=<known|unknown|none> tool=<name>`),
and `forgetful: slow started`, `forgetful: slow ran, total <N>`. Runs until killed.
"""

import json
import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sessions = set()
runs = {"slow": 0}
lock = threading.Lock()
# Set when a session is opened after `forget`: `slow` answers then.
reopened = threading.Event()
forgotten = threading.Event()
hangs = "--initialize-hangs" in sys.argv[2:]


def say(line):
    print(f"forgetful: {line}", flush=True)


def result(text):
    return {"content": [{"type": "text", "text": text}]}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, code, body=None, headers=None):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(code)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.send(405)

    def do_DELETE(self):
        with lock:
            sessions.discard(self.headers.get("Mcp-Session-Id"))
        self.send(200)

    def answer(self, msg, res):
        self.send(200, {"jsonrpc": "2.0", "id": msg["id"], "result": res})

    def do_POST(self):
        msg = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        sid = self.headers.get("Mcp-Session-Id")
        method = msg.get("method")
        with lock:
            known = sid in sessions
        state = "none" if sid is None else "known" if known else "unknown"
        tool = (msg.get("params") or {}).get("name")
        say(f"{method} session={state} tool={tool}")
        if method == "initialize":
            if hangs:
                threading.Event().wait()
            session = uuid.uuid4().hex
            with lock:
                sessions.add(session)
            if forgotten.is_set():
                reopened.set()
            info = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "forgetful", "version": "1"},
            }
            return self.send(
                200,
                {"jsonrpc": "2.0", "id": msg["id"], "result": info},
                {"Mcp-Session-Id": session},
            )
        if not known:
            error = {"code": -32001, "message": "Session not found"}
            return self.send(404, {"jsonrpc": "2.0", "id": None, "error": error})
        if "id" not in msg:
            return self.send(202)
        if method == "tools/list":
            tools = [
                {"name": name, "inputSchema": {"type": "object"}}
                for name in ("slow", "forget")
            ]
            return self.answer(msg, {"tools": tools})
        if method == "tools/call" and tool == "slow":
            say("slow started")
            reopened.wait()
            with lock:
                runs["slow"] += 1
                count = runs["slow"]
            say(f"slow ran, total {count}")
            return self.answer(msg, result(f"slow run #{count}"))
        if method == "tools/call" and tool == "forget":
            with lock:
                sessions.clear()
            forgotten.set()
            return self.answer(msg, result("forgot"))
        if method == "ping":
            return self.answer(msg, {})
        error = {"code": -32601, "message": "no such method"}
        self.send(200, {"jsonrpc": "2.0", "id": msg["id"], "error": error})


if __name__ == "__main__":
    if len(sys.argv) < 2 or not sys.argv[1].isdigit():
        sys.exit("usage: forgetful_server.py PORT [--initialize-hangs]")
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    say(f"listening on 127.0.0.1:{server.server_address[1]}")
    server.serve_forever()
