"""The browser agent: searches the configured corpora and returns research notes.

Notes are passages (``Passage.model_dump()`` dicts) that share at least one
content term with the task's focus. Outcomes:

* no passage at all → 605 INCOMPLETE_INFORMATION (recovery broadens the query);
* passages, none on the focus → 607 WRONG_INFORMATION;
* on-topic passages without one sentence a writer could quote → 606
  DEPENDENCY_INCOMPLETE_INFORMATION (the dependents could do nothing with them).
"""

from __future__ import annotations

from typing import Any

from reportgen.acp import StatusCode
from reportgen.agents.ranking import MIN_SENTENCE_CHARS, terms, writes_accents
from reportgen.agents.runtime import Brain, RunContext
from reportgen.blueprint.model import Task
from reportgen.errors import AgentError, ReportgenError
from reportgen.sources.models import Passage
from reportgen.sources.text import split_sentences

__all__ = ["BrowserBrain", "keep_to_sense"]

#: Passages searched per companion document (an encyclopedia summary is one to three).
COMPANION_PASSAGES = 5


class BrowserBrain(Brain):
    """Search + read over the run's search backend.

    Inputs: ``query`` (str, required), ``focus`` (str: the words a passage must
    touch, default the query), ``k`` (int, passages wanted, default 8),
    ``companions`` (titles of documents read whole besides, optional; the
    document the focus titles, the section's own, is read whole too),
    ``sense`` (titles of the subject's core documents: in a topic space, a
    passage unrelated to them is another sense of the word and is dropped,
    :func:`keep_to_sense`; optional).
    Outputs: ``notes`` (list of passage dicts, best first) and ``claims``
    (empty: the extractive writer quotes the notes themselves).
    """

    provides = ("search",)

    def build_request(
        self, task: Task, inputs: dict[str, Any], strategy: str, ctx: RunContext
    ) -> dict[str, Any]:
        query = inputs.get("query")
        if query is None:
            raise AgentError(StatusCode.MISSING_REQUIRED_PARAMETERS, "the search query is missing")
        if not isinstance(query, str) or not query.strip():
            raise AgentError(StatusCode.INVALID_PARAMETER_USAGE, "the search query must be non-empty text")
        k = inputs.get("k") or 8
        if not isinstance(k, int) or k < 1:
            raise AgentError(StatusCode.INVALID_PARAMETER_USAGE, f"k must be a positive integer, not {k!r}")
        focus = inputs.get("focus") or query
        if strategy == "broaden":
            # Broader retrieval: the topic joins the query, more passages, and
            # the focus widens to the topic's terms too.
            query = f"{query} {ctx.topic}"
            focus = f"{focus} {ctx.topic}"
            k *= 2
        companions = [str(t) for t in inputs.get("companions") or [] if str(t).strip()]
        sense = [str(t) for t in inputs.get("sense") or [] if str(t).strip()]
        return {"query": query.strip(), "focus": focus, "k": k, "companions": companions, "sense": sense,
                "subject": str(inputs.get("subject") or "")}

    def call(self, params: dict[str, Any], ctx: RunContext) -> list[Passage]:
        found = ctx.search.search(params["query"], k=params["k"])
        # a companion document is read whole, in its order; so is the section's own document, the one its focus
        # titles: "Buddhism Buddhism and Hinduism" had found Om, Saraswati and the swastika, which name both
        # religions, and not the article on Buddhism, whose section then never said what Buddhism is
        own = params.get("focus") or ""
        if own == params["query"]:  # searched as it is: its document came first
            own = ""
        for title in dict.fromkeys([own, *(params.get("companions") or [])]):
            if not title.strip():
                continue
            have = {p.text for p in found}
            found += [p for p in ctx.search.search(title, k=COMPANION_PASSAGES)
                      if p.title == title and p.text not in have]
        if params.get("sense"):
            found = keep_to_sense(found, params["sense"], ctx, params.get("subject") or "")
        return found

    def check_response(
        self, task: Task, params: dict[str, Any], raw: Any, ctx: RunContext
    ) -> dict[str, Any]:
        passages: list[Passage] = list(raw or [])
        if not passages:
            raise AgentError(
                StatusCode.INCOMPLETE_INFORMATION,
                f"no passage answers {params['query']!r}",
                "broaden the query",
            )
        focus = terms(params["focus"], ctx.lang)
        joined = set(params.get("companions") or [])
        on_topic = [p for p in passages if p.title in joined or focus & terms(f"{p.title} {p.text}", ctx.lang)]
        if not on_topic:
            raise AgentError(
                StatusCode.WRONG_INFORMATION,
                f"{len(passages)} passages came back for {params['query']!r}, none about it",
                "broaden the query",
            )
        quotable = [
            p for p in on_topic
            if any(len(s) >= MIN_SENTENCE_CHARS for s in split_sentences(p.text, ctx.lang))
        ]
        if not quotable:
            raise AgentError(
                StatusCode.DEPENDENCY_INCOMPLETE_INFORMATION,
                f"the passages found for {params['query']!r} hold no sentence a writer could quote",
                "broaden the query",
            )
        return {"notes": [p.model_dump() for p in quotable], "claims": []}


