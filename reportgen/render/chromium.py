"""A second PDF engine: Debian's headless Chromium, driven over its DevTools pipe.

Chromium lays a 32-page report out in a fraction of WeasyPrint's time
(README, "Performance"), so a run may choose it (``--pdf-engine chromium``,
``REPORTGEN_PDF_ENGINE``). It passes the same output checks as WeasyPrint
(``tests/test_render_pdf.py`` runs them for every engine):

* **nothing fetched but inline data**: the document is served to the browser
  by this module through the DevTools ``Fetch`` domain under a URL that
  never reaches a network (``http://reportgen.invalid/``); every other
  request the page makes is failed and recorded, and the render then raises
  :class:`~reportgen.errors.ForbiddenURLError`, as WeasyPrint's
  :class:`~reportgen.render.pdf.DataURLFetcher` does. So that every such
  request reaches this check (and fails the render loudly instead of being
  dropped quietly), the document's own ``Content-Security-Policy`` meta
  element is left out of the served copy; the copy is served with a policy
  that forbids scripts only. ``data:`` URIs never reach the network stack.
* **table of contents with page numbers**: Chromium has no
  ``target-counter()``, so the page is printed once, each heading's page is
  read from the named destinations Chromium writes for link targets, the
  numbers are written into the contents list, and it is printed again
  (numbers of the same width are reserved in the first pass, so the
  layout does not move).
* **running header**: no ``string-set`` either; the ``<title>`` is set as the
  header's content.
* **bookmarks** from the headings (``generateDocumentOutline``), internal
  **links**, **fonts** embedded as subsets for every script (fontconfig finds
  the same Noto families), and the document metadata WeasyPrint writes
  (title, subject, creator, language, creation date) set on the result.

The browser is started once and kept (:func:`shutdown_browsers` ends it);
each render opens a fresh tab. A render past its deadline kills the browser,
which is started again by the next render.

The protocol is DevTools' "remote debugging pipe": JSON messages, each ended
by a NUL byte, on file descriptors 3 (commands) and 4 (replies and events)
of the browser process (Chromium's ``--remote-debugging-pipe``; the same
transport Playwright and Puppeteer use).
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import io
import json
import os
import re
import select
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Iterable
from typing import Any

from reportgen.errors import ForbiddenURLError, RenderError

__all__ = [
    "CHROMIUM_FLAGS",
    "ChromiumBrowser",
    "chromium_executable",
    "finish_pdf",
    "render_chromium",
    "shutdown_browsers",
]

#: Headless, no background fetching of any kind, no first-run work. Taken
#: from the flags Playwright passes to a headless Chromium
#: (``chromiumSwitches.ts``), keeping those that stop network activity.
CHROMIUM_FLAGS: tuple[str, ...] = (
    "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--disable-default-apps", "--disable-extensions", "--no-first-run",
    "--no-default-browser-check", "--disable-domain-reliability", "--disable-breakpad",
    "--metrics-recording-only", "--mute-audio", "--remote-debugging-pipe",
)

#: The origin the document is served under; ``.invalid`` never resolves
#: (RFC 2606) and the request never leaves the browser anyway.
DOCUMENT_URL = "http://reportgen.invalid/report.html"

#: Chromium asks for the page's icon by itself (not the document: WeasyPrint
#: never would); it is refused like everything else, but does not fail the render.
_FAVICON = DOCUMENT_URL.rsplit("/", 1)[0] + "/favicon.ico"

#: Served with the document: no script. Everything else is refused by the
#: ``Fetch`` interception, which also records it (a policy would drop it unseen).
_CSP = "script-src 'none'; object-src 'none'"
_CSP_META = re.compile(r"<meta\s+http-equiv=\"Content-Security-Policy\"[^>]*>", re.IGNORECASE)

#: A4 at the templates' margins is set by their ``@page`` rules (preferCSSPageSize).
_PRINT = {
    "printBackground": True, "preferCSSPageSize": True, "generateDocumentOutline": True,
    "generateTaggedPDF": True, "displayHeaderFooter": False, "transferMode": "ReturnAsBase64",
}

#: Chromium's console message for a ``file:`` URL it will not load from a web page.
_LOCAL_REFUSED = "Not allowed to load local resource: "

#: The contents list's links (``templates/base.html.j2``: ``nav.toc a[href^="#"]``).
_TOC_LINK = re.compile(r'<a\s+href="#([^"]+)"')


def chromium_executable() -> str | None:
    """Debian's ``chromium`` (or ``chromium-browser``) on ``PATH``, or ``None``."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class ChromiumBrowser:
    """One headless Chromium process and its DevTools pipe.

    Args:
        executable: The browser; default :func:`chromium_executable`.

    Raises:
        RenderError: Chromium is not installed or cannot be started.
    """

    def __init__(self, executable: str | None = None) -> None:
        exe = executable or chromium_executable()
        if exe is None:
            raise RenderError("the chromium PDF engine needs Chromium (Debian: apt-get install chromium)")
        self.profile = tempfile.mkdtemp(prefix="reportgen-chromium-")
        flags = list(CHROMIUM_FLAGS)
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            flags.append("--no-sandbox")  # Chromium refuses to start its sandbox as root
        cmd_r, cmd_w = os.pipe()
        out_r, out_w = os.pipe()
        devnull = os.open(os.devnull, os.O_RDWR)
        try:
            actions = [
                (os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
                (os.POSIX_SPAWN_DUP2, devnull, 2), (os.POSIX_SPAWN_DUP2, cmd_r, 3),
                (os.POSIX_SPAWN_DUP2, out_w, 4),
            ]
            self.pid = os.posix_spawn(
                exe, [exe, *flags, f"--user-data-dir={self.profile}", "about:blank"], dict(os.environ),
                file_actions=actions, setsid=True,
            )
        except OSError as exc:
            for fd in (cmd_r, cmd_w, out_r, out_w):
                os.close(fd)
            raise RenderError(f"cannot start Chromium ({exe}): {exc}") from exc
        finally:
            os.close(devnull)
        os.close(cmd_r)
        os.close(out_w)
        self._write = cmd_w
        self._read = out_r
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict[str, Any]] = []
        self.lock = threading.Lock()  #: one render at a time per browser
        #: URLs the current page asked for and was refused (see :meth:`_refuse`).
        self.refused: list[str] = []
        self.exit_status: int | None = None

    # ---- the pipe --------------------------------------------------------------------

    def _send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> int:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        data = json.dumps(message).encode("utf-8") + b"\0"
        while data:
            written = os.write(self._write, data)
            data = data[written:]
        return self._next_id

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            ready, _, _ = select.select([self._read], [], [], remaining)
            if not ready:
                raise TimeoutError
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed its DevTools pipe")
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        message: dict[str, Any] = json.loads(raw)
        return message

    def call(self, method: str, params: dict[str, Any] | None = None, *, session: str | None = None,
             deadline: float) -> dict[str, Any]:
        """Send one DevTools command and wait for its reply; events that arrive meanwhile are kept.

        Raises:
            RenderError: The browser answered with an error.
            TimeoutError: ``deadline`` (``time.monotonic()``) passed.
            EOFError: The browser went away.
        """
        wanted = self._send(method, params, session)
        while True:
            message = self._receive(deadline)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RenderError(f"Chromium: {method}: {message['error'].get('message')}")
                result: dict[str, Any] = message.get("result", {})
                return result
            if "method" in message and not self._refuse(message):
                self._events.append(message)

    def _refuse(self, message: dict[str, Any]) -> bool:
        """Fail a paused request for anything but the document, and record it; True if it was one.

        Handled wherever it arrives (loading, printing, any command), so no
        request stays paused and none is ever let through.
        """
        if message.get("method") != "Fetch.requestPaused":
            return False
        params = message["params"]
        url = str(params["request"]["url"])
        if url == DOCUMENT_URL and not params.get("redirectedRequestId"):
            return False  # the document itself: served by print_pdf
        if url != _FAVICON:  # the browser's own icon request, not the document's: refused quietly
            self.refused.append(url)
        self._send("Fetch.failRequest", {"requestId": params["requestId"], "errorReason": "BlockedByClient"},
                   message.get("sessionId"))
        return True

    def event(self, methods: Iterable[str], *, deadline: float) -> dict[str, Any]:
        """The next event whose method is one of ``methods`` (kept ones first)."""
        names = set(methods)
        for index, message in enumerate(self._events):
            if message.get("method") in names:
                return self._events.pop(index)
        while True:
            message = self._receive(deadline)
            if "method" in message and self._refuse(message):
                continue
            if message.get("method") in names:
                return message
            if "method" in message:
                self._events.append(message)

    def alive(self) -> bool:
        """True while the browser process runs."""
        if self.exit_status is not None:
            return False
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        if pid == 0:
            return True
        self.exit_status = os.waitstatus_to_exitcode(status)
        return False

    def close(self) -> None:
        """Kill the browser (its whole process group) and remove its profile."""
        if self.exit_status is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                _, status = os.waitpid(self.pid, 0)
                self.exit_status = os.waitstatus_to_exitcode(status)
        for fd in (self._write, self._read):
            with contextlib.suppress(OSError):
                os.close(fd)
        shutil.rmtree(self.profile, ignore_errors=True)

    # ---- one render ------------------------------------------------------------------

    def print_pdf(self, html: str, *, target: str, deadline: float) -> bytes:
        """Load ``html`` in a fresh tab (nothing fetched) and print it, TOC numbers filled in.

        Raises:
            ForbiddenURLError: The page asked for anything but its own document.
            RenderError: The browser failed.
            TimeoutError: The deadline passed.
        """
        self._events.clear()
        self.refused = []
        target_id = self.call("Target.createTarget", {"url": "about:blank"}, deadline=deadline)["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target_id, "flatten": True},
                            deadline=deadline)["sessionId"]
        try:
            return self._print_in(session, html, target=target, deadline=deadline)
        finally:
            with contextlib.suppress(RenderError, TimeoutError, EOFError, OSError):
                self.call("Target.closeTarget", {"targetId": target_id}, deadline=deadline)

    def _print_in(self, session: str, html: str, *, target: str, deadline: float) -> bytes:
        self.call("Fetch.enable", {"patterns": [{"urlPattern": "*"}]}, session=session, deadline=deadline)
        self.call("Page.enable", session=session, deadline=deadline)
        self.call("Log.enable", session=session, deadline=deadline)
        self._send("Page.navigate", {"url": DOCUMENT_URL}, session)
        body = base64.b64encode(_for_chromium(html).encode("utf-8")).decode("ascii")
        while True:  # requests for anything else are refused and recorded as they come (_refuse)
            message = self.event(("Fetch.requestPaused", "Page.loadEventFired"), deadline=deadline)
            if message["method"] == "Page.loadEventFired":
                break
            self._send("Fetch.fulfillRequest", {
                "requestId": message["params"]["requestId"], "responseCode": 200, "body": body,
                "responseHeaders": [
                    {"name": "Content-Type", "value": "text/html; charset=utf-8"},
                    {"name": "Content-Security-Policy", "value": _CSP},
                ],
            }, session)
        self._check_refused(target)
        # The first print only has to place the headings (its named
        # destinations): no tags, no outline, which Chromium takes time to build.
        first = self._print(session, deadline, draft=True)
        self._check_refused(target)
        pages = _destination_pages(first)
        ids = [anchor for anchor in _TOC_LINK.findall(_toc_of(html)) if anchor in pages]
        if not ids:
            final = self._print(session, deadline)
            self._check_refused(target)
            return final
        rules = "".join(
            f'nav.toc a[href="#{_css_string(anchor)}"]::after {{ content: "{pages[anchor]}"; }}'
            for anchor in ids
        )
        self.call("Runtime.evaluate", {
            "expression": ("(() => { const s = document.createElement('style'); s.textContent = "
                           f"{json.dumps(rules)}; document.head.appendChild(s); }})()"),
        }, session=session, deadline=deadline)
        final = self._print(session, deadline)
        self._check_refused(target)
        return final

    def _check_refused(self, target: str) -> None:
        """Raise if the page asked for anything but its document so far."""
        refused = self.refused + self._blocked_locally()
        if refused:
            raise ForbiddenURLError(
                f"cannot write {target}: refused to fetch {refused[0]!r}: only inline data: URIs may be loaded"
            )

    def _blocked_locally(self) -> list[str]:
        """``file:`` URLs Chromium itself refused to load (they never reach ``Fetch``).

        From an ``http:`` page Chromium does not even ask for a ``file:``
        URL; it logs "Not allowed to load local resource: URL" instead,
        which is read here so that the render still fails loudly.
        """
        urls = []
        for message in self._events:
            if message.get("method") == "Log.entryAdded":
                text = str(message["params"]["entry"].get("text", ""))
                if text.startswith(_LOCAL_REFUSED):
                    urls.append(text.removeprefix(_LOCAL_REFUSED).strip())
        return urls

    def _print(self, session: str, deadline: float, *, draft: bool = False) -> bytes:
        options = {**_PRINT, "generateTaggedPDF": False, "generateDocumentOutline": False} if draft else _PRINT
        result = self.call("Page.printToPDF", options, session=session, deadline=deadline)
        return base64.b64decode(result["data"])


