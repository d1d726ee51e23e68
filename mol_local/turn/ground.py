"""Tool-call arguments the person's own words settle, where the embedded models slip (see harness/when.py).

Each rule touches one reminders call, only when the request is unambiguous,
and the tool says back what it did (the exact time it set, the reminder it
completed), so the person sees the result either way. Three rules change the
call: a completion the request does not ask for is not run (the model reads
why); a reminder "made" for a request to see the reminders lists them; one
"made" for a tick-off completes the reminder the request names. A completion's
result is the answer: in the app, the L1 specialist said it had ticked off
'pay the rent' after the tool had completed 'take the bins out'.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from mol_local.harness.errors import BadArguments
from mol_local.harness.repeat import monthly_phrase, split_repeat
from mol_local.harness.when import copies_a_time, parse_when, stated_offset
from mol_local.statements import is_question, statements
from mol_local.turn.notes_asked import NOTE_END, NOTES_ABOUT, asks_for_a_note, note_call, note_question_call, own_note
from mol_local.turn.task_said import task_before_remind
from mol_local.turn.tasks import ToolCall, answering_call
from mol_local.turn.when_said import (ASK_PLACE, ASK_WHEN, NO_DUE, asks_back, place_said, says_no_time, with_readable_due, with_stated_clock,
                                     with_stated_wait, without_made_up_clock)

if TYPE_CHECKING:
    from mol_local.runtime import Runtime

_TICK = re.compile(
    r"\b(?:tick|cross|check|mark|strike|scratch)\w*\b.{0,60}?\b(?:off|done|complete|completed|finished)\b|"
    r"\b(?:remove|delete|clear|drop|cancel)\b.{0,40}\breminders?\b|\b(?:off|from) my (?:reminders|list|to-?do)",
    re.I,
)
_REMOVE = re.compile(r"\b(?:remove|delete|clear|drop|cancel|scrap|get rid of)\b", re.I)  # the reminder goes; ticked off, a repeating one comes back
_DONE = re.compile(r"\b(?:done|finished|completed?|did|took care|sorted|dealt with|handled|already)\b", re.I)
NOT_ASKED = ("not run: the request does not say a reminder is done, so nothing was ticked off — "
             "answer the request; to show the reminders, use reminders.list")
NOT_SET = ("not run: the request asks for no reminder, so none was set — answer the request in words")
_ASKS_REMINDER = re.compile(r"\b(?:remind\w*|heads[- ]?up|alert me|ping me|nudge|(?:don't|do not) let me forget|alarms?|notify me|"
                            r"wake me|make sure I|tell me to|schedule)\b", re.IGNORECASE)
NOT_STATED = "not run: the request asks something and states nothing to remember — answer the request in words"
_KEEP_ASK = re.compile(r"\b(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:remember|keep|note|store|save)\b|\bremember that\b", re.I)
_ASKS_TO_DO = re.compile(r"^\W*(?:(?:please|ok(?:ay)?|so|hey|hi)[,!]?\s+)*(?:(?:can|could|would|will) you\s+)?(?:please\s+)?"
                         r"(?:help me|write|draft|compose|make|create|plan|give|show|explain|find|translate|summari[sz]e|list|"
                         r"calculate|convert|suggest|describe|compare|recommend|tell me (?:a|about|how|why|what))\b", re.I)
_KEEP_SAID = re.compile(r"\b(?:remember|memori[sz]e|keep in mind|(?:don't|do not) forget|note|save|store)\b", re.I)
NOT_NOTED = "not run: the request asks for no note, so none was saved — answer the request in words"
_ASKS_NOTE = re.compile(r"\b(?:notes?|write|wrote|jot|save|keep|record|log|store|down|list|file)\b", re.IGNORECASE)
NOT_NAMED = ("not run: the request asks to tick a reminder off, not to set one, and names no single open reminder — "
             "ask which one")
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_SEE = re.compile(r"\b(?:list|show|see|view|read|check|tell me|what|which|any|all|how many)\b.{0,25}\breminders\b|"
                  r"\b(?:what'?s|what is|anything)\b.{0,12}\bmy (?:calendar|agenda|schedule|diary)\b|"
                  r"\bwhat(?: do i have| have i got|'?s on| is on)\s+(?:to do\s+|got\s+|on\s+|planned\s+|for\s+|due\s+)?(?:today|tonight|tomorrow|this week|next week"
                  rf"|(?:on\s+)?(?:this\s+|next\s+)?{_WEEKDAY})\b|\banything due (?:today|tonight|tomorrow)\b|"
                  rf"\bwhat(?:'s|\s+is|\s+does|\s+do)\s+(?:my\s+)?(?:day|week|schedule|agenda|diary|today|tomorrow|{_WEEKDAY})\b.{{0,20}}\blooks?(?:ing)?\s+like\b|"
                  r"\b(?:what|anything)\b.{0,30}\bon my (?:list|to-?do(?: list)?|reminders)\b", re.I)
_ASKED_TO_REMIND = re.compile(r"^\W*(?:so\s+|and\s+)?what (?:have|did) i (?:ask(?:ed)?|told|tell|want(?:ed)?) you to remind me\b|"
                              r"^\W*(?:so\s+|and\s+)?what (?:are|will) you (?:going to )?remind(?:ing)? me\b", re.I)  # "remind me" sets none
_SET = re.compile(r"\b(?:remind me|set|add|create|make|new|heads-up|alarm|don't let me forget)\b", re.I)
_WORD = re.compile(r"[a-z]+")
_USERS = re.compile(r"\bthe user['’]s\b", re.I)
_STOP = frozenset("the and for with that this then them they you your my mine our off out not now its it's are was were "
                  "have has had can could would should please just already tick cross mark done reminder reminders".split())
_DAY = re.compile(r"\b(?:the day after tomorrow|today|tonight|tomorrow|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.I)


def grounded(call: ToolCall, request: str, open_reminders: Callable[[], Sequence[dict]] = tuple) -> ToolCall:
    """`call` with the day, the offset or the reminder the request states, where the model's arguments
    contradict or drop them. `open_reminders` lists the open reminders (id, text), asked only for a completion."""
    if call.error:
        return call
    if call.name == "reminders.complete":
        if not asks_to_complete(request):
            return replace(call, refused=NOT_ASKED)
        named = with_named_reminder(call, request, open_reminders())
        return replace(named, name="reminders.cancel" if _REMOVE.search(request) else named.name, answers=True)  # the tool says what is left
    if call.name in ("reminders.create", "reminders.list") and asks_to_see_reminders(request):
        return ToolCall("reminders.list", {}, call.raw, answers=True)
    if call.name in ("notes.find", "notes.read", "notes.create", "reminders.list", "memory.search") and asks_to_see_notes(request):
        return ToolCall("notes.find", {"query": ""}, call.raw, answers=True)
    if call.name in ("notes.create", "notes.find", "notes.read") and (asked := note_question_call(request)):
        return replace(asked, raw=call.raw)  # "What did I note about the boiler?" had saved a new note; a search's result is the answer
    if call.name == "notes.find" and (topic := NOTES_ABOUT.search(request)) and not content_stems(str(call.arguments.get("query", ""))) & content_stems(request):
        return replace(call, arguments={**call.arguments, "query": topic["t"]})  # "Find my notes about insurance" searched "milk"
    if call.name == "notes.create" and (own := own_note(call, request)):
        return own
    if call.name in _NOT_A_NOTE and (note := settled_call(request)) is not None and note.name == "notes.create":
        return replace(note, raw=call.raw)  # "Write down that …" as a reminder or a search (both seen in the app)
    if call.name in ("reminders.create", "memory.remember", "notes.create") and asks_to_tick_off(request):
        named = named_reminders(request, open_reminders())
        if len(named) != 1:
            return replace(call, refused=NOT_NAMED)
        return ToolCall("reminders.complete", {"id": named[0]["id"]}, call.raw, answers=True)
    if call.name == "memory.remember" and (said := [st for st in statements(request) if st.op == "add"]):  # what they said is the fact
        fact = " ".join(st.text for st in said)
        own = content_stems(str(call.arguments.get("text", "")))
        whose = content_stems(" ".join(st.key.split(":", 1)[1] for st in said if st.key and ":" in st.key))
        misread = bool(_USERS.search(str(call.arguments.get("text", "")))) and not _USERS.search(fact)  # "The user's allergic to peanuts"
        keep = own & content_stems(" ".join(st.value for st in said)) and whose <= own \
            and not own < content_stems(fact) and not misread  # "shellfish"; "sister's birthday"; not "The user's coffee with oat milk" (no "takes")
        kept = call if keep else replace(call, arguments={**call.arguments, "text": fact})
        return replace(kept, answers=not is_question(request))  # L0 then said "I'll remember that your dentist is …" for penicillin
    if call.name == "notes.create" and not _ASKS_NOTE.search(request):
        return replace(call, refused=NOT_NOTED)  # L1 saved "15 minutes before each appointment" for a day's plan
    if call.name == "memory.remember" and is_question(request) and not _KEEP_ASK.search(request):  # "Do you know my car?"
        return replace(call, refused=NOT_STATED)
    if call.name == "memory.remember" and _ASKS_TO_DO.match(request) and not _KEEP_SAID.search(request):
        return replace(call, refused=NOT_STATED)  # "Help me write a thank-you message … for feeding the cat" kept "The user's cat is fed"
    if call.name == "reminders.create" and (not _ASKS_REMINDER.search(request) or asks_back(request)):
        return replace(call, refused=NOT_SET)  # L1 set three for "Rome, 3 days, €955 to spend … What does that leave me each day?"
    if call.name == "reminders.create" and says_no_time(request):
        place = place_said(request)  # "when I get home": no clock knows it
        return replace(call, refused=ASK_PLACE.format(place=place) if place else ASK_WHEN, answers=True)  # "Remind me to call Ana" was set for the minute it was asked
    if call.name == "reminders.create" and not call.arguments.get("due"):  # set with no time while one was said: "book the
        return replace(call, refused=NO_DUE, answers=True)  # airport transfer a week before" had stayed open for ever (`mol chat -c`)
    if call.name != "reminders.create" or not isinstance(call.arguments.get("due"), str):
        return call
    stated = without_made_up_clock(with_stated_wait(call, request), request)
    return with_readable_due(with_stated_clock(with_stated_text(with_stated_offset(with_stated_day(stated, request), request), request), request),
                             request)


def open_reminders(rt: Runtime) -> Callable[[], Sequence[dict]]:
    """How `grounded` lists the open reminders of `rt`'s harness (none without one)."""
    return rt.tool_hub.reminders.list if rt.tool_hub is not None else tuple


