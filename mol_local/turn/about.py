""""What can you do?" answered with what this runtime can do, with an example of each; "What's the weather?" with
why it cannot know.

A new user's first question. On the embedded default L0 answered "I can do everything from writing notes to
creating tools." — nothing they could try, and not true. The answer here is read from the runtime: a line
for each kind of tool the harness has enabled (reminders, notes, memory, python), one for the views when a
slot draws them, and where the conversations go. It is one committed command turn, like `/remember`.

Asked "What's the weather like today?", L0 answered "Good to know — the weather like today is sunny.": made
up. Weather, news, prices and scores change by the hour and nothing here can read them, so the answer says
that, unless an MCP server gives the harness tools of its own (they may well read it; the model then answers).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memory.timeline import MessageRecord, RouteRecord, TaskRecord, new_id
from mol_local.genui.starters import starter_for
from mol_local.models import on_embedded
from mol_local.turn.cook_with import cook_with_answer
from mol_local.turn.gist import gist_answer
from mol_local.turn.ideas import ideas_answer
from mol_local.turn.meals import meal_answer
from mol_local.turn.polite import polite_answer
from mol_local.turn.py_doc import py_doc_answer
from mol_local.turn.email_draft import asks_draft, draft_answer
from mol_local.turn.code_follow import CODE_SLOT
from mol_local.turn.code_tests import tests_answer
from mol_local.turn.jokes import jokes, joke_answer
from mol_local.turn.result import TurnResult
from mol_local.turn.shell import shell_answer
from mol_local.turn.vague import vague_ask

if TYPE_CHECKING:
    from mol_local.runtime import Runtime
    from mol_local.turn.session import Session

ABILITIES = "/abilities"  # the route record's raw output for this command turn
LIVE = "/live"  # … and for a question about what is happening out there now
_LIVE = re.compile(
    r"^(?:(?:so|ok|okay|hi|hello|hey)[,!.]?\s+)?(?:(?:can|could) you\s+(?:tell me|check)\s+|do you know\s+|tell me\s+|please\s+)?"
    r"(?:(?:what(?:'s|\s+is|\s+will)|how(?:'s|\s+is)|is it going to|will it)\s+(?:the\s+)?"
    r"(?P<weather>weather|forecast|temperature outside|rain|snow|be sunny)\b|"
    r"(?:what(?:'s|\s+is|\s+are)\s+)?(?P<news>the (?:latest )?news|latest news|(?:the )?headlines|news today)\b|"
    r"(?:what(?:'s|\s+is)|how much is)\s+(?:the\s+)?(?P<price>(?:stock|share)\s+price|price of (?:bitcoin|gold|oil)|bitcoin)\b|"
    r"(?:who won|what(?:'s|\s+was|\s+is) the score)\b(?=.*\b(?:last night|yesterday|today|tonight|this weekend|the (?:game|match|race))\b)(?P<score>))"
    r"(?!.*\b\d{4}\b)[^?.!]{0,60}[?.!]*$", re.IGNORECASE)
DRAFT = "/draft"  # … for a short email drafted from the person's words (turn/email_draft.py)
SHELL = "/shell"  # … for a shell command for an everyday file job (turn/shell.py)
PY_DOC = "/py-doc"  # … for what a Python name does, from its documentation (turn/py_doc.py)
VAGUE = "/vague"  # … for "Remind me" or "Make a list" with nothing to do it with (turn/vague.py)
TESTS = "/tests"  # … for tests of the function just written (turn/code_tests.py)
JOKE = "/joke"  # … for a joke (turn/jokes.py)
THANKS = "/thanks"  # … for a thank-you or a goodbye that asks nothing
EARLIER = "/earlier"  # … for "What did I ask you earlier?"  # … and for a thank-you that asks nothing
_THANKED = re.compile(r"^(?:(?:ok(?:ay)?|great|perfect|cool|nice|brilliant|awesome|lovely)[,!.]?\s+)*(?:thanks?(?: you)?(?: so much| a lot| very much)?|"
                      r"thx|ty|cheers|much appreciated)(?:[,!.]?\s+(?:that(?:'s| is| was)\s+(?:very\s+|really\s+|so\s+)?"
                      r"(?:helpful|great|perfect|useful|all(?: for now)?|it)|for (?:the|your) help|bye|see you))*[\s!.]*$", re.I)
_WHAT_LIVE = {"weather": ("the weather", "a weather app or site"), "news": ("the news", "a news site"),
              "price": ("prices", "a market site or your bank's app"), "score": ("results or scores", "a sports site")}
_ASKS = re.compile(
    r"^(?:(?:so|ok|okay|hi|hello|hey)[,!.]?\s+)?(?:what (?:can|could|do) you (?:do|help (?:me )?with)|what are you able to do|"
    r"how (?:can|could) you help(?: me)?|what can i (?:ask you|ask|use you for|do with you)|what are your (?:abilities|skills|features)|"
    r"what do you do|help|who are you|what are you|tell me (?:about|more about) yourself)(?:\s+for me)?\s*[?!.]*$", re.IGNORECASE)
_LINES = (  # (a tool the line needs, or "" for none; the line)
    ("reminders.create", 'Reminders: "Remind me tomorrow at 9 to call the dentist", "every Monday at 8am …", '
                         '"What reminders do I have?", "I called the dentist, tick it off".'),
    ("notes.create", 'Notes: "Note: the wifi password is in the blue drawer", "What notes do I have?".'),
    ("memory.remember", 'Memory: "Remember that my sister\'s birthday is March 3rd", later "When is my sister\'s birthday?"; '
                        '"What do you know about me?"; "Forget that …".'),
    ("python", 'Numbers and dates, computed: "What is 17% of 2350?", "How many days until Christmas?", "Convert 5 miles to km".'),
    ("python", 'Code: "Write a Python function is_leap(year)" — I run it before I show it and say if it fails.'),
)


def asks_abilities(text: str) -> bool:
    return bool(_ASKS.match(text.strip()))


def abilities_answer(rt: Runtime) -> str:
    """What this runtime can do, one line per kind of tool enabled, each with words to try."""
    tools = set(rt.tool_hub.specs()) if rt.tool_hub is not None else set()
    lines = [line for needs, line in _LINES if not needs or needs in tools]
    lines = list(dict.fromkeys(lines))
    if "L3" in rt.hcp.slots:
        lines.append('Views you can tick and fill: "A checklist for a ski trip: gloves, goggles, helmet", '
                     '"a table of my expenses: rent 900, food 300", "a 10 minute timer", "a form to log my runs".')
    where = "on this machine, offline" if rt.hcp.backend != "remote" else f"with the remote model of profile {rt.hcp.name}"
    head = f"I'm your assistant, running {where}; what you tell me stays in your mol home. I can help with:"
    training = "on" if rt.hcp.consent.default else "off"
    return "\n".join([head, *(f"- {line}" for line in lines), "",  # a blank line: the app's Markdown ends the list there
                      f"Or just ask a question. Learning from a conversation is {training} until you switch it (Ctrl+T in the app)."])


def live_answer(rt: Runtime, text: str) -> str | None:
    """Why this runtime cannot say the weather (news, prices, scores) the request asks about; None for any other
    request, and whenever an MCP server adds tools that might read it."""
    m = _LIVE.match(" ".join(text.split()))
    hub = rt.tool_hub
    if m is None or (hub is not None and hub.mcp is not None and hub.mcp.specs()):
        return None
    what, where = next(_WHAT_LIVE[k] for k in _WHAT_LIVE if m[k] is not None)
    return (f"I can't see {what}: I run on this machine with no internet connection, so anything I said about it "
            f"would be made up. {where[:1].upper()}{where[1:]} will know; I can set you a reminder to check it.")


def thanks_answer(text: str) -> str | None:
    """A short reply to a thank-you that asks nothing else ("Thanks, that's helpful"): L0 had answered it "Thanks for
    letting me know: your suggestion helped me understand and use the tool more effectively."."""
    if not _THANKED.match(" ".join(text.split())):
        return None
    return "You're welcome — talk soon." if re.search(r"\b(?:all|bye|see you)\b", text, re.I) else "You're welcome!"


