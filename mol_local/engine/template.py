"""Render chat messages with the base model's own chat template, safely.

The template comes from the GGUF (`tokenizer.chat_template`); ChatML is the
fallback. Message *contents* are tokenized with special tokens disabled, so a
user, a tool result or a memory that contains `<|im_start|>` cannot forge a
role boundary. Only the template's own scaffolding may produce special tokens.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from jinja2.sandbox import ImmutableSandboxedEnvironment

from mol_local.engine.base import Message

CHATML = (
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content']"
    " + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)
_SENTINEL = "\u2063MOLMSG{}\u2063"


def _raise(message: str) -> None:
    raise ValueError(message)


class ChatTemplate:
    """A compiled chat template plus the tokenizer callback that knows about specials."""

    def __init__(self, source: str | None, *, bos_token: str = "", eos_token: str = "") -> None:
        env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
        env.globals["raise_exception"] = _raise
        env.globals["strftime_now"] = lambda fmt: datetime.now().strftime(fmt)
        self._template = env.from_string(source or CHATML)
        self.bos_token = bos_token
        self.eos_token = eos_token

    def render(self, messages: Sequence[Message], *, add_generation_prompt: bool) -> str:
        return self._template.render(
            messages=list(messages),
            add_generation_prompt=add_generation_prompt,
            bos_token=self.bos_token,
            eos_token=self.eos_token,
        )

    def tokenize(
        self,
        messages: Sequence[Message],
        *,
        add_generation_prompt: bool,
        tokenize: Callable[[str, bool], list[int]],
    ) -> list[int]:
        """Tokens of the rendered conversation; contents never yield special tokens.

        `tokenize(text, special)` is the model's tokenizer. Each content is
        swapped for a sentinel, the scaffold is rendered once, then the pieces
        are tokenized separately: scaffold with specials on, contents off.
        """
        placeholders = [
            {"role": m["role"], "content": _SENTINEL.format(i)} for i, m in enumerate(messages)
        ]
        rendered = self.render(placeholders, add_generation_prompt=add_generation_prompt)
        tokens: list[int] = []
        rest = rendered
        for i, message in enumerate(messages):
            marker = _SENTINEL.format(i)
            head, found, rest = rest.partition(marker)
            if not found:  # the template dropped or rewrote this message; render it plainly
                return tokenize(self.render(messages, add_generation_prompt=add_generation_prompt), False)
            if head:
                tokens.extend(tokenize(head, True))
            if message["content"]:
                tokens.extend(tokenize(message["content"], False))
        if rest:
            tokens.extend(tokenize(rest, True))
        return tokens
