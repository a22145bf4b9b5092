"""Tables: malformed input normalised (never a crash), numbered, wide ones wrapped,
long ones split across pages with the header repeated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_render_pdf import pdf_info, pdf_text, requires_poppler

from reportgen.render import render_html, table_views, write_pdf
from reportgen.render.tables import normalise_table
from reportgen.report import Report, Table

from factories import sample_report
from test_render_html import Page, assert_inert

HOSTILE_DIR = Path(__file__).parent / "fixtures" / "hostile"


def markdown_rows(text: str) -> list[list[str]]:
    """The pipe rows of a Markdown text, split as a lenient parser (or a model) would."""
    rows = []
    for line in text.splitlines():
        if "|" not in line:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows.append(cells)
    return rows


@pytest.fixture
def malformed() -> Table:
    """tests/fixtures/hostile/malformed-table.md: uneven rows, no header separator."""
    rows = markdown_rows((HOSTILE_DIR / "malformed-table.md").read_text(encoding="utf-8"))
    return Table(section_id="hydropower", caption="Solar module prices", header=rows[0],
                 rows=rows[1:], citations=[1])


def test_malformed_table_is_padded_and_cut(malformed: Table) -> None:
    header, rows, columns = normalise_table(malformed)
    assert header == ("Year", "Price per watt", "Note")
    assert columns == 3
    assert rows == (
        ("2010", "2.00", ""),        # short row padded
        ("2015", "0.60", "falling"),  # the extra cell dropped (GFM)
        ("2020", "0.25", ""),
        ("2023", "", ""),
    )


@pytest.mark.parametrize(
    ("header", "rows", "expected_columns"),
    [
        ([], [["a", "b"], ["c"], ["d", "e", "f"]], 3),  # no header: widest row
        (None, None, 0),
        ([""], [[]], 0),
        (["x"], [], 1),
        (["only"], [["1", "2", "3"]], 1),
        ([1, None, 2.5], [[None, 3]], 3),  # not strings: coerced
        ([], "just a string", 1),
    ],
)
def test_any_shape_is_accepted(header, rows, expected_columns: int) -> None:
    table = Table(section_id="x", header=header, rows=rows)
    _, fixed, columns = normalise_table(table)
    assert columns == expected_columns
    assert all(len(row) == columns for row in fixed)


def test_malformed_table_renders(malformed: Table) -> None:
    report = sample_report(tables=[malformed])
    page = Page(render_html(report))
    (table,) = [a for a in page.tags("table") if "data-table" in str(a.get("class"))]
    assert table["id"] == "tbl-1"
    assert "Table 1. Solar module prices" in " ".join(page.visible_text.split())
    assert len(page.tags("th")) == 3 + 3  # this table and the limitations table
    assert len(page.tags("td")) == 4 * 3 + 2 * 3
    assert "extra cell" not in page.visible_text


def test_tables_are_numbered_placed_and_given_safe_ids() -> None:
    report = sample_report(tables=[
        Table(id="t-wind", section_id="wind-power", caption="B", header=["h"], rows=[["1"]]),
        Table(id="hydropower", section_id="hydropower", caption="A", header=["h"], rows=[["1"]]),
        Table(id="../x", section_id="nowhere", caption="C", header=["h"], rows=[["1"]]),
        Table(section_id="conclusion", caption="D"),
    ])
    views = table_views(report, [s.id for s in report.sections])
    assert [(v.caption, v.number, v.section_id, v.id) for v in views] == [
        ("A", 1, "hydropower", "tbl-1"),     # its own id is taken by a section
        ("B", 2, "wind-power", "t-wind"),
        ("C", 3, "conclusion", "tbl-3"),     # unknown section: the last one; unsafe id replaced
        ("D", 4, "conclusion", "tbl-4"),
    ]
    page = Page(render_html(report))
    ids = [a.get("id") for _, a in page.elements if a.get("id")]
    assert len(ids) == len(set(ids))
    assert "(no rows)" in page.visible_text  # the empty table says so


def test_hostile_cells_stay_text() -> None:
    evil = '<script>alert(1)</script><img src="file:///etc/passwd" onerror="x()">'
    report = sample_report(tables=[Table(section_id="hydropower", caption=evil, header=[evil],
                                         rows=[[evil, "\x00\x1b[31m"]])])
    page = Page(render_html(report))
    assert_inert(page)
    assert evil in page.visible_text


def test_dangling_table_citation_is_refused() -> None:
    from reportgen.errors import RenderError

    report = sample_report(tables=[Table(section_id="hydropower", header=["a"], citations=[42])])
    with pytest.raises(RenderError, match=r"citations \[42\]"):
        render_html(report)


def test_report_json_round_trips_tables(malformed: Table) -> None:
    report = sample_report(tables=[malformed])
    again = Report.model_validate_json(report.model_dump_json())
    assert again.tables == report.tables
    assert Report.model_validate({**report.model_dump(), "tables": []}).tables == []


# ---- PDF ------------------------------------------------------------------------------


@requires_poppler
def test_long_table_splits_with_the_header_repeated(tmp_path: Path) -> None:
    rows = [[f"row {i}", f"{i * 7}", "x" * (i % 5)] for i in range(1, 151)]
    report = sample_report(tables=[Table(section_id="hydropower", caption="Long",
                                         header=["Name", "Value", "Pad"], rows=rows)])
    path = write_pdf(render_html(report), tmp_path / "long.pdf", strict=True)
    pages = int(pdf_info(path)["Pages"])
    with_rows = []
    for number in range(1, pages + 1):
        text = pdf_text(path, "-f", str(number), "-l", str(number))
        if re.search(r"^row \d+$", text, re.MULTILINE):
            with_rows.append(number)
            assert re.search(r"^Name$", text, re.MULTILINE), f"no header on page {number}"
    assert len(with_rows) >= 3  # 150 rows cannot fit on fewer pages
    everything = pdf_text(path)
    for i in (1, 75, 150):
        assert f"row {i}\n" in everything


@requires_poppler
def test_wide_table_stays_on_the_page(tmp_path: Path) -> None:
    """16 columns and unbreakable tokens: scaled down and wrapped, never cut off."""
    token = "Supercalifragilisticexpialidocious1234567890"
    header = [f"Column {c}" for c in range(16)]
    rows = [[f"{token}{r}" if c == 5 else f"{r * c}" for c in range(16)] for r in range(6)]
    report = sample_report(tables=[Table(section_id="hydropower", caption="Wide",
                                         header=header, rows=rows)])
    html = render_html(report)
    assert "table-very-wide" in html
    path = write_pdf(html, tmp_path / "wide.pdf", strict=True)
    text = pdf_text(path)
    headers = len(re.findall(r"Column", text))
    assert headers >= 16 and headers % 16 == 0  # repeated whole on each page the table spans
    assert text.count("Super") == 6  # each long token starts in its cell (and wraps there)
    # Nothing beyond the right margin: poppler's bounding boxes stay inside A4.
    bbox = pdf_text(path, "-bbox")
    right_edges = [float(x) for x in re.findall(r'xMax="([\d.]+)"', bbox)]
    assert right_edges and max(right_edges) <= 595.3 - 56  # A4 width minus the 20 mm margin
