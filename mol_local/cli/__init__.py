"""`mol`: the command line. With no subcommand it opens the TUI.

User errors (our errors.py exceptions) become one line on stderr and a
non-zero exit, never a traceback. This module is the only place that happens.
"""

from __future__ import annotations

import sys

import click

from mol_local.errors import user_errors

USER_ERRORS = user_errors()


class MolGroup(click.Group):
    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except USER_ERRORS as exc:
            click.echo(f"Error: {exc}", err=True)
            ctx.exit(getattr(exc, "exit_code", 1))


@click.group(cls=MolGroup, invoke_without_command=True)
@click.option("--hcp", "hcp_path", type=click.Path(dir_okay=False), envvar="MOL_HCP", help="HCP file to use.")
@click.pass_context
def cli(ctx: click.Context, hcp_path: str | None) -> None:
    """mol-local: a local Mixture-of-LoRA assistant."""
    ctx.obj = {"hcp": hcp_path}
    if ctx.invoked_subcommand is None:
        from mol_local.cli.tui import open_tui

        open_tui(hcp_path)


def main() -> None:
    from mol_local.paths import offline_env

    offline_env()
    if wants_subcommand(sys.argv[1:]):
        import_commands()
    cli(prog_name="mol")


def wants_subcommand(argv: list[str]) -> bool:
    """False for plain `mol [--hcp FILE]`: the app opens without importing every subcommand (cold start)."""
    args = iter(argv)
    for arg in args:
        if arg == "--hcp":
            next(args, None)
        elif not arg.startswith("--hcp="):
            return True
    return False


def import_commands() -> None:
    """Import every subcommand module so it registers itself on `cli` (one line per module)."""
    from mol_local.cli import bench  # noqa: F401
    from mol_local.cli import bench_memory  # noqa: F401
    from mol_local.cli import chat  # noqa: F401
    from mol_local.cli import consent  # noqa: F401
    from mol_local.cli import memory  # noqa: F401
    from mol_local.cli import hcp  # noqa: F401
    from mol_local.cli import route  # noqa: F401
    from mol_local.cli import serve  # noqa: F401
    from mol_local.cli import remote  # noqa: F401
    from mol_local.cli import doctor  # noqa: F401
    from mol_local.cli import bench_serve  # noqa: F401
    from mol_local.cli import bench_tui  # noqa: F401
    from mol_local.cli import tools  # noqa: F401
    from mol_local.cli import tools_mcp  # noqa: F401
    from mol_local.cli import adapters  # noqa: F401
    from mol_local.cli import genui  # noqa: F401
    from mol_local.cli import bench_genui  # noqa: F401
    from mol_local.cli import train  # noqa: F401
    from mol_local.cli import bench_learning  # noqa: F401
    from mol_local.cli import bench_specialists  # noqa: F401
    from mol_local.cli import models  # noqa: F401
    from mol_local.cli import bench_models  # noqa: F401


if __name__ == "__main__":
    sys.exit(main())
