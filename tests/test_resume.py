"""Durable runs: a real SIGKILL mid-run, then resume without redoing finished work."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reportgen.acp import read_messages

from fakes import ENERGY_DOCS

TOPIC = "Renewable energy"


@pytest.fixture
def corpus(tmp_path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for doc in ENERGY_DOCS:
        (folder / f"{doc['title'].replace(' ', '-').lower()}.md").write_text(f"# {doc['title']}\n\n{doc['text']}\n")
    return folder


def _cli(tmp_path, *args, faults: str | None = None) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPORTGEN_")}
    env["REPORTGEN_HOME"] = str(tmp_path / "home")
    env["REPORTGEN_MAX_CONCURRENCY"] = "2"
    if faults:
        env["REPORTGEN_FAULTS"] = faults
    return subprocess.Popen(
        [sys.executable, "-m", "reportgen.cli", *args], env=env, cwd=tmp_path,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def _report_args(corpus, out, *extra):
    return ["report", TOPIC, "--no-wiki", "--corpus", str(corpus), "--sections", "4", "--out", str(out), "-q", *extra]


def _kill_mid_run(tmp_path, corpus, out) -> tuple[Path, int]:
    """Start a slowed-down run, SIGKILL it after some tasks finished; return its folder and log length."""
    proc = _cli(tmp_path, *_report_args(corpus, out), faults="rate=1,kinds=delay,delay=0.3")
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            logs = list(out.glob("*/messages.jsonl"))
            if logs:
                done = [m for m in read_messages(logs[0]) if m.type == "STATUS_UPDATE" and m.status == "done"
                        and m.task_id not in ("plan", "render")]
                if len(done) >= 4:
                    break
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        else:
            pytest.fail("the run never got going")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=10)  # reaps it and closes its pipes
    assert proc.returncode == -signal.SIGKILL
    (folder,) = out.iterdir()
    assert not (folder / "report.pdf").exists()
    return folder, len(read_messages(folder / "messages.jsonl"))


def _structure(folder: Path) -> dict:
    report = json.loads((folder / "report.json").read_text())
    return {
        "sections": [s["title"] for s in report["sections"]],
        "figures": [f["caption"] for f in report["figures"]],
        "references": sorted(r["url"] for r in report["references"]),
    }


def _check_nothing_ran_twice(folder: Path, killed_at: int) -> None:
    messages = read_messages(folder / "messages.jsonl")
    before, after = messages[:killed_at], messages[killed_at:]
    finished = {m.task_id for m in before if m.type == "STATUS_UPDATE" and m.status == "done"} - {"plan"}
    assert finished
    rerun = {m.task_id for m in after if m.type == "AGENT_REQUEST"}
    assert not finished & rerun, f"finished tasks ran again: {finished & rerun}"
    reused = {m.task_id for m in after if m.type == "STATUS_UPDATE" and m.status == "reused"}
    assert finished <= reused


def test_sigkill_then_resume_redoes_no_finished_task(tmp_path, corpus):
    out = tmp_path / "out"
    folder, killed_at = _kill_mid_run(tmp_path, corpus, out)
    proc = _cli(tmp_path, "resume", folder.name, "-q")
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr
    for name in ("report.html", "report.pdf", "report.json", "blueprint.json", "messages.jsonl"):
        assert (folder / name).stat().st_size > 0
    _check_nothing_ran_twice(folder, killed_at)
    fresh = _cli(tmp_path, *_report_args(corpus, tmp_path / "fresh", "--new"))
    _, err = fresh.communicate(timeout=120)
    assert fresh.returncode == 0, err
    (uninterrupted,) = (tmp_path / "fresh").iterdir()
    assert _structure(folder) == _structure(uninterrupted)


def test_the_same_report_command_resumes_the_interrupted_run(tmp_path, corpus):
    out = tmp_path / "out"
    folder, killed_at = _kill_mid_run(tmp_path, corpus, out)
    proc = _cli(tmp_path, *_report_args(corpus, out))
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr
    assert f"resuming the interrupted run {folder.name}" in stderr
    assert [p.name for p in out.iterdir()] == [folder.name]
    _check_nothing_ran_twice(folder, killed_at)


def test_resume_of_an_unknown_id_is_a_clear_error(tmp_path):
    proc = _cli(tmp_path, "resume", "no-such-report-000000", "-q")
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 1
    assert stderr.strip().startswith("error: no run with report id 'no-such-report-000000'")
