"""Fakes at the boundaries: an in-memory search backend and scripted agents."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from reportgen.agents.ranking import terms
from reportgen.agents.runtime import Brain, RunContext
from reportgen.blueprint.model import Task
from reportgen.sources.models import Passage

#: A small corpus on wind, solar and geothermal power, with comparable numbers.
ENERGY_DOCS: list[dict[str, str]] = [
    {"title": "Renewable energy", "text": (
        "Renewable energy is energy from resources that are replenished on a human timescale. "
        "The most widely used renewable energy types are solar power, wind power and hydropower. "
        "Geothermal power is also significant in some countries.")},
    {"title": "Wind power", "text": (
        "Wind power is the use of wind energy to generate electricity with wind turbines. "
        "Wind farms are groups of wind turbines connected to the electrical grid. "
        "Offshore wind farms use stronger and steadier winds at sea.")},
    {"title": "Solar power", "text": (
        "Solar power is the conversion of energy from sunlight into electricity. "
        "Solar panels use the photovoltaic effect to produce an electric current. "
        "Concentrated solar power uses mirrors to focus sunlight on a receiver.")},
    {"title": "Geothermal power", "text": (
        "Geothermal power is electrical power generated from geothermal energy. "
        "Geothermal electricity generation is currently used in 26 countries, while geothermal "
        "heating is in use in 70 countries.")},
    {"title": "Hydropower", "text": (
        "Hydropower is the use of falling or fast-running water to produce electricity. "
        "Hydropower supplies 15% of the world's electricity, almost 4,210 TWh in 2023. "
        "Pumped-storage hydroelectricity stores energy for later use.")},
]


class FakeSearch:
    """A term-overlap search over a list of documents (no index, no network).

    Args:
        docs: ``{"title", "text"}`` dicts.
        name: Corpus name.
        fail_queries: How many first searches return nothing (to provoke 605).
        lang: Language whose stop words the terms leave out (an edition's index has its own).
    """

    def __init__(self, docs: list[dict[str, str]] | None = None, name: str = "fake corpus",
                 fail_queries: int = 0, lang: str = "en") -> None:
        self.docs = docs if docs is not None else ENERGY_DOCS
        self.name = name
        self.lang = lang
        self.fail_queries = fail_queries
        self.calls: list[str] = []

    def search(self, query: str, k: int = 10) -> list[Passage]:
        self.calls.append(query)
        if len(self.calls) <= self.fail_queries:
            return []
        wanted = terms(query, self.lang)
        scored = []
        for i, d in enumerate(self.docs):
            hits = len(wanted & terms(f"{d['title']} {d['text']}", self.lang))
            title_hits = len(wanted & terms(d["title"], self.lang))
            if hits:
                scored.append((hits + 2 * title_hits, -i, d))
        scored.sort(reverse=True)
        return [
            Passage(source_id=f"fake:{d['title']}", title=d["title"],
                    url=f"https://example.org/wiki/{d['title'].replace(' ', '_')}",
                    text=d["text"], corpus=self.name, score=float(s))
            for s, _, d in scored[:k]
        ]


class SleepAgent(Brain):
    """An agent whose tool sleeps for ``latency[task.id]`` seconds and records timings."""

    def __init__(self, name: str, latency: dict[str, float], record: dict[str, tuple[float, float]]) -> None:
        self.name = name
        self.tool = f"sleep-{name}"
        self.latency = latency
        self.record = record

    def build_request(self, task: Task, inputs: dict[str, Any], strategy: str, ctx: RunContext) -> dict[str, Any]:
        return {"task_id": task.id}

    def call(self, params: dict[str, Any], ctx: RunContext) -> Any:
        start = time.perf_counter()
        time.sleep(self.latency.get(params["task_id"], 0.0))
        self.record[params["task_id"]] = (start, time.perf_counter())
        return params["task_id"]

    def check_response(self, task: Task, params: dict[str, Any], raw: Any, ctx: RunContext) -> dict[str, Any]:
        return {name: f"{raw}.{name}" for name in task.outputs}


_ = asyncio  # tests import asyncio helpers from here too
