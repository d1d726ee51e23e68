"""L0 (Chat) cases: one direct action as one tool call, facts from the tail used as given, short answers.

Families (each a set of request templates; whole templates are held out):
- reminder: "Remind me to X <when>" -> one reminders.create with the user's own words for when;
  the answer repeats the exact time the tool set.
- note / find: "Note that ..." -> notes.create; "What did I note about X?" -> notes.find, answer from the result.
- remember: "Remember that my dog is called Biscuit" -> memory.remember.
- recall: the fact is in the tail (as the recall step puts it) -> answered from it, no tool;
  when the tail holds only other facts, the answer says it does not know.
- facts: short factual answers from our own table; vague requests get one clarifying question.
Every case with a call is run through the real harness (`toolrun.materialize`) before it is kept.
"""

from __future__ import annotations

import random

from trainer.specialists.cases import Case
from trainer.specialists.chat_more import more_plans
from trainer.specialists.chat_told import told_and_asked
from trainer.specialists.phrases import human, random_now, when
from trainer.specialists.toolrun import Plan, Seed, minute
from trainer.specialists.words import NOTE_FACTS, PERSON_FACTS, TASKS, VALUES

SLOT = "L0"
REMIND = {
    "remind_plain": "remind me to {task} {when}",
    "remind_when_first": "remind me {when} to {task}",
    "remind_set": "set a reminder to {task} {when}",
    "remind_front": "{When}, remind me to {task}",
    "remind_add": "add a reminder: {task}, {when}",
    "remind_for": "set a reminder for {when}: {task}",
    "remind_make_sure": "make sure I {task} {when}",
    "remind_ping": "ping me {when} to {task}",
    "remind_nudge": "give me a nudge {when} to {task}",
    "remind_can_you": "can you remind me to {task} {when}?",
    "remind_forget": "don't let me forget to {task} {when}",
    "remind_need": "I need a reminder {when}: {task}",
    "remind_want": "I want to be reminded to {task} {when}",
    "remind_alert": "alert me {when} so I {task}",
    "remind_tell": "tell me to {task} {when}",
    "remind_schedule": "schedule a reminder {when} to {task}",
    "remind_need_to": "I need to {task} {when} — remind me",
}
NOTE = {
    "note_that": "note that {fact}",
    "note_make": "make a note: {fact}",
    "note_save": "save a note that {fact}",
    "note_jot": "jot down that {fact}",
    "note_add": "add to my notes: {fact}",
    "note_keep": "keep a note: {fact}",
    "note_record": "record that {fact}",
    "note_log": "log this in my notes: {fact}",
    "note_down": "note down that {fact}",
    "note_take": "take a note that {fact}",
    "note_write": "write down that {fact}",
    "note_put": "put this in my notes: {fact}",
}
FIND = {
    "find_what": "what did I note about {topic}?",
    "find_my": "find my note about {topic}",
    "find_look": "look up my note on {topic}",
    "find_show": "show me my notes about {topic}",
    "find_what_was": "what was in my note about {topic}?",
    "find_check": "can you check my notes for the {topic}?",
    "find_search": "search my notes for {topic}",
    "find_dig": "dig up my note about {topic}",
    "find_have": "do I have a note on {topic}?",
}
REMEMBER = {
    "remember_that": "remember that {fact}",
    "remember_colon": "remember this: {fact}",
    "remember_dont_forget": "don't forget that {fact}",
    "remember_for_later": "for future reference, {fact}",
    "remember_fyi": "FYI, {fact} — please remember it",
    "remember_keep": "keep in mind that {fact}",
    "remember_store": "store this about me: {fact}",
    "remember_know": "I want you to know that {fact}",
    "remember_learn": "learn this about me: {fact}",
    "remember_mind": "bear in mind that {fact}",
}
RECALL = {
    "recall_what": "what is my {what}?",
    "recall_remind": "remind me, what's my {what}?",
    "recall_tell": "tell me my {what}",
    "recall_forgot": "I forgot — what's my {what}?",
    "recall_know": "do you know my {what}?",
    "recall_remember": "do you remember my {what}?",
}
RECALL_CALLED = {
    "recall_called": "what is my {what} called?",
    "recall_name": "what's the name of my {what}?",
    "recall_whats_called": "what's my {what} called again?",
    "recall_name_of": "tell me the name of my {what}",
}
LEADS = ("", "", "", "Hey, ", "Please ", "Could you ", "Quick one: ", "OK, ", "Mol, ")
QUESTION_LEADS = ("", "", "", "Hey, ", "Quick one: ", "OK, ", "Mol, ")  # "Please what's my…" is not English
ENDS = ("", "", "", " please", ", thanks", "!", " — thank you")
HELDOUT = frozenset({"remind_forget", "remind_need", "remind_want", "remind_alert", "note_write", "note_put",
                     "find_check", "find_search", "remember_keep", "remember_store", "recall_know", "recall_remember",
                     "recall_name_of", "recall_whats_called", "facts_heldout", "clarify_b"})


