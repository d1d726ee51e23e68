"""Routing: labels under the grammar, fallback and record for junk from an engine without our grammar."""

from __future__ import annotations

from mol_local.engine.base import Engine, GenerationRequest, GenerationResult
from mol_local.router import Router, label_grammar, parse_route

LABELS = ["L0", "L1", "L2", "L3"]


def test_parse_route() -> None:
    assert parse_route("L2", LABELS, "L0") == ("L2", False)
    assert parse_route(" L3.\n", LABELS, "L0") == ("L3", False)
    assert parse_route("The answer is L1", LABELS, "L0") == ("L1", False)
    assert parse_route("<html>502 Bad Gateway</html>", LABELS, "L0") == ("L0", True)
    assert parse_route("L1 or L2", LABELS, "L0") == ("L0", True)
    assert parse_route("L9", LABELS, "L0") == ("L0", True)
    assert parse_route("", LABELS, "L0") == ("L0", True)


def test_label_grammar() -> None:
    assert label_grammar(["L0", "L2"]) == 'root ::= "L0" | "L2"'


class JunkRemote(Engine):
    """Stands in for a remote server that ignores our grammar (RemoteEngine lands in issue 8)."""

    def generate(self, request: GenerationRequest) -> GenerationResult:
        return GenerationResult("Sure! I think you want coding.", "stop", 10, 10, 8)

    def count_tokens(self, messages, *, add_generation_prompt: bool = True) -> int:
        return 0


def test_junk_from_remote_falls_back_and_is_recorded() -> None:
    router = Router(JunkRemote(), instruction="pick", labels=LABELS, fallback="L0", use_grammar=False)
    decision = router.route("write me a script")
    assert decision.slot == "L0" and decision.fallback and decision.raw_output.startswith("Sure!")


def test_real_grammar_router_always_emits_a_label(runtime) -> None:
    from dataclasses import replace

    from mol_local.runtime import Runtime

    rt = Runtime(replace(runtime.hcp, routing=replace(runtime.hcp.routing, mode="grammar")), engine=runtime.engine)
    for text in ("Hi!", "Fix this segfault in my C code", "Plan a trip to Rome for my family", "Cheer me up"):
        decision = rt.router.route(text)
        assert decision.slot in LABELS and not decision.fallback
        assert decision.raw_output == decision.slot and decision.mode == "grammar"


def test_a_request_that_names_a_view_goes_to_the_ui_slot(runtime) -> None:
    for text in ("a checklist for the move: book the van, redirect mail", "count down ten minutes for my break",
                 "how far am I: 112/120 pages of reading", "I want what you know about me, as a table.",
                 "Make a weekly workout schedule with running on Monday, swimming on Wednesday and yoga on Friday",
                 "Track my water intake: 3 of 8 glasses today"):
        decision = runtime.router.route(text)
        assert (decision.slot, decision.mode) == ("L3", "rule"), text
    for text in ("Remind me to print the packing checklist at 6pm", "Write a Python function that prints a table",
                 "What is a progress bar?", "Can you sign the school form for me?",
                 "Plan my schedule for Saturday: gym at 9, lunch with Sam at 1"):
        assert runtime.router.route(text).mode != "rule", text
    assert runtime.router.route("What's on my schedule on Monday?").slot != "L3"  # the reminders are read


def test_a_request_that_hands_over_a_text_goes_to_the_chat_slot(runtime) -> None:
    """`mol chat "Summarize in one sentence: The meeting moved …"` went to L1, which ticked two reminders off."""
    for text in ("Summarize in one sentence: The meeting moved from Tuesday to Thursday because the projector broke, and Sam will bring snacks.",
                 "Rewrite this more politely: send me the report now", "Translate 'where is the nearest pharmacy' into French.",
                 "Please proofread: I has a apple and two banana"):
        decision = runtime.router.route(text)
        assert (decision.slot, decision.mode) == ("L0", "rule"), text
    for text in ("Summarize my notes", "Translate this function to Rust", "Rewrite my reminder for 3pm",
                 "Write a Python function that summarizes a list: mean, median and mode"):
        assert runtime.router.route(text).mode != "rule", text


