"""The task state machine: route once, answer, loop on tool calls, summarise on close.

A tool call keeps the task on the same slot: no new route, no summary, until
the slot gives a final answer (or the round cap closes it). The turn loop
asks this machine what to do next; the machine never touches an engine.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from mol_local.turn.units import no_rate_answer


class Step(Enum):
    ROUTE = "route"
    ANSWER = "answer"
    RUN_TOOLS = "run_tools"
    SUMMARIZE = "summarize"
    COMMIT = "commit"
    DONE = "done"


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict
    raw: str
    error: str | None = None  # set when the call could not be parsed
    refused: str | None = None  # set when the request does not ask for what this call would change (turn/ground.py)
    answers: bool = False  # the read the request asked for: its result is the answer (turn/ground.py)


class ToolRunner(Protocol):
    def run(self, call: ToolCall, *, slot: str) -> str:
        """Run one call and return the text the model sees as its result.

        Calls that did not parse (`call.error` set) are passed too, so they are
        audited; answer them with the error and how to fix the call.
        """


CALL_OPEN, CALL_CLOSE = "<tool_call>", "</tool_call>"  # the Hermes/Qwen tags our own prompts use
_CALL = re.compile(rf"{CALL_OPEN}\s*(.*?)\s*{CALL_CLOSE}", re.DOTALL)
_MISTRAL = re.compile(r"\[TOOL_CALLS\]\s*(.*)$", re.DOTALL)
_MISTRAL_ARGS = re.compile(r"\s*([A-Za-z_][\w.\-]*)\[ARGS\]", re.DOTALL)
_LLAMA_TAG = "<|python_tag|>"


def answering_call(name: str, arguments: dict) -> ToolCall:
    """A call the turn settles from the person's words (not the model's), written as the model would write it;
    its result is the answer."""
    raw = CALL_OPEN + json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False) + CALL_CLOSE
    return ToolCall(name, arguments, raw, answers=True)


def parse_tool_calls(text: str) -> list[ToolCall]:
    """Tool calls in any family's syntax, as one internal ToolCall each.

    - Hermes/Qwen: `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` blocks (our own prompts use this);
    - Mistral: `[TOOL_CALLS][{"name": ..., "arguments": {...}}, ...]`, or `[TOOL_CALLS]name[ARGS]{...}` (newer tokenizers);
    - Llama 3.x: `<|python_tag|>{"name": ..., "parameters": {...}}`, or an answer that is only such an object
      (the word `parameters` is what Llama's template asks for, so ordinary JSON answers are not taken as calls).
    """
    if _CALL.search(text):
        return [_call(raw) for raw in _CALL.findall(text)]
    if found := _MISTRAL.search(text):
        return _mistral(found.group(1).strip())
    body = text.strip()
    if body.startswith(_LLAMA_TAG) or (body.startswith("{") and '"parameters"' in body):
        return _llama(body.removeprefix(_LLAMA_TAG).strip(), tagged=body.startswith(_LLAMA_TAG))
    return []


def _call(raw: str, obj: object = None, *, args_key: str = "arguments") -> ToolCall:
    try:
        obj = json.loads(raw) if obj is None else obj
        if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
            raise ValueError("expected an object with a string `name`")
        args = obj.get(args_key, obj.get("arguments", {}))
        if isinstance(args, str):
            args = json.loads(args)
        if not isinstance(args, dict):
            raise ValueError(f"`{args_key}` must be an object")
        return ToolCall(obj["name"], args, raw)
    except ValueError as exc:
        return ToolCall("", {}, raw, error=f"malformed tool call: {exc}")


def _mistral(rest: str) -> list[ToolCall]:
    if rest.startswith("["):
        try:
            items = json.loads(rest)
        except ValueError as exc:
            return [ToolCall("", {}, rest, error=f"malformed tool call: {exc}")]
        if not isinstance(items, list):
            items = [items]
        return [_call(json.dumps(item), item) for item in items]
    calls = []
    for chunk in [c for c in rest.split("[TOOL_CALLS]") if c.strip()]:
        named = _MISTRAL_ARGS.match(chunk)
        if named is None:
            calls.append(ToolCall("", {}, chunk, error="malformed tool call: expected NAME[ARGS]{...} after [TOOL_CALLS]"))
            continue
        raw = chunk[named.end():].strip()
        calls.append(_call(raw, {"name": named.group(1), "arguments": _json_or_raw(raw)}))
    return calls


def _llama(body: str, *, tagged: bool) -> list[ToolCall]:
    try:
        obj = json.loads(body)
    except ValueError as exc:
        return [ToolCall("", {}, body, error=f"malformed tool call: {exc}")] if tagged else []
    items = obj if isinstance(obj, list) else [obj]
    if not tagged and not all(isinstance(i, dict) and set(i) - {"type"} == {"name", "parameters"} for i in items):
        return []  # a JSON answer that merely mentions `parameters`
    return [_call(json.dumps(item), item, args_key="parameters") for item in items]


def _json_or_raw(raw: str) -> object:
    try:
        return json.loads(raw)
    except ValueError:
        return raw  # _call turns a non-JSON string into the parse error


def strip_tool_calls(text: str) -> str:
    """The words of an answer without its tool calls (Hermes blocks, a dangling unclosed one, or a Mistral tail)."""
    text = re.sub(r"<tool_call>.*?(</tool_call>|$)", "", text, flags=re.DOTALL)
    text = re.sub(r"\[TOOL_CALLS\].*$", "", text, flags=re.DOTALL)
    return text.strip()


def capped_answer(text: str, calls: list[dict], rounds: int) -> str:
    """The answer of a task that was still calling tools at tools.max_rounds: its words, else what the tools said."""
    words = strip_tool_calls(text)
    if words:
        return words
    last = calls[-1]["result"].strip().splitlines()[0][:200] if calls else ""
    said = f" The last tool said: {last}" if last else ""
    return f"I stopped after {rounds} rounds of tool calls without finishing (tools.max_rounds).{said}"


def _key(name: str, arguments: dict) -> str:
    return name + json.dumps(arguments, sort_keys=True, ensure_ascii=False)


WRITES = frozenset({"reminders.create", "reminders.complete", "reminders.cancel", "notes.create", "notes.delete", "memory.remember"})  # a repeat duplicates


def fresh_calls(calls: list[ToolCall], made: list[dict]) -> list[ToolCall]:
    """This round's calls less word-for-word repeats: of a call that failed in this task, of a write that
    succeeded in it (WRITES), and of an earlier call in the same round.

    The embedded models repeat themselves: shown a tool's error they send the same call again, and shown a
    success they often send a write once more (`mol bench specialists`: one reminder asked for, six created;
    "Monteiro" set twice in one round). Running a call again cannot succeed where it failed, and a write
    again duplicates what it did; a read may rightly run again after a write. When nothing fresh is left
    the task answers now.
    """
    seen = {_key(c["name"], c["arguments"]) for c in made if c["result"].startswith("Error") or c["name"] in WRITES}
    fresh = []
    for call in calls:
        key = _key(call.name, call.arguments)
        if key not in seen:
            seen.add(key)
            fresh.append(call)
    return fresh


UNFINISHED_CALL = "I began a tool call but it was cut off before it was complete, so nothing was done — please ask again."


def unfinished_answer(text: str) -> str | None:
    """An answer cut off inside a tool call (the token cap came before `</tool_call>`): the words before the
    call, else a line saying nothing was done; None when the answer holds no unfinished call. The person never
    gets the raw markup (seen: a Lisbon plan answered with `<tool_call>{"name": "reminders.complete", …"000…`)."""
    start = text.rfind(CALL_OPEN[:-1])  # "<tool_call.create>" too
    if start < 0 or CALL_CLOSE in text[start:]:
        return None
    return strip_tool_calls(text[:start]) or UNFINISHED_CALL


UNRUN_CALL = "I wrote a tool call but did not run it, so nothing was done — please say it again with what and when."


def without_markup(text: str) -> str:
    """The answer's words when tool-call markup is left in it after the turn (never shown raw: `mol chat -c` once answered
    "Remind me two days before Alex's birthday to buy flowers" with a whole `<tool_call>{…}</tool_call>`); else the
    answer as it is."""
    if CALL_OPEN not in text:
        return text
    return strip_tool_calls(text) or UNRUN_CALL


def repeated_answer(text: str, calls: list[dict]) -> str:
    """The answer of a task that only repeated calls it had made: its words, else what the last tool said."""
    words = strip_tool_calls(text)
    if words:
        return words
    last = calls[-1]["result"] if calls else ""
    if last.startswith("Error: not run:"):  # a refusal: its reason is the person's, what follows " — " the model's
        why = last.removeprefix("Error: not run:").split(" — ")[0].strip()
        return f"I didn't do that: {why}. What would you like me to do?"
    if not last or last.startswith("Error"):
        return f"I couldn't do that: {error_line(last) if last else 'the tool call failed'}"
    return f"Done — {last.strip().splitlines()[0][:300]}"


WORDS_ONLY = "root ::= [^<]+"  # GBNF: an answer with no markup, so no tool call can start


def asked_for_words(calls: list[ToolCall]) -> bool:
    """Whether every call is refused as asked for by nothing (`ground.NOT_SET`, "… answer the request in words"): the
    turn then answers again in words, with no call run or shown. The embedded L0 and L1 called reminders.create for
    "See you later", a packing list and a budget question, and the person got "I didn't do that: the request asks
    for no reminder, so none was set. What would you like me to do?"."""
    return bool(calls) and all(c.refused and c.refused.endswith("answer the request in words") for c in calls)


