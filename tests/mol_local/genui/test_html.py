"""The static HTML renderer and `mol genui export`: parsed back, self-contained, everything inert."""

from __future__ import annotations

from html.parser import HTMLParser

from click.testing import CliRunner

from mol_local.genui.actions import ViewController
from mol_local.genui.binding import DataPort
from mol_local.genui.document import parse_document
from mol_local.genui.html import render_html

EVIL = '<script>alert("x")</script>\x1b[2J\x1b]0;pwned\x07 & "q"'


class Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(attrs)

    def handle_data(self, data):
        self.text.append(data)


def parse(page: str) -> Collector:
    c = Collector()
    c.feed(page)
    c.close()
    return c


def test_export_renders_every_component_with_saved_state(ui_store, ui_db, planner):
    planner["components"].append({"id": "tbl", "type": "Table", "label": "T", "columns": ["a", "b"], "bind": "rows"})
    planner["state"]["rows"] = [["1", "2"]]
    ctl = ViewController(ui_store, DataPort(ui_db), ui_store.save(parse_document(planner)))
    ctl.tick("todo", 0, True)
    ctl.set_value("mood", 7)
    c = parse(render_html(ctl.snapshot()))
    assert c.tags.count("input") >= 4 and "table" in c.tags and "button" in c.tags and "form" in c.tags
    assert ("checked", None) in c.attrs and ("value", "7") in c.attrs
    assert "Weekend planner" in c.text and "Buy bread" in " ".join(c.text)


def test_script_and_escape_sequences_are_inert(ui_store, ui_db, planner):
    planner["title"] = EVIL
    planner["components"][1]["label"] = EVIL
    planner["state"]["items"][0]["label"] = EVIL
    ctl = ViewController(ui_store, DataPort(ui_db), ui_store.save(parse_document(planner)))
    page = render_html(ctl.snapshot())
    c = parse(page)
    assert "script" not in c.tags
    assert "\x1b" not in page and "\x07" not in page
    assert '<script>alert("x")</script>\\x1b[2J' in "".join(c.text)  # shown as text
    assert "http" not in page.replace("http-equiv", "")  # self-contained: no external resource


def test_cli_export_writes_a_file_and_names_bad_paths(ui_store, planner, tmp_path):
    from mol_local.cli import cli, import_commands

    import_commands()
    view_id = ui_store.save(parse_document(planner))
    out = tmp_path / "v.html"
    res = CliRunner().invoke(cli, ["genui", "export", view_id, "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "Weekend planner" in "".join(parse(out.read_text(encoding="utf-8")).text)
    res = CliRunner().invoke(cli, ["genui", "export", view_id, "-o", str(tmp_path / "no" / "v.html")])
    assert res.exit_code == 1 and "does not exist — create it" in res.output
    res = CliRunner().invoke(cli, ["genui", "export", "zzz", "-o", str(out)])
    assert res.exit_code == 1 and "no UI view with id 'zzz'" in res.output


def test_cli_validate_reports_problems(tmp_path, planner):
    import json

    from mol_local.cli import cli, import_commands

    import_commands()
    planner["components"][1]["type"] = "Blink"
    f = tmp_path / "d.json"
    f.write_text(json.dumps(planner), encoding="utf-8")
    res = CliRunner().invoke(cli, ["genui", "validate", str(f)])
    assert res.exit_code == 1 and "unknown type 'Blink'" in res.output and "Traceback" not in res.output
