"""Markdown and DOCX exports: structure, footnotes, escaping, language, hostile text."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import docx
import pytest
from markdown_it import MarkdownIt

from reportgen.errors import RenderError
from reportgen.render import build_appendix, escape_markdown, render_docx, render_markdown
from reportgen.render.svg import check_svg, svg_to_png
from reportgen.report import Paragraph, Reference, Sentence, Table

from factories import sample_blueprint, sample_report, sample_svg

HOSTILE_DIR = Path(__file__).parent / "fixtures" / "hostile"
HOSTILE = {p.name: p.read_bytes().decode("utf-8", errors="replace")
           for p in sorted(HOSTILE_DIR.iterdir()) if p.name != "README.md"}
COMMONMARK = MarkdownIt("commonmark").enable(["table", "strikethrough"])
FOOTNOTE_REF = re.compile(r"(?<!\\)\[\^(\d+)\](?!:)")
FOOTNOTE_DEF = re.compile(r"^\[\^(\d+)\]: ", re.MULTILINE)


@pytest.fixture(scope="module")
def appendix():
    return build_appendix(sample_blueprint())


def _live_tokens(markdown: str) -> list[str]:
    """Types of inline/block tokens that would make markup, links or images."""
    live = []
    for token in COMMONMARK.parse(markdown):
        if token.type in {"html_block"}:
            live.append(token.type)
        for child in token.children or []:
            if child.type in {"html_inline", "image", "link_open", "code_inline"}:
                live.append(child.type)
    return live


# ---- Markdown ----------------------------------------------------------------------------


def test_markdown_structure(appendix) -> None:
    report = sample_report(tables=[Table(section_id="hydropower", caption="Shares",
                                         header=["Country", "Share"],
                                         rows=[["Norway", "98%"], ["Sweden"]], citations=[2])])
    export = render_markdown(report, appendix=appendix)
    text = export.text
    headings = re.findall(r"^(#{1,2}) (.+)$", text, re.MULTILINE)
    assert headings == [("#", report.title)] + [("##", s.title) for s in report.sections] + [
        ("##", "Limitations"), ("##", "Appendix: how this report was made"), ("##", "References")]
    assert "| Country | Share |\n| --- | --- |\n| Norway | 98% |\n| Sweden |  |" in text
    assert "**Table 1.** Shares Source: [^2]" in text
    assert list(export.files) == ["figures/fig-1.svg", "figures/appendix-blueprint.svg",
                                  "figures/appendix-timeline.svg"]
    for name in export.files:
        assert f"]({name})" in text
    assert export.files["figures/fig-1.svg"] == report.figures[0].svg


def test_markdown_footnotes_resolve() -> None:
    report = sample_report()
    text = render_markdown(report).text
    used = [int(n) for n in FOOTNOTE_REF.findall(text)]
    defined = [int(n) for n in FOOTNOTE_DEF.findall(text)]
    assert defined == [r.id for r in report.references]  # each once, in order
    assert set(used) == set(defined)  # every marker resolves, every reference is cited
    assert "moving water.[^2] Norway produces almost all of its electricity from hydropower.[^2][^4]" in text
    assert ("[^1]: Renewable energy. en.wikipedia.org. <https://en.wikipedia.org/wiki/Renewable_energy>."
            " Accessed 2024-01-15 (wikipedia-offline).") in text
    # A user's file is named, never linked.
    assert "[^4]: Nordic grid notes \\(user document\\). local file. file:///home/user/notes/nordic" in text


def test_markdown_has_no_live_markup_from_the_model() -> None:
    tokens = _live_tokens(render_markdown(sample_report()).text)
    # Only the chart image and the reference autolinks are live.
    assert tokens.count("image") == 1
    assert tokens.count("link_open") == 3
    assert "html_inline" not in tokens and "html_block" not in tokens


@pytest.mark.parametrize(
    "text",
    [
        "![x](file:///etc/passwd)",
        '<img src="file:///etc/hostname"> <script>alert(1)</script>',
        "[click](javascript:alert(1)) <https://evil.example/>",
        "# heading?",
        "1. list? - item * item + item",
        "> quote? | pipe | `code` *em* _em_ ~~del~~ \\ backslash",
        "&lt;script&gt; &#x3C;b&#x3E;",
        "line\nbreak\n\n# new block\n```\nfence",
        "-",
        "====",
        "   indented code?",
        "\x00\x1b[31mcontrol",
    ],
)
def test_escape_markdown_shows_text_as_written(text: str) -> None:
    escaped = escape_markdown(text)
    assert "\n" not in escaped
    assert not _live_tokens(escaped)
    tokens = COMMONMARK.parse(escaped)
    assert [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"]
    shown = "".join(child.content for child in tokens[1].children if child.type == "text")
    expected = " ".join("".join(ch for ch in text if ch.isprintable() or ch in "\n\t").split())
    assert shown == expected.replace("\x1b", "")


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_documents_stay_text_in_markdown(name: str) -> None:
    text = HOSTILE[name]
    report = sample_report(title=text[:200] or "untitled", mode_note=text)
    report.sections[1].title = text.splitlines()[0] if text.strip() else "empty"
    report.sections[1].paragraphs.append(Paragraph.from_sentences([Sentence(text=text, citations=[1])]))
    report.figures[0].caption = text
    report.references[0].title = text
    report.references.append(Reference(id=5, title=text, url="javascript:alert(1)", source_id="x",
                                       corpus=text))
    report.sections[3].paragraphs.append(Paragraph.from_sentences([Sentence(text="x", citations=[5])]))
    markdown = render_markdown(report).text
    tokens = _live_tokens(markdown)
    assert tokens.count("image") == 1  # the chart only
    assert tokens.count("link_open") == 3  # the three https references only
    assert "html_inline" not in tokens and "html_block" not in tokens
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", markdown)


# ---- DOCX ----------------------------------------------------------------------------------


def _open(data: bytes) -> docx.document.Document:
    return docx.Document(io.BytesIO(data))


def test_docx_headings_paragraphs_and_references(appendix) -> None:
    report = sample_report()
    document = _open(render_docx(report, appendix=appendix))
    headings = [p.text for p in document.paragraphs if p.style.name == "Heading 1"]
    assert headings == [s.title for s in report.sections] + [
        "Limitations", "Appendix: how this report was made", "References"]
    assert document.paragraphs[0].style.name == "Title"
    assert document.paragraphs[0].text == report.title
    body = "\n".join(p.text for p in document.paragraphs)
    # Citation marks hold U+2060 WORD JOINERs (a mark never breaks or starts a line).
    assert "moving water.\u2060[\u20602\u2060]" in body
    body = body.replace("\u2060", "")
    assert "moving water.[2] Norway produces almost all of its electricity from hydropower.[2][4]" in body
    references = [p.text for p in document.paragraphs if re.match(r"\[\d+\] ", p.text)]
    assert references[0] == ("[1] Renewable energy. en.wikipedia.org. "
                             "https://en.wikipedia.org/wiki/Renewable_energy. "
                             "Accessed 2024-01-15 (wikipedia-offline).")
    assert references[3].startswith("[4] Nordic grid notes (user document). local file. file:///home/")
    captions = [p.text.replace("\u2060", "") for p in document.paragraphs if p.style.name == "Caption"]
    assert captions[0].startswith("Figure 1. Share of electricity from renewable sources Source: [2][4]")
    assert captions[1].startswith("Figure A1. The execution blueprint")


def test_docx_links_pictures_and_properties() -> None:
    report = sample_report()
    data = render_docx(report)
    document = _open(data)
    links = [r.target_ref for r in document.part.rels.values() if r.is_external]
    assert links == [ref.url for ref in report.references[:3]]  # web URLs only, no file:
    xml = document.element.xml
    for n in range(1, 5):
        assert f'w:anchor="ref-{n}"' in xml and f'w:name="ref-{n}"' in xml
    assert "svgBlip" in xml
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "word/media/reportgen-chart-1.svg" in names and "docProps/thumbnail.jpeg" not in names
    props = document.core_properties
    assert (props.title, props.subject, props.language) == (report.title, report.topic, "en")
    assert props.created.year == 2024 and props.author == "reportgen"
    footer = document.sections[0].footer._element.xml
    assert 'w:instr="PAGE"' in footer and 'w:instr="NUMPAGES"' in footer


def test_docx_tables_are_normalised_with_a_repeating_header() -> None:
    report = sample_report(tables=[Table(section_id="hydropower", caption="Uneven",
                                         header=["Year", "Price", "Note"],
                                         rows=[["2010", "2.00"], ["2015", "0.60", "falling", "extra"]])])
    document = _open(render_docx(report))
    (table,) = document.tables
    assert [[c.text for c in row.cells] for row in table.rows] == [
        ["Year", "Price", "Note"], ["2010", "2.00", ""], ["2015", "0.60", "falling"]]
    assert "w:tblHeader" in table.rows[0]._tr.xml


@pytest.mark.parametrize(("lang", "bidi"), [("ar", True), ("he", True), ("zh", False), ("en", False)])
def test_docx_language_and_direction(lang: str, bidi: bool) -> None:
    document = _open(render_docx(sample_report(lang=lang)))
    normal = document.styles["Normal"].element.xml
    assert f'w:val="{lang}"' in normal
    assert ("<w:bidi/>" in normal) is bidi
    fonts = re.search(r"<w:rFonts [^>]*>", normal).group(0)
    assert 'w:ascii="Noto Sans"' in fonts and "Theme" not in fonts
    if lang == "zh":
        assert 'w:eastAsia="Noto Sans CJK SC"' in fonts


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_documents_stay_text_in_docx(name: str) -> None:
    text = HOSTILE[name]
    report = sample_report(title=text[:200] or "untitled", mode_note=text)
    report.sections[1].paragraphs.append(Paragraph.from_sentences([Sentence(text=text, citations=[1])]))
    report.references[1].url = "file:///etc/passwd"
    report.tables = [Table(section_id="wind-power", header=[text[:50]], rows=[[text]])]
    document = _open(render_docx(report))
    links = [r.target_ref for r in document.part.rels.values() if r.is_external]
    assert all(link.startswith("https://") for link in links)
    body = "\n".join(p.text for p in document.paragraphs)
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", body)


@pytest.mark.parametrize(
    "svg",
    [
        '<svg xmlns="http://www.w3.org/2000/svg"><image href="file:///etc/passwd"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        '<image xlink:href="../../etc/hostname"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill: url(http://x/y)"/></svg>',
        '<svg xmlns="http://www.w3.org/2000/svg"><style>@import "file:///etc/passwd";</style></svg>',
        '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>',
    ],
)
def test_a_chart_naming_an_outside_resource_is_refused(svg: str) -> None:
    with pytest.raises(RenderError, match="figure fig-1"):
        check_svg(svg, "figure fig-1")
    report = sample_report()
    report.figures[0].svg = svg
    with pytest.raises(RenderError, match="fig-1"):
        render_docx(report)
    with pytest.raises(RenderError, match="fig-1"):
        render_markdown(report)


def test_png_fallback_is_drawn() -> None:
    png = svg_to_png(sample_svg(), "sample")
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 2000
