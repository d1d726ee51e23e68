"""Sample UI documents and a view store on a real SQLite file under the test's MOL_HOME."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

SECRET = "hunter2-zebra-7741"

PLANNER = {
    "catalog": "1",
    "title": "Weekend planner",
    "components": [
        {"id": "main", "type": "Card", "label": "Plan", "children": ["todo", "journal", "more", "mood"]},
        {"id": "todo", "type": "Checklist", "label": "To do", "bind": "items"},
        {"id": "journal", "type": "Form", "label": "Private journal", "action": "save", "children": ["entry", "tired"]},
        {"id": "entry", "type": "Input", "label": "Entry", "bind": "entry"},
        {"id": "tired", "type": "Toggle", "label": "Tired", "bind": "tired"},
        {"id": "more", "type": "Button", "label": "Suggest more", "action": "ask"},
        {"id": "mood", "type": "Slider", "label": "Mood", "bind": "mood", "min": 0, "max": 10},
    ],
    "state": {
        "items": [{"label": "Buy bread", "done": False}, {"label": "Call mum", "done": False}],
        "entry": "",
        "tired": False,
        "mood": 5,
    },
    "actions": {
        "save": {"kind": "submit", "target": "journal", "payload": {}, "visibility": "noai"},
        "ask": {"kind": "ask_model", "target": "todo", "payload": {"prompt": "more ideas"}, "visibility": "model"},
    },
}


@pytest.fixture
def planner() -> dict:
    return copy.deepcopy(PLANNER)


@pytest.fixture
def ui_db(mol_home: Path):
    from memory.db import open_db
    from mol_local.paths import db_path

    db = open_db(db_path())
    yield db
    db.close()


@pytest.fixture
def ui_store(ui_db):
    from mol_local.genui.store import GenUIStore

    return GenUIStore(ui_db)