def asks_to_complete(request: str) -> bool:
    """Whether the person says something is done or asks to tick it off. Completing is the one reminders call
    that changes what the person has; the embedded L1 ran it on "Do I have any reminders?" and "Show me my
    reminders" (its tick-off habit: list, then complete), so it runs only when the request asks for it: a
    tick/cross/mark … off, or a statement (not a question) that something is done."""
    if _TICK.search(request):
        return True
    return not request.rstrip().endswith("?") and bool(_DONE.search(request))  # "Did I set …?" asks, it tells nothing done


def asks_to_see_reminders(request: str) -> bool:
    """Whether the person asks to see their reminders, and to set or tick off none ("List my reminders", "Do
    I have any reminders?"; not "Mark all my reminders as done"). The embedded L0 answered those with reminders.create: a reminder called "Reminders", or a
    refused due "the user's words"; the request settles which call it is, so it becomes reminders.list."""
    return bool(_ASKED_TO_REMIND.search(request)) or bool(_SEE.search(request)) and not _SET.search(request) and not _TICK.search(request)


_NOT_A_NOTE = frozenset({"reminders.create", "reminders.list", "notes.find", "notes.read", "memory.remember"})  # calls a note request never means


def settled_call(request: str, open_rows: Callable[[], Sequence[dict]] = tuple) -> ToolCall | None:
    """The call a request settles, for a turn whose model wrote none; its result is the answer.

    - To see the reminders: reminders.list. In the app "What reminders do I have?" got L0's "You haven't
      told me any reminders yet." with one reminder open.
    - To write something down: notes.create of what follows "write down that", "note that", "make a
      note: …". The shipped L0 answered held-out "Write down that the office printer PIN is 3308!" with
      "Noted — the office printer PIN is 3308." and saved nothing. To read what was noted about a topic
      ("What did I note about the boiler?"): notes.find of it.
    - A reminder the request states whole, in one sentence, with a time that reads: in a conversation about Leo,
      "Remind me about Leo's football practice every Saturday at 9am" got "I don't know your son Leo yet" and
      nothing was set (`mol chat -c`).
    - A short "I called mum" naming one of the `open_rows` reminders ("call mum") whole: reminders.complete of it. L0
      answered "You've been told to call mum." and the reminder stayed open (`mol chat -c`).
    None for any other request, and for a note asked beside a reminder (that is the model's to write).
    """
    if (done := _did(request)) is not None and (named := [r for r in open_rows() if r["text"]
                                                         and content_stems(r["text"]) <= content_stems(f"{request} {done}")]):
        return answering_call("reminders.complete", {"id": named[0]["id"]}) if len(named) == 1 else None
    if asks_to_see_reminders(request):
        return answering_call("reminders.list", {})
    if asks_to_see_notes(request):
        return answering_call("notes.find", {"query": ""})
    if REMIND.search(request):
        stated = reminder_call(request) if len(SENTENCE.split(request.strip())) == 1 else None
        return replace(stated, answers=True) if stated is not None else None
    return note_question_call(request) or note_call(request)


