"""Tool-call arguments the person's own words settle, where the embedded models slip (see harness/when.py).

Each rule touches one reminders call, only when the request is unambiguous,
and the tool says back what it did (the exact time it set, the reminder it
completed), so the person sees the result either way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from mol_local.harness.when import copies_a_time, stated_offset
from mol_local.turn.tasks import ToolCall

if TYPE_CHECKING:
    from mol_local.runtime import Runtime

_DAY = re.compile(r"\b(?:the day after tomorrow|today|tonight|tomorrow|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.I)


def grounded(call: ToolCall, request: str, open_reminders: Callable[[], Sequence[dict]] = tuple) -> ToolCall:
    """`call` with the day, the offset or the reminder the request states, where the model's arguments
    contradict or drop them. `open_reminders` lists the open reminders (id, text), asked only for a completion."""
    if call.error:
        return call
    if call.name == "reminders.complete":
        return with_named_reminder(call, request, open_reminders())
    if call.name != "reminders.create" or not isinstance(call.arguments.get("due"), str):
        return call
    return with_stated_offset(with_stated_day(call, request), request)


def open_reminders(rt: Runtime) -> Callable[[], Sequence[dict]]:
    """How `grounded` lists the open reminders of `rt`'s harness (none without one)."""
    return rt.tool_hub.reminders.list if rt.tool_hub is not None else tuple


def with_named_reminder(call: ToolCall, request: str, rows: Sequence[dict]) -> ToolCall:
    """The reminder the person named, when the model picked another open one (tick 'confirm the flight' off
    completed 'water the garden' in `mol bench specialists`): only when exactly one open reminder's text is
    in the request and the chosen one's is not."""
    said = request.lower()
    named = [r for r in rows if r["text"] and r["text"].lower() in said]
    chosen = next((r for r in rows if r["id"] == call.arguments.get("id")), None)
    if len(named) != 1 or (chosen is not None and chosen["text"].lower() in said):
        return call
    return ToolCall(call.name, {**call.arguments, "id": named[0]["id"]}, call.raw)


def with_stated_day(call: ToolCall, request: str) -> ToolCall:
    """A reminder for a day the person did not say ("yesterday at 14:00" for "tomorrow at 14:00", seen with
    `mol chat --slot L0`): when the request names exactly one day and `due` names another, the request's day."""
    said = {d.lower() for d in _DAY.findall(request)}
    due = call.arguments["due"]
    written = {d.lower() for d in _DAY.findall(due)}
    if len(said) != 1 or not written or written <= said:
        return call
    day = said.pop()
    return ToolCall(call.name, {**call.arguments, "due": _DAY.sub(day, due)}, call.raw)


def with_stated_offset(call: ToolCall, request: str) -> ToolCall:
    """A reminder the person asked for "30 minutes before" an appointment, made at the appointment's own time.

    The embedded models copy the time and drop the offset (`mol chat` set "my dentist appointment" for
    14:00 when asked for a heads-up 30 minutes before 14:00). When the request states exactly one offset,
    the call has none, and its `due` copies a clock time from the request, the offset is added: the tool
    then says back the earlier time it set. A `due` the model worked out itself is left alone.
    """
    if call.arguments.get("before"):
        return call
    offset = stated_offset(request)
    if offset is None or not copies_a_time(call.arguments["due"], request):
        return call
    return ToolCall(call.name, {**call.arguments, "before": offset}, call.raw)
