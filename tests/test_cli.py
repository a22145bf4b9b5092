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


def test_a_broken_user_template_is_refused_before_any_research(tmp_path):
    folder = tmp_path / "my-templates"
    folder.mkdir()
    (folder / "report.html.j2").write_text('{% extends "builtin/report.html.j2" %}\n{% block cover %}{{ oops\n')
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", "Wind power", "--template-dir", str(folder), "--out", str(out), "-q"])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: template {folder / 'report.html.j2'}, line 2:")
    assert not out.exists()
