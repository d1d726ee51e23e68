"""Tool-call arguments the person's own words settle, where the embedded models slip (see harness/when.py)."""

from __future__ import annotations

from mol_local.harness.when import copies_a_time, stated_offset
from mol_local.turn.tasks import ToolCall


def with_stated_offset(call: ToolCall, request: str) -> ToolCall:
    """A reminder the person asked for "30 minutes before" an appointment, made at the appointment's own time.

    The embedded models copy the time and drop the offset (`mol chat` set "my dentist appointment" for
    14:00 when asked for a heads-up 30 minutes before 14:00). When the request states exactly one offset,
    the call has none, and its `due` copies a clock time from the request, the offset is added: the tool
    then says back the earlier time it set. A `due` the model worked out itself is left alone.
    """
    if call.name != "reminders.create" or call.error or call.arguments.get("before") or not isinstance(call.arguments.get("due"), str):
        return call
    offset = stated_offset(request)
    if offset is None or not copies_a_time(call.arguments["due"], request):
        return call
    return ToolCall(call.name, {**call.arguments, "before": offset}, call.raw)
