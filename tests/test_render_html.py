"""HTML rendering: structure, self-containment, escaping of hostile text, templates."""

from __future__ import annotations

import re
import types
from html.parser import HTMLParser
from pathlib import Path

import pytest

import reportgen.render
from reportgen.errors import RenderError
from reportgen.render import (
    BUILTIN_TEMPLATE_DIR,
    css_string,
    is_web_url,
    render_html,
    text_direction,
)
from reportgen.report import Figure, Limitation, Paragraph, Reference, Section, Sentence

from factories import sample_report

HOSTILE_DIR = Path(__file__).parent / "fixtures" / "hostile"

VOID_ELEMENTS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                           "meta", "source", "track", "wbr"})

#: Every element the built-in template may produce. Anything else in the output
#: (script, iframe, object, link, base, svg, ...) came from report text.
ALLOWED_ELEMENTS = frozenset({
    "a", "body", "caption", "figcaption", "figure", "h1", "h2", "head", "header", "html",
    "img", "li", "main", "meta", "nav", "ol", "p", "section", "span", "style", "sup", "table",
    "tbody", "td", "th", "thead", "time", "title", "tr", "ul",
})


class Page(HTMLParser):
    """A small DOM-free view of a rendered page: elements, attributes, text."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.outline: list[str] = []
        self.text: list[str] = []
        self.styles: list[str] = []
        self._stack: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.elements.append((tag, attributes))
        label = tag
        if attributes.get("id"):
            label += f"#{attributes['id']}"
        if attributes.get("class"):
            label += "." + ".".join(str(attributes["class"]).split())
        if tag == "body" or "body" in self._stack:
            self.outline.append("  " * (len(self._stack) - 1) + label)
        if tag not in VOID_ELEMENTS:
            self._stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID_ELEMENTS:
            self._stack.pop()

    def handle_endtag(self, tag: str) -> None:
        assert self._stack and self._stack[-1] == tag, f"unbalanced </{tag}> in {self._stack}"
        self._stack.pop()

    def handle_data(self, data: str) -> None:
        if self._stack and self._stack[-1] == "style":
            self.styles.append(data)
        elif not (self._stack and self._stack[-1] == "title"):
            self.text.append(data)

    def tags(self, name: str) -> list[dict[str, str | None]]:
        return [attrs for tag, attrs in self.elements if tag == name]

    @property
    def visible_text(self) -> str:
        return "".join(self.text)


@pytest.fixture
def page() -> Page:
    return Page(render_html(sample_report()))


# ---- structure ----------------------------------------------------------------


def test_structure_snapshot(page: Page, snapshot) -> None:
    """Tags, ids and classes of the sample report (no prose, no data URIs)."""
    assert "\n".join(page.outline) == snapshot


def test_headings_in_reading_order(page: Page) -> None:
    report = sample_report()
    h2_ids = [attrs.get("id") for attrs in page.tags("section")]
    assert h2_ids == [s.id for s in report.sections] + ["limitations", "references"]
    assert len(page.tags("h1")) == 1


def test_document_metadata_and_language() -> None:
    html = render_html(sample_report())
    assert html.startswith("<!DOCTYPE html>\n<html lang=\"en\">")
    assert '<meta name="generator" content="reportgen">' in html
    assert '<meta name="dcterms.created" content="2024-01-15T09:30:00Z">' in html
    assert "<title>Renewable electricity in the Nordic countries</title>" in html


@pytest.mark.parametrize(
    ("lang", "direction"),
    [("ar", "rtl"), ("he", "rtl"), ("fa-IR", "rtl"), ("ur", "rtl"), ("en", "ltr"),
     ("zh-Hans", "ltr"), ("AR_eg", "rtl")],
)
def test_text_direction(lang: str, direction: str) -> None:
    assert text_direction(lang) == direction
    html = render_html(sample_report(lang=lang))
    written = lang.replace("_", "-")  # BCP 47 separates subtags with hyphens
    tag = f'<html lang="{written}" dir="rtl">' if direction == "rtl" else f'<html lang="{written}">'
    assert tag in html


@pytest.mark.parametrize("lang", ['en" onload="x', "<script>", "", "e", "en--"])
def test_malformed_language_tag_becomes_undetermined(lang: str) -> None:
    html = render_html(sample_report(lang=lang))
    assert '<html lang="und">' in html


def test_mode_note_and_limitations_are_visible(page: Page) -> None:
    report = sample_report()
    notes = [attrs.get("class") for attrs in page.tags("p") if attrs.get("role") == "note"]
    assert notes == ["mode-note", "limitations-notice"]
    assert report.mode_note in page.visible_text
    for limitation in report.limitations:
        assert limitation.reason in page.visible_text
    assert "chart-wind" in page.visible_text and "604" in page.visible_text
    # what the task ids and codes are is said under the heading, for the codes the report carries
    legend = [attrs for attrs in page.tags("p") if attrs.get("class") == "limitations-legend"]
    assert len(legend) == 1 and "ACP status codes: 604 when a tool call failed" in page.visible_text


def test_the_limitations_legend_in_every_output_and_language(tmp_path: Path) -> None:
    """"chart-1, chart-2 (605)" had been read as an alarm nothing explained."""
    from reportgen.render.docx import render_docx
    from reportgen.render.labels import limitations_legend, render_labels
    from reportgen.render.markdown import escape_markdown, render_markdown

    report = sample_report(limitations=[Limitation(task_id="chart-1", status_code=605, reason="No chart."),
                                        Limitation(task_id="conclusion", status_code=605, reason="No end."),
                                        Limitation(task_id="", status_code=None, reason="Budget reached.")])
    legend = limitations_legend(report, render_labels("en"))
    assert legend.endswith("ACP status codes: 605 when the sources lacked what the task needed.")
    assert escape_markdown(legend) in render_markdown(report).text
    docx = tmp_path / "r.docx"
    docx.write_bytes(render_docx(report))
    import docx as python_docx

    assert legend in [p.text for p in python_docx.Document(str(docx)).paragraphs]
    french = sample_report(lang="fr", limitations=report.limitations)
    assert "codes de statut ACP : 605 quand les sources" in limitations_legend(french, render_labels("fr"))
    # a language without its own words has no English line in it; nor has a report without codes
    assert limitations_legend(sample_report(lang="zh", limitations=report.limitations), render_labels("zh")) == ""
    assert limitations_legend(sample_report(limitations=report.limitations[2:]), render_labels("en")) == ""


def test_no_limitations_section_without_limitations() -> None:
    page = Page(render_html(sample_report(limitations=[])))
    assert not [a for a in page.tags("section") if a.get("id") == "limitations"]
    assert not [a for a in page.tags("p") if a.get("class") == "limitations-notice"]


def test_every_internal_link_resolves(page: Page) -> None:
    ids = {attrs["id"] for _, attrs in page.elements if attrs.get("id")}
    internal = [a["href"] for a in page.tags("a") if str(a.get("href")).startswith("#")]
    assert internal, "the page should link to its sections and references"
    assert {href[1:] for href in internal} <= ids


def test_citation_markers_follow_sentences() -> None:
    """Each mark is bound to the word before by U+2060 WORD JOINER: never alone on a line."""
    html = render_html(sample_report())
    assert (
        "moving water.&#8288;<sup class=\"cite\"><a href=\"#ref-2\">[2]</a></sup> Norway"
    ) in html
    assert (
        'hydropower.&#8288;<sup class="cite"><a href="#ref-2">[2]</a></sup>'
        '&#8288;<sup class="cite"><a href="#ref-4">[4]</a></sup></p>'
    ) in html


def test_sentences_are_joined_as_the_language_writes() -> None:
    zh = render_html(sample_report(lang="zh"))
    assert "moving water.&#8288;<sup class=\"cite\"><a href=\"#ref-2\">[2]</a></sup>Norway" in zh


def test_dates_urls_and_ids_are_isolated_in_right_to_left_text() -> None:
    ar = render_html(sample_report(lang="ar"))
    assert "\u20682024-01-15\u2069" in ar
    assert '>\u2068https://en.wikipedia.org/wiki/Renewable_energy\u2069</a>' in ar
    assert '<td class="task">\u2068chart-wind\u2069</td>' in ar
    assert "\u2068" not in render_html(sample_report())


def test_figure_is_inline_numbered_and_sourced(page: Page) -> None:
    (img,) = page.tags("img")
    assert str(img["src"]).startswith("data:image/svg+xml;base64,")
    assert "Figure 1." in page.visible_text
    assert "Source: [2] Hydroelectricity; [4] Nordic grid notes (user document)" in " ".join(
        page.visible_text.split()
    )


def test_unlisted_figure_is_still_shown() -> None:
    report = sample_report()
    report.sections[1].figure_ids = []
    page = Page(render_html(report))
    figure_parents = [line for line in page.outline if "figure#fig-1" in line]
    assert len(figure_parents) == 1


def test_references_link_only_web_urls(page: Page) -> None:
    hrefs = [a["href"] for a in page.tags("a") if not str(a.get("href")).startswith("#")]
    assert hrefs == [
        "https://en.wikipedia.org/wiki/Renewable_energy",
        "https://en.wikipedia.org/wiki/Hydroelectricity",
        "https://en.wikipedia.org/wiki/Wind_power",
    ]
    assert "file:///home/user/notes/nordic-grid.md" in page.visible_text
    assert [a.get("id") for a in page.tags("li") if a.get("id")] == [
        "ref-1", "ref-2", "ref-3", "ref-4",
    ]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://en.wikipedia.org/wiki/X", True),
        ("HTTP://example.org/", True),
        ("file:///etc/passwd", False),
        ("javascript:alert(1)", False),
        ("JavaScript:alert(1)", False),
        ("data:text/html,<script>alert(1)</script>", False),
        ("//evil.example/x", False),
        ("/relative/path", False),
        ("https://", False),
        (" https://example.org/", False),
        ("https://exa mple.org/", False),
        ("https://example.org/\nx", False),
        ("https://[::1", False),
        (None, False),
    ],
)
def test_is_web_url(url: object, expected: bool) -> None:
    assert is_web_url(url) is expected


def test_html_is_self_contained(page: Page) -> None:
    for tag, attrs in page.elements:
        assert tag in ALLOWED_ELEMENTS
        for name in ("src", "href"):
            value = attrs.get(name)
            if value is None:
                continue
            assert name != "href" or tag == "a", f"<{tag} href> loads a resource"
            assert value.startswith(("#", "data:image/svg+xml;base64,", "https://", "http://"))
            assert tag == "a" or value.startswith("data:")
    rules = re.sub(r"/\*.*?\*/", "", "".join(page.styles), flags=re.DOTALL)
    assert "@import" not in rules and "@font-face" not in rules
    assert "url(" not in rules
    assert not page.tags("link") and not page.tags("script")


def test_stylesheets_are_inlined_verbatim_in_order(page: Page) -> None:
    style, page_labels = page.styles
    positions = []
    for name in ("base.css", "report.css", "custom.css"):
        css = (BUILTIN_TEMPLATE_DIR / name).read_text(encoding="utf-8").strip()
        assert f"/* ---- {name} ---- */\n{css}\n" in style
        positions.append(style.index(f"/* ---- {name} ---- */"))
    assert positions == sorted(positions)
    assert 'content: "page " counter(page) " of " counter(pages);' in page_labels


@pytest.mark.parametrize(
    ("text", "literal"),
    [
        ("page", '"page"'),
        ("página", '"página"'),
        ('a"b', '"a\\22 b"'),
        ("</style><script>", '"\\3c \\2f style\\3e \\3c script\\3e "'),
        ("x\\y\n\x00", '"x\\5c y\\a "'),  # NUL dropped, newline escaped
    ],
)
def test_css_string(text: str, literal: str) -> None:
    assert css_string(text) == literal


def test_labels_follow_the_report_language() -> None:
    page = Page(render_html(sample_report(lang="fr")))
    assert [a.get("id") for a in page.tags("h2")] == ["contents-title", None, None, None, None,
                                                      None, None]
    text = page.visible_text
    assert "Sommaire" in text and "Références" in text and "Limites" in text
    assert '"page " counter(page) " sur " counter(pages)' in page.styles[1]


@pytest.mark.parametrize(
    ("lang", "footer", "words"),
    [
        ("zh", '"第 " counter(page) " 页\\ff0c 共 " counter(pages) " 页"', ["目录", "参考文献"]),
        ("ar", '"صفحة " counter(page) " من " counter(pages)', ["المحتويات", "المراجع"]),
        ("de", '"page " counter(page) " of " counter(pages)', ["Contents", "References"]),
    ],
)
def test_labels_for_languages_beyond_the_encyclopedia(lang: str, footer: str, words: list[str]) -> None:
    page = Page(render_html(sample_report(lang=lang)))
    assert footer in page.styles[1]
    for word in words:
        assert word in page.visible_text


# ---- hostile text -------------------------------------------------------------


def _hostile_texts() -> dict[str, str]:
    texts = {}
    for path in sorted(HOSTILE_DIR.iterdir()):
        if path.name == "README.md":
            continue
        texts[path.name] = path.read_bytes().decode("utf-8", errors="replace")
    return texts


HOSTILE = _hostile_texts()


def hostile_report(text: str):
    """The sample report with ``text`` in every string field a source can reach."""
    report = sample_report(title=text[:200] or "untitled", topic=text[:200], mode_note=text)
    first_line = text.splitlines()[0] if text.strip() else "empty"
    report.sections[1].title = first_line
    report.sections[1].paragraphs.append(
        Paragraph.from_sentences([Sentence(text=text, citations=[1])])
    )
    report.sections[2].paragraphs.append(Paragraph(text=text, citations=[3]))
    report.figures[0].caption = text
    report.references[0].title = text
    report.references.append(
        Reference(id=5, title=text, url="javascript:alert(document.cookie)", source_id="x",
                  corpus=text)
    )
    report.references.append(
        Reference(id=6, title="local", url="file:///etc/hostname", source_id="y", corpus="local")
    )
    report.sections[3].paragraphs.append(
        Paragraph.from_sentences([Sentence(text="Extra.", citations=[5, 6])])
    )
    report.limitations.append(Limitation(task_id=text[:40], status_code=607, reason=text))
    return report


def assert_inert(page: Page) -> None:
    """No markup from report text became live markup."""
    for tag, attrs in page.elements:
        assert tag in ALLOWED_ELEMENTS, f"<{tag}> leaked into the page"
        for name, value in attrs.items():
            assert not name.startswith("on"), f"event handler {name} on <{tag}>"
            assert name not in {"style", "srcset", "formaction", "background"}
            if name in {"src", "href"}:
                assert value is not None
                if tag == "img":
                    assert value.startswith("data:image/svg+xml;base64,")
                else:
                    assert tag == "a" and value.startswith(("#", "https://", "http://"))
    assert len(page.styles) == 2  # report.css and the footer's localised words


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_text_is_escaped(name: str) -> None:
    text = HOSTILE[name]
    html = render_html(hostile_report(text))
    page = Page(html)
    assert_inert(page)
    visible = page.visible_text
    for line in text.splitlines():
        cleaned = "".join(ch for ch in line if ch.isprintable() or ch == "\t").strip()
        if cleaned:
            assert cleaned in visible or cleaned in " ".join(visible.split())
    # No control characters survive (HTML forbids them; WeasyPrint would draw tofu).
    assert not any(ord(ch) < 32 and ch not in "\t\n\r" for ch in html)


def test_script_and_image_tags_become_visible_text() -> None:
    report = sample_report()
    report.sections[0].paragraphs[0].sentences[0].text = (
        '<script>alert(1)</script> <img src="file:///etc/passwd"> '
        '<a href="javascript:alert(2)">x</a> <style>@import url(file:///etc/passwd);</style>'
    )
    html = render_html(report)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=&#34;file:///etc/passwd&#34;&gt;" in html
    page = Page(html)
    assert_inert(page)
    assert '<script>alert(1)</script> <img src="file:///etc/passwd">' in page.visible_text


def test_metadata_address_in_text_stays_text() -> None:
    html = render_html(hostile_report(HOSTILE["metadata-ssrf.html"]))
    page = Page(html)
    assert "http://169.254.169.254/latest/meta-data/iam/security-credentials/" in page.visible_text
    assert all("169.254" not in str(a.get("href")) for a in page.tags("a"))


def test_hostile_reference_urls_are_not_links() -> None:
    page = Page(render_html(hostile_report("x")))
    assert "javascript:alert(document.cookie)" in page.visible_text
    assert "file:///etc/hostname" in page.visible_text
    assert not [a for a in page.tags("a") if str(a.get("href")).startswith(("javascript", "file"))]


# ---- report consistency ---------------------------------------------------------


def test_dangling_citation_is_refused() -> None:
    report = sample_report()
    report.sections[0].paragraphs[0].sentences[0].citations = [9]
    with pytest.raises(RenderError, match=r"citations \[9\]"):
        render_html(report)


def test_unknown_figure_id_is_refused() -> None:
    report = sample_report()
    report.sections[0].figure_ids = ["fig-404"]
    with pytest.raises(RenderError, match="fig-404"):
        render_html(report)


def test_duplicate_anchor_is_refused() -> None:
    report = sample_report()
    report.sections.append(Section(id="references", title="Clash"))
    with pytest.raises(RenderError, match="references"):
        render_html(report)


def test_figure_without_sections_is_not_an_error() -> None:
    report = sample_report(sections=[], figures=[Figure(
        id="fig-1", number=1, section_id="x", caption="c", svg="<svg/>")])
    assert "<main>" in render_html(report)


# ---- user templates ---------------------------------------------------------------


def test_user_folder_overrides_only_what_it_holds(tmp_path: Path) -> None:
    (tmp_path / "custom.css").write_text("body { color: #123456; }\n", encoding="utf-8")
    page = Page(render_html(sample_report(), template_dir=tmp_path))
    style = page.styles[0]
    assert style.endswith("/* ---- custom.css ---- */\nbody { color: #123456; }\n\n")
    base = (BUILTIN_TEMPLATE_DIR / "base.css").read_text(encoding="utf-8").strip()
    assert base in style  # the other stylesheets are still the built-in ones
    assert [a.get("id") for a in page.tags("nav")] == ["contents"]


def test_user_template_can_extend_and_override_a_block(tmp_path: Path) -> None:
    (tmp_path / "report.html.j2").write_text(
        '{% extends "builtin/report.html.j2" %}\n'
        "{% block toc %}<p class=\"custom\">{{ report.title }}</p>{% endblock %}\n"
        "{% block figure %}<p class=\"fig\">{{ figure.caption }}</p>{% endblock %}\n",
        encoding="utf-8",
    )
    page = Page(render_html(sample_report(title="<b>T</b>"), template_dir=tmp_path))
    assert not page.tags("nav") and not page.tags("figure")
    assert [a.get("class") for a in page.tags("p") if a.get("class") in {"custom", "fig"}] == [
        "custom", "fig",
    ]
    assert not page.tags("b")
    assert "<b>T</b>" in page.visible_text


@pytest.mark.parametrize(
    "body",
    [
        "{{ report.__class__.__mro__ }}",  # sandbox: no dunder access
        "{{ report.sections.append(1) }}",  # immutable sandbox: no mutation
        "{{ no_such_name }}",  # StrictUndefined
        "{% include 'missing.j2' %}",
        "{% include '../../../../etc/passwd' %}",  # the loader never leaves its folders
        "{% if %}",
    ],
)
def test_bad_user_template_raises_render_error(tmp_path: Path, body: str) -> None:
    (tmp_path / "report.html.j2").write_text(body, encoding="utf-8")
    with pytest.raises(RenderError, match="report.html.j2"):
        render_html(sample_report(), template_dir=tmp_path)


def test_stylesheet_cannot_close_its_element(tmp_path: Path) -> None:
    (tmp_path / "report.css").write_text("p {}</STYLE><script>alert(1)</script>")
    with pytest.raises(RenderError, match="</style"):
        render_html(sample_report(), template_dir=tmp_path)


def test_missing_template_folder(tmp_path: Path) -> None:
    with pytest.raises(RenderError, match="does not exist"):
        render_html(sample_report(), template_dir=tmp_path / "nope")


# ---- public surface -----------------------------------------------------------------


def test_all_is_sorted_and_complete() -> None:
    public = {
        name for name, value in ((n, getattr(reportgen.render, n)) for n in dir(reportgen.render))  # + lazy names
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
        and name != "annotations"
    }
    assert reportgen.render.__all__ == sorted(reportgen.render.__all__)
    assert set(reportgen.render.__all__) == public


def test_bidi_overrides_from_sources_are_dropped() -> None:
    """U+202A..U+202E in source text would reorder what follows ("Trojan Source")."""
    report = sample_report(title="Wind \u202eevil\u202c power")
    report.sections[0].paragraphs[0].sentences[0].text = "See \u202dhttps://x.example\u202c now."
    html = render_html(report)
    assert not re.search("[\u202a-\u202e]", html)
    assert "Wind evil power" in html and "See https://x.example now." in html