def phrase(rng: random.Random, template: str, **slots: str) -> str:
    """A core template with an optional lead-in and ending (those are shared by both splits; the core is not)."""
    core = template.format(**slots)
    lead = rng.choice(QUESTION_LEADS if core.split(" ", 1)[0].lower() in ("what", "what's", "do", "who", "how", "why", "which", "where", "when", "is", "are", "does", "tell") else LEADS)
    if lead and not core.startswith(("can you", "I ", "{")):
        text = lead + core[:1].lower() + core[1:]
    else:
        text = core
    if not text.endswith("?"):
        text += rng.choice(ENDS)
    return text[:1].upper() + text[1:]


FACTS = (  # (question, answer, the word a right answer must contain), written for this project
    ("What is the capital of France?", "The capital of France is Paris.", "Paris"),
    ("What is the capital of Japan?", "The capital of Japan is Tokyo.", "Tokyo"),
    ("What is the capital of Canada?", "The capital of Canada is Ottawa.", "Ottawa"),
    ("What is the capital of Italy?", "The capital of Italy is Rome.", "Rome"),
    ("What is the capital of Portugal?", "The capital of Portugal is Lisbon.", "Lisbon"),
    ("What is the capital of Kenya?", "The capital of Kenya is Nairobi.", "Nairobi"),
    ("What is the capital of Germany?", "The capital of Germany is Berlin.", "Berlin"),
    ("What is the capital of Spain?", "The capital of Spain is Madrid.", "Madrid"),
    ("How many days are in a leap year?", "A leap year has 366 days.", "366"),
    ("How many minutes are in an hour?", "There are 60 minutes in an hour.", "60"),
    ("How many legs does a spider have?", "A spider has eight legs.", "eight"),
    ("How many hours are in a day?", "A day has 24 hours.", "24"),
    ("What is the boiling point of water at sea level?", "Water boils at 100 °C (212 °F) at sea level.", "100"),
    ("What is the largest planet in the solar system?", "Jupiter is the largest planet in the solar system.", "Jupiter"),
    ("Which planet is closest to the Sun?", "Mercury is the closest planet to the Sun.", "Mercury"),
    ("Which planet is known as the red planet?", "Mars is known as the red planet.", "Mars"),
    ("What gas do plants take in from the air?", "Plants take in carbon dioxide and give off oxygen.", "carbon dioxide"),
    ("What gas do humans need to breathe?", "Humans need oxygen to breathe.", "oxygen"),
    ("How many continents are there?", "There are seven continents.", "seven"),
    ("How many days are in a week?", "A week has seven days.", "seven"),
    ("What is the chemical symbol for gold?", "The chemical symbol for gold is Au.", "Au"),
    ("What is the chemical symbol for water?", "Water is H2O: two hydrogen atoms and one oxygen atom.", "H2O"),
    ("What is the freezing point of water in Fahrenheit?", "Water freezes at 32 °F.", "32"),
    ("What is the freezing point of water in Celsius?", "Water freezes at 0 °C.", "0"),
    ("What causes the seasons on Earth?", "The tilt of Earth's axis: each hemisphere leans toward the Sun for part of the year and away from it for the rest.", "tilt"),
    ("Why is the sky blue?", "Air scatters blue light from the Sun more than red light, so blue light reaches us from every direction.", "scatter"),
    ("How many bones are in the adult human body?", "An adult human body has 206 bones.", "206"),
    ("What is the longest river in Africa?", "The Nile is the longest river in Africa.", "Nile"),
    ("How many sides does a hexagon have?", "A hexagon has six sides.", "six"),
    ("How many sides does a triangle have?", "A triangle has three sides.", "three"),
    ("What is the speed of light?", "Light travels at about 300,000 km per second in a vacuum.", "300,000"),
    ("Who are you?", "I'm Mol, a personal assistant that runs entirely on your computer.", "Mol"),
    ("Does what I tell you leave this computer?", "No. I run entirely on this machine, and nothing you say leaves it.", "No"),
    ("What can you do?", "I can answer questions, set reminders, keep notes, remember things about you, write code and build small views like checklists.", "reminders"),
    ("Are you connected to the internet?", "No. I run offline on your computer.", "offline"),
    ("How do you say thank you in Spanish?", "In Spanish, thank you is \"gracias\".", "gracias"),
    ("How do you say good morning in French?", "In French, good morning is \"bonjour\".", "bonjour"),
    ("How do you say cheers in German?", "In German, cheers is \"Prost\".", "Prost"),
    ("How do you say hello in Italian?", "In Italian, hello is \"ciao\".", "ciao"),
    ("What does CPU stand for?", "CPU stands for central processing unit.", "central processing unit"),
    ("What does RAM stand for?", "RAM stands for random-access memory.", "random-access memory"),
    ("How many grams are in a kilogram?", "There are 1,000 grams in a kilogram.", "1,000"),
    ("How many centimetres are in a metre?", "There are 100 centimetres in a metre.", "100"),
    ("What is the largest ocean?", "The Pacific is the largest ocean.", "Pacific"),
    ("What is the tallest mountain on Earth?", "Mount Everest is the tallest mountain above sea level.", "Everest"),
    ("What do bees make?", "Bees make honey and beeswax.", "honey"),
    ("What is the opposite of hot?", "The opposite of hot is cold.", "cold"),
    ("What colour do you get by mixing blue and yellow?", "Mixing blue and yellow gives green.", "green"),
)
FACT_HELDOUT_EVERY = 4  # every fourth question is held out: its facts are never trained on
CLARIFY = {
    "clarify_a": (("Remind me", "Sure — what should I remind you about, and when?"),
                  ("Book it", "What would you like me to book, and for when?"),
                  ("Can you help me with my thing?", "Happy to help — what is it you need?"),
                  ("Set something up for tomorrow", "What should I set up for tomorrow?"),
                  ("Make a note", "What should the note say?")),
    "clarify_b": (("Do the usual", "I don't know what your usual is yet — what would you like me to do?"),
                  ("Fix it", "What would you like me to fix?"),
                  ("Sort that out for me", "Which thing should I sort out for you?")),
}


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def reminder_plans(rng: random.Random, templates: list[str], n: int) -> list[Plan]:
    plans = []
    while len(plans) < n:
        now = random_now(rng)
        w = when(rng, now)
        if w is None:
            continue
        task = rng.choice(TASKS)
        template = rng.choice(templates)
        request = phrase(rng, REMIND[template], task=task, when=w.text, When=_cap(w.text))
        said = human(w.at)
        plans.append(Plan(
            SLOT, template, request, now,
            rounds=[lambda _o, t=task, d=w.text: [("reminders.create", {"text": t, "due": d})]],
            answer=lambda o, t=task: rng.choice((
                f"Done — I'll remind you to {t} on {_when_of(o[0])}.",
                f"Reminder set for {_when_of(o[0])}: {t}.",
                f"OK, I set a reminder to {t} for {_when_of(o[0])}.",
            )),
            summary=lambda o, t=task: f"Asked for a reminder to {t}; set it for {_when_of(o[0])}.",
            check={"reminders": [{"text": task, "at": minute(w.at)}], "answer": {"has": [said.split(", ")[1]]}},
        ))
    return plans


