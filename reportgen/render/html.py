"""Render a :class:`~reportgen.report.Report` to one self-contained HTML document.

The templates run in a sandbox (:mod:`reportgen.render.templates`), because
users may supply their own (DESIGN.md, "Boundaries that must hold"). Every
piece of report text comes from web pages, user files or a model, so it is
*data*: it reaches the page only through ``{{ ... }}``, which escapes it.
Nothing in the output refers to an external resource: the stylesheets are
inlined in ``<style>`` and charts are ``data:`` URIs.
"""

from __future__ import annotations

import base64
import re
import unicodedata
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote, urlsplit

import jinja2
from jinja2 import pass_context
from markupsafe import Markup

from reportgen.errors import RenderError
from reportgen.render.appendix import AppendixView
from reportgen.render.labels import counted, limitations_legend, limitations_notice, render_labels
from reportgen.render.layout import place_figures
from reportgen.render.sanitize import sanitize_markup
from reportgen.render.tables import TableView, table_views
from reportgen.render.templates import (
    BUILTIN_PREFIX,
    BUILTIN_TEMPLATE_DIR,
    Budget,
    TemplateEnvironment,
    check_template_name,
    make_environment,
    render_template,
)
from reportgen.report import Figure, Reference, Report

__all__ = [
    "BUILTIN_PREFIX",
    "BUILTIN_TEMPLATE_DIR",
    "RTL_LANGUAGES",
    "STYLESHEETS",
    "css_string",
    "is_web_url",
    "isolate",
    "page_counter",
    "readable_url",
    "render_html",
    "report_environment",
    "sentence_gap",
    "site_name",
    "svg_data_uri",
    "text_direction",
]

#: Stylesheets inlined in order: the shared layout, then ``<theme>.css``
#: (when one exists), then ``custom.css`` (empty as shipped: the place for a
#: user's colours and fonts). Each is looked up in the user's folder first.
STYLESHEETS = ("base.css", "{theme}.css", "custom.css")

#: Primary language subtags written right to left (CLDR ``characterOrder``):
#: Arabic, Persian, Hebrew (and its legacy code ``iw``), Urdu, Pashto, Sindhi,
#: Uyghur, Yiddish, Dhivehi and Central Kurdish.
RTL_LANGUAGES: frozenset[str] = frozenset(
    {"ar", "ckb", "dv", "fa", "he", "iw", "ps", "sd", "ug", "ur", "yi"}
)

# C0 controls except TAB, LF and CR, DEL, C1 controls and lone surrogates: not
# allowed in HTML text (WHATWG "control" code points) and useless in a report.
# Also the bidi embeddings and overrides U+202A..U+202E: in source text they
# can make the text that follows display in another order than it is read
# ("Trojan Source", CVE-2021-42574).
_CONTROL_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\ud800-\udfff]")
_WEB_SCHEMES = frozenset({"http", "https"})
_LANG_TAG = re.compile(r"^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$")

#: Languages written without spaces between sentences.
_NO_SENTENCE_SPACE = frozenset({"zh", "ja"})

#: U+2068 FIRST STRONG ISOLATE ... U+2069 POP DIRECTIONAL ISOLATE (UAX #9).
_FSI, _PDI = "\u2068", "\u2069"


def text_direction(lang: str) -> Literal["ltr", "rtl"]:
    """Return the writing direction of a BCP-47 language tag.

    Args:
        lang: A language tag such as ``"ar"``, ``"fa-IR"`` or ``"en"``.

    Returns:
        ``"rtl"`` when the primary subtag is in :data:`RTL_LANGUAGES`, else ``"ltr"``.
    """
    return "rtl" if _primary_subtag(lang) in RTL_LANGUAGES else "ltr"


def is_web_url(url: object) -> bool:
    """Tell whether ``url`` may become a clickable link in a report.

    Only absolute ``http:`` / ``https:`` URLs with a host qualify. ``file://``
    URIs (the user's own documents), ``javascript:``, ``data:`` and relative
    references are shown as text only.

    Args:
        url: The candidate URL (anything else than a string is refused).

    Returns:
        Whether the template should wrap it in ``<a href>``.
    """
    if not isinstance(url, str) or url != url.strip() or _CONTROL_CHARS.search(url):
        return False
    if any(ch.isspace() for ch in url):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme.lower() in _WEB_SCHEMES and bool(parts.hostname)


