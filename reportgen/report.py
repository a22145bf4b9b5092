"""The report model: what coordination produces and every renderer consumes.

``report.json`` is :meth:`Report.model_dump_json` of this model. Citations are
reference *numbers* (1-based, in order of first use), so ``[n]`` in a rendered
paragraph always names ``references[n-1]``.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

__all__ = [
    "Figure",
    "Limitation",
    "Paragraph",
    "Reference",
    "Report",
    "Section",
    "Sentence",
    "Table",
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
        kind: The chart kind: ``"bar"``, ``"line"``, ``"timeline"`` or a kind
            a plugin registered (the pattern of ``ChartSpec.kind``).
        svg: The drawing as a standalone SVG document (UTF-8 text).
        citations: Reference numbers of the sources of the plotted values.
        data: The plotted points: ``{"label", "value", "unit", "source_id",
            "quote"}`` each, so every number can be traced to its sentence.
    """

    id: str
    number: int
    section_id: str
    caption: str
    kind: str = Field(default="bar", pattern=r"^[a-z][a-z0-9_-]{0,31}$")
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


class Table(BaseModel):
    """A table of values from the sources (or a model), shown with its section.

    Cells are plain text. The shape is stored as given, and may be uneven: a
    model or a source's Markdown can produce rows with too few or too many
    cells, or no header. Coercion here only makes every cell a string (``None``
    becomes ``""``); renderers then normalise the shape the way GitHub
    Flavored Markdown does (short rows padded with empty cells, extra cells
    dropped), so a malformed table is shown, never a crash.

    Attributes:
        id: Anchor id, ASCII (``"tbl-1"``); renderers assign one when empty.
        number: 1-based table number in reading order (0: renderers number it).
        section_id: Id of the section the table belongs to.
        caption: Plain-text caption.
        header: Column headings; empty when the table has none.
        rows: Body rows, each a list of cell texts.
        citations: Reference numbers of the table's sources.
    """

    id: str = ""
    number: int = 0
    section_id: str = ""
    caption: str = ""
    header: list[str] = Field(default_factory=list)
    rows: list[list[str]] = Field(default_factory=list)
    citations: list[int] = Field(default_factory=list)

    @field_validator("header", mode="before")
    @classmethod
    def _header_cells(cls, value: object) -> list[str]:
        return _cells(value)

    @field_validator("rows", mode="before")
    @classmethod
    def _row_cells(cls, value: object) -> list[list[str]]:
        if value is None:
            return []
        if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
            return [_cells(value)]
        return [_cells(row) for row in value if row is not None]


def _cells(value: object) -> list[str]:
    """Any cell list (or a lone value) as a list of strings; ``None`` is ``""``."""
    if value is None:
        return []
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        value = [value]
    out = []
    for cell in value:
        if isinstance(cell, bytes):
            cell = cell.decode("utf-8", errors="replace")
        out.append("" if cell is None else str(cell))
    return out


class Limitation(BaseModel):
    """Something that could not be done, shown in the report's Limitations note.

    Attributes:
        task_id: The task that failed or was degraded (``""`` for run-wide notes);
            the first of :attr:`task_ids` when the note covers several.
        task_ids: Every task the note covers, in plan order: one note says
            "No chart for the sections on A, B and C" instead of one line per
            chart. Filled from ``task_id`` when not given (``[]`` for run-wide notes).
        status_code: The ACP status code that ended it, when there is one.
        reason: Plain-text explanation for readers.
        minor: Whether the report stands whole without it: a chart whose
            sources print no comparable numbers (605), or an introduction or
            conclusion whose sources hold no sentence on the subject the report
            does not quote already (605),
            is listed at the end,
            but not counted in the note at the top (which would otherwise
            say "6 parts of the plan could not be completed" of a report
            every section of which was written).
    """

    task_id: str = ""
    task_ids: list[str] = Field(default_factory=list)
    status_code: int | None = None
    reason: str
    minor: bool = False

    @model_validator(mode="after")
    def _one_task_list(self) -> "Limitation":
        """``task_id`` is always ``task_ids[0]``: either may be given (reports written before ``task_ids``
        existed have only ``task_id``)."""
        if not self.task_ids and self.task_id:
            self.task_ids = [self.task_id]
        elif self.task_ids and self.task_id != self.task_ids[0]:
            if self.task_id:
                raise ValueError(f"task_id {self.task_id!r} is not the first of task_ids {self.task_ids!r}")
            self.task_id = self.task_ids[0]
        return self


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
        tables: Tables in reading order: the user's tables the data agent read
            (every cell as printed in its cited file).
        model: The models (and endpoint) that wrote a model-mode report.
        usage: Tokens per role and per task, and the estimated cost in USD
            (``None`` in extractive mode).
        brains: Which brain each agent (and the planner) used, by agent name:
            ``{"brain", "mode", "model", "role"}`` (``mode`` is
            ``extractive``, ``model`` or ``default``; ``model`` the model name
            in model mode).
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
    tables: list[Table] = Field(default_factory=list)
    model: str | None = None
    usage: dict | None = None
    brains: dict[str, dict[str, Any]] = Field(default_factory=dict)

    @property
    def counted_limitations(self) -> list[Limitation]:
        """The limitations the note at the top counts: all but the :attr:`Limitation.minor` ones."""
        return [lim for lim in self.limitations if not lim.minor]

    def figure(self, figure_id: str) -> Figure:
        """Return the figure with ``figure_id``.

        Raises:
            KeyError: No figure has that id.
        """
        for fig in self.figures:
            if fig.id == figure_id:
                return fig
        raise KeyError(figure_id)
