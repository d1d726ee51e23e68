"""Trainer screen: opt-in writes an HCP version, "run now" reports through the real nightly job's progress
callback (opt-out, dry run, a tiny real training run), runs with their gate verdicts, the gate chart."""

from __future__ import annotations

import json
import re

import pytest

from app.screens.trainer import TrainerScreen
from app.widgets.trainer.runs import GateChart, RunsTable
from tests.app.conftest import wait_for
from tests.trainer.conftest import FACTS, commit

pytestmark = pytest.mark.asyncio


async def open_trainer(pilot) -> TrainerScreen:
    await wait_for(pilot, lambda: pilot.app.runtime is not None, what="the runtime")
    await pilot.press("f6")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, TrainerScreen), what="the trainer screen")
    await pilot.pause()
    return pilot.app.screen


def log_text(screen: TrainerScreen) -> str:
    return "\n".join(screen.query_one("#trainer-log").lines)


def notes(app) -> list:
    return list(app._notifications)


async def test_run_now_while_opted_out_says_why_and_trains_nothing(make_app, app_runtime) -> None:
    app = make_app()
    async with app.run_test(size=(120, 44)) as pilot:
        palette = {c.title: c for c in app.get_system_commands(app.screen)}
        assert "(F6)" in palette["Trainer"].help
        screen = await open_trainer(pilot)
        assert "Training is OFF" in str(screen.query_one("#trainer-consent").render())
        await pilot.press("n")
        await wait_for(pilot, lambda: not screen.running, what="the run to end")
        assert "training is off (HCP trainer.enabled = false)" in log_text(screen)
        assert any("training is off" in n.message and n.severity == "warning" for n in notes(app))
        assert not list(app_runtime.db.query("select * from trainer_runs"))


async def test_opt_in_switch_records_hcp_versions(make_app, app_runtime, mol_home) -> None:
    from hcp.store import VersionStore

    app = make_app()
    async with app.run_test(size=(120, 44)) as pilot:
        screen = await open_trainer(pilot)
        await pilot.press("o")
        await wait_for(pilot, lambda: app_runtime.hcp.trainer.enabled, what="the opt-in")
        store = VersionStore(mol_home)
        assert store.head().reason == "trainer screen: nightly training on"
        assert store.load().trainer.enabled is True and screen.query_one("#trainer-enabled").value is True
        await pilot.press("o")
        await wait_for(pilot, lambda: not app_runtime.hcp.trainer.enabled, what="the opt-out")
        assert [v.reason for v in store.versions()][-2:] == ["trainer screen: nightly training on", "trainer screen: nightly training off"]
        assert store.load().trainer.enabled is False


async def test_opt_in_on_a_damaged_hcp_history_notifies_and_reverts_the_switch(make_app, app_runtime, mol_home) -> None:
    (mol_home / "hcp").mkdir(parents=True)
    (mol_home / "hcp" / "index.json").write_text("{not json", encoding="utf-8")
    app = make_app()
    async with app.run_test(size=(120, 44)) as pilot:
        screen = await open_trainer(pilot)
        await pilot.press("o")
        await wait_for(pilot, lambda: any(n.severity == "error" for n in notes(app)), what="the error")
        assert any("is damaged" in n.message for n in notes(app))
        await pilot.pause()
        assert screen.query_one("#trainer-enabled").value is False and not app_runtime.hcp.trainer.enabled


async def test_timer_without_a_scheduler_and_stop_without_a_run_say_why(make_app, app_runtime, tmp_path, monkeypatch) -> None:
    from app.screens.modals import Confirm

    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))  # no systemctl: the scheduler is unusable here
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    app = make_app()
    async with app.run_test(size=(120, 44)) as pilot:
        screen = await open_trainer(pilot)
        await wait_for(pilot, lambda: "no timer possible here" in str(screen.query_one("#trainer-schedule").render()), what="the schedule line")
        await pilot.press("s")
        await pilot.pause()
        assert any(n.message == "Nothing is running" for n in notes(app))
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("y")
        await wait_for(pilot, lambda: any(n.severity == "error" for n in notes(app)), what="the refusal")
        assert any("systemctl not found" in n.message for n in notes(app) if n.severity == "error")
        assert not (tmp_path / "config").exists(), "a failed install writes nothing"


