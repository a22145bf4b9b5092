"""The whole pipeline over fakes and over the handed hostile documents."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from reportgen.acp import read_messages
from reportgen.config import RunOptions
from reportgen.run import generate_report

from fakes import ENERGY_DOCS, FakeSearch

HOSTILE = Path(__file__).parent / "fixtures" / "hostile"
FILES = ("report.html", "report.pdf", "report.json", "blueprint.json", "messages.jsonl")


async def test_report_over_a_fake_corpus(tmp_path):
    result = await generate_report(
        RunOptions(topic="Renewable energy", sections=4), out_dir=tmp_path, search=FakeSearch(), backoff_scale=0
    )
    for name in FILES:
        assert (result.out_dir / name).stat().st_size > 0
    report = result.report
    assert [s.role for s in report.sections][0] == "introduction"
    assert sum(s.role == "body" for s in report.sections) == 4
    assert report.figures and report.figures[0].citations
    assert {p["raw"] for p in report.figures[0].data} >= {"26 countries", "70 countries"}
    texts = [s.text for sec in report.sections for p in sec.paragraphs for s in p.sentences]
    assert len(texts) == len(set(texts))  # no sentence used twice
    messages = read_messages(result.out_dir / "messages.jsonl")
    for task in result.blueprint.tasks:
        kinds = {m.type for m in messages if m.task_id == task.id}
        if task.status.value == "done":
            assert {"AGENT_REQUEST", "AGENT_RESPONSE"} <= kinds


async def test_hostile_text_in_sources_never_becomes_markup(tmp_path):
    hostile = [
        {"title": "Tidal power", "text": (
            "Tidal power converts the energy of rising sea levels <script>alert(1)</script> into electricity. "
            "A tidal barrage <img src=\"file:///etc/hostname\" onerror=\"alert(2)\"> works like a low dam. "
            "Tidal energy <a href=\"javascript:alert(3)\">plants</a> exist in 2 countries "
            "and barrages in 4 countries.")},
        *ENERGY_DOCS,
    ]
    result = await generate_report(
        RunOptions(topic="Tidal power energy", sections=4), out_dir=tmp_path, search=FakeSearch(hostile),
        backoff_scale=0,
    )
    html = (result.out_dir / "report.html").read_text()
    assert "<script" not in html.lower()
    assert not re.search(r"<img[^>]+src=\"file:", html)
    assert "onerror=" not in html.replace("onerror=&#34;", "").replace("onerror=&quot;", "")
    assert "&lt;script&gt;" in html  # the text is shown, escaped
    _assert_no_local_bytes(result.out_dir)


def _assert_no_local_bytes(folder: Path) -> None:
    secret = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").exists() else ""
    for name in FILES:
        data = (folder / name).read_bytes()
        if name == "report.pdf" and shutil.which("pdftotext"):
            data = subprocess.run(["pdftotext", str(folder / name), "-"], capture_output=True, check=True).stdout
        if len(secret) >= 6:
            assert secret.encode() not in data, f"{name} holds the contents of /etc/hostname"
        assert b"root:x:0:0" not in data, f"{name} holds /etc/passwd"


@pytest.fixture
def hostile_corpus(tmp_path) -> Path:
    folder = tmp_path / "hostile"
    shutil.copytree(HOSTILE, folder, ignore=shutil.ignore_patterns("README.md"))
    return folder


async def test_the_handed_hostile_documents_make_a_safe_report(tmp_path, hostile_corpus):
    """Every file of shared/cases/hostile in one --corpus folder (see its README)."""
    result = await generate_report(
        RunOptions(topic="energy", sections=4, corpus_dirs=[hostile_corpus], use_wiki=False),
        out_dir=tmp_path / "out", backoff_scale=0,
    )
    html = (result.out_dir / "report.html").read_text()
    html = re.sub(r"<style>.*?</style>", "", html, flags=re.S)  # our own stylesheet, not document text
    lowered = html.lower()
    for live in ("<script", "<iframe", "<object", "<link", "javascript:", "@import", "@font-face", "169.254.169.254"):
        assert live not in lowered, live
    assert not re.search(r"(src|href)=\"(file:|http://127|\.\./)", html)
    report = json.loads((result.out_dir / "report.json").read_text())
    skipped = " ".join(lim["reason"] for lim in report["limitations"])
    assert "empty.md" in skipped and "not-a-pdf.pdf" in skipped
    text = " ".join(p["text"] for s in report["sections"] for p in s["paragraphs"])
    assert any(word in text for word in (
        "Tidal power", "District heating", "Pumped hydro", "Geothermal heat pumps", "capacity factor",
    ))
    assert "\x00" not in text and "\x1b" not in text
    _assert_no_local_bytes(result.out_dir)