def _when_of(output: str) -> str:
    """The time the tool said back: "Reminder abc set for Wed 2 Dec 2026, 09:00: text" -> "Wed 2 Dec 2026, 09:00"."""
    return output.split(" for ", 1)[1].split(": ", 1)[0] if " for " in output else output


def note_plans(rng: random.Random, templates: list[str], n: int) -> list[Plan]:
    plans = []
    for _ in range(n):
        topic, fact = rng.choice(NOTE_FACTS)
        template = rng.choice(templates)
        title = _cap(topic)
        plans.append(Plan(
            SLOT, template, phrase(rng, NOTE[template], fact=fact), random_now(rng),
            rounds=[lambda _o, t=title, f=fact: [("notes.create", {"title": t, "body": f})]],
            answer=lambda _o, f=fact: rng.choice((f"Noted: {f}.", f"Saved a note: {f}.", f"Got it — I noted that {f}.")),
            summary=lambda _o, t=title: f"Saved a note titled {t}.",
            check={"notes": [{"words": [topic, fact.split()[-1]]}]},
        ))
    return plans


def find_plans(rng: random.Random, templates: list[str], n: int) -> list[Plan]:
    plans = []
    for _ in range(n):
        (topic, fact), *others = rng.sample(NOTE_FACTS, 3)
        template = rng.choice(templates)
        plans.append(Plan(
            SLOT, template, phrase(rng, FIND[template], topic=topic), random_now(rng),
            rounds=[lambda _o, t=topic: [("notes.find", {"query": t})]],
            answer=lambda _o, f=fact: rng.choice((f"Your note says: {f}.", f"You noted that {f}.")),
            summary=lambda _o, t=topic: f"Looked up the note about {t} and read it back.",
            check={"answer": {"has": [fact.split()[-1]]}},
            seed=Seed(notes=[(_cap(topic), fact)] + [(_cap(t), f) for t, f in others]),
        ))
    return plans


