"""Agents as declared units: specs, the registry, per-role brains, user folders and plugins."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reportgen.agents.registry import load_registry
from reportgen.agents.spec import load_spec
from reportgen.blueprint.planner import compile_blueprint
from reportgen.config import RunOptions, get_settings
from reportgen.errors import AgentDefinitionError, PluginError
from reportgen.resources import agents_root
from reportgen.run import generate_report

from fakes import ENERGY_DOCS, FakeSearch

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[1]


def _writer_copy(tmp_path: Path) -> Path:
    """A user agents folder holding a copy of the built-in writer."""
    folder = tmp_path / "agents"
    shutil.copytree(Path(str(agents_root() / "writer")), folder / "writer")
    return folder


# ---------------------------------------------------------------- the registry


def test_everything_is_derived_from_the_registry():
    registry = load_registry(get_settings())
    assert list(registry.agents) == ["browser", "data", "plot", "writer"]
    assert registry.agent_for("research").name == "browser"
    assert registry.agent_for("series").name == "data"
    assert set(registry.search_backends) == {"offline", "web", "auto"}
    assert set(registry.exporters) == {"md", "docx"} and set(registry.chart_kinds) == {"bar", "line", "timeline"}
    writer = registry.agents["writer"]
    assert writer.role == "writer" and writer.brains == {"extractive": "writer.extractive", "model": "writer.model"}
    assert {"system", "section", "summary"} <= set(writer.prompts)
    assert writer.inputs["notes"].required and writer.outputs["section"].type == "object"
    assert "reportgen.builtins" in registry.describe()[0]


def test_the_planner_takes_its_agents_and_extra_tasks_from_the_registry(tmp_path):
    registry = load_registry(get_settings())
    plain = compile_blueprint("r", "Wind", ["A", "B"], registry=registry)
    assert {t.agent for t in plain.tasks} == {"browser", "plot", "writer"}  # no user folder: no data task
    with_docs = compile_blueprint("r", "Wind", ["A", "B"], registry=registry, local_corpus=True)
    data = [t for t in with_docs.tasks if t.agent == "data"]
    assert [t.id for t in data] == ["data-1", "data-2"]
    chart = with_docs.task("chart-1")
    assert chart.inputs["series"].from_task == "data-1" and chart.inputs["series"].optional
    with_docs.validate_dag(registry.kinds())


def test_a_task_of_a_kind_its_agent_does_not_do_is_refused():
    registry = load_registry(get_settings())
    bp = compile_blueprint("r", "Wind", ["A"], registry=registry)
    bp.task("chart-1").agent = "writer"
    with pytest.raises(Exception, match="does not do"):
        bp.validate_dag(registry.kinds())


# ---------------------------------------------------------------- bad definitions


@pytest.mark.parametrize(("toml", "message"), [
    ("name = 'x'\n[[", "not valid TOML"),
    ("name = 'Bad Name'", "field 'name'"),
    ("name = 'x'\ndescription = 'd'\nkinds = []", "field 'kinds'"),
    ("name = 'x'\ndescription = 'd'\nkinds = ['k']\nstatus_codes = [999]\n[outputs.o]\n[[tools]]\nname = 't'\n"
     "[brains]\ndefault = 'writer.extractive'", "field 'status_codes'"),
    ("name = 'x'\ndescription = 'd'\nkinds = ['k']\n[outputs.o]\n[[tools]]\nname = 't'\n[brains]\ndefault = 'nope'",
     "unknown brain 'nope'"),
    ("name = 'x'\ndescription = 'd'\nkinds = ['k']\n[outputs.o]\n[[tools]]\nname = 'teleport'\n"
     "[brains]\ndefault = 'writer.extractive'", "unknown tool 'teleport'"),
    ("name = 'x'\ndescription = 'd'\nkinds = ['k']\n[outputs.o]\n[[tools]]\nname = 't'\nkind = 'mcp'\n"
     "[brains]\ndefault = 'mcp.tool'", "exactly one of 'command'"),
])
def test_a_malformed_agent_definition_names_the_file_and_field(tmp_path, monkeypatch, toml, message):
    folder = tmp_path / "agents" / "x"
    folder.mkdir(parents=True)
    (folder / "agent.toml").write_text(toml)
    monkeypatch.setenv("REPORTGEN_AGENTS_DIR", str(tmp_path / "agents"))
    get_settings.cache_clear()
    with pytest.raises(AgentDefinitionError, match=message) as info:
        load_registry(get_settings())
    assert "agent.toml" in str(info.value) or "x" in str(info.value)


def test_a_broken_prompt_template_names_the_prompt_file(tmp_path):
    folder = _writer_copy(tmp_path) / "writer"
    (folder / "prompts" / "system.j2").write_text("{% if %}")
    with pytest.raises(AgentDefinitionError, match=r"prompts/system.j2, line 1"):
        load_spec(folder)


def test_the_cli_refuses_a_broken_agents_folder_before_any_research(tmp_path):
    (tmp_path / "agents" / "w").mkdir(parents=True)
    (tmp_path / "agents" / "w" / "agent.toml").write_text("name = 3")
    env = {**os.environ, "REPORTGEN_HOME": str(tmp_path / "home"), "REPORTGEN_PLUGINS": ""}
    done = subprocess.run([sys.executable, "-m", "reportgen.cli", "report", "Wind power", "--agents-dir",
                           str(tmp_path / "agents"), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "agent.toml: field 'name'" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()  # nothing half-written


# ---------------------------------------------------------------- brains per role


def _asked(prompt: str) -> str:
    """What a writer prompt asks for: the section's title, or ``introduction`` / ``conclusion``."""
    found = re.search(r"the section '([^']+)'|the (introduction|conclusion)", prompt)
    return (found.group(1) or found.group(2)) if found else "the report"


