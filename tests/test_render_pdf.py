"""PDF rendering: no fetching, atomic writes, warnings, and the PDF itself (poppler).

Every render here is ``strict=True``: a WeasyPrint warning fails the test
(as in WeasyPrint's own ``tests/testing_utils.py``).

The output checks — fonts embedded for every script, no missing glyphs,
table of contents with page numbers, bookmarks, links, metadata, nothing
fetched but inline data — run for every PDF engine (:data:`ENGINES`; the
chromium engine's are skipped only where Chromium is not installed).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from pypdf import PdfReader
from weasyprint.urls import FatalURLFetchingError, URLFetchingError, fetch

import reportgen.render.pdf as pdf_module
from reportgen.errors import ForbiddenURLError, RenderError
from reportgen.render import (
    DataURLFetcher,
    render_html,
    render_pdf,
    write_bytes_atomic,
    write_pdf,
    write_text_atomic,
)
from reportgen.render.pdf import ENGINES as ALL_ENGINES
from reportgen.report import Paragraph, Section, Sentence

from factories import sample_report

HOSTILE_DIR = Path(__file__).parent / "fixtures" / "hostile"
POPPLER = ("pdftotext", "pdffonts", "pdftoppm", "pdfinfo")
requires_poppler = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in POPPLER),
    reason="poppler-utils (pdftotext, pdffonts, pdftoppm, pdfinfo) is not installed",
)

requires_chromium = pytest.mark.skipif(
    shutil.which("chromium") is None and shutil.which("chromium-browser") is None,
    reason="Chromium is not installed (make test-deps installs it)",
)
#: Every engine, as parameters: the output checks run for each.
ENGINES = [pytest.param(name, marks=requires_chromium) if name == "chromium" else name for name in ALL_ENGINES]

# ---- helpers ----------------------------------------------------------------------

#: Audit events that mean "something was read or fetched" (PEP 578).
WATCHED_EVENTS = frozenset({
    "open", "os.listdir", "os.scandir", "urllib.Request", "socket.connect",
    "socket.getaddrinfo", "socket.gethostbyname", "subprocess.Popen", "os.system",
})
_audit_log: list[tuple[str, tuple]] | None = None
#: The one thread io_audit(this_thread=True) records (None: every thread).
_audit_thread: int | None = None


def _audit_hook(event: str, args: tuple) -> None:
    if _audit_log is not None and event in WATCHED_EVENTS and _audit_thread in (None, threading.get_ident()):
        _audit_log.append((event, args))


sys.addaudithook(_audit_hook)  # hooks cannot be removed; it records only inside io_audit()


@contextmanager
def io_audit(this_thread: bool = False) -> Iterator[list[tuple[str, tuple]]]:
    """Record file opens, socket use and URL requests made in this process (in this thread only, for a
    renderer that runs in it: another test's leftover thread, a kept browser's, may list a folder meanwhile)."""
    global _audit_log, _audit_thread
    _audit_log = events = []
    _audit_thread = threading.get_ident() if this_thread else None
    try:
        yield events
    finally:
        _audit_log, _audit_thread = None, None


class SpyFetcher(DataURLFetcher):
    """The real fetcher, remembering every URL WeasyPrint asks for."""

    seen: list[str] = []

    def fetch(self, url, headers=None):
        SpyFetcher.seen.append(url)
        return super().fetch(url, headers)


@pytest.fixture
def spy_fetcher(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    SpyFetcher.seen = []
    monkeypatch.setattr(pdf_module, "DataURLFetcher", SpyFetcher)
    return SpyFetcher.seen


def run(*args: str | Path) -> str:
    result = subprocess.run(
        [str(a) for a in args], check=True, capture_output=True, text=True, timeout=120
    )
    return result.stdout


def pdf_text(path: Path, *options: str) -> str:
    """``pdftotext`` output with invisible format marks removed.

    Bidi control marks (poppler adds them) and the word joiner (U+2060) the
    templates put before a citation marker (Chromium writes it into the
    text layer; WeasyPrint does not).
    """
    text = run("pdftotext", *options, path, "-")
    return re.sub("[\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069]", "", text)


def font_names(fonts: list[dict[str, str]]) -> str:
    """Every embedded font's name, ``Noto-Sans-CJK-SC`` style, space-separated.

    WeasyPrint names subsets ``XXXXXX+Noto-Sans-CJK-SC``, Chromium
    ``XXXXXX+NotoSansCJK...``; both are reduced to the words. Chromium
    (Skia) embeds CFF-outline fonts (Noto Sans CJK) and colour emoji as
    Type 3 fonts with no name; they are listed as ``Type3``.
    """
    names = []
    for font in fonts:
        name = font["name"].split("+")[-1]
        if font["type"].startswith("Type 3") and name == "[none]":
            names.append("Type3")
        else:
            names.append(re.sub(r"(?<=[a-z])(?=[A-Z])", "-", name).replace("-Regular", ""))
    return " ".join(names)


def squash(text: str) -> str:
    """Drop all whitespace: line breaks may fall anywhere in long tokens."""
    return re.sub(r"\s+", "", text)


def pdf_fonts(path: Path) -> list[dict[str, str]]:
    """Parse ``pdffonts`` into rows keyed by its header names."""
    lines = run("pdffonts", path).splitlines()
    header, rule, rows = lines[0], lines[1], lines[2:]
    spans = [m.span() for m in re.finditer(r"-+", rule)]
    names = [header[a:b].strip() or header[a:].split()[0] for a, b in spans]
    return [{n: row[a:b].strip() for n, (a, b) in zip(names, spans, strict=True)} for row in rows if row]


def pdf_info(path: Path) -> dict[str, str]:
    info = {}
    for line in run("pdfinfo", path).splitlines():
        key, _, value = line.partition(":")
        info[key.strip()] = value.strip()
    return info


def outline_titles(path: Path) -> list[object]:
    """The PDF outline as nested lists of titles."""

    def walk(items: list) -> list[object]:
        return [walk(item) if isinstance(item, list) else item.title for item in items]

    return walk(PdfReader(path).outline)


@pytest.fixture(scope="module", params=ENGINES)
def sample_pdf(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pdf") / f"report-{request.param}.pdf"
    return write_pdf(render_html(sample_report()), path, strict=True, engine=request.param)


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    """The PDF engine under test (every output check runs for each)."""
    return str(request.param)


# ---- the URL fetcher ----------------------------------------------------------------


def test_fetcher_serves_data_uris() -> None:
    response = DataURLFetcher().fetch("data:image/svg+xml;base64,PHN2Zy8+")
    assert response.read() == b"<svg/>"
    assert response.content_type == "image/svg+xml"


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "FILE:///etc/hostname",
        "http://127.0.0.1:9/x",
        "https://169.254.169.254/latest/meta-data/",
        "http://[::1]:9/",
        "ftp://example.org/x",
        "../../../../etc/hostname",
        "report.css",
        " data:text/plain,x",
    ],
)
def test_fetcher_refuses_everything_else(url: str) -> None:
    with io_audit() as events:
        with pytest.raises(FatalURLFetchingError, match="only inline data"):
            DataURLFetcher().fetch(url)
        # Through WeasyPrint's own wrapper too: fatal, never a recoverable URLFetchingError.
        with pytest.raises(FatalURLFetchingError), fetch(DataURLFetcher(), url):
            pass  # pragma: no cover
    assert events == []
    assert not issubclass(FatalURLFetchingError, URLFetchingError)


@pytest.mark.parametrize(
    "markup",
    [
        '<img src="file:///etc/passwd">',
        '<img src="http://127.0.0.1:9/x.png">',
        '<link rel="stylesheet" href="http://127.0.0.1:9/evil.css">',
        '<link rel="attachment" href="file:///etc/passwd">',
        '<style>@import url("file:///etc/passwd");</style>',
        '<style>body { background: url("file:///etc/hostname"); }</style>',
        '<style>@font-face { font-family: leak; src: url("file:///etc/passwd"); }'
        " p { font-family: leak; }</style>",
        '<p style="background-image: url(http://169.254.169.254/)">x</p>',
        '<svg width="10" height="10"><image href="file:///etc/hostname" width="10" height="10"/>'
        "</svg>",
        '<img src="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22%3E'
        '%3Cimage href=%22file:///etc/hostname%22 width=%221%22 height=%221%22/%3E%3C/svg%3E">',
    ],
)
def test_render_with_a_resource_fails_loudly(engine: str, tmp_path: Path, markup: str) -> None:
    target = tmp_path / "report.pdf"
    html = f"<!DOCTYPE html><html><head></head><body><p>x</p>{markup}</body></html>"
    if engine == "chromium" and ('rel="attachment"' in markup or markup.startswith('<img src="data:')):
        # PDF attachments are WeasyPrint's; and a browser loads nothing an SVG
        # *image* names (SVG's secure static mode): Chromium never asks for either.
        write_pdf(html, target, engine=engine)
        assert target.read_bytes().startswith(b"%PDF-")
        return
    with io_audit() as events, pytest.raises(ForbiddenURLError) as caught:
        write_pdf(html, target, engine=engine)
    assert str(target) in str(caught.value)
    assert "only inline data" in str(caught.value)
    assert isinstance(caught.value, RenderError)
    if engine == "weasyprint":
        assert isinstance(caught.value.__cause__, FatalURLFetchingError)
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []
    assert not [e for e, _ in events if e.startswith(("socket", "urllib"))]
    assert not [a for e, a in events if e == "open" and str(a[0]).startswith(("/etc", "/proc"))]


def test_relative_url_is_never_resolved(tmp_path: Path) -> None:
    html = '<html><body><p>x</p><img src="../../../../etc/hostname"></body></html>'
    with io_audit() as events:
        rendered = render_pdf(html)
        with pytest.raises(RenderError, match="Relative URI reference without a base URI"):
            write_pdf(html, tmp_path / "r.pdf", strict=True)
    assert any("Relative URI" in w for w in rendered.warnings)
    assert not [a for e, a in events if e == "open" and "hostname" in str(a[0])]
    assert list(tmp_path.iterdir()) == []


# ---- warnings -----------------------------------------------------------------------


def test_weasyprint_warnings_are_collected_and_strict_raises(tmp_path: Path) -> None:
    html = '<html><body><p style="color: not-a-colour">x</p></body></html>'
    rendered = render_pdf(html)
    assert rendered.data.startswith(b"%PDF-")
    assert len(rendered.warnings) == 1 and "not-a-colour" in rendered.warnings[0]
    target = tmp_path / "r.pdf"
    with pytest.raises(RenderError, match=r"1 warning\(s\).*not-a-colour"):
        write_pdf(html, target, strict=True)
    assert not target.exists()
    assert write_pdf(html, target) == target and target.read_bytes().startswith(b"%PDF-")


def test_sample_report_renders_without_warnings() -> None:
    rendered = render_pdf(render_html(sample_report()))
    assert rendered.warnings == ()
    assert rendered.seconds > 0


# ---- atomic writes ------------------------------------------------------------------


def test_failed_render_leaves_existing_file_untouched(tmp_path: Path) -> None:
    target = tmp_path / "report.pdf"
    target.write_bytes(b"previous good PDF")
    with pytest.raises(ForbiddenURLError, match=re.escape(str(target))):
        write_pdf('<img src="file:///etc/passwd">', target)
    assert target.read_bytes() == b"previous good PDF"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.pdf"]


def test_failed_write_names_the_file_and_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "missing-folder" / "report.pdf"
    with pytest.raises(RenderError, match=re.escape(str(target))):
        write_pdf("<p>x</p>", target)
    assert list(tmp_path.iterdir()) == []


def test_failure_at_replace_keeps_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "report.pdf"
    target.write_bytes(b"old")

    def broken_replace(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(RenderError, match=r"report\.pdf: No space left on device"):
        write_pdf("<p>x</p>", target)
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.pdf"]


def test_atomic_helpers(tmp_path: Path) -> None:
    text_file = write_text_atomic(tmp_path / "a.html", "é\r\n")
    assert text_file.read_bytes() == "é\r\n".encode()
    assert (text_file.stat().st_mode & 0o777) == 0o644
    text_file.chmod(0o600)
    write_bytes_atomic(text_file, b"new")
    assert text_file.read_bytes() == b"new"
    assert (text_file.stat().st_mode & 0o777) == 0o600  # an existing file keeps its mode
    with pytest.raises(UnicodeEncodeError):
        write_text_atomic(tmp_path / "b.txt", "\udc80")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.html"]


# ---- the PDF itself (poppler) ----------------------------------------------------------


@requires_poppler
def test_every_page_renders(sample_pdf: Path, tmp_path: Path) -> None:
    pages = int(pdf_info(sample_pdf)["Pages"])
    assert pages >= 2
    run("pdftoppm", "-r", "30", "-png", sample_pdf, tmp_path / "page")
    images = sorted(tmp_path.glob("page-*.png"))
    assert len(images) == pages
    assert all(image.stat().st_size > 500 for image in images)


@requires_poppler
def test_metadata(sample_pdf: Path) -> None:
    assert PdfReader(sample_pdf).trailer["/Root"]["/Lang"] == "en"
    info = pdf_info(sample_pdf)
    assert info["Title"] == "Renewable electricity in the Nordic countries"
    assert info["Creator"] == "reportgen"
    assert info["Subject"] == "renewable electricity in the Nordic countries"
    assert info["Page size"].endswith("(A4)")
    assert "2024" in info["CreationDate"]
    assert info["JavaScript"] == "no"


@requires_poppler
def test_fonts_are_embedded_and_digits_are_not_emoji(sample_pdf: Path) -> None:
    fonts = pdf_fonts(sample_pdf)
    assert fonts, "no fonts listed"
    assert all(font["emb"] == "yes" and font["uni"] == "yes" for font in fonts), fonts
    assert "Noto-Sans" in font_names(fonts).split()
    # Naming an emoji font in font-family makes Pango draw 0-9 with it (report.css).
    assert not [font for font in fonts if "Emoji" in font["name"]]


@requires_poppler
def test_running_footer_and_header(sample_pdf: Path) -> None:
    pages = int(pdf_info(sample_pdf)["Pages"])
    for number in range(1, pages + 1):
        text = pdf_text(sample_pdf, "-f", str(number), "-l", str(number))
        assert f"page {number} of {pages}" in text
        # The cover shows the title as such, every other page as the running header.
        assert squash("Renewable electricity in the Nordic countries") in squash(text)


@requires_poppler
def test_footer_speaks_the_report_language(engine: str, tmp_path: Path) -> None:
    path = write_pdf(render_html(sample_report(lang="fr")), tmp_path / "fr.pdf", strict=True, engine=engine)
    pages = int(pdf_info(path)["Pages"])
    assert f"page 1 sur {pages}" in pdf_text(path, "-f", "1", "-l", "1")
    assert "Sommaire" in pdf_text(path, "-f", "1", "-l", "1")


@requires_poppler
def test_table_of_contents_has_correct_page_numbers(sample_pdf: Path) -> None:
    toc = pdf_text(sample_pdf, "-layout", "-f", "1", "-l", "1")
    titles = [s.title for s in sample_report().sections] + ["Limitations", "References"]
    for title in titles:
        match = re.search(rf"^\s*{re.escape(title)}[\s.]*?(\d+)\s*$", toc, re.MULTILINE)
        assert match, f"no page number for {title!r} in:\n{toc}"
        page = int(match.group(1))
        assert page >= 2
        text = pdf_text(sample_pdf, "-f", str(page), "-l", str(page))
        assert title in text.splitlines(), f"{title!r} is not a heading on page {page}"


@requires_poppler
def test_citations_figure_and_references_are_visible(sample_pdf: Path) -> None:
    text = squash(pdf_text(sample_pdf))
    assert squash("moving water.[2] Norway") in text
    assert squash("Figure 1. Share of electricity from renewable sources") in text
    assert squash(
        "[4] Nordic grid notes (user document). local file. file:///home/user/notes/nordic-grid.md"
        " Accessed 2024-01-15 (local)."
    ) in text
    assert squash(  # title, site, URL, access date
        "[1] Renewable energy. en.wikipedia.org. https://en.wikipedia.org/wiki/Renewable_energy"
        " Accessed 2024-01-15"
    ) in text
    assert squash("chart-wind 604 The chart of installed wind capacity") in text


def test_bookmarks_follow_headings(sample_pdf: Path) -> None:
    titles = outline_titles(sample_pdf)
    assert titles[0] == "Renewable electricity in the Nordic countries"
    children = titles[1]
    assert isinstance(children, list)
    assert children == ["Contents"] + [s.title for s in sample_report().sections] + [
        "Limitations", "References",
    ]


def _links(path: Path) -> tuple[list[str], list[int]]:
    """External link URIs, and the target page (0-based) of every internal link."""
    reader = PdfReader(path)
    uris: list[str] = []
    targets: list[int] = []
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") != "/Link":
                continue
            action = annot.get("/A")
            action = action.get_object() if action is not None else {}
            if action.get("/S") == "/URI":
                uris.append(str(action["/URI"]))
                continue
            dest = annot.get("/Dest") if "/Dest" in annot else action.get("/D")
            if dest is None:
                continue
            dest = dest.get_object() if hasattr(dest, "get_object") else dest
            if isinstance(dest, str):  # a named destination
                dest = reader.named_destinations[dest if dest.startswith("/") else dest]
                targets.append(reader.get_destination_page_number(dest))
            else:
                targets.append(reader.get_page_number(dest[0].get_object()) if dest else -1)
    return uris, targets


def test_links_work(sample_pdf: Path) -> None:
    uris, targets = _links(sample_pdf)
    assert "https://en.wikipedia.org/wiki/Renewable_energy" in uris
    pages = len(PdfReader(sample_pdf).pages)
    # The contents list, the citation markers and the back links jump inside the document.
    assert len(targets) >= len(sample_report().sections) + 2
    assert all(0 <= page < pages for page in targets), targets


#: language → (sentence, phrase that must come back from pdftotext as written)
MULTILINGUAL = {
    "zh": ("可再生能源是指在自然界中可以不断再生的能源。", "可再生能源"),
    "ja": (
        "再生可能エネルギーは、自然の力で繰り返し利用できるエネルギーです。",
        "再生可能エネルギー",
    ),
    "ar": (
        "الطاقة المتجددة هي الطاقة المستمدة من موارد طبيعية تتجدد باستمرار.",
        "الطاقة المتجددة",
    ),
    "ru": (
        "Возобновляемая энергия — энергия из неисчерпаемых источников.",
        "Возобновляемая энергия",
    ),
    "el": (
        "Οι ανανεώσιμες πηγές ενέργειας είναι φιλικές προς το περιβάλλον.",
        "ανανεώσιμες πηγές ενέργειας",
    ),
    # poppler extracts Devanagari conjuncts imperfectly (the glyphs are right, see
    # the rendered page); the first word survives extraction intact.
    "hi": ("नवीकरणीय ऊर्जा प्राकृतिक स्रोतों से प्राप्त होती है।", "नवीकरणीय"),
}


@requires_poppler
def test_many_scripts_render_as_written(engine: str, tmp_path: Path) -> None:
    report = sample_report()
    report.sections.insert(1, Section(
        id="languages",
        title="Languages · 语言 · اللغات",
        paragraphs=[Paragraph.from_sentences([Sentence(text=text, citations=[1])])
                    for text, _ in MULTILINGUAL.values()],
    ))
    path = write_pdf(render_html(report), tmp_path / "multi.pdf", strict=True, engine=engine)
    text = unicodedata.normalize("NFC", pdf_text(path))
    for lang, (_, needle) in MULTILINGUAL.items():
        assert needle in text, f"{lang}: {needle!r} missing from the extracted text"
    assert "\ufffd" not in text
    fonts = pdf_fonts(path)
    names = font_names(fonts)
    cjk = "Type3" if engine == "chromium" else "Noto-Sans-CJK"  # Skia: CFF outlines as Type 3
    for family in (cjk, "Noto-Sans-Arabic", "Noto-Sans-Devanagari"):
        assert family in names, f"{family} not used: {names}"
    assert all(font["emb"] == "yes" and font["uni"] == "yes" for font in fonts)


@requires_poppler
def test_right_to_left_report(engine: str, tmp_path: Path) -> None:
    report = sample_report(lang="ar", title="الطاقة المتجددة في بلدان الشمال")
    path = write_pdf(render_html(report), tmp_path / "ar.pdf", strict=True, engine=engine)
    assert pdf_info(path)["Title"] == "الطاقة المتجددة في بلدان الشمال"
    assert "الطاقة المتجددة" in pdf_text(path, "-f", "1", "-l", "1")


# ---- hostile text through the whole chain -------------------------------------------------


@pytest.fixture
def secret_file(tmp_path: Path) -> tuple[Path, str]:
    marker = "SECRET-MARKER-7f3a9c2e"
    path = tmp_path / "secret.txt"
    path.write_text(marker, encoding="utf-8")
    return path, marker


def _hostile_files() -> list[Path]:
    return sorted(p for p in HOSTILE_DIR.iterdir() if p.name != "README.md")


@requires_poppler
@pytest.mark.parametrize("source", _hostile_files(), ids=lambda p: p.name)
def test_hostile_text_is_printed_not_fetched(
    engine: str, source: Path, tmp_path: Path, spy_fetcher: list[str], secret_file: tuple[Path, str]
) -> None:
    secret, marker = secret_file
    text = source.read_bytes().decode("utf-8", errors="replace")
    lures = (
        f'<img src="file://{secret}"> <link rel="stylesheet" href="file://{secret}"> '
        f'<style>@import url("file://{secret}");</style> '
        '<a href="javascript:alert(1)">x</a> http://169.254.169.254/latest/meta-data/'
    )
    report = sample_report()
    report.sections[1].paragraphs.append(
        Paragraph.from_sentences([Sentence(text=text, citations=[2]),
                                  Sentence(text=lures, citations=[1])])
    )
    report.figures[0].caption = text[:300]
    report.references[2].title = lures
    html = render_html(report)
    target = tmp_path / "report.pdf"
    if engine == "chromium":  # the kept browser is started before the audit
        render_pdf("<p>warm-up</p>", engine=engine)
    with io_audit(this_thread=engine == "weasyprint") as events:  # WeasyPrint renders in this thread
        write_pdf(html, target, strict=True, engine=engine)

    # Nothing was fetched or read: only the chart's data: URI, no file, no socket.
    # (Chromium: any other request would have failed the render, see
    # test_render_with_a_resource_fails_loudly.)
    if engine == "weasyprint":
        assert spy_fetcher and all(url.startswith("data:") for url in spy_fetcher)
    assert not [e for e, _ in events if e.startswith(("socket", "urllib", "subprocess", "os."))]
    opened = [str(args[0]) for event, args in events if event == "open"]
    assert not [p for p in opened if p.startswith(("/etc", "/proc")) or "secret" in p]

    extracted = pdf_text(target)
    assert marker not in extracted and marker not in html
    hostname = Path("/etc/hostname")
    if hostname.is_file() and (name := hostname.read_text().strip()):
        assert name not in extracted.split()
    visible = squash(extracted)
    assert squash(f'<img src="file://{secret}">') in visible
    assert squash('<style>@import url("file://') in visible
    assert squash("http://169.254.169.254/latest/meta-data/") in visible
    for needle in ("<script>", 'onerror="fetch(', "file:///etc/passwd", "@import"):
        if needle in text:
            assert squash(needle) in visible, f"{needle!r} is not shown as text"


# ---- emoji, CJK and Arabic reports ------------------------------------------------------


@requires_poppler
def test_emoji_render_without_taking_over_digits(engine: str, tmp_path: Path) -> None:
    report = sample_report()
    report.sections[0].paragraphs[0].sentences[0].text = "Solar ☀️ and wind 🌬️ grew 12% in 2023 🎉."
    path = write_pdf(render_html(report), tmp_path / "emoji.pdf", strict=True, engine=engine)
    fonts = pdf_fonts(path)
    names = font_names(fonts).split()
    emoji = "Type3" if engine == "chromium" else "Emoji"  # Skia: colour glyphs as Type 3
    assert any(emoji in name for name in names), names  # fontconfig's fallback found it
    assert all(font["emb"] == "yes" for font in fonts)
    text = pdf_text(path)
    assert "12% in 2023" in text and "🎉" in text


#: (lang, title, sentence, words the labels must print, font that must be used)
SCRIPT_REPORTS = [
    ("zh", "北欧国家的可再生电力", "挪威几乎所有的电力都来自水力发电。", ["目录", "参考文献"],
     "Noto-Sans-CJK-SC"),
    ("ar", "الكهرباء المتجددة في بلدان الشمال", "تنتج النرويج كل كهربائها تقريبًا من الطاقة الكهرومائية.",
     ["المحتويات", "المراجع"], "Noto-Sans-Arabic"),
]


@requires_poppler
@pytest.mark.parametrize(("lang", "title", "sentence", "words", "font"), SCRIPT_REPORTS,
                         ids=[r[0] for r in SCRIPT_REPORTS])
def test_report_in_another_script(
    engine: str, tmp_path: Path, lang: str, title: str, sentence: str, words: list[str], font: str
) -> None:
    report = sample_report(lang=lang, title=title)
    report.sections[1].paragraphs[0].sentences[1].text = sentence
    path = write_pdf(render_html(report), tmp_path / f"{lang}.pdf", strict=True, engine=engine)
    assert PdfReader(path).trailer["/Root"]["/Lang"] == lang
    assert pdf_info(path)["Title"] == title
    # Chromium's text layer is in content order (-raw); poppler's layout
    # analysis moves a wrapped CJK line's halves apart.
    text = unicodedata.normalize("NFC", pdf_text(path, *(["-raw"] if engine == "chromium" else [])))
    # Words as written (a line of mixed Arabic and English text is reordered for
    # display, so whole sentences do not come back in logical order).
    for word in sentence.rstrip("。.").split():
        if engine == "chromium" and any(unicodedata.category(c) == "Mn" for c in word):
            # Skia maps a ligature with a combining mark (بًا) to its text out of
            # order: drawn right, extracted wrong (README, "Performance").
            continue
        assert squash(word) in squash(text), word
    for word in words:
        assert word in text
    pages = int(pdf_info(path)["Pages"])
    last_line = pdf_text(path, "-f", "1", "-l", "1").strip().splitlines()[-1]
    if lang == "zh":
        assert squash(last_line) == squash(f"第 1 页，共 {pages} 页")
    else:  # poppler extracts the right-to-left footer in visual order, spaced its way
        assert sorted(squash(last_line)) == sorted(squash(f"صفحة 1 من {pages}"))
    fonts = pdf_fonts(path)
    wanted = "Type3" if engine == "chromium" and "CJK" in font else font  # Skia: CFF as Type 3
    assert wanted in font_names(fonts)
    assert all(f["emb"] == "yes" and f["uni"] == "yes" for f in fonts)


# ---- bookmarks, appendix, size ---------------------------------------------------------


def test_bookmarks_include_tables_sections_and_appendix(engine: str, tmp_path: Path) -> None:
    from reportgen.render import build_appendix

    from factories import sample_blueprint

    html = render_html(sample_report(), appendix=build_appendix(sample_blueprint()))
    path = write_pdf(html, tmp_path / "a.pdf", strict=True, engine=engine)
    titles = outline_titles(path)
    assert titles[1][-1] == "Appendix: how this report was made"


@requires_poppler
def test_forty_sections_and_fifteen_charts(engine: str, tmp_path: Path) -> None:
    """A big report: every section bookmarked and in the TOC, every chart on a page."""
    from reportgen.report import Figure

    from factories import sample_svg

    report = sample_report(limitations=[])
    sections, figures = [], []
    for n in range(1, 41):
        sentences = [Sentence(text=f"Section {n} sentence {k} about renewable power.",
                              citations=[1 + (n + k) % 3]) for k in range(6)]
        figure_ids = []
        if n % 3 == 1 and len(figures) < 15:
            number = len(figures) + 1
            figures.append(Figure(id=f"fig-{number}", number=number, section_id=f"s{n}",
                                  caption=f"Chart {number}", svg=sample_svg({"A": n, "B": 2 * n}),
                                  citations=[2]))
            figure_ids.append(f"fig-{number}")
        sections.append(Section(id=f"s{n}", title=f"Theme number {n}",
                                paragraphs=[Paragraph.from_sentences(sentences)] * 2,
                                figure_ids=figure_ids))
    report.sections, report.figures = sections, figures
    assert len(figures) == 14 or len(figures) == 15
    while len(report.figures) < 15:
        number = len(report.figures) + 1
        report.figures.append(Figure(id=f"fig-{number}", number=number, section_id="s40",
                                     caption=f"Chart {number}", svg=sample_svg()))
    rendered = render_pdf(render_html(report), strict=True, timeout_s=120, engine=engine)
    path = tmp_path / "big.pdf"
    path.write_bytes(rendered.data)
    pages = int(pdf_info(path)["Pages"])
    assert 15 <= pages <= 80
    children = outline_titles(path)[1]
    assert [t for t in children if t.startswith("Theme number")] == [
        f"Theme number {n}" for n in range(1, 41)]
    text = pdf_text(path)
    for number in range(1, 16):
        assert f"Figure {number}. Chart {number}" in text
    assert f"page {pages} of {pages}" in text


# ---- the time limit (worker process) ------------------------------------------------------


def test_worker_render_matches_in_process(tmp_path: Path) -> None:
    html = render_html(sample_report())
    local = render_pdf(html, strict=True)
    remote = render_pdf(html, strict=True, timeout_s=60)
    assert remote.data.startswith(b"%PDF-") and remote.warnings == local.warnings == ()
    assert len(PdfReader(__import__("io").BytesIO(remote.data)).pages) == len(
        PdfReader(__import__("io").BytesIO(local.data)).pages)


def test_worker_reports_warnings_and_forbidden_urls(tmp_path: Path) -> None:
    html = '<html><body><p style="color: not-a-colour">x</p></body></html>'
    with pytest.raises(RenderError, match=r"1 warning\(s\).*not-a-colour"):
        write_pdf(html, tmp_path / "w.pdf", strict=True, timeout_s=60)
    target = tmp_path / "f.pdf"
    with pytest.raises(ForbiddenURLError, match=re.escape(str(target))) as caught:
        write_pdf('<img src="file:///etc/passwd">', target, timeout_s=60)
    assert isinstance(caught.value.__cause__, FatalURLFetchingError)
    assert "only inline data" in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_render_past_its_time_limit_is_stopped(engine: str, tmp_path: Path) -> None:
    import time

    target = tmp_path / "report.pdf"
    target.write_bytes(b"previous good PDF")
    paragraphs = "".join(f"<p>paragraph {i} " + "word " * 60 + "</p>" for i in range(6000))
    html = f"<html><body>{paragraphs}</body></html>"
    started = time.monotonic()
    with pytest.raises(RenderError, match=re.escape(f"cannot write {target}: rendering the PDF "
                                                    "took longer than 0.5 s")):
        write_pdf(html, target, timeout_s=0.5, engine=engine)
    assert time.monotonic() - started < 5  # the worker was killed, not waited for
    assert target.read_bytes() == b"previous good PDF"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.pdf"]
    # The next render gets a fresh worker and succeeds.
    write_pdf("<p>again</p>", target, strict=True, timeout_s=60, engine=engine)
    assert target.read_bytes().startswith(b"%PDF-")
