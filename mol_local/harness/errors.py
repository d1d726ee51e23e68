"""User-facing errors of the tool harness.

Each carries one line naming the problem and the fix. Inside a turn the harness
turns them into the tool result the model reads (`Error: ...`); on the command
line `mol` prints them and exits 1. `status` is what the audit log records.
"""

from __future__ import annotations

from mol_local.errors import MolError


class HarnessError(MolError):
    status: str = "error"


class UnknownTool(HarnessError):
    """The model (or the user) named a tool that does not exist or is not enabled."""

    status = "unknown_tool"


class BadArguments(HarnessError):
    """Arguments are malformed JSON, missing, of the wrong type or not accepted by the tool."""

    status = "bad_arguments"


class OutsideWorkspace(HarnessError):
    """A path resolves outside the conversation's workspace folder."""

    status = "denied"


class ToolFailed(HarnessError):
    """The tool ran and failed (an exception, a limit, a crash)."""


class SandboxUnavailable(HarnessError):
    """The sandbox process could not be started at all."""

    status = "crashed"


class SkillNotFound(HarnessError):
    """`mol tools promote/demote/run` named a saved tool that does not exist."""

    status = "unknown_tool"


class PromotionFailed(HarnessError):
    """A staged tool failed its held-out tests, so it was not promoted."""


class McpFailed(ToolFailed):
    """An MCP server could not run a call: not started, no answer in time, died mid-call, a result too big."""

    status = "crashed"


class NeedsApproval(HarnessError):
    """A tool that must be allowed by the person first (an MCP tool not on the allow list, or marked destructive)."""

    status = "denied"
