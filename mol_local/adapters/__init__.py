"""LoRA adapters: GGUF writing, the versioned registry, bundles."""
