"""The scripted OpenAI-compatible server, driven through the real ``ChatOpenAI`` HTTP path."""

from __future__ import annotations

import time

import httpx
import openai
import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, ValidationError

from fakellm import (
    FakeLLM,
    Reply,
    delayed,
    invalid_json,
    json_content,
    rate_limited,
    server_error,
    structured,
    text,
    tool_call,
)


class Section(BaseModel):
    heading: str
    questions: list[str]


class Outline(BaseModel):
    title: str
    sections: list[Section]


OUTLINE = {
    "title": "Wind and solar",
    "sections": [{"heading": "Capacity", "questions": ["How much solar capacity by 2023?"]}],
}


def chat(server: FakeLLM, **kwargs) -> ChatOpenAI:
    return ChatOpenAI(base_url=server.base_url, api_key="test", model="fake", max_retries=0,
                      timeout=5, **kwargs)  # fmt: skip


def test_plain_text_reply_with_usage(fake_llm):
    fake_llm.script(text("Solar and wind lead growth.", usage=(120, 7)))
    message = chat(fake_llm).invoke(
        [SystemMessage("You write reports."), HumanMessage("Summarise renewables.")]
    )
    assert message.content == "Solar and wind lead growth."
    assert message.usage_metadata["input_tokens"] == 120
    assert message.usage_metadata["output_tokens"] == 7
    assert message.usage_metadata["total_tokens"] == 127
    (request,) = fake_llm.requests
    assert request.path == "/v1/chat/completions" and request.method == "POST"
    assert request.headers["authorization"] == "Bearer test"
    assert request.body["model"] == "fake"
    assert [m["role"] for m in request.messages] == ["system", "user"]
    assert request.messages[1]["content"] == "Summarise renewables."
    assert fake_llm.pending == 0


def test_usage_is_estimated_when_not_scripted(fake_llm):
    fake_llm.script(text("x" * 400))
    usage = chat(fake_llm).invoke("hello").usage_metadata
    assert usage["output_tokens"] == 100 and usage["input_tokens"] >= 1


def test_structured_output_json_schema(fake_llm):
    fake_llm.script(structured(OUTLINE))
    outline = chat(fake_llm).with_structured_output(Outline, method="json_schema").invoke("plan")
    assert outline == Outline.model_validate(OUTLINE)
    fmt = fake_llm.requests[0].body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "Outline"
    assert "tools" not in fake_llm.requests[0].body


def test_structured_output_function_calling(fake_llm):
    fake_llm.script(structured(OUTLINE))
    runnable = chat(fake_llm).with_structured_output(Outline, method="function_calling")
    assert runnable.invoke("plan") == Outline.model_validate(OUTLINE)
    body = fake_llm.requests[0].body
    assert body["tool_choice"] == {"type": "function", "function": {"name": "Outline"}}
    assert body["tools"][0]["function"]["name"] == "Outline"


def test_structured_output_json_mode_and_raw(fake_llm):
    fake_llm.script(structured({"a": 1}), json_content(OUTLINE))
    assert chat(fake_llm).with_structured_output(method="json_mode").invoke("json") == {"a": 1}
    assert fake_llm.requests[0].body["response_format"] == {"type": "json_object"}
    raw = chat(fake_llm).with_structured_output(Outline, include_raw=True).invoke("plan")
    assert raw["parsed"] == Outline.model_validate(OUTLINE) and raw["parsing_error"] is None
    assert raw["raw"].usage_metadata["total_tokens"] > 0


def test_explicit_tool_call(fake_llm):
    fake_llm.script(tool_call("get_coordinates", {"city": "Oslo"}, call_id="call_1"))

    def get_coordinates(city: str) -> str:
        """Return the coordinates of a city."""
        return "59.9,10.7"

    message = chat(fake_llm).bind_tools([get_coordinates]).invoke("Where is Oslo?")
    assert message.tool_calls == [
        {"name": "get_coordinates", "args": {"city": "Oslo"}, "id": "call_1", "type": "tool_call"}
    ]
    assert message.response_metadata["finish_reason"] == "tool_calls"


