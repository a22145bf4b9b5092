"""Render a finished report: Jinja templates → self-contained HTML → WeasyPrint → PDF.

Typical use::

    from reportgen.render import render_html, write_pdf, write_text_atomic

    html = render_html(report)
    write_text_atomic(out / "report.html", html)
    write_pdf(html, out / "report.pdf")

Both files are written atomically; the PDF renderer fetches nothing but inline
``data:`` URIs.
"""

from __future__ import annotations

from reportgen.render.files import atomic_writer, write_bytes_atomic, write_text_atomic
from reportgen.render.html import (
    BUILTIN_TEMPLATE_DIR,
    css_string,
    is_web_url,
    render_html,
    svg_data_uri,
    text_direction,
)
from reportgen.render.outputs import write_report_files
from reportgen.render.pdf import DataURLFetcher, ForbiddenFetch, RenderedPDF, render_pdf, write_pdf

__all__ = [
    "BUILTIN_TEMPLATE_DIR",
    "DataURLFetcher",
    "ForbiddenFetch",
    "RenderedPDF",
    "atomic_writer",
    "css_string",
    "is_web_url",
    "render_html",
    "render_pdf",
    "svg_data_uri",
    "text_direction",
    "write_bytes_atomic",
    "write_pdf",
    "write_report_files",
    "write_text_atomic",
]
