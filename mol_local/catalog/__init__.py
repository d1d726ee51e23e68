"""Bring your own model: the catalog of GGUFs on this machine (`mol models`).

facts: what a GGUF is, from its header only (no weights read).
sources: where GGUFs already live (Ollama, LM Studio, the Hugging Face cache, any folder).
store: the catalog, $MOL_HOME/models.json.
fit: how much RAM a model needs at an n_ctx / kv_layout, and what fits here.
choose: `mol models use` (checks, then one new HCP version).
pull: the one network path, a user-typed download from the Hugging Face Hub.
"""
