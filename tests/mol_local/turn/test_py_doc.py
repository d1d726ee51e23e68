"""What a Python name does, from Python's own documentation, with an example run (mol_local/turn/py_doc.py)."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from mol_local.turn.code_check import sandboxed
from mol_local.turn.py_doc import _doc, py_doc_answer


def test_a_question_about_a_python_name_is_answered_from_its_documentation_on_the_coding_slot(scripted_runtime) -> None:
    """`mol chat "What does enumerate do in Python?"` got a loop over an undefined `text`."""
    from mol_local.turn.about import PY_DOC

    rt, scripted = scripted_runtime(["for i in range(len(text)):"])
    result = rt.session().run_turn("What does enumerate do in Python?")
    assert result.slot == "L2" and result.route is not None and result.route.raw_output == PY_DOC
    assert result.answer.startswith("`enumerate(iterable, start=0)` — from Python's own documentation:\n\n> Return an enumerate object.")
    assert result.answer.endswith("list(enumerate(['tea', 'milk', 'bread']))\n# → [(0, 'tea'), (1, 'milk'), (2, 'bread')]\n```")
    assert scripted.outputs == ["for i in range(len(text)):"]  # the model was not asked


def test_a_difference_quotes_both_and_runs_both_examples() -> None:
    """`mol chat`: "A list is a collection whose elements are unordered … Lists are first-in-first-out (also known as LIFO)"."""
    answer = py_doc_answer("What's the difference between a list and a tuple in Python?")
    assert answer is not None and answer.startswith("`list` — Built-in mutable sequence.\n`tuple` — Built-in immutable sequence.\n")
    assert "# → [9, 2, 3, 4]" in answer and answer.endswith("# → TypeError: 'tuple' object does not support item assignment\n```")
    ops = py_doc_answer("What's the difference between == and is in Python?")  # it had said "equal for value equality"
    assert ops is not None and '`is` — The operators "is" and "is not" test for an object’s identity' in ops
    assert ops.endswith("(a == b, a is b, a is a)\n# → (True, False, True)\n```")


@pytest.mark.parametrize(("asked", "shown"), [
    ("What is a dictionary in Python?", "`dict` — "), ("How do I use os.path.join?", "`os.path.join(a, *p)` — "),
    ("What does str.split do?", "`str.split(self, /, sep=None, maxsplit=-1)` — "), ("What is a lambda in Python?", "`lambda` — "),
    ("What is a tuple?", "`tuple(iterable=(), /)` — "), ("explain isinstance() please", "`isinstance(obj, class_or_tuple, /)` — "),
])
def test_which_questions_are_answered_and_how_the_name_is_shown(asked: str, shown: str) -> None:
    answer = py_doc_answer(asked)
    assert answer is not None and answer.startswith(shown)


@pytest.mark.parametrize("asked", [
    "What does a map do?", "What is love?", "What does foo do in Python?", "What is a set?", "What does zip do?",
    "What's the difference between a list and a set?",  # everyday words, and Python not said
    "What does antigravity do in Python?", "What does subprocess.run do in Python?", "What does _thread do in Python?",
    "What's the difference between a cat and a dog?", "Write a function that checks if a number is prime",
])
def test_what_is_left_to_the_model(asked: str) -> None:
    """A name Python does not know, one outside the builtins and the few everyday modules (nothing else is imported), or
    a question that may not be about Python."""
    assert py_doc_answer(asked) is None


def test_prose_leaves_out_what_leads_into_code_it_does_not_show() -> None:
    lam = _doc("lambda")
    assert lam is not None and all(not p.endswith(":") for p in lam[1])  # "… behaves like a function object defined with:"
    assert "built-in" in " ".join(_doc("dict")[1])  # type: ignore[index]  # "built-\nin" joined


def test_every_example_runs_in_the_sandbox_and_every_name_has_documentation() -> None:
    examples = tomllib.loads(resources.files("mol_local.turn").joinpath("data/py_examples.toml").read_text(encoding="utf-8"))["examples"]
    for name, code in examples.items():
        assert _doc(name) is not None, name
        ran = sandboxed(code)
        assert ran.status in ("ok", "error"), (name, ran.status)
        assert (ran.status == "error") == (name in ("tuple", "frozenset")), (name, ran.error)  # only these show an error on purpose
