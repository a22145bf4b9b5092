"""The ``reportgen`` command line (typer).

Errors from reportgen end the command with one line on stderr
(``error: ...``) and exit status 1; usage errors exit 2.

Start-up is kept short (issue 15): this module imports typer, rich's console,
pydantic and the settings only; every stage imports what it needs when it
runs, and ``report`` checks its options before it loads the pipeline.
``tests/test_startup.py`` holds the budget (modules imported, not seconds).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer
from pydantic import ValidationError
from rich.console import Console

from reportgen.errors import InputError, ReportgenError

if TYPE_CHECKING:
    from rich.progress import Progress

    from reportgen.blueprint.model import Blueprint
    from reportgen.config import RunOptions


def get_settings() -> Any:
    """:func:`reportgen.config.get_settings`, imported when a command needs it."""
    from reportgen.config import get_settings as settings

    return settings()

__all__ = ["app"]

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Cited, charted HTML + PDF reports from a topic.",
)
_err = Console(stderr=True)


def _fail(message: str, code: int = 1) -> None:
    """Print one line to stderr and exit."""
    _err.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def _options(
    topic: str, lang: str | None, sections: int | None, corpus: list[Path], no_wiki: bool,
    guidance: str | None = None, model: bool = False,
) -> RunOptions:
    """Validate the command line into run options.

    The language follows :func:`reportgen.config.resolve_language`, the rule
    the HTTP API and A2A apply too.
    """
    from reportgen.config import RunOptions, resolve_language

    if no_wiki and not corpus:
        raise InputError("--no-wiki needs at least one --corpus folder")
    try:
        # Checked once before the language is detected (loading the detector
        # takes a second), so a bad topic or count is answered at once.
        RunOptions(topic=topic, lang=lang or "en", sections=sections, corpus_dirs=corpus,
                   use_wiki=not no_wiki, guidance=guidance)
    except ValidationError as exc:
        first = exc.errors()[0]
        if first["loc"] and first["loc"][0] != "lang":
            where = ".".join(str(x) for x in first["loc"])
            raise InputError(f"{where}: {first['msg'].removeprefix('Value error, ')}") from None
    lang = resolve_language(topic, lang, encyclopedia=not no_wiki, model=model)
    try:
        return RunOptions(topic=topic, lang=lang, sections=sections, corpus_dirs=corpus,
                          use_wiki=not no_wiki, guidance=guidance)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise InputError(f"{where}: {first['msg'].removeprefix('Value error, ')}") from None


def _with_template(
    options: RunOptions, template_dir: Path | None, template: str, appendix: bool
) -> RunOptions:
    """Check the template folder and theme now, before any research is done."""
    import jinja2

    from reportgen.errors import RenderError
    from reportgen.render import available_templates

    try:
        names = available_templates(template_dir)
    except RenderError as exc:
        raise InputError(f"--template-dir: {exc}") from None
    if template not in names:
        raise InputError(f"unknown template {template!r}; installed: {', '.join(names)}")
    if template_dir is not None:  # a syntax error shows now, not after the research
        from reportgen.render.html import report_environment

        env = report_environment(template_dir)
        for path in sorted(Path(template_dir).glob("*.j2")):
            try:
                env.get_template(path.name)
            except jinja2.TemplateSyntaxError as exc:
                raise InputError(f"template {path}, line {exc.lineno}: {exc.message}") from None
    return options.model_copy(update={"template_dir": template_dir, "template": template, "appendix": appendix})


class _ProgressDisplay:
    """Tasks done of total, and which agents are working, on stderr."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.bar = progress.add_task("planning", total=None)

    def __call__(self, blueprint: Blueprint) -> None:
        from reportgen.blueprint.model import TaskStatus

        finished = sum(t.status.finished for t in blueprint.tasks)
        working = Counter(t.agent for t in blueprint.tasks if t.status is TaskStatus.RUNNING)
        what = ", ".join(f"{agent} x{n}" for agent, n in sorted(working.items())) or "coordinating"
        self.progress.update(self.bar, total=len(blueprint.tasks), completed=finished, description=what)


