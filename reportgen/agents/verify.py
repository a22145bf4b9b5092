"""One verifier per output: checks what any brain produced, extractive or model.

The brain of an agent is pluggable; the rules are not. Whatever brain wrote a
section, drew a chart or took notes, the same checks run on its output before
it is stored in the blueprint (ACP phase 3, ``AGENT_RESPONSE``):

* ``notes`` — every note is a passage fetched in this run; every ``claims``
  entry names one of the notes' sources;
* ``section`` — every cited source of every sentence was fetched for this task;
* ``chart`` / ``series`` — every value is printed in its cited source: its
  quote is in the fetched text and the number is in the quote, read by the
  one quantity reader (:func:`reportgen.agents.model_common.locate_number`);
  a chart value is never a year, and the unit printed beside it is the
  chart's (a series' cells are located by row and column instead); a
  series' ``table`` and ``tables`` show only rows of their cited files,
  cells as printed.

A failed check is 607 WRONG_INFORMATION: the output is never published, and
recovery asks again or reroutes.
"""

from __future__ import annotations

from typing import Any, Callable

from reportgen.acp import StatusCode
from reportgen.agents.model_common import locate_number
from reportgen.errors import AgentError
from reportgen.sources.models import Passage

__all__ = ["VERIFIERS", "fetched_passages", "verify_outputs"]

Verifier = Callable[[Any, dict[str, Any], "dict[str, list[str]] | None", Any], None]


def fetched_passages(raw: Any) -> dict[str, list[str]] | None:
    """The texts fetched by a tool call, by source id (``None``: the brain did not say).

    Brains return what they read under ``raw["passages"]`` (a list of
    :class:`~reportgen.sources.models.Passage` or passage dicts), or as the
    raw result itself (a search's list of passages).
    """
    items = raw.get("passages") if isinstance(raw, dict) else raw if isinstance(raw, list) else None
    if items is None:
        return None
    texts: dict[str, list[str]] = {}
    for item in items:
        p = item if isinstance(item, Passage) else Passage.model_validate(item)
        texts.setdefault(p.source_id, []).append(p.text)
    return texts


def _wrong(message: str, resolution: str) -> AgentError:
    return AgentError(StatusCode.WRONG_INFORMATION, message, resolution)


def verify_notes(notes: Any, outputs: dict[str, Any], fetched: dict[str, list[str]] | None, ctx: Any) -> None:
    """Notes are passages fetched in this run; claims cite the notes' sources.

    Raises:
        AgentError: 603 when notes are not passages; 607 when a note or a
            claim names a source that was not fetched.
    """
    if not isinstance(notes, list):
        raise AgentError(StatusCode.INVALID_PARAMETER_USAGE, "notes must be a list of passages")
    ids = set()
    for note in notes:
        try:
            p = Passage.model_validate(note)
        except ValueError:
            raise AgentError(StatusCode.INVALID_PARAMETER_USAGE, "a note is not a passage") from None
        if fetched is not None and p.text not in fetched.get(p.source_id, []):
            raise _wrong(f"a note cites {p.source_id!r}, which was not fetched in this run",
                         "take notes from the fetched passages only")
        ids.add(p.source_id)
    for claim in outputs.get("claims") or []:
        if claim.get("source_id") not in ids:
            raise _wrong(f"a claim cites {claim.get('source_id')!r}, which is not among the notes",
                         "tie every claim to a fetched passage")


def verify_section(section: Any, outputs: dict[str, Any], fetched: dict[str, list[str]] | None, ctx: Any) -> None:
    """Every source a sentence cites was fetched for this task.

    Raises:
        AgentError: 607 naming the sentence's unknown source.
    """
    if fetched is None:
        return
    for sentence in [*section.get("sentences", []), *section.get("alternates", [])]:
        for source in sentence.get("sources") or []:
            if source["source_id"] not in fetched:
                raise _wrong(f"a sentence of {section.get('title')!r} cites {source['source_id']!r}, "
                             "which was not retrieved for it", "rewrite the section from the notes")


def _quoted_in_source(point: dict[str, Any], fetched: dict[str, list[str]] | None, what: str, fix: str) -> str:
    """The point's quote, checked to be in the text fetched for its cited source (any text when not fetched)."""
    texts = fetched.get(point["source_id"], []) if fetched is not None else [point["quote"]]
    quote = str(point["quote"])
    if not any(quote in t for t in texts):
        raise _wrong(f"the {what} {point['raw']!r} is quoted from text that is not in its cited "
                     f"source {point['source_id']!r}", fix)
    return quote


