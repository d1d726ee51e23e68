"""`mol serve`: the assistant as an OpenAI-compatible endpoint (loopback by default, bearer token required)."""

from __future__ import annotations

import logging
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
@click.option("--show-token", is_flag=True, help="Print the bearer token and exit.")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, max_body: int, drain_seconds: float, show_token: bool) -> None:
    """Serve GET /health, GET /v1/models and POST /v1/chat/completions (models: mol, L0..L3)."""
    from mol_local.server import is_loopback, make_server

    token = serve_token()
    if show_token:
        click.echo(token.value)
        return
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
    server = make_server(runtime, token.value, host=host, port=port, max_body=max_body)
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
        server.server_close()  # joins handler threads: running streams finish first
        runtime.close()
    click.echo("mol serve: stopped", err=True)