async def test_a_writer_model_alone_writes_and_everything_else_stays_extractive(tmp_path, monkeypatch, fake_llm):
    from fakellm import structured

    monkeypatch.setenv("REPORTGEN_LLM_WRITER_MODEL", "fake")
    monkeypatch.setenv("REPORTGEN_LLM_BASE_URL", fake_llm.base_url)
    get_settings.cache_clear()

    def draft(request):  # a different sentence per section: no sentence may repeat in a report
        asked = _asked(request.messages[-1]["content"])  # the section, never the instructions' own words
        return structured({"paragraphs": [f"This part ({asked}) is drawn from the first passage. [S1]"]})

    fake_llm.default = draft
    result = await generate_report(RunOptions(topic="Renewable energy", sections=2), out_dir=tmp_path,
                                   search=FakeSearch(ENERGY_DOCS), backoff_scale=0)
    brains = json.loads((result.out_dir / "report.json").read_text())["brains"]
    assert brains["writer"] == {"brain": "writer.model", "mode": "model", "model": "fake", "role": "writer"}
    assert brains["browser"]["mode"] == brains["plot"]["mode"] == brains["planner"]["mode"] == "extractive"
    schemas = {r.body["response_format"]["json_schema"]["name"] for r in fake_llm.chat_requests}
    assert schemas == {"SectionDraft"}  # only the writer asked the model
    assert sum(s.role == "body" for s in result.report.sections) == 2


async def test_a_user_folder_overriding_the_writer_prompt_changes_the_model_requests(tmp_path, monkeypatch,
                                                                                    fake_llm):
    from fakellm import structured

    folder = _writer_copy(tmp_path)
    (folder / "writer" / "prompts" / "system.j2").write_text(
        "You are the house writer of Example Corp. Cite passages as [S1]. Language: {{ lang }}.{{ feedback }}")
    monkeypatch.setenv("REPORTGEN_AGENTS_DIR", str(folder))
    monkeypatch.setenv("REPORTGEN_LLM_WRITER_MODEL", "fake")
    monkeypatch.setenv("REPORTGEN_LLM_BASE_URL", fake_llm.base_url)
    get_settings.cache_clear()
    fake_llm.default = lambda request: structured(
        {"paragraphs": [f"From the notes: {_asked(request.messages[-1]['content'])}. [S1]"]})
    await generate_report(RunOptions(topic="Renewable energy", sections=1), out_dir=tmp_path,
                          search=FakeSearch(ENERGY_DOCS), backoff_scale=0)
    systems = [r.messages[0]["content"] for r in fake_llm.chat_requests]
    assert systems and all(s.startswith("You are the house writer of Example Corp.") for s in systems)
    assert all("Language: en." in s for s in systems)


