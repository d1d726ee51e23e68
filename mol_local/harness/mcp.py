"""MCP tool servers (HCP `[tools.mcp.<name>]`), through the maintained `mcp` Python SDK.

One asyncio loop on a daemon thread owns every connection: each server has an
owner task that enters the SDK's `Client` (stdio: the SDK spawns the command;
url: streamable HTTP on loopback), lists the tools once and then waits; calls
from the turn's thread hop onto that loop and wait with the server's
`timeout_s`. Whatever a server does wrong — a command that does not exist, no
answer to `initialize`, garbage on stdout, a result over `max_result_kb`,
dying mid-call — becomes one line (`problem`) for `mol doctor` and
`mol tools mcp list`, or one `Error: ...` tool result in the turn; the turn
still answers. A server that died is started again on its next call.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import shutil
import threading
import time
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from mol_local.harness.errors import McpFailed

T = TypeVar("T")
DESTRUCTIVE = "destructive"


@dataclass(frozen=True)
class McpTool:
    server: str
    name: str  # the server's own name for it
    description: str
    schema: dict[str, Any]
    destructive: bool  # the server marks it so (annotations.destructiveHint = true, not read-only)

    @property
    def full_name(self) -> str:
        return f"{self.server}.{self.name}"


class _Loop:
    """The one event loop MCP connections live on (a daemon thread, started on first use)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="mol-mcp", daemon=True)
        self.thread.start()

    def run(self, coro: Awaitable[T], timeout: float) -> T:
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)  # type: ignore[arg-type]
        try:
            return future.result(timeout)
        except TimeoutError:
            future.cancel()
            raise

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)


def _tool(server: str, raw: Any) -> McpTool:
    notes = raw.annotations
    destructive = bool(notes is not None and notes.destructive_hint is True and notes.read_only_hint is not True)
    schema = raw.input_schema if isinstance(raw.input_schema, dict) else {"type": "object"}
    doc = " ".join((raw.description or raw.title or "").split())[:200]
    return McpTool(server, raw.name, doc, schema, destructive)


def result_text(result: Any) -> tuple[str, int]:
    """(what the model reads, the result's size in bytes as the server sent it)."""
    parts: list[str] = []
    size = 0
    for block in result.content or []:
        kind = getattr(block, "type", "")
        if kind == "text":
            parts.append(block.text)
            size += len(block.text.encode("utf-8", "replace"))
        elif kind in ("image", "audio"):
            size += len(block.data)
            parts.append(f"[{kind}: {getattr(block, 'mime_type', '?')}, {len(block.data) * 3 // 4} bytes]")
        elif kind == "resource_link":
            parts.append(f"[resource: {block.uri}]")
        else:
            dumped = block.model_dump_json(by_alias=True, exclude_none=True)
            parts.append(dumped)
            size += len(dumped)
    if not parts and result.structured_content is not None:
        text = json.dumps(result.structured_content, ensure_ascii=False)
        parts.append(text)
        size += len(text)
    return "\n".join(parts), size


