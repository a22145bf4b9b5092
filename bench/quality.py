"""``python -m bench.quality`` (``make bench-quality``): report quality on the kinds of request people type.

Runs every request of ``../shared/cases/quality/topics.txt`` (plain subjects,
instructions, questions, two subjects, ambiguous words, a subject without an
article, French and Spanish, the Agent Context Protocols paper's five
requests) plus an own-documents scenario built from a real public dataset an
installable package ships (``vega_datasets``: Iowa's electricity by source,
as CSV and XLSX, a PDF holding a table, and a few notes), offline, and prints
one table (and ``bench/quality.json``):

report produced (or the message given), body words, body sections, on-topic
sections by the project's measure (:func:`reportgen.blueprint.relevance.on_topic`),
sections with a sentence that writes the subject (``naming``, see
:func:`measure`), figures (all; then quantity charts and timelines apart: a
timeline is the chart of dated events a section gets when its sources hold no
comparable numbers, at most one per report), tables, whether the report has an
introduction and a conclusion (``ends``), citations per 100 words, repeated sentences, citations that
do not resolve, and wall time. ``--out DIR`` keeps the reports (one folder
each, as ``reportgen report`` writes them) for reading. With a model configured (``REPORTGEN_LLM_*``)
the same bench runs in model mode.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TOPICS = REPO.parent / "shared" / "cases" / "quality" / "topics.txt"
RESULTS = REPO / "bench" / "quality.json"


def read_topics(path: Path = TOPICS) -> list[tuple[str, str]]:
    """``(kind, request)`` pairs: a ``#`` line names the kind of the requests that follow."""
    kind, out = "", []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            kind = line.lstrip("# ").strip()
            continue
        out.append((kind, line))
    return out


