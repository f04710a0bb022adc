"""What the Python interop servers share: their log lines, and serving on loopback.

Each server prints `<name>: listening on 127.0.0.1:<port>` once it listens on a
port the OS picks, then `<name>: <event>` lines the test reads, and runs until
killed. Imported by `elicit_server.py` and `modern_server.py` from their folder.
"""

import asyncio
import socket
import sys
from typing import Awaitable, Callable

import uvicorn

App = Callable[[dict, Callable, Callable], Awaitable[None]]


def sayer(name: str) -> Callable[[str], None]:
    """Prints `<name>: <text>` lines, flushed at once for the test to read."""

    def say(text: str) -> None:
        print(f"{name}: {text}", flush=True)

    return say


def reporting(inner: App, method: str, report: Callable[[dict], None]) -> App:
    """`inner`, calling `report(headers)` before each HTTP request of `method`."""

    async def wrapper(scope, receive, send):
        if scope["type"] == "http" and scope["method"] == method:
            report(dict(scope.get("headers") or []))
        await inner(scope, receive, send)

    return wrapper


async def serve(make_app: Callable[[], App], say: Callable[[str], None]) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    config = uvicorn.Config(make_app(), log_level="warning", lifespan="on")
    uv = uvicorn.Server(config)
    say(f"listening on 127.0.0.1:{port}")
    await uv.serve(sockets=[sock])


def main(script: str, make_app: Callable[[], App], say: Callable[[str], None]) -> None:
    """Serves `make_app()` until killed; `script` takes no arguments."""
    if sys.argv[1:]:
        sys.exit(f"usage: {script} (no arguments)")
    asyncio.run(serve(make_app, say))