def _toc_of(html: str) -> str:
    start = html.find('<nav class="toc"')
    if start < 0:
        return ""
    end = html.find("</nav>", start)
    return html[start:end if end > 0 else len(html)]


def _css_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _for_chromium(html: str) -> str:
    """What the templates ask of WeasyPrint only, said the way Chromium understands.

    * ``target-counter()`` and ``leader()``: the contents list gets a dotted
      leader and a reserved number ("00", filled in by the second print);
    * ``string(report-title)``: the running header shows the ``<title>``.
    """
    title = re.search(r"<title>(.*?)</title>", html, re.DOTALL)
    header = _css_string(_unescape(title.group(1)).strip()) if title else ""
    css = (
        "<style>@media print {"
        " nav.toc a { display: flex; }"
        " nav.toc a::after { content: \"00\"; flex: 0 0 auto; margin-left: 0.3em; }"
        " nav.toc a::before { content: \"\"; order: 1; flex: 1 1 auto; margin: 0 0.2em 0.28em;"
        "   border-bottom: 1pt dotted currentColor; opacity: 0.5; }"
        " nav.toc a::after { order: 2; }"
        "}"
        f"@page {{ @top-center {{ content: \"{header}\"; }} }}"
        "@page :first { @top-center { content: none; } }"
        "</style>"
    )
    html = _CSP_META.sub("", html, count=1)
    head_end = html.find("</head>")
    return html[:head_end] + css + html[head_end:] if head_end >= 0 else css + html


