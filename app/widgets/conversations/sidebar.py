"""The conversation sidebar: search box and the list, each row with its training-consent state."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from app.messages import ConversationSelected

NEW_ID = "__new__"


def row_label(title: str, consent: bool | None) -> Content:
    """`● title` with ● = training on, ○ = off (no marker when consent is unknown)."""
    clean = " ".join((title or "untitled").split())
    mark = "" if consent is None else ("● " if consent else "○ ")
    return Content(mark + clean[:60])


class ConversationSidebar(Vertical):
    """Lists conversations; Enter on a row opens it. The screen owns the data and the actions."""

    def compose(self) -> ComposeResult:
        yield Label("Conversations", classes="sidebar-title")
        yield Input(placeholder="search (Ctrl+F)", id="conversation-search")
        yield OptionList(id="conversation-list")
        yield Label("● training on  ○ off (Ctrl+T)", classes="sidebar-legend")

    @property
    def options(self) -> OptionList:
        return self.query_one("#conversation-list", OptionList)

    @property
    def search(self) -> Input:
        return self.query_one("#conversation-search", Input)

    def show(self, rows: list[dict], consent: dict[str, bool] | None, selected: str | None) -> None:
        """Replace the list; keep `selected` highlighted (or the "new conversation" row)."""
        options = self.options
        options.clear_options()
        options.add_option(Option(Content("+ new conversation"), id=NEW_ID))
        for row in rows:
            state = None if consent is None else consent.get(row["id"], False)
            options.add_option(Option(row_label(row["title"], state), id=row["id"]))
        target = selected if selected and any(r["id"] == selected for r in rows) else NEW_ID
        options.highlighted = options.get_option_index(target)

    def highlighted_id(self) -> str | None:
        options = self.options
        if options.highlighted is None:
            return None
        option_id = options.get_option_at_index(options.highlighted).id
        return None if option_id == NEW_ID else option_id

    @on(OptionList.OptionSelected, "#conversation-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(ConversationSelected(None if event.option.id == NEW_ID else event.option.id))
