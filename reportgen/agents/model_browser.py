"""The browser agent with a model: queries → results → pages → notes tied to fetched pages.

Every note names the label of a passage fetched in this run; a note citing
anything else is dropped, and a task whose notes all cite unknown sources is
607. Pages that answer nothing are 605; off-topic or garbage pages are 607.
After a 605 the recovery node reroutes to ``broaden``: the model reformulates
the queries.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from reportgen.acp import StatusCode
from reportgen.agents.model_common import feedback_rule, label_sources, language_rule, sources_block
from reportgen.agents.runtime import Agent, RunContext
from reportgen.blueprint.model import Task
from reportgen.errors import AgentError
from reportgen.sources.models import Passage

__all__ = ["ModelBrowserAgent", "Note", "Notes", "Queries"]

#: Passages read per query, and queries per task.
PASSAGES_PER_QUERY = 5
MAX_QUERIES = 4


class Note(BaseModel):
    """One claim from the sources, tied to the passage it comes from."""

    claim: str = Field(description="A fact stated in the passage, in one sentence.")
    source: str = Field(description="The label of the passage it comes from, e.g. S2.")


class Notes(BaseModel):
    """The research notes of one task."""

    notes: list[Note] = Field(default_factory=list)
    off_topic: bool = Field(default=False, description="True when no passage is about the questions.")


class Queries(BaseModel):
    """Reformulated search queries."""

    queries: list[str] = Field(min_length=1, max_length=MAX_QUERIES)


class ModelBrowserAgent(Agent):
    """Search + read + note-taking by the researcher model.

    Inputs: ``query`` (str, required), ``questions`` (list of str), ``k``.
    Outputs: ``notes`` (the passages the notes cite, as dicts) and ``claims``
    (``[{"claim", "source_id"}]``).
    """

    name = "browser"
    tool = "search+read"
    kinds = ("research",)

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
                "task_id": task.id, "feedback": feedback_rule(inputs)}

    def call(self, params: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
        llm = ctx.llm
        queries = [params["query"], *params["questions"]][:MAX_QUERIES]
        if params["reformulate"]:
            asked = llm.structured("researcher", Queries, [
                ("system", "You write web search queries. Return short, varied keyword queries."),
                ("human", f"These queries found nothing useful: {queries}. Topic: {ctx.topic}. "
                          f"Write up to {MAX_QUERIES} different queries."),
            ], task_id=params["task_id"])
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
        labelled = label_sources(passages)
        questions = "\n".join(f"- {q}" for q in [params["query"], *params["questions"]])
        notes = llm.structured("researcher", Notes, [
            ("system", "You are a careful researcher. Take notes ONLY from the passages given; each note "
                       "states one fact and names the label of the passage it comes from. Never use "
                       "outside knowledge. If no passage is about the questions, set off_topic. "
                       + language_rule(ctx.lang) + params["feedback"]),
            ("human", f"Questions:\n{questions}\n\nPassages:\n{sources_block(labelled)}"),
        ], task_id=params["task_id"])
        return {"passages": passages, "labelled": labelled, "notes": notes, "queries": queries}

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
        if not kept:
            code = StatusCode.WRONG_INFORMATION if notes.off_topic else StatusCode.INCOMPLETE_INFORMATION
            raise AgentError(code, f"the pages found for {params['query']!r} answer none of the questions",
                             "reformulate the queries")
        cited = list(dict.fromkeys(n.source for n in kept))
        return {
            "notes": [labelled[label].model_dump() for label in cited],
            "claims": [{"claim": n.claim, "source_id": labelled[n.source].source_id} for n in kept],
        }