def test_a_request_to_see_the_notes_or_reminders_goes_to_the_chat_slot(runtime) -> None:
    """`mol chat "Show my notes"` went to L3, which drew an empty checklist called "Notes"."""
    for text in ("Show my notes", "What notes do I have?", "Show me my reminders", "What reminders do I have tomorrow?",
                 "Search my notes for key"):  # mol chat: L3 drew a checklist "Key" holding "Other"
        decision = runtime.router.route(text)
        assert (decision.slot, decision.mode, decision.raw_output) == ("L0", "rule", "reads the notes or reminders"), text
    assert runtime.router.route("Show my shopping list").slot == "L3"  # a view by name stays the view's
    pushed = runtime.router.route("Push the birthday card reminder to Saturday")  # mol chat: L3 drew a card of two toggles
    assert (pushed.slot, pushed.raw_output) == ("L0", "moves or cancels a reminder")
    assert runtime.router.route("Move the meeting to Friday").mode != "rule"


def test_fixed_mode_uses_entry_slot(runtime) -> None:
    from dataclasses import replace

    from mol_local.runtime import Runtime

    rt = Runtime(replace(runtime.hcp, routing=replace(runtime.hcp.routing, mode="fixed")), engine=runtime.engine)
    decision = rt.router.route("Write some code")
    assert decision.slot == "L0" and decision.mode == "fixed"


def test_one_pass_choice_matches_greedy_grammar_decoding(runtime) -> None:
    """Engine.choose must pick what greedy decoding under the label grammar picks."""
    from mol_local.router import route_messages

    router = runtime.router
    engine = runtime.engine
    texts = ["Hi!", "Fix this segfault in my C code", "Remind me to call mom at 6", "Make a habit tracker",
             "What is the capital of Peru?", "Write a bash loop over files", "Note that I prefer tea", "Build a quiz form"]
    for text in texts:
        messages = route_messages(router.instruction, text)
        chosen = engine.choose("route", messages, LABELS, router.stack)
        decoded = engine.generate(
            GenerationRequest(seq="route", messages=messages, stack=router.stack, max_tokens=4, grammar=label_grammar(LABELS))
        )
        assert chosen == decoded.text, text


def test_choose_declines_choices_it_cannot_score_in_one_pass(runtime) -> None:
    messages = [{"role": "user", "content": "Pick one"}]
    assert runtime.engine.choose("route", messages, ["yes", "absolutely not"]) is None
    assert runtime.engine.choose("route", messages, ["L1", "L1"]) is None


def test_prewarm_puts_the_route_instruction_in_kv_so_the_first_grammar_route_evaluates_only_the_request(runtime) -> None:
    from dataclasses import replace

    from mol_local.router import route_messages
    from mol_local.runtime import Runtime

    rt = Runtime(replace(runtime.hcp, routing=replace(runtime.hcp.routing, mode="grammar")), engine=runtime.engine)
    engine = rt.engine
    instruction = engine.count_tokens(route_messages(rt.router.instruction, "")[:1], add_generation_prompt=False)
    assert engine.held_tokens("route") == 0
    rt.session().prewarm()
    assert engine.held_tokens("route") == instruction > 100
    before = engine.prefill_total
    assert rt.router.route("Fix this segfault in my C code").slot in LABELS
    assert engine.prefill_total - before < 40  # the request and the prompt's tail, not the instruction again
    fixed = Runtime(replace(runtime.hcp, routing=replace(runtime.hcp.routing, mode="fixed")), engine=engine)
    engine.reset("route")
    fixed.session().prewarm()
    assert engine.held_tokens("route") == 0  # nothing to warm for a router that never asks the model
