"""The plot agent with a model: the model proposes chart data, the code checks every value.

The model returns labels, values, a unit and, for each value, the label of
the passage it comes from. Every value must be printed in that passage
(ordinary formatting allowed: thousands separators, decimal commas, percent
signs, "million"; signs kept), not as a year, and with the proposed unit if
a unit is printed beside it, or the response is 607 and the chart is never
drawn. The
chart kind is the code's choice: a line when every value has a distinct
year, bars otherwise.
"""

from __future__ import annotations

from typing import Any, cast

from pydantic import BaseModel, Field, ValidationError

from reportgen import charts  # charts.draw_svg: matplotlib is imported with the first chart (issue 15)
from reportgen.acp import StatusCode
from reportgen.agents.model_common import (
    FEEDBACK_INPUT,
    attempt_deadline,
    fit_passages,
    label_sources,
    locate_number,
    sources_block,
)
from reportgen.agents.plot import PlotBrain, series_chart
from reportgen.agents.runtime import Brain, RunContext, require_notes
from reportgen.blueprint.model import Task
from reportgen.charts import ChartPoint, ChartSpec, caption
from reportgen.errors import AgentError
from reportgen.i18n import chart_word
from reportgen.sources.models import Passage

__all__ = ["ChartProposal", "ModelPlotBrain", "ProposedPoint"]


#: Most points one chart proposal may hold (``maxItems`` in the schema sent).
MAX_POINTS = 12


class ProposedPoint(BaseModel):
    """One value the model wants to plot."""

    label: str = Field(max_length=60, description="Category, or the year for a time series.")
    value: float = Field(description="The number exactly as the passage gives it, without separators.")
    source: str = Field(max_length=8, description="Label of the passage that prints this value, e.g. S1.")
    year: int | None = Field(description="The year the value is for, if the passage says; else null.")


class ChartProposal(BaseModel):
    """Chart data proposed by the model, or ``no_data``."""

    title: str = Field(max_length=120)
    unit: str = Field(max_length=30, description="Unit shared by every value, e.g. GW, %, TWh.")
    quantity: str = Field(max_length=100, description="What is measured, e.g. Installed solar capacity.")
    points: list[ProposedPoint] = Field(max_length=MAX_POINTS)
    no_data: bool = Field(description="True when the passages hold no comparable numbers.")


class ModelPlotBrain(Brain):
    """Chart data from the plot model, verified against the fetched text.

    Inputs: ``notes`` (passages, required), ``subject``, ``chart_ideas``.
    Outputs: ``chart`` (``spec``, ``svg``, ``caption``, ``sources``).
    """

    provides = ("chart",)

    def build_request(self, task: Task, inputs: dict[str, Any], strategy: str, ctx: RunContext) -> dict[str, Any]:
        notes = require_notes(inputs)
        return {"notes": notes, "subject": inputs.get("subject") or ctx.topic,
                "ideas": list(inputs.get("chart_ideas") or []), "task_id": task.id,
                "broaden": strategy == "broaden", "feedback": inputs.get(FEEDBACK_INPUT) or "",
                "series": inputs.get("series")}

    def call(self, params: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
        if params["series"]:  # cells of the user's tables: no model needed to chart them
            chart = series_chart(params["series"], params["subject"], ctx.chart_kinds, ctx.lang)
            return {"series_chart": chart, "passages": []}
        deadline = attempt_deadline(ctx)
        passages = [Passage.model_validate(p) for p in params["notes"]]
        if params["broaden"]:
            seen = {(p.source_id, p.text) for p in passages}
            passages += [p for p in ctx.search.search(f"{params['subject']} statistics", k=8)
                         if (p.source_id, p.text) not in seen]
        assert ctx.llm is not None, "model brains are bound only when a model is configured"
        labelled = label_sources(fit_passages(passages, ctx.llm.prompt_chars))
        ideas = "; ".join(params["ideas"]) or "any comparison the numbers allow"
        spec = self.spec
        assert spec is not None, "a model brain is made from its agent's spec (it holds the prompts)"
        proposal = ctx.llm.structured(spec.role or "plot", ChartProposal, [
            ("system", spec.prompt("system", feedback=params["feedback"], max_points=MAX_POINTS)),
            ("human", spec.prompt("human", subject=params["subject"], ideas=ideas, sources=sources_block(labelled))),
        ], task_id=params["task_id"], deadline=deadline, choices={"source": list(labelled)})
        return {"proposal": proposal, "labelled": labelled, "passages": passages}

    def check_response(self, task: Task, params: dict[str, Any], raw: Any, ctx: RunContext) -> dict[str, Any]:
        if "series_chart" in raw:
            drawn = raw["series_chart"]
            raw["passages"] = drawn["passages"]  # what the chart verifier checks the cells against
            return PlotBrain.check_response(self, task, params, drawn, ctx)  # type: ignore[arg-type]
        proposal: ChartProposal = raw["proposal"]
        labelled: dict[str, Passage] = raw["labelled"]
        if proposal.no_data or len(proposal.points) < 2:
            raise AgentError(StatusCode.INCOMPLETE_INFORMATION,
                             f"the sources hold too little comparable data for a chart on {params['subject']!r}",
                             "broaden retrieval, else drop the chart")
        points = []
        for p in proposal.points:
            passage = labelled.get(p.source)
            found = locate_number(p.value, passage.text, ctx.lang, unit=proposal.unit) if passage else None
            if passage is None or found is None:
                where = f"source {p.source}" if passage else f"unknown source {p.source!r}"
                unit = f" {proposal.unit}" if proposal.unit.strip() else ""
                raise AgentError(StatusCode.WRONG_INFORMATION,
                                 f"the value {p.value:g}{unit} for {p.label!r} is not printed in {where} (a year "
                                 "is not a quantity; the unit printed beside the number must be the chart's)",
                                 "propose only values printed in the cited passages, with their own unit")
            raw_text, sentence = found
            points.append(ChartPoint(label=p.label, value=p.value, raw=raw_text, unit=proposal.unit or "value",
                                     year=p.year, source_id=passage.source_id, url=passage.url,
                                     title=passage.title, quote=sentence))
        years = [p.year for p in points]
        line = all(y is not None for y in years) and len(set(years)) == len(years)
        if line:
            points.sort(key=lambda p: cast(int, p.year))  # ``line``: every point has a year
        unit = proposal.unit or "value"
        quantity = proposal.quantity or params["subject"]
        try:
            spec = ChartSpec(kind="line" if line else "bar", title=proposal.title or quantity,
                             x_label=chart_word("Year", ctx.lang) if line else "", y_label=f"{quantity} ({unit})",
                             unit=unit, points=points)
        except ValidationError as exc:
            raise AgentError(StatusCode.WRONG_INFORMATION, f"the chart data is inconsistent: {exc.errors()[0]['msg']}",
                             "propose comparable values") from None
        sources = {p.source_id: {"source_id": p.source_id, "title": p.title, "url": p.url,
                                 "corpus": labelled_corpus(labelled, p.source_id)} for p in points}
        return {"chart": {"spec": spec.model_dump(mode="json"), "svg": charts.draw_svg(spec, ctx.chart_kinds),
                          "caption": caption(spec, ctx.lang), "sources": list(sources.values())}}


def labelled_corpus(labelled: dict[str, Passage], source_id: str) -> str:
    """The corpus of the passage with ``source_id``."""
    return next(p.corpus for p in labelled.values() if p.source_id == source_id)
