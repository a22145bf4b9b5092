"""Export a report as a Word document (``report.docx``) with python-docx.

Same model, same order as the HTML: title, meta line and mode note,
sections with their citation marks, charts and tables, limitations, the
appendix and the numbered references (web URLs as hyperlinks). The page
header repeats the title and the footer says "page X of Y" (Word fields).

Charts are embedded twice, as Word 2016+ expects for vector images: the SVG
itself (the ``asvg:svgBlip`` extension, [MS-ODRAWXML] 2.3.3.2) and a PNG
fallback rendered with resvg for older readers. An SVG that names any
resource outside itself is refused (it would let a chart read a local file
into the document).

Text is set as text runs (python-docx escapes it for XML); characters XML
cannot hold (C0 controls, lone surrogates) are dropped. Language, script
fonts and right-to-left layout follow the report language.
"""

from __future__ import annotations

import io
import re

from docx import Document
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Inches, Pt, RGBColor

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
from reportgen.render.svg import svg_to_png
from reportgen.render.tables import TableView
from reportgen.report import Report

__all__ = ["render_docx"]

#: Width of charts in the document (the text block of an A4 page is ~6.3 in).
FIGURE_WIDTH_IN = 6.0

_WJ = "\u2060"
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_SVG_EXTENSION_URI = "{96DAC541-7B7A-43D3-8B79-37D633B846F1}"
_SVG_NS = "http://schemas.microsoft.com/office/drawing/2016/SVG/main"
_HEADING = RGBColor(0x12, 0x35, 0x5B)
_MUTED = RGBColor(0x6B, 0x72, 0x80)
_CJK_FONTS = {"zh": "Noto Sans CJK SC", "ja": "Noto Sans CJK JP", "ko": "Noto Sans CJK KR"}
_CS_FONTS = {"he": "Noto Sans Hebrew", "yi": "Noto Sans Hebrew", "hi": "Noto Sans Devanagari",
             "mr": "Noto Sans Devanagari", "ne": "Noto Sans Devanagari"}


def _text(value: object) -> str:
    return _XML_INVALID.sub("", str(value))