def error_line(result: str) -> str:
    """What went wrong, in one line: a traceback's last line (the exception), else the error's first line."""
    error = result[result.find("Error:"):].removeprefix("Error:").strip() if "Error:" in result else result.strip()
    lines = [line.strip() for line in error.splitlines() if line.strip()] or ["the tool call failed"]
    return (lines[-1] if lines[0].startswith("Traceback") else lines[0])[:300]


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def unbacked_answer(text: str, request: str, calls: list[dict]) -> str | None:
    """Why the python call failed, for an answer that gives a number after it failed, when neither the request
    nor any tool said that number (L2: a NameError, then "The square root of 7921 is 30."); why the reminder was not
    set when every one the turn tried was refused (L0: "You can't read due to time."); for a currency
    conversion with no rate, that offline there is none (`units.no_rate_answer`). None otherwise, and for an
    answer holding code (a fix to try is not a claim)."""
    if not calls and (honest := no_rate_answer(request, text)):  # "250 euros in dollars is 184 euros."
        return honest
    made = [c for c in calls if c["name"] == "reminders.create"]
    if made and all(c["result"].startswith("Error") and not c["result"].startswith("Error: not run") for c in made) \
            and not text.rstrip().endswith("?"):  # asking when is an answer too
        return f"I couldn't set that reminder: {error_line(made[-1]['result'])}"  # L0 had said "You can't read due to time."
    runs = [c for c in calls if c["name"] == "python"]
    if not runs or "Error:" not in runs[-1]["result"] or "```" in text:
        return None
    said = set(_NUMBER.findall(request)) | {n for c in calls for n in _NUMBER.findall(c["result"])}
    if not any(n not in said for n in _NUMBER.findall(text)):
        return None
    return f"I couldn't compute that: {error_line(runs[-1]['result'])}"