def isolate(text: object, rtl: bool = True) -> str:
    """Keep ``text`` in its own direction inside right-to-left text.

    A date ``2024-01-15``, a URL or an id inside Arabic or Hebrew text is
    otherwise reordered by the Unicode bidi algorithm (the digits become
    Arabic numbers and the hyphens neutral: ``15-01-2024``). Wrapping it in
    FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE (UAX #9, section 2.7)
    keeps it as written. Control characters are used rather than CSS
    ``unicode-bidi: isolate``, which WeasyPrint does not support; they are
    invisible and work in the PDF, the HTML, the Markdown and the DOCX.

    Args:
        text: The text to isolate.
        rtl: Whether the surrounding document is right to left; nothing is
            added otherwise.

    Returns:
        The text, isolated when ``rtl``.
    """
    value = "" if text is None else str(text)
    return f"{_FSI}{value}{_PDI}" if rtl and value else value


@pass_context
def _isolate_filter(context: Any, text: object) -> str:
    return isolate(text, context.get("dir") == "rtl")


def readable_url(url: object) -> str:
    """A reference URL as a reader reads it: percent-escapes decoded ("…/wiki/Révolution_industrielle" for
    "…/wiki/R%C3%A9volution_industrielle"). The link itself keeps the URL as given.

    Args:
        url: The reference URL.

    Returns:
        The decoded URL; the URL as given when decoding it would show no valid UTF-8, a space, or a
        control or format character (a hostile "%E2%80%AE" stays escaped rather than reversing the line).
    """
    text = "" if url is None else str(url)
    try:
        decoded = unquote(text, errors="strict")
    except UnicodeDecodeError:
        return text
    if any(ch.isspace() or unicodedata.category(ch)[0] in "CZ" for ch in decoded):
        return text
    return decoded


def site_name(url: object) -> str:
    """The site a reference comes from, for the reference list.

    Args:
        url: The reference URL.

    Returns:
        The host of a web URL without ``www.`` (``"en.wikipedia.org"``),
        ``"local file"`` for a ``file:`` URI, else ``""``.
    """
    if is_web_url(url):
        host = urlsplit(str(url)).hostname or ""
        return host.removeprefix("www.")
    if isinstance(url, str) and url.lower().startswith("file:"):
        return "local file"
    return ""


def render_html(
    report: Report,
    template_dir: Path | None = None,
    *,
    template: str = "report",
    appendix: AppendixView | None = None,
    timeout_s: float | None = None,
) -> str:
    """Render ``report`` to a self-contained HTML document.

    Args:
        report: The finished report. Every citation number must name one of
            its references and every figure id one of its figures.
        template_dir: A folder of user templates. Files found there override the
            built-in ones of the same name (``report.html.j2``, ``base.css``,
            ``custom.css``, ...); missing files fall back to
            :data:`BUILTIN_TEMPLATE_DIR`. A user template may
            ``{% extends "builtin/report.html.j2" %}`` and override blocks.
        template: The theme: ``"report"`` (full report), ``"brief"``, or a
            ``<name>.html.j2`` of ``template_dir``. A name, never a path.
        appendix: The "how this report was made" drawings; ``None`` leaves the
            appendix out.
        timeout_s: Deadline for running the template (``None``: none).

    Returns:
        The HTML text (UTF-8 when written; ``<meta charset="utf-8">`` says so).

    Raises:
        RenderError: ``template_dir`` is not a folder; ``template`` is not a
            plain name or not installed; the report has a dangling citation
            or figure id; a template is missing, invalid, uses an undefined
            name, breaks a sandbox rule or runs out of time (the message
            names the template file and line); or a stylesheet tries to close
            its ``<style>`` element.
    """
    check_template_name(template)
    references, figures_by_section, tables = _index(report)
    env = report_environment(template_dir, timeout_s)
    page = f"{template}.html.j2"
    try:
        env.get_template(page)
    except jinja2.TemplateNotFound:
        raise RenderError(
            f"no template named {template!r}: {page} is neither in the template folder "
            "nor built in"
        ) from None
    except jinja2.TemplateError:
        pass  # reported with file and line by render_template below
    tables_by_section: dict[str, list[TableView]] = {s.id: [] for s in report.sections}
    for table in tables:
        tables_by_section[table.section_id].append(table)
    lang = _lang_attribute(report.lang)
    context: dict[str, Any] = {
        "report": report,
        "lang": lang,
        "dir": text_direction(lang),
        "sentence_gap": sentence_gap(lang),
        "labels": (labels := render_labels(_primary_subtag(lang))),
        "limitations_notice": limitations_notice(report, labels),
        "limitations_legend": limitations_legend(report, labels),
        "theme": template,
        "stylesheet": _stylesheets(env, template),
        "figures_by_section": figures_by_section,
        "tables_by_section": tables_by_section,
        "tables": tables,
        "references_by_id": references,
        "appendix": appendix,
    }
    return render_template(env, page, context)