def render_docx(report: Report, *, appendix: AppendixView | None = None) -> bytes:
    """Build the Word document.

    Args:
        report: The finished report (its links are checked by
            :func:`~reportgen.render.render_html`, which runs first).
        appendix: The blueprint drawings, or ``None`` to leave the appendix out.

    Returns:
        The ``.docx`` file's bytes.

    Raises:
        RenderError: A chart's SVG refers to an outside resource or cannot be drawn.
    """
    lang = _lang_attribute(report.lang)
    primary = _primary_subtag(lang)
    labels = render_labels(primary)
    rtl = text_direction(lang) == "rtl"
    doc = Document()
    package = doc.part.package
    for rid, rel in list(package.rels.items()):  # python-docx's template's blank-page thumbnail
        if rel.reltype == RT.THUMBNAIL:
            package.rels.pop(rid)
    _set_styles(doc, lang, primary, rtl)
    _set_properties(doc, report, lang)
    _header_footer(doc, report, labels)
    builder = _Builder(doc, {r.id for r in report.references}, labels)
    gap = sentence_gap(lang)

    doc.add_paragraph(_text(report.title), style="Title")
    meta = isolate(_date(report.created), rtl)
    if report.corpora:
        meta += f" · {labels['sources']}: " + labels["list_separator"].join(report.corpora)
    builder.muted(meta)
    doc.add_paragraph(_text(report.mode_note or f"Written in {report.mode} mode."), style="Quote")
    notice = limitations_notice(report, labels)
    if notice:
        builder.muted(f"{labels['limitations']}: {notice}.")

    by_section = place_figures(report)
    tables = place_tables(report)

    for section in report.sections:
        doc.add_heading(_text(section.title), level=1)
        for paragraph in section.paragraphs:
            para = doc.add_paragraph()
            if paragraph.sentences:
                for index, sentence in enumerate(paragraph.sentences):
                    para.add_run(_text(sentence.text))
                    builder.citations(para, sentence.citations)
                    if gap and index < len(paragraph.sentences) - 1:
                        para.add_run(gap)
            else:
                para.add_run(_text(paragraph.text))
                builder.citations(para, paragraph.citations)
        for figure in by_section[section.id]:
            builder.picture(figure.svg, f"figure {figure.id}")
            caption = builder.caption(f"{labels['figure']} {figure.number}.", figure.caption)
            if figure.citations:
                caption.add_run(f" {labels['source']}: ")
                builder.citations(caption, figure.citations)
        for view in tables[section.id]:
            builder.table(view)

    if report.limitations:
        doc.add_heading(_text(labels["limitations"]), level=1)
        legend = limitations_legend(report, labels)
        if legend:
            doc.add_paragraph(_text(legend))
        for item in report.limitations:
            para = doc.add_paragraph(style="List Bullet")
            if item.task_id:
                code = f" ({item.status_code})" if item.status_code is not None else ""
                tasks = ", ".join(isolate(task, rtl) for task in item.task_ids)
                para.add_run(_text(f"{tasks}{code}: ")).bold = True
            para.add_run(_text(item.reason))

    if appendix is not None:
        doc.add_heading(_text(labels["appendix"]), level=1)
        counts = labels["list_separator"].join(f"{n} {counted(labels, name, n)}" for name, n in appendix.counts)
        doc.add_paragraph(_text(labels["appendix_intro"].format(total=appendix.total, counts=counts)))
        builder.picture(appendix.graph_svg, "the appendix's blueprint graph")
        builder.caption(f"{labels['appendix_figure']}1.", labels["appendix_graph"])
        if appendix.timeline_svg:
            builder.picture(appendix.timeline_svg, "the appendix's timeline")
            not_run = counted(labels, "appendix_not_run", appendix.not_run)
            extra = not_run.format(n=appendix.not_run) if appendix.not_run else ""
            builder.caption(f"{labels['appendix_figure']}2.", f"{labels['appendix_timeline']} {extra}".strip())

    if report.references:
        doc.add_heading(_text(labels["references"]), level=1)
        for ref in report.references:
            para = doc.add_paragraph()
            para.paragraph_format.space_after = Pt(4)
            builder.bookmark(para, f"ref-{ref.id}")
            para.add_run(f"[{ref.id}] ").bold = True
            para.add_run(_text(ref.title) + ".").bold = True
            site = site_name(ref.url)
            if site:
                para.add_run(f" {isolate(site, rtl)}.")
            para.add_run(" ")
            if is_web_url(ref.url):
                builder.hyperlink(para, ref.url, rtl)
            else:
                para.add_run(_text(isolate(ref.url, rtl)))
            accessed = labels["accessed"]
            run = para.add_run(_text(
                f". {accessed[:1].upper()}{accessed[1:]} {isolate(_date(ref.accessed), rtl)} "
                f"{isolate(f'({ref.corpus})', rtl)}."
            ))
            run.font.color.rgb = _MUTED

    buffer = io.BytesIO()
    doc.save(buffer)
    return buffer.getvalue()