_SEE_NOTES = re.compile(r"\b(?:list|show|see|view|read|what|which|any|all)\b.{0,25}\bnotes\b(?!\s+(?:about|on|for|with|that|mention|saying))",
                        re.IGNORECASE)


def asks_to_see_notes(request: str) -> bool:
    """"What notes do I have?", "Show me my notes": all of them (notes.find of no words). The embedded L0 searched
    its prompt's example word instead (notes.find "milk": "No notes match 'milk'.", two notes saved)."""
    return bool(_SEE_NOTES.search(request)) and not asks_for_a_note(request) and not REMIND.search(request)


_I_DID = re.compile(r"^(?:(?:ok(?:ay)?|so|right|done|just so you know)[,!.]?\s+)?(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|already\s+|finally\s+)?"
                    r"(?P<verb>[a-z]+ed|took|paid|went|got|bought|sent|rang|wrote|made|gave|fed|did|sold|put|brought|ran|read|met)\s+"
                    r"(?P<rest>[\w' -]{2,50}?)(?:\s+(?:now|already|today|earlier|just now))?[\s.!]*$", re.IGNORECASE)
_IRREGULAR = {"took": "take", "paid": "pay", "went": "go", "got": "get", "bought": "buy", "sent": "send", "rang": "call", "wrote": "write",
              "made": "make", "gave": "give", "fed": "feed", "did": "do", "sold": "sell", "brought": "bring", "ran": "run", "met": "meet"}