# ---------------------------------------------------------------- plugins


@pytest.fixture(scope="session")
def plugin_site(tmp_path_factory) -> Path:
    """The fixture plugin package, installed (with its entry point) into a folder put on PYTHONPATH."""
    target = tmp_path_factory.mktemp("plugin-site")
    source = tmp_path_factory.mktemp("plugin-src") / "plugin"
    shutil.copytree(FIXTURES / "plugin", source)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "--target", str(target), str(source)], check=True, timeout=300)
    return target


def _cli(args: list[str], home: Path, site: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("REPORTGEN_")}
    environ.update({"REPORTGEN_HOME": str(home), "PYTHONPATH": str(site), **env})
    return subprocess.run([sys.executable, "-m", "reportgen.cli", *args], capture_output=True, text=True,
                          env=environ, timeout=300, cwd=home.parent)


def test_a_third_party_plugin_adds_an_agent_and_a_search_backend(tmp_path, plugin_site):
    home, out = tmp_path / "home", tmp_path / "out"
    listed = _cli(["plugins"], home, plugin_site)
    assert listed.returncode == 0, listed.stderr
    assert "demo" in listed.stdout and "glossary" in listed.stdout and "search backends: demo" in listed.stdout
    done = _cli(["report", "Widgets", "--sections", "2", "-q", "--out", str(out)], home, plugin_site,
                REPORTGEN_SEARCH="demo")
    assert done.returncode == 0, done.stderr
    (folder,) = out.iterdir()
    blueprint = json.loads((folder / "blueprint.json").read_text())
    glossary = next(t for t in blueprint["tasks"] if t["agent"] == "glossary")
    assert glossary["status"] == "done" and glossary["status_codes"] == [200]
    writers = [t for t in blueprint["tasks"] if t["kind"] == "write"]
    assert all(t["inputs"]["extra_notes"]["from_task"] == "glossary" for t in writers)
    report = json.loads((folder / "report.json").read_text())
    assert report["brains"]["glossary"]["brain"] == "glossary.define"
    assert {r["url"] for r in report["references"]} <= {f"https://widgets.example/{t}" for t in
                                                         ("Widget", "Widget_factory", "Widget_safety")}
    card = subprocess.run(
        [sys.executable, "-c", "import json; from reportgen.api.card import agent_skills; "
         "from reportgen.config import get_settings; "
         "print(json.dumps([s['id'] for s in agent_skills(get_settings())]))"],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(plugin_site),
                                             "REPORTGEN_HOME": str(home), "REPORTGEN_PLUGINS": "demo"}, timeout=120)
    assert "agent-glossary" in json.loads(card.stdout)


def test_plugins_stay_off_unless_selected(tmp_path, plugin_site):
    listed = _cli(["plugins"], tmp_path / "home", plugin_site, REPORTGEN_PLUGINS="")
    assert listed.returncode == 0 and "glossary" not in listed.stdout
    missing = _cli(["plugins"], tmp_path / "home", plugin_site, REPORTGEN_PLUGINS="nope")
    assert missing.returncode == 1 and "plugin 'nope' (REPORTGEN_PLUGINS) is not installed" in missing.stderr


def _plugin(site: Path, name: str, body: str) -> None:
    """A one-module plugin with an entry point, written straight into ``site``."""
    (site / f"{name}.py").write_text(textwrap.dedent(body))
    info = site / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[reportgen]\n{name} = {name}\n")


