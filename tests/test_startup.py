"""Start-up budget: what the CLI imports before it answers (issue 15).

Counted in modules, never timed: a fresh interpreter runs the command and
reports ``sys.modules``. The budgets are the counts measured when they were
set (227 for ``--help``, 390 for a refused report, 422 for ``plugins``, 425
for ``graph`` once its drawing is cached, 499 for ``card``; Python 3.11) plus
some headroom; the heavy libraries — LangGraph, WeasyPrint, matplotlib, the
model client, the web stack — must not be among them at all.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: Imported only by the stage that needs them (seconds between them).
HEAVY = ("langgraph", "langchain_core", "langchain_openai", "openai", "weasyprint", "matplotlib", "numpy",
         "fastapi", "starlette", "uvicorn", "httpx", "httpx2", "jinja2", "docx", "pypdf", "trafilatura", "mcp")

#: Modules ``reportgen --help`` may import (227 measured: typer, click, rich's console).
HELP_BUDGET = 260
#: Modules a refused ``reportgen report`` may import (390 measured: + pydantic-settings and the settings).
REFUSED_BUDGET = 450
#: Modules ``reportgen plugins`` and a cached ``reportgen graph`` may import (422 / 425 measured:
#: + pluggy, the agent specs and the registry; no brain, no Jinja).
REGISTRY_BUDGET = 480
#: Modules ``reportgen card`` may import (499 measured: + a2a-sdk's protobuf types).
CARD_BUDGET = 560

_RUN_CLI = r"""
import json, sys
from reportgen.cli import app
try:
    app(sys.argv[2:])
except SystemExit as exc:
    code = exc.code
else:
    code = 0
with open(sys.argv[1], "w", encoding="utf-8") as fh:
    json.dump({"code": code, "modules": sorted(sys.modules)}, fh)
"""


def _imported(tmp_path: Path, *args: str) -> tuple[int, list[str], str]:
    out = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", _RUN_CLI, str(out), *args], capture_output=True,
                          text=True, timeout=120)
    assert out.exists(), done.stderr
    record = json.loads(out.read_text(encoding="utf-8"))
    return int(record["code"] or 0), record["modules"], done.stderr


def _heavy(modules: list[str]) -> list[str]:
    return sorted({name.split(".")[0] for name in modules} & set(HEAVY))


def test_help_imports_no_stage(tmp_path: Path) -> None:
    code, modules, _ = _imported(tmp_path, "--help")
    assert code == 0
    assert _heavy(modules) == []
    assert [m for m in modules if m.startswith("reportgen")] == ["reportgen", "reportgen.cli", "reportgen.errors"]
    assert len(modules) <= HELP_BUDGET, len(modules)


@pytest.mark.parametrize(("args", "message"), [
    (("report", ""), "error: topic: the topic is empty"),
    (("report", "Wind power", "--sections", "99"), "error: sections:"),
    (("report", "Wind power", "--no-wiki"), "error: --no-wiki needs at least one --corpus folder"),
], ids=["empty-topic", "sections", "no-wiki"])
def test_a_refused_report_loads_no_pipeline(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    code, modules, stderr = _imported(tmp_path, *args)
    assert code == 1 and stderr.startswith(message), stderr
    assert _heavy(modules) == []
    assert not [m for m in modules if m.startswith(("reportgen.run", "reportgen.pipeline", "reportgen.agents"))]
    assert len(modules) <= REFUSED_BUDGET, len(modules)


def test_the_chromium_engine_does_not_import_weasyprint(tmp_path: Path) -> None:
    """The PDF module loads WeasyPrint only for the WeasyPrint engine."""
    code = (
        "import sys, types\n"
        f"root = {str(Path(__file__).resolve().parent.parent)!r}\n"
        "for name, folder in (('reportgen', '/reportgen'), ('reportgen.render', '/reportgen/render')):\n"
        "    module = types.ModuleType(name); module.__path__ = [root + folder]; sys.modules[name] = module\n"
        "import reportgen.render.pdf, reportgen.render.chromium\n"
        "print(sorted({m.split('.')[0] for m in sys.modules}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    top = set(json.loads(done.stdout.replace("'", '"')))
    assert "weasyprint" not in top and "matplotlib" not in top


def test_plugins_reads_the_registry_without_loading_a_brain(tmp_path: Path) -> None:
    """The registry holds brains by import path (BrainRef): listing them imports none."""
    code, modules, stderr = _imported(tmp_path, "plugins")
    assert code == 0, stderr
    assert _heavy(modules) == []
    assert not [m for m in modules if m.startswith(("reportgen.agents.browser", "reportgen.agents.model_",
                                                    "reportgen.agents.plot", "reportgen.agents.writer",
                                                    "reportgen.agents.runtime", "reportgen.render.html",
                                                    "reportgen.render.pdf", "reportgen.charts"))]
    assert len(modules) <= REGISTRY_BUDGET, len(modules)


def test_graph_is_drawn_once_then_printed_without_langgraph(tmp_path: Path) -> None:
    """The first ``graph`` draws with LangGraph and caches; the next imports no LangGraph, same text."""
    first = subprocess.run([sys.executable, "-c", "from reportgen.cli import app; app()", "graph"],
                           capture_output=True, text=True, timeout=120, check=True).stdout
    code, modules, stderr = _imported(tmp_path, "graph")
    assert code == 0, stderr
    assert _heavy(modules) == []
    assert len(modules) <= REGISTRY_BUDGET, len(modules)
    again = subprocess.run([sys.executable, "-c", "from reportgen.cli import app; app()", "graph"],
                           capture_output=True, text=True, timeout=120, check=True).stdout
    assert again == first and first.startswith("%% report graph")


def test_card_imports_only_the_card_types(tmp_path: Path) -> None:
    """``reportgen card``: the A2A types (protobuf) and the registry; no web server, no pipeline."""
    code, modules, stderr = _imported(tmp_path, "card")
    assert code == 0, stderr
    # a2a-sdk's types import starlette's data structures (not its server); nothing else heavy
    assert set(_heavy(modules)) <= {"starlette"}
    assert not [m for m in modules if m.startswith(("starlette.applications", "starlette.routing"))]
    assert not [m for m in modules if m.startswith(("fastapi", "uvicorn", "a2a.server", "reportgen.worker"))]
    assert len(modules) <= CARD_BUDGET, len(modules)