def report_environment(template_dir: Path | None, timeout_s: float | None = None) -> TemplateEnvironment:
    """The sandboxed environment the report templates render in, filters and tests included.

    Args:
        template_dir: The user's template folder (files there override the built-ins).
        timeout_s: Deadline of one render, in seconds (``None``: none).

    Raises:
        RenderError: ``template_dir`` is not a folder.
    """
    env = make_environment(template_dir, Budget(timeout_s))
    _register(env)
    return env


def _register(env: jinja2.Environment) -> None:
    env.filters["svg_data_uri"] = svg_data_uri
    env.filters["css_string"] = css_string
    env.filters["page_counter"] = page_counter
    env.filters["date"] = _date
    env.filters["w3c_datetime"] = _w3c_datetime
    env.filters["site"] = site_name
    env.filters["readable_url"] = readable_url
    env.filters["isolate"] = _isolate_filter
    env.filters["sanitize"] = sanitize_markup
    env.filters["safe"] = sanitize_markup  # report text never becomes live markup
    env.tests["web_url"] = is_web_url
    env.globals["counted"] = counted  # "1 faite", "3 faites": the one rule the other renderers follow
    env.finalize = _finalize


def _stylesheets(env: jinja2.Environment, theme: str) -> Markup:
    """Read the stylesheets through the loader and join them, ready to inline.

    The CSS is inserted verbatim (not run as a template), so users may write any
    CSS; only a ``</style`` sequence, which would end the element and let the
    rest be parsed as markup, is refused.
    """
    assert env.loader is not None
    parts = []
    for pattern in STYLESHEETS:
        name = pattern.format(theme=theme)
        try:
            source, filename, _ = env.loader.get_source(env, name)
        except jinja2.TemplateNotFound:
            if pattern == "{theme}.css":
                continue  # a theme need not have its own stylesheet
            raise RenderError(f"stylesheet {name} not found in the template folder or the built-ins") from None
        if "</style" in source.lower():
            raise RenderError(
                f"stylesheet {filename} contains '</style', which would end the <style> element"
            )
        parts.append(f"/* ---- {name} ---- */\n{source.strip()}\n")
    return Markup("\n".join(parts))


def _index(
    report: Report,
) -> tuple[dict[int, Reference], dict[str, list[Figure]], list[TableView]]:
    """Check the report's internal links, group figures by section, normalise tables.

    A figure is shown where a section lists it in ``figure_ids``; a figure no
    section lists appears at the end of the section named by its
    ``section_id`` (or of the last section, when that id is unknown), so no
    drawn chart is silently dropped. Tables follow the same rule by their
    ``section_id``.

    Raises:
        RenderError: A cited number names no reference, a section lists an
            unknown figure id, or two anchors share an id.
    """
    references = {ref.id: ref for ref in report.references}
    cited: set[int] = set()
    for section in report.sections:
        for paragraph in section.paragraphs:
            cited.update(paragraph.citations)
            for sentence in paragraph.sentences:
                cited.update(sentence.citations)
    for figure in report.figures:
        cited.update(figure.citations)
    for table in report.tables:
        cited.update(table.citations)
    if dangling := sorted(cited - references.keys()):
        raise RenderError(f"report {report.id}: citations {dangling} name no reference")

    by_section = place_figures(report, strict=True)

    fixed = ["contents", "contents-title", "limitations", "references", "appendix"]
    fixed += [f"ref-{n}" for n in references]
    anchors = [s.id for s in report.sections] + [f.id for f in report.figures] + fixed
    if len(anchors) != len(set(anchors)):
        duplicates = sorted({a for a in anchors if anchors.count(a) > 1})
        raise RenderError(f"report {report.id}: anchor ids used twice: {duplicates}")
    tables = table_views(report, [s.id for s in report.sections], frozenset(fixed))
    return references, by_section, tables


