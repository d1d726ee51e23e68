"""What runs in the sandbox to check an answer's code (turn/code_check.py): `_mol_run(src, tests, claims, smoke, kind, uses)`
returns (why it fails or '', the claims that are false as (call, claimed, got)). It first looks up the names the code
takes from modules (turn/code_names.py, whose `_mol_names` is sent with it), runs the code only when something below
calls it, then the plain call, the request's cases, and the answer's own claims. A NameError, TypeError and the like on
the plain call is a broken function; a ValueError may be its own validation.
"""

from __future__ import annotations

DRIVER = '''
import types as _types
_MOL_BROKEN = {"NameError", "UnboundLocalError", "ImportError", "ModuleNotFoundError", "AttributeError", "TypeError",
               "RecursionError", "CpuLimit"}
def _mol_why(what, exc):
    if type(exc).__name__ == "CpuLimit":
        return f"{what} ran past the time limit"
    return f"{what} raised {type(exc).__name__}: {exc}".rstrip(": ")[:200]
def _mol_run(src, tests, claims, smoke, kind, uses):
    why = _mol_names(uses)
    if why or not (tests or claims or smoke):
        return why, []
    ns = _types.ModuleType("__answer__").__dict__
    try:
        exec(compile(src, "<answer>", "exec"), ns)
    except BaseException as exc:
        return _mol_why("running it", exc), []
    if smoke:
        try:
            got = eval(compile(smoke, "<smoke>", "eval"), ns)
        except BaseException as exc:
            if type(exc).__name__ in _MOL_BROKEN:
                return _mol_why(smoke, exc), []
        else:
            kinds = {"bool": (bool,), "int": (int,), "float": (int, float), "str": (str,), "list": (list,), "dict": (dict,),
                     "tuple": (tuple,), "set": (set, frozenset)}.get(kind.removesuffix(" or None"), (object,))
            if not (isinstance(got, kinds) or (got is None and kind.endswith(" or None"))):
                return f"{smoke} returned {repr(got)[:60]}, not the {kind} it promises", []
    for test in tests:
        call, _, want = test.partition(" == ")
        try:
            if not eval(compile(test, "<check>", "eval"), ns):
                return f"{call} should be {want}"[:200], []
        except BaseException as exc:
            return _mol_why(call, exc), []
    wrong = []
    for claim in claims:
        call, _, want = claim.partition(" == ")
        try:
            got = eval(compile(call, "<claim>", "eval"), ns)
        except BaseException as exc:
            return _mol_why(call, exc), []
        if got != eval(want):
            wrong.append((call, want, repr(got)[:80]))
    return "", wrong
'''
