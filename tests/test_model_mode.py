"""Model-driven reports against a scripted OpenAI-compatible server and a fixture website.

The real ``ChatOpenAI`` HTTP path and the real fetch/extraction code run; the
"model" answers from what the prompts hold (the passages it was shown), so
every test checks that what reaches the report comes from fetched pages.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from typer.testing import CliRunner

from reportgen.acp import read_messages
from reportgen.cli import app
from reportgen.config import RunOptions, get_settings
from reportgen.errors import NoSourcesError
from reportgen.run import generate_report
from reportgen.sources.web import WebSearch

from fakellm import invalid_json, rate_limited, structured
from fakeweb import stub_search

SECTIONS = [
    {"title": "Solar power", "questions": ["How fast has solar capacity grown?"],
     "chart_ideas": ["solar capacity by year"]},
    {"title": "Wind power", "questions": ["How much wind capacity is installed?"],
     "chart_ideas": ["wind capacity by year"]},
    {"title": "Hydropower", "questions": ["How much electricity does hydropower make?"], "chart_ideas": []},
    {"title": "Battery storage", "questions": ["How fast is battery storage growing?"], "chart_ideas": []},
]


def _schema(body: dict) -> str:
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return fmt["json_schema"]["name"]
    tools = body.get("tools") or []
    return tools[0]["function"]["name"] if tools else ""


def _passages(prompt: str) -> list[tuple[str, str]]:
    """``(label, text)`` of the passages block the agents put in their prompts."""
    blocks = re.split(r"\n\n(?=\[S\d+\] )", prompt[prompt.find("[S1] "):]) if "[S1] " in prompt else []
    out = []
    for block in blocks:
        head, _, text = block.partition("\n")
        out.append((head.split("]")[0].lstrip("["), text))
    return out


NO_DATA = {"title": "", "unit": "", "quantity": "", "points": [], "no_data": True}


class ScriptedModel:
    """Answers each schema from the prompt; ``faults`` replaces the first answers of a schema."""

    def __init__(self, **faults):
        self.faults = {k: list(v) for k, v in faults.items()}
        self.seen = Counter()

    def __call__(self, request):
        name = _schema(request.body)
        self.seen[name] += 1
        if self.faults.get(name):
            fault = self.faults[name].pop(0)
            return fault(request) if callable(fault) else fault
        prompt = request.messages[-1]["content"]
        passages = _passages(prompt)
        if name == "Outline":
            return structured({"title": "Renewable energy", "sections": SECTIONS})
        if name == "Queries":
            return structured({"queries": ["renewable capacity statistics"]})
        if name == "Notes":
            notes = [{"claim": text.split(". ")[0][:200], "source": label} for label, text in passages if text.strip()]
            return structured({"notes": notes, "off_topic": not notes})
        if name == "ChartProposal":
            for label, text in passages:
                found = re.findall(r"([\d,]+) GW in (\d{4})", text)
                if len(found) >= 2:
                    points = [{"label": year, "value": float(v.replace(",", "")), "source": label, "year": int(year)}
                              for v, year in found[:4]]
                    return structured({"title": "Installed capacity", "unit": "GW", "quantity": "Installed capacity",
                                       "points": points, "no_data": False})
            return structured(NO_DATA)
        if name == "SectionDraft":
            # a real writer words each section its own way: no sentence may repeat in a report
            found = re.search(r"the section '([^']+)'|the (introduction|conclusion)", prompt)
            asked = (found.group(1) or found.group(2)) if found else "report"
            paragraphs = [f"{text.split('. ')[0].strip().rstrip('.')} (see {asked}). [{label}]"
                          for label, text in passages[:3] if text.strip()]
            return structured({"paragraphs": paragraphs or ["Nothing was found. [S1]"]})
        raise AssertionError(f"unexpected schema {name!r}")


@pytest.fixture
def model_env(monkeypatch, fake_llm):
    monkeypatch.setenv("REPORTGEN_LLM_MODEL", "fake")
    monkeypatch.setenv("REPORTGEN_LLM_BASE_URL", fake_llm.base_url)
    monkeypatch.setenv("REPORTGEN_LLM_API_KEY", "test-key")
    monkeypatch.setenv("REPORTGEN_LLM_PRICE_IN", "0.5")
    monkeypatch.setenv("REPORTGEN_LLM_PRICE_OUT", "1.5")
    monkeypatch.setenv("REPORTGEN_SEARCH", "web")
    monkeypatch.setenv("REPORTGEN_FETCH_TIMEOUT_S", "2")
    get_settings.cache_clear()
    return fake_llm


async def _report(tmp_path, site, model=None, **kw):
    web = WebSearch(search_fn=stub_search(site), allow_private=True)
    try:
        return await generate_report(RunOptions(topic="Renewable energy", sections=4), out_dir=tmp_path,
                                     web=web, backoff_scale=0, **kw)
    finally:
        web.close()


def _check(result):
    report = result.report
    fetched = {r.url for r in report.references}
    assert all(u.startswith("http://127.0.0.1:") for u in fetched)
    refs = {r.id for r in report.references}
    cited = {n for s in report.sections for p in s.paragraphs for n in p.citations}
    cited |= {n for f in report.figures for n in f.citations}
    assert cited == refs
    for fig in report.figures:
        for point in fig.data:
            assert point["raw"] in point["quote"]
    return report


async def test_full_model_report_from_fetched_pages(tmp_path, model_env, fake_site):
    model_env.default = ScriptedModel()
    result = await _report(tmp_path, fake_site)
    report = _check(result)
    assert report.mode == "model" and "fake" in report.model
    assert sum(s.role == "body" for s in report.sections) == 4
    assert report.figures and report.figures[0].kind == "line"
    assert report.usage["total_tokens"] > 0 and report.usage["cost_usd"] > 0
    assert set(report.usage["by_role"]) == {"planner", "researcher", "plot", "writer"}
    saved = json.loads((result.out_dir / "report.json").read_text())
    assert saved["usage"]["by_task"]["research-1"]["calls"] >= 1
    assert all(r.headers.get("authorization") == "Bearer test-key" for r in model_env.chat_requests)


async def test_invalid_planner_json_is_asked_again_with_the_error(tmp_path, model_env, fake_site):
    model_env.default = ScriptedModel(Outline=[invalid_json()])
    result = await _report(tmp_path, fake_site)
    _check(result)
    plan_msgs = [m for m in read_messages(result.out_dir / "messages.jsonl") if m.task_id == "plan"]
    assert ("ASSISTANCE_REQUEST", 603) in {(m.type, getattr(m, "status_code", None)) for m in plan_msgs}
    second = [r for r in model_env.chat_requests if _schema(r.body) == "Outline"][1]
    assert "rejected" in second.messages[-1]["content"]


async def test_an_invented_citation_is_607_and_rewritten(tmp_path, model_env, fake_site):
    invented = structured({"paragraphs": ["Solar grew a lot. [S99]"]})
    model_env.default = ScriptedModel(SectionDraft=[invented])
    result = await _report(tmp_path, fake_site)
    report = _check(result)
    messages = read_messages(result.out_dir / "messages.jsonl")
    refused = [m for m in messages
               if m.type == "ASSISTANCE_REQUEST" and m.status_code == 607 and "S99" in m.description]
    assert refused
    assert "Solar grew a lot." not in json.dumps(report.model_dump(mode="json"))


async def test_a_chart_value_not_in_its_source_is_607(tmp_path, model_env, fake_site):
    wrong = structured({"title": "t", "unit": "GW", "quantity": "q", "no_data": False, "points": [
        {"label": "2015", "value": 999.0, "source": "S1", "year": 2015},
        {"label": "2023", "value": 1234.5, "source": "S1", "year": 2023}]})
    model_env.default = ScriptedModel(ChartProposal=[wrong])
    result = await _report(tmp_path, fake_site)
    report = _check(result)
    messages = read_messages(result.out_dir / "messages.jsonl")
    assert any(m.type == "ASSISTANCE_REQUEST" and m.status_code == 607 and "999" in m.description for m in messages)
    assert all(p["value"] != 999.0 for f in report.figures for p in f.data)


async def test_a_burst_of_429_honours_retry_after_and_recovers(tmp_path, model_env, fake_site):
    model_env.default = ScriptedModel(Notes=[rate_limited(retry_after=0), rate_limited(retry_after=0)])
    result = await _report(tmp_path, fake_site)
    _check(result)
    messages = read_messages(result.out_dir / "messages.jsonl")
    retries = [m for m in messages if m.type == "STATUS_UPDATE" and m.status == "retry" and m.status_code == 604]
    assert len(retries) >= 2
    assert all(t.attempts <= 3 for t in result.blueprint.tasks)


async def test_search_that_finds_nothing_ends_clearly_with_no_report(tmp_path, model_env, fake_site):
    model_env.default = ScriptedModel(Outline=[invalid_json()] * 3)
    web = WebSearch(search_fn=stub_search(fake_site, paths=[]), allow_private=True)
    try:
        with pytest.raises(NoSourcesError, match="found no sources"):
            await generate_report(RunOptions(topic="Renewable energy", sections=4), out_dir=tmp_path,
                                  web=web, backoff_scale=0)
    finally:
        web.close()
    assert not any(tmp_path.glob("*/report.pdf"))


def test_cli_against_the_scripted_server(tmp_path, model_env, fake_site, monkeypatch):
    model_env.default = ScriptedModel()
    monkeypatch.setattr("reportgen.sources.web.ddgs_search", stub_search(fake_site))
    monkeypatch.setenv("REPORTGEN_FETCH_ALLOW_PRIVATE", "1")
    get_settings.cache_clear()
    result = CliRunner().invoke(app, ["report", "Renewable energy", "--sections", "4", "--out", str(tmp_path), "-q"])
    assert result.exit_code == 0, result.stderr
    assert "model fake via http://127.0.0.1" in result.stdout and "$" in result.stdout
    (folder,) = tmp_path.iterdir()
    report = json.loads((folder / "report.json").read_text())
    assert report["mode"] == "model" and report["usage"]["cost_usd"] > 0


async def test_token_budget_stops_new_work_and_renders_what_was_done(tmp_path, model_env, fake_site, monkeypatch):
    monkeypatch.setenv("REPORTGEN_MAX_CONCURRENCY", "1")  # tasks in blueprint order: section 1 first
    get_settings.cache_clear()
    model_env.default = ScriptedModel()
    full = await _report(tmp_path / "full", fake_site)
    spent = full.report.usage["by_task"]
    budget = sum(spent[t]["input"] + spent[t]["output"]
                 for t in ("plan", "research-overview", "research-1", "chart-1", "write-1") if t in spent)
    monkeypatch.setenv("REPORTGEN_MAX_TOKENS", str(budget))
    get_settings.cache_clear()
    model_env.default = ScriptedModel()
    cut = await _report(tmp_path / "cut", fake_site)
    report = _check(cut)
    assert [s.title for s in report.sections if s.role == "body"] == ["Solar power"]
    skipped = [t for t in cut.blueprint.tasks if "token budget" in t.reason]
    assert skipped and all(t.status.value == "skipped" for t in skipped)
    assert (cut.out_dir / "report.pdf").exists()
    assert report.usage["total_tokens"] <= budget + max(s["input"] + s["output"] for s in spent.values())


async def test_auto_search_falls_back_to_the_offline_corpus_and_logs_a_reroute(
    tmp_path, model_env, fake_site, monkeypatch,
):
    monkeypatch.setenv("REPORTGEN_SEARCH", "auto")
    get_settings.cache_clear()
    model_env.default = ScriptedModel()
    from reportgen.errors import FetchError

    dead = WebSearch(search_fn=stub_search(fake_site, error=FetchError("search engine down")), allow_private=True)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "solar.md").write_text("# Solar power\n\nSolar capacity grew from 223 GW in 2015 to 1,419 GW in 2023.\n")
    try:
        result = await generate_report(
            RunOptions(topic="Solar power", sections=4, corpus_dirs=[docs], use_wiki=False),
            out_dir=tmp_path / "out", web=dead, backoff_scale=0)
    finally:
        dead.close()
    messages = read_messages(result.out_dir / "messages.jsonl")
    assert any(m.type == "STATUS_UPDATE" and m.status == "reroute" and m.task_id == "search" for m in messages)
    assert all(r.url.startswith("file://") for r in result.report.references)
