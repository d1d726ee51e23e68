"""A keyboard-driven file picker: a DirectoryTree filtered to one suffix, plus a path box.

Open mode returns the chosen file; save mode returns a folder + file name. Up/Down and Enter walk
the tree (Enter on a folder opens it), Backspace on the tree goes to the parent folder, Tab moves
between the path box, the tree and (save mode) the file name. Typing a folder in the path box and
pressing Enter re-roots the tree there; typing a file path picks it directly. Esc cancels (None).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DirectoryTree, Input, Label


class SuffixTree(DirectoryTree):
    """Folders and files ending in `suffix` (case-insensitive); hidden entries are left out."""

    BINDINGS = [Binding("backspace", "screen.parent_folder", "Parent folder")]

    def __init__(self, path: Path, *, suffix: str, **kwargs) -> None:
        self.suffix = suffix.lower()
        super().__init__(path, **kwargs)

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".") and (_is_dir(p) or p.name.lower().endswith(self.suffix))]


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # unreadable entry: not a folder we can open
        return False


class FilePicker(ModalScreen[Path | None]):
    """`save=False`: pick an existing `suffix` file. `save=True`: pick a folder and type a file name."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, title: str, *, start: Path, suffix: str, save: bool = False, filename: str = "") -> None:
        super().__init__(classes="dialog-screen")
        self._title = title
        self._start = start if _is_dir(start) else Path.home()
        self._suffix = suffix
        self._save = save
        self._filename = filename
        self._folder = self._start  # where save mode writes: the tree's root, or the folder last selected in it

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog picker"):
            yield Label(self._title, classes="dialog-title")
            yield Input(str(self._start), id="picker-path")
            yield SuffixTree(self._start, suffix=self._suffix, id="picker-tree")
            if self._save:
                yield Label(f"Save in {self._start}", id="picker-folder")
                yield Input(self._filename, id="picker-name")
                hint = "Enter on a folder chooses it · Tab to the name, Enter saves · Backspace: up · Esc: cancel"
            else:
                hint = f"↑↓ move · Enter: open a folder / pick a {self._suffix} file · Backspace: up · Esc: cancel"
            yield Label(hint, classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(SuffixTree).focus()

    def action_parent_folder(self) -> None:
        here = Path(self.query_one(SuffixTree).path).resolve()
        if here.parent != here:
            self._show_folder(here.parent)

    @on(Input.Submitted, "#picker-path")
    def path_typed(self, event: Input.Submitted) -> None:
        path = Path(event.value.strip() or ".").expanduser()
        if _is_dir(path):
            self._show_folder(path)
            self.query_one(SuffixTree).focus()
        elif path.is_file() and not self._save:
            self.dismiss(path)
        elif self._save and _is_dir(path.parent):
            self._show_folder(path.parent)
            self.query_one("#picker-name", Input).value = path.name
            self._save_as(path.name)
        else:
            self.notify(f"No folder or file at {path} — type an existing folder", severity="error")

    def _show_folder(self, path: Path) -> None:
        self.query_one(SuffixTree).path = path
        self.query_one("#picker-path", Input).value = str(path)
        self._set_folder(path)

    def _set_folder(self, path: Path) -> None:
        self._folder = path
        if self._save:
            self.query_one("#picker-folder", Label).update(f"Save in {path}")

    @on(DirectoryTree.FileSelected)
    def file_selected(self, event: DirectoryTree.FileSelected) -> None:
        event.stop()
        if not self._save:
            self.dismiss(Path(event.path))
            return
        self.query_one("#picker-name", Input).value = Path(event.path).name  # save over it: the caller confirms
        self._set_folder(Path(event.path).parent)
        self.query_one("#picker-name", Input).focus()

    @on(DirectoryTree.DirectorySelected)
    def folder_selected(self, event: DirectoryTree.DirectorySelected) -> None:
        event.stop()
        self._set_folder(Path(event.path))

    @on(Input.Submitted, "#picker-name")
    def name_typed(self, event: Input.Submitted) -> None:
        self._save_as(event.value)

    def _save_as(self, name: str) -> None:
        name = name.strip()
        if not name or "/" in name or "\\" in name or name in (".", ".."):
            self.notify("Type a file name (no folders in it) — pick the folder in the tree", severity="error")
            return
        if not name.lower().endswith(self._suffix):
            name += self._suffix
        self.dismiss(self._folder / name)
