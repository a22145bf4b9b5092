"""Planning with a model: topic (+ guidance) → outline → execution blueprint.

The planner model returns an :class:`Outline` through structured output,
validated by pydantic. Output that does not parse is 603 INVALID_PARAMETER_USAGE;
output that parses but cannot be used (no sections, duplicate titles, a
section without questions) is 602 WRONG_STEP_DETAILS; an answer cut at the
planner's ``max_tokens`` or stopped while repeating itself is 603 with the
cut shown. Each is answered by asking again with the error attached, at most
:data:`PLAN_ATTEMPTS` times in all; then (or at once when the token budget
is spent) planning reroutes to the corpus-driven planner, and says so. An
endpoint that cannot serve the run (:class:`~reportgen.llm.ModelEndpointError`:
auth, unknown model, ...) is not retried: it ends the run with its words.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, Field

from reportgen.acp import AssistanceRequest, MessageLog, StatusCode, StatusUpdate
from reportgen.blueprint.model import Blueprint
from reportgen.blueprint.planner import compile_blueprint, plan_extractive
from reportgen.blueprint.request import read_request, section_count
from reportgen.config import RunOptions
from reportgen.errors import AgentError
from reportgen.llm import LLM, BudgetError, ModelCallError, ModelOutputError
from reportgen.sources.models import SearchBackend

if TYPE_CHECKING:
    from reportgen.agents.registry import Registry

__all__ = ["PLAN_ATTEMPTS", "Outline", "SectionPlan", "plan_with_model"]

#: Attempts of the planner model before falling back to corpus-driven planning.
PLAN_ATTEMPTS = 3


#: Bounds sent in the schema (``maxItems`` / ``maxLength``): a model looping on
#: one item is stopped by the grammar, or the answer fails validation.
MAX_SECTIONS = 14
MAX_QUESTIONS = 4
MAX_IDEAS = 3
MAX_TITLE_CHARS = 120
MAX_QUESTION_CHARS = 200


class SectionPlan(BaseModel):
    """One planned section."""

    title: str = Field(max_length=MAX_TITLE_CHARS, description="Section heading.")
    questions: list[Annotated[str, Field(max_length=MAX_QUESTION_CHARS)]] = Field(
        max_length=MAX_QUESTIONS, description="1-4 research questions the section answers.")
    chart_ideas: list[Annotated[str, Field(max_length=MAX_QUESTION_CHARS)]] = Field(
        max_length=MAX_IDEAS, description="Numbers worth charting, if any.")


class Outline(BaseModel):
    """The report outline the planner model proposes."""

    title: str = Field(max_length=MAX_TITLE_CHARS)
    sections: list[SectionPlan] = Field(max_length=MAX_SECTIONS)


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
        ModelEndpointError: The endpoint cannot serve the run (not retried).
    """
    error = ""
    request = read_request(options.topic, options.lang)
    wanted = section_count(options.sections, request)
    for attempt in range(1, PLAN_ATTEMPTS + 1):
        try:
            outline = llm.structured("planner", Outline, [
                ("system", planner_prompt("system", lang=options.lang)),
                ("human", planner_prompt("human", topic=options.topic, sections=wanted,
                                         guidance=options.guidance or "", feedback=error)),
            ], task_id="plan", deadline=time.monotonic() + llm.settings.tool_timeout_s)
            code, error = StatusCode.WRONG_STEP_DETAILS, _problems(outline, wanted)
        except BudgetError as exc:
            code, error = StatusCode(exc.status_code), str(exc)
            _log_failure(log, attempt, code, error, last=True)
            break
        except AgentError as exc:  # ModelCutError: cut at max_tokens, looping, or refused (603)
            code, error = StatusCode(exc.status_code), str(exc)
        except ModelOutputError as exc:
            code, error = StatusCode.INVALID_PARAMETER_USAGE, str(exc)
        except ModelCallError as exc:
            code, error = StatusCode.TOOL_CALL_FAILURE, str(exc)
        if not error:
            sections = outline.sections[:wanted]
            return compile_blueprint(
                report_id, options.topic, [s.title.strip() for s in sections], options.lang,
                details=[{"questions": s.questions[:4], "chart_ideas": s.chart_ideas[:3]} for s in sections],
                registry=registry, local_corpus=bool(options.corpus_dirs), subject=request.subject,
            )
        _log_failure(log, attempt, code, error, last=attempt == PLAN_ATTEMPTS)
    return plan_extractive(report_id, options, search, registry=registry)


def _log_failure(log: MessageLog, attempt: int, code: StatusCode, error: str, *, last: bool) -> None:
    log.append(AssistanceRequest(task_id="plan", agent="planner", attempt=attempt, status_code=code,
                                 error_step="response" if code != 604 else "tool_call", tool="planner",
                                 description=error, suggested_resolution="ask again with the error attached"))
    log.append(StatusUpdate(task_id="plan", agent="planner", attempt=attempt, status_code=code,
                            status="reroute" if last else "retry",
                            detail="falling back to the corpus-driven planner" if last else "asking again"))


def planner_prompt(name: str, **values: Any) -> str:
    """Render the planner's prompt ``name`` (``agents/planner/prompts/<name>.j2``, Jinja sandbox)."""
    from reportgen.agents.spec import render_prompt
    from reportgen.resources import agents_root

    source = (agents_root() / "planner" / "prompts" / f"{name}.j2").read_text(encoding="utf-8")
    return render_prompt(source, f"agents/planner/prompts/{name}.j2", **values)