MAX_DID_WORDS = 8


def _did(request: str) -> str | None:
    """The verb, as a reminder says it, of a short "I took the bins out" / "I've paid the gas bill" ('' for a regular one:
    "called" has the stem of "call"); None for anything else."""
    said = " ".join(request.split())
    m = _I_DID.match(said) if len(said.split()) <= MAX_DID_WORDS and "?" not in said else None
    return None if m is None else _IRREGULAR.get(m["verb"].lower(), "")


REMIND = re.compile(r"\bremind", re.IGNORECASE)
SENTENCE = re.compile(r"(?<=[.!?])\s+|,?\s+(?:and|also|plus)\s+(?=(?:also\s+)?(?:note|write|jot|make|take|save|keep|put|add|log|"
                       r"record|remind|set)\b)", re.IGNORECASE)  # sentences, and clauses joined by "and" before an ask


def with_both_asked(calls: list[ToolCall], request: str, made: Sequence[dict]) -> list[ToolCall]:
    """A request for a reminder *and* a note ("Can you remind me tomorrow 18:00 to email the landlord? And write
    down that the boiler was serviced in October.") gets both, once the model wrote calls for it:
    - the note: a reminder made of the note's words (more of them than of the rest of the request) becomes
      it, and it is added when no call wrote it. The shipped L1 had made it a second reminder in 3 of 4
      held-out cases, and dropped it in the fourth;
    - the reminder, when its sentence reads "remind me <when> to <task>" or "remind me to <task> <when>":
      added when no call set one (in the app, L0 wrote only the note), and put in place of a reminder whose
      text shares no word with <task> (in the app, L0 set "write a note").
    Unchanged when the model wrote no call, or the request does not ask for both."""
    sentences = SENTENCE.split(request.strip())
    note = next((n for s in sentences if not REMIND.search(s) and (n := note_call(s)) is not None), None)
    if note is None or not calls or not REMIND.search(request):
        return calls
    done = {c["name"] for c in made}
    out = list(calls)
    if "notes.create" not in done | {c.name for c in out}:
        about_note = content_stems(note.arguments["body"])
        rest = content_stems(" ".join(s for s in sentences if note_call(s) is None))
        out = [c for c in out if c.name != "reminders.create" or len(_text_stems(c) & about_note) <= len(_text_stems(c) & rest)]
        out.append(replace(note, answers=False))
    reminder = next((r for s in sentences if (r := reminder_call(s)) is not None), None)
    if reminder is not None:  # a reminder sharing no word with the task asked is that reminder (the app: "write a note")
        task = content_stems(reminder.arguments["text"])
        out = [reminder if c.name == "reminders.create" and not _text_stems(c) & task else c for c in out]
        if "reminders.create" not in done | {c.name for c in out}:
            out.insert(0, reminder)
    return out if out == calls else [replace(c, answers=True) for c in out]  # what was done is said back