_HEADING = re.compile(r"<h([1-6])\b[^>]*>(.*?)</h\1>", re.DOTALL | re.IGNORECASE)
_TAG = re.compile(r"<[^>]+>")
_META = re.compile(r'<meta\s+name="([^"]+)"\s+content="([^"]*)"', re.IGNORECASE)
_LANG = re.compile(r'<html\b[^>]*\blang="([^"]+)"', re.IGNORECASE)


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def finish_pdf(pdf: bytes, html: str) -> bytes:
    """Set what WeasyPrint sets and Chromium does not, as an incremental update.

    * metadata from the document (``templates/base.html.j2``): ``/Title``
      from ``<title>``, ``/Subject`` from ``<meta name="description">``,
      ``/Creator`` from ``<meta name="generator">``, ``/CreationDate`` from
      ``<meta name="dcterms.created">``, the catalog's ``/Lang`` from
      ``<html lang>``;
    * bookmark titles as the headings read: Chromium joins a wrapped heading's
      lines without a space and sometimes repeats a heading's text, so each
      outline title is replaced by the heading whose text (spaces ignored) it
      is, once or twice over.

    Args:
        pdf: Chromium's PDF.
        html: The document it was printed from.

    Returns:
        The PDF with an incremental update appended (only changed objects
        are written; the pages are not copied).
    """
    from pypdf import PdfReader
    from pypdf.generic import DictionaryObject, IndirectObject, NameObject, NumberObject, TextStringObject

    headings: dict[str, str] = {}
    for _, inner in _HEADING.findall(html):
        text = " ".join(_unescape(_TAG.sub("", inner)).split())
        headings.setdefault(_squeeze(text), text)
    meta = {name.lower(): _unescape(value) for name, value in _META.findall(html)}
    title = re.search(r"<title>(.*?)</title>", html, re.DOTALL)
    lang = _LANG.search(html)
    reader = PdfReader(io.BytesIO(pdf))
    changed: dict[int, Any] = {}
    info = DictionaryObject({NameObject("/Producer"): TextStringObject("reportgen (Chromium)")})
    if title:
        info[NameObject("/Title")] = TextStringObject(" ".join(_unescape(title.group(1)).split()))
    if meta.get("description"):
        info[NameObject("/Subject")] = TextStringObject(meta["description"])
    if meta.get("generator"):
        info[NameObject("/Creator")] = TextStringObject(meta["generator"])
    created = re.match(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)", meta.get("dcterms.created", ""))
    if created:
        info[NameObject("/CreationDate")] = TextStringObject("D:" + "".join(created.groups()) + "Z")
    trailer_in: Any = reader.trailer
    size = int(trailer_in["/Size"])
    changed[size] = info
    root_ref: Any = trailer_in.raw_get("/Root")
    root: Any = root_ref.get_object()
    if lang:
        root[NameObject("/Lang")] = TextStringObject(lang.group(1))
        changed[root_ref.idnum] = root

    def fix(ref: Any) -> None:
        while isinstance(ref, IndirectObject):
            obj: Any = ref.get_object()
            raw = _squeeze(str(obj.get("/Title", "")))
            half = raw[: len(raw) // 2]
            text = headings.get(raw) or (headings.get(half) if half * 2 == raw else None)
            if text is not None and text != obj.get("/Title"):
                obj[NameObject("/Title")] = TextStringObject(text)
                changed[ref.idnum] = obj
            fix(obj.raw_get("/First") if "/First" in obj else None)
            ref = obj.raw_get("/Next") if "/Next" in obj else None

    outlines: Any = root.get("/Outlines")
    if outlines is not None:
        outlines = outlines.get_object()
        fix(outlines.raw_get("/First") if "/First" in outlines else None)
    previous = int(pdf[pdf.rindex(b"startxref") + 9:].split()[0])
    out = io.BytesIO()
    out.write(pdf if pdf.endswith(b"\n") else pdf + b"\n")
    offsets: dict[int, int] = {}
    for number in sorted(changed):
        offsets[number] = out.tell()
        out.write(f"{number} 0 obj\n".encode("ascii"))
        changed[number].write_to_stream(out)
        out.write(b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 1\n0000000000 65535 f\r\n")  # object 0 heads every xref table
    numbers = sorted(offsets)
    run_start = 0
    for index in range(1, len(numbers) + 1):  # one subsection per run of consecutive numbers
        if index == len(numbers) or numbers[index] != numbers[index - 1] + 1:
            run = numbers[run_start:index]
            out.write(f"{run[0]} {len(run)}\n".encode("ascii"))
            for number in run:
                out.write(f"{offsets[number]:010d} 00000 n\r\n".encode("ascii"))
            run_start = index
    trailer = DictionaryObject({
        NameObject("/Size"): NumberObject(size + 1), NameObject("/Root"): root_ref,
        NameObject("/Info"): IndirectObject(size, 0, reader), NameObject("/Prev"): NumberObject(previous),
    })
    out.write(b"trailer\n")
    trailer.write_to_stream(out)
    out.write(f"\nstartxref\n{xref}\n%%EOF\n".encode("ascii"))
    return out.getvalue()


def _unescape(text: str) -> str:
    import html as html_module

    return html_module.unescape(text)


def _destination_pages(pdf: bytes) -> dict[str, int]:
    """Named destination → 1-based page number, from a Chromium PDF."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    pages: dict[str, int] = {}
    for name, destination in reader.named_destinations.items():
        with contextlib.suppress(Exception):
            page = reader.get_destination_page_number(destination)
            if page is not None:
                pages[str(name).lstrip("/")] = page + 1
    return pages


# ---- the kept browser --------------------------------------------------------------------

_KEPT: list[ChromiumBrowser] = []
_KEPT_LOCK = threading.Lock()


def _browser() -> ChromiumBrowser:
    with _KEPT_LOCK:
        while _KEPT:
            browser = _KEPT.pop()
            if browser.alive():
                return browser
            browser.close()
    return ChromiumBrowser()


def _keep(browser: ChromiumBrowser) -> None:
    with _KEPT_LOCK:
        if not _KEPT:
            _KEPT.append(browser)
            return
    browser.close()


def shutdown_browsers() -> None:
    """End the kept browser (the next render starts one again)."""
    with _KEPT_LOCK:
        browsers, _KEPT[:] = list(_KEPT), []
    for browser in browsers:
        browser.close()


atexit.register(shutdown_browsers)


def render_chromium(html: str, *, target: str, timeout_s: float | None = None) -> tuple[bytes, float]:
    """Print self-contained HTML to PDF with the kept headless Chromium.

    Args:
        html: The document, usually from :func:`~reportgen.render.render_html`.
        target: The file being written, named in error messages.
        timeout_s: Deadline in seconds (default 120, as ``REPORTGEN_RENDER_TIMEOUT_S``);
            past it the browser is killed.

    Returns:
        The PDF bytes (metadata not yet set: see :mod:`reportgen.render.pdf`)
        and the seconds taken.

    Raises:
        ForbiddenURLError: The document asked for anything but inline ``data:`` URIs.
        RenderError: Chromium is missing, failed, died or ran out of time.
    """
    started = time.perf_counter()
    limit = 120.0 if timeout_s is None else timeout_s
    deadline = time.monotonic() + limit
    browser = _browser()
    healthy = False
    try:
        with browser.lock:
            data = browser.print_pdf(html, target=target, deadline=deadline)
        healthy = True
    except TimeoutError:
        raise RenderError(
            f"cannot write {target}: rendering the PDF took longer than {limit:g} s "
            "(the limit is REPORTGEN_RENDER_TIMEOUT_S); the renderer was stopped"
        ) from None
    except (EOFError, OSError) as exc:
        raise RenderError(f"cannot write {target}: Chromium ended unexpectedly ({exc})") from exc
    except ForbiddenURLError:
        healthy = True
        raise
    except RenderError as exc:
        raise RenderError(f"cannot write {target}: {exc}") from exc
    finally:
        if healthy:
            _keep(browser)
        else:
            browser.close()
    return data, time.perf_counter() - started