_NAME_ASK = re.compile(r"^(?:(?:so|and|hi|hello|hey)[,!.]?\s+)?(?:what(?:'s| is) your name|what are you called|do you have a name|"
                       r"who am i (?:talking|speaking) (?:to|with))\s*[?!.]*$", re.IGNORECASE)
_HOW_ARE_YOU = re.compile(r"^(?:(?:hi|hello|hey)(?: there)?[,!.]?\s+)?(?:how are you(?: doing| today)?|how(?:'s| is) it going|"
                          r"how are things|you ok(?:ay)?)\s*[?!.]*$", re.IGNORECASE)
_PLAN_ASK = re.compile(r"^(?:(?:can|could|would) you\s+)?(?:please\s+)?(?:help me\s+)?plan (?:out\s+)?(?:my|the|this)\s+(?:week|day|weekend|"
                       r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|evening|morning)(?:\s+for me)?\s*[?!.]*$", re.IGNORECASE)


def small_talk_answer(text: str) -> str | None:
    """A plain reply to "What's your name?" (L0: "Your name is: Michael · What is your name?"), "How are you?" ("I'm
    fine — I don't know what to say.") and "Can you help me plan my week?" with nothing in it to plan (L1 wrote a
    numbered week of "2 hours before work; 3 hours after work"); None for anything else."""
    said = " ".join(text.split())
    if _NAME_ASK.match(said):
        return ("I'm mol, your assistant on this machine — what you tell me stays here. "
                'Ask "What can you do?" to see what I can help with.')
    if _HOW_ARE_YOU.match(said):
        return "I'm running well, thanks. What can I do for you?"  # the reply L0 was trained on (chat_more "talk_how")
    if _PLAN_ASK.match(said):
        return ("Happy to — tell me what's on: things with a fixed time (\"gym Monday at 7am, dentist Tuesday at 3pm\") and "
                "what you need to fit in (\"2 hours for the garden\"). I'll lay it out in order, and I can set reminders "
                "for any of it.")
    return None


