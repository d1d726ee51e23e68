"""Code in an answer is run before the person gets it: a function that fails what the request asked is tried again.

On the embedded default L2 wrote `def largest(a, b)` for "the largest of three numbers", `gcd` calling itself
through a shadowed `math.gcd`, and unterminated strings; its own "For example, f(x) returns y" was often false.
Such code reached the person as if it worked. Here the first Python block of an answer is checked in a fresh
subprocess sandbox (no network, short CPU and wall limits, a throwaway folder) against what can be known
without the model:

1. it compiles, and its top level runs without raising (only when something below calls a function);
2. a function the request names ("Write is_palindrome(s)") is defined with that many parameters; a request
   that counts its inputs ("the largest of three numbers") gets a function taking that many;
3. every example the request shows — `name(args) -> value`, "returns", "is", "==", or "[3, 1, 2] gives 2" for
   the function it names — holds when run: they are the person's own tests; a common task ("checks if two
   strings are anagrams", "the second largest number in a list") brings a few cases of its own (turn/code_tasks.py);
4. called once with a plain value of each annotated parameter type, the function raises no NameError,
   TypeError, AttributeError, ImportError or recursion error (a ValueError may be its own validation), and
   returns the plain type its annotation promises (`-> bool` returning a Counter is broken);
5. the examples the answer's own sentence claims are true;
6. a shell block (```bash, ```sh) parses: `bash -n` reads it and runs nothing;
7. it calls no function the request says not to use ("without using max");
8. each module it imports, and each attribute it reads from one (`os.path.getaccess`), exists
   (turn/code_names.py), looked up in the sandbox without running the answer.

A failing answer is sampled again (up to `TRIES` drafts, seeded, not streamed, none started after
`REDRAFT_BUDGET_S`) and the first that passes is the answer. Failing that, the first draft that passes 1–4
is shown with its false examples rewritten to what running them gave; failing that, the first draft stays
with one line saying what failed, so nobody is told broken code works. Tests the request does not show
cannot be known here: passing these checks is not being right.
"""

from __future__ import annotations

import ast
import re
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from mol_local.engine.base import Engine, GenerationRequest
from mol_local.harness.limits import ToolLimits
from mol_local.harness.sandbox import Sandbox, SandboxResult
from mol_local.turn.code_driver import DRIVER as _DRIVER
from mol_local.turn.code_fix import near_misses, pair_fixes, stated_fixes, unshadowed, without_made_up_names
from mol_local.turn.code_names import DRIVER as NAMES_DRIVER
from mol_local.turn.code_names import forbidden_use, module_uses
from mol_local.turn.code_tasks import missing_argument, said_cases, task_tests
from mol_local.turn.code_tidy import DOES_NOT_WORK, annotation_fixes, retyped, tidied, tried_note

TRIES = 8  # the streamed answer and up to seven samples, about 1-3 s each on the embedded default (REDRAFT_BUDGET_S caps the wait):
# on 15 common requests (not the held-out rows) 4 drafts left 5 failing, 8 left 3 — "is odd", "anagrams" passed by drafts 6 and 8
REDRAFT_TEMPERATURE = 0.8
REDRAFT_BUDGET_S = 12.0  # no new draft is started after this: a person waits for these
CHECK_LIMITS = ToolLimits(timeout_s=6.0, cpu_s=3.0, memory_mb=512, output_kb=64)
_FENCE = re.compile(r"```[ \t]*([\w+-]*)[^\n]*\n(.*?)(?:\n```|```|\Z)", re.DOTALL)
PYTHON_TAGS = {"python", "py", "python3", ""}
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5}
_COUNTED = re.compile(r"\b(?P<n>two|three|four|five|[2-5])\s+(?:given\s+)?(?:numbers|integers|ints|floats|values|strings|words|lists|"
                      r"arguments|parameters|inputs|dates|points)\b", re.IGNORECASE)
