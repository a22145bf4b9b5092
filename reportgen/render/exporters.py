"""Export formats beyond the core HTML, PDF and JSON: registered exporters.

An :class:`Exporter` names its file and writes it from the coordinated
report. The built-in Markdown and Word exports register through the
``register_exporters`` hook like any plugin's (:mod:`reportgen.builtins`);
:func:`output_files` is the one list of the files a finished report has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reportgen.report import Report

__all__ = ["CORE_FILES", "DOCX", "MARKDOWN", "RUN_FILES", "Exporter", "output_files"]

#: Written by the render stage itself, in this order.
CORE_FILES = ("report.json", "report.html", "report.pdf")
#: Written while the report runs: the execution blueprint and the ACP message log.
RUN_FILES = ("blueprint.json", "messages.jsonl")


@dataclass(frozen=True)
class Exporter:
    """One export format.

    Attributes:
        name: Short name (``md``, ``docx``), unique in the registry.
        filename: The main file it writes in the report's folder.
        render: ``render(report, appendix)`` returns the files to write, by
            path relative to the report's folder (``str`` is written as UTF-8,
            ``bytes`` as is); companions such as ``figures/fig-1.svg`` come
            before the main file. ``appendix`` is the appendix view or
            ``None``. It may raise :class:`~reportgen.errors.RenderError`; any
            other exception is reported as ``cannot write <file>: <class>: <cause>``.
        media_type: The file's media type (for downloads).
    """

    name: str
    filename: str
    render: Callable[[Report, Any], dict[str, str | bytes]]
    media_type: str = "application/octet-stream"


def output_files(exporters: Iterable[Exporter]) -> tuple[str, ...]:
    """Every file of a finished report: the core files, the run's files, then each export's."""
    return (*CORE_FILES, *RUN_FILES, *(e.filename for e in exporters))


def _markdown(report: Report, appendix: Any) -> dict[str, str | bytes]:
    from reportgen.render.markdown import render_markdown

    markdown = render_markdown(report, appendix=appendix)
    return {**markdown.files, "report.md": markdown.text}  # the figures first, so the links resolve


def _docx(report: Report, appendix: Any) -> dict[str, str | bytes]:
    from reportgen.render.docx import render_docx

    return {"report.docx": render_docx(report, appendix=appendix)}


#: Markdown with the figures as ``figures/*.svg``.
MARKDOWN = Exporter("md", "report.md", _markdown, "text/markdown; charset=utf-8")
#: Word (python-docx).
DOCX = Exporter("docx", "report.docx", _docx,
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