@app.command()
def report(
    topic: str = typer.Argument(..., help="What the report is about (any language, up to 500 characters)."),
    corpus: Optional[list[Path]] = typer.Option(
        None, "--corpus", help="A folder of your documents (.md, .txt, .html, .pdf); repeatable."
    ),
    lang: Optional[str] = typer.Option(
        None, "--lang", help="Report language (default: the topic's). Extractive mode: en, es or fr."
    ),
    sections: Optional[int] = typer.Option(
        None, "--sections",
        help="Body sections wanted (1-12); default from the request: 8 for a comprehensive or detailed "
             "report, 3 for a short one, else 6."),
    out: Optional[Path] = typer.Option(None, "--out", help="Where reports go (default: outputs/)."),
    no_wiki: bool = typer.Option(False, "--no-wiki", help="Search only the --corpus folders."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress display."),
    new: bool = typer.Option(False, "--new", help="Start afresh even if the same report was interrupted."),
    no_recovery: bool = typer.Option(
        False, "--no-recovery", help="Ablation: errors are not routed to recovery; a failed task just fails."
    ),
    faults: Optional[str] = typer.Option(
        None, "--faults", help="Inject faults (tests, benchmarks), e.g. 'rate=0.3,kinds=exception+429,seed=7'."
    ),
    guidance: Optional[str] = typer.Option(
        None, "--guidance", help="For the planner model: audience, length, sections wanted."
    ),
    max_tokens: Optional[int] = typer.Option(
        None, "--max-tokens", min=1, help="Token budget: no new work once reached; what is done is rendered."
    ),
    template_dir: Optional[Path] = typer.Option(
        None, "--template-dir", help="A folder holding the template files you change (the rest are built in)."
    ),
    template: str = typer.Option("report", "--template", help="Theme: report (full report) or brief."),
    no_appendix: bool = typer.Option(
        False, "--no-appendix", help="Leave out the appendix showing how the report was made."
    ),
    agents_dir: Optional[Path] = typer.Option(
        None, "--agents-dir", help="A folder of agent definitions adding or overriding built-in agents."
    ),
    review: bool = typer.Option(
        False, "--review", help="Show the plan before any research: approve it, edit it in $EDITOR, or give guidance."
    ),
) -> None:
    """Research TOPIC and write outputs/<report-id>/report.{html,pdf,json}.

    An interrupted run of the same report (same topic and options) is resumed
    instead of started again, unless --new is given.
    """
    try:
        settings = get_settings()
        if max_tokens is not None:
            settings = settings.model_copy(update={"max_tokens": max_tokens})
        if agents_dir is not None:
            settings = settings.model_copy(update={"agents_dir": agents_dir})
        # The options first: a bad topic is answered before the registry and
        # the pipeline are loaded (seconds of imports; issue 15).
        options = _options(topic, lang, sections, list(corpus or []), no_wiki, guidance, settings.llm_configured)
        _check_agents(settings)
        from reportgen.faults import FaultPlan
        from reportgen.run import find_unfinished, generate_report

        options = _with_template(options, template_dir or settings.template_dir, template, not no_appendix)
        plan = FaultPlan.parse(faults) if faults else None
        base = out or settings.out_dir
        earlier = None if new else find_unfinished(settings, options, base)
        if earlier is not None:
            _err.print(f"resuming the interrupted run {earlier.report_id} (use --new to start over)",
                       markup=False, highlight=False)
        from reportgen.review import ReviewRequired

        report_id, answer = earlier.report_id if earlier else None, None
        while True:
            try:
                result = _with_progress(quiet, lambda display, rid=report_id, ans=answer: generate_report(
                    options, settings=settings, out_dir=base, on_blueprint=display, faults=plan,
                    recovery=not no_recovery, report_id=rid, template_dir=options.template_dir,
                    review=review, review_answer=ans,
                ))
                break
            except ReviewRequired as pending:  # --review: the plan waits for the user
                from reportgen.agents.registry import load_registry
                from reportgen.review_cli import ask_review

                report_id = pending.report_id
                answer = ask_review(pending, load_registry(settings).kinds())
                if answer is None:
                    _err.print(f"the plan of {report_id} keeps waiting; run the same command to review it",
                               markup=False, highlight=False)
                    raise typer.Exit(3) from None
    except ReportgenError as exc:
        _fail(str(exc))
        return
    except ValidationError as exc:  # a REPORTGEN_* setting that does not parse
        _fail(_settings_problem(exc))
        return
    except Exception as exc:  # noqa: BLE001 - never a traceback: one line; the run record says failed
        _fail(f"internal error: {type(exc).__name__}: {exc}")
        return
    _print_result(result)


@app.command()
def resume(
    report_id: str = typer.Argument(..., help="The id of an interrupted run (its output folder name)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress display."),
) -> None:
    """Continue an interrupted run from its checkpoint; finished tasks are not run again."""
    from reportgen.run import resume_report

    try:
        result = _with_progress(quiet, lambda display: resume_report(report_id, on_blueprint=display))
    except ReportgenError as exc:
        _fail(str(exc))
        return
    except ValidationError as exc:
        _fail(_settings_problem(exc))
        return
    except Exception as exc:  # noqa: BLE001 - never a traceback
        _fail(f"internal error: {type(exc).__name__}: {exc}")
        return
    _print_result(result)


def _settings_problem(exc: ValidationError) -> str:
    """One line naming the environment variable that does not parse, its value and why."""
    first = exc.errors()[0]
    name = str(first["loc"][0]) if first["loc"] else "setting"
    return f"REPORTGEN_{name.upper()}={first.get('input')!r}: {first['msg']}"


def _with_progress(quiet: bool, start: Any) -> Any:
    """Run ``start(display)`` (a coroutine factory) under the progress display."""
    import asyncio

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(
        SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("tasks"), TimeElapsedColumn(), console=_err, disable=quiet, transient=True,
    ) as progress:
        return asyncio.run(start(_ProgressDisplay(progress)))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _print_result(result: Any) -> None:
    from reportgen.render.appendix import OUTCOMES, outcome

    # counted as the report's appendix draws them: "done", "degraded" (done without an optional input), ...
    counts = Counter(outcome(t, result.blueprint) for t in result.blueprint.tasks)
    # body sections, as the note at the top counts them ("this report has one section")
    body = sum(1 for section in result.report.sections if section.role == "body")
    tasks = ", ".join(f"{name.replace('_', ' ')} {counts[name]}" for name in OUTCOMES if counts[name])
    print(f"report {result.report_id}: {_count(body, 'body section')}, "
          f"{_count(len(result.report.figures), 'figure')}, {_count(len(result.report.references), 'reference')}; "
          f"tasks {tasks}")
    report = result.report
    if report.mode == "model" and report.usage:
        usage = report.usage
        cost = f"${usage['cost_usd']:.4f}" if usage.get("cost_usd") is not None else "cost unknown (no price set)"
        roles = ", ".join(f"{role} {u['input']}+{u['output']}" for role, u in sorted(usage["by_role"].items()))
        print(f"model {report.model}: {usage['total_tokens']} tokens ({roles}), {cost}")
    else:
        print("mode: extractive (no language model)")
    for name, path in result.files.items():
        print(f"  {name:<15} {path}")


def _check_agents(settings: Any) -> None:
    """Load and validate the agent registry now, before any research is done."""
    from reportgen.agents.registry import load_registry

    load_registry(settings)


@app.command()
def plugins() -> None:
    """List the loaded plugins and what each registers (agents, brains, search backends, exporters, chart kinds)."""
    from reportgen.agents.registry import load_registry

    try:
        registry = load_registry(get_settings())
    except ReportgenError as exc:
        _fail(str(exc))
        return
    for line in registry.describe():
        print(line)


@app.command()
def card(
    url: str = typer.Option("http://127.0.0.1:8000", "--url", help="The service's base URL the card points to."),
) -> None:
    """Print the A2A 1.0 agent card (JSON): the service's skills, one per registered agent."""
    import json

    from reportgen.api.card import a2a_agent_card_json

    try:
        document = a2a_agent_card_json(get_settings(), url.rstrip("/"))
    except ReportgenError as exc:
        _fail(str(exc))
        return
    print(json.dumps(document, indent=2, ensure_ascii=False))


@app.command()
def mcp() -> None:
    """Serve report generation as an MCP tool over stdio (for MCP clients: desktop assistants, IDEs)."""
    from reportgen.mcp_server import serve_stdio

    serve_stdio()


@app.command()
def graph() -> None:
    """Print the report graph and the task graph as mermaid."""
    from reportgen.graph_cache import cached_mermaid

    try:
        text = cached_mermaid(get_settings())
    except ReportgenError as exc:
        _fail(str(exc))
        return
    sys.stdout.write(text)


@app.command("worker")
def worker_command(
    concurrency: int = typer.Option(1, "--concurrency", min=1, max=64,
                                    help="Reports this worker runs at once (1: in this process; more: forked)."),
    name: Optional[str] = typer.Option(None, "--name", help="Celery node name (default reportgen-<pid>@<host>)."),
) -> None:
    """Run report jobs from the queue (REPORTGEN_BROKER_URL) as a Celery worker; start any number, anywhere.

    Every worker and API replica must share REPORTGEN_DATABASE_URL (PostgreSQL) and the outputs folder."""
    from reportgen.broker import run_worker

    settings = get_settings()
    if not settings.broker_url:
        typer.echo("error: REPORTGEN_BROKER_URL is not set (e.g. redis://127.0.0.1:6379/0)", err=True)
        raise typer.Exit(2)
    run_worker(settings, concurrency=concurrency, name=name)


@app.command()
def serve(
    host: Optional[str] = typer.Option(
        None, "--host", help="Address to bind (default 127.0.0.1, or REPORTGEN_HOST)."
    ),
    port: Optional[int] = typer.Option(None, "--port", help="Port (default 8000, or REPORTGEN_PORT)."),
) -> None:
    """Run the report service: HTTP API, live progress, agent card, A2A, browse pages."""
    import uvicorn

    from reportgen.api import create_app
    from reportgen.api.server import uvicorn_options

    settings = get_settings()
    updates = {k: v for k, v in {"host": host, "port": port}.items() if v is not None}
    try:
        settings = settings.model_validate({**settings.model_dump(), **updates}) if updates else settings
    except ValidationError as exc:
        _fail(f"--{exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}", code=2)
        return
    key = settings.api_key.get_secret_value() if settings.api_key else ""
    if settings.host not in ("127.0.0.1", "localhost", "::1") and not key and not _has_user_keys(settings):
        _err.print(f"warning: serving on {settings.host} without REPORTGEN_API_KEY or user keys "
                   "(reportgen keys create): anyone who can reach it can request reports",
                   markup=False, highlight=False)
    if settings.host in ("0.0.0.0", "::") and settings.allowed_hosts == ["localhost", "127.0.0.1", "[::1]"]:
        _err.print(f"note: serving on {settings.host}, but only requests for localhost, 127.0.0.1 and [::1] "
                   "are answered; name the others in REPORTGEN_ALLOWED_HOSTS (a foreign Host gets 400)",
                   markup=False, highlight=False)
    print(f"reportgen service on http://{settings.host}:{settings.port}/ (browse), "
          f"/docs (API), /.well-known/agent.json (agent card)", flush=True)
    uvicorn.run(create_app(settings), **uvicorn_options(settings))


def _has_user_keys(settings: Any) -> bool:
    from reportgen.keys import KeyStore

    keys = KeyStore(settings.database)
    try:
        return keys.has_keys()
    finally:
        keys.close()


keys_app = typer.Typer(
    no_args_is_help=True, rich_markup_mode=None,
    help="Users' API keys of the service (stored hashed in its database); see the README's 'Users and keys'.",
)
app.add_typer(keys_app, name="keys")


@keys_app.command("create")
def keys_create(
    name: str = typer.Argument(..., help="The user (lower-case letters, digits, '.', '_', '-')."),
    admin: bool = typer.Option(False, "--admin", help="The user sees and touches every user's reports."),
) -> None:
    """Create a key for user NAME and print it (once: only its hash is kept)."""
    from reportgen.keys import KeyStore

    keys = KeyStore(get_settings().database)
    try:
        key = keys.create(name, admin=admin)
    except InputError as exc:
        _fail(str(exc))
        return
    finally:
        keys.close()
    print(key)
    _err.print(f"key of {'admin ' if admin else ''}user {name}: store it now, it is not shown again",
               markup=False, highlight=False)


@keys_app.command("list")
def keys_list(
    revoked: bool = typer.Option(False, "--revoked", help="Show revoked keys too."),
) -> None:
    """List the users and their keys' first characters (never the keys)."""
    from reportgen.keys import KeyStore

    keys = KeyStore(get_settings().database)
    try:
        found = keys.list(revoked=revoked)
    finally:
        keys.close()
    for key in found:
        state = f"revoked {key.revoked_at:%Y-%m-%d %H:%M}" if key.revoked_at else "live"
        print(f"{key.name}\t{'admin' if key.admin else 'user'}\t{key.hint}…\t"
              f"created {key.created_at:%Y-%m-%d %H:%M}\t{state}")


@keys_app.command("revoke")
def keys_revoke(name: str = typer.Argument(..., help="The user whose key stops working.")) -> None:
    """Revoke user NAME's key at once (their reports stay; a new key of the same name sees them)."""
    from reportgen.keys import KeyStore

    keys = KeyStore(get_settings().database)
    try:
        revoked = keys.revoke(name)
    finally:
        keys.close()
    if not revoked:
        _fail(f"user {name!r} has no live key")
    print(f"revoked the key of {name}")


if __name__ == "__main__":  # pragma: no cover
    app()
