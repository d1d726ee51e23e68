"""Small tidy-ups of an answer's code and prose once it has been run (turn/code_check.py).

Tried with `mol chat` on the embedded default: "the average of a list of numbers" came with `from math import isqrt`,
which nothing used; "counts how many times each word appears" returned the right Counter under `-> int`, so the
check said it "does not work yet"; "capitalizes the first letter of each word" was explained with "For example,
capitalized 'A' becomes 'ABC'." — an example with no call in it, which nothing can run, and false.
"""

from __future__ import annotations

import ast
import re

from mol_local.turn.code_fix import _A_CALL, _SENTENCE_END

_RETURNED = re.compile(r"^(?P<call>[A-Za-z_]\w*\(.*\)) returned (?P<got>.+), not the [\w\[\], |]+ it promises$")
_MAPPING = re.compile(r"^(?:Counter|defaultdict|OrderedDict)\(|^\{.*:")  # the repr of what the plain call returned


_PER_EACH = re.compile(r"\b(?:each|every|per)\b|\bfrequenc\w*|\boccurrences?\b", re.IGNORECASE)


def annotation_fixes(code: str, why: str, request: str) -> list[tuple[str, str, str]]:
    """(the code with its return annotation made `dict`, what to tell the person, what to report) when the plain call
    returned a mapping under another `->` and the request asks for a count or value per thing ("how many times each
    word appears": `word_count('hello world') returned Counter({…}), not the int it promises`). Any other mismatch is
    a sign of a broken function (`halve` returning 'False'), not of a wrong annotation. A candidate: code_check keeps
    it when it then passes."""
    m = _RETURNED.match(why)
    if m is None or not _MAPPING.search(m["got"].strip()) or not _PER_EACH.search(request):
        return []
    kind = "dict"
    name = m["call"].split("(", 1)[0]
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name and node.returns is not None:
            old = ast.get_source_segment(code, node.returns) or ""
            lines = code.splitlines(keepends=True)
            row = node.returns.lineno - 1
            start = len(lines[row].encode()[: node.returns.col_offset].decode())
            lines[row] = lines[row][:start] + kind + lines[row][start + len(old):]
            return [("".join(lines), f"I changed its return type from `{old}` to `{kind}`: it returns a {kind}",
                     f"annotated the return {kind}, not {old}")]
    return []


def retyped(answer: str, code: str, why: str, request: str) -> str | None:
    """The answer with `code` retyped by `annotation_fixes` and a line saying so; None when none applies. The caller
    checks it again, as it does the first draft's."""
    fixes = annotation_fixes(code, why, request)
    return f"{answer.replace(code, fixes[0][0], 1)}\n\n({fixes[0][1]}.)" if fixes else None


def without_unused_imports(code: str) -> str:
    """The code less each top-level import line none of whose names it uses (`from math import isqrt` above an average)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
        n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    unused = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno == node.end_lineno
              and not any((a.asname or a.name).split(".")[0] in used or a.name == "*" for a in node.names)]
    if not unused or len(unused) == len(tree.body):
        return code
    lines = code.splitlines(keepends=True)
    gone = {node.lineno - 1 for node in unused}
    kept = "".join(line for i, line in enumerate(lines) if i not in gone)
    return re.sub(r"\A\n+", "", kept)  # the blank line under a dropped import


_FOR_EXAMPLE = re.compile(r"^(?:For example|For instance|E\.g\.)\b", re.IGNORECASE)
_GLUED = re.compile(r"\bwith(?!out|in|draw|stand|hold|er)[a-z_]{3,}", re.IGNORECASE)  # "withjoindepascal", "withzip"


def without_unrun_examples(prose: str) -> str:
    """The prose less each "For example, …" sentence with no call in it (nothing can run it to say it is true), and each
    with a name glued to "with" ("… joins them withjoindepascal.", `mol chat`), which names nothing."""
    parts = _SENTENCE_END.split(prose)
    sentences, gaps = parts[::2], [*parts[1::2], ""]
    return "".join(s + g for s, g in zip(sentences, gaps)
                   if not (_FOR_EXAMPLE.match(s.strip()) and (not _A_CALL.search(s) or _unreadable_value(s))) and not _GLUED.search(s))


_CLAIMED = re.compile(r"\)\s+(?:returns|gives|is|evaluates to)\s+(?P<v>.+?)[\s.]*$")


def _unreadable_value(sentence: str) -> bool:
    """Whether the value an example claims is no Python value, so nothing can check it: "remove_duplicates([[1, 2], [3, 4]])
    returns [{1, 2]: ['1', 2], 3: []}, {1, 2}: [])." (`mol chat`)."""
    m = _CLAIMED.search(sentence.strip())
    if m is None:
        return False
    try:
        ast.literal_eval(m["v"])
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return True
    return False


_BLOCK = re.compile(r"```[ \t]*(?P<tag>[\w+-]*)[^\n]*\n(?P<code>.*?)(?:```|\Z)", re.DOTALL)


def tidied(answer: str, request: str = "") -> str:
    """The answer with its first Python block `without_unused_imports` and the prose after it `without_unrun_examples`
    and `without_unfounded` (what the check added after it, in parentheses, stays)."""
    block = _BLOCK.search(answer)
    if block is None or block["tag"].lower() not in ("python", "py", "python3", ""):
        return answer
    code = without_unused_imports(block["code"])
    head = answer[: block.start("code")] + code + answer[block.end("code"): block.end()]
    rest = answer[block.end():]
    found = _CHECK_NOTE.search(rest)
    starts = [i for i in (rest.find("\n\n("), found.start() if found else -1) if i >= 0]
    said, notes = (rest[:min(starts)], rest[min(starts):]) if starts else (rest, "")  # the check's own lines
    lead = said[: len(said) - len(said.lstrip())]
    kept = without_unfounded(without_unrun_examples(said), code, request)
    prose = (lead + kept.lstrip() if kept.strip() else "") + notes
    return head + (prose.rstrip() if prose.strip() else "")


