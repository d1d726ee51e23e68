"""`mol doctor`: what runs where, and what leaves the machine.

Each line is a (label, value) pair from one check function in CHECKS; other
areas add a check by appending a function here. A check that fails reports
its error as its value instead of stopping the others.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from hcp import HCP
from hcp.errors import HCPError
from mol_local.cli import cli
from mol_local.cli.common import emit_json
from mol_local.errors import MolError
from mol_local.turn.remote import privacy_line

Check = Callable[[HCP], list[tuple[str, str]]]


def check_model(hcp: HCP) -> list[tuple[str, str]]:
    from mol_local.models import base_fingerprint, resolve_model

    if hcp.backend == "remote":
        lines = [("model", f"remote {hcp.remote.model!r} ({hcp.remote.mode} mode)")]
        if not hcp.remote.fallback:
            return lines
        from hcp import load_profile

        hcp = load_profile(hcp.remote.fallback)
        prefix = "fallback "
    else:
        lines, prefix = [], ""
    path = resolve_model(hcp.base_model, relative_to=hcp.base_dir)
    return lines + [(f"{prefix}model", str(path)), (f"{prefix}fingerprint", base_fingerprint(path)), *_model_facts(path, prefix)]


def _model_facts(path: Path, prefix: str) -> list[tuple[str, str]]:
    """The base's chat template (a warning without one: answers will be poor) and its size."""
    from mol_local.catalog.choose import template_note
    from mol_local.catalog.facts import read_facts

    facts = read_facts(path)
    note = template_note(facts)
    return [(f"{prefix}chat template", f"WARNING: {note}" if note else f"yes ({facts.chat_format}, tool calls: {facts.tool_format or 'none'})"),
            (f"{prefix}model facts", f"{facts.architecture}, {facts.parameters_label} parameters, {facts.quant}, {facts.n_layer} layers")]


def check_gpu(hcp: HCP) -> list[tuple[str, str]]:
    """How many layers llama.cpp puts on a GPU: what this build supports and runtime.gpu_layers asks."""
    import llama_cpp

    if hcp.backend != "llama-cpp":
        return []
    from mol_local.catalog.facts import read_facts
    from mol_local.models import resolve_model

    layers = read_facts(resolve_model(hcp.base_model, relative_to=hcp.base_dir)).n_layer + 1  # + the output layer, as llama.cpp counts
    if not llama_cpp.llama_supports_gpu_offload():
        return [("gpu offload", f"0 of {layers} layers — this llama.cpp build is CPU-only (scripts/setup.sh builds CUDA when "
                                "nvidia-smi works, Metal on Apple Silicon; MOL_CMAKE_ARGS overrides)")]
    asked = hcp.gpu_layers
    on_gpu = layers if asked < 0 else min(asked, layers)
    return [("gpu offload", f"{on_gpu} of {layers} layers (runtime.gpu_layers = {asked}{'; 0 keeps everything on the CPU' if not on_gpu else ''})")]


def check_llama(_hcp: HCP) -> list[tuple[str, str]]:
    import llama_cpp

    info = llama_cpp.llama_print_system_info().decode("utf-8", "replace").strip()
    return [("llama.cpp", f"llama-cpp-python {llama_cpp.__version__}; {info}")]


def check_remote(hcp: HCP) -> list[tuple[str, str]]:
    from mol_local.keys import REMOTE_KEY_ENV, backend_name, keyring_available, remote_api_key

    lines = [("remote", privacy_line(hcp))]
    if hcp.backend == "remote":
        if remote_api_key(hcp.name):
            state = "set"
        elif keyring_available():
            state = "missing — run `mol remote login`"
        else:
            state = f"missing — no OS keyring here; set {REMOTE_KEY_ENV}"
        lines.append(("remote key", state))
    lines.append(("keyring", backend_name() if keyring_available() else f"none ({backend_name()})"))
    return lines


