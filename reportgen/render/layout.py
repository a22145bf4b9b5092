"""Where figures and tables go: one rule for the HTML, the Markdown and the DOCX."""

from __future__ import annotations

from reportgen.errors import RenderError
from reportgen.render.tables import TableView, table_views
from reportgen.report import Figure, Report

__all__ = ["place_figures", "place_tables"]


def place_figures(report: Report, *, strict: bool = False) -> dict[str, list[Figure]]:
    """Group the figures by the section that shows them, in reading order.

    A figure is shown where a section lists it in ``figure_ids``; a figure no
    section lists appears at the end of the section named by its
    ``section_id`` (or of the last section, when that id is unknown), so no
    drawn chart is silently dropped.

    Args:
        report: The report.
        strict: Raise on a section listing an unknown figure id (the HTML
            renderer checks the report's links); otherwise skip it.

    Returns:
        ``{section id: [figures]}`` with every section present.

    Raises:
        RenderError: ``strict`` and a section lists an unknown figure id.
    """
    figures = {fig.id: fig for fig in report.figures}
    by_section: dict[str, list[Figure]] = {section.id: [] for section in report.sections}
    placed: set[str] = set()
    for section in report.sections:
        for figure_id in section.figure_ids:
            if figure_id not in figures:
                if strict:
                    raise RenderError(
                        f"report {report.id}: section {section.id!r} lists unknown figure {figure_id!r}"
                    )
                continue
            if figure_id not in placed:
                by_section[section.id].append(figures[figure_id])
                placed.add(figure_id)
    for figure in report.figures:
        if figure.id in placed or not report.sections:
            continue
        home = figure.section_id if figure.section_id in by_section else report.sections[-1].id
        by_section[home].append(figure)
    return by_section


def place_tables(report: Report) -> dict[str, list[TableView]]:
    """The report's tables, normalised, grouped by section (same rule as figures)."""
    by_section: dict[str, list[TableView]] = {s.id: [] for s in report.sections}
    for view in table_views(report, [s.id for s in report.sections]):
        by_section[view.section_id].append(view)
    return by_section
