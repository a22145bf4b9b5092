"""The data agent: tables in a --corpus folder become a chart whose every value is a cell of the cited file."""

from __future__ import annotations

import csv
import json

from reportgen.config import RunOptions
from reportgen.run import generate_report
from reportgen.sources.tables import load_tables

CAPACITY = [("China", "1,200"), ("United States", "390"), ("Germany", "160"), ("India", "190")]
SHARES = [("2019", "9.1"), ("2020", "10.4"), ("2021", "11.9"), ("2022", "13.2")]


def _corpus(tmp_path):
    folder = tmp_path / "docs"
    (folder / "data").mkdir(parents=True)
    with open(folder / "data" / "wind capacity.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["Country", "Wind capacity (GW)"])
        writer.writerows(CAPACITY)
    rows = "".join(f"<tr><td>{y}</td><td>{v}</td></tr>" for y, v in SHARES)
    (folder / "solar.html").write_text(
        "<html><body><h1>Solar share</h1><p>Solar power share of world electricity, by year.</p>"
        "<table><caption>Solar power share</caption><tr><th>Year</th><th>Solar power share (%)</th></tr>"
        f"{rows}</table><script>alert(1)</script></body></html>", encoding="utf-8")
    (folder / "overview.md").write_text(
        "# Renewable electricity\n\nRenewable electricity comes mostly from wind power and solar power, the "
        "fastest-growing sources of renewable electricity. Both are variable.\n",
        encoding="utf-8")
    (folder / "wind.md").write_text(
        "# Wind power\n\nWind power is renewable electricity from turbines. "
        "Wind power capacity grew in China, the United States, Germany and India. "
        "Wind power is variable and needs grid storage. Wind power turbines stand on land and at sea.\n",
        encoding="utf-8")
    (folder / "solar.md").write_text(
        "# Solar power\n\nSolar power is renewable electricity from sunlight. "
        "Solar power share of electricity rose every year. "
        "Solar power panels convert sunlight into electricity. Solar power works best in sunny regions.\n",
        encoding="utf-8")
    return folder


def _cell_texts(folder):
    tables, _ = load_tables(folder)
    return {t.source_id: {(c.row, c.column_name): c.text for row in t.rows for c in row} for t in tables}


def _file_uris(folder):
    return {t.source_id: t.file_uri for t in load_tables(folder)[0]}


async def test_tables_in_the_corpus_become_charts_of_cited_cells(tmp_path):
    folder = _corpus(tmp_path)
    result = await generate_report(
        RunOptions(topic="Renewable electricity", sections=2, corpus_dirs=[folder], use_wiki=False),
        out_dir=tmp_path / "out", backoff_scale=0)
    report = result.report
    blueprint = json.loads((result.out_dir / "blueprint.json").read_text())
    data_tasks = [t for t in blueprint["tasks"] if t["agent"] == "data"]
    assert data_tasks and any(t["status"] == "done" for t in data_tasks)
    cells = _cell_texts(folder)
    charted = [f for f in report.figures if any(p["source_id"].startswith("table:") for p in f.data)]
    assert charted, "a chart drawn from the tables"
    refs = {r.id: r for r in report.references}
    uris = _file_uris(folder)
    for figure in charted:
        cited = {refs[n].url for n in figure.citations}
        for point in figure.data:
            table = cells[point["source_id"]]
            assert uris[point["source_id"]] in cited  # the cited file is the one the value comes from
            assert point["raw"] in table.values()  # the value is a cell of that file, as printed
            assert point["raw"] in point["quote"]
    expected = {"1,200": 1200.0, "390": 390.0, "160": 160.0, "190": 190.0, "9.1": 9.1, "13.2": 13.2}
    seen = {p["raw"]: p["value"] for f in charted for p in f.data}
    assert all(expected[raw] == value for raw, value in seen.items() if raw in expected)
    assert set(seen) <= {v for _, v in CAPACITY} | {v for _, v in SHARES}
    refs_of_tables = [r for r in report.references if r.source_id.startswith("table:")]
    assert all(r.url.startswith("file://") for r in refs_of_tables)
    assert "alert(1)" not in (result.out_dir / "report.html").read_text()


async def test_the_tables_read_are_shown_in_the_report_with_their_citation(tmp_path):
    folder = _corpus(tmp_path)
    result = await generate_report(
        RunOptions(topic="Renewable electricity", sections=2, corpus_dirs=[folder], use_wiki=False),
        out_dir=tmp_path / "out", backoff_scale=0)
    report = result.report
    assert report.tables, "the tables the data agent read are in Report.tables"
    tables, _ = load_tables(folder)
    by_uri = {t.file_uri: t for t in tables}
    refs = {r.id: r for r in report.references}
    sections = {s.id for s in report.sections}
    assert len({t.caption for t in report.tables}) == len(report.tables)  # each table shown once
    for shown in report.tables:
        assert shown.section_id in sections
        (cited,) = shown.citations
        source = by_uri[refs[cited].url]  # the cited file is the one the table was read from
        assert shown.header == source.columns
        printed = [[c.text for c in row] for row in source.rows]
        assert all(row in printed for row in shown.rows)  # every cell as printed, row by row
    html = (result.out_dir / "report.html").read_text()
    assert 'class="data-table' in html
    for shown in report.tables:
        assert shown.rows[0][0] in html and shown.header[-1] in html
        table_html = html[html.index(f'<table id="{shown.id}"'):]
        table_html = table_html[:table_html.index("</table>")]
        assert f'href="#ref-{shown.citations[0]}"' in table_html  # cited in its caption
    import pdfplumber

    with pdfplumber.open(result.out_dir / "report.pdf") as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    for shown in report.tables:
        assert f"Table {shown.number}." in text
        assert shown.header[-1] in text and shown.rows[-1][-1] in text


def test_a_tie_on_a_shared_word_goes_to_the_table_related_to_the_request(tmp_path):
    from reportgen.sources.tables import find_series

    folder = tmp_path / "tables"
    folder.mkdir()
    for name, rows in {"a.csv": [("Spain", "15"), ("Italy", "12")], "b.csv": [("Denmark", "55"), ("Germany", "30")]
                       }.items():
        kind = "Solar" if name == "a.csv" else "Wind"
        with open(folder / name, "w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerows([["Country", f"{kind} power share (%)"], *rows])
    tables, _ = load_tables(folder)
    # "power" is all the section asks: both columns score the same on it
    wind = find_series(tables, "power", ["power"], request="Wind power in Denmark and Germany")
    solar = find_series(tables, "power", ["power"], request="Solar power in Spain")
    assert wind is not None and wind.value_column == "Wind power share (%)"
    assert solar is not None and solar.value_column == "Solar power share (%)"
    assert find_series(tables, "power", ["power"]).value_column == "Solar power share (%)"  # no request: earlier


def test_the_series_verifier_rejects_a_table_row_that_is_not_in_the_file(tmp_path):
    import types

    import pytest

    from reportgen.agents.data import series_output
    from reportgen.agents.verify import verify_outputs
    from reportgen.errors import AgentError
    from reportgen.sources.tables import find_series

    folder = _corpus(tmp_path)
    tables, _ = load_tables(folder)
    series = find_series(tables, "Wind capacity", ["wind"])
    out = series_output(series, "local:docs")
    ctx = types.SimpleNamespace(lang="en")
    verify_outputs({"series": out}, {"passages": out["passages"]}, ctx)  # as read: accepted
    out["table"]["rows"][0][1] = "1,300"
    with pytest.raises(AgentError) as err:
        verify_outputs({"series": out}, {"passages": out["passages"]}, ctx)
    assert err.value.status_code == 607


async def test_a_folder_of_tables_only_gives_a_report_from_its_tables(tmp_path):
    import openpyxl

    from reportgen.sources.tables import row_sentence

    folder = tmp_path / "only-tables"
    folder.mkdir()
    with open(folder / "wind-capacity.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["Country", "Wind power capacity (GW)"], *CAPACITY])
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Wind power share"
    sheet.append(["Year", "Wind power share of electricity (%)"])
    for year, value in SHARES:
        sheet.append([int(year), float(value)])
    book.save(folder / "wind-share.xlsx")
    result = await generate_report(
        RunOptions(topic="Wind power", sections=2, corpus_dirs=[folder], use_wiki=False),
        out_dir=tmp_path / "out", backoff_scale=0)
    report = result.report
    tables, _ = load_tables(folder)
    rows = {row_sentence(t, row) for t in tables for row in t.rows}
    body = [s for s in report.sections if s.role == "body"]
    assert body
    for section in report.sections:  # every sentence is a row of a file, read aloud
        for paragraph in section.paragraphs:
            for sentence in paragraph.sentences:
                assert sentence.text in rows or not sentence.citations
    assert report.figures and report.tables
    cells = _cell_texts(folder)
    for figure in report.figures:
        for point in figure.data:
            assert point["raw"] in cells[point["source_id"]].values()
    assert {t.caption for t in report.tables} >= {"wind-capacity.csv"}
    assert all(r.url.startswith("file://") for r in report.references)


def test_a_folder_with_nothing_readable_is_still_refused(tmp_path):
    import pytest

    from reportgen.errors import InputError
    from reportgen.sources.local import load_local_documents

    folder = tmp_path / "empty"
    folder.mkdir()
    (folder / "one-row.csv").write_text("a,b\n1,2\n", encoding="utf-8")  # under two data rows: no table
    with pytest.raises(InputError, match="no table"):
        load_local_documents(folder)


def test_a_pdf_table_without_ruling_lines_is_read_with_its_whole_header(tmp_path):
    import weasyprint

    folder = tmp_path / "pdfs"
    folder.mkdir()
    weasyprint.HTML(string=(
        "<h1>Iowa electricity in 2017</h1><p>Net generation by source in 2017.</p>"
        "<table><tr><th>Source</th><th>Net generation 2017 (MWh)</th></tr>"
        "<tr><td>Fossil Fuels</td><td>29,329</td></tr><tr><td>Nuclear Energy</td><td>5,214</td></tr>"
        "<tr><td>Renewables</td><td>21,933</td></tr></table>")).write_pdf(folder / "summary.pdf")
    weasyprint.HTML(string="<p>Wind power grew in Iowa.</p><p>Coal declined as wind farms were built.</p>"
                    ).write_pdf(folder / "prose.pdf")
    tables, skipped = load_tables(folder)
    assert skipped == []
    [table] = tables  # the prose gives none
    assert table.columns == ["Source", "Net generation 2017 (MWh)"]
    assert [[c.text for c in row] for row in table.rows] == [
        ["Fossil Fuels", "29,329"], ["Nuclear Energy", "5,214"], ["Renewables", "21,933"]]
