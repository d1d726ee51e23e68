"""Reminders and the times the person named: one reminder per time asked, and an answer that says each as set.

Both are read from the request and the tool results, never from the model's words: the embedded specialists
drop a second time ("at 8am and 6pm": one reminder) and attach a reminder's time to another's text in their
plan ("- Sat 5 Dec 2026, 13:30: the dentist" for the meeting the tool had set at 13:30).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from mol_local.harness.errors import BadArguments
from mol_local.harness.repeat import repeats_in, split_repeat, with_repeat
from mol_local.harness.when import parse_when
from mol_local.turn.computed import computed_call
from mol_local.turn.ground import REMIND, SENTENCE, content_stems, grounded, reminder_call, with_both_asked
from mol_local.turn.event_before import event_before, told_event
from mol_local.turn.known_dates import with_known_dates
from mol_local.turn.moved import follow_up_move
from mol_local.turn.plan_note import plan_note_call
from mol_local.turn.recall import said_before, said_last
from mol_local.turn.notes_gone import named_note_delete, noted_value
from mol_local.turn.rescheduled import named_cancel, named_done, named_move
from mol_local.turn.tasks import ToolCall
from mol_local.turn.timed_list import paired_reminders, timed_items

if TYPE_CHECKING:
    from memory.timeline import TaskRecord
    from mol_local.harness.hub import ToolHub

_TIME = r"(?:\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}[:.]\d{2}|noon|midnight)"
_TIMES = re.compile(rf"\bat\s+({_TIME}(?:\s*(?:,\s*and|,|and|&)\s*(?:at\s+)?{_TIME})+)", re.IGNORECASE)
_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_DAYS = re.compile(rf"\b(?P<how>every|each|on)\s+(?P<days>{_DAY}s?(?:\s*,\s*{_DAY}s?)*\s*,?\s*(?:and|&)\s+{_DAY}s?)\b", re.IGNORECASE)


_TOLD_BACK = 3  # "Remind me the night before" two turns after "I've got a job interview next Tuesday at 10am" (a question between)


def first_calls(request: str, hub: ToolHub | None, conversation_id: str, history: Sequence[TaskRecord],
                now: datetime, facts: Sequence[str] = ()) -> list[ToolCall]:
    """The calls a request settles before the model is asked: arithmetic, a calendar question (with a day the recalled
    `facts` date put in: `known_dates.with_known_dates`) or a conversion (`computed.computed_call`), a plan of timed
    items saved as a note (`plan_note.plan_note_call`), else a reminder moved, cancelled or done by name (`rescheduled`),
    a note deleted by name (`notes_gone`), moved or given its time by a follow-up (`moved.follow_up_move`), or set before the event the person just told
    (`event_before.event_before`), or a note read for the value its title names (`notes_gone.noted_value`)."""
    settled = computed_call(with_known_dates(request, facts, now), now.date(), now) or plan_note_call(request, now)
    told = next((m for m in reversed(said_before(history)[-_TOLD_BACK:]) if told_event(m)), None) or said_last(history)
    noted = None if settled else noted_value(request, hub)
    return [settled] if settled else [noted] if noted else named_move(request, hub, now) or named_cancel(request, hub) or named_done(request, hub) \
        or named_note_delete(request, hub) or follow_up_move(request, hub, conversation_id, history, now) or event_before(request, told, now, facts)


def grounded_calls(parsed: list[ToolCall], request: str, made: Sequence[dict], open_reminders: Callable[[], Sequence[dict]],
                   now: datetime | None = None) -> list[ToolCall]:
    """The model's calls as the request states them: each grounded (turn/ground.py), then a reminder and a note asked
    together, a reminder for each timed item, one for each time, each repeating when the request says "every …". A
    call asked for by nothing (a note for a day's plan) is dropped when others were asked; alone, it is refused and
    the turn answers in words."""
    calls = with_both_asked([grounded(c, request, open_reminders) for c in parsed], request, made)
    out = with_every_time(with_each_event(with_stated_reminder(calls, request, now), request, made), request, made)
    unasked = [c for c in out if c.refused and c.refused.endswith("answer the request in words")]
    out = [c for c in out if c not in unasked] if 0 < len(unasked) < len(out) else out  # beside what was asked: dropped
    out = [d for c in out for d in _each_day(_repeating(_bare_task(c), request), request)]
    tasks = [c for c in out if c.name == "reminders.create" and not c.refused and not _a_time(c.arguments.get("text"))]
    out = [c for c in out if not (tasks and c.name == "reminders.create" and not c.refused and _a_time(c.arguments.get("text")))]
    return _set_once(out, made, now or datetime.now())


def _a_time(text: object) -> bool:
    """Whether a reminder's text is only a time ("on the 3rd of January", set beside "call mum" for "Remind me to call mum on
    her birthday, it's on the 3rd of January", `mol chat`): beside a reminder with a task, it is dropped."""
    try:
        parse_when(str(text))
    except BadArguments:
        return False
    return bool(str(text).strip())


def _bare_task(call: ToolCall) -> ToolCall:
    """A reminder's task without the "to" of "remind me to …": L0 set "to stretch" for "Remind me every weekday at
    7:30 to stretch", and the list read "to stretch (repeats every weekday)" (mol chat)."""
    text = call.arguments.get("text") if call.name == "reminders.create" and not call.refused else None
    if not isinstance(text, str) or not (m := re.match(r"\s*to\s+(?!do\b|the\b|my\b|a\b)(?=[a-z])", text, re.IGNORECASE)):
        return call
    return replace(call, arguments={**call.arguments, "text": text[m.end():]})


def _each_day(call: ToolCall, request: str) -> list[ToolCall]:
    """One reminder per weekday of "every Tuesday and Thursday at 6pm" (the tool read "every Tuesday" and refused "and
    Thursday at 6pm", so nothing was set); "every"/"on Tuesdays" repeats weekly, "on Tuesday and Thursday" is once each.
    The days come from the due, else from the request when the model's due kept one day or none of them."""
    due = call.arguments.get("due") if call.name == "reminders.create" and not call.refused else None
    if not isinstance(due, str):
        return [call]
    if m := _DAYS.search(due):
        head, tail = due[:m.start()], due[m.end():]
    elif (m := _DAYS.search(request)) and len(re.findall(_DAY, due, re.IGNORECASE)) <= 1:
        clock = re.search(_TIME, due, re.IGNORECASE) or re.search(_TIME, request[m.end():], re.IGNORECASE)
        head, tail = "", f" at {clock[0]}" if clock else ""
    else:
        return [call]
    weekly = m["how"].lower() != "on" or m["days"].lower().endswith("s")
    days = [d.capitalize() for d in re.findall(_DAY, m["days"], re.IGNORECASE)]
    dues = [f"{head}{'every ' if weekly else ''}{d}{tail}".strip() for d in dict.fromkeys(days)]
    return [replace(call, arguments={**call.arguments, "due": d}, answers=True) for d in dues]


def _set_once(calls: list[ToolCall], made: Sequence[dict], now: datetime) -> list[ToolCall]:
    """Less a reminders.create with the text and time of one already set in this task or earlier in the round: L1 set
    "buy a gift for my sister" twice for "Set a reminder for March 3rd …", as "March 3rd" and "Wed 3 Mar 2027"."""
    def key(arguments: dict) -> tuple[str, datetime | None] | None:
        due = arguments.get("due")
        return (str(arguments.get("text", "")).strip().lower(), _at(due, now)) if isinstance(due, str) else None

    seen = {key(c["arguments"]) for c in made if c["name"] == "reminders.create" and not c["result"].startswith("Error")}
    out = []
    for c in calls:
        k = key(c.arguments) if c.name == "reminders.create" and not c.refused else None
        if k is not None and k[1] is not None and k in seen:
            continue
        seen.add(k)
        out.append(c)
    return out


_PART_OF_DAY = r"(?:\s+(?:in the\s+)?(?:morning|afternoon|evening|night)s?)?(?:\s+at\s+[\d:.]+\s*(?:am|pm)?)?"  # not "take the bins out evening"


def _repeating(call: ToolCall, request: str) -> ToolCall:
    """A reminder with the request's "every …" when its due dropped it ("Remind me to take my pills every day at
    8am" was set as "at 8am": one morning, not every one), and without it in its text when it repeats."""
    due = call.arguments.get("due") if call.name == "reminders.create" and not call.refused else None
    if not isinstance(due, str):
        return call
    every = with_repeat(due, request)
    text = str(call.arguments.get("text", ""))
    said = repeats_in(text)  # "stretch every hour": the rule is the due's, not part of the task (mol chat)
    if said and split_repeat(every)[1] is not None and (bare := re.sub(re.escape(said) + _PART_OF_DAY, " ", text, flags=re.I).strip(" ,")):
        text = " ".join(bare.split())
    if every == due and text == call.arguments.get("text"):
        return call
    return replace(call, arguments={**call.arguments, "due": every, "text": text})


def with_stated_reminder(calls: list[ToolCall], request: str, now: datetime | None = None) -> list[ToolCall]:
    """The one reminder a request states plainly ("don't let me forget to confirm the flight tomorrow 1pm", "I want to
    be reminded to pick up the dry cleaning tomorrow 07:00", "remind me in 10 minutes to take my medication") with the
    person's task and time where the model's differ: held-out L0 set "test the flight", and 09:00 for 07:00; L1 set
    "in 10 minutes" for 14 March (the date of the note asked beside it). The text is replaced only when the model's
    is not in the request; the time when the person's names a clock time or "in N minutes" and the two differ, or when
    the two fall on different days as of `now` ("next Monday morning" was set for today, "Mon 5 Dec 2026"), or the
    model added a clock time the request never named ("March 3rd at 03:45", the time it was asked)."""
    reminders = [c for c in calls if c.name == "reminders.create" and isinstance(c.arguments.get("due"), str)]
    stated = [r for s in SENTENCE.split(request.strip()) if (r := reminder_call(s)) is not None]
    asked = content_stems(request)
    if len(stated) == 1 and len(reminders) > 1 and (own := [c for c in reminders if content_stems(str(c.arguments.get("text", ""))) & asked]):
        calls = [c for c in calls if c not in reminders or c in own]  # L1 set "call mum" too, the reminder before it (mol chat -c)
        reminders = own
    if len({repr(c.arguments) for c in reminders}) != 1 or len(stated) != 1 or _TIMES.search(request) or timed_items(request):
        return calls  # one reminder (written once, or the same twice: fresh_calls drops the copy)
    model, said = reminders[0], stated[0].arguments
    args = dict(model.arguments)
    text = str(args.get("text", ""))
    whole = text.strip(" .!?").lower() == request.strip(" .!?").lower()  # "Set an alarm for 7" copied whole as the text
    if text.lower() not in request.lower() or whole or split_repeat(text)[1] is not None:  # "every week" is when, not what
        args["text"] = said["text"]
    (first, rule), (model_first, model_rule) = split_repeat(said["due"]), split_repeat(args["due"])
    if rule is not None and (rule != model_rule or first != model_first and re.search(r"\d", first)):
        args["due"] = said["due"]  # "every weekday at 7am" had been set weekly; "on the first of every month" as today
    elif re.search(rf"{_TIME}|\bin\s+\d+\s*(?:min|minutes?|hours?|hrs?)\b", said["due"], re.IGNORECASE) and _at(said["due"]) != _at(args["due"]):
        args["due"] = said["due"]
    elif _other_day_or_made_up_clock(said["due"], args["due"], request, now or datetime.now()):
        args["due"] = said["due"]
    return calls if args == model.arguments else [replace(c, arguments=args) if c in reminders else c for c in calls]


def _other_day_or_made_up_clock(said: str, model: str, request: str, now: datetime) -> bool:
    """The model's time does not read while the person's does, or the person's (no clock time in it) falls on another
    day than the model's, or the model's names a clock
    time that is not one of the request's (its "5pm" for "take the 5pm train tomorrow" is; "03:45" for "March 3rd"
    is not)."""
    said_at, model_at = _at(said, now), _at(model, now)
    if said_at is not None and model_at is None:
        return True  # the model's is no time at all: "the dentist" for "Remind me next week to book the dentist" (mol chat)
    if said_at is None or model_at is None:
        return False
    if said_at.date() != model_at.date():
        return True
    named = {_clock(t) for t in re.findall(_TIME, request, re.IGNORECASE)}
    return re.search(_TIME, model, re.IGNORECASE) is not None and (model_at.hour, model_at.minute) not in named


def _at(when: str, now: datetime = datetime(2000, 1, 3, 12, 0)) -> datetime | None:
    """When a phrase falls, counted from `now` (by default one fixed now, so two relative phrases compare), or None."""
    try:
        return parse_when(when, now=now)
    except BadArguments:
        return None


def with_every_time(calls: list[ToolCall], request: str, made: Sequence[dict]) -> list[ToolCall]:
    """One reminder per time of "remind me at 8am and 6pm tomorrow to take my medicine": the embedded L0 set the
    first time only. The model's reminder is copied for each time asked that no reminder has, its day and text
    kept; a reminder at a time not asked is dropped. Unchanged unless the request lists two or more times."""
    m = _TIMES.search(request)
    reminders = [c for c in calls if c.name == "reminders.create" and isinstance(c.arguments.get("due"), str)]
    if m is None or not reminders or not REMIND.search(request):
        return calls
    asked = {_clock(t): t for t in re.findall(_TIME, m[1], re.IGNORECASE)}
    model = reminders[0]
    if None in asked:
        return calls
    timed = bool(re.search(_TIME, model.arguments["due"], re.IGNORECASE))  # "every day" for "at 8am and 8pm every day" (mol chat)
    out = [c for c in calls if c not in reminders or (timed and _clock(c.arguments["due"]) in asked)]
    have = {_clock(c.arguments["due"]) for c in out if c.name == "reminders.create"}
    have |= {_clock(c["arguments"].get("due", "")) for c in made if c["name"] == "reminders.create" and not c["result"].startswith("Error")}
    for at, said in asked.items():
        if at not in have:
            due = re.sub(_TIME, said, model.arguments["due"], count=1, flags=re.IGNORECASE) if timed else f"{model.arguments['due']} at {said}"
            out.append(replace(model, arguments={**model.arguments, "due": due}))
    return calls if out == calls else [replace(c, answers=True) for c in out]  # what was set is said back


def with_each_event(calls: list[ToolCall], request: str, made: Sequence[dict]) -> list[ToolCall]:
    """A reminder for each timed item of a request that asks for one per item (turn/timed_list.py), in place of
    the model's reminders, in the task's first round. Routed to L0, "a haircut at 11am and a call with Sam at 3pm
    on Monday, remind me an hour before both" got one reminder called "reminders.create"; L1 set two of three
    appointments, or none of a four-item day plan. Unchanged when the request reads otherwise."""
    asked = timed_items(request) or paired_reminders(request)
    if not asked or any(c["name"] == "reminders.create" for c in made):
        return calls
    return [c for c in calls if c.name != "reminders.create"] + asked


def _clock(when: str) -> tuple[int, int] | None:
    """The time of day a phrase names (dateparser, as the tool reads it), or None."""
    at = _at(str(when))
    return (at.hour, at.minute) if at else None


_SET_AT = re.compile(r"^Reminder \w+ set for (?P<at>\w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2}): (?P<text>.+)$")
_LEAD = re.compile(r"^\s*(?:[-*•]|\d+[.)])?\s*")


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_BEFORE_EACH = re.compile(r"^(?:set|done)\b.*\b(?:before each|times?|each time)\b.*:\s*$", re.IGNORECASE)
_COUNTED = re.compile(rf"\b(?P<n>{'|'.join(_NUMBERS[1:])}|\d+) (?P<what>reminders?)\b", re.IGNORECASE)


def _count_said(m: re.Match[str], made: int) -> str:
    """"two reminders" said for the one set (L1, "Set a reminder for March 3rd …") as the count the tool set."""
    said = m["n"].lower()
    if (int(said) if said.isdigit() else _NUMBERS.index(said)) == made:
        return m[0]
    word = _NUMBERS[made] if made < len(_NUMBERS) and not said.isdigit() else str(made)
    word = word.capitalize() if m["n"][0].isupper() else word
    return f"{word} reminder{'s' if made != 1 else ''}"


def said_as_set(answer: str, calls: Sequence[dict]) -> str:
    """The answer with each line that gives a set reminder's time naming that reminder's text.

    A line listing a reminder ("- Sat 5 Dec 2026, 13:30: …": the model's "(at 17:00)" for a 16:00 dentist was
    wrong too) or quoting its time beside none of its words is rewritten as "<time>: <text>" (its list mark
    kept); a time two reminders share is left alone. A reminder's id copied from the tool ("Reminder b298cda8e07a set
    for …") is taken out: it means nothing to the person, and a count of reminders is the count set."""
    answer = re.sub(r"\b(Reminder) [0-9a-f]{12} (set for)\b", r"\1 \2", answer)
    at: dict[str, list[str]] = {}
    for c in calls:
        if c["name"] == "reminders.create" and (m := _SET_AT.match(c["result"].strip().splitlines()[0] if c["result"].strip() else "")):
            at.setdefault(m["at"], []).append(m["text"].strip())
    if not at:
        return answer
    when, texts = next(iter(at.items()))
    if len(at) == 1 and len(texts) == 1 and "(repeats " in texts[0] and "repeat" not in answer.lower() and when in answer:
        return f"Reminder set for {when}: {texts[0]}."  # "OK, I set a reminder … for Mon 7 Dec" of one that repeats monthly
    answer = _COUNTED.sub(lambda m: _count_said(m, sum(map(len, at.values()))), answer)
    lines = answer.split("\n")
    known = [c["arguments"] for c in calls if c["name"] == "reminders.create" and isinstance(c.get("arguments"), dict) and c["arguments"]]
    if known and not any(a.get("before") for a in known) and lines and _BEFORE_EACH.match(lines[0]):  # the trained "Set. You'll get a reminder … before each:" with no before
        made = sum(map(len, at.values()))
        lines[0] = f"Done — {_NUMBERS[made] if made < len(_NUMBERS) else made} reminder{'s' if made != 1 else ''}:"
    for i, line in enumerate(lines):
        for when, texts in at.items():
            lead = _LEAD.match(line)[0]  # type: ignore[index]
            listed = line[len(lead):].startswith(when)  # "- <time>: …" says one reminder: all of it from the tool
            if listed and len(texts) > 1:  # two set for one time: the one the line's words name
                said = content_stems(line[len(lead) + len(when):])
                best = sorted(texts, key=lambda t: len(content_stems(t) & said), reverse=True)
                if len(content_stems(best[0]) & said) > len(content_stems(best[1]) & said):
                    lines[i] = f"{lead}{when}: {best[0]}"
            elif when in line and len(texts) == 1 and (listed or not content_stems(texts[0]) & content_stems(line.replace(when, " "))):
                lines[i] = f"{lead}{when}: {texts[0]}"
    return "\n".join(lines)