async def test_dry_run_reports_each_slot_through_the_progress_callback(make_app, app_runtime) -> None:
    from dataclasses import replace

    app_runtime.hcp = replace(app_runtime.hcp, trainer=replace(app_runtime.hcp.trainer, enabled=True))
    commit(app_runtime, FACTS[:5], slot="L1")
    app = make_app()
    async with app.run_test(size=(120, 44)) as pilot:
        screen = await open_trainer(pilot)
        assert "1 of 1 conversations allow training" in str(screen.query_one("#trainer-consent").render())
        await pilot.press("d")
        await wait_for(pilot, lambda: not screen.running, timeout=120, what="the dry run")
        text = log_text(screen)
        picked = re.search(r"\[L1\] selected (\d+) to train, (\d+) held out", text)
        assert picked and int(picked[1]) >= 1 and int(picked[2]) >= 1 and int(picked[1]) + int(picked[2]) == 5  # five consented turns
        assert "[L1] dry_run: dry run: nothing trained" in text and "[L0] skipped: no new eligible conversations" in text
        bar = screen.query_one("#trainer-bar")
        assert bar.total == 1 and bar.progress == 1
        assert any(n.title == "Dry run finished" for n in notes(app))
        assert not list(app_runtime.db.query("select * from trainer_runs"))


async def test_runs_table_and_gate_chart_show_recorded_verdicts(make_app, app_runtime, base_info, base_model_path, tmp_path) -> None:
    from memory.db import transaction
    from mol_local.adapters.registry import Registry
    from mol_local.adapters.synthetic import write_random_lora

    registry = Registry(app_runtime.adapters_root())
    for i, gain in enumerate((0.12, 0.31)):
        lora = write_random_lora(base_info, tmp_path / f"l{i}.gguf", seed=i)
        registry.register("L1", "personal", lora, base=base_model_path, evidence={"new_gain_rel": gain, "regression_delta_rel": 0.0})
    rows = [
        ("r1", "2026-03-01T03:00:00", "promoted", "held-out NLL +31.00%, regression +0.00%", "r0002", {"new_gain_rel": 0.31}),
        ("r2", "2026-03-02T03:00:00", "rejected", "held-out NLL improved +0.50%, below the required 2.00%", None, {"new_gain_rel": 0.005}),
    ]
    with transaction(app_runtime.db) as db:
        for rid, started, status, reason, rev, metrics in rows:
            db["trainer_runs"].insert({"id": rid, "slot": "L1", "started_at": started, "finished_at": started, "status": status,
                                       "reason": reason, "revision": rev, "metrics": json.dumps(metrics)})
    app = make_app()
    async with app.run_test(size=(140, 44)) as pilot:
        screen = await open_trainer(pilot)
        table = screen.query_one(RunsTable)
        shown = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert shown[0][:5] == ["2026-03-02 03:00", "L1", "✗ rejected", "—", "+0.5%"] and "below the required" in shown[0][5]
        assert shown[1][2:5] == ["✓ promoted", "r0002", "+31.0%"]
        chart = screen.query_one(GateChart)
        assert list(chart.query_one("#trainer-sparkline").data) == [0.12, 0.31]
        assert "over 2 personal revisions" in str(chart.query_one("#trainer-chart-label").render())


@pytest.mark.slow
@pytest.mark.timeout(900)
async def test_run_now_trains_for_real_with_a_live_progress_bar(app_runtime, engine) -> None:
    """A tiny real run (L1, a few optimizer steps): step events move the bar; the verdict lands in the table."""
    from dataclasses import replace

    from app.app import MolApp
    from trainer.nightly import Options
    from trainer.train import TrainConfig

    app_runtime.hcp = replace(app_runtime.hcp, trainer=replace(app_runtime.hcp.trainer, enabled=True))
    commit(app_runtime, FACTS[:5], slot="L1")
    tiny = Options(slots=("L1",), config=TrainConfig(rank=4, alpha=8.0, epochs=1, batch_size=3, max_len=160, checkpoint_every=1),
                   regression_limit=2, specialist_suite_limit=0)
    app = MolApp(runtime=app_runtime)
    async with app.run_test(size=(140, 44)) as pilot:
        await wait_for(pilot, lambda: app.runtime is not None, what="the runtime")
        screen = TrainerScreen(options=tiny)
        await app.push_screen(screen)
        await pilot.pause()
        steps: list[float] = []
        await pilot.press("n")
        while screen.running:
            bar = screen.query_one("#trainer-bar")
            if bar.total not in (None, 1):
                steps.append(bar.progress)
            await pilot.pause(0.05)
        assert steps, "the progress bar never showed a training step"
        text = log_text(screen)
        chosen = re.search(r"\[L1\] selected (\d+) to train, (\d+) held out", text)  # the split follows the turns' random ids
        assert chosen and int(chosen[1]) + int(chosen[2]) == 5, text
        assert "[L1] step 1/" in text and f"[L1] training on {chosen[1]} examples" in text
        (run,) = app_runtime.db.query("select status, reason from trainer_runs")
        assert run["status"] in ("promoted", "rejected") and f"[L1] {run['status']}: {run['reason']}" in text
        table = screen.query_one(RunsTable)
        assert str(table.get_row_at(0)[2]).endswith(run["status"])