def own_documents(folder: Path) -> Path:
    """The own-documents scenario: Iowa electricity by source (vega_datasets), as CSV, XLSX and a PDF table."""
    import csv

    import openpyxl
    import weasyprint
    from vega_datasets import local_data

    frame = local_data.iowa_electricity()  # year, source, net_generation (MWh), shipped in the wheel
    folder.mkdir(parents=True, exist_ok=True)
    years = sorted({int(str(y)[:4]) for y in frame["year"]})
    by = {(int(str(r.year)[:4]), r.source): int(r.net_generation) for r in frame.itertuples()}
    sources = sorted({r.source for r in frame.itertuples()})
    with open(folder / "iowa-net-generation.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["Year", *(f"{s} net generation (MWh)" for s in sources)])
        for y in years:
            writer.writerow([y, *(f"{by[(y, s)]:,}" for s in sources)])
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Renewables share"
    sheet.append(["Year", "Renewables share of Iowa electricity (%)"])
    for y in years:
        total = sum(by[(y, s)] for s in sources)
        sheet.append([y, round(100 * by[(y, "Renewables")] / total, 1)])
    book.save(folder / "iowa-renewables-share.xlsx")
    rows = "".join(f"<tr><td>{s}</td><td>{by[(years[-1], s)]:,}</td></tr>" for s in sources)
    weasyprint.HTML(string=(
        f"<h1>Iowa electricity in {years[-1]}</h1><p>Net generation by source in {years[-1]}.</p>"
        f"<table><tr><th>Source</th><th>Net generation {years[-1]} (MWh)</th></tr>{rows}</table>")).write_pdf(
        folder / "iowa-electricity-summary.pdf")
    (folder / "notes.md").write_text(
        "# Electricity in Iowa\n\n"
        "Iowa generates electricity from fossil fuels, nuclear power and renewables. "
        "Wind power is the largest renewable source of electricity in Iowa, and its share grew every year. "
        "Coal-fired generation in Iowa declined as wind farms were built.\n\n"
        "## Wind power in Iowa\n\n"
        "Iowa's wind farms stand mostly in the north and west of the state. "
        "Wind power made renewables the largest source of electricity in Iowa by the end of the period.\n\n"
        "## Fossil fuels in Iowa\n\n"
        "Fossil fuels, mostly coal and natural gas, were the largest source of electricity in Iowa at the start "
        "of the period. Their net generation fell as renewables grew.\n", encoding="utf-8")
    return folder


def measure(result: Any, started: float, space: Any = None, core: list[str] | None = None,
            subjects: list[str] | None = None) -> dict[str, Any]:
    """The quality figures of one finished report (``space``, ``core``, ``subjects``: see :func:`reference`).

    Besides the on-topic measure, ``naming`` counts the body sections with a
    sentence that writes one of the request's subjects
    (:func:`~reportgen.agents.ranking.names_subject`): a plainer measure, and
    the one that shows a report drawn on passages near a subject the corpora
    do not write ("electric vehicle").
    """
    from reportgen.agents.ranking import names_subject
    from reportgen.blueprint.relevance import on_topic
    from reportgen.coordinate import repeated_sentences

    report = result.report
    body = [s for s in report.sections if s.role == "body"]
    words = sum(len(s.text.split()) for sec in body for p in sec.paragraphs for s in p.sentences)
    sentences = [s.text for sec in report.sections for p in sec.paragraphs for s in p.sentences]
    refs = {r.id for r in report.references}
    cited = [n for sec in report.sections for p in sec.paragraphs for s in p.sentences for n in s.citations]
    cited += [n for f in report.figures for n in f.citations]
    return {
        "produced": True,
        "message": "",
        "body_words": words,
        "sections": len(body),
        "on_topic": sum(on_topic(report, sec, space=space, core=core) for sec in body),
        "naming": sum(any(names_subject(s.text, " and ".join(subjects)) for p in sec.paragraphs for s in p.sentences)
                      for sec in body) if subjects else 0,
        "figures": len(report.figures),
        "charts": sum(f.kind != "timeline" for f in report.figures),
        "timelines": sum(f.kind == "timeline" for f in report.figures),
        "tables": len(report.tables),
        "introduction": any(sec.role == "introduction" and sec.paragraphs for sec in report.sections),
        "conclusion": any(sec.role == "conclusion" and sec.paragraphs for sec in report.sections),
        "cites_per_100w": round(100 * len(cited) / max(1, words), 1),
        "repeated": repeated_sentences(sentences, report.lang),  # the same words, or nearly (the report's rule)
        "unresolved": sum(n not in refs for n in cited),
        "seconds": round(time.perf_counter() - started, 1),
    }


def reference(options: Any) -> tuple[Any, list[str] | None, list[str]]:
    """What a report's sections are measured against: its corpora's topic space and the subject's core.

    The core is the passages the subject's vocabulary is learnt from: its own
    document, the main sense's for a word with only disambiguated articles,
    else the passages densest in its terms (the planner's rule,
    :func:`reportgen.blueprint.planner.gather_themes`), and the subject's
    words when the corpora hold nothing; the space is the corpora's
    (:func:`reportgen.sources.index.topic_space`). Neither depends on what
    the report chose to quote.
    """
    from reportgen.blueprint.planner import gather_themes, resolve_subject
    from reportgen.blueprint.request import read_request, section_count
    from reportgen.sources import open_backends
    from reportgen.sources.index import MultiSearch, topic_space

    with open_backends(options) as sources:
        search = MultiSearch(sources.backends)
        request = resolve_subject(read_request(options.topic, options.lang), search, options.lang)
        _, core, _ = gather_themes(request, search, section_count(options.sections, request), options.lang)
        return topic_space(*sources.backends), [p.text for p in core] or request.subjects, request.subjects


async def run_one(request: str, out: Path, corpus: Path | None = None) -> dict[str, Any]:
    """Make one report offline and measure it (or record the message given)."""
    from reportgen.config import RunOptions, get_settings, resolve_language
    from reportgen.errors import ReportgenError
    from reportgen.run import generate_report

    settings = get_settings()
    started = time.perf_counter()
    try:
        lang = resolve_language(request, None, encyclopedia=corpus is None, model=settings.llm_configured)
        # the sections a user gets without --sections: the request's wording decides (section_count)
        options = RunOptions(topic=request, lang=lang, corpus_dirs=[corpus] if corpus else [],
                             use_wiki=corpus is None)
        result = await generate_report(options, settings=settings, out_dir=out)
    except ReportgenError as exc:
        return {"produced": False, "message": str(exc)[:160], "seconds": round(time.perf_counter() - started, 1)}
    space, core, subjects = reference(options)
    return measure(result, started, space, core, subjects)


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The targets of the quality issue, measured over ``rows``."""
    made = [r for r in rows if r["produced"]]
    paper = [r for r in made if r["kind"].startswith("the five report requests")]
    sections = sum(r["sections"] for r in made)
    return {
        "reports": f"{len(made)}/{len(rows)}",
        "report_share": round(len(made) / max(1, len(rows)), 3),
        "paper_min_sections": min((r["sections"] for r in paper), default=0),
        "paper_reports": len(paper),
        "on_topic_share": round(sum(r["on_topic"] for r in made) / max(1, sections), 3),
        "naming_share": round(sum(r.get("naming", 0) for r in made) / max(1, sections), 3),
        "chart_share": round(sum(r["figures"] > 0 for r in made) / max(1, len(made)), 3),
        "quantity_chart_share": round(sum(r.get("charts", 0) > 0 for r in made) / max(1, len(made)), 3),
        "timeline_share": round(sum(r.get("timelines", 0) > 0 for r in made) / max(1, len(made)), 3),
        "introduction_share": round(sum(bool(r.get("introduction")) for r in made) / max(1, len(made)), 3),
        "conclusion_share": round(sum(bool(r.get("conclusion")) for r in made) / max(1, len(made)), 3),
        "median_body_words": statistics.median([r["body_words"] for r in made]) if made else 0,
        "repeated": sum(r["repeated"] for r in made),
        "unresolved": sum(r["unresolved"] for r in made),
    }


def _ends(row: dict[str, Any]) -> str:
    """``I`` for an introduction, ``C`` for a conclusion, ``-`` for a missing one ("I C", "I -")."""
    return f"{'I' if row.get('introduction') else '-'} {'C' if row.get('conclusion') else '-'}"


def main(argv: list[str] | None = None) -> int:
    """Run the quality bench, print the table, write ``bench/quality.json``."""
    parser = argparse.ArgumentParser(prog="python -m bench.quality", description=__doc__)
    parser.add_argument("--topics", type=Path, default=TOPICS)
    parser.add_argument("--json", type=Path, default=RESULTS)
    parser.add_argument("--only", help="run only requests containing this text")
    parser.add_argument("--out", type=Path, help="keep the reports in this folder (default: a temp folder, removed)")
    args = parser.parse_args(argv)
    from rich.console import Console
    from rich.table import Table

    cases = [(k, t, None) for k, t in read_topics(args.topics) if not args.only or args.only in t]
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="reportgen-quality-") as tmp:
        os.environ.setdefault("REPORTGEN_HOME", str(Path(tmp) / "home"))
        if not args.only:
            cases.append(("own documents (vega_datasets: Iowa electricity)", "Electricity in Iowa",
                          own_documents(Path(tmp) / "iowa")))
        for kind, request, corpus in cases:
            row = asyncio.run(run_one(request, args.out or Path(tmp) / "out", corpus))
            rows.append({"kind": kind, "request": request, **row})
            print(f"{row['seconds']:6.1f} s  {request[:70]}", file=sys.stderr)
    table = Table(title="make bench-quality")
    columns = ("request", "report", "words", "sect.", "on-topic", "naming", "fig.", "charts", "timel.", "tab.",
               "ends", "cit/100w", "rep.", "unres.", "s")
    for col in columns:
        table.add_column(col, overflow="fold")
    for r in rows:
        if r["produced"]:
            table.add_row(r["request"][:48], "yes", str(r["body_words"]), str(r["sections"]), str(r["on_topic"]),
                          str(r["naming"]), str(r["figures"]), str(r["charts"]), str(r["timelines"]),
                          str(r["tables"]), _ends(r), str(r["cites_per_100w"]), str(r["repeated"]),
                          str(r["unresolved"]), str(r["seconds"]))
        else:
            table.add_row(r["request"][:48], "no: " + r["message"][:60], *[""] * (len(columns) - 3),
                          str(r["seconds"]))
    Console(width=160).print(table)
    totals = summary(rows)
    print(json.dumps(totals, indent=2))
    args.json.write_text(json.dumps({"rows": rows, "summary": totals}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
