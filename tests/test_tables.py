"""Tables read from a user's folder, cell by cell, and the series charted from them."""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from pathlib import Path

import pytest

from reportgen.charts import parse_number
from reportgen.sources import tables as tables_module
from reportgen.sources.tables import DataTable, find_series, load_tables

HOSTILE = Path(__file__).parent / "fixtures" / "hostile"

INSTALLED_CSV = "\n".join(
    [
        "Country,Capacity (GW),Share of electricity",
        'China,"1,136",15%',
        "Brazil,110,61%",
        "Canada,83,",
        "United States,−2.5,6%",
        "",
    ]
)


def write(folder: Path, rel: str, content: str | bytes) -> Path:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def by_path(tables: list[DataTable], rel: str) -> list[DataTable]:
    return [t for t in tables if t.path == rel]


def assert_cells_verbatim(table: DataTable, raw: str) -> None:
    """Every cell is in the table's text, and (non-empty) in the file as printed."""
    text = table.as_text()
    for row in table.rows:
        assert len(row) == len(table.columns)
        for cell in row:
            assert cell.text in text
            if cell.text:
                assert cell.text in raw, cell


def point_summary(series) -> list[tuple[str, str, float, int, int]]:
    return [(p.label, p.cell.text, p.value, p.cell.row, p.cell.column) for p in series.points]


# --------------------------------------------------------------------------- parse_number


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("1,136", "en", 1136.0),
        ("2,5", "fr", 2.5),
        ("1 200", "en", 1200.0),
        ("1\u00a0200,5", "fr", 1200.5),
        ("1.500", "fr", 1500.0),
        ("-3.5", "en", -3.5),
        ("\u22122.5", "en", -2.5),
        ("15%", "en", 15.0),
        ("12,5 %", "fr", 12.5),
        (" 42 ", "en", 42.0),
        ("2,5", "en", None),
        ("inf", "en", None),
        ("NaN", "en", None),
        ("-Infinity", "en", None),
        ("1e5", "en", None),
        ("5 GW", "en", None),
        ("10-20", "en", None),
        ("", "en", None),
        ("-", "en", None),
        ("9" * 400, "en", None),
    ],
)
def test_parse_number(text, lang, expected):
    assert parse_number(text, lang) == expected


# --------------------------------------------------------------------------- formats


def test_csv_series_is_exactly_the_cells_of_the_file(tmp_path):
    write(tmp_path, "data/installed.csv", INSTALLED_CSV)
    tables, skipped = load_tables(tmp_path)
    assert skipped == []
    [table] = tables
    assert table.path == "data/installed.csv"
    assert table.file_uri == (tmp_path / "data" / "installed.csv").resolve().as_uri()
    digest = hashlib.sha1(b"data/installed.csv").hexdigest()[:12]
    assert table.source_id == f"table:{digest}:1"
    assert (table.title, table.name, table.index) == ("installed.csv", "installed.csv", 1)
    assert table.columns == ["Country", "Capacity (GW)", "Share of electricity"]
    assert table.as_text().splitlines() == [
        "Country | Capacity (GW) | Share of electricity",
        "China | 1,136 | 15%",
        "Brazil | 110 | 61%",
        "Canada | 83 | ",
        "United States | −2.5 | 6%",
    ]
    assert_cells_verbatim(table, INSTALLED_CSV)

    series = find_series(tables, "Hydropower capacity by country", ["capacity"])
    assert series is not None
    assert (series.label_column, series.value_column, series.unit, series.time) == (
        "Country", "Capacity (GW)", "GW", False,
    )  # fmt: skip
    assert point_summary(series) == [
        ("China", "1,136", 1136.0, 1, 2),
        ("Brazil", "110", 110.0, 2, 2),
        ("Canada", "83", 83.0, 3, 2),
        ("United States", "−2.5", -2.5, 4, 2),
    ]
    assert [p.label_cell.column for p in series.points] == [1, 1, 1, 1]
    assert series.points[0].locator == "row 1, column 'Capacity (GW)'"
    assert table.cell_locator(series.points[3].cell) == "row 4, column 'Capacity (GW)'"

    share = find_series(tables, "Hydropower", ["share", "electricity"])
    assert share is not None and share.value_column == "Share of electricity"
    assert share.unit == "%"
    assert [p.label for p in share.points] == ["China", "Brazil", "United States"]  # Canada: blank