_BYE = re.compile(r"^(?:(?:ok(?:ay)?|right|well)[,!.]?\s+)?(?P<w>good\s*night|night night|bye(?: bye)?|goodbye|see you(?: later| tomorrow| soon)?|"
                  r"talk (?:to you )?(?:later|soon|tomorrow))(?:[,!.]?\s+(?:for now|then|mol))*[\s!.]*$", re.IGNORECASE)


def farewell_answer(text: str) -> str | None:
    """A short goodbye for a goodbye that asks nothing: after "What did I ask you earlier?", L0 answered "Good night" with
    "You asked what I asked earlier." (its previous answer again)."""
    m = _BYE.match(" ".join(text.split()))
    if m is None:
        return None
    said = " ".join(m["w"].lower().split())
    return "Good night!" if "night" in said else "See you later!" if said.startswith("see you") else "Bye — talk soon!"


_ASKED_BEFORE = re.compile(r"^(?:so\s+)?what\s+(?:did|have)\s+i\s+(?:ask(?:ed)?|say|said)(?:\s+you)?\s+(?:earlier|before|just now|so far|"
                           r"first|last|in this (?:conversation|chat))(?:\s+today)?\s*\??$", re.IGNORECASE)
SHOWN_ASKED = 5


def asked_before_answer(session: Session, text: str) -> str | None:
    """What the person asked earlier in this conversation, in their words: L0 answered "What did I ask you earlier?"
    with "You asked what did I ask earlier?"; None for any other request."""
    if not _ASKED_BEFORE.match(" ".join(text.split())):
        return None
    said = [m.content for t in session.tasks for m in t.messages if m.role == "user"]
    if not said:
        return "Nothing yet — this is the first thing you've asked in this conversation."
    shown = said[-SHOWN_ASKED:]
    more = f" (the last {len(shown)} of {len(said)})" if len(said) > len(shown) else ""
    return f"Earlier in this conversation you said{more}:\n" + "\n".join(f'- "{line}"' for line in shown)


def abilities_turn(session: Session, text: str) -> TurnResult:
    """One committed command turn on the entry slot: the question and `abilities_answer`."""
    return command_turn(session, text, abilities_answer(session.runtime), "The user asked what I can do; I listed it with examples.", ABILITIES)