def test_a_plugin_that_raises_at_import_is_named(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    _plugin(site, "broken_plugin", "raise RuntimeError('no licence key')\n")
    done = _cli(["plugins"], tmp_path / "home", site)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "plugin 'broken_plugin'" in done.stderr and "no licence key" in done.stderr


def test_two_plugins_registering_one_name_is_an_error_naming_both(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    body = """
        from reportgen.plugins import hookimpl

        @hookimpl
        def register_search_backends(register):
            register("shared", lambda offline, settings, web: None)
    """
    _plugin(site, "first_plugin", body)
    _plugin(site, "second_plugin", body)
    done = _cli(["plugins"], tmp_path / "home", site)
    assert done.returncode == 1
    assert "search backend 'shared'" in done.stderr and "first_plugin" in done.stderr
    assert "second_plugin" in done.stderr


def test_loading_a_plugin_in_process(tmp_path, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    _plugin(site, "inproc_plugin", """
        from reportgen.plugins import hookimpl

        @hookimpl
        def register_brains(register):
            register("inproc.brain", 42)
    """)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("REPORTGEN_PLUGINS", "inproc_plugin")
    get_settings.cache_clear()
    with pytest.raises(PluginError, match="inproc_plugin.*not a callable"):
        load_registry(get_settings())


def test_a_plugin_chart_kind_is_drawn_by_its_registered_function(tmp_path, monkeypatch):
    from reportgen.charts import ChartPoint, ChartSpec
    from reportgen.charts.draw import draw_svg

    site = tmp_path / "site"
    site.mkdir()
    _plugin(site, "dots_plugin", """
        from reportgen.plugins import hookimpl

        def draw_dots(ax, spec):
            ax.scatter(range(len(spec.points)), [p.value for p in spec.points], label="dots-kind")

        @hookimpl
        def register_chart_kinds(register):
            register("dots", draw_dots)
    """)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("REPORTGEN_PLUGINS", "dots_plugin")
    get_settings.cache_clear()
    kinds = load_registry(get_settings()).chart_kinds
    assert set(kinds) == {"bar", "line", "timeline", "dots"}
    quote = "A had 3 units and B had 5 units."
    points = [ChartPoint(label=label, value=v, raw=f"{v:g} units", unit="units", source_id="s", url="u", title="t",
                         quote=quote) for label, v in (("A", 3), ("B", 5))]
    spec = ChartSpec(kind="dots", title="Dots", y_label="units", unit="units", points=points)
    assert "<svg" in draw_svg(spec, kinds)
    with pytest.raises(Exception, match="no chart kind 'dots'"):
        draw_svg(spec)  # without the registry's drawers the kind is unknown


# ---------------------------------------------------------------- brains by import path (issue 15)


def test_the_built_in_agents_tools_match_their_brains_in_full():
    """Start-up trusts the built-in agent/brain pairs; here they are checked, importing every brain."""
    from reportgen.agents.registry import BrainRef, _check
    from reportgen.agents.spec import _check_prompt

    registry = load_registry(get_settings())
    assert all(isinstance(factory, BrainRef) for factory in registry.brains.values())
    _check(registry, full=True)
    for spec in registry.agents.values():  # prompts are not parsed at load for built-ins
        for name, text in spec.prompts.items():
            _check_prompt(text, spec.origin, f"{name}.j2")


@pytest.mark.parametrize(("path", "message"), [
    ("no_colon_here", "an import path is 'package.module:Attribute'"),
    ("reportgen.no_such_module:Brain", "cannot be loaded: ModuleNotFoundError"),
    ("reportgen.agents.browser:NoSuchBrain", "cannot be loaded: AttributeError"),
    ("reportgen.agents.browser:__doc__", "is a str, not a callable"),
], ids=["malformed", "no-module", "no-attribute", "not-callable"])
def test_a_brain_registered_by_a_bad_import_path_is_named(tmp_path, monkeypatch, request, path, message):
    name = f"path_plugin_{request.node.callspec.id.replace('-', '_')}"  # one module per case
    site = tmp_path / "site"
    site.mkdir()
    _plugin(site, name, f"""
        from reportgen.plugins import hookimpl

        @hookimpl
        def register_brains(register):
            register("browser.extractive", {path!r})
    """)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("REPORTGEN_PLUGINS", name)
    get_settings.cache_clear()
    with pytest.raises(PluginError, match=name) as caught:
        registry = load_registry(get_settings())  # the plugin's brain replaces a built-in: checked now
        registry.bind(get_settings(), None)
    assert message in str(caught.value)
