"""A joke when one is asked for, on the embedded model.

Tried with `mol chat -c` on the embedded default, after "I live in York" and "I moved to Leeds": "Tell me a joke"
got "What do you mean, I live in Leeds?" — the 135M model makes no jokes and answers with the conversation. On it a
joke comes from a short list written by hand (`data/jokes.toml`): one about the topic asked when there is one
("a joke about cats"), else the next one for the conversation, so "another one" is not the same joke. A larger
model answers itself.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

_ASK = re.compile(
    r"^(?:(?:hi|hey|ok(?:ay)?|so|come on)[,!]?\s+)?(?:(?:can|could|would|will) you\s+)?(?:please\s+)?"
    r"(?:tell|give|make|share)\s+(?:me|us)\s+(?:a|an(?:other)?|one more|some)\s+(?:(?:good|funny|short|quick|silly|bad|dad|new)\s+)*"
    r"(?:joke|pun)s?(?:\s+(?:about|on|with)\s+(?P<topic>[\w\s'-]{2,30}?))?(?:\s+please)?[\s?.!]*$"
    r"|^(?:(?:another|one more)(?: one| joke)?|make me (?:laugh|smile)|say something funny|know any (?:good )?jokes)(?:\s+please)?[\s?.!]*$",
    re.IGNORECASE)


@dataclass(frozen=True)
class Joke:
    text: str
    about: frozenset[str]


@cache
def jokes() -> tuple[Joke, ...]:
    data = tomllib.loads(resources.files("mol_local.turn").joinpath("data/jokes.toml").read_text(encoding="utf-8"))
    return tuple(Joke(j["text"], frozenset(j["about"])) for j in data["joke"])


def _stem(word: str) -> str:
    return word[:-3] + "y" if word.endswith("ies") else word[:-1] if word.endswith("s") and len(word) > 3 else word


def asks_joke(text: str, after_joke: bool = False) -> re.Match[str] | None:
    """The request asks for a joke; "another one" only right after one (`after_joke`)."""
    m = _ASK.match(" ".join(text.split()))
    if m is None or (not after_joke and not re.search(r"\b(?:joke|pun|laugh|funny|smile)", m[0], re.IGNORECASE)):
        return None
    return m


def joke_answer(text: str, told: frozenset[str] = frozenset(), after_joke: bool = False) -> str | None:
    """A joke for a request that asks for one (None otherwise): about its topic when the list has one, never one in
    `told` (the jokes already told in the conversation) while another is left."""
    m = asks_joke(text, after_joke)
    if m is None:
        return None
    topic = (m["topic"] or "").lower().strip()
    words = {_stem(w) for w in re.findall(r"[a-z]+", topic)} - {"the", "a", "an", "my", "your", "some"}
    fresh = [j for j in jokes() if j.text not in told] or list(jokes())
    on_topic = [j for j in fresh if words & {_stem(a) for a in j.about}]
    if on_topic:
        return on_topic[0].text
    if topic:
        return f"I don't have one about {topic} — here's another: {fresh[0].text}"
    return fresh[0].text
