"""The browse pages: server-rendered HTML, no front-end build.

- ``/browse`` — the reports, newest first: title, topic, date, status, pages,
  language, links to the HTML and the PDF;
- ``/browse/new`` — a form to request a report; it then shows the report page;
- ``/browse/{id}`` — one report: live progress from the SSE stream while it
  runs (plain JavaScript with ``EventSource``: the blueprint drawn as a graph
  coloured by task state, the timeline, a line in plain words, failure
  reasons), the plan review form while it waits for review (it answers
  through the same code as ``PUT /reports/{id}/plan`` and
  ``POST /reports/{id}/review``), then the HTML in a sandboxed iframe and
  every file to download; cancel and delete buttons;
- ``/login`` — when an API key is configured, a form that stores it in an
  HttpOnly, SameSite=Strict cookie.

The templates live in ``templates/browse/`` and render in the same kind of
Jinja environment as the reports (:mod:`reportgen.render.html`): the
immutable sandbox, autoescape on, undefined names are errors.
"""

from __future__ import annotations

import asyncio
import functools
import math
from datetime import datetime, timezone
from typing import Annotated, Any
from urllib.parse import parse_qs, urlsplit

import jinja2
from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from jinja2.sandbox import ImmutableSandboxedEnvironment
from pydantic import ValidationError

from reportgen.api.reports import ReportId, answer_review, create_job, exports, job_of
from reportgen.api.schemas import blueprint_summary, job_view
from reportgen.api.security import KEY_COOKIE, Authenticator, caller_of, peer_of
from reportgen.config import LANGUAGES, MAX_TOPIC_CHARS
from reportgen.render.html import BUILTIN_TEMPLATE_DIR
from reportgen.review import Plan, ReviewAnswer
from reportgen.worker import ReportRequest, Worker

__all__ = ["PAGE_SIZE", "environment", "friendly", "router"]

router = APIRouter(include_in_schema=False)

#: Reports per page of ``/browse``.
PAGE_SIZE = 25

#: The browse pages load only their own script and style; reports show in a sandboxed frame.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)

_STATIC = {"browse.css": "text/css; charset=utf-8", "progress.js": "text/javascript; charset=utf-8"}


