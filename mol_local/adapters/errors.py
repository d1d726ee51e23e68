"""User-facing errors of the adapter tools (convert, registry, bundles).

Every message is one line naming the problem and the fix. They subclass
MolError so the CLI edge prints them without a traceback.
"""

from __future__ import annotations

from mol_local.errors import AdapterMismatch, MolError


class AdapterError(MolError):
    """Base class of adapter problems."""


class BadPeftDir(AdapterError):
    """A PEFT directory is missing files or has a config we cannot read."""


class PickleRefused(AdapterError):
    """Pickle weights (.bin/.pt/.pkl) can run code on load; only safetensors are read."""


class UnsupportedArchitecture(AdapterError):
    """The base architecture has no converter here (named in the message)."""


class ForbiddenTensor(AdapterError):
    """The adapter trains embeddings or the output head, which llama.cpp LoRA cannot apply."""


class ShapeMismatch(AdapterMismatch):
    """LoRA A/B ranks or widths do not fit each other or the base."""


class RegistryError(AdapterError):
    """The registry has no such slot/layer/revision, or an entry is damaged."""


class ChecksumMismatch(AdapterError):
    """A file's sha256 differs from what its manifest says."""


class BundleError(AdapterError):
    """A .moladapter bundle is truncated, unsafe or inconsistent."""