def keep_to_sense(found: list[Passage], sense: list[str], ctx: RunContext, subject: str = "") -> list[Passage]:
    """The passages in the sense of the subject's core documents (titled ``sense``).

    "Mars" finds the planet and the Roman god: the planner's core is the
    planet's article (:func:`reportgen.blueprint.planner.gather_themes`), so
    the god's passages, unrelated to it in the corpus's topic space, are
    dropped (:class:`~reportgen.blueprint.relevance.Relatedness` below its
    threshold, the one the planner keeps themes by; the core documents are
    searched by title when ``found`` lacks them), and so are the passages
    far nearer the word's other senses than to the core
    (:func:`~reportgen.blueprint.relevance.of_other_sense`: Steve Jobs beside
    the fruit). A passage writing an accented word of the subject only without
    its accents is another word, in any corpus (:func:`~reportgen.agents.ranking.writes_accents`:
    *Philosophical Transactions of the Royal Society* had closed a report on "thé"). Without a topic space
    (a corpus too small for one) or any core passage, nothing else is dropped.

    Args:
        found: Passages found, best first.
        sense: Titles of the core documents.
        ctx: The run context (its search backend offers the topic space).
        subject: The subject as the planner read it (default the topic).

    Returns:
        The passages of ``found`` in the core's sense, in their order.
    """
    from reportgen.blueprint.planner import PLAN_SEARCH_K
    from reportgen.blueprint.relevance import Relatedness, of_other_sense
    from reportgen.sources.index import topic_space

    found = [p for p in found if writes_accents(f"{p.title} {p.text}", subject or ctx.topic, ctx.lang)]
    space = topic_space(ctx.search)
    if space is None:
        return found
    core = [p for p in found if p.title in set(sense)]
    for title in [] if core else sense[:3]:  # the core's own passages, when the search did not bring them
        core += [p for p in ctx.search.search(title, k=5) if p.title == title]
    if not core:
        return found
    subject = subject or ctx.topic
    scorer = Relatedness([f"{p.title} {p.text}" for p in core], [], ctx.lang, subject=subject, space=space)
    texts = [f"{p.title} {p.text}" for p in found]
    # the other senses are judged among as many texts as the planner judges its candidates among
    # (PLAN_SEARCH_K), not the few found: in the eight overview passages on "Organ", *Pipe organ* was the
    # lone text of its sense, and a lone text is of none (of_other_sense), so "The pipe organ is a musical
    # instrument" had closed a report's introduction. Among 50, the music texts were still too few to make
    # a sense; from 100 on the flags no longer change.
    try:
        wider = ctx.search.search(subject, k=PLAN_SEARCH_K)
    except ReportgenError:  # a dead search engine: the found passages are judged among themselves
        wider = []
    found_texts = set(texts)
    context = [t for t in dict.fromkeys(f"{p.title} {p.text}" for p in wider) if t not in found_texts]
    other = of_other_sense([*texts, *context], scorer, subject, ctx.lang)[:len(texts)]
    return [p for p, score, of_other in zip(found, scorer.scores(texts), other, strict=True)
            if p.title in set(sense) or score >= scorer.threshold and not of_other]