def _text_stems(call: ToolCall) -> set[str]:
    return content_stems(str(call.arguments.get("text", "")))


_ASK_REMINDER = (r"\b(?:remind me|(?:don't|do not) let me forget|to be reminded"  # "I want to be reminded to …"
                 r"|(?:set|add|create|make|put in)\s+(?:me\s+)?a\s+reminder(?:\s+(?:for|on))?)")  # "Set a reminder for March 3rd to …"
_REMIND_WHEN_TO = re.compile(rf"{_ASK_REMINDER},?\s+(?P<when>.+?)\s+to\s+(?P<task>.+)$", re.IGNORECASE)
_REMIND_TO = re.compile(rf"{_ASK_REMINDER},?\s+(?:to|about)\s+(?P<rest>.+)$", re.IGNORECASE)
_REMIND_BARE = re.compile(rf"{_ASK_REMINDER},?\s+(?P<rest>.+)$", re.IGNORECASE)  # "Remind me Friday 3pm dentist"
_TIME_WORD = re.compile(r"^(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|am|pm|a\.m\.|p\.m\.|o'?clock|from|later|and|before|after|until)\b", re.I)
_WHEN_WORD = re.compile(r"^(?:on|at|tomorrow|today|tonight|next|this|every|in)$", re.I)
_THING = re.compile(r"^(?:the|my|a|an|our|his|her|their)$", re.I)  # a task comes first: "a reminder for the vet tomorrow"
_ALARM = re.compile(r"\b(?:set|make|create|put)\s+(?:me\s+)?an?\s+alarm\s+(?:for|at)\s+(?P<when>.+)$", re.IGNORECASE)


def reminder_call(sentence: str) -> ToolCall | None:
    """reminders.create of "remind me <when> to <task>" / "remind me to <task> <when>" / "remind me <when> <task>" (or
    "don't let me forget to …", "I want to be reminded to …", "set an alarm for <when>"), when <when> reads as a time."""
    said = NOTE_END.sub("", sentence.strip())
    if m := _ALARM.search(said):  # "Set an alarm for 7": the next 7:00 (L0 had set "Set an alarm for 7" at 09:00 today)
        when = re.sub(r"^(\d{1,2})$", r"at \1", m["when"].strip())
        splits = [("alarm", when)]
    elif m := _REMIND_TO.search(said):
        words = m["rest"].split()
        splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    elif m := _REMIND_WHEN_TO.search(said):
        splits = [(m["task"], m["when"])]
    elif m := _REMIND_BARE.search(said):
        words = m["rest"].split()  # the longest time first; never "in 10" with "minutes" as the task, nor "15 minutes before"
        when_first = [(" ".join(words[i:]), " ".join(words[:i])) for i in range(len(words) - 1, 0, -1)
                      if not _TIME_WORD.match(words[i]) and words[i - 1].lower() not in ("before", "after", "until")]
        task_first = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words)) if _WHEN_WORD.match(words[i])]
        # "Set a reminder for my dentist on 14 January at 3:30pm": L1 set the text of the reminder before it (mol chat -c)
        splits = task_first + when_first if _THING.match(words[0]) else when_first + task_first
    else:
        return None
    for task, when in splits:
        phrase, rule = split_repeat(when)  # "every weekday at 7am": its first time is what must read
        try:
            parse_when(monthly_phrase(phrase, datetime.now())[0] if rule == "monthly" else phrase)
        except BadArguments:
            continue
        task = task_before_remind(task, sentence) or task  # "I need to set up the broadband, remind me tomorrow at 6pm"
        return replace(answering_call("reminders.create", {"text": task, "due": when}), answers=False)
    return None


