"""A tiny MCP server for the tests, written with the same `mcp` SDK the harness uses.

`python mcp_server.py MODE`: ok (add, echo, wipe [destructive], big, die), garbage (prints
non-JSON-RPC lines and nothing else), silent (reads stdin, never answers).
"""

from __future__ import annotations

import os
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"

if MODE == "garbage":
    for line in sys.stdin:
        print("hello! this is not JSON-RPC <html>", flush=True)
    sys.exit(0)
if MODE == "silent":
    for line in sys.stdin:
        pass
    time.sleep(3600)

from mcp.server.mcpserver import MCPServer  # noqa: E402
from mcp.types import ToolAnnotations  # noqa: E402

app = MCPServer("tiny")


@app.tool(description="Add two integers and return the sum")
def add(a: int, b: int) -> int:
    return a + b


@app.tool(description="Say the text back", annotations=ToolAnnotations(read_only_hint=True))
def echo(text: str) -> str:
    return text


@app.tool(description="Delete a file (pretend)", annotations=ToolAnnotations(destructive_hint=True))
def wipe(path: str) -> str:
    return f"wiped {path}"


@app.tool(description="Return megabytes of text")
def big(mb: int) -> str:
    return "x" * (mb * 1024 * 1024)


@app.tool(description="Exit the process in the middle of the call")
def die() -> str:
    os._exit(3)


@app.tool(description="Sleep, then answer")
def slow(seconds: float) -> str:
    time.sleep(seconds)
    return "done"


app.run("stdio")