def sentence_gap(lang: str) -> str:
    """What goes between two sentences: ``""`` in Chinese and Japanese, else a space."""
    return "" if _primary_subtag(lang) in _NO_SENTENCE_SPACE else " "


def _primary_subtag(lang: str) -> str:
    """``"fa-IR"`` → ``"fa"``; tolerant of ``_`` separators and case."""
    return lang.strip().replace("_", "-").split("-", 1)[0].lower()


def _lang_attribute(lang: str) -> str:
    """The report language as written in ``<html lang>``; ``und`` if unusable.

    ``lang`` is printed into an attribute and drives font selection and
    direction, so only a well-formed tag passes (``zh-Hant``, ``fa_IR`` →
    ``fa-IR``); anything else becomes BCP 47's "undetermined".
    """
    cleaned = str(lang).strip()
    if not _LANG_TAG.match(cleaned):
        return "und"
    return cleaned.replace("_", "-")


def css_string(text: str) -> Markup:
    """Quote ``text`` as a CSS string literal, safe inside a ``<style>`` element.

    Letters, digits and spaces are kept; every other character becomes a CSS
    hex escape (``\\22 `` for ``"``), so the value can neither end the string
    nor the ``<style>`` element (CSS Syntax Level 3, section 4.3.7).

    Args:
        text: Plain text, e.g. a localised label.

    Returns:
        The quoted literal, marked safe for the (HTML) autoescaper, which
        would otherwise turn it into entities that CSS does not decode.
    """
    out = []
    for ch in _CONTROL_CHARS.sub("", str(text)):
        out.append(ch if ch.isalnum() or ch == " " else f"\\{ord(ch):x} ")
    return Markup('"' + "".join(out) + '"')


def page_counter(pattern: str) -> Markup:
    """Turn a footer pattern into a CSS ``content`` value.

    Args:
        pattern: Localised text with ``{page}`` and ``{pages}`` placeholders,
            e.g. ``"page {page} of {pages}"`` or ``"第 {page} 页，共 {pages} 页"``.

    Returns:
        ``"page " counter(page) " of " counter(pages)``: the text parts as
        :func:`css_string` literals, the placeholders as page counters.
    """
    parts = []
    for piece in re.split(r"(\{pages?\})", str(pattern)):
        if piece == "{page}":
            parts.append("counter(page)")
        elif piece == "{pages}":
            parts.append("counter(pages)")
        elif piece:
            parts.append(str(css_string(piece)))
    return Markup(" ".join(parts) or '""')


def svg_data_uri(svg: str) -> str:
    """Encode an SVG document as a ``data:image/svg+xml;base64,...`` URI.

    Args:
        svg: A standalone SVG document (UTF-8 text).

    Returns:
        The URI, for ``<img src>``. An SVG loaded through ``<img>`` runs no
        script in browsers, and the PDF renderer fetches nothing it names.
    """
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def _finalize(value: Any) -> Any:
    """Jinja ``finalize`` hook: drop control characters from every printed string."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return _CONTROL_CHARS.sub("", value)
    return value


def _as_utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:  # the model stores UTC; a naive value is taken as UTC
        return moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def _date(moment: datetime) -> str:
    """``2024-01-15``: ISO 8601 calendar date, unambiguous in every language."""
    return _as_utc(moment).strftime("%Y-%m-%d")


def _w3c_datetime(moment: datetime) -> str:
    """``2024-01-15T09:30:00Z``: the W3C profile of ISO 8601 WeasyPrint reads from
    ``<meta name="dcterms.created">`` (https://www.w3.org/TR/NOTE-datetime)."""
    return _as_utc(moment).strftime("%Y-%m-%dT%H:%M:%SZ")