def asks_to_tick_off(request: str) -> bool:
    """"Called the bank already, cross that one off": a tick-off that sets nothing. Routed to L0, the embedded
    model answered such requests with reminders.create (a reminder due 'the dentist'); the call the request
    settles is the completion of the reminder it names."""
    return bool(_TICK.search(request)) and not _SET.search(request)


def named_reminders(request: str, rows: Sequence[dict]) -> list[dict]:
    """The open reminders the request names best: those whose text is in it word for word, else those sharing
    the most content words with it ("took the bins out" ~ "take the bins out"); none when none shares one."""
    said = request.lower()
    named = [r for r in rows if r["text"] and r["text"].lower() in said]
    if named:
        return named
    words = content_stems(request)
    overlap = {r["id"]: len(content_stems(r["text"] or "") & words) for r in rows}
    best = max(overlap.values(), default=0)
    return [r for r in rows if best and overlap[r["id"]] == best]


def with_named_reminder(call: ToolCall, request: str, rows: Sequence[dict]) -> ToolCall:
    """The reminder the person named, when the model picked another open one.

    Seen: tick 'confirm the flight' off completed 'water the garden' (`mol bench specialists`); "I already
    took the bins out, tick that off" completed 'pay the rent' (`mol chat`). The model's pick stands when it
    is named as well as any other, or when no single reminder is named best."""
    named = named_reminders(request, rows)
    if len(named) != 1 or named[0]["id"] == call.arguments.get("id"):
        return call
    return ToolCall(call.name, {**call.arguments, "id": named[0]["id"]}, call.raw)


_SAME_AS = {"dr": "doctor", "doc": "doctor", "gp": "doctor", "mom": "mum", "mother": "mum", "mummy": "mum", "mommy": "mum",
            "father": "dad", "daddy": "dad"}  # "What did the doctor tell me?" had not met "Dr Hughes said I should cut down on salt"


def content_stems(text: str) -> set[str]:
    """Content words with a plural or past ending cut ("bins" -> "bin", "watered" -> "water"), and a final e ("live",
    "lives" and "lived" are one stem: "Where does Tom live?" had not met "Tom lives in Leeds")."""
    out = set()
    for word in _WORD.findall(text.lower()):
        word = _SAME_AS.get(word, word)
        if word in _STOP or len(word) < 3:
            continue
        for end in ("ing", "ed", "es", "s"):
            if word.endswith(end) and len(word) - len(end) >= 3:
                word = word[: -len(end)]
                break
        out.add(word[:-1] if word.endswith("e") and len(word) >= 4 else word)
    return out


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


_CLAUSE_END = re.compile(r"[,.;:!?]|\s(?:on|at|by|in|from|before|after|every|each|tomorrow|tonight|today|next|this|and|then|so|please|"
                         r"thanks|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.IGNORECASE)
_WAKE = re.compile(r"\bwake me(?: up)?\b", re.IGNORECASE)
MAX_TEXT_GROWTH = 4  # words a reminder's text may take back from the request


def with_stated_text(call: ToolCall, request: str) -> ToolCall:
    """A reminder whose text the model cut short: "Remind me tomorrow at 7am to walk Biscuit" was set as "walk".

    When the text is the start of a phrase of the request that goes on, with no time, day or joining word
    before the phrase ends, the rest of the phrase (up to MAX_TEXT_GROWTH words) is put back.
    """
    text = call.arguments.get("text")
    if not isinstance(text, str) or not text.strip():
        return call
    if task := task_before_remind(text, request):  # "I also need to set up the broadband, remind me tomorrow at 6pm": "6pm"
        return replace(call, arguments={**call.arguments, "text": task}, answers=True)
    if _WAKE.search(request) and not content_stems(text) & content_stems(request):  # "Wake me up at 6:30": "the user's reminders"
        return replace(call, arguments={**call.arguments, "text": "wake up"})
    m = re.search(r"(?<![\w'])" + re.escape(text.strip()) + r"(?![\w'])", request, re.IGNORECASE)
    if m is None:
        return call
    rest = request[m.end():]
    end = _CLAUSE_END.search(rest)
    more = (rest[: end.start()] if end else rest).split()
    if not more or len(more) > MAX_TEXT_GROWTH:
        return call
    return replace(call, arguments={**call.arguments, "text": request[m.start(): m.end()] + " " + " ".join(more)})