def test_tsv_with_decimal_commas(tmp_path):
    raw = "Année\tProduction (TWh)\n2021\t2,5\n2022\t3,75\n2023\t1 200\n"
    write(tmp_path, "prod.tsv", raw)
    tables, _ = load_tables(tmp_path, lang="fr")
    series = find_series(tables, "Production hydroélectrique", ["production"], lang="fr")
    assert series is not None and series.time and series.unit == "TWh"
    assert point_summary(series) == [
        ("2021", "2,5", 2.5, 1, 2),
        ("2022", "3,75", 3.75, 2, 2),
        ("2023", "1 200", 1200.0, 3, 2),
    ]
    assert_cells_verbatim(tables[0], raw)


def test_semicolon_csv_is_sniffed(tmp_path):
    write(tmp_path, "s.csv", "Region;Wind power (MW)\nNorth;120\nSouth;80\n")
    [table], _ = load_tables(tmp_path)
    assert table.columns == ["Region", "Wind power (MW)"]
    assert [[c.text for c in row] for row in table.rows] == [["North", "120"], ["South", "80"]]


def test_xlsx_every_sheet_with_a1_references(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    workbook = openpyxl.Workbook()
    first = workbook.active
    first.title = "Notes"
    first["A1"] = "just a note"
    sheet = workbook.create_sheet("Capacity")
    sheet["B2"], sheet["C2"], sheet["D2"] = "Country", "Capacity (GW)", "Share"
    for r, (country, gw, share) in enumerate([("China", 1136, 0.15), ("Brazil", 109.9, 0.61), ("Canada", 83, 0.6)], 3):
        sheet.cell(row=r, column=2, value=country)
        sheet.cell(row=r, column=3, value=gw)
        sheet.cell(row=r, column=4, value=share).number_format = "0%"
    workbook.save(tmp_path / "hydro.xlsx")

    tables, skipped = load_tables(tmp_path)
    assert skipped == []
    [table] = tables  # the one-cell "Notes" sheet is not a table
    assert (table.name, table.index, table.title) == ("Capacity", 2, "hydro.xlsx, Capacity")
    assert table.columns == ["Country", "Capacity (GW)", "Share"]
    series = find_series(tables, "Hydropower", ["capacity"])
    assert series is not None
    assert point_summary(series) == [
        ("China", "1136", 1136.0, 1, 2),
        ("Brazil", "109.9", 109.9, 2, 2),
        ("Canada", "83", 83.0, 3, 2),
    ]
    assert [p.cell.ref for p in series.points] == ["C3", "C4", "C5"]
    assert [p.label_cell.ref for p in series.points] == ["B3", "B4", "B5"]
    assert series.points[1].locator == "row 2, column 'Capacity (GW)' (C4)"
    assert [c.text for c in table.rows[0]] == ["China", "1136", "15%"]
    assert table.rows[0][2].value == 15.0


def test_json_records_keep_numbers_as_printed(tmp_path):
    records = '[{"country": "A", "gw": 1.20}, {"country": "B", "gw": 2}, {"country": "C", "gw": NaN}]'
    write(tmp_path, "list.json", records)
    write(tmp_path, "wrapped.json", json.dumps({"data": [{"year": 2020, "twh": "1,500"}, {"year": 2021, "twh": 1600}]}))
    write(tmp_path, "single.json", json.dumps({"rows": [{"k": "x", "v": 1}, {"k": "y", "v": 2}]}))
    write(tmp_path, "config.json", json.dumps({"name": "not a table", "debug": True}))
    tables, skipped = load_tables(tmp_path)
    assert skipped == []
    assert sorted(t.path for t in tables) == ["list.json", "single.json", "wrapped.json"]
    [listed] = by_path(tables, "list.json")
    assert [[c.text for c in row] for row in listed.rows] == [["A", "1.20"], ["B", "2"], ["C", "NaN"]]
    assert [row[1].value for row in listed.rows] == [1.2, 2.0, None]
    series = find_series(tables, "Power", ["gw"])
    assert series is not None and point_summary(series) == [("A", "1.20", 1.2, 1, 2), ("B", "2", 2.0, 2, 2)]
    [wrapped] = by_path(tables, "wrapped.json")
    assert [row[1].value for row in wrapped.rows] == [1500.0, 1600.0]


def test_html_tables_without_scripts(tmp_path):
    page = """<html><head><script>var gw = "9999";</script><link rel=stylesheet href="http://127.0.0.1/x.css"></head>
    <body><p>Intro</p>
    <table><caption>Installed capacity</caption>
      <thead><tr><th>Country</th><th>Capacity (GW)</th></tr></thead>
      <tbody>
        <tr><td>China</td><td>1,136<script>document.write(1)</script></td></tr>
        <tr><td onclick="alert(1)">Brazil</td><td>110</td></tr>
        <tr><td>Canada</td><td>83</td></tr>
      </tbody>
    </table>
    <table><tr><td>Year</td><td>Output (TWh)</td></tr><tr><td>2020</td><td>10</td></tr>
      <tr><td>2021</td><td>12</td></tr></table>
    <img src="file:///etc/passwd"></body></html>"""
    write(tmp_path, "page.html", page)
    tables, skipped = load_tables(tmp_path)
    assert skipped == []
    first, second = tables
    assert (first.name, first.title, first.index) == ("Installed capacity", "page.html, Installed capacity", 1)
    assert (second.name, second.title, second.index) == ("table 2", "page.html, table 2", 2)
    assert "9999" not in first.as_text() and "document" not in first.as_text()
    series = find_series(tables, "Hydropower", ["capacity"])
    assert series is not None and series.table.index == 1
    assert point_summary(series) == [
        ("China", "1,136", 1136.0, 1, 2),
        ("Brazil", "110", 110.0, 2, 2),
        ("Canada", "83", 83.0, 3, 2),
    ]
    output = find_series(tables, "Hydropower", ["output"])
    assert output is not None and output.time and [p.label for p in output.points] == ["2020", "2021"]


def test_markdown_tables(tmp_path):
    raw = (
        "# Notes\n\nSome prose | with a pipe.\n\n"
        "| Plant | Capacity (MW) |\n|:---|---:|\n| Three Gorges | 22,500 |\n| Itaipu | 14,000 |\n\n"
        "```\n| Fake | 1 |\n| Code | 2 |\n```\n"
    )
    write(tmp_path, "notes.md", raw)
    [table], _ = load_tables(tmp_path)
    assert (table.name, table.title) == ("table 1", "notes.md, table 1")
    series = find_series([table], "Hydroelectric plants", ["capacity"])
    assert series is not None
    assert point_summary(series) == [("Three Gorges", "22,500", 22500.0, 1, 2), ("Itaipu", "14,000", 14000.0, 2, 2)]
    assert_cells_verbatim(table, raw)


def test_malformed_markdown_table_is_padded_and_cut(tmp_path):
    shutil.copy(HOSTILE / "malformed-table.md", tmp_path)
    [table], skipped = load_tables(tmp_path)
    assert skipped == []
    assert table.columns == ["Year", "Price per watt", "Note"]
    assert [[c.text for c in row] for row in table.rows] == [
        ["2010", "2.00", ""],
        ["2015", "0.60", "falling"],  # "extra cell" cut
        ["2020", "0.25", ""],
        ["2023", "", ""],
    ]
    series = find_series([table], "Solar module prices", ["price"])
    assert series is not None and series.time and series.label_column == "Year"
    assert point_summary(series) == [
        ("2010", "2.00", 2.0, 1, 2),
        ("2015", "0.60", 0.6, 2, 2),
        ("2020", "0.25", 0.25, 3, 2),
    ]


def _make_pdf(path: Path) -> None:
    try:
        from reportlab.lib.pagesizes import A4  # noqa: F401
    except ImportError:
        pass
    else:  # pragma: no cover - reportlab is not a project dependency
        from reportlab.platypus import SimpleDocTemplate, Table, TableStyle

        doc = SimpleDocTemplate(str(path))
        table = Table([["Country", "Capacity (GW)"], ["China", "1,136"], ["Brazil", "110"]])
        table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 1, "black")]))
        doc.build([table])
        return
    weasyprint = pytest.importorskip("weasyprint")
    html = """<style>table{border-collapse:collapse} td,th{border:1px solid black;padding:4px}</style>
    <p>Hydropower report</p>
    <table><tr><th>Country</th><th>Capacity (GW)</th></tr>
    <tr><td>China</td><td>1,136</td></tr><tr><td>Brazil</td><td>110</td></tr></table>"""
    weasyprint.HTML(string=html).write_pdf(path)


