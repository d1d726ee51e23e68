"""Validated tool reuse: stage a helper, promote it only after its held-out tests pass.

`save` stages `$MOL_HOME/tools/.staged/<name>/` (tool.py + tests.json);
`promote` runs every test case in a *fresh* sandbox and only if all pass copies
the files to `$MOL_HOME/tools/<name>/`, records the sha256 of the source and
makes it callable in every conversation. A promoted tool that later fails (an
exception in its own code, a limit, a crash, or its file no longer matching the
recorded hash) is demoted at once; every step is an event in `skill_events`.
The live registry is SQLite; the HCP's `[skills]` table is updated too when
the HCP version store is available (see `hcp_record`).
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from sqlite_utils import Database

from memory.db import transaction
from memory.timeline import new_id, now_iso
from mol_local.harness.errors import BadArguments, PromotionFailed, SkillNotFound
from mol_local.harness.limits import FAMILIES, ToolLimits
from mol_local.harness.sandbox import Sandbox, SandboxResult

NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
RESERVED = set(FAMILIES) | {t.split(".")[0] for fam in FAMILIES.values() for t in fam} | {"save_tool", "promote_tool"}
MAX_SOURCE = 64 * 1024


@dataclass(frozen=True)
class SkillInfo:
    name: str
    status: str
    sha256: str
    path: str
    doc: str
    params: tuple[tuple[str, bool], ...]  # (name, required)


@dataclass
class PromotionReport:
    name: str
    passed: int
    failed: list[str] = field(default_factory=list)
    sha256: str = ""
    hcp: str = ""  # how the HCP recorded it, or why it did not


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _signature(source: str, name: str) -> tuple[str, tuple[tuple[str, bool], ...]]:
    """The function's one-line docstring and (param, required) pairs, read without running it."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise BadArguments(f"the source of {name!r} does not parse (line {exc.lineno}: {exc.msg}) — fix the code") from exc
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            args = node.args
            positional = args.posonlyargs + args.args
            n_required = len(positional) - len(args.defaults)
            params = [(a.arg, i < n_required) for i, a in enumerate(positional)]
            params += [(a.arg, d is None) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
            doc = (ast.get_docstring(node) or "").strip().splitlines()
            return (doc[0] if doc else f"saved tool {name}"), tuple(params)
    raise BadArguments(f"the source defines no top-level function named {name!r} — name the function like the tool")


def _check_tests(tests: Any) -> list[dict]:
    example = '[{"args": {"x": 2}, "expect": 4}]'
    if isinstance(tests, str):
        try:
            tests = json.loads(tests)
        except ValueError as exc:
            raise BadArguments(f"tests are not valid JSON ({exc}) — pass a list like {example}") from exc
    if not isinstance(tests, list) or not tests:
        raise BadArguments(f"tests must be a non-empty list of cases — e.g. {example}")
    for i, case in enumerate(tests):
        if not isinstance(case, dict) or not isinstance(case.get("args"), dict) or "expect" not in case or set(case) - {"args", "expect"}:
            raise BadArguments(f"test case {i} must be an object with `args` (an object) and `expect` — e.g. {example}")
    return tests


class SkillRecorder(Protocol):
    """Mirrors promotions into the HCP; each method returns a line saying what it did."""

    def promoted(self, name: str, sha256: str, source_file: Path, description: str) -> str: ...

    def demoted(self, name: str, reason: str) -> str: ...


class SkillStore:
    def __init__(self, db: Database, root: Path, *, recorder: SkillRecorder | None = None) -> None:
        self.db = db
        self.root = Path(root)
        self.recorder = recorder

    def _staged_dir(self, name: str) -> Path:
        return self.root / ".staged" / name

    def _row(self, name: str) -> dict:
        rows = list(self.db.query("select * from skills where name = ?", [name]))
        if not rows:
            raise SkillNotFound(f"no saved tool named {name!r} — see `mol tools list`")
        return rows[0]

    def _event(self, name: str, event: str, sha: str, detail: Any, change: dict | None = None) -> None:
        """Log an event, and apply `change` to the skill's row in the same transaction."""
        with transaction(self.db) as db:
            if change is not None:
                db["skills"].upsert({"name": name, **change}, pk="name")
            db["skill_events"].insert(
                {"id": new_id(), "name": name, "event": event, "sha256": sha, "detail": json.dumps(detail, ensure_ascii=False), "created_at": now_iso()}
            )

    # -- staging and promotion -----------------------------------------------------------------
    def save(self, name: str, source: str, tests: Any) -> SkillInfo:
        """Stage a helper; it is not callable until `promote` validates it."""
        if not NAME.match(name) or name in RESERVED:
            raise BadArguments(f"tool name {name!r} is not allowed — use lowercase letters, digits and _ (not a built-in name)")
        if len(source) > MAX_SOURCE:
            raise BadArguments(f"the source is {len(source)} characters — keep a saved tool under {MAX_SOURCE}")
        doc, params = _signature(source, name)
        cases = _check_tests(tests)
        existing = list(self.db.query("select status from skills where name = ?", [name]))
        if existing and existing[0]["status"] == "promoted":
            raise BadArguments(f"{name!r} is already promoted — demote it first (`mol tools demote {name}`) to replace it")
        folder = self._staged_dir(name)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "tool.py").write_text(source, encoding="utf-8")
        (folder / "tests.json").write_text(json.dumps(cases, ensure_ascii=False, indent=1), encoding="utf-8")
        sha, stamp = sha256_text(source), now_iso()
        self._event(name, "staged", sha, {"tests": len(cases)},
                    {"status": "staged", "sha256": sha, "path": str(folder), "created_at": stamp, "updated_at": stamp})
        return SkillInfo(name, "staged", sha, str(folder), doc, params)

    def promote(self, name: str, limits: ToolLimits) -> PromotionReport:
        """Run the held-out tests in a fresh sandbox; promote only if every case passes."""
        self._row(name)
        folder = self._staged_dir(name)
        if not (folder / "tool.py").is_file():
            raise SkillNotFound(f"{name!r} has no staged version — save it again with save_tool")
        source = (folder / "tool.py").read_text(encoding="utf-8")
        cases = _check_tests(json.loads((folder / "tests.json").read_text(encoding="utf-8")))
        sha = sha256_text(source)
        report = PromotionReport(name, 0, sha256=sha)
        scratch = self.root / ".validate" / new_id()
        box = Sandbox(scratch, limits)
        try:
            for i, case in enumerate(cases):
                failure = _judge(box.call(source, name, case["args"]), case["expect"])
                if failure:
                    report.failed.append(f"case {i} {json.dumps(case['args'])}: {failure}")
                else:
                    report.passed += 1
        finally:
            box.close()
            shutil.rmtree(scratch, ignore_errors=True)
        if report.failed:
            self._event(name, "rejected", sha, {"passed": report.passed, "failed": report.failed}, {"status": "rejected", "updated_at": now_iso()})
            raise PromotionFailed(
                f"{name!r} failed {len(report.failed)} of {len(cases)} held-out tests ({report.failed[0]}) — fix the code and save it again"
            )
        target = self.root / name
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(folder, target)
        with transaction(self.db) as db:
            db["skills"].update(name, {"status": "promoted", "sha256": sha, "path": str(target), "updated_at": now_iso()})
        if self.recorder is not None:
            report.hcp = self.recorder.promoted(name, sha, target / "tool.py", _signature(source, name)[0])
        self._event(name, "promoted", sha, {"passed": report.passed, "hcp": report.hcp})
        return report

    def demote(self, name: str, reason: str) -> None:
        row = self._row(name)
        if row["status"] != "promoted":
            raise SkillNotFound(f"{name!r} is not promoted (it is {row['status']}) — nothing to demote")
        with transaction(self.db) as db:
            db["skills"].update(name, {"status": "demoted", "updated_at": now_iso()})
        hcp = self.recorder.demoted(name, reason) if self.recorder is not None else ""
        self._event(name, "demoted", row["sha256"], {"reason": reason, "hcp": hcp})

    # -- reading -------------------------------------------------------------------------------
    def list(self) -> list[dict]:
        return list(self.db.query("select name, status, sha256, path, updated_at from skills order by name"))

    def events(self, name: str | None = None) -> list[dict]:
        where, params = ("where name = ?", [name]) if name else ("", [])
        return list(self.db.query(f"select name, event, sha256, detail, created_at from skill_events {where} order by created_at, rowid", params))

    def promoted(self) -> list[SkillInfo]:
        out = []
        for row in self.db.query("select * from skills where status = 'promoted' order by name"):
            source_file = Path(row["path"]) / "tool.py"
            try:
                doc, params = _signature(source_file.read_text(encoding="utf-8"), row["name"])
            except (OSError, BadArguments):
                doc, params = f"saved tool {row['name']}", ()
            out.append(SkillInfo(row["name"], "promoted", row["sha256"], row["path"], doc, params))
        return out

    def load_verified(self, name: str) -> str:
        """The promoted source, after checking it still matches the recorded hash (else demote)."""
        row = self._row(name)
        if row["status"] != "promoted":
            raise SkillNotFound(f"{name!r} is {row['status']}, not promoted — promote it with `mol tools promote {name}`")
        try:
            source = (Path(row["path"]) / "tool.py").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self.demote(name, f"source unreadable: {exc}")
            raise SkillNotFound(f"{name!r} was demoted: its file is unreadable ({exc}) — save and promote it again") from exc
        if sha256_text(source) != row["sha256"]:
            self.demote(name, "source changed on disk after promotion (sha256 mismatch)")
            raise SkillNotFound(f"{name!r} was demoted: its file changed after promotion — save and promote it again")
        return source

    def run(self, box: Sandbox, name: str, args: dict) -> SandboxResult:
        """Call a promoted tool in `box`; a failure of the tool itself demotes it."""
        result = box.call(self.load_verified(name), name, args)
        if result.status in ("error", "timeout", "crashed"):
            why = (result.error or result.status).strip().splitlines()[-1][:300]
            self.demote(name, f"failed when called: {why}")
            result.extra["demoted"] = True
        return result


def _judge(result: SandboxResult, expect: Any) -> str | None:
    if result.status != "ok":
        return (result.error or result.status).strip().splitlines()[-1][:200]
    got = json.loads(result.value) if result.value is not None else None
    return None if got == expect else f"expected {json.dumps(expect)}, got {json.dumps(got)}"
