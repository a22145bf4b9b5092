"""The data agent's brain: tables in the user's documents → a data series the plot agent draws.

It reads every table of the run's ``--corpus`` folders (CSV, TSV, XLSX, JSON
records, and tables inside HTML, Markdown and PDF documents; see
:mod:`reportgen.sources.tables`), picks the column that best matches the
section's subject, and returns it as a ``series``: each point a cell of a
cited file, quoted with its row and located by row and column. The series
verifier (:mod:`reportgen.agents.verify`) checks every value is printed in
its cited table before the plot agent may draw it.

Outcomes: a section whose subject no table matches falls back to the
report's topic; when no table matches either, the output is ``series: None``
(not a failure: the chart is then drawn from the notes, and the report's
Limitations are not cluttered with sections that simply have no table).
"""

from __future__ import annotations

import re
import threading
from typing import Any

from reportgen.acp import StatusCode
from reportgen.agents.ranking import terms
from reportgen.agents.runtime import Brain, RunContext
from reportgen.blueprint.model import Task
from reportgen.errors import AgentError
from reportgen.sources.models import Passage
from reportgen.sources.tables import DataTable, Series, find_series, load_tables

__all__ = ["MORE_TABLES", "TABLE_ROWS", "DataBrain", "series_output", "table_output"]

_LOCK = threading.Lock()

#: Most rows of a table shown in the report (the charted rows when it has more).
TABLE_ROWS = 25
#: Most other tables on the report's topic shown beside the charted one.
MORE_TABLES = 5


def _tables(ctx: RunContext) -> list[DataTable]:
    """Every table of the run's folders, read once per run (kept in ``ctx.extra``)."""
    with _LOCK:
        cached = ctx.extra.get("tables")
        if cached is None:
            cached = []
            for folder in ctx.corpus_dirs:
                found, _ = load_tables(folder, lang=ctx.lang)
                cached += [(folder.name, t) for t in found]
            ctx.extra["tables"] = cached
    return [t for _, t in cached]


def series_output(series: Series, corpus: str) -> dict[str, Any]:
    """The ``series`` output: points quoted from their table row, and the table as the fetched passage.

    Args:
        series: A series found by :func:`~reportgen.sources.tables.find_series`.
        corpus: The corpus name the table's file belongs to.

    Returns:
        ``{"title", "quantity", "unit", "time", "points", "passages", "table"}``
        (the brain adds ``match``: ``subject`` or ``topic``, what the table
        matched); each point ``{label, value, raw, source_id, url, title,
        quote, locator, path}``; ``table`` is :func:`table_output`.
    """
    table = series.table
    unit = series.unit
    quantity = re.sub(r"\s*\([^)]*\)\s*$", "", series.value_column).strip() or series.value_column
    rows = {row[0].row: " | ".join(c.text for c in row) for row in table.rows if row}
    points = [
        {"label": p.label, "value": p.value, "raw": p.cell.text, "source_id": table.source_id,
         "url": table.file_uri, "title": table.title, "quote": rows[p.cell.row], "locator": p.locator,
         "path": table.path}
        for p in series.points
    ]
    passage = Passage(source_id=table.source_id, title=table.title, url=table.file_uri, text=table.as_text(),
                      corpus=corpus)
    return {"title": f"{quantity} ({table.title})", "quantity": quantity, "unit": unit, "time": series.time,
            "points": points, "passages": [passage.model_dump()], "table": table_output(series, corpus)}


def table_output(series: Series, corpus: str) -> dict[str, Any]:
    """The table a series was read from, as the report shows it (``Report.tables``).

    Every column, cells exactly as printed; at most :data:`TABLE_ROWS` rows:
    the rows the series charts when the table is longer (the last ones of a
    time series), so the table shows the charted values beside the rest of
    their rows.

    Args:
        series: A series found by :func:`~reportgen.sources.tables.find_series`.
        corpus: The corpus name the table's file belongs to.

    Returns:
        ``{"caption", "header", "rows", "total_rows", "source": {source_id,
        title, url, corpus}}``.
    """
    table = series.table
    charted = {p.cell.row for p in series.points}
    rows = table.rows
    if len(rows) > TABLE_ROWS:
        rows = [r for r in rows if r and r[0].row in charted][:TABLE_ROWS] or rows[:TABLE_ROWS]
    return {
        "caption": table.title if table.name in table.title else f"{table.name} ({table.title})",
        "header": list(table.columns),
        "rows": [[c.text for c in row] for row in rows],
        "total_rows": len(table.rows),
        "source": {"source_id": table.source_id, "title": table.title, "url": table.file_uri, "corpus": corpus},
    }


class DataBrain(Brain):
    """Finds the series for a subject in the user's tables.

    Inputs: ``subject`` (str, required), ``keywords`` (list of str).
    Outputs: ``series`` (see :func:`series_output`), or ``None`` when no table
    matches; its ``tables`` are the other tables on the report's topic (at most
    :data:`MORE_TABLES`), shown in the report beside the charted one.
    """

    provides = ("tables",)

    def build_request(self, task: Task, inputs: dict[str, Any], strategy: str, ctx: RunContext) -> dict[str, Any]:
        subject = inputs.get("subject")
        if not isinstance(subject, str) or not subject.strip():
            raise AgentError(StatusCode.INVALID_PARAMETER_USAGE, "the subject must be non-empty text")
        return {"subject": subject.strip(), "keywords": [str(k) for k in inputs.get("keywords") or []]}

    def call(self, params: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
        tables = _tables(ctx)
        match = "subject"
        series = find_series(tables, params["subject"], params["keywords"], ctx.lang, request=ctx.topic)
        if series is None:
            match, series = "topic", find_series(tables, ctx.topic, sorted(terms(ctx.topic, ctx.lang)), ctx.lang,
                                                 request=ctx.topic)
        if series is None:
            return {"series": None, "tables": len(tables), "passages": []}
        corpus = next((f"local:{d.name}" for d in ctx.corpus_dirs), "local")
        out = {**series_output(series, corpus), "match": match}
        topic_terms = sorted(terms(ctx.topic, ctx.lang))
        others = [found for t in tables if t.source_id != series.table.source_id
                  for found in [find_series([t], ctx.topic, topic_terms, ctx.lang)] if found is not None]
        out["tables"] = [table_output(s, corpus) for s in others[:MORE_TABLES]]
        out["passages"] += [series_output(s, corpus)["passages"][0] for s in others[:MORE_TABLES]]
        return {"series": out, "tables": len(tables), "passages": out["passages"]}

    def check_response(self, task: Task, params: dict[str, Any], raw: Any, ctx: RunContext) -> dict[str, Any]:
        return {"series": raw["series"]}  # None: no table on this subject; the plot agent uses the notes