def test_pdf_table(tmp_path):
    _make_pdf(tmp_path / "report.pdf")
    tables, skipped = load_tables(tmp_path)
    assert skipped == []
    [table] = tables
    assert (table.path, table.title, table.index) == ("report.pdf", "report.pdf, table 1", 1)
    series = find_series(tables, "Hydropower", ["capacity"])
    assert series is not None
    assert point_summary(series) == [("China", "1,136", 1136.0, 1, 2), ("Brazil", "110", 110.0, 2, 2)]


# --------------------------------------------------------------------------- hostile files


def test_hostile_fixtures_never_raise(tmp_path):
    for item in HOSTILE.iterdir():
        shutil.copy(item, tmp_path)
    tables, skipped = load_tables(tmp_path)
    reasons = dict(skipped)
    assert reasons["empty.md"] == "empty file"
    assert "not a PDF" in reasons["not-a-pdf.pdf"]
    assert {t.path for t in tables} == {"README.md", "malformed-table.md"}


def test_cp1252_and_control_characters(tmp_path):
    raw = b"Operator,Output (MW)\nO\x92Neil \x93North\x94,120\nSmith \x96 Co,80\n"
    write(tmp_path, "legacy.csv", raw)
    write(tmp_path, "nul.csv", b"Site,Capacity (MW)\nA\x00lpha\x07,1\x000\nBe\x1b[31mta,20\n")
    tables, skipped = load_tables(tmp_path)
    assert skipped == []
    [legacy] = by_path(tables, "legacy.csv")
    assert [c.text for c in legacy.rows[0]] == ["O\u2019Neil \u201cNorth\u201d", "120"]
    assert legacy.rows[1][0].text == "Smith \u2013 Co"
    [nul] = by_path(tables, "nul.csv")
    assert [[c.text for c in row] for row in nul.rows] == [["Alpha", "10"], ["Beta", "20"]]
    assert [row[1].value for row in nul.rows] == [10.0, 20.0]