def command_turn(session: Session, text: str, reply: str, summary: str, raw: str, slot: str | None = None) -> TurnResult:
    """One committed turn on `slot` (the entry slot if None) whose answer the runtime wrote (`raw`: what its route record says)."""
    rt = session.runtime
    slot = slot if slot in rt.hcp.slots else rt.hcp.entry_slot
    task = TaskRecord(new_id(), session.conversation_id, len(session.tasks), slot, status="closed")
    route = RouteRecord(slot, "command", raw, False, 0.0)
    new = [MessageRecord("user", text), MessageRecord("assistant", reply)]
    session.commit_turn(rt, text, task, new, route, list(session.tasks), summary=summary)
    return TurnResult(session.conversation_id, task.id, slot, reply, route, summary)


def said_turn(session: Session, text: str) -> TurnResult | None:
    """The command turn the runtime answers by itself ("What can you do?", "What's the weather?", "Thanks!", "Good night",
    "What did I ask you earlier?", a short email drafted from what it should say, a message said more politely, a text
    summarized, a translation the embedded model cannot do, what to pack for a common trip, meal ideas that fit how
    they eat or use what they have, gift or activity ideas for what they named, what a Python name does, a shell
    command for a file job), or None."""
    if (live := live_answer(session.runtime, text)) is not None:
        return command_turn(session, text, live, "The user asked about something live; I said I cannot see it offline.", LIVE)
    if (vague := vague_ask(text)) is not None:
        return command_turn(session, text, vague[1], f"The user asked for a {vague[0]} without saying what; I asked what.", VAGUE,
                            CODE_SLOT if vague[0] == "code" else None)
    if on_embedded(session.runtime.hcp) and (kinder := polite_answer(text)) is not None:
        return command_turn(session, text, kinder, "The user asked for their message said more politely; I rewrote it.", DRAFT)
    if on_embedded(session.runtime.hcp) and (short := gist_answer(text)) is not None:
        return command_turn(session, text, short, "The user asked for a text to be summarized; I gave its central sentences.", DRAFT)
    if asks_draft(text) and (draft := draft_answer(text, _names(session.runtime))) is not None:
        return command_turn(session, text, draft, "The user asked for a short message; I drafted it from their words.", DRAFT)
    if (cannot := translation_answer(session.runtime, text)) is not None:
        return command_turn(session, text, cannot, "The user asked for a translation; I said the built-in model cannot do it.", LIVE)
    if (welcome := thanks_answer(text) or farewell_answer(text)) is not None:
        return command_turn(session, text, welcome, "The user said thanks or goodbye.", THANKS)
    if (start := starter_answer(session.runtime, text)) is not None:
        return command_turn(session, text, start, "The user asked what a common list holds; I gave the usual items.", THANKS)
    if on_embedded(session.runtime.hcp) and (meal := meal_answer(text, _eats(session.runtime), session.runtime.clock().date())) is not None:
        return command_turn(session, text, meal, "The user asked for meal ideas; I gave three that fit how they eat.", THANKS)
    if on_embedded(session.runtime.hcp) and (meal := cook_with_answer(text, _eats(session.runtime), session.runtime.clock().date())) is not None:
        return command_turn(session, text, meal, "The user asked what to make from what they have; I gave meals that use it.", THANKS)
    if on_embedded(session.runtime.hcp) and (doc := py_doc_answer(text)) is not None:
        return command_turn(session, text, doc, "The user asked what a Python name does; I quoted Python's documentation and ran an example.",
                            PY_DOC, CODE_SLOT)
    if on_embedded(session.runtime.hcp) and (ideas := ideas_answer(text, session.runtime.clock().date())) is not None:
        return command_turn(session, text, ideas, "The user asked for gift or activity ideas; I gave some for what they named.", THANKS)
    if on_embedded(session.runtime.hcp) and (command := shell_answer(text)) is not None:
        return command_turn(session, text, command, "The user asked for a shell command; I gave it and what it does.", SHELL, CODE_SLOT)
    if on_embedded(session.runtime.hcp) and (tests := tests_answer(text, session.tasks)) is not None:
        return command_turn(session, text, tests, "The user asked for tests of the function; I wrote them from its cases and ran them.",
                            TESTS, CODE_SLOT)
    if on_embedded(session.runtime.hcp) and (joke := _joke(session, text)) is not None:
        return command_turn(session, text, joke, "The user asked for a joke; I told one.", JOKE)
    if (chat := small_talk_answer(text)) is not None:
        return command_turn(session, text, chat, "The user made small talk or asked for a plan without its items; I replied.", THANKS)
    if (earlier := asked_before_answer(session, text)) is not None:
        return command_turn(session, text, earlier, "The user asked what they said earlier; I quoted it.", EARLIER)
    return abilities_turn(session, text) if asks_abilities(text) else None


