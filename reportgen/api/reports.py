"""REST routes: request, list, follow, review, fetch, cancel and delete reports."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException, Path, Query, Request, Response
from fastapi.responses import FileResponse, JSONResponse

from reportgen.api.events import event_stream
from reportgen.api.schemas import ARTIFACTS, Problem, ReportJob, ReportList, blueprint_summary, job_view
from reportgen.api.security import RateLimiter, caller_of, client_of, may_see
from reportgen.errors import InputError
from reportgen.review import Plan, PlanError, ReviewAnswer
from reportgen.store import Idempotent, Job
from reportgen.worker import ID_PATTERN, ReportRequest, ReviewStateError, Worker

__all__ = ["ReportId", "answer_review", "create_job", "exports", "job_of", "router"]

router = APIRouter(tags=["reports"])

#: A report id in a path: validated before anything touches the file system.
ReportId = Annotated[str, Path(pattern=ID_PATTERN, max_length=64, description="The report id.",
                               examples=["renewable-energy-3f9a2c"])]

_IDEMPOTENCY_KEY = r"^[\x21-\x7e]{1,255}$"

_ERRORS: dict[int | str, dict] = {
    401: {"model": Problem, "description": "Missing or wrong API key (when keys are in use)."},
    404: {"model": Problem, "description": "No such report, or another user's (the same answer)."},
}


def _worker(request: Request) -> Worker:
    worker: Worker = request.app.state.worker
    return worker


def job_of(request: Request, report_id: str) -> Job | None:
    """The job ``report_id`` if the caller may see it (an admin, or the user whose job it is), else ``None``.

    Another user's job is ``None`` exactly like a missing one, so that the
    answer (404) does not reveal that it exists.
    """
    job = _worker(request).store.get(report_id)
    return job if job is not None and may_see(request.scope, job.client) else None


def _job_or_404(request: Request, report_id: str) -> Job:
    job = job_of(request, report_id)
    if job is None:
        raise HTTPException(404, f"no report {report_id!r}")
    return job


def create_job(
    request: Request, body: ReportRequest, idempotency_key: str | None
) -> tuple[Job, bool]:
    """Admit and queue a report request (shared by the API and the browse form).

    Returns:
        The job and whether it is new (``False``: an ``Idempotency-Key`` replay).

    Raises:
        HTTPException: 409 (key reused with another request), 422 (unknown
            corpus or template), 429 (per-client cap or rate limit; with
            ``Retry-After``).
    """
    worker = _worker(request)
    client = client_of(request.scope)
    idempotency = None
    if idempotency_key is not None:
        digest = hashlib.sha256(body.model_dump_json().encode()).hexdigest()
        idempotency = (idempotency_key, digest)
        if (found := worker.store.find_idempotent(client, idempotency_key)) is not None:
            return _replay(worker, found, digest), False
    if (wait := worker.admission_delay(client)) is not None:
        raise HTTPException(
            429, f"too many unfinished reports (at most {worker.settings.max_jobs_per_client} per client)",
            headers={"Retry-After": str(int(wait))},
        )
    limiter: RateLimiter = request.app.state.limiter
    if wait := limiter.acquire(client):
        raise HTTPException(
            429, f"too many report requests (at most {worker.settings.rate_limit} a minute)",
            headers={"Retry-After": str(int(wait))},
        )
    try:
        job = worker.submit(body, client, idempotency=idempotency)
    except InputError as exc:
        raise HTTPException(422, str(exc)) from None
    if isinstance(job, Idempotent):  # lost a race with the same key
        return _replay(worker, job, idempotency[1] if idempotency else ""), False
    return job, True


def _replay(worker: Worker, found: Idempotent, digest: str) -> Job:
    if found.request_hash != digest:
        raise HTTPException(409, "this Idempotency-Key was already used with a different request")
    job = worker.store.get(found.job_id)  # the key is the client's own, and so is its job
    if job is None:
        raise HTTPException(409, "this Idempotency-Key belonged to a report that was deleted")
    return job


@router.post(
    "/reports",
    status_code=202,
    response_model=ReportJob,
    summary="Request a report",
    responses={
        401: _ERRORS[401],
        409: {"model": Problem, "description": "Idempotency-Key reused with a different request."},
        413: {"model": Problem, "description": "Request body too large."},
        422: {"description": "Invalid request (e.g. topic too long, unknown corpus)."},
        429: {"model": Problem, "description": "Rate limit or per-client cap reached; see Retry-After."},
    },
)
async def post_report(
    request: Request,
    response: Response,
    body: ReportRequest,
    idempotency_key: Annotated[str | None, Header(
        alias="Idempotency-Key", pattern=_IDEMPOTENCY_KEY,
        description="Retrying with the same key (and body) returns the same job instead of a new one.",
    )] = None,
) -> ReportJob:
    """Queue a report on `topic`; 202 with the job (status `submitted`).

    Follow it with `GET /reports/{id}/events` (SSE) or poll `GET /reports/{id}`.
    """
    await _worker(request).ready()
    job, created = create_job(request, body, idempotency_key)
    response.headers["Location"] = f"/reports/{job.id}"
    if not created:
        response.headers["Idempotent-Replayed"] = "true"
    return job_view(job)


@router.get("/reports", response_model=ReportList, summary="List reports, newest first",
            responses={401: _ERRORS[401]})
async def list_reports(
    request: Request,
    limit: Annotated[int, Query(ge=1, le=100, description="Page size.")] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000, description="Reports skipped.")] = 0,
) -> ReportList:
    """One page of reports, newest first: the caller's own (an admin's: everyone's)."""
    worker = _worker(request)
    caller = caller_of(request.scope)
    owner = None if caller.admin else caller.client
    total = worker.store.count(client=owner)
    items = [job_view(j) for j in worker.store.list(limit=limit, offset=offset, client=owner)]
    following = f"/reports?limit={limit}&offset={offset + limit}" if offset + limit < total else None
    return ReportList(items=items, total=total, limit=limit, offset=offset, next=following)


