"""The recovery policy table."""

import random

import pytest

from reportgen.acp import StatusCode
from reportgen.agents.recovery import POLICY, Action, decide


def test_every_error_code_has_a_policy():
    assert set(POLICY) == {c for c in StatusCode if c.is_error}


def test_tool_failure_retries_with_capped_jittered_backoff():
    rng = random.Random(7)
    delays = []
    for attempt in range(1, 8):
        d = decide(StatusCode.TOOL_CALL_FAILURE, attempt=attempt, budget=10, strategy="default", tried=[], rng=rng)
        assert d.action is Action.RETRY
        delays.append(d.delay_s)
        assert 0 <= d.delay_s <= min(8.0, 0.5 * 2 ** (attempt - 1))


@pytest.mark.parametrize("code", [605, 606, 607])
def test_incomplete_or_wrong_information_reroutes_once_then_fails(code):
    first = decide(StatusCode(code), attempt=1, budget=3, strategy="default", tried=["default"])
    assert first.action is Action.REROUTE and first.strategy == "broaden"
    second = decide(StatusCode(code), attempt=2, budget=3, strategy="broaden", tried=["default", "broaden"])
    assert second.action is Action.FAIL


def test_budget_is_never_exceeded():
    for code in POLICY:
        d = decide(code, attempt=3, budget=3, strategy="default", tried=[])
        assert d.action is Action.FAIL
        assert "budget" in d.reason


def test_missing_parameters_amend_the_blueprint_once():
    decision = decide(StatusCode(601), attempt=1, budget=3, strategy="default", tried=[], can_amend=True)
    assert decision.action is Action.AMEND
    assert decide(StatusCode(601), attempt=1, budget=3, strategy="default", tried=[]).action is Action.FAIL


def test_retry_after_is_honoured():
    d = decide(StatusCode(604), attempt=1, budget=3, strategy="default", tried=[], retry_after_s=5.0,
               rng=random.Random(1))
    assert d.action is Action.RETRY and d.delay_s == 5.0
