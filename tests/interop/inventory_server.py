"""A stdio MCP server from the Python MCP SDK's 1.x line (FastMCP) for mur's tests
of what a derived verb prints of a third party's results
(tests/tests/e2e/interop_derived.rs), run behind `mur devtools bridge`. Its tools:

- `inventory/list()` returns the stock as a list of records, which FastMCP sends
  as one text block per record beside `structuredContent` `{"result": [records]}`;
  its name has a `/`, which `mur devtools call NAME` sends as a method;
- `inventory/check(sku)` returns the record of `sku` as structured content, and
  as content its JSON and a line of its own the structured content lacks
  ("B2 is out of stock; reorder 5");
- `stocktake()` counts the records: a tool only this server has.

Prints `inventory-server: started` on stderr (the bridge's log) when it starts.
"""

import json
import sys

from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolResult, TextContent

server = FastMCP("interop-inventory")

STOCK = [{"sku": "A1", "count": 3}, {"sku": "B2", "count": 0}]


@server.tool(name="inventory/list")
def inventory_list() -> list[dict]:
    """Lists the stock, a record per SKU."""
    return STOCK


@server.tool(name="inventory/check")
def inventory_check(sku: str) -> CallToolResult:
    """The record of one SKU, and what to do about it."""
    record = next((r for r in STOCK if r["sku"] == sku), {"sku": sku, "count": 0})
    advice = f"{sku} is out of stock; reorder 5" if record["count"] == 0 else f"{sku} is in stock"
    return CallToolResult(
        content=[
            TextContent(type="text", text=json.dumps(record)),
            TextContent(type="text", text=advice),
        ],
        structuredContent=record,
    )


@server.tool()
def stocktake() -> str:
    """Counts the records."""
    return f"counted {len(STOCK)} records"


if __name__ == "__main__":
    print("inventory-server: started", file=sys.stderr, flush=True)
    server.run()
