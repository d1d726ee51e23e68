"""Change one key of an HCP document in place, keeping the user's comments and layout (tomlkit).

`mol hcp set KEY VALUE` passes VALUE as text; it is read with the schema's
type for KEY (so `threads 4` is an int and `base_model ~/m.gguf` a string).
The trainer and the TUI pass Python values. Either way the whole document is
validated before anything is written.
"""

from __future__ import annotations

import difflib
from typing import Any

import tomlkit
from tomlkit.exceptions import ParseError
from tomlkit.items import Table

from hcp.errors import HCPSecretError, HCPValidationError
from hcp.schema import COLLECTIONS, SECRET_KEY, SECTIONS, Key, all_key_paths, lookup, split_path

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def key_spec(dotted: str) -> Key:
    """The schema Key for a dotted path; an error with a did-you-mean when there is none."""
    if not dotted.strip(" ."):
        raise HCPValidationError(f"{dotted!r}: the key is empty — name one, e.g. runtime.threads (`mol hcp schema` lists them)")
    if SECRET_KEY.search(dotted.rpartition(".")[2]):
        raise HCPSecretError(f"{dotted}: HCP must not hold secrets (it is versioned and printed) — run `mol remote login` to keep the key in the OS keyring")
    found = lookup(dotted)
    if found is not None:
        return found[1]
    if dotted in SECTIONS or dotted in COLLECTIONS or dotted.rpartition(".")[0] in COLLECTIONS:
        example = next((p for p in all_key_paths() if p.startswith(dotted.split(".")[0] + ".")), "runtime.threads")
        raise HCPValidationError(f"{dotted} is a table — set one of its keys, e.g. {example}")
    guess = difflib.get_close_matches(dotted, all_key_paths(), n=1, cutoff=0.6)
    hint = f"did you mean {guess[0]!r}?" if guess else "see `mol hcp schema` for every key"
    raise HCPValidationError(f"{dotted}: unknown key — {hint}")


def parse_cli_value(dotted: str, text: str) -> Any:
    """Read a command-line VALUE with the type the schema gives KEY."""
    key = key_spec(dotted)
    kind = key.kind
    try:
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
    except ValueError as exc:
        raise HCPValidationError(f"{dotted} = {text!r}: must be {'an' if kind == 'int' else 'a'} {kind} — e.g. `mol hcp set {dotted} {key.default!r}`") from exc
    if kind == "bool":
        low = text.strip().lower()
        if low in _TRUE or low in _FALSE:
            return low in _TRUE
        raise HCPValidationError(f"{dotted} = {text!r}: must be true or false")
    if kind == "str":
        return text
    if kind == "list[str]" and not text.lstrip().startswith("["):
        return [part.strip() for part in text.split(",") if part.strip()]
    try:
        return tomlkit.parse(f"v = {text}")["v"]
    except ParseError as exc:
        example = '\'[{path = "x.gguf", scale = 1.0}]\'' if kind == "adapters" else "'[\"a\", \"b\"]'"
        raise HCPValidationError(f"{dotted} = {text!r}: not a TOML list ({exc}) — write it like {example}") from exc


def _item(value: Any) -> Any:
    """A tomlkit item for a Python value; lists of tables stay inline, as users write stacks."""
    if isinstance(value, list) and any(isinstance(v, dict) for v in value):
        array = tomlkit.array()
        for entry in value:
            table = tomlkit.inline_table()
            table.update(entry)
            array.append(table)
        return array
    return value


def set_key(doc: tomlkit.TOMLDocument, dotted: str, value: Any) -> Any:
    """Set KEY in `doc` (creating missing tables); return the old plain value or None."""
    key_spec(dotted)
    *tables, leaf = split_path(dotted)
    node: Any = doc
    for part in tables:
        if part not in node:
            node[part] = tomlkit.table(is_super_table=part in ("slots", "skills", "limits", "mcp") or None)
        node = node[part]
        if not isinstance(node, (Table, dict)):
            raise HCPValidationError(f"{dotted}: {part} is not a table in this document — fix it by hand first")
    old = node.get(leaf)
    old_plain = old.unwrap() if hasattr(old, "unwrap") else old
    node[leaf] = _item(value)
    return old_plain
