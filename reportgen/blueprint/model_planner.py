"""Planning with a model: topic (+ guidance) → outline → execution blueprint.

The planner model returns an :class:`Outline` through structured output,
validated by pydantic. Output that does not parse is 603 INVALID_PARAMETER_USAGE;
output that parses but cannot be used (no sections, duplicate titles, a
section without questions) is 602 WRONG_STEP_DETAILS. Either is answered by
asking again with the error attached, at most :data:`PLAN_ATTEMPTS` times in
all; then planning reroutes to the corpus-driven planner, and says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from reportgen.acp import AssistanceRequest, MessageLog, StatusCode, StatusUpdate
from reportgen.blueprint.model import Blueprint
from reportgen.blueprint.planner import compile_blueprint, plan_extractive
from reportgen.config import RunOptions
from reportgen.llm import LLM, ModelCallError, ModelOutputError
from reportgen.sources.models import SearchBackend

if TYPE_CHECKING:
    from reportgen.agents.registry import Registry

__all__ = ["PLAN_ATTEMPTS", "Outline", "SectionPlan", "plan_with_model"]

#: Attempts of the planner model before falling back to corpus-driven planning.
PLAN_ATTEMPTS = 3


class SectionPlan(BaseModel):
    """One planned section."""

    title: str = Field(description="Section heading.")
    questions: list[str] = Field(default_factory=list, description="1-4 research questions the section answers.")
    chart_ideas: list[str] = Field(default_factory=list, description="Numbers worth charting, if any.")


class Outline(BaseModel):
    """The report outline the planner model proposes."""

    title: str = ""
    sections: list[SectionPlan] = Field(default_factory=list)


def _problems(outline: Outline, wanted: int) -> str:
    if not outline.sections:
        return "the outline has no sections"
    titles = [s.title.strip().casefold() for s in outline.sections]
    if any(not t for t in titles):
        return "a section has no title"
    if len(set(titles)) != len(titles):
        return "two sections have the same title"
    if any(not [q for q in s.questions if q.strip()] for s in outline.sections):
        return "a section has no research question"
    if len(outline.sections) > max(wanted, 1) + 2:
        return f"the outline has {len(outline.sections)} sections; at most {wanted} were asked for"
    return ""


def plan_with_model(
    report_id: str, options: RunOptions, llm: LLM, search: SearchBackend, log: MessageLog,
    *, registry: Registry | None = None,
) -> Blueprint:
    """Plan the report with the planner model.

    Args:
        report_id: The report id.
        options: Topic, guidance, language, sections wanted.
        llm: The run's models.
        search: The search backend (for the fallback planner).
        log: The run's message log (the attempts are logged as task ``plan``).
        registry: The agent registry (see :func:`~reportgen.blueprint.planner.compile_blueprint`).

    Returns:
        The blueprint: per section research (with the outline's questions),
        chart (with its chart ideas) and write tasks, plus overview,
        introduction and conclusion.

    Raises:
        NoSourcesError: The fallback planner found nothing on the topic.
    """
    error = ""
    for attempt in range(1, PLAN_ATTEMPTS + 1):
        try:
            outline = llm.structured("planner", Outline, [
                ("system", planner_prompt("system", lang=options.lang)),
                ("human", planner_prompt("human", topic=options.topic, sections=options.sections,
                                         guidance=options.guidance or "", feedback=error)),
            ], task_id="plan")
            code, error = StatusCode.WRONG_STEP_DETAILS, _problems(outline, options.sections)
        except ModelOutputError as exc:
            code, error = StatusCode.INVALID_PARAMETER_USAGE, str(exc)
        except ModelCallError as exc:
            code, error = StatusCode.TOOL_CALL_FAILURE, str(exc)
        if not error:
            sections = outline.sections[: options.sections]
            return compile_blueprint(
                report_id, options.topic, [s.title.strip() for s in sections], options.lang,
                details=[{"questions": s.questions[:4], "chart_ideas": s.chart_ideas[:3]} for s in sections],
                registry=registry, local_corpus=bool(options.corpus_dirs),
            )
        log.append(AssistanceRequest(task_id="plan", agent="planner", attempt=attempt, status_code=code,
                                     error_step="response" if code != 604 else "tool_call", tool="planner",
                                     description=error, suggested_resolution="ask again with the error attached"))
        last = attempt == PLAN_ATTEMPTS
        log.append(StatusUpdate(task_id="plan", agent="planner", attempt=attempt, status_code=code,
                                status="reroute" if last else "retry",
                                detail="falling back to the corpus-driven planner" if last else "asking again"))
    return plan_extractive(report_id, options, search, registry=registry)


def planner_prompt(name: str, **values: Any) -> str:
    """Render the planner's prompt ``name`` (``agents/planner/prompts/<name>.j2``, Jinja sandbox)."""
    from reportgen.agents.spec import render_prompt
    from reportgen.resources import agents_root

    source = (agents_root() / "planner" / "prompts" / f"{name}.j2").read_text(encoding="utf-8")
    return render_prompt(source, f"agents/planner/prompts/{name}.j2", **values)