_CALL = re.compile(r"\b(?P<name>[A-Za-z_]\w*)\((?P<args>[^()]*(?:\([^()]*\)[^()]*)*)\)")
_CLASS = re.compile(r"\bclass\s+([A-Z]\w*)")
_ASKS_FUNCTION = re.compile(r"\b(?:write|create|make|give me|implement|define)\b.{0,30}\b(?:function|def|method)\b", re.IGNORECASE)
_SHOWN = re.compile(r"\s*(?:->|→|gives|returns|should give|should return)\s*")
_CLAIM = re.compile(r"\s*(?:->|→|==|returns|should return|should give|should be|must return|gives|is|evaluates to|=)\s*")
_SAMPLES = {"str": "'hello world'", "int": "7", "float": "2.5", "bool": "True", "list": "[3, 1, 2]", "list[int]": "[3, 1, 2]",
            "list[float]": "[2.5, 1.0]", "list[str]": "['pear', 'apple']", "dict": "{'a': 1, 'b': 2}", "dict[str, int]": "{'a': 1, 'b': 2}",
            "tuple": "(1, 2)", "set": "{1, 2}"}
_NOT_ENTRIES = frozenset({"print", "len", "range", "str", "int", "float", "list", "dict", "set", "tuple", "sorted", "sum", "max",
                          "min", "abs", "round", "open", "input", "type", "isinstance", "e", "g", "i"})


@dataclass(frozen=True)
class Checked:
    """The answer to show, and what running it found: '' when no code was checked."""

    answer: str
    report: str = ""
    redrafted: bool = False  # a later draft replaced the first


def first_code_block(text: str) -> str | None:
    """The body of the first fenced Python block (```python, ```py or a bare ``` that reads as code); an unclosed one
    runs to the end. A bare fence around prose is not code: L0 answered "Sort that out for me" with "# Tools / Sort
    that out for me" in one, and was told "I ran this and it does not work yet: syntax error"."""
    for match in _FENCE.finditer(text):
        if match.group(1).lower() in PYTHON_TAGS and (match.group(1) or _reads_as_code(match.group(2))):
            return match.group(2)
    return None


def _reads_as_code(body: str) -> bool:
    try:
        ast.parse(body)
        return True
    except SyntaxError:
        return bool(re.search(r"^\s*(?:def|class|import|from|return|for|while|if)\b|[=(){}\[\]]", body, re.MULTILINE))


_SHELL_TAGS = {"bash", "sh", "shell", "zsh", "console"}


def first_shell_block(text: str) -> str | None:
    """The body of the first fenced shell block (```bash, ```sh, ```shell), its "$ " prompts taken off."""
    for match in _FENCE.finditer(text):
        if match.group(1).lower() in _SHELL_TAGS:
            return "\n".join(line.removeprefix("$ ") for line in match.group(2).splitlines())
    return None


