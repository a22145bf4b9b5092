"""Turn the rendered HTML into a PDF with WeasyPrint, fetching nothing.

The HTML is self-contained (see :mod:`reportgen.render.html`), so the PDF
renderer needs no network and no file system. :class:`DataURLFetcher` enforces
that: it serves ``data:`` URIs and answers anything else (``file:``, ``http:``,
a relative path) with WeasyPrint's :class:`~weasyprint.urls.FatalURLFetchingError`,
which WeasyPrint does not swallow, so the render stops and :func:`write_pdf`
raises :class:`~reportgen.errors.ForbiddenURLError` (DESIGN.md, "Boundaries that
must hold"; the recoverable/fatal split is WeasyPrint's own, from ``urls.py``).

With a ``timeout_s`` the render runs in a worker process that is killed when
the time is up (:mod:`reportgen.render.worker`); the pipeline always renders
that way (``REPORTGEN_RENDER_TIMEOUT_S``, default 120 s).

Two engines print the same HTML (``engine=``, default
``REPORTGEN_PDF_ENGINE`` or ``"weasyprint"``; :data:`ENGINES`):

* ``"weasyprint"`` — WeasyPrint, in this process or in a kept worker process;
* ``"chromium"`` — Debian's headless Chromium, kept running between reports
  and driven over its DevTools pipe (:mod:`reportgen.render.chromium`):
  2–3× faster on long reports (README, "Performance"), with the same output
  checks (``tests/test_render_pdf.py`` runs them for both engines).

Page layout, running header, ``page X of Y`` footer and table-of-contents page
numbers come from ``templates/base.css``; document metadata (title, language,
creation date, generator) from the ``<title>``, ``<html lang>`` and ``<meta>``
elements of the template.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportgen.errors import ForbiddenURLError, RenderError
from reportgen.render.files import write_bytes_atomic

if TYPE_CHECKING:  # at run time they come from __getattr__ (WeasyPrint is imported on first use)
    from reportgen.render.fetch import DataURLFetcher, ForbiddenFetch

__all__ = [
    "ENGINES",
    "DataURLFetcher",
    "ForbiddenFetch",
    "RenderedPDF",
    "render_document",
    "render_pdf",
    "write_pdf",
]

#: WeasyPrint logs unusable resources at ERROR and bad HTML/CSS at WARNING
#: here (``weasyprint/logger.py``); both count as render warnings.
WEASYPRINT_LOGGER = "weasyprint"

#: The PDF engines a run may choose.
ENGINES: tuple[str, ...] = ("weasyprint", "chromium")


def __getattr__(name: str) -> Any:
    """:class:`DataURLFetcher` and :class:`ForbiddenFetch`, imported on first use.

    They subclass WeasyPrint's classes, and importing WeasyPrint costs about
    half a second (``python -X importtime``): a process that prints with the
    chromium engine never pays it.
    """
    if name in {"DataURLFetcher", "ForbiddenFetch"}:
        from reportgen.render import fetch

        value = getattr(fetch, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True, slots=True)
class RenderedPDF:
    """A PDF rendered in memory.

    Attributes:
        data: The PDF file's bytes.
        warnings: Messages WeasyPrint logged at WARNING or above while
            rendering (``"LEVEL: message"``), in order.
        seconds: Wall-clock rendering time.
    """

    data: bytes
    warnings: tuple[str, ...]
    seconds: float


def render_pdf(
    html: str, *, strict: bool = False, timeout_s: float | None = None, engine: str | None = None
) -> RenderedPDF:
    """Render self-contained HTML to PDF bytes.

    Args:
        html: The document, usually from :func:`~reportgen.render.render_html`.
            It is parsed with no base URL, so relative references resolve to
            nothing, and only ``data:`` URIs are fetched.
        strict: Raise on any WeasyPrint warning instead of returning it (tests
            render this way).
        timeout_s: Render in a worker process that is killed after this many
            seconds (:mod:`reportgen.render.worker`); ``None`` renders in this
            process, without a limit (the chromium engine always runs in
            its browser process, 120 s by default).
        engine: ``"weasyprint"`` or ``"chromium"``; default
            ``REPORTGEN_PDF_ENGINE``, else ``"weasyprint"``.

    Returns:
        The PDF bytes, the warnings and the time taken.

    Raises:
        ForbiddenURLError: The document refers to a resource other than a
            ``data:`` URI (stylesheet, image, font, attachment).
        RenderError: The engine failed or is unknown, ran out of time, or
            ``strict`` and it warned.
    """
    return _render(html, strict=strict, target="PDF", timeout_s=timeout_s, engine=engine)


def write_pdf(
    html: str, path: Path, *, strict: bool = False, timeout_s: float | None = None,
    engine: str | None = None,
) -> Path:
    """Render self-contained HTML to a PDF file, atomically.

    The PDF is rendered in memory, then written to a temporary file next to
    ``path`` and moved over it with :func:`os.replace`: ``path`` is either the
    complete new PDF or, on any error, exactly what it was before (absent, or
    the previous file). WeasyPrint's warnings are logged on the ``weasyprint``
    logger as usual; use :func:`render_pdf` to receive them, or ``strict``.

    Args:
        html: The document, usually from :func:`~reportgen.render.render_html`.
        path: Where the PDF goes. Its folder must exist.
        strict: Raise on any WeasyPrint warning; nothing is written then.
        timeout_s: Render in a worker process killed after this many seconds;
            ``None`` renders in this process, without a limit.
        engine: ``"weasyprint"`` or ``"chromium"``; default
            ``REPORTGEN_PDF_ENGINE``, else ``"weasyprint"``.

    Returns:
        ``path``.

    Raises:
        ForbiddenURLError: The document refers to a resource other than a
            ``data:`` URI; the message names the file and the URL.
        RenderError: WeasyPrint failed or ran out of time, ``strict`` and it
            warned, or the file could not be written; the message names the
            file and the cause.
    """
    path = Path(path)
    rendered = _render(html, strict=strict, target=str(path), timeout_s=timeout_s, engine=engine)
    try:
        write_bytes_atomic(path, rendered.data)
    except OSError as exc:
        raise RenderError(f"cannot write {path}: {exc.strerror or exc}") from exc
    return path


def _render(
    html: str, *, strict: bool, target: str, timeout_s: float | None, engine: str | None
) -> RenderedPDF:
    engine = engine or os.environ.get("REPORTGEN_PDF_ENGINE") or "weasyprint"
    if engine not in ENGINES:
        raise RenderError(f"cannot write {target}: unknown PDF engine {engine!r}; one of {', '.join(ENGINES)}")
    if engine == "chromium":
        from reportgen.render.chromium import finish_pdf, render_chromium

        data, seconds = render_chromium(html, target=target, timeout_s=timeout_s)
        started = time.perf_counter()
        data = finish_pdf(data, html)
        return RenderedPDF(data=data, warnings=(), seconds=seconds + time.perf_counter() - started)
    if timeout_s is None:
        rendered = render_document(html, target=target)
    else:
        from reportgen.render.worker import render_in_worker

        rendered = render_in_worker(html, target=target, timeout_s=timeout_s)
        logger = logging.getLogger(WEASYPRINT_LOGGER)
        for message in rendered.warnings:  # as WeasyPrint would have logged them here
            level, _, text = message.partition(": ")
            logger.log(logging.getLevelName(level) if level in {"WARNING", "ERROR", "CRITICAL"}
                       else logging.WARNING, "%s", text)
    if strict and rendered.warnings:
        warnings = rendered.warnings
        shown = "; ".join(warnings[:5]) + ("; ..." if len(warnings) > 5 else "")
        raise RenderError(
            f"cannot write {target}: WeasyPrint reported {len(warnings)} warning(s): {shown}"
        )
    return rendered


def render_document(html: str, *, target: str) -> RenderedPDF:
    """Render in this process, collecting warnings; the core of every render.

    Args:
        html: The document.
        target: What to name in error messages (the file being written).

    Returns:
        The PDF, with every warning WeasyPrint logged.

    Raises:
        ForbiddenURLError: A non-``data:`` URL was asked for.
        RenderError: WeasyPrint failed.
    """
    import weasyprint
    from weasyprint.urls import FatalURLFetchingError

    started = time.perf_counter()
    fetcher_class = globals().get("DataURLFetcher") or __getattr__("DataURLFetcher")  # a test may patch it
    fetcher = fetcher_class()
    try:
        with _collect_warnings() as warnings:
            document = weasyprint.HTML(string=html, base_url=None, url_fetcher=fetcher)
            data = document.write_pdf()
    except FatalURLFetchingError as exc:
        raise ForbiddenURLError(f"cannot write {target}: {exc}") from exc
    except Exception as exc:
        raise RenderError(f"cannot write {target}: {type(exc).__name__}: {exc}") from exc
    if fetcher.refused:  # refused, then swallowed by WeasyPrint: still fatal
        cause = __getattr__("ForbiddenFetch")(fetcher.refused[0])
        raise ForbiddenURLError(f"cannot write {target}: {cause}") from cause
    assert isinstance(data, bytes)
    return RenderedPDF(data=data, warnings=tuple(warnings), seconds=time.perf_counter() - started)


class _WarningCollector(logging.Handler):
    """Keep WeasyPrint's WARNING+ records emitted by one thread."""

    def __init__(self, thread_id: int) -> None:
        super().__init__(logging.WARNING)
        self.thread_id = thread_id
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self.thread_id:
            self.messages.append(f"{record.levelname}: {record.getMessage()}")


@contextlib.contextmanager
def _collect_warnings() -> Iterator[list[str]]:
    """Collect what WeasyPrint logs during the block, from this thread only.

    If the ``weasyprint`` logger was configured above WARNING it is lowered to
    WARNING for the block (and restored), so no warning goes unseen.
    """
    logger = logging.getLogger(WEASYPRINT_LOGGER)
    collector = _WarningCollector(threading.get_ident())
    previous_level = logger.level
    logger.addHandler(collector)
    if logger.getEffectiveLevel() > logging.WARNING:
        logger.setLevel(logging.WARNING)
    try:
        yield collector.messages
    finally:
        logger.removeHandler(collector)
        logger.setLevel(previous_level)