def _fact(rng: random.Random) -> tuple[str, str, str, str]:
    what, word, value, said = rng.choice(PERSON_FACTS)
    value = rng.choice((value, *VALUES.get(what, ())))
    return what, word, value, said.format(v=value)


def _about_user(said: str) -> str:
    """ "my dog is called Biscuit" -> "The user's dog is called Biscuit" (how memories are written)."""
    if said.startswith("my "):
        return "The user's " + said[3:]
    return "The user " + said[2:].replace("am ", "is ", 1) if said.startswith("I ") else said


def remember_plans(rng: random.Random, templates: list[str], n: int) -> list[Plan]:
    plans = []
    for _ in range(n):
        what, _word, value, said = _fact(rng)
        template = rng.choice(templates)
        text = _about_user(said)
        plans.append(Plan(
            SLOT, template, phrase(rng, REMEMBER[template], fact=said), random_now(rng),
            rounds=[lambda _o, t=text: [("memory.remember", {"text": t})]],
            answer=lambda _o, s=said: rng.choice((f"I'll remember that {s.replace('my ', 'your ', 1).replace('I am', 'you are', 1)}.", "Got it — I'll remember that.")),
            summary=lambda _o, t=text: f"Stored a memory: {t}.",
            check={"memories": [{"words": [value]}]},
        ))
    return plans


