"""Write every file of a finished report into its folder.

The one entry point the pipeline's render stage calls; new export formats are
added here, so the graph never changes when an output does.

Each file is written atomically (a reader sees the previous file or the
complete new one, never a partial one), and a failure raises a
:class:`~reportgen.errors.RenderError` that names the file and the cause.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from pydantic import ValidationError

from reportgen.blueprint.model import Blueprint
from reportgen.errors import RenderError
from reportgen.render.appendix import AppendixView, build_appendix
from reportgen.render.exporters import Exporter
from reportgen.render.files import write_bytes_atomic
from reportgen.render.html import render_html
from reportgen.render.pdf import write_pdf
from reportgen.render.templates import available_templates, check_template_name
from reportgen.report import Report

__all__ = ["write_report_files"]


def _registered_exporters() -> list[Exporter]:
    from reportgen.agents.registry import load_registry
    from reportgen.config import get_settings

    return list(load_registry(get_settings()).exporters.values())


def write_report_files(
    report: Report,
    out_dir: Path,
    *,
    template_dir: Path | None = None,
    template: str = "report",
    appendix: bool = True,
    blueprint: Blueprint | None = None,
    timeout_s: float | None = None,
    exporters: Iterable[Exporter] | None = None,
) -> dict[str, float]:
    """Write ``report.json``, ``.html``, ``.pdf``, then every export (``.md`` + ``figures/``, ``.docx``, ...).

    Args:
        report: The coordinated report.
        out_dir: The report's folder (created if missing).
        template_dir: A folder of user templates overriding the built-ins;
            default the ``REPORTGEN_TEMPLATE_DIR`` setting (none).
        template: The theme's name: ``"report"``, ``"brief"`` or one of
            ``template_dir``'s.
        appendix: Add the "how this report was made" appendix (blueprint
            graph and timeline) to the HTML, PDF, Markdown and DOCX.
        blueprint: The run's blueprint; default ``out_dir/blueprint.json``
            when it exists (no appendix otherwise).
        timeout_s: Time limit, in seconds, for the HTML template and, in a
            worker process, for the PDF; default the
            ``REPORTGEN_RENDER_TIMEOUT_S`` setting (120).
        exporters: The exports to write; default the registry's
            (:mod:`reportgen.render.exporters`: Markdown and Word built in).

    Returns:
        Seconds spent per output: ``{"json", "appendix", "html", "pdf"}`` and
        one entry per exporter (``"md"``, ``"docx"``, ...).

    Raises:
        RenderError: The template is unknown (nothing is written then), or a
            file could not be produced or written (the message names it and
            the cause); no partial file is left in place of the real one.
            Files written before the failure are complete.
    """
    from reportgen.config import get_settings

    settings = get_settings()
    if template_dir is None:
        template_dir = settings.template_dir
    if timeout_s is None:
        timeout_s = settings.render_timeout_s
    check_template_name(template)
    if template not in available_templates(template_dir):  # before anything is written
        raise RenderError(
            f"no template named {template!r}; installed: {', '.join(available_templates(template_dir))}"
        )
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RenderError(f"cannot create the report folder {out_dir}: {exc.strerror or exc}") from exc
    timings: dict[str, float] = {}

    started = time.perf_counter()
    _write_text(out_dir / "report.json", report.model_dump_json(indent=2) + "\n")
    timings["json"] = time.perf_counter() - started

    started = time.perf_counter()
    view = _appendix(out_dir, blueprint) if appendix else None
    timings["appendix"] = time.perf_counter() - started

    started = time.perf_counter()
    target = out_dir / "report.html"
    with _naming(target):
        html = render_html(report, template_dir, template=template, appendix=view, timeout_s=timeout_s)
    _write_text(target, html)
    timings["html"] = time.perf_counter() - started

    started = time.perf_counter()
    write_pdf(html, out_dir / "report.pdf", timeout_s=timeout_s)
    timings["pdf"] = time.perf_counter() - started

    for exporter in exporters if exporters is not None else _registered_exporters():
        started = time.perf_counter()
        with _naming(out_dir / exporter.filename, any_error=True):  # a third-party exporter may raise anything
            files = exporter.render(report, view)
        for name, content in files.items():
            path = out_dir / name
            if path.parent != out_dir:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise RenderError(f"cannot write {path}: {exc.strerror or exc}") from exc
            if isinstance(content, str):
                _write_text(path, content)
            else:
                _write_bytes(path, content)
        timings[exporter.name] = time.perf_counter() - started
    return timings


def _appendix(out_dir: Path, blueprint: Blueprint | None) -> AppendixView | None:
    if blueprint is None:
        path = out_dir / "blueprint.json"
        if not path.is_file():
            return None
        try:
            blueprint = Blueprint.load(path)
        except (OSError, ValueError, ValidationError) as exc:
            raise RenderError(f"cannot draw the appendix: cannot read {path}: {exc}") from exc
    return build_appendix(blueprint)


@contextlib.contextmanager
def _naming(target: Path, *, any_error: bool = False) -> Iterator[None]:
    """Re-raise a render failure as ``cannot write <target>: <cause>``.

    Args:
        target: The file being produced.
        any_error: Also wrap exceptions that are not :class:`RenderError`
            (a third-party exporter's own errors), naming their class.
    """
    try:
        yield
    except RenderError as exc:
        raise RenderError(f"cannot write {target}: {exc}") from exc
    except Exception as exc:
        if not any_error:
            raise
        raise RenderError(f"cannot write {target}: {type(exc).__name__}: {exc}") from exc


def _write_text(path: Path, text: str) -> None:
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RenderError(f"cannot write {path}: the text cannot be encoded as UTF-8: {exc}") from exc
    _write_bytes(path, data)


def _write_bytes(path: Path, data: bytes) -> None:
    try:
        write_bytes_atomic(path, data)
    except OSError as exc:
        raise RenderError(f"cannot write {path}: {exc.strerror or exc}") from exc
