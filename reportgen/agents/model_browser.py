"""The browser agent with a model: queries → results → pages → notes tied to fetched pages.

Every note names the label of a passage fetched in this run (and shown to
the model); a note citing anything else is dropped, and a task whose notes
all cite unknown sources is 607, as is a note that repeats the instructions.
Pages that answer nothing are 605; off-topic or garbage pages are 607.
After a 605 the recovery node reroutes to ``broaden``: the model reformulates
the queries.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field

from reportgen.acp import StatusCode
from reportgen.agents.model_common import (
    FEEDBACK_INPUT,
    attempt_deadline,
    echoes,
    fit_passages,
    label_sources,
    sources_block,
)
from reportgen.agents.runtime import Brain, RunContext
from reportgen.blueprint.model import Task
from reportgen.errors import AgentError
from reportgen.sources.models import Passage

__all__ = ["ModelBrowserBrain", "Note", "Notes", "Queries"]

#: Passages read per query, and queries per task.
PASSAGES_PER_QUERY = 5
MAX_QUERIES = 4
#: Most notes one answer may hold (a bound sent in the schema: ``maxItems``).
MAX_NOTES = 12


class Note(BaseModel):
    """One claim from the sources, tied to the passage it comes from."""

    claim: str = Field(max_length=300, description="A fact stated in the passage, in one sentence.")
    source: str = Field(max_length=8, description="The label of the passage it comes from, e.g. S2.")


class Notes(BaseModel):
    """The research notes of one task."""

    notes: list[Note] = Field(max_length=MAX_NOTES)
    off_topic: bool = Field(description="True when no passage is about the questions.")


class Queries(BaseModel):
    """Reformulated search queries."""

    queries: list[Annotated[str, Field(max_length=100)]] = Field(min_length=1, max_length=MAX_QUERIES)


class ModelBrowserBrain(Brain):
    """Search + read + note-taking by the researcher model.

    Inputs: ``query`` (str, required), ``questions`` (list of str), ``k``.
    Outputs: ``notes`` (the passages the notes cite, as dicts) and ``claims``
    (``[{"claim", "source_id"}]``).
    """

    provides = ("search",)

    def build_request(self, task: Task, inputs: dict[str, Any], strategy: str, ctx: RunContext) -> dict[str, Any]:
        query = inputs.get("query")
        if query is None:
            raise AgentError(StatusCode.MISSING_REQUIRED_PARAMETERS, "the search query is missing")
        if not isinstance(query, str) or not query.strip():
            raise AgentError(StatusCode.INVALID_PARAMETER_USAGE, "the search query must be non-empty text")
        questions = inputs.get("questions") or []
        if not isinstance(questions, list):
            raise AgentError(StatusCode.INVALID_PARAMETER_USAGE, "questions must be a list of text")
        return {"query": query.strip(), "questions": [str(q) for q in questions][:MAX_QUERIES],
                "k": int(inputs.get("k") or PASSAGES_PER_QUERY), "reformulate": strategy == "broaden",
                "task_id": task.id, "feedback": inputs.get(FEEDBACK_INPUT) or ""}

    def call(self, params: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
        llm, spec = ctx.llm, self.spec
        assert spec is not None, "a model brain is made from its agent's spec (it holds the prompts)"
        role = spec.role or "researcher"
        deadline = attempt_deadline(ctx)
        queries = [params["query"], *params["questions"]][:MAX_QUERIES]
        if params["reformulate"]:
            assert llm is not None, "model brains are bound only when a model is configured"
            asked = llm.structured(role, Queries, [
                ("system", spec.prompt("queries_system")),
                ("human", spec.prompt("queries_human", queries=queries, topic=ctx.topic, max_queries=MAX_QUERIES)),
            ], task_id=params["task_id"], deadline=deadline)
            queries = asked.queries[:MAX_QUERIES]
        passages: list[Passage] = []
        seen = set()
        for q in queries:
            for p in ctx.search.search(q, k=params["k"]):
                if (p.source_id, p.text) not in seen:
                    seen.add((p.source_id, p.text))
                    passages.append(p)
        if not passages:
            return {"passages": [], "notes": None, "queries": queries}
        assert llm is not None, "model brains are bound only when a model is configured"
        labelled = label_sources(fit_passages(passages, llm.prompt_chars))
        system = spec.prompt("notes_system", lang=ctx.lang, feedback=params["feedback"], max_notes=MAX_NOTES)
        questions = [params["query"], *params["questions"]]
        notes = llm.structured(role, Notes, [
            ("system", system),
            ("human", spec.prompt("notes_human", questions=questions, sources=sources_block(labelled))),
        ], task_id=params["task_id"], deadline=deadline, choices={"source": list(labelled)})
        told = "\n".join([spec.prompt("notes_system", lang=ctx.lang, feedback="", max_notes=MAX_NOTES),
                          params["feedback"], spec.prompt("notes_human", questions=[], sources="")])
        return {"passages": passages, "labelled": labelled, "notes": notes, "queries": queries,
                "instructions": told}

    def check_response(self, task: Task, params: dict[str, Any], raw: Any, ctx: RunContext) -> dict[str, Any]:
        if not raw["passages"]:
            raise AgentError(StatusCode.INCOMPLETE_INFORMATION,
                             f"no page answers {raw['queries']}", "reformulate the queries")
        notes: Notes = raw["notes"]
        labelled: dict[str, Passage] = raw["labelled"]
        kept = [n for n in notes.notes if n.source in labelled and n.claim.strip()]
        if notes.notes and not kept:
            raise AgentError(StatusCode.WRONG_INFORMATION,
                             "every note cites a source that was not fetched in this run",
                             "take notes again from the fetched pages only")
        echoed = [n for n in kept if echoes(n.claim, raw.get("instructions", ""))]
        if echoed:
            raise AgentError(StatusCode.WRONG_INFORMATION,
                             f"a note repeats the instructions instead of the passages: {echoed[0].claim[:80]!r}",
                             "take notes of facts stated in the passages")
        if not kept:
            code = StatusCode.WRONG_INFORMATION if notes.off_topic else StatusCode.INCOMPLETE_INFORMATION
            raise AgentError(code, f"the pages found for {params['query']!r} answer none of the questions",
                             "reformulate the queries")
        cited = list(dict.fromkeys(n.source for n in kept))
        return {
            "notes": [labelled[label].model_dump() for label in cited],
            "claims": [{"claim": n.claim, "source_id": labelled[n.source].source_id} for n in kept],
        }