def test_non_finite_cells_give_no_value_and_no_point(tmp_path):
    write(tmp_path, "x.csv", "Item,Capacity (GW)\nA,inf\nB,NaN\nC,1\nD,-Infinity\nE,2\nF,1e400\n")
    tables, _ = load_tables(tmp_path)
    assert [row[1].value for row in tables[0].rows] == [None, None, 1.0, None, 2.0, None]
    series = find_series(tables, "Capacity", ["capacity"])
    assert series is not None and [p.label for p in series.points] == ["C", "E"]


def test_empty_oversized_and_broken_files_are_skipped_with_reasons(tmp_path, monkeypatch):
    write(tmp_path, "empty.csv", b"")
    write(tmp_path, "bad.xlsx", b"not a zip at all")
    write(tmp_path, "bad.json", "{not json")
    write(tmp_path, "big.csv", "a,b\n1,2\n3,4\n" + "x" * 200)
    monkeypatch.setattr(tables_module, "MAX_TABLE_BYTES", 100)
    tables, skipped = load_tables(tmp_path)
    assert tables == []
    assert dict(skipped) == {
        "bad.json": "could not be read: invalid JSON",
        "bad.xlsx": "could not be read: not an XLSX workbook",
        "big.csv": "too large (212 bytes, limit 100)",
        "empty.csv": "empty file",
    }


def test_five_megabyte_single_line_files(tmp_path):
    line = ("word, " * 900_000)[: 5 * 1024 * 1024]
    write(tmp_path, "long.csv", line)
    write(tmp_path, "long.md", "| " + line)
    write(tmp_path, "long.html", "<table><tr><td>" + line + "</td></tr></table>")
    write(tmp_path, "ok.csv", INSTALLED_CSV)
    start = time.monotonic()
    tables, skipped = load_tables(tmp_path)
    assert time.monotonic() - start < 30
    assert [t.path for t in tables] == ["ok.csv"]
    assert all(path.startswith("long.") for path, _ in skipped)


