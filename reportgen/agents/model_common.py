"""Shared pieces of the agents' brains: the writers' output contract, source labels,
number location, prompt helpers, the attempt deadline and the echo check."""

from __future__ import annotations

import re
import time
from typing import Any

from reportgen.sources.models import Passage
from reportgen.sources.text import split_sentences

__all__ = [
    "FEEDBACK_INPUT",
    "attempt_deadline",
    "cited_labels",
    "echoes",
    "fit_passages",
    "label_sources",
    "locate_number",
    "quoted",
    "section_output",
    "source_ref",
    "sources_block",
    "strip_markers",
]

#: The input through which the task graph hands an agent its previous error.
FEEDBACK_INPUT = "_feedback"
#: Citation markers the writer puts in prose: ``[S3]`` or ``[S3, S5]``.
_MARKER = re.compile(r"\[(S\d+(?:\s*,\s*S\d+)*)\]")


def source_ref(p: Passage) -> dict[str, str]:
    """The reference a sentence or chart cites for passage ``p``: ``{source_id, title, url, corpus}``."""
    return {"source_id": p.source_id, "title": p.title, "url": p.url, "corpus": p.corpus}


def quoted(text: str, source: dict[str, Any] | None, paragraph: int | None = None) -> dict[str, Any]:
    """One sentence in the writers' contract: ``{"text", "sources", "paragraph"}``.

    Args:
        text: The sentence.
        source: The one source it is quoted from (``None``: a sentence of ours,
            e.g. the conclusion's recap line, citing nothing).
        paragraph: The paragraph it belongs to (``None``: the coordinator
            makes one paragraph per run of one source).
    """
    return {"text": text, "sources": [source] if source else [], "paragraph": paragraph}


