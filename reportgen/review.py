"""Plan review: the one mechanism behind ``--review``, ``review: true``, A2A ``input-required`` and the browse form.

The report graph has a ``review`` stage between ``plan`` and ``dispatch``
(:func:`review_node`). When the run asked for a review it stops there with
LangGraph's ``interrupt``: the checkpoint holds the plan, the run raises
:class:`ReviewRequired`, and the job waits (status ``input_required``). Any
face answers with a :class:`ReviewAnswer` — approve, an edited plan, or
guidance — and the same run continues with ``Command(resume=answer)``:

- **approve**: the plan runs as proposed;
- **edit**: a :class:`Plan` (sections in order: rename, reorder, remove, add,
  edit questions) or a whole blueprint; :func:`apply_plan` turns it into the
  new blueprint and checks it (:meth:`Blueprint.validate_dag`), so an unknown
  agent, a cycle or an empty section is refused *before* the answer is
  accepted (:class:`PlanError`);
- **guidance**: the planner runs again with the guidance (the model planner
  reads it; the extractive planner searches with it added to the topic), and
  the new plan is reviewed again.

Every answer is logged as an ACP ``STATUS_UPDATE`` (task ``review``, agent
``reviewer``) in ``messages.jsonl``: what changed, when, and which client.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from datetime import datetime, timezone
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from reportgen.blueprint.model import Blueprint, Task, TaskInput
from reportgen.errors import InputError

__all__ = [
    "MAX_SECTIONS",
    "Plan",
    "PlanError",
    "PlanSection",
    "ReviewAnswer",
    "ReviewRequired",
    "apply_answer",
    "apply_plan",
    "check",
    "clean_text",
    "outline",
    "plan_view",
    "preview_sources",
    "review_message",
    "review_node",
]

#: Section ids the planners give body sections (``s1``, ``s2``, ...).
_SECTION_ID = re.compile(r"^s[0-9]{1,3}$")

#: The inputs by which the introduction and conclusion read the body sections (``section_1``...).
_SECTION_INPUT = re.compile(r"^section_[0-9]+$")

#: Most body sections a reviewed plan may have (the request's own limit).
MAX_SECTIONS = 12


class PlanError(InputError):
    """An edited plan is unusable (empty section, unknown agent, cycle, unknown section id)."""

    code = "invalid_plan"


class ReviewRequired(InputError):
    """The run stopped for plan review; answer with a :class:`ReviewAnswer` to continue.

    Attributes:
        report_id: The waiting report.
        blueprint: The proposed blueprint (JSON), with the sources found
            for each section under ``"sources"`` when known.
    """

    code = "review_required"

    def __init__(self, report_id: str, blueprint: dict[str, Any], sources: dict[str, Any] | None = None) -> None:
        super().__init__(f"report {report_id} waits for its plan to be reviewed")
        self.report_id = report_id
        self.blueprint = {**blueprint, "sources": sources} if sources else blueprint


def clean_text(value: str, *, field: str = "text", limit: int = 300) -> str:
    """Refuse control characters and lone surrogates; normalise whitespace.

    Args:
        value: The text.
        field: Its name, for the error.
        limit: Most characters allowed.

    Returns:
        The text with runs of whitespace made one space.

    Raises:
        ValueError: Control or surrogate characters, empty, or too long.
    """
    for ch in value:
        if ch not in "\t\n\r" and unicodedata.category(ch) in ("Cc", "Cs"):
            raise ValueError(f"{field} holds a control or surrogate character (U+{ord(ch):04X})")
    cleaned = " ".join(value.split())
    if not cleaned:
        raise ValueError(f"{field} is empty")
    if len(cleaned) > limit:
        raise ValueError(f"{field} is {len(cleaned)} characters long; the limit is {limit}")
    return cleaned


class PlanSection(BaseModel):
    """One body section of a plan.

    Attributes:
        id: The section's id in the proposed plan (``s1``...); ``None`` for a new section.
        title: The section title (what it is about).
        questions: Questions the section's research should answer.
    """

    model_config = {"extra": "ignore"}

    id: str | None = Field(None, pattern=_SECTION_ID.pattern)
    title: str = Field(max_length=400)
    questions: list[str] = Field(default_factory=list, max_length=10)

    @field_validator("title")
    @classmethod
    def _title(cls, value: str) -> str:
        return clean_text(value, field="section title", limit=200)

    @field_validator("questions")
    @classmethod
    def _questions(cls, value: list[str]) -> list[str]:
        return [clean_text(q, field="question") for q in value if q.strip()]


class Plan(BaseModel):
    """A plan as people edit it: the body sections, in reading order.

    Attributes:
        sections: 1 to :data:`MAX_SECTIONS` sections.
    """

    model_config = {"extra": "ignore"}

    sections: list[PlanSection] = Field(min_length=1, max_length=MAX_SECTIONS)

    @model_validator(mode="after")
    def _unique(self) -> "Plan":
        ids = [s.id for s in self.sections if s.id is not None]
        if len(ids) != len(set(ids)):
            raise ValueError("a section id appears twice")
        return self


class ReviewAnswer(BaseModel):
    """A reviewer's answer.

    Attributes:
        action: ``approve``, ``edit`` (with ``plan`` or ``blueprint``) or ``guidance``.
        plan: The edited plan.
        blueprint: A whole edited blueprint (JSON), instead of ``plan``.
        guidance: Guidance for the planner.
        client: Who answered (``"key:..."``, ``"ip:..."``, ``"cli"``, ``"timeout"``).
        changes: What the edit changed, in words (filled by :func:`apply_answer`).
    """

    model_config = {"extra": "forbid"}

    action: Literal["approve", "edit", "guidance"]
    plan: Plan | None = None
    blueprint: dict[str, Any] | None = None
    guidance: str | None = Field(None, max_length=2000)
    client: str = Field("unknown", max_length=200)
    changes: list[str] = Field(default_factory=list)

    @field_validator("guidance")
    @classmethod
    def _guidance(cls, value: str | None) -> str | None:
        return None if value is None else clean_text(value, field="guidance", limit=2000)

    @model_validator(mode="after")
    def _complete(self) -> "ReviewAnswer":
        if self.action == "edit" and self.plan is None and self.blueprint is None and not self.changes:
            raise ValueError("an edit needs a plan (sections) or a blueprint")
        if self.action == "guidance" and not self.guidance:
            raise ValueError("guidance needs its text")
        return self


def _value(task: Task, name: str, default: Any = None) -> Any:
    inp = task.inputs.get(name)
    return inp.value if inp is not None and inp.from_task is None else default


def _sections(blueprint: Blueprint) -> dict[str, list[Task]]:
    out: dict[str, list[Task]] = {}
    for task in blueprint.tasks:
        if task.section and _SECTION_ID.match(task.section):
            out.setdefault(task.section, []).append(task)
    return out


def _title(tasks: list[Task]) -> str:
    for task in tasks:
        if task.kind == "write" and _value(task, "title"):
            return str(_value(task, "title"))
    for task in tasks:
        if _value(task, "focus"):
            return str(_value(task, "focus"))
    return tasks[0].aim


def plan_view(blueprint: Blueprint | dict[str, Any]) -> dict[str, Any]:
    """The plan as people read it: topic, sections (title, questions, searches, charts), other tasks.

    Args:
        blueprint: The proposed blueprint (model or JSON).

    Returns:
        ``{"topic", "sections": [{"id", "title", "questions", "search", "chart", "sources", "tasks"}],
        "other_tasks", "blueprint"}``; ``sections`` is what an edit sends back (as :class:`Plan`).
        ``sources`` are those found when the plan was made (a ``"sources"`` key of the JSON, see
        :func:`preview_sources`).
    """
    bp = blueprint if isinstance(blueprint, Blueprint) else Blueprint.model_validate(blueprint)
    found = blueprint.get("sources") if isinstance(blueprint, dict) else None
    sources: dict[str, Any] = found if isinstance(found, dict) else {}
    sections = []
    for sid, tasks in _sections(bp).items():
        research = next((t for t in tasks if t.kind == "research"), None)
        chart = next((t for t in tasks if t.kind == "chart"), None)
        sections.append({
            "id": sid,
            "title": _title(tasks),
            "questions": list(_value(research, "questions", []) or []) if research else [],
            "search": str(_value(research, "query", "")) if research else "",
            "chart": (chart.aim if chart else None),
            "sources": list(sources.get(sid) or []),
            "tasks": [t.id for t in tasks],
        })
    others = [{"id": t.id, "kind": t.kind, "aim": t.aim} for t in bp.tasks
              if not (t.section and _SECTION_ID.match(t.section))]
    return {"topic": bp.topic, "sections": sections, "other_tasks": others,
            "blueprint": bp.model_dump(mode="json")}


def preview_sources(blueprint: Blueprint, search: Any, k: int = 3) -> dict[str, list[dict[str, str]]]:
    """The sources a review shows: the best few documents each section's search finds now.

    Args:
        blueprint: The proposed blueprint.
        search: The run's search backend (``search(query, k)`` returning passages).
        k: Documents per section.

    Returns:
        ``{section id: [{"title", "url"}]}``, distinct documents in rank order;
        a section whose search fails has an empty list.
    """
    out: dict[str, list[dict[str, str]]] = {}
    for sid, tasks in _sections(blueprint).items():
        research = next((t for t in tasks if t.kind == "research"), None)
        query = str(_value(research, "query", "")) if research else ""
        found: list[dict[str, str]] = []
        try:
            passages = search.search(query, k * 3) if query else []
        except Exception:  # noqa: BLE001 - a preview is a nicety; the research itself reports failures
            passages = []
        for passage in passages:
            url = str(getattr(passage, "url", "") or "")
            if url and all(f["url"] != url for f in found):
                found.append({"title": str(getattr(passage, "title", "") or url), "url": url})
            if len(found) == k:
                break
        out[sid] = found
    return out


def outline(blueprint: Blueprint | dict[str, Any]) -> str:
    """The plan as a readable text outline (the CLI shows it).

    Args:
        blueprint: The proposed blueprint.

    Returns:
        Numbered sections with their questions, searches and charts.
    """
    view = plan_view(blueprint)
    lines = [f"Plan for: {view['topic']}", ""]
    for n, section in enumerate(view["sections"], 1):
        lines.append(f"{n}. {section['title']}  [{section['id']}]")
        lines.append(f"   search: {section['search']}")
        for q in section["questions"]:
            lines.append(f"   ? {q}")
        if section["chart"]:
            lines.append(f"   chart: {section['chart']}")
        for source in section["sources"]:
            lines.append(f"   source: {source['title']} <{source['url']}>")
    lines.append("")
    lines.append("also: " + ", ".join(f"{t['kind']} ({t['id']})" for t in view["other_tasks"]))
    return "\n".join(lines)


def _keywords(title: str) -> list[str]:
    return sorted({w for w in re.findall(r"\w+", title.lower()) if len(w) > 3}) or [title.lower()]


def _rename(task: Task, old: str, new: str, topic: str) -> None:
    if old and old in task.aim:
        task.aim = task.aim.replace(old, new)
    for name, inp in task.inputs.items():
        if inp.from_task is not None:
            continue
        if name in ("title", "focus", "subject"):
            inp.value = new
        elif name == "query":
            inp.value = f"{new} {topic}" if topic.lower() not in new.lower() else new
        elif name == "keywords":
            inp.value = _keywords(new)


def _renumber(task: Task, mapping: dict[str, str], sid: str) -> Task:
    clone = task.model_copy(deep=True)
    clone.id = mapping[task.id]
    clone.section = sid
    for inp in clone.inputs.values():
        if inp.from_task in mapping:
            inp.from_task = mapping[inp.from_task]
        elif inp.from_task is None and isinstance(inp.value, str) and inp.value == task.section:
            inp.value = sid
    if "section_id" in clone.inputs and clone.inputs["section_id"].from_task is None:
        clone.inputs["section_id"].value = sid
    clone.depends_on = [mapping.get(d, d) for d in clone.depends_on]
    return clone


def apply_plan(blueprint: Blueprint, plan: Plan, agents: Any) -> tuple[Blueprint, list[str]]:
    """Turn an edited :class:`Plan` into the blueprint it describes, and check it.

    Sections keep their tasks (research, chart, write); a renamed section's
    tasks search, chart and write on the new title; a removed section's tasks
    go, and so do the inputs that read them (introduction, conclusion); a new
    section (``id`` ``None``) gets the tasks of the first proposed section,
    renumbered and retitled.

    Args:
        blueprint: The proposed blueprint.
        plan: The edited plan.
        agents: Agent kinds by name (``Registry.kinds()``), for :meth:`Blueprint.validate_dag`.

    Returns:
        The new blueprint and the changes in words (``"renamed s1 'Wind power' → 'Wind'"``).

    Raises:
        PlanError: An unknown section id, no section left, or the result is not a valid blueprint.
    """
    proposed = _sections(blueprint)
    if not proposed:
        raise PlanError("this plan has no body sections to edit; send a whole blueprint instead")
    template_id = next(iter(proposed))
    changes: list[str] = []
    kept: list[tuple[str, list[Task]]] = []
    numbers = [int(sid[1:]) for sid in proposed]
    next_no = max(numbers) + 1
    for n, section in enumerate(plan.sections, 1):
        if section.id is None:
            sid = f"s{next_no}"
            mapping = {t.id: re.sub(r"\d+$", str(next_no), t.id) if re.search(r"\d+$", t.id) else f"{t.id}-{next_no}"
                       for t in proposed[template_id]}
            next_no += 1
            old = _title(proposed[template_id])
            tasks = [_renumber(t, mapping, sid) for t in proposed[template_id]]
            for task in tasks:
                _rename(task, old, section.title, blueprint.topic)
                task.aim = task.aim.replace(f"(section {template_id[1:]})", f"(section {sid[1:]})")
            changes.append(f"added section {n} {section.title!r}")
        elif section.id in proposed:
            sid = section.id
            tasks = [t.model_copy(deep=True) for t in proposed[sid]]
            old = _title(tasks)
            if old != section.title:
                for task in tasks:
                    _rename(task, old, section.title, blueprint.topic)
                changes.append(f"renamed {sid} {old!r} to {section.title!r}")
        else:
            raise PlanError(f"section {n} names id {section.id!r}, which is not in the proposed plan "
                            f"(its sections: {', '.join(proposed)}); leave the id out to add a section")
        research = next((t for t in tasks if t.kind == "research"), None)
        if research is not None and "questions" in research.inputs:
            before = list(research.inputs["questions"].value or [])
            if before != section.questions:
                research.inputs["questions"].value = list(section.questions)
                changes.append(f"questions of {sid} {'edited' if before else 'added'}")
        kept.append((sid, tasks))
    for sid, tasks in proposed.items():
        if sid not in {k for k, _ in kept}:
            changes.append(f"removed {sid} {_title(tasks)!r}")
    order_before = [sid for sid in proposed if sid in {k for k, _ in kept}]
    order_after = [sid for sid, _ in kept if sid in proposed]
    if order_before != order_after:
        changes.append("sections reordered: " + ", ".join(sid for sid, _ in kept))
    new_tasks: list[Task] = []
    section_tasks = {sid: tasks for sid, tasks in kept}
    placed = False
    for task in blueprint.tasks:
        if task.section and _SECTION_ID.match(task.section):
            if not placed:
                for sid, _ in kept:
                    new_tasks.extend(section_tasks[sid])
                placed = True
            continue
        new_tasks.append(task.model_copy(deep=True))
    writers = [t for sid, tasks in kept for t in tasks if t.kind == "write"]
    alive = {t.id for t in new_tasks}
    for task in new_tasks:
        if any(_SECTION_INPUT.match(k) for k in task.inputs):
            optional = any(v.optional for k, v in task.inputs.items() if _SECTION_INPUT.match(k))
            others = {k: v for k, v in task.inputs.items() if not _SECTION_INPUT.match(k)}
            for i, writer in enumerate(writers, 1):
                others[f"section_{i}"] = TaskInput(from_task=writer.id, output="section", optional=optional)
            task.inputs = others
        for name in [k for k, v in task.inputs.items() if v.from_task and v.from_task not in alive]:
            del task.inputs[name]
        task.depends_on = [d for d in task.depends_on if d in alive]
    from reportgen.blueprint.planner import with_other_sections  # the planner's rule, loaded when a plan is edited

    result = blueprint.model_copy(update={"tasks": with_other_sections(new_tasks)})
    check(result, agents)
    return result, changes


def check(blueprint: Blueprint, agents: Any) -> None:
    """Validate a reviewed blueprint; every problem becomes a :class:`PlanError`.

    Args:
        blueprint: The blueprint.
        agents: Agent kinds by name.

    Raises:
        PlanError: Unknown agent or kind, unresolved input, cycle, or no body section.
    """
    from reportgen.errors import ReportgenError

    try:
        blueprint.validate_dag(agents)
    except ReportgenError as exc:
        raise PlanError(str(exc)) from None
    if not any(t.kind == "write" for t in blueprint.tasks):
        raise PlanError("the plan has no section left to write")
    for task in blueprint.tasks:
        if task.kind == "write" and "title" in task.inputs:
            title = task.inputs["title"].value
            if not isinstance(title, str) or not title.strip():
                raise PlanError(f"task {task.id!r} writes a section with an empty title")


def apply_answer(proposed: dict[str, Any], answer: ReviewAnswer, agents: Any) -> tuple[dict[str, Any], ReviewAnswer]:
    """Check an answer against the proposed blueprint and compute the blueprint to run.

    Args:
        proposed: The proposed blueprint (JSON).
        answer: The reviewer's answer.
        agents: Agent kinds by name.

    Returns:
        The blueprint to run (JSON; the proposed one for approve and guidance)
        and the answer with its ``changes`` filled in.

    Raises:
        PlanError: The edit is not a valid plan or blueprint.
    """
    blueprint = Blueprint.model_validate(proposed)
    if answer.action != "edit":
        return proposed, answer
    if answer.plan is not None:
        new, changes = apply_plan(blueprint, answer.plan, agents)
    elif answer.blueprint is None:
        raise PlanError("an edit needs a plan (sections) or a blueprint")
    else:
        try:
            new = Blueprint.model_validate({**copy.deepcopy(answer.blueprint or {}), "report_id": blueprint.report_id})
        except ValidationError as exc:
            first = exc.errors()[0]
            raise PlanError(f"blueprint {'.'.join(map(str, first['loc']))}: {first['msg']}") from None
        check(new, agents)
        before, after = {t.id for t in blueprint.tasks}, {t.id for t in new.tasks}
        changes = [f"removed task {t}" for t in sorted(before - after)]
        changes += [f"added task {t}" for t in sorted(after - before)]
        changes = changes or ["blueprint edited"]
    return new.model_dump(mode="json"), answer.model_copy(update={"changes": changes, "plan": None, "blueprint": None})


def review_message(answer: ReviewAnswer, *, at: datetime | None = None) -> dict[str, Any]:
    """The fields of the review's ACP ``STATUS_UPDATE``: status and detail.

    Args:
        answer: The (applied) answer.
        at: When it was given (default now, UTC).

    Returns:
        ``{"status": "approved" | "edited" | "guided", "detail": "..."}``.
    """
    moment = (at or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M:%S UTC")
    status = {"approve": "approved", "edit": "edited", "guidance": "guided"}[answer.action]
    what = {"approve": "plan approved as proposed",
            "edit": "plan edited: " + "; ".join(answer.changes or ["no change"]),
            "guidance": f"re-planned with guidance: {answer.guidance}"}[answer.action]
    return {"status": status, "detail": f"{what} (by {answer.client}, {moment})"}


def review_node(state: dict[str, Any], runtime: Any) -> Any:
    """The ``review`` stage: pass the plan through, or stop for review and apply the answer.

    Without a review asked for (``Pipeline.review``) it goes straight on to
    ``dispatch``. Otherwise it interrupts with the proposed plan; the answer
    (a :class:`ReviewAnswer` as JSON, already checked by :func:`apply_answer`
    with its ``blueprint`` the one to run) is logged and applied. Guidance
    re-plans and comes back here for another review.

    Args:
        state: The report graph's state (``blueprint`` set by ``plan``).
        runtime: The LangGraph runtime; its context is the run's
            :class:`~reportgen.pipeline.Pipeline`.

    Returns:
        ``Command(goto="dispatch" | "review", update=...)``.
    """
    from langgraph.types import Command, interrupt

    from reportgen.acp import StatusUpdate

    p = runtime.context
    if not getattr(p, "review", False):
        return Command(goto="dispatch")
    raw = interrupt({"kind": "plan_review", "blueprint": state["blueprint"]})
    answer = ReviewAnswer.model_validate({k: v for k, v in dict(raw).items() if k != "run_blueprint"})
    message = review_message(answer)
    p.run.log.append(StatusUpdate(task_id="review", agent="reviewer", **message))
    if answer.action == "guidance":
        blueprint = _replan(p, state, answer.guidance or "")
        p.save_blueprint(blueprint, force=True)
        return Command(goto="review", update={"blueprint": blueprint.model_dump(mode="json"),
                                              "sources": preview_sources(blueprint, p.run.search),
                                              "review": [*(state.get("review") or []), message["detail"]]})
    blueprint_json = dict(raw).get("run_blueprint") or state["blueprint"]
    blueprint = Blueprint.model_validate(blueprint_json)
    check(blueprint, _kinds(p))
    p.save_blueprint(blueprint, force=True)
    return Command(goto="dispatch", update={"blueprint": blueprint.model_dump(mode="json"),
                                            "review": [*(state.get("review") or []), message["detail"]]})


def _kinds(p: Any) -> dict[str, list[str]]:
    return {name: list(getattr(agent, "kinds", ()) or ()) for name, agent in p.agents.items()}


def _replan(p: Any, state: dict[str, Any], guidance: str) -> Blueprint:
    """Plan again with ``guidance``: the model planner reads it; the extractive one searches with it.

    When the extractive planner finds nothing for the guided topic, the
    proposed plan stays (and the log says so).
    """
    from reportgen.acp import StatusUpdate
    from reportgen.blueprint.model_planner import plan_with_model
    from reportgen.blueprint.planner import plan_extractive
    from reportgen.errors import ReportgenError

    options = p.options.model_copy(update={"guidance": guidance})
    try:
        if p.run.llm is not None and p.run.llm.has_model("planner"):
            blueprint = plan_with_model(p.report_id, options, p.run.llm, p.run.search, p.run.log, registry=p.registry)
        else:
            steered = options.model_copy(update={"topic": f"{options.topic} {guidance}"[:500]})
            blueprint = plan_extractive(p.report_id, steered, p.run.search, registry=p.registry)
            blueprint = blueprint.model_copy(update={"topic": options.topic})
        check(blueprint, _kinds(p))
    except ReportgenError as exc:
        p.run.log.append(StatusUpdate(task_id="review", agent="reviewer", status="guidance-unused",
                                      detail=f"the guidance gave no usable plan ({exc}); the proposed plan stays"))
        return Blueprint.model_validate(state["blueprint"])
    return blueprint
