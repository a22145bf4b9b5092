"""End to end over the real offline encyclopedia: CLI → five files → PDF checks."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reportgen.acp import read_messages
from reportgen.cli import app
from reportgen.config import get_settings
from reportgen.sources import open_wiki_backend

runner = CliRunner()
FILES = ("report.html", "report.pdf", "report.json", "blueprint.json", "messages.jsonl")
needs_poppler = pytest.mark.skipif(not shutil.which("pdftoppm"), reason="poppler-utils is not installed")


@pytest.fixture(scope="session")
def wiki_indexes(tmp_path_factory) -> Path:
    """Build the English and French encyclopedia indexes once per session."""
    folder = tmp_path_factory.mktemp("wiki-index")
    for lang in ("en", "fr"):
        open_wiki_backend(lang, directory=folder).close()
    return folder


@pytest.fixture
def with_wiki(wiki_indexes, reportgen_home) -> None:
    """Copy the prebuilt indexes into this test's data dir (fast, and still per-test)."""
    shutil.copytree(wiki_indexes, get_settings().index_dir, dirs_exist_ok=True)


def _run(tmp_path, *args) -> tuple[Path, dict]:
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", *args, "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.stderr + result.stdout
    (folder,) = out.iterdir()
    for name in FILES:
        assert (folder / name).stat().st_size > 0, name
        assert str(folder / name) in result.stdout  # the paths are printed
    return folder, json.loads((folder / "report.json").read_text())


def _check_citations(report: dict) -> None:
    refs = {r["id"] for r in report["references"]}
    cited = {n for s in report["sections"] for p in s["paragraphs"] for n in p["citations"]}
    cited |= {n for f in report["figures"] for n in f["citations"]}
    assert cited == refs  # every citation resolves, every reference is cited
    for s in report["sections"]:
        for p in s["paragraphs"]:
            assert p["text"]
            for sentence in p["sentences"]:
                assert sentence["citations"] or s["role"] == "conclusion"


def _check_messages(folder: Path) -> None:
    blueprint = json.loads((folder / "blueprint.json").read_text())
    messages = read_messages(folder / "messages.jsonl")
    for task in blueprint["tasks"]:
        if task["status"] in ("done", "failed"):
            kinds = {m.type for m in messages if m.task_id == task["id"]}
            assert {"AGENT_REQUEST", "AGENT_RESPONSE"} <= kinds or task["status"] == "failed", task["id"]
        assert {"id", "agent", "depends_on", "status"} <= set(task)


@needs_poppler
def test_renewable_energy_report(tmp_path, with_wiki):
    folder, report = _run(tmp_path, "Renewable energy")
    assert report["mode"] == "extractive" and report["topic"] == "Renewable energy"
    body = [s for s in report["sections"] if s["role"] == "body"]
    assert len(body) >= 4
    assert report["figures"], "at least one chart from numbers in the sources"
    for fig in report["figures"]:
        assert fig["caption"] and fig["citations"]
        for point in fig["data"]:
            assert point["raw"] in point["quote"]
    assert all(r["url"].startswith("https://en.wikipedia.org/wiki/") for r in report["references"])
    _check_citations(report)
    _check_messages(folder)
    html = (folder / "report.html").read_text()
    assert "extractive mode" in html[: html.find("</header>") + 1 or len(html)] or "extractive mode" in html
    assert 'href="#' in html  # a table of contents
    pdf = folder / "report.pdf"
    pages = int(next(line.split()[-1] for line in subprocess.run(
        ["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines()
        if line.startswith("Pages:")))
    subprocess.run(["pdftoppm", "-r", "20", "-png", str(pdf), str(tmp_path / "page")], check=True)
    assert len(list(tmp_path.glob("page*.png"))) == pages >= 2
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Contents" in text and "References" in text


def test_french_report_from_the_french_corpus(tmp_path, with_wiki):
    folder, report = _run(tmp_path, "Énergie renouvelable", "--lang", "fr", "--sections", "4")
    assert report["lang"] == "fr"
    assert report["references"]
    assert all(r["url"].startswith("https://fr.wikipedia.org/wiki/") for r in report["references"])
    _check_citations(report)
    html = (folder / "report.html").read_text()
    assert '<html lang="fr"' in html and "Références" in html


@pytest.mark.parametrize("topic", ["Zorblaxian quuxification", "可再生能源"])
def test_unknown_topic_is_a_clear_error_and_no_report(tmp_path, with_wiki, topic):
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", topic, "--out", str(out), "--quiet"])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: found no sources on {topic!r}")
    assert not out.exists()


def test_topic_with_punctuation_gets_a_safe_id(tmp_path, with_wiki):
    folder, report = _run(tmp_path, "What is solar power?", "--sections", "4")
    assert folder.name.startswith("solar-power-")  # what the question asks about
    _check_citations(report)


@pytest.mark.parametrize("topic", ["What are floating point numbers?", "../../etc/passwd"])
def test_a_topic_the_corpus_only_brushes_is_no_report(tmp_path, with_wiki, topic):
    """Half the words matching ("point", "numbers") is not the topic: no report on something else."""
    result = runner.invoke(app, ["report", topic, "--out", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 1
    assert "found no sources" in result.stderr
    assert not (tmp_path / "out").exists()


def test_sections_stay_on_their_theme(tmp_path, with_wiki):
    _, report = _run(tmp_path, "Solar energy", "--sections", "5")
    for figure in report["figures"]:
        section = next(s for s in report["sections"] if s["id"] == figure["section_id"])
        words = section["title"].lower().split()
        assert all(any(w[:5] in (p["quote"] + p["source_id"]).lower() for p in figure["data"]) for w in words)