def recall_plans(rng: random.Random, templates: list[str], n: int, *, known: bool = True) -> list[Plan]:
    plans = []
    while len(plans) < n:
        what, word, value, said = _fact(rng)
        others = [_about_user(p[3].format(v=p[2])) for p in rng.sample(PERSON_FACTS, 3) if p[0] != what][:2]
        if word == "called":
            template = rng.choice([t for t in templates if t in RECALL_CALLED] or templates)
            request = phrase(rng, RECALL_CALLED.get(template) or RECALL[template], what=what)
        else:
            template = rng.choice([t for t in templates if t in RECALL] or templates)
            request = phrase(rng, RECALL.get(template) or RECALL_CALLED[template], what=what)
        yours = _about_user(said).replace("The user's ", "Your ", 1).replace("The user is", "You are", 1)
        tail = [_about_user(said), *others] if known else others
        rng.shuffle(tail)
        if known:
            answer, check = f"{yours}.", {"calls": "none", "answer": {"has": [value]}}
        else:
            answer = f"I don't know your {what} yet — tell me and I'll remember it."
            check = {"calls": "none", "answer": {"not": [value], "has": ["don't know"]}}
        plans.append(Plan(
            SLOT, template, request, random_now(rng), rounds=[], answer=lambda _o, a=answer: a,
            summary=lambda _o, w=what, k=known: f"Asked about their {w}; " + ("answered from memory." if k else "said I don't know it yet."),
            check=check, notes=tuple(tail),
        ))
    return plans


def fact_cases(rng: random.Random, split: str, n: int) -> list[Plan]:
    """Short factual answers; held-out questions (every FACT_HELDOUT_EVERY-th) are never trained on."""
    table = [f for i, f in enumerate(FACTS) if (i % FACT_HELDOUT_EVERY == FACT_HELDOUT_EVERY - 1) == (split == "heldout")]
    template = "facts_heldout" if split == "heldout" else "facts_train"
    plans = []
    for _ in range(n):
        q, a, key = rng.choice(table)
        plans.append(Plan(SLOT, template, phrase(rng, "{q}", q=q), random_now(rng), rounds=[],
                          answer=lambda _o, a=a: a, summary=lambda _o, q=q: f"Answered a question: {q}",
                          check={"calls": "none", "answer": {"has": [key]}}))
    return plans


def clarify_plans(rng: random.Random, templates: list[str], n: int) -> list[Plan]:
    plans = []
    for _ in range(n):
        template = rng.choice(templates)
        q, a = rng.choice(CLARIFY[template])
        plans.append(Plan(SLOT, template, q, random_now(rng), rounds=[], answer=lambda _o, a=a: a,
                          summary=lambda _o, q=q: f"The request \"{q}\" was vague; asked what they meant.",
                          check={"calls": "none", "answer": {"asks": True}}))
    return plans


def plans(split: str, *, seed: int = 0, scale: float = 1.0) -> list[Plan]:
    """Every L0 plan of one split; `scale` multiplies the per-family counts (1.0: ~660 train plans)."""
    rng = random.Random(f"L0-{split}-{seed}")

    def pick(family: dict) -> list[str]:
        return [t for t in family if (t in HELDOUT) == (split == "heldout")]

    def count(n: int) -> int:
        return max(2, int(n * scale * (0.3 if split == "heldout" else 1.0)))

    out = reminder_plans(rng, pick(REMIND), count(230))
    out += note_plans(rng, pick(NOTE), count(70))
    out += find_plans(rng, pick(FIND), count(60))
    out += remember_plans(rng, pick(REMEMBER), count(70))
    recall_templates = pick({**RECALL, **RECALL_CALLED})
    out += recall_plans(rng, recall_templates, count(130))
    out += recall_plans(rng, recall_templates, count(25), known=False)
    out += fact_cases(rng, split, count(80))
    out += clarify_plans(rng, pick(CLARIFY), count(15))
    out += more_plans(rng, split, count)
    out += told_and_asked(rng, split, count)
    return out


def cases(split: str, rt, *, seed: int = 0, scale: float = 1.0) -> tuple[list[Case], int]:
    """(verified cases, how many plans the real harness rejected)."""
    from trainer.specialists.toolrun import materialize

    kept, dropped = materialize(plans(split, seed=seed, scale=scale), rt)
    return kept, len(dropped)