def test_rate_limit_reply_carries_retry_after(fake_llm):
    fake_llm.script(rate_limited(retry_after=2))
    with pytest.raises(openai.RateLimitError) as info:
        chat(fake_llm).invoke("hello")
    assert info.value.status_code == 429
    assert info.value.response.headers["retry-after"] == "2"
    assert len(fake_llm.requests) == 1  # max_retries=0: asked once


def test_server_error_reply(fake_llm):
    fake_llm.script(server_error())
    with pytest.raises(openai.InternalServerError) as info:
        chat(fake_llm).invoke("hello")
    assert info.value.status_code == 500


def test_invalid_json_reply_fails_structured_output(fake_llm):
    fake_llm.script(invalid_json(), tool_call("Outline", '{"title": "Unfinished", "sec'))
    with pytest.raises(ValidationError):  # raised by the openai SDK's parse of the content
        chat(fake_llm).with_structured_output(Outline, method="json_schema").invoke("plan")
    raw = chat(fake_llm).with_structured_output(
        Outline, method="function_calling", include_raw=True
    ).invoke("plan")
    # Broken tool arguments do not raise: the call lands in invalid_tool_calls and
    # nothing is parsed, so callers must treat ``parsed is None`` as a failure.
    assert raw["parsed"] is None
    assert raw["raw"].invalid_tool_calls[0]["name"] == "Outline"


def test_delayed_reply_and_client_timeout(fake_llm):
    fake_llm.script(delayed(0.2, text("late but fine")), delayed(5, text("too late")))
    started = time.monotonic()
    assert chat(fake_llm).invoke("hello").content == "late but fine"
    assert time.monotonic() - started >= 0.2
    llm = ChatOpenAI(base_url=fake_llm.base_url, api_key="test", model="fake", max_retries=0,
                     timeout=0.3)  # fmt: skip
    with pytest.raises(openai.APITimeoutError):
        llm.invoke("hello")


def test_empty_queue_answers_500_or_the_default(fake_llm):
    with pytest.raises(openai.InternalServerError, match="no scripted reply left"):
        chat(fake_llm).invoke("hello")
    assert fake_llm.exhausted == 1
    fake_llm.default = text("default answer")
    assert chat(fake_llm).invoke("again").content == "default answer"
    assert chat(fake_llm).invoke("and again").content == "default answer"


def test_reply_computed_from_the_request(fake_llm):
    fake_llm.script(lambda request: text(f"you said: {request.messages[-1]['content']}"))
    assert chat(fake_llm).invoke("bonjour").content == "you said: bonjour"


def test_streaming_with_usage(fake_llm):
    fake_llm.script(text("streamed words", usage=(10, 2)))
    chunks = list(chat(fake_llm, stream_usage=True).stream("hello"))
    assert "".join(c.content for c in chunks) == "streamed words"
    assert sum(c.usage_metadata["total_tokens"] for c in chunks if c.usage_metadata) == 12
    assert fake_llm.requests[0].body["stream"] is True


async def test_async_invoke(fake_llm):
    fake_llm.script(structured(OUTLINE))
    outline = await chat(fake_llm).with_structured_output(Outline).ainvoke("plan")
    assert outline.title == "Wind and solar"


def test_models_endpoint_and_bad_body(fake_llm):
    with httpx.Client() as client:
        listed = client.get(fake_llm.base_url + "/models").json()
        assert [m["id"] for m in listed["data"]] == ["fake"]
        bad = client.post(fake_llm.base_url + "/chat/completions", content=b"not json")
        assert bad.status_code == 400 and bad.json()["error"]["type"] == "invalid_request_error"
    assert [r.path for r in fake_llm.requests] == ["/v1/models", "/v1/chat/completions"]
    assert fake_llm.chat_requests == fake_llm.requests[1:]


def test_server_stops_promptly_with_a_reply_in_flight():
    server = FakeLLM().start()
    server.script(Reply(content="never sent", delay_s=30))
    llm = ChatOpenAI(base_url=server.base_url, api_key="test", model="fake", max_retries=0,
                     timeout=0.2)  # fmt: skip
    with pytest.raises(openai.APITimeoutError):
        llm.invoke("hello")
    started = time.monotonic()
    server.stop()
    assert time.monotonic() - started < 3
