"""`mol serve`: the assistant as an OpenAI-compatible endpoint (loopback by default, bearer token required)."""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading

import click

from mol_local.cli import cli
from mol_local.cli.common import open_runtime
from mol_local.errors import ServeError
from mol_local.keys import SERVE_TOKEN_ENV, serve_token


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind; non-loopback needs a stored or MOL_SERVE_TOKEN token.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="Port (0 = any free port).")
@click.option("--max-body", default=1 << 20, show_default=True, type=click.IntRange(1024, 64 << 20), help="Largest request body in bytes.")
@click.option("--drain-seconds", default=30.0, show_default=True, type=click.FloatRange(0, 3600), help="On shutdown, how long running streams may finish.")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="A Host name to answer besides loopback names and --host (repeatable); others get 403 (DNS rebinding).")
@click.option("--max-connections", default=64, show_default=True, type=click.IntRange(1, 4096), help="Open connections at once; more get 503.")
@click.option("--show-token", is_flag=True, help="Print the token the running server accepts (or say where it is) and exit.")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, max_body: int, drain_seconds: float, allow_hosts: tuple[str, ...],
          max_connections: int, show_token: bool) -> None:
    """Serve GET /health, GET /v1/models[/ID] and POST /v1/chat/completions (models: mol, L0..L3)."""
    from mol_local.server import Limits, is_loopback, make_server
    from mol_local.server.state import publish, withdraw

    if show_token:
        click.echo(_shown_token())
        return
    token = serve_token()
    if not is_loopback(host) and token.source == "ephemeral":
        raise ServeError(
            f"Refusing to bind {host} (not loopback) without a stored token — set {SERVE_TOKEN_ENV} or run where an OS keyring exists"
        )
    if token.source == "ephemeral" and not sys.stderr.isatty():
        raise ServeError(
            f"No OS keyring to keep a generated token and no terminal to show it — set {SERVE_TOKEN_ENV} in the environment"
        )
    runtime = open_runtime(ctx)
    runtime.engine  # load the model before accepting requests
    server = make_server(runtime, token.value, host=host, port=port, max_body=max_body,
                         limits=Limits(max_connections=max_connections), allow_hosts=allow_hosts)
    record = publish(host, server.port, token.source)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    where = {"env": f"from {SERVE_TOKEN_ENV}", "keyring": "from the keyring", "new": "new, stored in the keyring"}
    note = where.get(token.source, "for this run only (no keyring here): " + token.value)
    click.echo(f"mol serve: http://{host}:{server.port}/v1 (models: {', '.join(server.service.model_names())})", err=True)
    click.echo(f"token {note}; `mol serve --show-token` prints it", err=True)
    click.echo(f"listening {host} {server.port}", err=False)
    sys.stdout.flush()

    def stop(_signum, _frame) -> None:
        threading.Thread(target=server.drain, args=(drain_seconds,), daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.serve_forever(poll_interval=0.1)
    finally:
        withdraw(record)
        server.server_close()  # joins handler threads: running streams finish first
        runtime.close()
    click.echo("mol serve: stopped", err=True)


def _shown_token() -> str:
    """The token a running server of this MOL_HOME accepts, proved by asking it; else the one a new server would use.

    Never makes a token a running server would not know (the old behaviour printed a fresh one it rejected)."""
    from mol_local.keys import SERVE_TOKEN_NAME, get_secret
    from mol_local.server.state import accepts, running

    live = running()
    if not live:
        token = serve_token()  # env, keyring, or a new one stored in the keyring for the next `mol serve`
        if token.source == "ephemeral":
            raise ServeError(f"No server is running, no OS keyring is here and {SERVE_TOKEN_ENV} is unset — set {SERVE_TOKEN_ENV} for both `mol serve` and its clients")
        return token.value
    candidates = [t for t in (os.environ.get(SERVE_TOKEN_ENV), get_secret(SERVE_TOKEN_NAME)) if t]
    for server in live:
        for candidate in candidates:
            if accepts(server, candidate):
                return candidate
    server = live[0]
    where = {
        "env": f"from {SERVE_TOKEN_ENV} in its own environment, which is not stored anywhere — use the value it was started with",
        "ephemeral": "made for that run only (no keyring there) and printed on its terminal at start-up — read it there, "
                     f"or restart it with {SERVE_TOKEN_ENV} set",
    }.get(server["token_source"], "from the keyring as it was at start-up; the keyring now holds another one — restart `mol serve` to use it"
          if get_secret(SERVE_TOKEN_NAME) else "from the keyring, which this shell cannot read — run this where the server's keyring is unlocked")
    raise ServeError(f"The running server (pid {server['pid']}, port {server['port']}) takes its token {where}")