_TRANSLATE = re.compile(
    r"^(?:(?:can|could) you\s+)?(?:please\s+)?(?:translate\s+.+?\s+(?:in|into|to)|how (?:do|would) (?:you|i) say\s+.+?\s+in|"
    r"what(?:'s| is)\s+.+?\s+in)\s+(?P<lang>spanish|french|german|italian|portuguese|dutch|polish|russian|chinese|mandarin|"
    r"japanese|korean|arabic|hindi|turkish|greek|swedish|norwegian|danish|finnish|czech|hungarian|romanian|ukrainian|hebrew|"
    r"vietnamese|thai|indonesian)\b[\s?.!]*$", re.IGNORECASE)


def translation_answer(rt: Runtime, text: str) -> str | None:
    """Why the embedded model cannot translate, for a translation request on it; None otherwise (a larger local or
    remote model answers). L0 answered "Translate good morning into Spanish" with "Cualqué estás conozco sobre good
    morning?": SmolLM2-135M learned almost only English, and a wrong translation looks as sure as a right one."""
    m = _TRANSLATE.match(" ".join(text.split()))
    if m is None or not on_embedded(rt.hcp):
        return None
    return (f"I can't translate into {m['lang'].capitalize()} reliably: the built-in model (SmolLM2, 135M parameters) learned "
            "almost only English, so anything I wrote would likely be wrong. A larger model can: `mol models scan` finds GGUF "
            "models you already have (Ollama, LM Studio), `mol models use NAME` switches to one, and a remote profile "
            "(`mol remote login`) works too.")


_WHAT_TO_PACK = re.compile(r"^(?:so\s+|ok(?:ay)?,?\s+)?(?:what (?:should|do|shall|must|would) (?:i|we) (?:need to )?(?:pack|bring|take)|"
                           r"what do (?:i|we) need|what to (?:pack|bring|take)|what (?:goes|should go) on (?:a|my) packing list)"
                           r"\s+(?:for|on|to)\s+(?P<what>.+?)[\s?.!]*$", re.IGNORECASE)


def starter_answer(rt: Runtime, text: str) -> str | None:
    """The usual items for "What should I pack for a beach holiday?" (genui/starters.py) on the embedded model, and how
    to make them a checklist; None for anything else, or on a larger model, which can answer. L0 said "- beach towels"
    twelve times."""
    m = _WHAT_TO_PACK.match(" ".join(text.split()))
    if m is None or not on_embedded(rt.hcp) or (start := starter_for(m["what"])) is None or not start.packing:
        return None
    items = "\n".join(f"- {item}" for item in start.items)
    return (f"A usual start for {start.name}:\n{items}\n\nSay \"Make a checklist for {m['what']}\" and I'll put them in a list you "
            "can tick, add to and cut.")


def _joke(session: Session, text: str) -> str | None:
    """A joke not yet told in this conversation; "another one" asks for one only right after a joke."""
    known = {j.text for j in jokes()}
    answers = [m.content for t in session.tasks for m in t.messages if m.role == "assistant"]
    told = frozenset(a for a in answers if a in known) | frozenset(a.split(": ", 1)[-1] for a in answers if a.startswith("I don't have one"))
    return joke_answer(text, told, after_joke=bool(answers) and (answers[-1] in known or answers[-1].split(": ", 1)[-1] in known))


def _eats(rt: Runtime) -> list[str]:
    """What the person told about how they eat (a diet, an allergy, what they don't eat), oldest first."""
    rows = {r.id: r for needle in ("vegan", "vegetarian", "pescatarian", "allergic", " eat ") for r in rt.memory.store.containing(needle)}
    return [r.text for r in sorted(rows.values(), key=lambda r: r.said_at or r.created_at)]


def _names(rt: Runtime) -> list[str]:
    """The memories that may hold the person's name, for a draft's signature."""
    store = rt.memory.store
    return [r.text for r in store.containing("name", said=False) + store.containing("called", said=False)]
