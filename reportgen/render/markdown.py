"""Export a report as Markdown: ``report.md`` plus its charts as SVG files beside it.

The Markdown is CommonMark with two GitHub Flavored Markdown extensions that
GitHub, GitLab, Pandoc and most editors read: pipe tables and footnotes.
Citations become footnote references (``[^2]``), each defined once under
References (``[^2]: Title. site. <https://...>. Accessed 2024-01-15.``);
charts are image links to ``figures/<id>.svg``.

Report text is data here too. Everything that comes from a source is
escaped so that no Markdown or HTML syntax in it takes effect: a source's
``![x](file:///etc/passwd)`` or ``<script>`` is shown as those characters,
never becomes an image or an element. Newlines inside a text are folded
into spaces, so a source cannot start a heading, list or code block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportgen.render.appendix import AppendixView
from reportgen.render.html import (
    _date,
    _lang_attribute,
    _primary_subtag,
    is_web_url,
    isolate,
    readable_url,
    sentence_gap,
    site_name,
    text_direction,
)
from reportgen.render.labels import counted, limitations_legend, limitations_notice, render_labels
from reportgen.render.layout import place_figures, place_tables
from reportgen.render.svg import check_svg
from reportgen.render.tables import TableView
from reportgen.report import Report

__all__ = ["FIGURE_DIR", "MarkdownExport", "escape_markdown", "render_markdown"]

#: Folder, beside ``report.md``, that holds the chart files.
FIGURE_DIR = "figures"

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
# Characters with a meaning somewhere in CommonMark/GFM inline syntax: all
# are backslash-escapable (CommonMark 0.31, section 2.4, "any ASCII
# punctuation character may be backslash-escaped").
_INLINE_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~$^])")
_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
_SAFE_FILE = re.compile(r"[^A-Za-z0-9_-]+")


@dataclass(frozen=True, slots=True)
class MarkdownExport:
    """What :func:`render_markdown` produces.

    Attributes:
        text: The content of ``report.md``.
        files: Relative path (``figures/fig-1.svg``) → SVG text, for every
            image the Markdown links to.
    """

    text: str
    files: dict[str, str]


def escape_markdown(text: str) -> str:
    """Escape plain text so that it shows as written in any CommonMark renderer.

    Args:
        text: Plain text from a source, a model or the report.

    Returns:
        One line: control characters dropped, line breaks folded into spaces,
        every punctuation character with inline meaning backslash-escaped,
        ``&`` of entity-like sequences written as ``&amp;``, and a leading
        ``-``, ``=``, digit run + ``.``/``)`` or ``>`` made literal, so the text
        cannot become markup or start a block.
    """
    line = " ".join(_CONTROL.sub("", str(text)).split())
    line = _ENTITY.sub("&amp;", line)
    line = _INLINE_SPECIAL.sub(r"\\\1", line)
    # Block starts: list markers, setext underlines, ordered lists.
    line = re.sub(r"^([-=])", r"\\\1", line)
    line = re.sub(r"^(\d{1,9})([.)])", r"\1\\\2", line)
    return line


def _file_name(identifier: str, fallback: str, taken: set[str]) -> str:
    stem = _SAFE_FILE.sub("-", identifier).strip("-")[:60] or fallback
    name = f"{stem}.svg"
    counter = 2
    while name in taken:
        name = f"{stem}-{counter}.svg"
        counter += 1
    taken.add(name)
    return name


def render_markdown(report: Report, *, appendix: AppendixView | None = None) -> MarkdownExport:
    """Write the report as Markdown with footnote references.

    Args:
        report: The finished report (its links are checked by
            :func:`~reportgen.render.render_html`, which runs first).
        appendix: The blueprint drawings, or ``None`` to leave the appendix out.

    Returns:
        The Markdown text and the SVG files it links to.

    Raises:
        RenderError: A chart's SVG names a resource outside itself.
    """
    lang = _lang_attribute(report.lang)
    labels = render_labels(_primary_subtag(lang))
    rtl = text_direction(lang) == "rtl"
    gap = sentence_gap(lang)
    refs = {ref.id: ref for ref in report.references}
    out: list[str] = []
    files: dict[str, str] = {}
    taken: set[str] = set()

    def cite(numbers: list[int] | tuple[int, ...]) -> str:
        return "".join(f"[^{n}]" for n in numbers if n in refs)

    out += [f"# {escape_markdown(report.title)}", ""]
    meta = isolate(_date(report.created), rtl)
    if report.corpora:
        meta += f" · {labels['sources']}: " + labels["list_separator"].join(
            escape_markdown(c) for c in report.corpora)
    out += [meta, ""]
    note = report.mode_note or f"Written in {report.mode} mode."
    out += [f"> {escape_markdown(note)}", ""]
    notice = limitations_notice(report, labels)
    if notice:
        out += [f"> **{escape_markdown(labels['limitations'])}:** {escape_markdown(notice)}.", ""]

    by_section = place_figures(report)
    tables = place_tables(report)

    for section in report.sections:
        out += [f"## {escape_markdown(section.title)}", ""]
        for paragraph in section.paragraphs:
            if paragraph.sentences:
                parts = [escape_markdown(s.text) + cite(s.citations) for s in paragraph.sentences]
                out += [gap.join(parts), ""]
            else:
                out += [escape_markdown(paragraph.text) + cite(paragraph.citations), ""]
        for figure in by_section[section.id]:
            name = _file_name(figure.id, f"figure-{figure.number}", taken)
            check_svg(figure.svg, f"figure {figure.id}")
            files[f"{FIGURE_DIR}/{name}"] = figure.svg
            caption = f"{labels['figure']} {figure.number}. {figure.caption}"
            out += [f"![{escape_markdown(caption)}]({FIGURE_DIR}/{name})", ""]
            line = f"*{escape_markdown(caption)}*"
            if figure.citations:
                line += f" {escape_markdown(labels['source'])}: " + cite(figure.citations)
            out += [line, ""]
        for view in tables[section.id]:
            out += _table(view, labels, cite)

    if report.limitations:
        out += [f"## {escape_markdown(labels['limitations'])}", ""]
        legend = limitations_legend(report, labels)
        out += [escape_markdown(legend), ""] if legend else []
        for item in report.limitations:
            head = ""
            if item.task_id:
                head = "**" + ", ".join(isolate(escape_markdown(task), rtl) for task in item.task_ids) + "**"
                if item.status_code is not None:
                    head += f" ({item.status_code})"
                head += ": "
            out.append(f"- {head}{escape_markdown(item.reason)}")
        out.append("")

    if appendix is not None:
        out += [f"## {escape_markdown(labels['appendix'])}", ""]
        counts = labels["list_separator"].join(f"{n} {counted(labels, name, n)}" for name, n in appendix.counts)
        out += [escape_markdown(labels["appendix_intro"].format(total=appendix.total, counts=counts)), ""]
        drawings = [("blueprint", appendix.graph_svg, labels["appendix_graph"], "")]
        if appendix.timeline_svg:
            not_run = counted(labels, "appendix_not_run", appendix.not_run)
            extra = not_run.format(n=appendix.not_run) if appendix.not_run else ""
            drawings.append(("timeline", appendix.timeline_svg, labels["appendix_timeline"], extra))
        for index, (stem, svg, caption, extra) in enumerate(drawings, start=1):
            name = _file_name(f"appendix-{stem}", stem, taken)
            files[f"{FIGURE_DIR}/{name}"] = svg
            text = f"{labels['appendix_figure']}{index}. {caption}"
            out += [f"![{escape_markdown(text)}]({FIGURE_DIR}/{name})", "",
                    f"*{escape_markdown(text)}*" + (f" {escape_markdown(extra)}" if extra else ""), ""]

    if report.references:
        out += [f"## {escape_markdown(labels['references'])}", ""]
        for ref in report.references:
            out.append(f"[^{ref.id}]: {_reference(ref, labels, rtl)}")
        out.append("")
    return MarkdownExport(text="\n".join(out).rstrip("\n") + "\n", files=files)


def _reference(ref, labels: dict[str, str], rtl: bool) -> str:
    parts = [escape_markdown(ref.title) + "."]
    site = site_name(ref.url)
    if site:
        parts.append(isolate(escape_markdown(site), rtl) + ".")
    readable = readable_url(ref.url)
    if is_web_url(ref.url) and not re.search(r"[<>\s]", ref.url) and readable != ref.url:
        parts.append(isolate(f"[{escape_markdown(readable)}](<{ref.url}>)", rtl) + ".")
    elif is_web_url(ref.url) and not re.search(r"[<>\s]", ref.url):
        parts.append(isolate(f"<{ref.url}>", rtl) + ".")
    else:
        parts.append(isolate(escape_markdown(ref.url), rtl) + ".")
    accessed = labels["accessed"]
    parts.append(f"{escape_markdown(accessed[:1].upper() + accessed[1:])} "
                 f"{isolate(_date(ref.accessed), rtl)} {isolate(f'({escape_markdown(ref.corpus)})', rtl)}.")
    return " ".join(parts)


def _table(view: TableView, labels: dict[str, str], cite) -> list[str]:
    caption = f"**{escape_markdown(labels['table'])} {view.number}.** {escape_markdown(view.caption)}"
    if view.citations:
        caption += f" {escape_markdown(labels['source'])}: " + cite(view.citations)
    lines = [caption, ""]
    if view.columns == 0:
        return lines + [f"*{escape_markdown(labels['empty_table'])}*", ""]
    # A pipe table needs a header row; a table without one gets empty headings.
    header = view.header or ("",) * view.columns
    lines.append("| " + " | ".join(escape_markdown(c) or " " for c in header) + " |")
    lines.append("|" + "|".join(" --- " for _ in range(view.columns)) + "|")
    for row in view.rows:
        lines.append("| " + " | ".join(escape_markdown(c) for c in row) + " |")
    return lines + [""]
