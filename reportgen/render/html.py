"""Render a :class:`~reportgen.report.Report` to one self-contained HTML document.

The templates run in Jinja's :class:`~jinja2.sandbox.ImmutableSandboxedEnvironment`
with autoescape on and :class:`~jinja2.StrictUndefined`, because users may
supply their own (DESIGN.md, "Boundaries that must hold"). Every piece of report
text comes from web pages, user files or a model, so it is *data*: it reaches
the page only through ``{{ ... }}``, which escapes it. Nothing in the output
refers to an external resource: the stylesheet is inlined in ``<style>`` and
charts are ``data:`` URIs.
"""

from __future__ import annotations

import base64
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

from reportgen import i18n
from reportgen.errors import RenderError
from reportgen.report import Figure, Reference, Report

__all__ = [
    "BUILTIN_PREFIX",
    "BUILTIN_TEMPLATE_DIR",
    "RTL_LANGUAGES",
    "STYLESHEET_NAME",
    "TEMPLATE_NAME",
    "css_string",
    "is_web_url",
    "render_html",
    "svg_data_uri",
    "text_direction",
]

#: The built-in templates: ``templates/`` at the repository root (the package
#: is installed editable from the repository). Users copy and customise it.
BUILTIN_TEMPLATE_DIR: Path = Path(__file__).resolve().parents[2] / "templates"

#: The page template, looked up in the user's folder first.
TEMPLATE_NAME = "report.html.j2"

#: The stylesheet, read through the same loader and inlined verbatim.
STYLESHEET_NAME = "report.css"

#: Template names under this prefix always resolve to the built-in files, e.g.
#: ``{% extends "builtin/report.html.j2" %}`` in a user's ``report.html.j2``.
BUILTIN_PREFIX = "builtin"

#: Primary language subtags written right to left (CLDR ``characterOrder``):
#: Arabic, Persian, Hebrew (and its legacy code ``iw``), Urdu, Pashto, Sindhi,
#: Uyghur, Yiddish, Dhivehi and Central Kurdish.
RTL_LANGUAGES: frozenset[str] = frozenset(
    {"ar", "ckb", "dv", "fa", "he", "iw", "ps", "sd", "ug", "ur", "yi"}
)

# C0 controls except TAB, LF and CR, DEL, C1 controls and lone surrogates: not
# allowed in HTML text (WHATWG "control" code points) and useless in a report.
_CONTROL_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_WEB_SCHEMES = frozenset({"http", "https"})


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


def render_html(report: Report, template_dir: Path | None = None) -> str:
    """Render ``report`` to a self-contained HTML document.

    Args:
        report: The finished report. Every citation number must name one of
            its references and every figure id one of its figures.
        template_dir: A folder of user templates. Files found there override the
            built-in ones of the same name (``report.html.j2``, ``report.css``);
            missing files fall back to :data:`BUILTIN_TEMPLATE_DIR`. A user
            ``report.html.j2`` may ``{% extends "builtin/report.html.j2" %}``
            and override single blocks.

    Returns:
        The HTML text (UTF-8 when written; ``<meta charset="utf-8">`` says so).

    Raises:
        RenderError: ``template_dir`` is not a folder; the report has a
            dangling citation or figure id; a template is missing, invalid,
            uses an undefined name or breaks a sandbox rule; or the stylesheet
            tries to close its ``<style>`` element.
    """
    references, figures_by_section = _index(report)
    env = _environment(template_dir)
    try:
        template = env.get_template(TEMPLATE_NAME)
        stylesheet = _stylesheet(env)
        return template.render(
            report=report,
            dir=text_direction(report.lang),
            labels=_labels(report.lang),
            stylesheet=stylesheet,
            figures_by_section=figures_by_section,
            references_by_id=references,
        )
    except jinja2.TemplateError as exc:
        where = f" ({exc.filename}:{exc.lineno})" if getattr(exc, "lineno", None) else ""
        raise RenderError(
            f"cannot render HTML with template {TEMPLATE_NAME!r}{where}: "
            f"{type(exc).__name__}: {exc}"
        ) from exc


def _environment(template_dir: Path | None) -> ImmutableSandboxedEnvironment:
    search_path = [BUILTIN_TEMPLATE_DIR]
    if template_dir is not None:
        template_dir = Path(template_dir)
        if not template_dir.is_dir():
            raise RenderError(f"template folder {template_dir} does not exist")
        search_path.insert(0, template_dir)
    loader = jinja2.ChoiceLoader(
        [
            jinja2.FileSystemLoader(search_path),
            # "builtin/<name>" always names the shipped file, so a user's
            # report.html.j2 can {% extends "builtin/report.html.j2" %}.
            jinja2.PrefixLoader({BUILTIN_PREFIX: jinja2.FileSystemLoader(BUILTIN_TEMPLATE_DIR)}),
        ]
    )
    env = ImmutableSandboxedEnvironment(
        loader=loader,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        finalize=_finalize,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["svg_data_uri"] = svg_data_uri
    env.filters["css_string"] = css_string
    env.filters["date"] = _date
    env.filters["w3c_datetime"] = _w3c_datetime
    env.tests["web_url"] = is_web_url
    return env


def _stylesheet(env: jinja2.Environment) -> Markup:
    """Read ``report.css`` through the loader and return it ready to inline.

    The CSS is inserted verbatim (not run as a template), so users may write any
    CSS; only a ``</style`` sequence, which would end the element and let the
    rest be parsed as markup, is refused.
    """
    assert env.loader is not None
    source, filename, _ = env.loader.get_source(env, STYLESHEET_NAME)
    if "</style" in source.lower():
        raise RenderError(
            f"stylesheet {filename} contains '</style', which would end the <style> element"
        )
    return Markup(source)


def _index(report: Report) -> tuple[dict[int, Reference], dict[str, list[Figure]]]:
    """Check the report's internal links and group figures by section.

    A figure is shown where a section lists it in ``figure_ids``; a figure no
    section lists appears at the end of the section named by its
    ``section_id`` (or of the last section, when that id is unknown), so no
    drawn chart is silently dropped.

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
    if dangling := sorted(cited - references.keys()):
        raise RenderError(f"report {report.id}: citations {dangling} name no reference")

    figures = {fig.id: fig for fig in report.figures}
    by_section: dict[str, list[Figure]] = {section.id: [] for section in report.sections}
    placed: set[str] = set()
    for section in report.sections:
        for figure_id in section.figure_ids:
            if figure_id not in figures:
                raise RenderError(
                    f"report {report.id}: section {section.id!r} lists unknown figure "
                    f"{figure_id!r}"
                )
            by_section[section.id].append(figures[figure_id])
            placed.add(figure_id)
    for figure in report.figures:
        if figure.id in placed or not report.sections:
            continue
        home = figure.section_id if figure.section_id in by_section else report.sections[-1].id
        by_section[home].append(figure)

    anchors = [s.id for s in report.sections] + [f.id for f in report.figures]
    anchors += ["contents", "contents-title", "limitations", "references"]
    anchors += [f"ref-{n}" for n in references]
    if len(anchors) != len(set(anchors)):
        duplicates = sorted({a for a in anchors if anchors.count(a) > 1})
        raise RenderError(f"report {report.id}: anchor ids used twice: {duplicates}")
    return references, by_section


def _primary_subtag(lang: str) -> str:
    """``"fa-IR"`` → ``"fa"``; tolerant of ``_`` separators and case."""
    return lang.strip().replace("_", "-").split("-", 1)[0].lower()


def _labels(lang: str) -> dict[str, str]:
    return i18n.labels(_primary_subtag(lang))


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