class _Builder:
    """Small helpers that need the document and the report's labels."""

    def __init__(self, doc, reference_ids: set[int], labels: dict[str, str]) -> None:
        self.doc = doc
        self.reference_ids = reference_ids
        self.labels = labels
        self.svg_count = 0
        self.bookmark_id = 0

    def muted(self, text: str):
        para = self.doc.add_paragraph()
        run = para.add_run(_text(text))
        run.font.color.rgb = _MUTED
        run.font.size = Pt(9)
        return para

    def citations(self, para, numbers) -> None:
        # U+2060 WORD JOINER before and inside each mark: a mark is never
        # split or left alone at the start of a line (LibreOffice breaks
        # "[1]" after "[" in right-to-left paragraphs otherwise).
        for n in numbers:
            if n in self.reference_ids:
                mark = _WJ + _WJ.join(f"[{n}]")
                self.internal_link(para, mark, f"ref-{n}", superscript=True)

    def caption(self, label: str, text: str):
        para = self.doc.add_paragraph(style="Caption")
        para.add_run(_text(label)).bold = True
        para.add_run(" " + _text(text))
        return para

    def picture(self, svg: str, what: str) -> None:
        png = svg_to_png(svg, what)
        self.doc.add_picture(io.BytesIO(png), width=Inches(FIGURE_WIDTH_IN))
        inline = self.doc.inline_shapes[-1]._inline
        self._attach_svg(inline, svg)
        self.doc.paragraphs[-1].alignment = WD_ALIGN_PARAGRAPH.CENTER
        self.doc.paragraphs[-1].paragraph_format.keep_with_next = True

    def _attach_svg(self, inline, svg: str) -> None:
        self.svg_count += 1
        part = Part(
            PackURI(f"/word/media/reportgen-chart-{self.svg_count}.svg"),
            "image/svg+xml", svg.encode("utf-8"), self.doc.part.package,
        )
        rid = self.doc.part.relate_to(part, RT.IMAGE)
        blip = inline.find(".//" + qn("a:blip"))
        ext_list = OxmlElement("a:extLst")
        ext = OxmlElement("a:ext")
        ext.set("uri", _SVG_EXTENSION_URI)
        svg_blip = ext.makeelement(f"{{{_SVG_NS}}}svgBlip", nsmap={"asvg": _SVG_NS})
        svg_blip.set(qn("r:embed"), rid)
        ext.append(svg_blip)
        ext_list.append(ext)
        blip.append(ext_list)

    def table(self, view: TableView) -> None:
        caption = self.doc.add_paragraph(style="Caption")
        caption.add_run(_text(f"{self.labels['table']} {view.number}.")).bold = True
        caption.add_run(" " + _text(view.caption))
        if view.citations:
            caption.add_run(f" {self.labels['source']}: ")
            self.citations(caption, view.citations)
        caption.paragraph_format.keep_with_next = True
        if view.columns == 0:
            self.muted(self.labels["empty_table"])
            return
        rows = ([view.header] if view.header else []) + list(view.rows)
        table = self.doc.add_table(rows=len(rows), cols=view.columns)
        table.style = "Table Grid"
        size = Pt(6.5 if view.size == "very-wide" else 8 if view.size == "wide" else 9)
        for r, values in enumerate(rows):
            row = table.rows[r]
            for c, value in enumerate(values):
                cell = row.cells[c]
                run = cell.paragraphs[0].add_run(_text(value))
                run.font.size = size
                if r == 0 and view.header:
                    run.bold = True
            if r == 0 and view.header:  # repeat the header row on every page
                tr_pr = row._tr.get_or_add_trPr()
                header = OxmlElement("w:tblHeader")
                header.set(qn("w:val"), "true")
                tr_pr.append(header)
        self.doc.add_paragraph()

    def bookmark(self, para, name: str) -> None:
        self.bookmark_id += 1
        start = OxmlElement("w:bookmarkStart")
        start.set(qn("w:id"), str(self.bookmark_id))
        start.set(qn("w:name"), name)
        end = OxmlElement("w:bookmarkEnd")
        end.set(qn("w:id"), str(self.bookmark_id))
        para._p.append(start)
        para._p.append(end)

    def internal_link(self, para, text: str, anchor: str, *, superscript: bool = False) -> None:
        link = OxmlElement("w:hyperlink")
        link.set(qn("w:anchor"), anchor)
        link.append(_run_element(text, superscript=superscript))
        para._p.append(link)

    def hyperlink(self, para, url: str, rtl: bool = False) -> None:
        rid = self.doc.part.relate_to(url, RT.HYPERLINK, is_external=True)
        link = OxmlElement("w:hyperlink")
        link.set(qn("r:id"), rid)
        link.append(_run_element(_text(isolate(readable_url(url), rtl)), underline=True))
        para._p.append(link)