def section_output(
    section_id: str,
    title: str,
    role: str,
    sentences: list[dict[str, Any]],
    chart: dict[str, Any] | None,
    *,
    alternates: list[dict[str, Any]] | None = None,
    passages: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The ``section`` output every writer brain produces, extractive or model.

    Args:
        section_id: The section's id (``s1``, ``introduction``).
        title: Its heading.
        role: ``body``, ``introduction`` or ``conclusion``.
        sentences: In reading order, each ``{"text", "sources": [ref, ...],
            "paragraph": int | None}`` (see :func:`quoted`).
        chart: The section's chart output, if any.
        alternates: Ranked spare sentences (same shape) the coordinator uses
            in place of a sentence another section already used.
        passages: The fetched passages the sentences cite (model brain), so
            that the introduction and conclusion cite the passages
            themselves, never the section's own prose under their label.

    Returns:
        ``{"id", "title", "role", "sentences", "alternates", "chart"}``, and
        ``"passages"`` when given.
    """
    out = {"id": section_id, "title": title, "role": role, "sentences": sentences,
           "alternates": list(alternates or []), "chart": chart}
    if passages is not None:
        out["passages"] = passages
    return out


def label_sources(passages: list[Passage]) -> dict[str, Passage]:
    """Give each passage a short label (``S1``, ``S2``, ...) the model cites by."""
    return {f"S{i}": p for i, p in enumerate(passages, start=1)}


def sources_block(labelled: dict[str, Passage], max_chars: int = 1500) -> str:
    """The passages as prompt text, each headed by its label, title and URL."""
    return "\n\n".join(
        f"[{label}] {p.title} ({p.url})\n{p.text[:max_chars]}" for label, p in labelled.items()
    )


def fit_passages(passages: list[Passage], budget_chars: int, max_chars: int = 1500) -> list[Passage]:
    """The first passages whose prompt block fits ``budget_chars`` (at least one).

    Only passages the model is shown get a label, so a model can cite only
    what it read.

    Args:
        passages: Best first.
        budget_chars: Longest passages block, in characters (``llm_prompt_max_chars``).
        max_chars: Longest text shown of one passage, in characters.
    """
    out: list[Passage] = []
    used = 0
    for p in passages:
        size = len(p.title) + len(p.url) + min(len(p.text), max_chars) + 16
        if out and used + size > budget_chars:
            break
        out.append(p)
        used += size
    return out


def attempt_deadline(ctx: Any) -> float:
    """The ``time.monotonic()`` value the model calls of this attempt must end by.

    A brain's ``call`` starts when its attempt does, and the attempt has
    ``ctx.tool_timeout_s`` (the runtime's ``wait_for``). The run's deadline
    bounds every call too (:attr:`reportgen.llm.LLM.run_deadline`): call <
    attempt < task < run.
    """
    return time.monotonic() + float(getattr(ctx, "tool_timeout_s", 60.0))


#: Words in a row a sentence shares with the instructions to be an echo of them.
ECHO_WORDS = 6


def echoes(sentence: str, instructions: str) -> bool:
    """Whether ``sentence`` repeats the instructions it was written under.

    An echo shares :data:`ECHO_WORDS` words in a row (case and punctuation
    ignored) with ``instructions``, the prompt's own text without the
    sources; a sentence of 4 or 5 words is an echo when all of it is.
    Small models often answer "Write in the language with code 'en'..."
    or "Your previous answer was rejected...": such text is never published.

    Args:
        sentence: A sentence the model wrote.
        instructions: The system and task prompts, without passages or notes.
    """
    words = re.findall(r"\w+", sentence.casefold())
    if len(words) < 4:
        return False
    size = min(ECHO_WORDS, len(words))
    told = re.findall(r"\w+", instructions.casefold())
    grams = {tuple(told[i:i + size]) for i in range(len(told) - size + 1)}
    return any(tuple(words[i:i + size]) in grams for i in range(len(words) - size + 1))


def cited_labels(text: str) -> list[str]:
    """The source labels cited in ``text`` by ``[S1]`` / ``[S1, S2]`` markers, in order."""
    out: list[str] = []
    for group in _MARKER.findall(text):
        for label in re.split(r"\s*,\s*", group):
            if label not in out:
                out.append(label)
    return out


def strip_markers(text: str) -> str:
    """``text`` without its citation markers."""
    return re.sub(r"\s*\[S\d+(?:\s*,\s*S\d+)*\]", "", text).strip()


def locate_number(value: float, text: str, lang: str = "en", *, unit: str | None = None,
                  time_axis: bool = False) -> tuple[str, str] | None:
    """Find ``value`` as printed in ``text``, with the one quantity reader.

    The reading is :func:`reportgen.charts.numbers.printed_quantities`, the
    same reader the extractive chart agent uses: locale-aware thousands and
    decimal separators (English ``"1,136"`` is 1136, French ``"2,5"`` is
    2.5), signs kept (``"−273.15 °C"`` is -273.15), multiplier words
    (``"1.2 million"`` matches 1.2 and 1,200,000). Two more rules:

    * a year (a bare four-digit number from 1000 to 2100 with no unit
      beside it) is never a quantity, unless the value is on a time axis;
    * when ``unit`` is given, a number printed with another unit beside it
      does not match (``"223 MW"`` is not 223 GW); a number printed with no
      unit beside it may take the unit stated elsewhere.

    Args:
        value: The number claimed (by a model, or a chart point).
        text: The source text.
        lang: The text's language (separators, multipliers, sentence splitting).
        unit: The unit claimed for the value (``None``, ``""`` or
            ``"value"``: not compared).
        time_axis: The value is a point in time (a year may match).

    Returns:
        ``(raw, sentence)``: the number as written and the sentence holding
        it, or ``None`` when the value is not printed in the text.
    """
    from reportgen.charts.numbers import printed_quantities, same_unit

    compare = unit if unit and unit.strip() and unit != "value" else None
    for sentence in split_sentences(text, lang) or [text]:
        for q in printed_quantities(sentence, lang):
            if abs(q.value - value) > 1e-9 * max(1.0, abs(value)):
                continue
            if q.year_like and not time_axis:
                continue
            if compare is not None and q.unit is not None and not same_unit(compare, q.unit):
                continue
            return q.raw, sentence
    return None
