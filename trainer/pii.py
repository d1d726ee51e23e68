"""Offline PII scrubbing for training text.

Each detector replaces a match with a typed placeholder (`[EMAIL]`, `[PHONE]`,
...). Card numbers must pass Luhn and IBANs mod-97, so ordinary long numbers
(order ids, timestamps) survive. Secrets are matched by shape: PEM private
keys, JWTs, well-known API key prefixes, and `key = value` assignments whose
value looks random. Order matters: secrets first (a JWT contains dots and
digits a phone pattern could eat), then IBAN and cards, then the rest.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

_PRIVATE_KEY = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)")
_JWT = re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b")
_API_KEY = re.compile(
    r"\b(?:sk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}"
    r"|xox[abpors]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|hf_[A-Za-z0-9]{30,}|glpat-[A-Za-z0-9_-]{20})"
)
_ASSIGNED_SECRET = re.compile(
    r"(?i)\b((?:api[_-]?key|secret|token|password|passwd|pwd|access[_-]?key)\s*[:=]\s*)([\"']?)([^\s\"']{8,})\2"
)
_EMAIL = re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?\b")
_CARD = re.compile(r"\b\d(?:[ -]?\d){12,18}\b")
_PHONE = re.compile(r"(?<![\w/])(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?)?\d{2,4}(?:[ .-]\d{2,4}){2,4}(?![\w/])")
_STREET = re.compile(
    r"\b\d{1,5}[A-Za-z]?\s+(?:[A-Z][a-z]+\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Square|Sq)\b\.?"
    r"|\b(?:[A-Z][a-z]+)(?:strasse|straße|weg|gasse|platz|allee)\s+\d{1,4}[a-z]?\b"
)


def luhn_ok(digits: str) -> bool:
    nums = [int(c) for c in digits if c.isdigit()]
    if not 13 <= len(nums) <= 19:
        return False
    total = 0
    for i, n in enumerate(reversed(nums)):
        if i % 2 == 1:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


def iban_ok(text: str) -> bool:
    s = text.replace(" ", "").upper()
    if not 15 <= len(s) <= 34:
        return False
    moved = s[4:] + s[:4]
    number = "".join(str(int(c, 36)) for c in moved)
    return int(number) % 97 == 1


def _sub(pattern: re.Pattern, label: str, counts: Counter, check: Callable[[str], bool] | None = None, group: int = 0):
    def repl(m: re.Match) -> str:
        if check is not None and not check(m.group(0)):
            return m.group(0)
        counts[label] += 1
        if group:
            return m.group(1) + f"[{label}]"
        return f"[{label}]"

    return lambda text: pattern.sub(repl, text)


_DATE = re.compile(r"^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$")


def _phone_like(s: str) -> bool:
    """7-13 digits (E.164 allows 15 with the country code; cards are longer) and not a date."""
    return 7 <= sum(c.isdigit() for c in s) <= 13 and not _DATE.match(s.strip())


def scrub(text: str) -> tuple[str, Counter]:
    """(scrubbed text, count per placeholder kind)."""
    counts: Counter = Counter()
    steps = [
        _sub(_PRIVATE_KEY, "PRIVATE_KEY", counts),
        _sub(_JWT, "TOKEN", counts),
        _sub(_API_KEY, "SECRET", counts),
        _sub(_ASSIGNED_SECRET, "SECRET", counts, group=1),
        _sub(_EMAIL, "EMAIL", counts),
        _sub(_IBAN, "IBAN", counts, iban_ok),
        _sub(_CARD, "CARD", counts, luhn_ok),
        _sub(_STREET, "ADDRESS", counts),
        _sub(_PHONE, "PHONE", counts, _phone_like),
    ]
    for step in steps:
        text = step(text)
    return text, counts