def test_symlink_outside_the_folder_is_skipped(tmp_path):
    corpus, outside = tmp_path / "corpus", tmp_path / "outside"
    write(outside, "secret.csv", "Name,Secret (GW)\nA,1\nB,2\n")
    write(outside, "dir/inner.csv", "Name,Secret (GW)\nA,1\nB,2\n")
    write(corpus, "real.csv", INSTALLED_CSV)
    write(corpus, ".hidden.csv", INSTALLED_CSV)
    write(corpus, ".git/x.csv", INSTALLED_CSV)
    try:
        (corpus / "link.csv").symlink_to(outside / "secret.csv")
        (corpus / "linkdir").symlink_to(outside / "dir")
        (corpus / "inside.csv").symlink_to(corpus / "real.csv")
    except OSError:  # pragma: no cover - no symlinks on this system
        pytest.skip("symlinks not supported")
    tables, skipped = load_tables(corpus)
    assert sorted(t.path for t in tables) == ["inside.csv", "real.csv"]
    assert dict(skipped) == {
        "link.csv": "symlink points outside the folder",
        "linkdir": "symlink points outside the folder",
    }
    assert all("Secret" not in t.as_text() for t in tables)


def test_paths_are_relative_and_file_cap_holds(tmp_path, monkeypatch):
    for i in range(5):
        write(tmp_path, f"sub/{i}.csv", INSTALLED_CSV)
    monkeypatch.setattr(tables_module, "MAX_FILES", 3)
    tables, skipped = load_tables(tmp_path)
    assert [t.path for t in tables] == ["sub/0.csv", "sub/1.csv", "sub/2.csv"]
    assert skipped == [("sub/3.csv", "more than 3 files: this and later files not read")]
    dumped = json.dumps([t.model_dump(exclude={"file_uri"}) for t in tables]) + json.dumps(skipped)
    assert str(tmp_path) not in dumped
    assert len({t.source_id for t in tables}) == 3


def test_missing_folder_raises(tmp_path):
    with pytest.raises(NotADirectoryError):
        load_tables(tmp_path / "nope")


# --------------------------------------------------------------------------- choosing a series


def test_unrelated_tables_give_no_series(tmp_path):
    write(tmp_path, "installed.csv", INSTALLED_CSV)
    tables, _ = load_tables(tmp_path)
    assert find_series(tables, "Coffee exports", ["coffee", "exports"]) is None
    assert find_series(tables, "", []) is None
    assert find_series([], "Hydropower", ["capacity"]) is None


def test_best_matching_table_wins(tmp_path):
    write(tmp_path, "a_prices.csv", "Country,Price (USD)\nA,1\nB,2\n")
    write(tmp_path, "b_capacity.csv", "Country,Capacity (GW)\nA,10\nB,20\n")
    write(tmp_path, "c_solar.csv", "Country,Solar capacity (GW)\nA,5\nB,6\n")
    tables, _ = load_tables(tmp_path)
    assert find_series(tables, "Capacity", ["capacity"]).table.path == "b_capacity.csv"
    assert find_series(tables, "Solar power", ["solar", "capacity"]).table.path == "c_solar.csv"
    assert find_series(tables, "Prices", ["price"]).unit == "USD"


def test_series_needs_two_numbers_and_keeps_at_most_twelve(tmp_path):
    write(tmp_path, "one.csv", "Country,Capacity (GW)\nA,10\nB,n/a\n")
    rows = "".join(f"{year},{year - 1990}\n" for year in range(1990, 2010))
    write(tmp_path, "years.csv", "Year,Output (TWh)\n" + rows)
    write(tmp_path, "many.csv", "Plant,Power (MW)\n" + "".join(f"P{i},{i}\n" for i in range(20)))
    tables, _ = load_tables(tmp_path)
    assert find_series(by_path(tables, "one.csv"), "Capacity", ["capacity"]) is None
    output = find_series(tables, "Output", ["output"])
    assert output.time and len(output.points) == 12
    assert [p.label for p in output.points] == [str(y) for y in range(1998, 2010)]  # the latest years
    power = find_series(tables, "Power", ["power"])
    assert not power.time and [p.label for p in power.points] == [f"P{i}" for i in range(12)]