_EXPLAINING = frozenset("""function returns return returned takes take gives give given list lists string strings text number numbers
    integer integers float value values result results item items element elements character characters letter letters word words
    each every check checks checking whether true false empty input inputs output loop loops over through using uses used with from
    into then which when where that this those these them their there first last order keeps keep kept sort sorts sorted count
    counts counting adds add sum sums multiplies multiply divides divide compares compare reverse reverses reversed lowercasing
    lowercase uppercase lower upper times once only also both after before does divisible dictionary dict tuple set key keys line
    lines prints print calls call builtin built python module standard library same seen already without removes remove drops drop
    case cases zero one two three found finds find goes go back start end ends starts skips skip joins join splits split other
    others index indexes position positions length size new copy copies range numbers up down square root divisor divisors
    remainder even odd positive negative largest smallest biggest highest lowest maximum minimum max min average mean total
    instead rather than just like more less most least all any none other way ways here what how why unique duplicate duplicates
    character's string's its it's isn't doesn't don't can't won't example instance tries tried try works work checked
    matches match matching contains contain containing holds hold given nothing something anything everything reads read
    backwards forwards chars char common top argument arguments parameter parameters capitalise capitalize title strip trim
    replace convert format round parse filter map zip merge flatten append insert pop push store walk open write raise handle
    ignore swap shift rotate repeat increment decrement double halve compute calculate generate build create make produce
    yield test validate assign update modulo digit digits space spaces whitespace punctuation vowel vowels consonant capital
    capitals uppercased lowercased lowercases uppercases multiplied divided added subtracted subtract product quotient""".split())


def _stem(word: str) -> str:
    """"capitalises", "capitalised" and "capitalise" are one stem."""
    for end in ("ing", "ed", "es", "s"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            word = word[: -len(end)]
            break
    return word[:-1] if word.endswith("e") and len(word) >= 4 else word


def without_unfounded(prose: str, code: str, request: str) -> str:
    """The prose less each sentence with a word of four letters or more that neither the code, the request nor the
    plain words of explaining code have: after right code, L2 wrote "It reverses the text with loop and condiments.",
    "It tries the divisibility of 400 with neither year nor month." (`mol chat`). The cases it was run on say what
    it does; a sentence made of words from nowhere says nothing true."""
    known = {_stem(w) for w in re.findall(r"[a-z]+", f"{code} {request}".lower())} | {_stem(w) for w in _EXPLAINING}
    parts = _SENTENCE_END.split(prose)
    sentences, gaps = parts[::2], [*parts[1::2], ""]
    return "".join(s + g for s, g in zip(sentences, gaps)
                   if all(_stem(w) in known for w in re.findall(r"[a-z]{4,}", _QUOTED.sub(" ", s).lower())))


_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`|\w+\([^()\n]*\)")  # a value or a call is run, not read as words


_HELD = "(I ran it: "
UNCHANGED = ("(This is the same code as before: I couldn't make that change. Say what it should give for an input — "
             "\"f('a b') should give 'ba'\" — and I'll hold it to that.)")


def said_unchanged(answer: str, before: str) -> str:
    """The answer with `UNCHANGED` after it when its code is the code of the answer `before`, word for word: "Make it
    ignore spaces" after a string reverser got the same function back, said as if changed (`mol chat -c`)."""
    new, old = _BLOCK.search(answer), _BLOCK.search(before)
    if new is None or old is None or " ".join(new["code"].split()) != " ".join(old["code"].split()) or _HELD in answer:
        return answer  # held to the cases the request states (code_check._said_ran): it did what was asked already
    return f"{answer.rstrip()}\n\n{UNCHANGED}"


TRIED_MAX = 3


def tried_note(cases: tuple[str, ...]) -> str:
    """"(I ran it on a few cases: is_even(6) gives True; is_even(9) gives False; is_even(0) gives True.)" for code that
    passed cases of a common task (turn/code_tasks.py): L2's own sentence about a right `n % 2 == 0` was "It tries the
    divisibility of math.BigInt.is_ odd" (`mol chat`), and what it was run on is what a person can trust."""
    return f"\n\n(I ran it on a few cases: {'; '.join(c.replace(' == ', ' gives ') for c in cases[:TRIED_MAX])}.)" if cases else ""


DOES_NOT_WORK = "I ran this and it does not work yet"  # code_check's line for code that failed every draft
_CHECK_NOTE = re.compile(rf"\n\n(?:\((?:I |This is the same code)[^\n]*\)|{DOES_NOT_WORK}:[^\n]*)[ \t]*(?=\n\n|\n?\Z)")


def without_check_notes(answer: str) -> str:
    """The answer as the model could have written it: without the lines the code check added after it ran the code
    ("(I ran it on a few cases: …)", "(I renamed `max` to …)", "I ran this and it does not work yet: …"). A trained
    layer taught them would say it ran code it never ran (trainer/select.py)."""
    return _CHECK_NOTE.sub("", answer) if _BLOCK.search(answer) else answer
