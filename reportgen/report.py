"""The report model: what coordination produces and every renderer consumes.

``report.json`` is :meth:`Report.model_dump_json` of this model. Citations are
reference *numbers* (1-based, in order of first use), so ``[n]`` in a rendered
paragraph always names ``references[n-1]``.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Literal

from pydantic import BaseModel, Field

__all__ = [
    "Figure",
    "Limitation",
    "Paragraph",
    "Reference",
    "Report",
    "Section",
    "Sentence",
]


class Sentence(BaseModel):
    """One sentence of a paragraph and the references that support it.

    Attributes:
        text: Plain text (never markup).
        citations: Reference numbers (1-based) supporting the sentence.
    """

    text: str
    citations: list[int] = Field(default_factory=list)


class Paragraph(BaseModel):
    """A paragraph: its sentences, and their text and citations flattened.

    Attributes:
        text: The sentences joined by spaces, without citation markers.
        citations: Every reference number cited in the paragraph, in order of
            first appearance.
        sentences: The sentences with their own citations.
    """

    text: str
    citations: list[int] = Field(default_factory=list)
    sentences: list[Sentence] = Field(default_factory=list)

    @classmethod
    def from_sentences(cls, sentences: list[Sentence]) -> "Paragraph":
        """Build a paragraph whose ``text`` and ``citations`` derive from ``sentences``."""
        cited: list[int] = []
        for sentence in sentences:
            cited.extend(n for n in sentence.citations if n not in cited)
        return cls(
            text=" ".join(s.text for s in sentences), citations=cited, sentences=sentences
        )


class Figure(BaseModel):
    """A chart drawn from numbers found in the sources.

    Attributes:
        id: Stable figure id, e.g. ``"fig-1"``.
        number: 1-based figure number in reading order.
        section_id: Id of the section the figure belongs to.
        caption: Plain-text caption.
        kind: ``"bar"`` or ``"line"``.
        svg: The drawing as a standalone SVG document (UTF-8 text).
        citations: Reference numbers of the sources of the plotted values.
        data: The plotted points: ``{"label", "value", "unit", "source_id",
            "quote"}`` each, so every number can be traced to its sentence.
    """

    id: str
    number: int
    section_id: str
    caption: str
    kind: Literal["bar", "line"] = "bar"
    svg: str
    citations: list[int] = Field(default_factory=list)
    data: list[dict] = Field(default_factory=list)


class Section(BaseModel):
    """A body section (or the introduction / conclusion).

    Attributes:
        id: Anchor id, ASCII, unique in the report.
        title: Heading text.
        role: ``"introduction"``, ``"body"`` or ``"conclusion"``.
        paragraphs: The section text.
        figure_ids: Ids of the figures shown in this section.
    """

    id: str
    title: str
    role: Literal["introduction", "body", "conclusion"] = "body"
    paragraphs: list[Paragraph] = Field(default_factory=list)
    figure_ids: list[str] = Field(default_factory=list)


class Reference(BaseModel):
    """A retrieved source, numbered in order of first citation.

    Attributes:
        id: The reference number (1-based).
        title: The source's title.
        url: Where the source lives (an ``https://`` URL or a ``file://`` URI
            of the user's own document).
        source_id: The corpus-level id of the source.
        corpus: Name of the corpus it came from.
        accessed: When it was retrieved (UTC).
    """

    id: int
    title: str
    url: str
    source_id: str
    corpus: str
    accessed: datetime = Field(default_factory=lambda: datetime.now(timezone.utc))


class Limitation(BaseModel):
    """Something that could not be done, shown in the report's Limitations note.

    Attributes:
        task_id: The task that failed or was degraded (``""`` for run-wide notes).
        status_code: The ACP status code that ended it, when there is one.
        reason: Plain-text explanation for readers.
    """

    task_id: str = ""
    status_code: int | None = None
    reason: str


class Report(BaseModel):
    """A finished report, ready for rendering.

    Attributes:
        id: The report id (also the output folder name).
        title: Report title.
        topic: The topic as the user gave it (whitespace normalised).
        lang: BCP-47 primary language tag of the report text.
        mode: ``"extractive"`` (no model) or ``"model"``.
        mode_note: One plain sentence naming the mode and corpora, shown near the top.
        corpora: Names of the corpora searched.
        created: Creation time (UTC).
        sections: Introduction, body sections and conclusion in reading order.
        figures: Figures in reading order.
        references: References ordered by number.
        limitations: What could not be done and why.
    """

    id: str
    title: str
    topic: str
    lang: str = "en"
    mode: Literal["extractive", "model"] = "extractive"
    mode_note: str = ""
    corpora: list[str] = Field(default_factory=list)
    created: datetime = Field(default_factory=lambda: datetime.now(timezone.utc))
    sections: list[Section] = Field(default_factory=list)
    figures: list[Figure] = Field(default_factory=list)
    references: list[Reference] = Field(default_factory=list)
    limitations: list[Limitation] = Field(default_factory=list)

    def figure(self, figure_id: str) -> Figure:
        """Return the figure with ``figure_id``.

        Raises:
            KeyError: No figure has that id.
        """
        for fig in self.figures:
            if fig.id == figure_id:
                return fig
        raise KeyError(figure_id)
