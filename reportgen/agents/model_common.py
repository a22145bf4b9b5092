"""Shared pieces of the model-driven agents: source labels, number location, prompts."""

from __future__ import annotations

import re

from reportgen.sources.models import Passage
from reportgen.sources.text import split_sentences

__all__ = ["FEEDBACK_INPUT", "cited_labels", "feedback_rule", "label_sources", "language_rule", "locate_number", "sources_block", "strip_markers"]

#: A number as printed: thousands groups with ",", ".", thin or plain spaces,
#: an optional decimal part (either separator), an optional percent sign.
_NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:[,.\u00a0\u202f ]\d{3})+|\d+)(?:[.,](\d+))?(\s?%)?")
#: The input through which the task graph hands an agent its previous error.
FEEDBACK_INPUT = "_feedback"
#: Citation markers the writer puts in prose: ``[S3]`` or ``[S3, S5]``.
_MARKER = re.compile(r"\[(S\d+(?:\s*,\s*S\d+)*)\]")


def label_sources(passages: list[Passage]) -> dict[str, Passage]:
    """Give each passage a short label (``S1``, ``S2``, ...) the model cites by."""
    return {f"S{i}": p for i, p in enumerate(passages, start=1)}


def sources_block(labelled: dict[str, Passage], max_chars: int = 1500) -> str:
    """The passages as prompt text, each headed by its label, title and URL."""
    return "\n\n".join(
        f"[{label}] {p.title} ({p.url})\n{p.text[:max_chars]}" for label, p in labelled.items()
    )


def language_rule(lang: str) -> str:
    """The instruction that keeps the report in its language."""
    return f"Write in the language with code {lang!r}, whatever the language of the sources."


def feedback_rule(inputs: dict) -> str:
    """The previous attempt's error, attached to the prompt when the model is asked again."""
    error = inputs.get(FEEDBACK_INPUT)
    return f" Your previous answer was rejected: {error}. Correct that." if error else ""


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


def _values(match: re.Match[str]) -> set[float]:
    """Every reading of a printed number (thousands separator or decimal point)."""
    whole, decimals = match.group(1), match.group(2)
    readings = {re.sub(r"[,.\u00a0\u202f ]", "", whole)}
    if re.fullmatch(r"\d{1,3}[.,]\d{3}", whole):  # "4,210" or "2.500": a thousands group or a decimal
        readings.add(whole.replace(",", "."))
    out = set()
    for r in readings:
        text = f"{r}.{decimals}" if decimals else r
        try:
            out.add(float(text))
        except ValueError:
            continue
    return out


def locate_number(value: float, text: str, lang: str = "en") -> tuple[str, str] | None:
    """Find ``value`` as printed in ``text``.

    Ordinary formatting is allowed: thousands separators (``4,210`` /
    ``4 210`` / ``4.210``), decimal commas, a percent sign, and the
    multipliers ``thousand``, ``million``, ``billion`` (``1.2 million`` matches
    1.2 and 1,200,000).

    Args:
        value: The number the model claims.
        text: The source text.
        lang: The text's language (sentence splitting).

    Returns:
        ``(raw, sentence)``: the number as written (with its ``%``) and the
        sentence holding it, or ``None`` when the value is not in the text.
    """
    for sentence in split_sentences(text, lang) or [text]:
        for match in _NUMBER.finditer(sentence):
            readings = _values(match)
            tail = sentence[match.end(): match.end() + 12].lower()
            for word, factor in (("thousand", 1e3), ("million", 1e6), ("billion", 1e9)):
                if tail.lstrip().startswith(word):
                    readings |= {r * factor for r in readings}
            if any(abs(r - value) <= 1e-9 * max(1.0, abs(value)) for r in readings):
                return match.group(0).strip(), sentence
    return None



