"""Render a finished report: HTML, PDF, Markdown and DOCX from one report model.

Typical use (the pipeline's render stage does exactly this)::

    from reportgen.render import write_report_files

    write_report_files(report, out / report.id, template="brief", blueprint=blueprint)

or one output at a time::

    html = render_html(report, template_dir=my_templates, template="report")
    write_pdf(html, out / "report.pdf", timeout_s=120)

Templates run in Jinja's immutable sandbox (:mod:`reportgen.render.templates`);
every file is written atomically; the PDF renderer fetches nothing but inline
``data:`` URIs and runs in a worker process with a deadline.

Names are imported on first use (:func:`reportgen._lazy.lazy_exports`), so
``import reportgen.render`` loads neither WeasyPrint, matplotlib nor
python-docx: each comes with the stage that needs it (issue 15).
"""

from __future__ import annotations

import typing as _typing

from reportgen._lazy import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from reportgen.render.appendix import AppendixView, build_appendix
    from reportgen.render.docx import render_docx
    from reportgen.render.exporters import Exporter, output_files
    from reportgen.render.files import atomic_writer, write_bytes_atomic, write_text_atomic
    from reportgen.render.html import (
        BUILTIN_TEMPLATE_DIR,
        css_string,
        is_web_url,
        page_counter,
        render_html,
        site_name,
        svg_data_uri,
        text_direction,
    )
    from reportgen.render.markdown import MarkdownExport, escape_markdown, render_markdown
    from reportgen.render.outputs import write_report_files
    from reportgen.render.pdf import DataURLFetcher, ForbiddenFetch, RenderedPDF, render_pdf, write_pdf
    from reportgen.render.sanitize import sanitize_html
    from reportgen.render.tables import TableView, table_views
    from reportgen.render.templates import BUILTIN_THEMES, available_templates

__all__ = [
    "AppendixView",
    "BUILTIN_TEMPLATE_DIR",
    "BUILTIN_THEMES",
    "DataURLFetcher",
    "Exporter",
    "ForbiddenFetch",
    "MarkdownExport",
    "RenderedPDF",
    "TableView",
    "atomic_writer",
    "available_templates",
    "build_appendix",
    "css_string",
    "escape_markdown",
    "is_web_url",
    "output_files",
    "page_counter",
    "render_docx",
    "render_html",
    "render_markdown",
    "render_pdf",
    "sanitize_html",
    "site_name",
    "svg_data_uri",
    "table_views",
    "text_direction",
    "write_bytes_atomic",
    "write_pdf",
    "write_report_files",
    "write_text_atomic",
]

_EXPORTS: dict[str, str] = {
    "AppendixView": "reportgen.render.appendix",
    "BUILTIN_TEMPLATE_DIR": "reportgen.render.html",
    "BUILTIN_THEMES": "reportgen.render.templates",
    "DataURLFetcher": "reportgen.render.pdf",
    "Exporter": "reportgen.render.exporters",
    "ForbiddenFetch": "reportgen.render.pdf",
    "MarkdownExport": "reportgen.render.markdown",
    "RenderedPDF": "reportgen.render.pdf",
    "TableView": "reportgen.render.tables",
    "atomic_writer": "reportgen.render.files",
    "available_templates": "reportgen.render.templates",
    "build_appendix": "reportgen.render.appendix",
    "css_string": "reportgen.render.html",
    "escape_markdown": "reportgen.render.markdown",
    "is_web_url": "reportgen.render.html",
    "output_files": "reportgen.render.exporters",
    "page_counter": "reportgen.render.html",
    "render_docx": "reportgen.render.docx",
    "render_html": "reportgen.render.html",
    "render_markdown": "reportgen.render.markdown",
    "render_pdf": "reportgen.render.pdf",
    "sanitize_html": "reportgen.render.sanitize",
    "site_name": "reportgen.render.html",
    "svg_data_uri": "reportgen.render.html",
    "table_views": "reportgen.render.tables",
    "text_direction": "reportgen.render.html",
    "write_bytes_atomic": "reportgen.render.files",
    "write_pdf": "reportgen.render.pdf",
    "write_report_files": "reportgen.render.outputs",
    "write_text_atomic": "reportgen.render.files",
}

__getattr__, __dir__ = _lazy_exports(__name__, _EXPORTS)
