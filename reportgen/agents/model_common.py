"""Shared pieces of the agents' brains: the writers' output contract, source labels,
number location, prompt helpers."""

from __future__ import annotations

import re
from typing import Any

from reportgen.sources.models import Passage
from reportgen.sources.text import split_sentences

__all__ = [
    "FEEDBACK_INPUT",
    "cited_labels",
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

    Returns:
        ``{"id", "title", "role", "sentences", "alternates", "chart"}``.
    """
    return {"id": section_id, "title": title, "role": role, "sentences": sentences,
            "alternates": list(alternates or []), "chart": chart}


def label_sources(passages: list[Passage]) -> dict[str, Passage]:
    """Give each passage a short label (``S1``, ``S2``, ...) the model cites by."""
    return {f"S{i}": p for i, p in enumerate(passages, start=1)}


def sources_block(labelled: dict[str, Passage], max_chars: int = 1500) -> str:
    """The passages as prompt text, each headed by its label, title and URL."""
    return "\n\n".join(
        f"[{label}] {p.title} ({p.url})\n{p.text[:max_chars]}" for label, p in labelled.items()
    )


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


def locate_number(value: float, text: str, lang: str = "en") -> tuple[str, str] | None:
    """Find ``value`` as printed in ``text``, with the one quantity reader.

    The reading is :func:`reportgen.charts.numbers.printed_values`, the same
    one the extractive chart agent uses: locale-aware thousands and decimal
    separators, signs kept, multiplier words (``"1.2 million"`` matches 1.2
    and 1,200,000; ``"2,5 milliards"`` in French matches 2.5e9).

    Args:
        value: The number claimed (by a model, or a chart point).
        text: The source text.
        lang: The text's language (separators, multipliers, sentence splitting).

    Returns:
        ``(raw, sentence)``: the number as written and the sentence holding
        it, or ``None`` when the value is not printed in the text.
    """
    from reportgen.charts.numbers import printed_values

    for sentence in split_sentences(text, lang) or [text]:
        for raw, reading in printed_values(sentence, lang):
            if abs(reading - value) <= 1e-9 * max(1.0, abs(value)):
                return raw, sentence
    return None
