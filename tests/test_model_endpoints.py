"""Model mode against endpoints that misbehave the way real ones do (issue 14).

Each test is one failure seen against a real llama.cpp server or a schema-driven
fake: the scripted server (``tests/fakellm.py``) plays the endpoint, the real
HTTP path runs. None of these passed before: calls outlived their deadline,
answers had no bound, tracebacks reached the user, fatal errors were retried as
transient, ``json_mode`` never showed the schema, number checks had loopholes,
the budget was checked per task, and model prose was cited as its source.
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time

import pytest
from pydantic import BaseModel
from test_model_mode import NO_DATA, ScriptedModel, _check, _passages, _report, _schema
from typer.testing import CliRunner

from reportgen.acp import read_messages
from reportgen.agents.model_common import echoes, locate_number
from reportgen.blueprint.model_planner import Outline
from reportgen.cli import app
from reportgen.config import Settings, get_settings
from reportgen.llm import (
    LLM,
    BudgetError,
    ModelCallError,
    ModelCutError,
    ModelEndpointError,
    ModelOutputError,
    forget_endpoints,
    repetition,
)

from fakellm import cut, delayed, html_page, server_error, structured, trickle
from fakeweb import stub_search

OUTLINE = {"title": "Wind", "sections": [
    {"title": "Wind farms", "questions": ["How much wind power is installed?"], "chart_ideas": []}]}


@pytest.fixture
def model_env(monkeypatch, fake_llm):
    """The scripted server as the run's endpoint, with web search on the fixture site (as test_model_mode)."""
    for name, value in {"LLM_MODEL": "fake", "LLM_BASE_URL": fake_llm.base_url, "LLM_API_KEY": "test-key",
                        "LLM_PRICE_IN": "0.5", "LLM_PRICE_OUT": "1.5", "SEARCH": "web",
                        "FETCH_TIMEOUT_S": "2"}.items():
        monkeypatch.setenv(f"REPORTGEN_{name}", value)
    get_settings.cache_clear()
    return fake_llm


@pytest.fixture(autouse=True)
def _fresh_endpoints():
    forget_endpoints()  # what a process learnt of an endpoint must not leak between tests
    yield
    forget_endpoints()


@pytest.fixture(autouse=True)
def _short_calls(monkeypatch):
    monkeypatch.setattr(LLM, "min_call_s", 0.2)  # these deadlines are a second or two, not minutes


def _settings(base_url: str, **kw) -> Settings:
    return Settings(llm_model="fake", llm_base_url=base_url, llm_api_key="k", **kw)


def _ask(llm: LLM, schema: type[BaseModel] = Outline, role: str = "planner", deadline: float | None = None):
    return llm.structured(role, schema, [("system", "Plan."), ("human", "Topic: wind")], task_id="t",
                          deadline=deadline)


