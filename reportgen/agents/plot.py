"""The plot-visualisation agent: numbers found in the notes → a cited chart.

A chart never shows a number that is not in a cited source: every plotted
value's raw text must appear in its quoted sentence, and that sentence in the
text of the passage it is attributed to, or the response is 607.
Too little comparable data is 605; recovery then broadens retrieval once and
otherwise drops the chart (the section is written without it).
"""

from __future__ import annotations

from typing import Any

from reportgen.acp import StatusCode
from reportgen.agents.ranking import mentions, terms
from reportgen.agents.runtime import Agent, RunContext, require_notes
from reportgen.blueprint.model import Task
from reportgen.charts import caption, draw_svg, extract_facts, propose_chart
from reportgen.errors import AgentError
from reportgen.sources.models import Passage

__all__ = ["PlotAgent"]

def _about(text: str, keywords: list[str], lang: str) -> bool:
    """Every keyword of the section is mentioned in ``text`` (see
    :func:`~reportgen.agents.ranking.mentions`): a "Solar power" chart must be
    about solar power, not about some other power."""
    words = terms(text, lang)
    return all(mentions(words, k) for k in keywords)


class PlotAgent(Agent):
    """Finds comparable numbers, builds a chart spec and draws it as SVG.

    Inputs: ``notes`` (passage dicts, required), ``subject`` (str),
    ``keywords`` (the section's distinctive terms; only numbers whose sentence
    or source title holds one are charted, so a section never shows another
    section's numbers).
    Outputs: ``chart`` (dict: ``spec``, ``svg``, ``caption``, ``sources``).
    """

    name = "plot"
    tool = "chart"
    kinds = ("chart",)

    def build_request(
        self, task: Task, inputs: dict[str, Any], strategy: str, ctx: RunContext
    ) -> dict[str, Any]:
        notes = require_notes(inputs)
        subject = inputs.get("subject") or ctx.topic
        keywords = list(inputs.get("keywords") or sorted(terms(subject, ctx.lang)))
        return {"notes": notes, "subject": subject, "keywords": keywords, "broaden": strategy == "broaden"}

    def call(self, params: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
        passages = [Passage.model_validate(p) for p in params["notes"]]
        if params["broaden"]:
            seen = {(p.source_id, p.text) for p in passages}
            for extra in ctx.search.search(f"{params['subject']} {ctx.topic}", k=25):
                if (extra.source_id, extra.text) not in seen:
                    passages.append(extra)
        facts = [
            f for f in extract_facts(passages, lang=ctx.lang)
            if _about(f"{f.title} {f.sentence}", params["keywords"], ctx.lang)
        ]
        spec = propose_chart(facts, params["subject"])
        svg = draw_svg(spec) if spec is not None else ""
        return {"spec": spec, "svg": svg, "facts": len(facts), "passages": passages}

    def check_response(
        self, task: Task, params: dict[str, Any], raw: Any, ctx: RunContext
    ) -> dict[str, Any]:
        spec = raw["spec"]
        if spec is None:
            raise AgentError(
                StatusCode.INCOMPLETE_INFORMATION,
                f"the sources hold too little comparable data for a chart on "
                f"{params['subject']!r} ({raw['facts']} numbers found, none comparable)",
                "broaden retrieval, else drop the chart",
            )
        texts = {}
        for p in raw["passages"]:
            texts.setdefault(p.source_id, []).append(p.text)
        sources: dict[str, dict[str, str]] = {}
        for point in spec.points:
            in_quote = point.raw in point.quote
            in_source = any(point.quote in t for t in texts.get(point.source_id, []))
            if not (in_quote and in_source):
                raise AgentError(
                    StatusCode.WRONG_INFORMATION,
                    f"the value {point.raw!r} is not in the cited source {point.source_id!r}",
                    "rebuild the chart from the sources' own numbers",
                )
            passage = next(p for p in raw["passages"] if p.source_id == point.source_id)
            sources[point.source_id] = {
                "source_id": passage.source_id, "title": passage.title,
                "url": passage.url, "corpus": passage.corpus,
            }
        return {
            "chart": {
                "spec": spec.model_dump(mode="json"),
                "svg": raw["svg"],
                "caption": caption(spec),
                "sources": list(sources.values()),
            }
        }