@router.get("/reports/{report_id}", response_model=ReportJob, summary="A report's status",
            responses=_ERRORS)
async def get_report(request: Request, report_id: ReportId) -> ReportJob:
    """Status, progress (tasks done / total), timings, blueprint summary and errors."""
    worker = _worker(request)
    job = _job_or_404(request, report_id)
    return job_view(job, blueprint=blueprint_summary(worker.report_dir(job.id)))


@router.get(
    "/reports/{report_id}/events",
    summary="Follow a report live (Server-Sent Events)",
    response_class=Response,
    responses={
        **_ERRORS,
        200: {
            "description": (
                "An SSE stream. `event: status` carries the job (status and progress) whenever it "
                "changes; `event: acp` carries each ACP message of messages.jsonl, with `id:` its "
                "line number. Reconnect with `Last-Event-ID` to get what you missed. The stream "
                "ends after the final status."
            ),
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
    },
)
async def get_events(
    request: Request,
    report_id: ReportId,
    last_event_id: Annotated[str | None, Header(
        alias="Last-Event-ID", max_length=32,
        description="The last `id:` received; the stream resumes after that line.",
    )] = None,
) -> Response:
    """Status updates and every ACP message, as they happen."""
    worker = _worker(request)
    _job_or_404(request, report_id)
    after = int(last_event_id) if last_event_id and last_event_id.strip().isdigit() else 0
    return event_stream(worker, report_id, after=after)


def _artifact(request: Request, report_id: str, name: str, media_type: str | None = None) -> Response:
    worker = _worker(request)
    job = _job_or_404(request, report_id)
    if job.status.value != "completed":
        raise HTTPException(409, f"report {report_id} is {job.status.value}; {name} exists once it is completed")
    path = worker.files(report_id, [name]) / name
    if not path.is_file():
        raise HTTPException(404, f"{name} of report {report_id} is missing")
    headers = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"}
    if name == "report.html":
        # The report is self-contained (inline CSS, data: images) and runs no script.
        headers["Content-Security-Policy"] = (
            "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
            "frame-ancestors 'self'"
        )
    disposition = "attachment" if name == "report.pdf" else "inline"
    if name not in ARTIFACTS:
        disposition = "attachment"
    return FileResponse(path, media_type=media_type or ARTIFACTS[name], headers=headers,
                        filename=f"{report_id}{path.suffix}" if name.startswith("report.") else f"{report_id}-{name}",
                        content_disposition_type=disposition)


_ARTIFACT_RESPONSES = {
    **_ERRORS,
    409: {"model": Problem, "description": "The report is not completed (yet)."},
}


@router.get("/reports/{report_id}/report.html", summary="The report as HTML", response_class=Response,
            responses={**_ARTIFACT_RESPONSES, 200: {"content": {"text/html": {}}}})
async def get_html(request: Request, report_id: ReportId) -> Response:
    """The self-contained HTML report."""
    return _artifact(request, report_id, "report.html")


@router.get("/reports/{report_id}/report.pdf", summary="The report as PDF", response_class=Response,
            responses={**_ARTIFACT_RESPONSES, 200: {"content": {"application/pdf": {}}}})
async def get_pdf(request: Request, report_id: ReportId) -> Response:
    """The paginated PDF report (sent as an attachment)."""
    return _artifact(request, report_id, "report.pdf")


@router.get("/reports/{report_id}/report.json", summary="The structured report", response_class=Response,
            responses={**_ARTIFACT_RESPONSES, 200: {"content": {"application/json": {}}}})
async def get_json(request: Request, report_id: ReportId) -> Response:
    """Sections, paragraphs with citations, figures with data, references, limitations."""
    return _artifact(request, report_id, "report.json")


@router.delete(
    "/reports/{report_id}",
    summary="Cancel or delete a report",
    status_code=204,
    response_class=Response,
    responses={
        **_ERRORS,
        202: {"model": ReportJob, "description": "Cancel requested: the run stops at its next task boundary."},
        204: {"description": "The finished report and its files were deleted."},
    },
)
async def delete_report(request: Request, report_id: ReportId) -> Response:
    """Cancel a queued or running report (202), or delete a finished one (204)."""
    worker = _worker(request)
    job = _job_or_404(request, report_id)
    if not job.status.terminal:
        job = worker.cancel(report_id) or job
        return JSONResponse(job_view(job).model_dump(mode="json", by_alias=True), status_code=202)
    await asyncio.to_thread(worker.delete, report_id)  # off the event loop (browse.delete_submit)
    return Response(status_code=204)


class PlanEdit(Plan):
    """``PUT /reports/{id}/plan``: the body sections in reading order (rename, reorder, remove, add, questions).

    A section keeps its ``id`` from ``GET /reports/{id}/plan``; a section
    without one is new.
    """


class ReviewAction(ReviewAnswer):
    """``POST /reports/{id}/review``: ``{"action": "approve"}``, ``{"action": "guidance", "guidance": "..."}``,
    or ``{"action": "edit", "plan": {...}}`` / ``{"action": "edit", "blueprint": {...}}``."""


def answer_review(request: Request, report_id: str, answer: ReviewAnswer) -> Job:
    """Apply a review answer for the REST API and the browse form.

    Raises:
        HTTPException: 404 (no such report), 409 (not waiting for review),
            422 (the edited plan is invalid; the detail names the problem).
    """
    worker = _worker(request)
    _job_or_404(request, report_id)
    answer = answer.model_copy(update={"client": client_of(request.scope)})
    try:
        return worker.review(report_id, answer)
    except ReviewStateError as exc:
        raise HTTPException(409, str(exc)) from None
    except PlanError as exc:
        raise HTTPException(422, f"invalid plan: {exc}") from None


_REVIEW_RESPONSES = {
    **_ERRORS,
    409: {"model": Problem, "description": "The report is not waiting for plan review."},
    422: {"model": Problem, "description": "The plan is invalid (empty section, unknown agent, cycle, ...)."},
}


@router.get("/reports/{report_id}/plan", summary="The report's plan", responses=_ERRORS)
async def get_plan(request: Request, report_id: ReportId) -> JSONResponse:
    """The plan as sections (id, title, questions, search, chart) plus the whole blueprint.

    While the job is `input_required` it is the proposed plan; afterwards the reviewed one.
    """
    worker = _worker(request)
    _job_or_404(request, report_id)
    view = worker.plan(report_id)
    if view is None:
        raise HTTPException(404, f"report {report_id} has no plan yet")
    return JSONResponse(view)


@router.put("/reports/{report_id}/plan", status_code=202, response_model=ReportJob,
            summary="Replace the plan under review (and run it)", responses=_REVIEW_RESPONSES)
async def put_plan(request: Request, report_id: ReportId, body: PlanEdit) -> ReportJob:
    """Replace the proposed plan with an edited one; the job then runs it (202)."""
    job = answer_review(request, report_id, ReviewAnswer(action="edit", plan=Plan.model_validate(body.model_dump())))
    return job_view(job)


@router.post("/reports/{report_id}/review", status_code=202, response_model=ReportJob,
             summary="Approve the plan, edit it, or give guidance", responses=_REVIEW_RESPONSES)
async def post_review(request: Request, report_id: ReportId, body: ReviewAction) -> ReportJob:
    """Answer the plan review: approve runs the plan; guidance plans again and waits for another review."""
    return job_view(answer_review(request, report_id, ReviewAnswer.model_validate(body.model_dump())))


def exports(worker: Worker) -> dict[str, str]:
    """Every file a finished report offers, with its media type (the core files, the run's, each exporter's).

    Args:
        worker: The service's worker (its settings choose the exporters).

    Returns:
        ``{file name: media type}`` in :func:`reportgen.render.exporters.output_files` order.
    """
    from reportgen.agents.registry import load_registry
    from reportgen.render.exporters import output_files

    exporters = list(load_registry(worker.settings).exporters.values())
    types = {**ARTIFACTS, "blueprint.json": "application/json", "messages.jsonl": "application/x-ndjson",
             **{e.filename: e.media_type for e in exporters}}
    return {name: types.get(name, "application/octet-stream") for name in output_files(exporters)}


@router.get("/reports/{report_id}/{name}", summary="Any other file of a finished report (report.md, report.docx, ...)",
            response_class=Response, responses=_ARTIFACT_RESPONSES)
async def get_export(request: Request, report_id: ReportId,
                     name: Annotated[str, Path(max_length=64, pattern=r"^[a-z]+\.[a-z]+$")]) -> Response:
    """One of the report's files by name: every export (`report.md`, `report.docx`, plugin formats),
    `blueprint.json` and `messages.jsonl`. Only names the report offers are served."""
    offered = await asyncio.to_thread(exports, _worker(request))  # the first call loads the registry (seconds)
    if name not in offered:
        raise HTTPException(404, f"a report has no file {name!r}; it offers {', '.join(offered)}")
    return _artifact(request, report_id, name, offered[name])