def _schema_bounds(node, path="$"):
    """Every array bounded (maxItems), every string bounded (maxLength), every property required."""
    problems = []
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "array" and "maxItems" not in node:
            problems.append(f"{path}: array without maxItems")
        if kind == "string" and "maxLength" not in node and "enum" not in node:
            problems.append(f"{path}: string without maxLength")
        if kind == "object" and set(node.get("properties", {})) != set(node.get("required", [])):
            problems.append(f"{path}: not every property is required")
        for key, value in node.items():
            problems += _schema_bounds(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            problems += _schema_bounds(value, f"{path}[{i}]")
    return problems


# ---------------------------------------------------------------- deadlines and cancellation


def _endless():
    """A stream that never ends and never repeats (the repetition guard stays quiet)."""
    yield '{"title": "'
    for n in itertools.count():
        yield f"wind{n} "


def test_a_call_is_stopped_at_its_attempt_deadline_and_the_server_sees_the_hang_up(fake_llm):
    fake_llm.script(trickle(_endless(), delay_s=0.05))
    llm = LLM(_settings(fake_llm.base_url), backoff_scale=0)
    started = time.monotonic()
    with pytest.raises(ModelCallError, match="deadline"):
        _ask(llm, deadline=time.monotonic() + 1.5)
    assert time.monotonic() - started < 4  # not the 120 s model timeout, not the 60 s tool timeout
    deadline = time.monotonic() + 3
    while fake_llm.disconnects < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fake_llm.disconnects >= 1 and fake_llm.streaming == 0  # the request was closed: the server stopped
    llm.close()


def test_closing_the_run_stops_calls_in_flight_at_once(fake_llm):
    fake_llm.script(trickle(_endless(), delay_s=0.05))
    llm = LLM(_settings(fake_llm.base_url, llm_timeout_s=600), backoff_scale=0)
    errors: list[Exception] = []

    def ask() -> None:
        try:
            _ask(llm)
        except ModelCallError as exc:
            errors.append(exc)

    worker = threading.Thread(target=ask)
    worker.start()
    time.sleep(0.5)
    started = time.monotonic()
    llm.close()
    worker.join(5)
    assert not worker.is_alive() and time.monotonic() - started < 3
    assert errors and "stopped" in str(errors[0])
    deadline = time.monotonic() + 3
    while fake_llm.streaming and time.monotonic() < deadline:
        time.sleep(0.05)
    assert fake_llm.streaming == 0


def test_a_slow_endpoint_halves_its_concurrency_and_it_grows_back(fake_llm):
    from reportgen.llm import _endpoint

    fake_llm.default = delayed(3, structured(OUTLINE))
    llm = LLM(_settings(fake_llm.base_url, llm_max_concurrency=4), backoff_scale=0)
    with pytest.raises(ModelCallError):
        _ask(llm, deadline=time.monotonic() + 1.0)
    limiter = _endpoint(llm.base_url, "fake", 4).limiter
    assert limiter.limit == 2
    fake_llm.default = structured(OUTLINE)
    for _ in range(6):
        _ask(llm)
    assert limiter.limit > 3
    llm.close()


# ---------------------------------------------------------------- bounded output


async def test_every_request_is_bounded_and_every_schema_field_required(tmp_path, model_env, fake_site,
                                                                        monkeypatch):
    monkeypatch.setenv("REPORTGEN_LLM_WRITER_MAX_TOKENS", "700")
    get_settings.cache_clear()
    model_env.default = ScriptedModel()
    _check(await _report(tmp_path, fake_site))
    for request in model_env.chat_requests:
        name = _schema(request.body)
        assert request.body["max_tokens"] == (700 if name == "SectionDraft" else 1024)
        schema = request.body["response_format"]["json_schema"]["schema"]
        assert _schema_bounds(schema) == [], name


def test_a_model_looping_on_one_item_is_stopped_and_asked_again(fake_llm):
    fake_llm.script(trickle(itertools.chain(['{"title": "Wind", "sections": [{"title": "x", "questions": ['],
                                            itertools.repeat('"Sections", ')), delay_s=0.01))
    llm = LLM(_settings(fake_llm.base_url), backoff_scale=0)
    started = time.monotonic()
    with pytest.raises(ModelCutError, match="repeating") as caught:
        _ask(llm)
    assert caught.value.status_code == 603
    assert time.monotonic() - started < 5  # not 755 s
    llm.close()


def test_repetition_is_a_tail_loop_not_a_list_of_distinct_items():
    assert repetition('{"q": [' + '"Sections", ' * 20) is not None
    distinct = json.dumps({"questions": [f"How much wind power did country {i} add?" for i in range(30)]})
    assert repetition(distinct) is None
    assert repetition("Wind power grows. " * 2) is None


async def test_an_answer_cut_at_the_length_limit_is_603_with_the_cut_shown_on_retry(tmp_path, model_env,
                                                                                   fake_site):
    model_env.default = ScriptedModel(Outline=[cut({"title": "Renewable energy", "sections": OUTLINE["sections"]})])
    result = await _report(tmp_path, fake_site)
    plan = [m for m in read_messages(result.out_dir / "messages.jsonl") if m.task_id == "plan"]
    assert any(m.type == "ASSISTANCE_REQUEST" and m.status_code == 603 and "cut at the" in m.description
               for m in plan)
    second = [r for r in model_env.chat_requests if _schema(r.body) == "Outline"][1]
    assert "cut at the 1024-token limit" in second.messages[-1]["content"]
    assert result.report.sections  # a report, not a traceback


# ---------------------------------------------------------------- errors by class


@pytest.mark.parametrize(("status", "words", "expect"), [
    (401, "Incorrect API key provided", "refused the API key"),
    (404, "model 'fake' not found, try pulling it first", "does not know the model"),
])
def test_fatal_endpoint_errors_fail_fast_with_the_servers_words(fake_llm, status, words, expect):
    fake_llm.default = server_error(status, words)
    llm = LLM(_settings(fake_llm.base_url), backoff_scale=0)
    with pytest.raises(ModelEndpointError, match=expect) as caught:
        _ask(llm)
    assert words in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(ModelEndpointError):
        _ask(llm)  # the next call does not even reach the server
    assert len(fake_llm.chat_requests) == 1
    llm.close()


def test_json_schema_refused_like_llama_cpp_python_switches_method_once(fake_llm):
    def llama_cpp_like(request):  # llama-cpp-python answers 500 to response_format json_schema
        fmt = (request.body.get("response_format") or {}).get("type")
        if fmt == "json_schema":
            return server_error(500, "Input should be 'text' or 'json_object'")
        return structured(OUTLINE)

    fake_llm.default = llama_cpp_like
    llm = LLM(_settings(fake_llm.base_url), backoff_scale=0)
    assert _ask(llm).sections[0].title == "Wind farms"
    assert _ask(llm).sections[0].title == "Wind farms"
    assert llm.method_for("planner") == "function_calling"
    kinds = [(r.body.get("response_format") or {}).get("type") or ("tools" if r.body.get("tools") else "plain")
             for r in fake_llm.chat_requests]
    assert kinds == ["json_schema", "plain", "tools", "tools"]  # detected once (a probe told why), then cached
    llm.close()


def test_an_explicit_method_the_endpoint_refuses_stops_with_its_words(fake_llm):
    fake_llm.default = lambda r: (server_error(500, "Input should be 'text' or 'json_object'")
                                  if r.body.get("response_format") else structured(OUTLINE))
    llm = LLM(_settings(fake_llm.base_url, llm_structured_output="json_schema"), backoff_scale=0)
    with pytest.raises(ModelEndpointError, match="refuses REPORTGEN_LLM_STRUCTURED_OUTPUT=json_schema.*"
                                                 "Input should be 'text' or 'json_object'"):
        _ask(llm)
    llm.close()


def test_connection_refused_is_fatal_when_the_endpoint_was_never_reached():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    llm = LLM(_settings(f"http://127.0.0.1:{port}/v1"), backoff_scale=0)
    started = time.monotonic()
    with pytest.raises(ModelEndpointError, match="cannot reach the model endpoint"):
        _ask(llm)
    assert time.monotonic() - started < 5
    llm.close()


def test_transient_errors_are_retried_inside_the_call(fake_llm):
    fake_llm.script(server_error(503, "busy"), server_error(500, "oops"), structured(OUTLINE))
    retries = []
    llm = LLM(_settings(fake_llm.base_url), backoff_scale=0, on_retry=lambda *a: retries.append(a))
    fake_llm.default = structured(OUTLINE)
    assert _ask(llm).title == "Wind"
    assert len(retries) >= 1  # logged, and no task attempt spent
    llm.close()


def test_json_mode_shows_the_schema_and_an_empty_object_is_not_an_outline(fake_llm):
    fake_llm.default = structured({})
    llm = LLM(_settings(fake_llm.base_url, llm_structured_output="json_mode"), backoff_scale=0)
    with pytest.raises(ModelOutputError, match="Field required"):
        _ask(llm)
    request = fake_llm.chat_requests[0]
    assert request.body["response_format"] == {"type": "json_object"}
    assert '"sections"' in request.messages[0]["content"] and "maxItems" in request.messages[0]["content"]
    llm.close()


# ---------------------------------------------------------------- no traceback, ever


def _cli(args, tmp_path):
    result = CliRunner().invoke(app, ["report", "Wind power", "--sections", "1", "--out", str(tmp_path), "-q", *args])
    return result


@pytest.mark.parametrize(("env", "expect"), [
    ({"REPORTGEN_LLM_STRUCTURED_OUTPUT": "tools"}, "REPORTGEN_LLM_STRUCTURED_OUTPUT='tools'"),
    ({"REPORTGEN_LLM_TIMEOUT_S": "five"}, "REPORTGEN_LLM_TIMEOUT_S='five'"),
    ({"REPORTGEN_LLM_BASE_URL": None, "OPENAI_API_KEY": None, "REPORTGEN_LLM_API_KEY": None}, "no API key"),
])
def test_bad_settings_end_in_one_line(tmp_path, monkeypatch, fake_llm, env, expect):
    monkeypatch.setenv("REPORTGEN_LLM_MODEL", "fake")
    monkeypatch.setenv("REPORTGEN_LLM_BASE_URL", fake_llm.base_url)
    for key, value in env.items():
        if value is None:
            monkeypatch.delenv(key, raising=False)
        else:
            monkeypatch.setenv(key, value)
    get_settings.cache_clear()
    result = _cli([], tmp_path)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and expect in lines[0] and "Traceback" not in result.output
    assert not fake_llm.chat_requests
    get_settings.cache_clear()


@pytest.mark.parametrize(("reply", "expect"), [
    (html_page(), "answered with text/html"),
    (server_error(404, "model 'fake' not found, try pulling it first"), "try pulling it first"),
    (server_error(401, "Incorrect API key provided"), "refused the API key"),
])
def test_a_broken_endpoint_ends_in_one_line_and_a_failed_record(tmp_path, model_env, fake_site, monkeypatch,
                                                                 reply, expect):
    model_env.default = reply
    monkeypatch.setattr("reportgen.sources.web.ddgs_search", stub_search(fake_site))
    monkeypatch.setenv("REPORTGEN_FETCH_ALLOW_PRIVATE", "1")
    get_settings.cache_clear()
    started = time.monotonic()
    result = _cli([], tmp_path)
    assert time.monotonic() - started < 30
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and expect in lines[0] and "Traceback" not in result.output
    assert len(model_env.chat_requests) <= 3  # failed fast: not 21 attempts
    records = list((get_settings().runs_dir).glob("*.json"))
    assert records and all(json.loads(p.read_text())["state"] == "failed" for p in records)


# ---------------------------------------------------------------- sound number checks


def test_numbers_are_read_with_their_locale_sign_unit_and_never_as_a_year():
    assert locate_number(1136, "Germany added 1,136 MW last year.", "en") is not None
    assert locate_number(1.136, "Germany added 1,136 MW last year.", "en") is None
    assert locate_number(2.5, "La production atteint 2,5 GW.", "fr") is not None
    assert locate_number(-273.15, "Absolute zero is −273.15 °C.", "en", unit="°C") is not None
    assert locate_number(273.15, "Absolute zero is −273.15 °C.", "en", unit="°C") is None
    assert locate_number(2024, "Capacity reached 223 GW in 2024.", "en", unit="GW") is None
    assert locate_number(2024, "Capacity reached 223 GW in 2024.", "en", time_axis=True) is not None
    assert locate_number(223, "Capacity reached 223 GW in 2024.", "en", unit="GW") is not None
    assert locate_number(223, "Capacity reached 223 GW in 2024.", "en", unit="gigawatts") is not None
    assert locate_number(223, "Capacity reached 223 MW in 2024.", "en", unit="GW") is None
    assert locate_number(223, "Capacity reached 223 in 2024 (GW).", "en", unit="GW") is not None


async def test_a_year_proposed_as_a_quantity_is_607(tmp_path, model_env, fake_site):
    years = structured({"title": "t", "unit": "GW", "quantity": "q", "no_data": False, "points": [
        {"label": "a", "value": 2015.0, "source": "S1", "year": None},
        {"label": "b", "value": 2023.0, "source": "S1", "year": None}]})
    model_env.default = ScriptedModel(ChartProposal=[years, structured(NO_DATA)] * 4)
    result = await _report(tmp_path, fake_site)
    messages = read_messages(result.out_dir / "messages.jsonl")
    assert any(m.type == "ASSISTANCE_REQUEST" and m.status_code == 607 and "2015 GW" in m.description
               for m in messages)
    assert all(p["value"] not in (2015.0, 2023.0) for f in result.report.figures for p in f.data)


# ---------------------------------------------------------------- echoes and laundered citations


def test_echo_check():
    told = "You write reports. Write in the language with code 'en', whatever the language of the sources."
    assert echoes("Write in the language with code 'en', whatever the sources say.", told)
    assert not echoes("Wind power supplied 8% of the world's electricity in 2023.", told)


async def test_a_sentence_echoing_the_instructions_is_607_and_never_published(tmp_path, model_env, fake_site):
    echo = structured({"paragraphs": ["Write in the language with code 'en', whatever the language of the "
                                      "sources. [S1]"]})
    model_env.default = ScriptedModel(SectionDraft=[echo])
    result = await _report(tmp_path, fake_site)
    messages = read_messages(result.out_dir / "messages.jsonl")
    assert any(m.type == "ASSISTANCE_REQUEST" and m.status_code == 607 and "repeats the instructions"
               in m.description for m in messages)
    assert "language with code" not in (result.out_dir / "report.json").read_text()


async def test_introduction_and_conclusion_cite_fetched_passages_not_the_sections_prose(
    tmp_path, model_env, fake_site,
):
    model_env.default = ScriptedModel()
    result = await _report(tmp_path, fake_site)
    _check(result)
    body = {s.text for sec in result.report.sections if sec.role == "body" for p in sec.paragraphs
            for s in getattr(p, "sentences", [])} or {"(see "}
    summaries = [r for r in model_env.chat_requests
                 if _schema(r.body) == "SectionDraft" and "of a report on" in r.messages[-1]["content"]
                 and "Write the section" not in r.messages[-1]["content"]]
    assert len(summaries) == 2
    for request in summaries:
        passages = _passages(request.messages[-1]["content"])
        assert passages
        for _label, text in passages:
            assert "(see " not in text  # the body's model-written sentences are never a source's text
            assert text.strip() not in body


# ---------------------------------------------------------------- an honest budget


def test_the_budget_is_checked_before_every_call_and_failed_calls_are_counted(fake_llm):
    fake_llm.default = cut(OUTLINE)
    llm = LLM(_settings(fake_llm.base_url, max_tokens=400, llm_max_output_tokens=100), backoff_scale=0)
    calls = 0
    with pytest.raises(BudgetError, match="token budget is spent: .* of 400 tokens"):
        for _ in range(20):
            calls += 1
            with pytest.raises(ModelCutError):
                _ask(llm, role="writer")
    assert llm.usage.total > 0 and llm.usage.failed_calls == calls - 1  # cut answers are billed, and counted
    assert llm.usage.total <= 400 + llm.max_output("writer") + 200  # at most one call's bound over
    llm.close()


async def test_a_budget_stop_renders_the_sections_research_reached(tmp_path, model_env, fake_site, monkeypatch):
    monkeypatch.setenv("REPORTGEN_MAX_TOKENS", "9000")
    get_settings.cache_clear()
    model_env.default = ScriptedModel()
    result = await _report(tmp_path, fake_site)
    report = _check(result)
    usage = report.usage
    biggest = max(len(json.dumps(r.body["messages"])) // 4 + r.body["max_tokens"] for r in model_env.chat_requests)
    assert usage["total_tokens"] <= 9000 + biggest
    assert any(s.role == "body" for s in report.sections)  # writing was kept its share
    messages = read_messages(result.out_dir / "messages.jsonl")
    assert any("token budget is spent" in (getattr(m, "description", "") or getattr(m, "detail", "") or "")
               and "of 9000 tokens" in (getattr(m, "description", "") or getattr(m, "detail", "") or "")
               for m in messages)
    assert (result.out_dir / "report.pdf").exists()
