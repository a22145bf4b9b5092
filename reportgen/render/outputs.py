"""Write every file of a finished report into its folder.

The one entry point the pipeline's render stage calls; new export formats are
added here, so the graph never changes when an output does.
"""

from __future__ import annotations

import time
from pathlib import Path

from reportgen.render.files import write_text_atomic
from reportgen.render.html import render_html
from reportgen.render.pdf import write_pdf
from reportgen.report import Report

__all__ = ["write_report_files"]


def write_report_files(
    report: Report, out_dir: Path, *, template_dir: Path | None = None
) -> dict[str, float]:
    """Write ``report.json``, ``report.html`` and ``report.pdf`` atomically.

    Args:
        report: The coordinated report.
        out_dir: The report's folder (created if missing).
        template_dir: A folder of user templates overriding the built-ins.

    Returns:
        Seconds spent per output: ``{"json": s, "html": s, "pdf": s}``.

    Raises:
        RenderError: The HTML or PDF could not be produced; no partial file is
            left in place of the real one.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    write_text_atomic(out_dir / "report.json", report.model_dump_json(indent=2) + "\n")
    timings["json"] = time.perf_counter() - started
    started = time.perf_counter()
    html = render_html(report, template_dir)
    write_text_atomic(out_dir / "report.html", html)
    timings["html"] = time.perf_counter() - started
    started = time.perf_counter()
    write_pdf(html, out_dir / "report.pdf")
    timings["pdf"] = time.perf_counter() - started
    return timings
