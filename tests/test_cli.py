"""The command line: bad input gets one line, a non-zero exit, and writes nothing."""

import pytest
from typer.testing import CliRunner

from reportgen.cli import app

runner = CliRunner()


@pytest.mark.parametrize("args, message", [
    (["report", ""], "the topic is empty"),
    (["report", "   \t "], "the topic is empty"),
    (["report", "x" * 501], "the limit is 500"),
    (["report", "Wind power", "--lang", "de"], "unknown language 'de'"),
    (["report", "Wind power", "--corpus", "/nonexistent/folder"], "does not exist"),
    (["report", "Wind power", "--no-wiki"], "--no-wiki needs"),
    (["report", "Wind power", "--sections", "0"], "sections"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "out"
    result = runner.invoke(app, [*args, "--out", str(out), "--quiet"])
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert message in lines[0]
    assert not out.exists()


def test_empty_corpus_folder(tmp_path):
    empty = tmp_path / "docs"
    empty.mkdir()
    (empty / "notes.bin").write_bytes(b"\x00\x01")
    result = runner.invoke(app, ["report", "Wind power", "--corpus", str(empty), "--out", str(tmp_path / "o"), "-q"])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_graph_command_prints_mermaid():
    result = runner.invoke(app, ["graph"])
    assert result.exit_code == 0
    assert "recovery" in result.stdout and "dispatch" in result.stdout


def test_card_command_prints_the_a2a_card_the_service_serves():
    """``reportgen card`` is the service's 1.0 card (without a2a-sdk's 0.3 compatibility fields)."""
    import json

    from a2a.server.request_handlers.response_helpers import agent_card_to_dict

    from reportgen.api.card import a2a_agent_card
    from reportgen.config import get_settings

    result = runner.invoke(app, ["card", "--url", "http://example.test:9000/"])
    assert result.exit_code == 0, result.stderr
    card = json.loads(result.stdout)
    assert card["supportedInterfaces"][0]["url"] == "http://example.test:9000/a2a"
    assert {s["id"] for s in card["skills"]} >= {"generate-report", "agent-browser", "agent-writer"}
    served = agent_card_to_dict(a2a_agent_card(get_settings(), "http://example.test:9000"))
    assert {k: v for k, v in served.items() if k in card} == card


def test_a_broken_user_template_is_refused_before_any_research(tmp_path):
    folder = tmp_path / "my-templates"
    folder.mkdir()
    (folder / "report.html.j2").write_text('{% extends "builtin/report.html.j2" %}\n{% block cover %}{{ oops\n')
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", "Wind power", "--template-dir", str(folder), "--out", str(out), "-q"])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: template {folder / 'report.html.j2'}, line 2:")
    assert not out.exists()


def test_the_summary_line_counts_tasks_as_the_appendix_draws_them(capsys):
    """ "done 9, failed 3" beside an appendix of "6 done, 3 degraded, 3 failed" read as a contradiction."""
    from types import SimpleNamespace

    from reportgen.blueprint.model import TaskStatus
    from reportgen.blueprint.planner import compile_blueprint
    from reportgen.cli import _print_result

    blueprint = compile_blueprint("r", "Tea", ["Camellia"], subject="Tea")
    for task in blueprint.tasks:
        task.status = TaskStatus.DONE
    blueprint.task("chart-1").status = TaskStatus.FAILED
    blueprint.task("write-1").degraded = True
    sections = [SimpleNamespace(role=role) for role in ("introduction", "body", "conclusion")]
    report = SimpleNamespace(sections=sections, figures=[], references=[1], mode="extractive", usage=None)
    _print_result(SimpleNamespace(blueprint=blueprint, report_id="r", report=report, files={}))
    line = capsys.readouterr().out.splitlines()[0]
    assert line.endswith(f"tasks done {len(blueprint.tasks) - 2}, degraded 1, failed 1")
    # body sections, as the note at the top counts them ("2 sections" of a report of one had read as a contradiction)
    assert line.startswith("report r: 1 body section, 0 figures, 1 reference;")
    # a chart whose sources print no data (605), its section written all the same, found nothing: no failure
    blueprint.task("chart-1").status_codes = [605]
    _print_result(SimpleNamespace(blueprint=blueprint, report_id="r", report=report, files={}))
    line = capsys.readouterr().out.splitlines()[0]
    # and its section, written without it, is whole: done, not degraded
    assert line.endswith(f"tasks done {len(blueprint.tasks) - 1}, found nothing 1")