def _run_element(
    text: str, *, superscript: bool = False, underline: bool = False,
    colour: str = "1D5FA0", size_pt: float | None = None,
):
    run = OxmlElement("w:r")
    props = OxmlElement("w:rPr")
    colour_element = OxmlElement("w:color")
    colour_element.set(qn("w:val"), colour)
    props.append(colour_element)
    if underline:
        u = OxmlElement("w:u")
        u.set(qn("w:val"), "single")
        props.append(u)
    if size_pt is not None:
        size = OxmlElement("w:sz")
        size.set(qn("w:val"), str(round(size_pt * 2)))
        props.append(size)
    if superscript:
        align = OxmlElement("w:vertAlign")
        align.set(qn("w:val"), "superscript")
        props.append(align)
    run.append(props)
    t = OxmlElement("w:t")
    t.text = text
    t.set(qn("xml:space"), "preserve")
    run.append(t)
    return run


def _set_styles(doc, lang: str, primary: str, rtl: bool) -> None:
    """Fonts per script, the document language and direction on every style."""
    east_asian = _CJK_FONTS.get(primary, "Noto Sans CJK SC")
    if lang.lower() in {"zh-tw", "zh-hant", "zh-hk", "zh-mo"}:
        east_asian = "Noto Sans CJK TC"
    complex_script = _CS_FONTS.get(primary, "Noto Sans Arabic")
    for style in doc.styles:
        if style.type not in (WD_STYLE_TYPE.PARAGRAPH, WD_STYLE_TYPE.CHARACTER):
            continue
        r_pr = style.element.get_or_add_rPr()
        fonts = r_pr.find(qn("w:rFonts"))
        if fonts is None:
            fonts = OxmlElement("w:rFonts")
            r_pr.insert(0, fonts)
        for attribute in ("w:asciiTheme", "w:hAnsiTheme", "w:eastAsiaTheme", "w:cstheme"):
            fonts.attrib.pop(qn(attribute), None)
        fonts.set(qn("w:ascii"), "Noto Sans")
        fonts.set(qn("w:hAnsi"), "Noto Sans")
        fonts.set(qn("w:eastAsia"), east_asian)
        fonts.set(qn("w:cs"), complex_script)
        if style.type is not WD_STYLE_TYPE.PARAGRAPH:
            continue
        if style.name == "Normal":
            language = OxmlElement("w:lang")
            language.set(qn("w:val"), lang)
            language.set(qn("w:eastAsia"), lang if primary in _CJK_FONTS else "zh-CN")
            language.set(qn("w:bidi"), lang if rtl else "ar-SA")
            r_pr.append(language)
            style.font.size = Pt(10.5)
            if rtl:
                p_pr = style.element.get_or_add_pPr()
                p_pr.append(OxmlElement("w:bidi"))
        if style.name.startswith("Heading") or style.name == "Title":
            style.font.color.rgb = _HEADING
            # Letter-spacing (the template's Title has some) breaks the joining
            # of Arabic letters; text is set without it.
            for spacing in r_pr.findall(qn("w:spacing")):
                r_pr.remove(spacing)


def _set_properties(doc, report: Report, lang: str) -> None:
    props = doc.core_properties
    props.title = _text(report.title)[:255]
    props.subject = _text(report.topic)[:255]
    props.author = "reportgen"
    props.last_modified_by = "reportgen"
    props.comments = "Generated by reportgen"
    props.language = lang
    props.created = report.created
    props.modified = report.created
    props.revision = 1
    props.keywords = ""


def _header_footer(doc, report: Report, labels: dict[str, str]) -> None:
    section = doc.sections[0]
    header = section.header.paragraphs[0]
    run = header.add_run(_text(report.title))
    run.font.size = Pt(8)
    run.font.color.rgb = _MUTED
    header.alignment = WD_ALIGN_PARAGRAPH.CENTER
    footer = section.footer.paragraphs[0]
    footer.alignment = WD_ALIGN_PARAGRAPH.CENTER
    for piece in re.split(r"(\{pages?\})", labels["page_of"]):
        if piece in {"{page}", "{pages}"}:
            field = OxmlElement("w:fldSimple")
            field.set(qn("w:instr"), "PAGE" if piece == "{page}" else "NUMPAGES")
            field.append(_run_element("1", colour="6B7280", size_pt=8))
            footer._p.append(field)
        elif piece:
            text_run = footer.add_run(_text(piece))
            text_run.font.size = Pt(8)
            text_run.font.color.rgb = _MUTED
