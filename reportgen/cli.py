"""The ``reportgen`` command line (typer).

Errors from reportgen end the command with one line on stderr
(``error: ...``) and exit status 1; usage errors exit 2.
"""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from pathlib import Path
from typing import Optional

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from reportgen.blueprint.model import Blueprint, TaskStatus
from reportgen.config import LANGUAGES, RunOptions, get_settings
from reportgen.errors import InputError, ReportgenError

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


def _options(topic: str, lang: str, sections: int, corpus: list[Path], no_wiki: bool) -> RunOptions:
    if lang not in LANGUAGES:
        raise InputError(f"unknown language {lang!r}; choose one of: {', '.join(LANGUAGES)}")
    if no_wiki and not corpus:
        raise InputError("--no-wiki needs at least one --corpus folder")
    try:
        return RunOptions(topic=topic, lang=lang, sections=sections, corpus_dirs=corpus, use_wiki=not no_wiki)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise InputError(f"{where}: {first['msg'].removeprefix('Value error, ')}") from None


class _ProgressDisplay:
    """Tasks done of total, and which agents are working, on stderr."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.bar = progress.add_task("planning", total=None)

    def __call__(self, blueprint: Blueprint) -> None:
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
    lang: str = typer.Option("en", "--lang", help="Report language and encyclopedia edition: en, es or fr."),
    sections: int = typer.Option(5, "--sections", help="Body sections wanted (1-12)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Where reports go (default: outputs/)."),
    no_wiki: bool = typer.Option(False, "--no-wiki", help="Search only the --corpus folders."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress display."),
) -> None:
    """Research TOPIC and write outputs/<report-id>/report.{html,pdf,json}."""
    from reportgen.run import generate_report

    try:
        options = _options(topic, lang, sections, list(corpus or []), no_wiki)
        settings = get_settings()
        with Progress(
            SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("tasks"), TimeElapsedColumn(), console=_err, disable=quiet, transient=False,
        ) as progress:
            display = _ProgressDisplay(progress)
            result = asyncio.run(
                generate_report(options, settings=settings, out_dir=out, on_blueprint=display)
            )
    except ReportgenError as exc:
        _fail(str(exc))
        return
    summary = result.blueprint.summary()
    print(f"report {result.report_id}: {len(result.report.sections)} sections, "
          f"{len(result.report.figures)} figures, {len(result.report.references)} references; "
          f"tasks {', '.join(f'{k} {v}' for k, v in sorted(summary.items()))}")
    for name, path in result.files.items():
        print(f"  {name:<15} {path}")


@app.command()
def graph() -> None:
    """Print the report graph and the task graph as mermaid."""
    from reportgen.graph import mermaid

    sys.stdout.write(mermaid())


if __name__ == "__main__":  # pragma: no cover
    app()
