"""Render chat messages with the base model's own chat template, safely.

The template comes from the GGUF (`tokenizer.chat_template`). A file without one
gets a plain `User:` / `Assistant:` transcript (see PLAIN), and its turn markers
are always stop strings. Markers are matched as text, not only as special tokens:
under ChatML `<|im_end|>` is not a token of gemma3's vocabulary, so the model wrote
it as text and never stopped (the 269 s turn of issue 19). Message *contents* are
tokenized with special tokens disabled, so a user, a tool result or a memory
that contains `<|im_start|>` cannot forge a role boundary. Only the template's
own scaffolding may produce special tokens.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from jinja2.sandbox import ImmutableSandboxedEnvironment

from mol_local.engine.base import Message

# A GGUF without a template is most likely a base (pre-trained) model: it continues a plain transcript far
# better than chat markup it was never tuned on (gemma3-270m echoes the question under ChatML or Gemma markup,
# and answers "The capital of France is Paris." here). The render of a prefix stays a prefix of the whole.
PLAIN = (
    "{{ bos_token }}{% for message in messages %}{% if message['role'] == 'system' %}{{ message['content'] + '\\n\\n' }}"
    "{% elif message['role'] == 'user' %}{{ 'User: ' + message['content'] + '\\n' }}"
    "{% elif message['role'] == 'assistant' %}{{ 'Assistant: ' + message['content'] + '\\n\\n' }}"
    "{% else %}{{ 'Tool result: ' + message['content'] + '\\n' }}{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}{{ 'Assistant:' }}{% endif %}"
)
_SENTINEL = "\u2063MOLMSG{}\u2063"


@dataclass(frozen=True)
class ChatFormat:
    """A chat markup: its name, its template, and the strings that end an answer (a token or plain text)."""

    name: str
    source: str
    stops: tuple[str, ...]


FALLBACK = ChatFormat("plain User:/Assistant: transcript", PLAIN, ("\nUser:", "\nAssistant:", "\nTool result:"))
# Each family's end-of-turn and next-turn markers: the answer is cut there even where the vocabulary has no such token.
MARKERS = {"chatml": ("<|im_end|>", "<|im_start|>"), "gemma": ("<end_of_turn>", "<start_of_turn>"),
           "llama3": ("<|eot_id|>", "<|start_header_id|>"), "mistral": ("</s>", "[INST]")}


def _raise(message: str) -> None:
    raise ValueError(message)


class ChatTemplate:
    """A compiled chat template plus the tokenizer callback that knows about specials."""

    def __init__(self, source: str | None, *, bos_token: str = "", eos_token: str = "") -> None:
        from mol_local.catalog.facts import chat_format

        env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
        env.globals["raise_exception"] = _raise
        env.globals["strftime_now"] = lambda fmt: datetime.now().strftime(fmt)
        source = source if source and source.strip() else None
        self.fallback: ChatFormat | None = None if source else FALLBACK
        self._template = env.from_string(source or FALLBACK.source)
        self.bos_token = bos_token
        self.eos_token = eos_token
        # The answer is cut at these, as a token or as plain text (ChatML's markers are plain text in gemma3's vocabulary)
        self.stops: tuple[str, ...] = FALLBACK.stops if source is None else MARKERS.get(chat_format(source), ())

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


def template_of(model) -> ChatTemplate:
    """The chat template of a loaded llama.cpp model (its GGUF's own, else the fallback), with its BOS/EOS text."""
    meta = model.metadata()
    bos, eos = model.token_bos(), model.token_eos()
    return ChatTemplate(
        meta.get("tokenizer.chat_template"),
        bos_token=model.token_get_text(bos) if bos >= 0 else "",
        eos_token=model.token_get_text(eos) if eos >= 0 else "",
    )