# Each sandbox layer, and what this machine lacks when it does not hold (see mol_local/harness/_confine.py).
SANDBOX_LAYERS: dict[str, str] = {
    "network": "no network namespace and no seccomp: only the Python audit hook refuses sockets",
    "proc": "no PID namespace and no Landlock: other processes' /proc (their environment, command line) is readable",
    "mounts": "no private mount namespace or mount_setattr (Linux 5.12+): chmod/chown/utime outside the workspace are refused by seccomp instead",
    "files": "no Landlock (Linux 5.13+, enabled in the kernel's lsm= list): reads and writes are confined by the audit hook only",
    "privileges": "capabilities could not be dropped: a sandbox run as root keeps root's powers",
    "syscalls": "no seccomp filter for this architecture: admin system calls (reboot, mount, bpf, ...) are not filtered",
    "processes": "no seccomp: new processes are refused by RLIMIT_NPROC and the audit hook only",
    "unix_sockets": "no seccomp: host unix sockets (tmux, docker, dbus) are refused by the audit hook only",
    "disk": "no workspace quota",
    "threads": "threads a call leaves behind keep running between calls",
}


def sandbox_lines(found: dict[str, str]) -> list[tuple[str, str]]:
    """One line per layer: what holds it, or UNAVAILABLE and what that leaves open."""
    return [(f"sandbox {layer.replace('_', ' ')}", found.get(layer) or f"UNAVAILABLE here — {missing}")
            for layer, missing in SANDBOX_LAYERS.items()]


def check_sandbox(_hcp: HCP) -> list[tuple[str, str]]:
    """Which layers confine the tool sandbox here (starts and stops one throwaway sandbox)."""
    from mol_local.harness import protections

    return sandbox_lines(protections())


def check_adapters(hcp: HCP) -> list[tuple[str, str]]:
    """Each slot's adapter stack on this base, and any shipped adapter that could not be used (its slot runs bare)."""
    if hcp.backend != "llama-cpp":
        return []
    from mol_local.adapters.builtin import seed_shipped
    from mol_local.adapters.manifest import base_fingerprint
    from mol_local.adapters.registry import Registry
    from mol_local.models import resolve_model
    from mol_local.paths import mol_home

    base = resolve_model(hcp.base_model, relative_to=hcp.base_dir)
    registry = Registry(mol_home() / "adapters")
    problems = seed_shipped(registry, base)
    lines = [("adapters", "; ".join(problems))] if problems else []
    fingerprint = base_fingerprint(base)
    for slot in hcp.slots:
        names = []
        for hop in ("route", "answer") if slot == hcp.entry_slot else ("answer",):
            for spec in registry.stack(slot, hop=hop, fingerprint=fingerprint):
                rev = Path(spec.path).parent
                names.append(f"{hop}: {rev.parent.name}/{rev.name}")
        lines.append((f"adapters {slot}", ", ".join(names) or _bare(registry, slot, fingerprint)))
    return lines


def _bare(registry, slot: str, fingerprint: str) -> str:
    from mol_local.adapters.manifest import LAYERS

    other = sum(1 for layer in LAYERS for rev in registry.revisions(slot, layer) if rev.manifest.get("base_fingerprint") != fingerprint)
    if other:
        return f"none for this base — runs bare; {other} revision(s) made for another base are kept for it"
    return "none — the bare base with its persona"


def check_mcp(hcp: HCP) -> list[tuple[str, str]]:
    """Each MCP server of the HCP: does it start, how many tools, how many ask first (each is started and stopped)."""
    from mol_local.cli.tools_mcp import lines

    return lines(hcp) if hcp.tools.mcp else []


CHECKS: list[Check] = [check_model, check_llama, check_gpu, check_remote, check_adapters, check_sandbox, check_mcp]


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def doctor(ctx: click.Context, as_json: bool) -> None:
    """Report the model, llama.cpp build, keyring and what leaves this machine."""
    from mol_local.runtime import load_default_hcp

    path = (ctx.obj or {}).get("hcp")
    hcp = load_default_hcp(Path(path) if path else None)
    lines: list[tuple[str, str]] = [("profile", hcp.name)]
    for check in CHECKS:
        try:
            lines += check(hcp)
        except (MolError, HCPError) as exc:  # one broken part must not hide the others' report
            lines.append((check.__name__.removeprefix("check_"), f"error: {exc}"))
    if as_json:
        emit_json(dict(lines))
        return
    width = max(len(label) for label, _ in lines)
    for label, value in lines:
        click.echo(f"{label.ljust(width)}  {value}")
