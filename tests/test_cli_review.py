"""``reportgen report TOPIC --review``: the plan as an outline, an invalid edit explained and reopened, the edit run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = {
    "wind.md": "# Wind power\n\nWind power is a form of renewable energy that uses wind turbines to generate "
               "electricity. In 2023 wind power supplied about 8 percent of the world's electricity. Wind power is "
               "one of the cheapest sources of renewable energy.\n",
    "solar.md": "# Solar power\n\nSolar power is renewable energy from sunlight converted into electricity with "
                "photovoltaic panels. In 2023 solar power supplied about 5 percent of the world's electricity. Solar "
                "power is a fast-growing source of renewable energy.\n",
    "hydro.md": "# Hydropower\n\nHydropower is renewable energy from flowing water that drives turbines. In 2023 "
                "hydropower supplied about 15 percent of the world's electricity. Hydropower is the largest source "
                "of renewable energy.\n",
}

EDITOR = """\
import json, pathlib, sys
path = pathlib.Path(sys.argv[1]); calls = pathlib.Path(__file__).with_name("calls")
n = int(calls.read_text()) if calls.exists() else 0
calls.write_text(str(n + 1))
plan = json.loads(path.read_text())
if n == 0:
    plan["sections"][0]["title"] = ""          # invalid: explained, and the editor opens again
else:
    plan["sections"][0]["title"] = "Wind turbines"
    del plan["sections"][1]
path.write_text(json.dumps(plan))
"""


@pytest.mark.slow
def test_review_on_the_command_line(tmp_path, reportgen_home):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text)
    (tmp_path / "editor.py").write_text(EDITOR)
    env = {**os.environ, "EDITOR": f"{sys.executable} {tmp_path / 'editor.py'}", "REPORTGEN_HOME": str(reportgen_home)}
    reportgen = Path(sys.executable).with_name("reportgen")
    done = subprocess.run(
        [str(reportgen), "report", "Renewable energy", "--corpus", str(docs), "--no-wiki", "--sections", "3",
         "--review", "--out", str(tmp_path / "out"), "-q"],
        input="e\n", capture_output=True, text=True, env=env, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "Plan for: Renewable energy" in done.stderr and "1. " in done.stderr and "search:" in done.stderr
    assert "source: " in done.stderr  # the documents each section's search finds
    assert "section title is empty); the editor opens again" in done.stderr
    assert (tmp_path / "calls").read_text() == "2"
    changes = next(line for line in done.stderr.splitlines() if line.startswith("changes:"))
    assert "to 'Wind turbines'" in changes and "removed s2" in changes
    report_id = next(x for x in done.stdout.splitlines() if x.startswith("report ")).split()[1].rstrip(":")
    report = json.loads((tmp_path / "out" / report_id / "report.json").read_text())
    titles = [s["title"] for s in report["sections"]]
    assert "Wind turbines" in titles
    log = (tmp_path / "out" / report_id / "messages.jsonl").read_text()
    assert '"task_id":"review"' in log.replace(" ", "") and "by cli" in log