def _check_points(points: list[dict[str, Any]], fetched: dict[str, list[str]] | None, lang: str, what: str,
                  *, units: bool) -> None:
    for point in points:
        quote = _quoted_in_source(point, fetched, f"{what} value", "rebuild it from the sources' own numbers")
        unit = point.get("unit") if units else None
        if locate_number(float(point["value"]), quote, lang, unit=unit, time_axis=not units) is None:
            with_unit = f" {unit}" if unit and unit != "value" else ""
            raise _wrong(f"the {what} value {point['value']:g}{with_unit} ({point['raw']!r}) is not printed in its "
                         f"cited source {point['source_id']!r} (a year is not a quantity; the unit printed beside "
                         "the number must be the chart's)", "rebuild it from the sources' own numbers")


def _check_years(points: list[dict[str, Any]], fetched: dict[str, list[str]] | None, lang: str) -> None:
    """Every timeline year is printed, as its ``raw`` text, in its quoted sentence, and the sentence in its source."""
    from reportgen.charts.numbers import printed_years

    for point in points:
        quote = _quoted_in_source(point, fetched, "timeline year", "rebuild it from the sources' own sentences")
        printed = {(raw, year) for raw, year, _ in printed_years(quote, lang)}
        if (point["raw"], point["value"]) not in printed or point.get("year") != point["value"]:
            raise _wrong(f"the timeline year {point['value']:g} ({point['raw']!r}) is not printed in its cited "
                         f"sentence of {point['source_id']!r}", "rebuild it from the sources' own sentences")


def verify_chart(chart: Any, outputs: dict[str, Any], fetched: dict[str, list[str]] | None, ctx: Any) -> None:
    """Every chart value is printed in its cited source.

    A timeline's values are years: each must be a year printed in its quoted
    sentence as its ``raw`` text says (:func:`reportgen.charts.numbers.printed_years`,
    the reader that found it), and the sentence in its source.

    Raises:
        AgentError: 607 naming the value and the source.
    """
    lang = getattr(ctx, "lang", "en")
    if chart["spec"].get("kind") == "timeline":
        _check_years(chart["spec"]["points"], fetched, lang)
        return
    _check_points(chart["spec"]["points"], fetched, lang, "chart", units=True)


def verify_series(series: Any, outputs: dict[str, Any], fetched: dict[str, list[str]] | None, ctx: Any) -> None:
    """Every value of a data series is a cell printed in its cited file, and every row of its table a row of it.

    Raises:
        AgentError: 607 naming the value and the file.
    """
    _check_points(series["points"], fetched, getattr(ctx, "lang", "en"), "series", units=False)
    for table in [series.get("table"), *(series.get("tables") or [])]:
        if not table:
            continue
        source = table["source"]["source_id"]
        texts = fetched.get(source, []) if fetched is not None else None
        if fetched is not None and not texts:
            raise _wrong(f"the table cites {source!r}, which was not read in this run",
                         "show only tables read from the corpus")
        for row in table["rows"]:
            line = " | ".join(row)
            if texts is not None and not any(line in t.splitlines() for t in texts):
                raise _wrong(f"a row of the table ({line[:80]!r}) is not a row of its cited file {source!r}",
                             "show the file's rows as printed")


#: The verifier of each output name.
VERIFIERS: dict[str, Verifier] = {
    "notes": verify_notes,
    "section": verify_section,
    "chart": verify_chart,
    "series": verify_series,
}


def verify_outputs(outputs: dict[str, Any], raw: Any, ctx: Any) -> None:
    """Run the verifier of every output in ``outputs``.

    Args:
        outputs: The outputs a brain produced, by name.
        raw: The tool call's raw result (its ``passages`` are what was fetched).
        ctx: The run context (its ``lang``).

    Raises:
        AgentError: The first failed check (603 or 607).
    """
    fetched = fetched_passages(raw)
    for name, value in outputs.items():
        verifier = VERIFIERS.get(name)
        if verifier is not None and value is not None:
            verifier(value, outputs, fetched, ctx)