def shell_syntax(code: str) -> str:
    """'' when bash parses the code (`bash -n` reads it and runs nothing); else bash's first complaint."""
    try:
        done = subprocess.run(["bash", "-n"], input=code, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return ""  # no bash to ask: nothing is claimed about it
    if done.returncode == 0:
        return ""
    line = next((text for text in done.stderr.splitlines() if text.strip()), "a syntax error")
    return "shell syntax error: " + line.split(": ", 2)[-1].strip()


def _literal(text: str) -> bool:
    try:
        ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return True


def _value_after(text: str) -> str | None:
    """The Python literal right after a claim word ("returns [1, 2]."), or None."""
    head = text.strip()
    for end in range(min(len(head), 200), 0, -1):
        piece = head[:end].rstrip(" .,;")
        if piece and _literal(piece):
            return piece
    return None


def examples(text: str) -> list[str]:
    """`name(args) == value` for each "name(args) returns value" whose args and value are Python literals."""
    out: list[str] = []
    for m in _CALL.finditer(text):
        args, claim = m["args"], _CLAIM.match(text, m.end())
        if m["name"] in _NOT_ENTRIES or claim is None or not args.strip() or not _literal(f"({args},)"):
            continue
        value = _value_after(text[claim.end():])
        if value is not None:
            out.append(f"{m['name']}({args}) == {value}")
    return out


def shown_examples(request: str, name: str, count: int) -> list[str]:
    """`name(X) == Y` for each "X -> Y" / "X gives Y" / "X returns Y" the request shows without naming the function
    ("median(numbers). [3, 1, 2] gives 2"): a tuple X is the arguments when the function takes that many."""
    out: list[str] = []
    for m in _SHOWN.finditer(request):
        before, value = request[max(0, m.start() - 200):m.start()].rstrip(), _value_after(request[m.end():])
        start = next((i for i in range(len(before)) if before[i] in "[('\"{-0123456789" and _literal(before[i:])), None)
        if start is None or value is None or start and (before[start - 1].isalnum() or before[start - 1] == "_"):
            continue  # nothing shown, or a call's arguments ("mask_card('1234') -> …", read by `examples`)
        shown = before[start:]
        read = ast.literal_eval(shown)
        args = shown.strip()[1:-1] if isinstance(read, tuple) and len(read) == count and count > 1 else shown if count == 1 else None
        if args is not None:
            out.append(f"{name}({args}) == {value}")
    return out


def named_entry(request: str) -> tuple[str, int] | None:
    """("is_palindrome", 1) for "Write is_palindrome(s)": a call written with identifiers only names the signature."""
    for m in _CALL.finditer(request):
        params = [p.strip().split("=")[0].split(":")[0].strip() for p in m["args"].split(",") if p.strip()]
        if m["name"] not in _NOT_ENTRIES and params and all(p.isidentifier() for p in params):
            return m["name"], len(params)
    return None


def _shape(tree: ast.Module, request: str) -> tuple[str, int | None, str]:
    """(the function to check, how many parameters it must take or None, why the code fails before running or '')."""
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    asked_class = _CLASS.search(request)
    if asked_class and asked_class[1] not in classes:
        return "", None, f"it does not define class {asked_class[1]}, which you asked for"
    named = named_entry(request)
    if named is not None:
        name, count = named
        if name in classes:
            return name, None, ""
        if name not in functions:
            return "", None, f"it does not define {name}, which you asked for"
        return name, count, ""
    if not functions and not classes and _ASKS_FUNCTION.search(request):  # "the nth Fibonacci number" got a loop with a bare return
        return "", None, "it defines no function, which you asked for"
    counted = _COUNTED.search(request)
    if counted and len(functions) == 1 and not classes:
        return next(iter(functions)), _COUNTS[counted["n"].lower()], ""
    return next(iter(functions), ""), None, ""


def _function(tree: ast.Module, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    return next((n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name), None)


def smoke_call(code: str | ast.Module, name: str) -> str | None:
    """`name(args)` with a plain value of each required parameter's annotated type ("largest(7, 7, 7)"): code that
    raises NameError, TypeError, AttributeError, ImportError or recursion on it is broken whatever it was asked.
    None when the function is not at the top level or a parameter has no annotation we can fill."""
    fn = _function(ast.parse(code) if isinstance(code, str) else code, name)
    if fn is None or isinstance(fn, ast.AsyncFunctionDef):
        return None
    a = fn.args
    required = (a.posonlyargs + a.args)[: len(a.posonlyargs) + len(a.args) - len(a.defaults)]
    values = [_SAMPLES.get(ast.unparse(p.annotation).removeprefix("typing.").lower()) if p.annotation is not None else None
              for p in required]
    if not values or any(v is None for v in values):
        return None
    return f"{name}({', '.join(values)})"  # type: ignore[arg-type]


_KINDS = frozenset({"bool", "int", "float", "str", "list", "dict", "tuple", "set"})


def returns(tree: ast.Module, name: str) -> str:
    """The plain type the function's return annotation promises ("bool", "list", "float or None"), '' when it has none
    we check: `-> bool` on `return Counter(…)` is broken whatever the request asked."""
    fn = _function(tree, name) if name else None
    if fn is None or fn.returns is None:
        return ""
    parts = [p.strip() for p in ast.unparse(fn.returns).removeprefix("typing.").split("|")]
    if len(parts) == 1 and (m := re.fullmatch(r"Optional\[(.+)\]", parts[0])):
        parts = [m[1], "None"]
    kinds = [p.split("[", 1)[0].lower() for p in parts if p != "None"]
    if len(kinds) != 1 or kinds[0] not in _KINDS or len(parts) > 2:
        return ""
    return kinds[0] + (" or None" if "None" in parts else "")


def _params(tree: ast.Module, name: str) -> tuple[str, ...]:
    fn = _function(tree, name)
    return tuple(p.arg for p in fn.args.posonlyargs + fn.args.args) if fn is not None else ()


def _arity_error(tree: ast.Module, name: str, count: int) -> str:
    fn = _function(tree, name)
    if fn is None:
        return ""
    a = fn.args
    if a.vararg is not None:
        return ""
    least, most = len(a.posonlyargs) + len(a.args) - len(a.defaults), len(a.posonlyargs) + len(a.args)
    if least <= count <= most:
        return ""
    said = least if least == most else f"{least} to {most}"
    return f"{name} takes {said} argument{'s' if most != 1 else ''}, but the request gives {count}"


@dataclass(frozen=True)
class Ran:
    """What running one draft found: why it fails ('' if nothing did) and its sentence's false examples
    (call, claimed value, the value it really gives)."""

    why: str
    wrong_claims: tuple[tuple[str, str, str], ...] = ()
    tests: tuple[str, ...] = ()  # the cases it was run on (`name(args) == value`)


def sandboxed(source: str) -> SandboxResult:
    """`source` run once in a fresh sandbox in a throwaway folder, under CHECK_LIMITS."""
    with tempfile.TemporaryDirectory(prefix="mol-check-") as tmp:
        box = Sandbox(Path(tmp) / "ws", CHECK_LIMITS)
        try:
            return box.execute(source)
        finally:
            box.close()


def check(answer: str, request: str) -> Ran | None:
    """None when the answer has no Python block; else what running its code against the request and its claims found."""
    code = first_code_block(answer)
    if code is None or not code.strip():
        shell = first_shell_block(answer)
        return None if shell is None or not shell.strip() else Ran(shell_syntax(shell))
    try:
        tree = ast.parse(code)
        compile(tree, "<answer>", "exec")  # compiling runs nothing; it catches what parsing lets by ("'return' outside function")
    except SyntaxError as exc:
        return Ran(f"syntax error: {exc.msg} (line {exc.lineno})")
    name, count, why = _shape(tree, request)
    if why or (why := forbidden_use(tree, request)):
        return Ran(why)
    if name and count is not None and (why := _arity_error(tree, name, count)):
        return Ran(why)
    if name and (why := missing_argument(request, name, lambda n: not _arity_error(tree, name, n))):
        return Ran(why)
    named = named_entry(request)
    tests = [t for t in examples(request) if name and t.startswith(f"{name}(")]
    tests += [t for t in shown_examples(request, *named) if t not in tests] if named is not None and named[0] == name else []
    tests += [t for t in task_tests(request, name, lambda n: not _arity_error(tree, name, n), _params(tree, name)) if t not in tests] if name else []
    claims = [t for t in examples(_FENCE.sub(" ", answer)) if name and t.startswith(f"{name}(") and t not in tests]
    smoke = smoke_call(tree, name) if name else None
    uses = module_uses(tree)
    if not tests and not claims and not smoke and not uses:
        return Ran("")
    result = sandboxed(f"{_DRIVER}{NAMES_DRIVER}\n_mol_run({code!r}, {tests!r}, {claims!r}, {smoke!r}, {returns(tree, name)!r}, {uses!r})")
    if result.status == "ok" and result.value is not None:
        try:
            why, wrong = ast.literal_eval(result.value)
            return Ran(str(why), tuple(tuple(w) for w in wrong), tuple(tests))
        except (ValueError, SyntaxError, TypeError):
            return Ran(f"the check printed {result.value[:80]}")
    return Ran("it ran past the time limit" if result.status == "timeout" else f"it could not run ({result.status})")


def _true_claims(answer: str, wrong: tuple[tuple[str, str, str], ...]) -> str:
    """The answer with each false "f(x) returns y" in its sentences made to say what running f(x) gave."""
    block = _FENCE.search(answer)
    head, prose = (answer[: block.end()], answer[block.end():]) if block else ("", answer)
    for call, want, got in wrong:
        prose = re.sub(rf"({re.escape(call)}{_CLAIM.pattern}){re.escape(want)}", lambda m, g=got: m.group(1) + g, prose, count=1)
    return head + prose


def checked_code(answer: str, request: str, again: Callable[[int], str], tries: int = TRIES) -> Checked:
    """`_checked_code`'s answer, less the sentences that name what its code does not have (`code_fix.without_made_up_names`),
    the imports it does not use and the examples nothing can run (`code_tidy.tidied`)."""
    checked = _checked_code(answer, request, again, tries)
    flush = re.sub(r"(?m)^[ \t]+```[ \t]*$", "```", checked.answer)  # L2 closed a block with "    ```" (mol chat -c)
    return replace(checked, answer=tidied(without_made_up_names(flush, request), request))


def _checked_code(answer: str, request: str, again: Callable[[int], str], tries: int = TRIES) -> Checked:
    """The first of `answer` and up to `tries - 1` samples (`again(seed)`, none started after `REDRAFT_BUDGET_S`) whose code passes every check and whose
    examples are true; failing that, the first whose code passes, its examples made true; failing that, the first
    answer with a line saying what failed."""
    ran = check(answer, request)
    if ran is None:
        return Checked(answer)
    if not ran.why and not ran.wrong_claims:
        return Checked(answer + _said_ran(request, ran), "ran: its checks pass")
    if (fixed := unshadowed(first_code_block(answer) or "")) is not None:
        code, old, new = fixed
        renamed = answer.replace(first_code_block(answer) or "", code, 1)
        if (got := check(renamed, request)) is not None and not got.why and not got.wrong_claims:
            note = f"\n\n(I renamed `{old}` to `{new}`: a function called {old} hides Python's own {old}, which it calls.)"
            return Checked(renamed + note, f"ran: the first draft failed ({_failure(ran)}); renamed {old} to {new}, it passes", redrafted=True)
    for fixed_code, note, did in stated_fixes(first_code_block(answer) or "", request) + pair_fixes(first_code_block(answer) or "") \
            + annotation_fixes(first_code_block(answer) or "", ran.why, request):
        kept = answer.replace(first_code_block(answer) or "", fixed_code, 1)
        if (got := check(kept, request)) is not None and not got.why and not got.wrong_claims:
            return Checked(f"{kept}\n\n({note}; I ran it.)", f"ran: the first draft failed ({_failure(ran)}); {did}, it passes", redrafted=True)
    for code, old, new in near_misses(first_code_block(answer) or "", request) if " should be " in ran.why else []:
        kept = answer.replace(first_code_block(answer) or "", code, 1)
        if (got := check(kept, request)) is not None and not got.why:
            note = f"\n\n(I corrected `{old}` to `{new}` after running it: {ran.why}, and now is.)"
            return Checked(_true_claims(kept, got.wrong_claims) + note, f"ran: the first draft failed ({ran.why}); changed {old} to {new}, it passes", redrafted=True)
    drafts, began = [(answer, ran)], time.monotonic()
    for seed in range(1, tries):
        if time.monotonic() - began > REDRAFT_BUDGET_S:
            break
        sampled = again(seed).strip()
        if (got := check(sampled, request)) is not None and got.why and (fixed := retyped(sampled, first_code_block(sampled) or "", got.why, request)):
            sampled, got = fixed, check(fixed, request)  # a draft whose only slip is its `->`
        if got is not None:
            if not got.why and not got.wrong_claims:
                return Checked(sampled + _said_ran(request, got), f"ran: the first draft failed ({_failure(ran)}); draft {seed + 1} passes "
                               "its checks", redrafted=True)
            drafts.append((sampled, got))
    runs = next(((i, text, r) for i, (text, r) in enumerate(drafts) if not r.why), None)
    if runs is not None:
        i, text, r = runs
        return Checked(_true_claims(text, r.wrong_claims), f"ran: draft {i + 1} passes its checks once its example says what it returns",
                       redrafted=True)
    return Checked(f"{answer}\n\n{DOES_NOT_WORK}: {ran.why}.", f"ran: {len(drafts)} drafts, none passes ({ran.why})")


def _said_ran(request: str, ran: Ran) -> str:
    """"(I ran it: check_prime(-7) gives False, as you asked.)" for the cases the request states, on code that passes;
    else a few of the cases it passed (`code_tidy.tried_note`)."""
    said = [t for t in ran.tests if t in said_cases(request, t.split("(", 1)[0])]
    return f"\n\n(I ran it: {'; '.join(c.replace(' == ', ' gives ') for c in said)}, as you asked.)" if said else tried_note(ran.tests)


def _failure(ran: Ran) -> str:
    return ran.why or "; ".join(f"{call} gives {got}, not {want}" for call, want, got in ran.wrong_claims)


def redrafts(engine: Engine, asked: GenerationRequest) -> Callable[[int], str]:
    """Fresh drafts of the answer hop `asked`: seeded, at least `REDRAFT_TEMPERATURE` warm, not streamed."""

    def again(seed: int) -> str:
        temperature = max(asked.temperature, REDRAFT_TEMPERATURE)
        return engine.generate(replace(asked, seed=seed, temperature=temperature, on_token=None)).text

    return again
