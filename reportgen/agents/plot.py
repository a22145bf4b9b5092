"""The plot-visualisation agent: numbers found in the notes → a cited chart.

A chart never shows a number that is not in a cited source: every plotted
value must be printed in its quoted sentence, and that sentence in the text
of the passage it is attributed to, or the response is 607 (the chart
verifier of :mod:`reportgen.agents.verify`, shared with the model brain).
Numbers of several articles are combined into one chart when their unit and
kind match (:func:`reportgen.charts.propose_chart`, rule 2): the numbers of
the notes that name the section's subject, plus those of passages related to
them (:func:`related_sources`), each bar cited to its own article.
When no two numbers are comparable, the notes' dated events about the
subject, and those related articles give about themselves, make a timeline
instead (:func:`reportgen.charts.propose_timeline`: at least three distinct
years, one of them the subject's own, each printed in its quoted sentence).
Given a ``series`` (the data agent's cells of a user's table), the chart is
drawn from it instead.
Too little comparable data is 605; recovery then broadens retrieval once and
otherwise drops the chart (the section is written without it).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from reportgen import charts  # charts.draw_svg: matplotlib is imported with the first chart (issue 15)
from reportgen.acp import StatusCode
from reportgen.agents.model_common import source_ref
from reportgen.agents.ranking import about, names_designated, subject_parts, terms, without_life_places
from reportgen.agents.runtime import Brain, RunContext, require_notes
from reportgen.blueprint.model import Task
from reportgen.blueprint.relevance import Relatedness
from reportgen.charts import ChartPoint, ChartSpec, caption, extract_facts, propose_chart, propose_timeline
from reportgen.errors import AgentError
from reportgen.i18n import chart_word
from reportgen.sources.models import Passage
from reportgen.sources.text import bare_title, namesakes

__all__ = ["RELATED_THRESHOLD", "PlotBrain", "related_sources", "series_chart"]


def series_chart(series: dict[str, Any], subject: str, kinds: dict[str, Any] | None = None,
                 lang: str = "en") -> dict[str, Any]:
    """The chart of a data series (the data agent's ``series`` output).

    Args:
        series: ``{"title", "quantity", "unit", "time", "points": [{label,
            value, raw, source_id, url, title, quote}], "passages"}``: every
            point a cell of a table, quoted with its row.
        subject: The section's subject (the title when the series has none).
        kinds: The registry's chart drawers (``RunContext.chart_kinds``).
        lang: The report language (the x axis's "Year" in it: :func:`reportgen.i18n.chart_word`).

    Returns:
        The raw result of a plot brain's tool call: ``{"spec", "svg",
        "facts", "passages"}`` (``spec`` is ``None`` when the series cannot
        be charted).
    """
    passages = [Passage.model_validate(p) for p in series.get("passages") or []]
    unit = series.get("unit") or "value"
    points = []
    for p in series.get("points") or []:
        year = int(p["label"]) if series.get("time") and str(p["label"]).isdigit() else None
        points.append(ChartPoint(label=str(p["label"]), value=float(p["value"]), raw=p["raw"], unit=unit, year=year,
                                 source_id=p["source_id"], url=p["url"], title=p["title"], quote=p["quote"]))
    quantity = series.get("quantity") or subject
    try:
        spec: ChartSpec | None = ChartSpec(
            kind="line" if series.get("time") else "bar", title=series.get("title") or quantity,
            x_label=chart_word("Year", lang) if series.get("time") else "", y_label=f"{quantity} ({unit})",
            unit=unit, points=points)
    except ValidationError:
        spec = None
    svg = charts.draw_svg(spec, kinds) if spec is not None else ""
    return {"spec": spec, "svg": svg, "facts": len(points), "passages": passages}

#: Least relatedness (:class:`~reportgen.blueprint.relevance.Relatedness`) of a
#: passage that does not name a chart's subject for its numbers to join the
#: chart: above the planner's :data:`~reportgen.blueprint.relevance.ON_TOPIC_THRESHOLD`
#: (0.07), since a number is a stronger claim than a sentence. Set on the
#: ``make bench-quality`` sections: sibling planets of *Mercury (planet)* and
#: sibling languages of *Sundanese language* score 0.10-0.33; the sunflower and
#: verbena genera beside the tea family *Theaceae*, 0.08-0.10.
RELATED_THRESHOLD = 0.1


def related_sources(passages: list[Passage], subject: str, keywords: list[str], lang: str) -> set[str]:
    """The sources whose numbers may join a chart on ``subject`` though their sentences do not name it.

    The core is the passages that name the subject (every keyword, title or
    text: :func:`~reportgen.agents.ranking.about`); a passage is related when its vocabulary is close to
    theirs (:class:`~reportgen.blueprint.relevance.Relatedness`, the measure the
    planner and the quality bench use, at least :data:`RELATED_THRESHOLD`): the
    articles on Venus and Jupiter beside the one on Mercury the planet, not the
    one on China in a report on tea.

    Args:
        passages: The passages read for the chart.
        subject: The chart's subject (the section title).
        keywords: The terms a passage must hold to name the subject.
        lang: Language of the passages.

    Returns:
        Source ids: the core's and the related ones' (empty when no passage
        names the subject: nothing to relate to).
    """
    core = naming(passages, keywords, lang)
    if not core:
        return set()
    scorer = Relatedness([subject, *(p.text for p in core)], [p.text for p in passages], lang, subject=subject)
    ids = {p.source_id for p in core}
    return ids | {p.source_id for p in passages if scorer.score(f"{p.title} {p.text}") >= RELATED_THRESHOLD}


def naming(passages: list[Passage], keywords: list[str], lang: str) -> list[Passage]:
    """The passages that name a chart's subject: every keyword in the title or the text
    (:func:`~reportgen.agents.ranking.about`), a place where someone was born or died aside
    (:func:`~reportgen.agents.ranking.without_life_places`: it does not make the text one on the place).

    Args:
        passages: The passages read for the chart.
        keywords: The terms a passage must hold to name the subject.
        lang: Language of the passages.

    Returns:
        Those passages, in their order.
    """
    return [p for p in passages if about(f"{p.title} {without_life_places(p.text, lang)}", keywords, lang)]


def on_the_report(passages: list[Passage], theme: str, subject: str, lang: str) -> list[Passage]:
    """The passages on the report's subject among a section's, in a report whose subject is not the section's theme:
    the theme's own article, and the other passages that name the report's subject (each of two subjects counting
    alone; every term of one, in the title or the text: :func:`~reportgen.agents.ranking.about`, the chart's own
    rule for its numbers' sentences). A chart draws only on them (:meth:`PlotBrain._from_notes`): a bar chart
    compares their numbers (a reader found the Dnieper's length beside the Krishna's in "Rivers of India", and the
    Bahamas' area beside the Faroe Islands' in a report on Iceland), a timeline shows their events. A reader found
    "Key dates: India and related subjects" in a report on the Silk Road drawn from the Asian Games (1951, 1982),
    which no sentence of the report quotes: the section's research had found it by the theme's word, and the
    timeline's events need only name the theme.

    Args:
        passages: The section's research notes (and any found by broadening).
        theme: The section's theme (its title, the chart's ``subject``).
        subject: The report's subject as the planner read it (the input ``report_subject``); empty keeps all.
        lang: Language of the passages.

    Returns:
        The passages kept, in their order: all of them when ``subject`` is empty or the theme writes it.
    """
    parts = [sorted(terms(part, lang)) for part in subject_parts(subject)]
    if not subject or not all(parts) or any(set(part) <= terms(theme, lang) for part in parts):
        return passages
    own = terms(bare_title(theme), lang)
    return [p for p in passages if terms(bare_title(p.title), lang) == own
            or any(about(f"{p.title} {without_life_places(p.text, lang)}", part, lang) for part in parts)]


class PlotBrain(Brain):
    """Finds comparable numbers, builds a chart spec and draws it as SVG.

    Inputs: ``notes`` (passage dicts, required), ``subject`` (str),
    ``keywords`` (the section's distinctive terms; only numbers whose sentence
    or source title holds one are charted, so a section never shows another
    section's numbers).
    Outputs: ``chart`` (dict: ``spec``, ``svg``, ``caption``, ``sources``).
    """

    provides = ("chart",)

    def build_request(
        self, task: Task, inputs: dict[str, Any], strategy: str, ctx: RunContext
    ) -> dict[str, Any]:
        notes = require_notes(inputs)
        subject = inputs.get("subject") or ctx.topic
        keywords = list(inputs.get("keywords") or sorted(terms(subject, ctx.lang)))
        return {"notes": notes, "subject": subject, "keywords": keywords, "broaden": strategy == "broaden",
                "series": inputs.get("series"), "report_subject": inputs.get("report_subject") or ""}

    def call(self, params: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
        series = params["series"]
        if series and series.get("match") != "topic":  # the user's table on this very subject: chart it
            return series_chart(series, params["subject"], ctx.chart_kinds, ctx.lang)
        drawn = self._from_notes(params, ctx)
        if drawn["spec"] is None and series:  # a table on the report's topic, when the notes hold no chart
            return series_chart(series, params["subject"], ctx.chart_kinds, ctx.lang)
        return drawn

    def _from_notes(self, params: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
        passages = [Passage.model_validate(p) for p in params["notes"]]
        if params["broaden"]:
            seen = {(p.source_id, p.text) for p in passages}
            for extra in ctx.search.search(f"{params['subject']} {ctx.topic}", k=25):
                if (extra.source_id, extra.text) not in seen:
                    passages.append(extra)
        # an article on a namesake is on another thing: "Western Front (World War II)" gave the timeline of the
        # section "Western Front (World War I)" the fall of France in 1940
        # as is one not writing the whole of a name closing on a designator: the planet Saturn for "Saturn V"
        passages = [p for p in passages if not namesakes(p.title, params["subject"])
                    and (p.title == params["subject"] or names_designated(f"{p.title}. {p.text}", params["subject"]))]
        # in a section on another theme, a chart draws only on the texts on the report's subject (on_the_report):
        # its bars compare them ("Length: Krishna River, Godavari River" in a report on the rivers of India, not the
        # Dnieper beside them), and a timeline's events are theirs
        kept = on_the_report(passages, params["subject"], params.get("report_subject") or "", ctx.lang)
        on_report = {p.source_id for p in kept}
        found = extract_facts(passages, lang=ctx.lang)
        usable = [f for f in found if f.source_id in on_report]
        on_subject = [f for f in usable if about(f"{f.title} {without_life_places(f.sentence, ctx.lang)}",
                                                 params["keywords"], ctx.lang)]
        related = related_sources(passages, params["subject"], params["keywords"], ctx.lang)
        spec = propose_chart(on_subject, params["subject"], [f for f in usable if f.source_id in related], ctx.lang)
        named = {p.source_id for p in naming(passages, params["keywords"], ctx.lang)}
        if spec is not None and not any(point.source_id in named for point in spec.points):
            spec = None  # a swordfish's two lengths, an article related to "Coral reef fish" that names no reef
        if spec is None:  # no comparable numbers: the dated events, when there are enough of them
            spec = propose_timeline(kept, params["subject"], params["keywords"], ctx.lang, related)
        svg = charts.draw_svg(spec, ctx.chart_kinds) if spec is not None else ""
        return {"spec": spec, "svg": svg, "facts": len(found), "passages": passages}

    def check_response(
        self, task: Task, params: dict[str, Any], raw: Any, ctx: RunContext
    ) -> dict[str, Any]:
        spec = raw["spec"]
        if spec is None:
            raise AgentError(
                StatusCode.INCOMPLETE_INFORMATION,
                f"the sources hold too little comparable data for a chart on "
                f"{params['subject']!r} ({raw['facts']} numbers found, none comparable; too few dated "
                f"events for a timeline)",
                "broaden retrieval, else drop the chart",
            )
        # every value printed in its cited source: checked by the chart verifier (agents.verify)
        by_id = {p.source_id: p for p in raw["passages"]}
        sources = {pt.source_id: source_ref(by_id[pt.source_id]) for pt in spec.points if pt.source_id in by_id}
        return {
            "chart": {
                "spec": spec.model_dump(mode="json"),
                "svg": raw["svg"],
                "caption": caption(spec, ctx.lang),
                "sources": list(sources.values()),
            }
        }