@dataclass
class TaskMachine:
    """One task's lifecycle. `sticky` tasks were open before this turn and skip routing."""

    sticky: bool = False
    max_rounds: int = 4
    rounds: int = 0
    step: Step = field(init=False)
    capped: bool = False
    held: bool = False

    def __post_init__(self) -> None:
        self.step = Step.ANSWER if self.sticky else Step.ROUTE

    def routed(self) -> Step:
        self._expect(Step.ROUTE)
        self.step = Step.ANSWER
        return self.step

    def answered(self, tool_calls: int, *, hold: bool = False) -> Step:
        """After an answer hop. `hold` keeps the task open for the user's next turn (no summary)."""
        self._expect(Step.ANSWER)
        if hold:
            self.held = True
            self.step = Step.COMMIT
        elif tool_calls and self.rounds < self.max_rounds:
            self.step = Step.RUN_TOOLS
        else:
            self.capped = bool(tool_calls)
            self.step = Step.SUMMARIZE
        return self.step

    def tools_done(self) -> Step:
        self._expect(Step.RUN_TOOLS)
        self.rounds += 1
        self.step = Step.ANSWER
        return self.step

    def summarized(self) -> Step:
        self._expect(Step.SUMMARIZE)
        self.step = Step.COMMIT
        return self.step

    @property
    def status(self) -> str:
        """The task's status once committed: open while held, closed after a summary."""
        return "open" if self.held else "closed"

    def committed(self) -> Step:
        self._expect(Step.COMMIT)
        self.step = Step.DONE
        return self.step

    def _expect(self, step: Step) -> None:
        if self.step is not step:
            raise RuntimeError(f"task is at {self.step.value}, not {step.value}")
