"""Specialist recipes: one LoRA per answer slot of the embedded base, from data verified by execution.

`cases.py` is the shared shape of a training or evaluation case; each slot's
generator (`chat_data`, `agent_data`, `code_data`, `ui_data`) yields cases from
templates, and its verifier decides whether an output is right. Training keeps
only gold cases the verifier accepts; the bench scores the model's outputs with
the same verifier.
"""
