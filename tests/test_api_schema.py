"""Property-based: schemathesis drives every operation of the app's own OpenAPI schema; no 5xx.

Valid and invalid requests alike (positive and negative generation), a few
examples per operation so the whole schema runs in seconds. (Hypothesis is
driven directly: schemathesis' pytest fixture loader does not run on pytest 9.)
"""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from api_kit import make_app

KEY = "schema-test-key"


def test_no_operation_answers_5xx(tmp_path):
    app = make_app(tmp_path, api_key=KEY, rate_limit=100_000, max_jobs_per_client=1000)

    async def without_worker(scope, receive, send):
        """The app minus its lifespan: jobs are queued and none runs (fast, nothing left running)."""
        if scope["type"] == "lifespan":
            raise RuntimeError("no lifespan in this test")  # refused before any message means "unsupported"
        await app(scope, receive, send)

    schema = schemathesis.openapi.from_asgi("/openapi.json", without_worker, headers={"X-API-Key": KEY})
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10
    seen: set[int] = set()
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(max_examples=6, deadline=None, database=None, derandomize=True,
                      phases=[Phase.generate], suppress_health_check=list(HealthCheck))
            def check(case):
                response = case.call_and_validate(
                    headers={"X-API-Key": KEY}, checks=[not_a_server_error], timeout=5,
                )
                seen.add(response.status_code)

            try:
                check()
            except Unsatisfiable:  # nothing invalid to send (no parameters, no body)
                assert mode is GenerationMode.NEGATIVE, operation.label
    assert {200, 202, 404, 422} <= seen, seen