class McpConnection:
    """One configured server: started on first use, started again after it died."""

    def __init__(self, cfg: Any, loop: _Loop, log_dir: Path) -> None:
        self.cfg = cfg
        self.loop = loop
        self.log_path = log_dir / f"mcp-{cfg.name}.log"
        self.client: Any = None
        self.tools: dict[str, McpTool] | None = None
        self.problem: str | None = None
        self._stop: asyncio.Event | None = None
        self._owner: asyncio.Task | None = None
        self._lock = threading.Lock()

    # -- start ----------------------------------------------------------------------------
    def _transport(self, errlog: Any) -> Any:
        from mcp import StdioServerParameters
        from mcp.client.stdio import stdio_client
        from mcp.client.streamable_http import streamable_http_client

        cfg = self.cfg
        if cfg.url:
            return streamable_http_client(cfg.url)
        return stdio_client(StdioServerParameters(command=cfg.command, args=list(cfg.args), env=dict(cfg.env) or None), errlog=errlog)

    async def _own(self, ready: asyncio.Future) -> None:
        from mcp import Client, Implementation

        self._stop = asyncio.Event()
        try:
            async with contextlib.AsyncExitStack() as stack:
                self.log_path.parent.mkdir(parents=True, exist_ok=True)
                errlog = stack.enter_context(open(self.log_path, "a", encoding="utf-8"))
                client = Client(self._transport(errlog), read_timeout_seconds=self.cfg.timeout_s, cache=None,
                                client_info=Implementation(name="mol-local", version="0.1.0"))
                await stack.enter_async_context(client)
                listing = await client.list_tools()
                self.client = client
                if not ready.done():
                    ready.set_result([_tool(self.cfg.name, t) for t in listing.tools])
                await self._stop.wait()
        except BaseException as exc:  # the owner ends here whatever happened; the caller words it
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else RuntimeError("cancelled"))
            if not isinstance(exc, Exception):
                raise
        finally:
            self.client = None

    async def _start(self) -> list[McpTool]:
        ready: asyncio.Future = asyncio.get_running_loop().create_future()
        self._owner = asyncio.create_task(self._own(ready))
        try:
            return await asyncio.wait_for(asyncio.shield(ready), self.cfg.timeout_s)
        except BaseException:
            self._owner.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._owner, 10)
            if ready.done() and not ready.cancelled():
                ready.exception()  # retrieved: the caller words the timeout, asyncio need not log it
            raise

    def start(self) -> dict[str, McpTool] | None:
        """Connect and list the tools; on failure record `problem` (one line) and return None."""
        with self._lock:
            if self.client is not None and self.tools is not None:
                return self.tools
            cfg = self.cfg
            if cfg.command and shutil.which(cfg.command) is None and not Path(cfg.command).is_file():
                return self._fail(f"command {cfg.command!r} was not found — install it or fix tools.mcp.{cfg.name}.command")
            try:
                tools = self.loop.run(self._start(), cfg.timeout_s + 15)
            except (TimeoutError, asyncio.TimeoutError):
                return self._fail(f"did not answer initialize within {cfg.timeout_s:g} s (does it print anything but MCP JSON-RPC "
                                  f"on stdout? see {self.log_path}) — fix the server or raise tools.mcp.{cfg.name}.timeout_s")
            except Exception as exc:  # the SDK's and the OS's failures alike: one line, the log has the rest
                return self._fail(f"could not start: {_why(exc)} — see {self.log_path}")
            self.tools = {t.name: t for t in tools}
            self.problem = None
            return self.tools

    def _fail(self, why: str) -> None:
        self.problem = why
        return None

    # -- calls ----------------------------------------------------------------------------
    def call(self, tool: str, args: dict[str, Any]) -> tuple[str, int, bool, float]:
        """(text, size in bytes, is_error, the server's round trip in ms); McpFailed for a call that did not complete."""
        if self.client is None and self.start() is None:
            raise McpFailed(f"the MCP server {self.cfg.name} is not running: {self.problem}")
        client, timeout = self.client, self.cfg.timeout_s

        async def go() -> tuple[Any, float]:
            t0 = time.perf_counter()
            result = await asyncio.wait_for(client.call_tool(tool, args, read_timeout_seconds=timeout), timeout)
            return result, (time.perf_counter() - t0) * 1000

        try:
            result, ms = self.loop.run(go(), timeout + 5)
        except (TimeoutError, asyncio.TimeoutError):
            self.restart(f"{tool} did not answer within {timeout:g} s")
            raise McpFailed(f"{self.cfg.name}.{tool} did not answer within {timeout:g} s (tools.mcp.{self.cfg.name}.timeout_s) — "
                            "try again later or answer without it") from None
        except Exception as exc:
            self.restart(f"{tool} failed: {_why(exc)}")
            raise McpFailed(f"the MCP server {self.cfg.name} failed during {tool} ({_why(exc)}) — it is started again on the "
                            "next call; answer without it for now") from None
        text, size = result_text(result)
        return text, size, bool(result.is_error), ms

    def restart(self, why: str) -> None:
        """Drop the connection (the next call starts the server again)."""
        self.problem = why
        self.close()

    def close(self) -> None:
        stop, owner = self._stop, self._owner
        self.client, self._owner = None, None
        if stop is not None and owner is not None and not owner.done():
            self.loop.loop.call_soon_threadsafe(stop.set)

            async def wait() -> None:
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(owner, 10)

            with contextlib.suppress(Exception):
                self.loop.run(wait(), 15)


def _why(exc: BaseException) -> str:
    """The innermost useful message of an exception (the SDK wraps failures in task-group groups)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class McpHub:
    """Every configured MCP server of one runtime; the tools they offer and the problems they have."""

    def __init__(self, servers: Mapping[str, Any], log_dir: Path) -> None:
        logging.getLogger("mcp").setLevel(logging.CRITICAL)  # the SDK logs each bad line with a traceback; we report one line
        self.servers = {name: cfg for name, cfg in servers.items() if cfg.enabled}
        self.log_dir = log_dir
        self._loop: _Loop | None = None
        self._conns: dict[str, McpConnection] = {}
        self._started = False
        self._lock = threading.Lock()

    def connection(self, name: str) -> McpConnection:
        with self._lock:
            if self._loop is None:
                self._loop = _Loop()
            if name not in self._conns:
                self._conns[name] = McpConnection(self.servers[name], self._loop, self.log_dir)
            return self._conns[name]

    def tools(self) -> dict[str, McpTool]:
        """`<server>.<tool>` -> tool, for every server that started (each is tried once; a failed one stays out)."""
        if not self._started:
            self._started = True
            starts = [threading.Thread(target=self.connection(name).start, daemon=True) for name in self.servers]
            for thread in starts:  # in parallel: a slow server costs its own timeout, not everyone's
                thread.start()
            for thread in starts:
                thread.join()
        out: dict[str, McpTool] = {}
        for name in self.servers:
            listed = self.connection(name).tools or {}
            out.update({t.full_name: t for t in listed.values()})
        return out

    def problems(self) -> dict[str, str]:
        self.tools()
        return {name: conn.problem for name, conn in self._conns.items() if conn.problem and conn.tools is None}

    def close(self) -> None:
        for conn in list(self._conns.values()):
            conn.close()
        if self._loop is not None:
            self._loop.close()
            self._loop = None
