"""Names the code takes from modules must exist: `os.path.getaccess` is caught before anyone is told the code works.

Asked for "a Python script that prints the 10 largest files in a folder", L2 wrote
`os.path.getaccess(file, 'public')` and explained it "sorts the files withAccessoryKeysCustomLabel set to True".
The function takes a folder, so the plain call the check makes (`largest_files('hello world')`) stopped at
`os.listdir` with FileNotFoundError, before reaching the made-up name, and the answer went out unchecked. A module
the code imports, and each attribute it reads from one (`os.path.getaccess`, `math.sqroot`), can be looked up
without running the answer: the sandbox imports the module and asks. Only names bound by an `import` and never
bound again are read, and a lookup stops at the first attribute that is not itself a module (`os.environ.x` is
the dictionary's business).
"""

from __future__ import annotations

import ast
import builtins
import re

_BUILTIN_NAMES = frozenset(n for n in dir(builtins) if not n.startswith("_"))
# Imported modules that do something on import (open a browser, print a poem): never imported to be looked at.
_LOUD = frozenset({"antigravity", "this", "turtle", "tkinter", "idlelib", "webbrowser"})


def _bound_again(tree: ast.Module) -> set[str]:
    """Names the code binds other than by `import`: a parameter or variable called `path` is not the module."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
    return names


def _imported(tree: ast.Module) -> dict[str, str]:
    """{name in the code: the module it may stand for} for each `import a.b as c` and `from a import b`."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                if alias.name != "*":
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


def module_uses(code: str | ast.Module) -> list[tuple[str, tuple[str, ...]]]:
    """(module, the attributes read from it in order) for each `m.a.b` whose `m` is bound only by an import, and
    (module, ()) for each module imported at all: `[("os", ("path", "getaccess"))]`. [] for code that does not parse."""
    try:
        tree = ast.parse(code) if isinstance(code, str) else code
    except SyntaxError:
        return []
    again, imported = _bound_again(tree), _imported(tree)
    modules = {name: module for name, module in imported.items() if name not in again
               and module.split(".")[0] not in _LOUD}
    uses: list[tuple[str, tuple[str, ...]]] = [(module, ()) for module in sorted(set(modules.values()))]
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
            continue
        parts: list[str] = []
        base: ast.expr = node
        while isinstance(base, ast.Attribute):
            parts.insert(0, base.attr)
            base = base.value
        if isinstance(base, ast.Name) and base.id in modules:
            module, read = modules[base.id], tuple(parts)
            if not any(m == module and got[:len(read)] == read for m, got in uses if got):  # `os.path` inside `os.path.join`
                uses.append((module, read))
    return uses


_WITHOUT = re.compile(r"\bwithout (?:using |calling )?(?:the |python's )?(?:built-?in )?`?(?P<name>[a-z_]\w*)`?(?:\(\))?", re.IGNORECASE)
_ALSO = {"sort": ("sort", "sorted"), "sorted": ("sort", "sorted"), "reverse": ("reverse", "reversed"), "reversed": ("reverse", "reversed")}


def forbidden_use(tree: ast.Module, request: str) -> str:
    """Why the code breaks the request's "without using max" (it calls max, or `.sort()` for "without sort"), or ''.
    Asked for "the maximum of a list without using max", L2 wrote `return max(a, default=None)` (`mol chat`). Only
    names of builtins and list methods are read: "without recursion" names no function."""
    banned = {n for m in _WITHOUT.finditer(request) for n in _ALSO.get(m["name"].lower(), (m["name"].lower(),))
              if n in _BUILTIN_NAMES or n in ("sort", "reverse")}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(node.func, ast.Attribute) else ""
            if name in banned:
                return f"it calls {name}, which you asked it not to use"
    return ""


# Runs in the sandbox before the answer does: '' when every use resolves, else why not. A module that is not
# installed here says nothing about the code (the person may have it), so it is passed over.
DRIVER = '''
def _mol_names(uses):
    import importlib as _il
    import types as _types
    def _load(module):
        try:
            return _il.import_module(module), ""
        except ImportError:
            head, _, last = module.rpartition(".")
            try:
                outer = _il.import_module(head) if head else None
            except ImportError:
                return None, ""
            if outer is None or hasattr(outer, last):
                return getattr(outer, last, None), ""
            return None, f"it imports {last} from {head}, which {head} does not have"
        except BaseException:
            return None, ""
    for module, parts in uses:
        got, why = _load(module)
        if why:
            return why
        seen = module
        for part in parts:
            if not isinstance(got, _types.ModuleType):
                break
            if not hasattr(got, part):
                return f"it uses {seen}.{part}, which Python's {seen} does not have"
            got, seen = getattr(got, part), f"{seen}.{part}"
    return ""
'''
