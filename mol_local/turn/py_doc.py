"""What a Python name does, from Python's own documentation, with an example run in the sandbox.

Tried with `mol chat` on the embedded default: "What does enumerate do in Python?" got a loop over an undefined
`text`; "What's the difference between a list and a tuple in Python?" got "A list is a collection whose elements are
unordered … Lists are first-in-first-out (also known as LIFO)"; "… between == and is" got "the two operators are
equal for value equality". The 135M coder's prose about Python is mostly false, and the interpreter our sandbox runs
carries the answer: the docstring of a builtin (`enumerate`), of a method (`str.split`) or of a function in a few
everyday modules (`os.path.join`, `json.dumps`), and the reference manual's topics that `help()` shows for keywords
and operators (`pydoc_data.topics`: "lambda", "is", "=="). The answer quotes the first prose of that text and runs
the name's hand-written example (`data/py_examples.toml`) in the sandbox, showing what it gave. A name Python does not
know, or a question that may not be about Python ("What does a map do?"), is left to the model.
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import keyword
import pydoc
import re
import tomllib
from functools import cache
from importlib import resources

import pydoc_data.topics

from mol_local.turn.code_check import sandboxed

_NAME = r"[`'\"]?(?P<{g}>[A-Za-z_][\w.]{{0,40}}|==|!=)(?:\(\))?[`'\"]?"
_KIND = r"(?:\s+(?:function|method|keyword|operator|statement|type|class|object|built-?in))?"
_IN_PY = r"(?:\s+in\s+python(?:\s*3)?)?"
_LEAD = r"^(?:(?:so|and|ok(?:ay)?|hey|hi)[,!]?\s+)*(?:(?:can|could) you\s+)?(?:please\s+)?"
_END = r"(?:,?\s*(?:please|thanks))?[\s?.!]*$"
_ASKS = (
    re.compile(rf"{_LEAD}(?:what|how)\s+(?:does|do)\s+(?:the\s+)?(?:python\s+)?{_NAME.format(g='a')}{_KIND}\s+(?:do|work|mean|return){_IN_PY}{_END}", re.I),
    re.compile(rf"{_LEAD}(?:what(?:'s|\s+is|\s+are)|explain|describe|tell me about)\s+(?:an?\s+|the\s+)?(?:python(?:'s)?\s+)?{_NAME.format(g='a')}{_KIND}{_IN_PY}{_END}", re.I),
    re.compile(rf"{_LEAD}how\s+(?:do|can|should)\s+(?:i|you|we)\s+use\s+(?:an?\s+|the\s+)?(?:python\s+)?{_NAME.format(g='a')}{_KIND}{_IN_PY}{_END}", re.I),
    re.compile(rf"{_LEAD}(?:what(?:'s|\s+is)\s+the\s+)?difference\s+between\s+(?:an?\s+|the\s+)?{_NAME.format(g='a')}{_KIND}\s+and\s+(?:an?\s+|the\s+)?"
               rf"{_NAME.format(g='b')}{_KIND}{_IN_PY}{_END}", re.I),
)
_ALIASES = {"dictionary": "dict", "dictionaries": "dict", "dicts": "dict", "string": "str", "strings": "str", "integer": "int",
            "integers": "int", "boolean": "bool", "booleans": "bool", "lists": "list", "tuples": "tuple", "sets": "set",
            "floats": "float", "lambdas": "lambda"}
_MODULES = frozenset({"os", "os.path", "json", "math", "re", "random", "datetime", "collections", "itertools", "functools",
                      "pathlib", "shutil", "time", "csv", "string", "statistics"})
_TOPIC_FOR = {"dict": "typesmapping"}  # its docstring is only call forms
_OPERATORS = frozenset({"==", "!=", "is"})
# Names that are everyday English words too: "What does a map do?" may not be about Python unless it says so.
_WORDS = frozenset("list set string map filter range type object any all input open print round sum max min dictionary integer "
                   "float bool boolean class function return is in not and or if for while with pass break continue del global "
                   "import from as try else id format help next iter hash vars dir exit quit license super yield slice property "
                   "len zip sorted reversed abs compile eval".split())
_SIGNATURE = re.compile(r"^\s*[\w.]+\(.*\)\s*(?:->|-->)\s*(?P<rest>.*)$")
MAX_PROSE = 420
SHORT = 220


@cache
def _examples() -> dict[str, str]:
    text = resources.files("mol_local.turn").joinpath("data/py_examples.toml").read_text(encoding="utf-8")
    return dict(tomllib.loads(text)["examples"])


def py_doc_answer(text: str) -> str | None:
    """The documentation answer to a question about one Python name, or about the difference between two; None when
    the question is not one, names something Python does not know, or may not be about Python."""
    said = " ".join(text.split())
    m = next((m for p in _ASKS if (m := p.match(said))), None)
    if m is None:
        return None
    names = [_canonical(n) for n in (m.group("a"), m.groupdict().get("b")) if n]
    if "python" not in said.lower() and all(n in _WORDS for n in names):  # "What does a map do?"
        return None
    docs = [(n, doc) for n in names if (doc := _doc(n)) is not None]
    if len(docs) != len(names):
        return None
    if len(docs) == 2:
        lines = [f"`{name}` — {_short(prose)}" for name, (_, prose) in docs]
        head = "\n".join(lines) + "\n\n(Both from Python's own documentation.)"
    else:
        name, (shown, prose) = docs[0]
        head = f"`{shown}` — from Python's own documentation:\n\n" + "\n>\n".join(f"> {p}" for p in prose)
    runs = [r for name, _ in docs if (r := _run(name)) is not None]
    return head + ("\n\nRun here:\n" + "\n".join(runs) if runs else "")


def _canonical(name: str) -> str:
    low = name.lower()
    return _ALIASES.get(low, low if low in _OPERATORS or keyword.iskeyword(low) else name)


def _doc(name: str) -> tuple[str, list[str]] | None:
    """(how the name is shown, e.g. with its signature; the first prose paragraphs of its documentation), or None."""
    if name in _OPERATORS:
        return name, _operator(name)
    if name in _TOPIC_FOR:
        return name, _topic(_TOPIC_FOR[name])
    if keyword.iskeyword(name) and (topic := pydoc.Helper.keywords.get(name)):
        return name, _topic(topic if isinstance(topic, str) else topic[0])
    obj = _object(name)
    if obj is None or not obj.__doc__:
        return None
    prose = _prose(obj.__doc__) or _call_forms(obj.__doc__)
    return (_signed(name, obj), prose) if prose else None


def _call_forms(doc: str) -> list[str]:
    """A docstring that is only its call forms ("type(object) -> the object's type"), quoted as they are."""
    forms = [line.strip() for line in doc.strip().splitlines() if _SIGNATURE.match(line)]
    return ["; ".join(forms[:4])] if forms else []


def _object(name: str) -> object | None:
    """The builtin, builtin method or allowed module member `name` names; nothing else is imported."""
    parts = name.split(".")
    if parts[0].startswith("_"):
        return None
    if hasattr(builtins, parts[0]):
        obj: object = getattr(builtins, parts[0])
        rest = parts[1:]
    else:
        head = next((".".join(parts[:i]) for i in range(len(parts), 0, -1) if ".".join(parts[:i]) in _MODULES), None)
        if head is None:
            return None
        obj, rest = importlib.import_module(head), parts[len(head.split(".")):]
    for part in rest:
        if part.startswith("_") or not hasattr(obj, part):
            return None
        obj = getattr(obj, part)
    return obj


def _signed(name: str, obj: object) -> str:
    try:
        return f"{name}{inspect.signature(obj)}"  # type: ignore[arg-type]
    except (TypeError, ValueError):
        first = (obj.__doc__ or "").strip().splitlines()[0]
        m = re.match(r"^\s*([\w.]+\(.*?\))\s*(?:->|-->)", first)
        return m[1] if m else name


def _paragraphs(text: str) -> list[str]:
    return [p for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]


def _prose(doc: str, limit: int = MAX_PROSE) -> list[str]:
    """The first prose paragraphs of a docstring or topic: not call forms, examples, grammar or indented lists."""
    out: list[str] = []
    for para in _paragraphs(doc):
        lines = []
        for line in para.splitlines():
            sig = _SIGNATURE.match(line)
            if sig is None:
                lines.append(line)
            elif len(sig["rest"].split()) > 3 and sig["rest"][:1].isupper():  # "zip(…) --> Yield tuples until …"
                lines.append(sig["rest"])
        if not lines or lines[0].startswith((" ", "\t", ">>>", "*")) or "::=" in lines[0] or set(lines[-1].strip()) <= set("*=-"):
            continue
        if lines[0][:1].islower():  # the rest of a sentence cut by code left out ("are equivalent to …")
            break
        joined = re.sub(r"-\s+(?=[a-z])", "-", " ".join(l.strip() for l in lines)) if any(l.rstrip().endswith("-") for l in lines) \
            else " ".join(l.strip() for l in lines)
        said = _whole(re.sub(r"\s*\[\d+\]$", "", joined))
        if not said:
            break
        out.append(said)
        if sum(map(len, out)) >= limit // 2 or len(out) == 2:
            break
    return out


def _whole(para: str) -> str:
    """The paragraph without a last sentence that leads into code left out ("… defined with:", "For example, the yield
    statements")."""
    last = re.split(r"(?<=\.)\s+", para)[-1]
    if not para.endswith(":") and not re.match(r"(?:for example|for instance|e\.g\.)\b", last, re.I):
        return para
    cut = max(para.rfind(". ", 0, len(para) - 1), para.rfind(".  ", 0, len(para) - 1))
    return para[: cut + 1] if cut > 0 else ""


def _topic(key: str) -> list[str]:
    return _prose(pydoc_data.topics.topics.get(key, ""))


def _operator(op: str) -> list[str]:
    """The comparison topic's paragraph that says what `op` does ('The operators "is" and "is not" test for …')."""
    said = next((p for p in _paragraphs(pydoc_data.topics.topics["comparisons"]) if p.startswith("The operators") and f'"{op}"' in p), "")
    return [re.sub(r"\s*\[\d+\]$", "", " ".join(said.split()))] if said else []


def _short(prose: list[str]) -> str:
    text = prose[0] if prose else ""
    if len(text) <= SHORT:
        return text
    cut = text.rfind(". ", 0, SHORT)
    return text[: cut + 1] if cut > 0 else text[:SHORT].rstrip() + "…"


def _run(name: str) -> str | None:
    """The name's example and what running it in the sandbox gave, as a fenced block; None without one."""
    code = _examples().get(name)
    if code is None:
        return None
    ran = sandboxed(code)
    if ran.status == "ok":
        shown = [f"# prints: {line}" for line in ran.output.splitlines()] + ([f"# → {ran.value}"] if ran.value is not None else [])
    elif ran.status == "error" and ran.error:
        shown = [f"# → {ran.error.strip().splitlines()[-1]}"]
    else:
        return None
    return "```python\n" + code + "\n" + "\n".join(shown) + "\n```"
