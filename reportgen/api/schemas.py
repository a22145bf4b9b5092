"""The HTTP API's response models (they are its OpenAPI schema) and how a job becomes one."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from reportgen.store import Job
from reportgen.worker import ReportRequest

__all__ = [
    "ARTIFACTS",
    "BlueprintSummary",
    "ErrorInfo",
    "JobLinks",
    "Problem",
    "Progress",
    "ReportJob",
    "ReportList",
    "TaskSummary",
    "blueprint_summary",
    "job_view",
]

#: The artifacts of a completed report and their media types.
ARTIFACTS: dict[str, str] = {
    "report.html": "text/html; charset=utf-8",
    "report.pdf": "application/pdf",
    "report.json": "application/json",
}


class Problem(BaseModel):
    """An error response."""

    detail: str = Field(description="What went wrong, for people.")


class Progress(BaseModel):
    """How far the run is."""

    tasks_done: int = Field(description="Blueprint tasks finished (done, failed or skipped).")
    tasks_total: int = Field(description="Blueprint tasks planned (0 until the plan exists).")


class ErrorInfo(BaseModel):
    """Why a job failed or was canceled."""

    code: str = Field(description="Stable error code, e.g. 'no_sources', 'canceled', 'input'.")
    message: str


class TaskSummary(BaseModel):
    """One task of the execution blueprint."""

    id: str
    agent: str
    kind: str
    status: str
    attempts: int = 0
    status_codes: list[int] = Field(default_factory=list)
    reason: str = ""
    aim: str = Field("", description="What the task is for, in plain words.")
    section: str | None = None
    depends_on: list[str] = Field(default_factory=list, description="Every task it waits for (inputs included).")
    started_at: datetime | None = None
    finished_at: datetime | None = None


class BlueprintSummary(BaseModel):
    """The execution blueprint in brief."""

    tasks: int = Field(description="Number of tasks.")
    by_status: dict[str, int] = Field(description="Tasks per status, e.g. {'done': 17, 'failed': 1}.")
    items: list[TaskSummary]


class JobLinks(BaseModel):
    """Where to go next (paths relative to the server)."""

    self: str
    events: str
    browse: str
    plan: str | None = Field(None, description="The plan (GET; PUT an edit while input_required).")
    review: str | None = Field(None, description="While input_required: POST approve or guidance here.")
    html: str | None = None
    pdf: str | None = None
    json_: str | None = Field(None, alias="json", serialization_alias="json")


class ReportJob(BaseModel):
    """A report job: its status, progress, timings, blueprint and results."""

    id: str = Field(description="The report id (also its folder name).")
    status: Literal["submitted", "working", "input_required", "completed", "failed", "canceled"]
    topic: str
    options: ReportRequest = Field(description="What was asked for.")
    title: str | None = None
    lang: str
    pages: int | None = Field(None, description="Pages of the PDF, once completed.")
    progress: Progress
    cancel_requested: bool = False
    runs: int = Field(description="Times the job was started (more than 1 after a restart).")
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    timings: dict[str, float] = Field(description="Seconds per stage of the last run.")
    review_deadline: datetime | None = Field(
        None, description="While input_required: when the plan is approved automatically (null: never).")
    blueprint: BlueprintSummary | None = Field(None, description="Only in GET /reports/{id}.")
    error: ErrorInfo | None = None
    links: JobLinks


class ReportList(BaseModel):
    """One page of jobs, newest first."""

    items: list[ReportJob]
    total: int
    limit: int
    offset: int
    next: str | None = Field(None, description="Path of the next page, if any.")


def _dependencies(task: dict) -> list[str]:
    deps = list(task.get("depends_on") or [])
    for inp in (task.get("inputs") or {}).values():
        if isinstance(inp, dict) and inp.get("from_task") and inp["from_task"] not in deps:
            deps.append(inp["from_task"])
    return deps


def blueprint_summary(folder: Path) -> BlueprintSummary | None:
    """Read ``blueprint.json`` of a report folder (``None`` before the plan exists)."""
    try:
        data = json.loads((folder / "blueprint.json").read_text(encoding="utf-8"))
        items = [TaskSummary.model_validate({**t, "depends_on": _dependencies(t)}) for t in data.get("tasks", [])]
    except (OSError, ValueError):
        return None
    counts: dict[str, int] = {}
    for task in items:
        counts[task.status] = counts.get(task.status, 0) + 1
    return BlueprintSummary(tasks=len(items), by_status=counts, items=items)


def job_view(job: Job, *, blueprint: BlueprintSummary | None = None) -> ReportJob:
    """The API's view of a stored job."""
    base = f"/reports/{job.id}"
    done = job.status.value == "completed"
    error = ErrorInfo(code=job.error_code or "error", message=job.error or "") if job.error else None
    return ReportJob(
        id=job.id,
        status=job.status.value,
        topic=job.topic,
        options=ReportRequest(topic=job.topic, **job.options),
        title=job.title,
        lang=job.lang or job.options.get("lang", "en"),
        pages=job.pages,
        progress=Progress(tasks_done=job.tasks_done, tasks_total=job.tasks_total),
        cancel_requested=job.cancel_requested,
        runs=job.runs,
        created_at=job.created_at,
        started_at=job.started_at,
        finished_at=job.finished_at,
        timings=job.timings,
        review_deadline=job.review_deadline if job.status.value == "input_required" else None,
        blueprint=blueprint,
        error=error,
        links=JobLinks(
            self=base, events=f"{base}/events", browse=f"/browse/{job.id}",
            plan=f"{base}/plan" if job.plan is not None else None,
            review=f"{base}/review" if job.status.value == "input_required" and not job.review_answer else None,
            html=f"{base}/report.html" if done else None,
            pdf=f"{base}/report.pdf" if done else None,
            json=f"{base}/report.json" if done else None,
        ),
    )
