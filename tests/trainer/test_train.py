"""The training loop's loss: assistant tokens only, projected to the vocabulary only where they are scored."""

from __future__ import annotations

import pytest

from trainer.train import TrainConfig, collate, lora_model, target_losses


@pytest.mark.slow
def test_target_losses_equal_transformers_own_loss_on_base_and_lora(base_model_path, runtime) -> None:
    import torch

    from trainer.examples import Tokenizer, qa_example
    from trainer.hf import load_base

    base, hf_tok = load_base(base_model_path)
    tok = Tokenizer(hf_tok)
    head = runtime.head("L0")
    examples = [
        qa_example(tok, head, "What is the capital of Belgium?", "Brussels is the capital of Belgium.", "a"),
        qa_example(tok, head, "Name a prime number.", "Seven is prime.", "b"),
        qa_example(tok, head, "Say hi", "Hi! How can I help you today with anything at all?", "c"),
    ]
    ids, labels, mask = collate(examples, hf_tok.eos_token_id)
    assert len({len(e.input_ids) for e in examples}) > 1  # padding is exercised
    torch.manual_seed(0)
    lora = lora_model(base, TrainConfig(), None)
    for module in lora.modules():  # a LoRA that actually moves the logits (B starts at zero)
        if hasattr(module, "lora_B"):
            torch.nn.init.normal_(module.lora_B["default"].weight, std=0.02)
    with torch.no_grad():
        for model in (base, lora):
            theirs = model(input_ids=ids, attention_mask=mask, labels=labels).loss
            ours, rows = target_losses(model, ids, labels, mask)
            assert len(ours) == sum(e.n_loss for e in examples)  # every assistant token is scored once
            assert sorted(set(rows.tolist())) == [0, 1, 2]
            assert abs(float(ours.mean()) - float(theirs)) < 1e-4
        assert abs(float(target_losses(lora, ids, labels, mask)[0].mean()) - float(target_losses(base, ids, labels, mask)[0].mean())) > 1e-3
