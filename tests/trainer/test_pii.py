"""The PII scrubber on a written set: what must go, and look-alikes that must stay."""

from __future__ import annotations

import pytest

from trainer.pii import iban_ok, luhn_ok, scrub

MUST_SCRUB = [
    ("mail me at jane.doe+work@example.co.uk please", "EMAIL", "jane.doe"),
    ("call +1 415-555-0132 tonight", "PHONE", "555-0132"),
    ("my number is 0471 23 45 67", "PHONE", "23 45 67"),
    ("card 4111 1111 1111 1111 exp 12/29", "CARD", "4111 1111"),
    ("pay with 5500-0000-0000-0004", "CARD", "5500-0000"),
    ("IBAN GB82 WEST 1234 5698 7654 32 for rent", "IBAN", "WEST 1234"),
    ("send it to BE71096123456769", "IBAN", "BE71096123456769"),
    ("I live at 221B Baker Street, London", "ADDRESS", "Baker Street"),
    ("meet at 1600 Pennsylvania Avenue", "ADDRESS", "Pennsylvania"),
    ("Hauptstrasse 12 in Berlin", "ADDRESS", "Hauptstrasse 12"),
    ("key sk-proj-abcdefghijklmnop1234567890XYZ works", "SECRET", "abcdefghijklmnop"),
    ("token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked", "SECRET", "ghp_abc"),
    ("AWS AKIAIOSFODNN7EXAMPLE is mine", "SECRET", "AKIAIOSFODNN7EXAMPLE"),
    ("password = hunter2hunter2", "SECRET", "hunter2hunter2"),
    ("bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "TOKEN", "eyJhbGci"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----", "PRIVATE_KEY", "MIIEpAIBAAKCAQEA"),
]

MUST_KEEP = [
    "order 4111 1111 1111 1112 is late",  # fails Luhn
    "IBAN GB00 WEST 1234 5698 7654 32 is made up",  # fails mod-97
    "the meeting is at 10:30 on 2026-03-14",
    "I ran 21 km in 1:58:03",
    "version 3.11.4 of python",
    "the password field is empty",
    "room 12 on floor 3",
]


@pytest.mark.parametrize(("text", "kind", "secret"), MUST_SCRUB)
def test_scrubs(text: str, kind: str, secret: str) -> None:
    out, counts = scrub(text)
    assert secret not in out
    assert f"[{kind}]" in out and counts[kind] >= 1


@pytest.mark.parametrize("text", MUST_KEEP)
def test_keeps_lookalikes(text: str) -> None:
    out, counts = scrub(text)
    assert out == text and not counts


def test_checksums() -> None:
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")
    assert iban_ok("GB82WEST12345698765432") and not iban_ok("GB00WEST12345698765432")
