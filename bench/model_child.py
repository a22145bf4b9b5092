"""Child process of the model-mode benchmark: ``python -m bench.model_child OUT_DIR SEED``.

Starts the scripted OpenAI-compatible server of the test suite
(``tests/fakellm.py``: real HTTP, real ``ChatOpenAI``) on 127.0.0.1 and runs
one model-mode report on the offline encyclopedia corpus against it (after an
unmeasured extractive run that builds the corpus index, so the data dir is
warm, as on every run after a user's first). Every
answer is delayed by a seeded latency drawn uniformly from 1–4 s (the range
issue 15 names as realistic for a hosted model's structured answer), chosen
by a hash of the request, so a rerun with the same seed sees the same
latencies whatever the order of the calls. Prints one JSON object: the run's
wall time, every call (schema, latency, start, end) and every task (kind,
dependencies, start, end), for :mod:`bench.model_mode` to compare.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: Seeded answer latency, seconds (issue 15: "e.g. 1–4 s per call").
LATENCY_S = (1.0, 4.0)

SECTIONS = [
    {"title": "Solar power", "questions": ["How fast has solar power grown?"], "chart_ideas": []},
    {"title": "Wind power", "questions": ["How much wind power is installed?"], "chart_ideas": []},
    {"title": "Hydroelectricity", "questions": ["How much electricity does hydropower make?"],
     "chart_ideas": []},
    {"title": "Geothermal energy", "questions": ["Where is geothermal energy used?"], "chart_ideas": []},
]


def _schema(body: dict[str, Any]) -> str:
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return str(fmt["json_schema"]["name"])
    tools = body.get("tools") or []
    return str(tools[0]["function"]["name"]) if tools else ""


def _passages(prompt: str) -> list[tuple[str, str]]:
    if "[S1] " not in prompt:
        return []
    out = []
    for block in re.split(r"\n\n(?=\[S\d+\] )", prompt[prompt.find("[S1] "):]):
        head, _, text = block.partition("\n")
        out.append((head.split("]")[0].lstrip("["), text))
    return out


class Responder:
    """Answers each schema from the prompt, after a seeded delay; records every call."""

    def __init__(self, seed: int) -> None:
        from fakellm import delayed, structured

        self.seed = seed
        self.calls: list[dict[str, Any]] = []
        self._delayed, self._structured = delayed, structured

    def latency(self, body: dict[str, Any]) -> float:
        digest = hashlib.sha256(f"{self.seed}:{json.dumps(body.get('messages'), sort_keys=True)}".encode())
        fraction = int.from_bytes(digest.digest()[:8], "big") / 2**64
        return LATENCY_S[0] + fraction * (LATENCY_S[1] - LATENCY_S[0])

    def __call__(self, request: Any) -> Any:
        name = _schema(request.body)
        prompt = str(request.messages[-1]["content"]) if request.messages else ""
        delay = self.latency(request.body)
        self.calls.append({"schema": name, "latency_s": delay, "start": time.time()})
        return self._delayed(delay, self._answer(name, prompt))

    def _answer(self, name: str, prompt: str) -> Any:
        structured = self._structured
        passages = _passages(prompt)
        if name == "Outline":
            return structured({"title": "Renewable energy", "sections": SECTIONS})
        if name == "Queries":
            found = re.search(r"section '([^']+)'", prompt)
            return structured({"queries": [found.group(1) if found else "renewable energy"]})
        if name == "Notes":
            notes = [{"claim": text.split(". ")[0][:200], "source": label} for label, text in passages if text.strip()]
            return structured({"notes": notes[:6], "off_topic": not notes})
        if name == "ChartProposal":
            return structured({"title": "", "unit": "", "quantity": "", "points": [], "no_data": True})
        if name == "SectionDraft":
            found = re.search(r"the section '([^']+)'|the (introduction|conclusion)", prompt)
            asked = (found.group(1) or found.group(2)) if found else "report"
            paragraphs = [f"{text.split('. ')[0].strip().rstrip('.')} (on {asked}). [{label}]"
                          for label, text in passages[:3] if text.strip()]
            return structured({"paragraphs": paragraphs or ["Nothing was found. [S1]"]})
        return structured({})


def main(argv: list[str]) -> int:
    """Run one model-mode report into ``argv[0]`` with latency seed ``argv[1]``."""
    if len(argv) != 2:
        print("usage: python -m bench.model_child OUT_DIR SEED", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT / "tests"))
    from reportgen.config import RunOptions, get_settings
    from reportgen.run import generate_report

    from fakellm import FakeLLM

    # Warm-up, not measured: an extractive report builds the encyclopedia
    # index in this data dir, as a user's first run does.
    asyncio.run(generate_report(RunOptions(topic="Renewable energy", sections=1), out_dir=Path(argv[0]) / "warm-up"))
    responder = Responder(int(argv[1]))
    with FakeLLM() as server:
        server.default = responder
        os.environ.update(REPORTGEN_LLM_MODEL="fake", REPORTGEN_LLM_BASE_URL=server.base_url,
                          REPORTGEN_LLM_API_KEY="bench")
        get_settings.cache_clear()
        started = time.time()
        result = asyncio.run(generate_report(RunOptions(topic="Renewable energy", sections=len(SECTIONS)),
                                             out_dir=Path(argv[0])))
        ended = time.time()
    tasks = [{"id": t.id, "kind": t.kind, "status": t.status.value, "deps": sorted(t.dependencies),
              "start": t.started_at.timestamp() if t.started_at else None,
              "end": t.finished_at.timestamp() if t.finished_at else None} for t in result.blueprint.tasks]
    for call in responder.calls:
        call["end"] = call["start"] + call["latency_s"]
    print(json.dumps({"wall_s": ended - started, "start": started, "end": ended, "calls": responder.calls,
                      "tasks": tasks, "mode": result.report.mode, "sections": len(result.report.sections)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