@functools.lru_cache(maxsize=1)
def environment() -> ImmutableSandboxedEnvironment:
    """The Jinja environment of the browse pages (templates/browse/)."""
    env = ImmutableSandboxedEnvironment(
        loader=jinja2.FileSystemLoader(BUILTIN_TEMPLATE_DIR),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["when"] = _when
    return env


def _when(moment: datetime | None) -> str:
    if moment is None:
        return ""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _page(request: Request, template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    worker: Worker = request.app.state.worker
    html = environment().get_template(f"browse/{template}").render(
        offered_corpora=sorted(worker.settings.corpora),
        offered_templates=worker.templates(), **context,
    )
    return HTMLResponse(html, status_code=status_code, headers={
        "Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin", "Cache-Control": "no-store",
    })


def _same_origin(request: Request) -> None:
    """Refuse a form post from another site (cross-site request forgery)."""
    origin = request.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != request.headers.get("host", ""):
        raise HTTPException(403, "cross-site form posts are refused")


async def _form(request: Request) -> dict[str, str]:
    body = (await request.body()).decode("utf-8", "replace")
    return {k: v[0] for k, v in parse_qs(body, keep_blank_values=True, max_num_fields=20).items()}


@router.get("/")
async def home() -> RedirectResponse:
    return RedirectResponse("/browse", status_code=303)


@router.get("/browse")
async def list_page(request: Request, page: Annotated[int, Query(ge=1, le=100_000)] = 1) -> HTMLResponse:
    worker: Worker = request.app.state.worker
    caller = caller_of(request.scope)
    owner = None if caller.admin else caller.client
    total = worker.store.count(client=owner)
    jobs = worker.store.list(limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE, client=owner)
    pages = max(1, math.ceil(total / PAGE_SIZE))
    return _page(request, "list.html.j2", jobs=[job_view(j) for j in jobs], page=page, pages=pages, total=total)


@router.get("/browse/new")
async def new_page(request: Request) -> HTMLResponse:
    return _page(request, "new.html.j2", form={}, error="", languages=LANGUAGES, max_topic=MAX_TOPIC_CHARS)


@router.post("/browse/new")
async def new_submit(request: Request) -> Response:
    _same_origin(request)
    form = await _form(request)
    sections = form.get("sections", "").strip()
    values: dict[str, Any] = {"topic": form.get("topic", ""), "lang": form.get("lang", "en"),
                              "sections": int(sections) if sections.isdigit() else sections or None,
                              "wiki": "wiki" in form or not form.get("corpus"),
                              "appendix": "appendix" in form, "review": "review" in form}
    for name in ("corpus", "template"):
        if form.get(name):
            values[name] = form[name]
    try:
        body = ReportRequest.model_validate(values)
        await request.app.state.worker.ready()
        job, _ = create_job(request, body, None)
    except ValidationError as exc:
        return _page(request, "new.html.j2", 422, form=form, error=friendly(exc), languages=LANGUAGES,
                     max_topic=MAX_TOPIC_CHARS)
    except HTTPException as exc:
        return _page(request, "new.html.j2", exc.status_code, form=form, error=str(exc.detail),
                     languages=LANGUAGES, max_topic=MAX_TOPIC_CHARS)
    return RedirectResponse(f"/browse/{job.id}", status_code=303)


@router.get("/browse/static/{name}")
async def static(name: str) -> Response:
    if name not in _STATIC:
        raise HTTPException(404, "no such file")
    return FileResponse(BUILTIN_TEMPLATE_DIR / "browse" / name, media_type=_STATIC[name],
                        headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"})


#: Plain words for the request's fields, in form errors.
_FIELDS = {"topic": "The topic", "lang": "The language", "sections": "Sections", "corpus": "Your documents",
           "template": "The template", "guidance": "The guidance", "title": "A section title",
           "questions": "A question", "sections.title": "A section title"}


def friendly(exc: ValidationError) -> str:
    """Form errors in plain words, one a line: "The topic is too long (at most 500 characters)".

    Args:
        exc: The validation error.

    Returns:
        One line per problem.
    """
    lines = []
    for error in exc.errors():
        field = next((str(p) for p in reversed(error["loc"]) if isinstance(p, str) and p != "body"), "request")
        name = _FIELDS.get(field, field.replace("_", " ").capitalize())
        kind, ctx = error["type"], error.get("ctx") or {}
        if kind == "string_too_long":
            lines.append(f"{name} is too long (at most {ctx.get('max_length')} characters).")
        elif kind in ("string_too_short", "missing"):
            lines.append(f"{name} is missing.")
        elif kind in ("greater_than_equal", "less_than_equal", "int_type", "int_parsing"):
            lines.append(f"{name} must be a whole number from 1 to 12." if field == "sections"
                         else f"{name} is out of range.")
        elif kind == "string_pattern_mismatch":
            lines.append(f"{name} is not one this server offers.")
        else:
            lines.append(f"{name}: {str(error['msg']).removeprefix('Value error, ')}.")
    return "\n".join(dict.fromkeys(lines))


def _report(request: Request, report_id: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    worker: Worker = request.app.state.worker
    job = job_of(request, report_id)
    if job is None:
        return _page(request, "missing.html.j2", 404, report_id=report_id)
    view = job_view(job)
    summary = blueprint_summary(worker.report_dir(job.id))
    failures = [t for t in summary.items if t.status == "failed"] if summary else []
    activity = {"submitted": "Waiting for a free worker…", "working": "Working…",
                "input_required": "Waiting for you to review the plan."}.get(job.status.value, "")
    folder = worker.files(job.id, list(exports(worker))) if view.status == "completed" else worker.report_dir(job.id)
    files = [name for name in exports(worker) if (folder / name).is_file()] if view.status == "completed" else []
    plan = worker.plan(job.id) if view.status == "input_required" else None
    context.setdefault("notice", "")
    context.setdefault("error", "")
    return _page(request, "report.html.j2", status_code, job=view, failures=failures, activity=activity,
                 files=files, plan=plan, **context)


@router.get("/browse/{report_id}")
async def report_page(request: Request, report_id: ReportId) -> HTMLResponse:
    return _report(request, report_id)


def _answer(form: dict[str, str]) -> ReviewAnswer:
    """The review form as a :class:`ReviewAnswer` (raises ``ValidationError``)."""
    action = form.get("action", "approve")
    if action == "guidance":
        return ReviewAnswer(action="guidance", guidance=form.get("guidance", ""))
    if action != "edit":
        return ReviewAnswer(action="approve")
    rows = []
    count = int(form.get("count", "0")) if form.get("count", "0").isdigit() else 0
    for i in range(min(count, 12)):
        if form.get(f"s{i}_remove"):
            continue
        order = form.get(f"s{i}_order", "")
        rows.append((int(order) if order.isdigit() else i + 1, i, {
            "id": form.get(f"s{i}_id") or None, "title": form.get(f"s{i}_title", ""),
            "questions": [q for q in form.get(f"s{i}_questions", "").splitlines() if q.strip()],
        }))
    if form.get("new_title", "").strip():
        rows.append((99, 99, {"id": None, "title": form["new_title"],
                              "questions": [q for q in form.get("new_questions", "").splitlines() if q.strip()]}))
    rows.sort(key=lambda row: (row[0], row[1]))
    return ReviewAnswer(action="edit", plan=Plan.model_validate({"sections": [row[2] for row in rows]}))


@router.post("/browse/{report_id}/review")
async def review_submit(request: Request, report_id: ReportId) -> Response:
    _same_origin(request)
    form = await _form(request)
    try:
        answer_review(request, report_id, _answer(form))
    except ValidationError as exc:
        return _report(request, report_id, 422, error="The plan was not changed: " + friendly(exc).replace("\n", " "))
    except HTTPException as exc:
        return _report(request, report_id, exc.status_code, error=str(exc.detail))
    return RedirectResponse(f"/browse/{report_id}", status_code=303)


@router.post("/browse/{report_id}/cancel")
async def cancel_submit(request: Request, report_id: ReportId) -> Response:
    _same_origin(request)
    worker: Worker = request.app.state.worker
    job = worker.cancel(report_id) if job_of(request, report_id) is not None else None
    if job is None:
        return _page(request, "missing.html.j2", 404, report_id=report_id)
    return _report(request, report_id, notice="Cancel requested: the report stops at its next task boundary."
                   if not job.status.terminal else "The report was canceled.")


@router.post("/browse/{report_id}/delete")
async def delete_submit(request: Request, report_id: ReportId) -> Response:
    _same_origin(request)
    worker: Worker = request.app.state.worker
    if job_of(request, report_id) is None:
        return _page(request, "missing.html.j2", 404, report_id=report_id)
    try:  # off the event loop: the folder's removal and the store's write transaction block (a browser test had
        # waited 60 s for this answer under a loaded suite, twice in one day)
        await asyncio.to_thread(worker.delete, report_id)
    except ValueError as exc:
        return _report(request, report_id, 409, error=str(exc))
    return RedirectResponse("/browse", status_code=303)


@router.get("/login")
async def login_page(request: Request, next: str = "/browse") -> HTMLResponse:  # noqa: A002
    return _page(request, "login.html.j2", next=_local(next), error="")


@router.post("/login")
async def login_submit(request: Request) -> Response:
    _same_origin(request)
    form = await _form(request)
    auth: Authenticator = request.app.state.auth
    target = _local(form.get("next", "/browse"))
    peer = peer_of(request.scope)
    if wait := auth.blocked(peer):
        refused = _page(request, "login.html.j2", 429, next=target, error="too many wrong keys; try again later")
        refused.headers["Retry-After"] = str(int(wait))
        return refused
    if not auth.required() or auth.authenticate(form.get("key")) is None:
        if auth.required():
            auth.failed(peer)
        return _page(request, "login.html.j2", 401, next=target, error="wrong key")
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(KEY_COOKIE, form["key"], httponly=True, samesite="strict", path="/")
    return response


def _local(target: str) -> str:
    """A redirect target on this server only (an absolute path, never another host)."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/browse"
    return target
