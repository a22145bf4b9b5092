"""Fixed sample objects for tests.

:func:`sample_report` builds the same :class:`~reportgen.report.Report` every
time (fixed ids, dates and text), so rendered output and snapshots are stable:
four sections (introduction, two body sections, conclusion), paragraphs whose
sentences cite references, one bar chart as a small inline SVG, four references
(three web pages and one of the user's own files) and two limitations.

:func:`sample_blueprint` is a finished execution blueprint with every task
outcome (done, degraded, failed, skipped) and fixed timings, for the appendix.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from reportgen.blueprint.model import Blueprint, TaskStatus
from reportgen.blueprint.planner import compile_blueprint
from reportgen.report import (
    Figure,
    Limitation,
    Paragraph,
    Reference,
    Report,
    Section,
    Sentence,
)
from reportgen.sources.models import Passage

__all__ = ["SAMPLE_CREATED", "sample_blueprint", "sample_report", "sample_svg"]

#: Creation time of the sample report (and access time of its references).
SAMPLE_CREATED = datetime(2024, 1, 15, 9, 30, tzinfo=timezone.utc)


def sample_svg(values: dict[str, float] | None = None, unit: str = "%") -> str:
    """A small standalone bar-chart SVG (no external references, no script).

    Args:
        values: Bar label → value; defaults to three countries' shares.
        unit: Unit printed after each value.

    Returns:
        The SVG document as text.
    """
    values = values or {"Norway": 98.0, "Sweden": 69.0, "Denmark": 81.0}
    width, height, left, bottom, bar, gap = 360, 200, 70, 30, 48, 40
    top = max(values.values()) or 1.0
    scale = (height - bottom - 20) / top
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="Noto Sans, sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<line x1="{left - 10}" y1="{height - bottom}" x2="{width - 10}" '
        f'y2="{height - bottom}" stroke="#6b7280" stroke-width="1"/>',
    ]
    for index, (label, value) in enumerate(values.items()):
        x = left + index * (bar + gap)
        h = value * scale
        y = height - bottom - h
        parts += [
            f'<rect x="{x}" y="{y:.1f}" width="{bar}" height="{h:.1f}" fill="#1d5fa0"/>',
            f'<text x="{x + bar / 2}" y="{y - 5:.1f}" text-anchor="middle" '
            f'fill="#1f2328">{value:g}{unit}</text>',
            f'<text x="{x + bar / 2}" y="{height - bottom + 16}" text-anchor="middle" '
            f'fill="#374151">{label}</text>',
        ]
    parts.append("</svg>")
    return "\n".join(parts)


def _paragraph(*sentences: tuple[str, list[int]]) -> Paragraph:
    return Paragraph.from_sentences([Sentence(text=t, citations=c) for t, c in sentences])


def _point(label: str, value: float, source_id: str, quote: str) -> dict[str, Any]:
    return {"label": label, "value": value, "unit": "%", "source_id": source_id, "quote": quote}


def sample_report(**overrides: Any) -> Report:
    """Build the fixed sample report.

    Args:
        **overrides: Report fields to replace (e.g. ``lang="ar"``,
            ``limitations=[]``), applied with validation.

    Returns:
        A new :class:`Report`; callers may change it freely.
    """
    references = [
        Reference(
            id=1,
            title="Renewable energy",
            url="https://en.wikipedia.org/wiki/Renewable_energy",
            source_id="wiki:Renewable_energy",
            corpus="wikipedia-offline",
            accessed=SAMPLE_CREATED,
        ),
        Reference(
            id=2,
            title="Hydroelectricity",
            url="https://en.wikipedia.org/wiki/Hydroelectricity",
            source_id="wiki:Hydroelectricity",
            corpus="wikipedia-offline",
            accessed=SAMPLE_CREATED,
        ),
        Reference(
            id=3,
            title="Wind power",
            url="https://en.wikipedia.org/wiki/Wind_power",
            source_id="wiki:Wind_power",
            corpus="wikipedia-offline",
            accessed=SAMPLE_CREATED,
        ),
        Reference(
            id=4,
            title="Nordic grid notes (user document)",
            url="file:///home/user/notes/nordic-grid.md",
            source_id="local:nordic-grid.md",
            corpus="local",
            accessed=SAMPLE_CREATED,
        ),
    ]
    sections = [
        Section(
            id="introduction",
            title="Introduction",
            role="introduction",
            paragraphs=[
                _paragraph(
                    (
                        "Renewable energy is energy from sources that are naturally "
                        "replenished on a human timescale, such as sunlight, wind and "
                        "the movement of water.",
                        [1],
                    ),
                    (
                        "This report looks at how the Nordic countries produce their "
                        "electricity from such sources.",
                        [],
                    ),
                )
            ],
        ),
        Section(
            id="hydropower",
            title="Hydropower",
            paragraphs=[
                _paragraph(
                    (
                        "Hydroelectricity is electricity generated from the energy of "
                        "moving water.",
                        [2],
                    ),
                    (
                        "Norway produces almost all of its electricity from hydropower.",
                        [2, 4],
                    ),
                ),
                _paragraph(
                    (
                        "Renewable sources supplied about 69 percent of Swedish "
                        "electricity and 81 percent of Danish electricity in the "
                        "years covered by the sources.",
                        [1, 4],
                    ),
                ),
            ],
            figure_ids=["fig-1"],
        ),
        Section(
            id="wind-power",
            title="Wind power",
            paragraphs=[
                _paragraph(
                    (
                        "Wind power is the use of wind energy to generate useful work.",
                        [3],
                    ),
                    (
                        "Denmark generates a large share of its electricity from wind "
                        "turbines, much of it offshore.",
                        [3],
                    ),
                )
            ],
        ),
        Section(
            id="conclusion",
            title="Conclusion",
            role="conclusion",
            paragraphs=[
                _paragraph(
                    (
                        "Water and wind together supply most of the electricity of the "
                        "Nordic countries.",
                        [1, 2, 3],
                    ),
                )
            ],
        ),
    ]
    figures = [
        Figure(
            id="fig-1",
            number=1,
            section_id="hydropower",
            caption="Share of electricity from renewable sources",
            kind="bar",
            svg=sample_svg(),
            citations=[2, 4],
            data=[
                _point("Norway", 98.0, "wiki:Hydroelectricity",
                       "Norway produces almost all of its electricity from hydropower."),
                _point("Sweden", 69.0, "local:nordic-grid.md",
                       "about 69 percent of Swedish electricity"),
                _point("Denmark", 81.0, "local:nordic-grid.md",
                       "81 percent of Danish electricity"),
            ],
        )
    ]
    limitations = [
        Limitation(
            task_id="chart-wind",
            status_code=604,
            reason=(
                "The chart of installed wind capacity could not be drawn: "
                "the plotting tool timed out."
            ),
        ),
        Limitation(
            task_id="",
            status_code=None,
            reason="No language model was configured; the text is quoted from the sources.",
        ),
    ]
    fields: dict[str, Any] = {
        "id": "r-20240115-sample",
        "title": "Renewable electricity in the Nordic countries",
        "topic": "renewable electricity in the Nordic countries",
        "lang": "en",
        "mode": "extractive",
        "mode_note": (
            "Written in extractive mode from the offline Wikipedia corpus and your "
            "local documents: sentences are quoted from the sources, not generated."
        ),
        "corpora": ["wikipedia-offline", "local"],
        "created": SAMPLE_CREATED,
        "sections": sections,
        "figures": figures,
        "references": references,
        "limitations": limitations,
    }
    fields.update(overrides)
    return Report.model_validate(fields)


def sample_blueprint(sections: int = 3) -> Blueprint:
    """A finished blueprint: ``1 + 3 x sections + 2`` tasks with fixed timings.

    Section 2's chart failed (604, then retried and failed again) so its
    writer ran degraded; section 3's research failed so its chart and writer
    were skipped; everything else is done. Start times follow the dependency
    order, each task taking 1-3 s.

    Args:
        sections: Number of body sections (>= 3 for every outcome to occur).
    """
    themes = [f"Theme {n}" for n in range(1, sections + 1)]
    blueprint = compile_blueprint("r-20240115-sample", "renewable electricity", themes)
    finish: dict[str, datetime] = {}
    for index, task_id in enumerate(blueprint.validate_dag(["browser", "plot", "writer"])):
        task = blueprint.task(task_id)
        ready = max((finish[d] for d in task.dependencies if d in finish), default=SAMPLE_CREATED)
        task.status, task.attempts, task.status_codes = TaskStatus.DONE, 1, [200]
        if task_id == "chart-2":
            task.status, task.attempts, task.status_codes = TaskStatus.FAILED, 2, [604, 604]
            task.reason = "the plotting tool timed out"
        elif task_id == "write-2":
            task.degraded = True
        elif task_id == "research-3":
            task.status, task.status_codes, task.reason = TaskStatus.FAILED, [605], "no passages"
        elif task_id in {"chart-3", "write-3"}:
            task.status, task.attempts, task.status_codes = TaskStatus.SKIPPED, 0, []
            task.reason = "research-3 failed"
            continue
        task.started_at = ready + timedelta(seconds=0.1)
        task.finished_at = task.started_at + timedelta(seconds=1 + index % 3)
        finish[task_id] = task.finished_at
    return blueprint


def passage(title: str, text: str) -> Passage:
    """A passage of the offline English encyclopedia titled ``title``."""
    return Passage(source_id=f"wiki-en:{title}", title=title, url=f"https://en.wikipedia.org/wiki/{title}",
                   text=text, corpus="wikipedia-en")


def passages(docs: dict[str, str]) -> list[Passage]:
    """One :func:`passage` per ``{title: text}``."""
    return [passage(t, x) for t, x in docs.items()]
