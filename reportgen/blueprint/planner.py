"""Planning without a model: the corpus decides the sections.

The embedded default when no language model is configured. From what the
corpora hold on the topic:

1. search the topic and keep passages that touch at least half of the topic's
   content terms (none → :class:`NoSourcesError`, never an empty report);
2. the document whose title *is* the topic feeds the introduction; the other
   documents, ranked by search score with a boost for being named in the
   topic's own article (Wikipedia summaries name their main sub-topics), give
   the section themes, one per document;
3. compile per section a ``research`` task (browser), a ``chart`` task (plot)
   and a ``write`` task (writer; its chart input is optional, so a dropped chart
   degrades the section instead of skipping it), plus an overview research
   task, and an introduction and a conclusion that depend on every section.
"""

from __future__ import annotations

import difflib
import math
import os
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from reportgen.agents.ranking import (
    a_name,
    about,
    another_thing,
    common_terms,
    compared_only,
    compounded_only,
    compounds,
    head_noun,
    in_longer_names_only,
    in_set_phrases_only,
    listed,
    mentions,
    names_subject,
    neighbours,
    never_small,
    of_its_own_kind,
    phrase_at,
    set_phrases,
    stem,
    subject_parts,
    terms,
    unnamed,
    unnamed_for,
    without_names,
    writes_accents,
    writes_phrase,
    written_subjects,
)
from reportgen.blueprint.model import Blueprint, Task, TaskInput, TaskStatus
from reportgen.blueprint.relevance import (
    SEMANTIC_SENSE_FLOOR,
    Relatedness,
    TopicSpace,
    of_other_sense,
    term_counts,
)
from reportgen.blueprint.request import (
    SETTING_LEAD,
    Request,
    asks_why,
    aspect_noun,
    is_aspect,
    is_cause,
    read_request,
    section_count,
    strip_article,
)
from reportgen.charts.numbers import _PRONOUNS, printed_years
from reportgen.config import RunOptions
from reportgen.errors import NoSourcesError
from reportgen.i18n import counted, join_list, labels
from reportgen.sources.index import topic_space
from reportgen.sources.local import is_local
from reportgen.sources.models import Passage, SearchBackend
from reportgen.sources.text import (
    american,
    bare_title,
    fold,
    plural,
    singular,
    split_sentences,
    stopwords,
    tokenize,
)

if TYPE_CHECKING:
    from reportgen.agents.registry import Registry

__all__ = [
    "choose_themes", "companion_themes", "compile_blueprint", "compound", "derived_forms", "explained", "gather_themes",
    "in_time_order", "one_sense", "plan_extractive", "resolve_subject", "section_keywords", "tells_history",
    "unanswered_note", "unnamed_each",
]

#: Passages a section's research reads (enough for a section of
#: :data:`~reportgen.agents.writer.BODY_SENTENCES` sentences from several sources).
SECTION_PASSAGES = 12
#: Passages read when choosing themes (many: one long document can fill dozens).
PLAN_SEARCH_K = 200
#: Boost (in units of the best search score) for a document named in the
#: topic's own article.
MENTION_BOOST = 0.5
#: Characters of a term compared when telling whether two themes overlap
#: ("hydro" in Hydropower / Hydroelectricity): a crude but language-neutral stem.
PREFIX_CHARS = 5


def _relevant(passages: list[Passage], topic: str, lang: str) -> tuple[list[Passage], list[Passage]]:
    """The passages on the topic: the *core* ones hold every content term of
    the topic (three quarters of them for topics of more than three terms),
    and the *linked* ones are documents a core passage names by title (a
    summary names its main sub-topics: "Renewable energy" names "wind power").

    Matching half the terms let "What are floating point numbers?" plan a
    report on the Cartesian plane; a corpus without the topic must end in
    "found no sources", never in a report on something else.
    """
    wanted = terms(topic, lang)
    need = len(wanted) if len(wanted) <= 3 else math.ceil(0.75 * len(wanted))
    core = [p for p in passages if len(wanted & terms(f"{p.title} {p.text}", lang)) >= need]
    if not core:
        return [], []
    named = " ".join(fold(p.text) for p in core)
    linked = [
        p for p in passages
        if p not in core and names_title(named, p.title)  # "Farm" is not in "wind farms"
        and wanted & terms(f"{p.title} {p.text}", lang)
    ]
    return core, linked


def choose_themes(
    topic: str, passages: list[Passage], count: int, lang: str
) -> tuple[Passage | None, list[Passage]]:
    """Pick the topic's own document and up to ``count`` section themes.

    Args:
        topic: The report topic.
        passages: Search results for the topic, best first.
        count: Themes wanted (>= 1).
        lang: Report language.

    Returns:
        ``(topic document or None, theme documents best first)``; one passage
        per document.
    """
    best: dict[str, Passage] = {}
    for p in passages:
        best.setdefault(p.source_id, p)
    docs = list(best.values())
    topic_key = fold(topic).strip(" ?!.")
    own = next((d for d in docs if fold(d.title) == topic_key), None)
    if own is None:
        topic_terms = terms(topic, lang)
        own = next((d for d in docs if terms(d.title, lang) == topic_terms), None)
    mention_text = fold(own.text) if own else ""
    top = max((d.score for d in docs), default=1.0) or 1.0
    scored = []
    for rank, d in enumerate(docs):
        if d is own:
            continue
        boost = MENTION_BOOST * top if fold(d.title) in mention_text else 0.0
        scored.append((-(d.score + boost), rank, d))
    scored.sort(key=lambda item: (item[0], item[1]))
    topic_terms = terms(topic, lang)
    chosen: list[Passage] = []
    for _, _, d in scored:
        if len(chosen) == count:
            break
        if terms(d.title, lang) <= topic_terms:
            continue  # "Energy" for "Renewable energy": broader than the topic, not a part of it
        if any(_overlapping(d.title, c.title, topic, lang) for c in chosen):
            continue  # "Solar power" after "Solar energy": the same theme twice
        chosen.append(d)
    return own, chosen


def _prefixes(title: str, topic: str, lang: str) -> set[str]:
    own = terms(title, lang) - terms(topic, lang)
    return {t[:PREFIX_CHARS] for t in (own or terms(title, lang))}


def _overlapping(a: str, b: str, topic: str, lang: str) -> bool:
    """Two themes overlap when the own terms (topic removed) of one, cut to
    :data:`PREFIX_CHARS`, are all among the other's: "Solar energy" / "Solar
    power" and "Hydropower" / "Hydroelectricity" overlap, "Wind power" /
    "Geothermal power" do not."""
    pa, pb = _prefixes(a, topic, lang), _prefixes(b, topic, lang)
    return (pa <= pb or pb <= pa) and not _kinds_apart(a, b, lang)


def _kinds_apart(a: str, b: str, lang: str) -> bool:
    """Whether two titles name two kinds of one thing: the same head noun
    (:func:`~reportgen.agents.ranking.head_noun`), each with a modifier the other lacks. "Solar energy" and
    "Renewable energy" are two kinds of energy, not one theme twice: in a report on solar power the second is
    a section of its own once the subject's words are set aside ("energy" alone was all the overlap rule saw).
    "Solar energy" / "Solar power" (two heads) and "Hydropower" / "Hydroelectricity" (one word each) are no
    kinds apart.

    Args:
        a: A theme title.
        b: Another theme title.
        lang: The language.

    Returns:
        True when both share a head noun and each adds a term the other lacks.
    """
    head_a, head_b = head_noun(bare_title(a), lang), head_noun(bare_title(b), lang)
    if not head_a or stem(head_a) != stem(head_b):
        return False
    ta, tb = terms(bare_title(a), lang), terms(bare_title(b), lang)
    return bool(ta - tb) and bool(tb - ta)


def section_keywords(theme: str, lang: str) -> list[str]:
    """The terms a sentence or a number must carry to belong to the section on ``theme``.

    Every term of the title (folded, stemmed; matched by prefix, see
    :func:`reportgen.agents.ranking.mentions`): a "Solar power" section quotes
    sentences about solar power, not any sentence that says "power", and its
    chart never shows geothermal numbers. A title's closing disambiguation in
    brackets is not a term: a sentence on "Fault (geology)" says "fault". A sentence from the theme's own
    article (its title holds every term) qualifies as it is.

    Args:
        theme: The section title.
        lang: Report language.

    Returns:
        Sorted terms.
    """
    plain = re.sub(r"\s*\([^()]*\)\s*$", "", theme).strip() or theme  # "Fault (geology)": the fault is the theme
    return sorted(terms(plain, lang))


def _render(value: Any, names: dict[str, Any]) -> Any:
    """A ``[plan]`` input value with ``{topic}``, ``{theme}``, ``{n}`` filled in; ``"{keywords}"`` is a list."""
    if value == "{keywords}":
        return names["keywords"]
    if isinstance(value, str):
        return value.format_map({k: v for k, v in names.items() if k != "keywords"})
    return value


def _planned_tasks(
    registry: Registry, topic: str, themes: list[str], keywords: list[list[str]], local_corpus: bool,
    tasks: list[Task],
) -> list[Task]:
    """Tasks of the agents that declare a ``[plan]`` (data, MCP tools, plugins), wired into their consumers."""
    added: list[Task] = []
    for spec in registry.planned_agents():
        plan = spec.plan
        assert plan is not None
        if "local_corpus" in plan.requires and not local_corpus:
            continue
        scopes = ([(n, theme, keywords[n - 1]) for n, theme in enumerate(themes, start=1)]
                  if plan.scope == "section" else [(0, topic, sorted({k for ks in keywords for k in ks}))])
        for n, theme, words in scopes:
            names = {"topic": topic, "theme": theme, "n": n, "keywords": words}
            task = Task(
                id=f"{spec.name}-{n}" if n else spec.name, agent=spec.name, kind=spec.kinds[0],
                section=f"s{n}" if n else None, aim=_render(plan.aim, names),
                inputs={k: TaskInput(value=_render(v, names)) for k, v in plan.inputs.items()},
                outputs=list(spec.outputs),
            )
            added.append(task)
            for feed in plan.feeds:
                for consumer in tasks:
                    if consumer.kind != feed.kind or (n and consumer.section != task.section):
                        continue
                    name, i = feed.input, 2
                    while name in consumer.inputs:  # a second feeder of the same input: extra_notes_2
                        name, i = f"{feed.input}_{i}", i + 1
                    consumer.inputs[name] = TaskInput(from_task=task.id, output=feed.output, optional=True)
    return added


def compile_blueprint(
    report_id: str,
    topic: str,
    themes: list[str],
    lang: str = "en",
    *,
    details: list[dict] | None = None,
    registry: Registry | None = None,
    local_corpus: bool = False,
    subject: str | None = None,
    sense: list[str] | None = None,
    held: str | None = None,
    charted: str | None = None,
) -> Blueprint:
    """Compile section themes into the execution blueprint.

    The agent of each task is the registered agent serving its kind
    (:meth:`Registry.agent_for <reportgen.agents.registry.Registry.agent_for>`),
    and the agents that declare a ``[plan]`` add their tasks and feed their
    outputs to the tasks they name. The blueprint is the same whatever brain
    each agent will run: research always yields ``notes`` and ``claims``.

    Args:
        report_id: The report id.
        topic: The report topic.
        themes: Section titles, in reading order.
        lang: Report language (for the sections' keywords).
        details: Per theme, the planner model's ``questions`` and
            ``chart_ideas`` (model planning), and the ``companions`` read with
            the theme's own document (:func:`companion_themes`).
        registry: The agent registry; default the one of the current settings.
        local_corpus: Whether the run searches a folder of the user's documents
            (agents whose ``[plan]`` requires it are planned only then).
        subject: What the request is about (:func:`~reportgen.blueprint.request.read_request`),
            searched instead of the request's full wording; default ``topic``.
        sense: Titles of the subject's core documents (:func:`gather_themes`):
            the overview research keeps to their sense ("Mars" the planet,
            not the god); default none (no such filter).
        held: The subject as the corpora hold it (:func:`held_subject`):
            what the tasks search and judge sentences by; default ``subject``
            (which stays the report's title).
        charted: The report's subject as a chart in a section on another theme must name it
            (:func:`charted_subject`: "Mountains in Chile"); default ``held``.

    Returns:
        A blueprint of ``1 + 3 x len(themes) + 2`` tasks, plus the planned agents' tasks.
    """
    if registry is None:
        from reportgen.agents.registry import load_registry
        from reportgen.config import get_settings

        registry = load_registry(get_settings())
    research, chart, writer = (registry.agent_for(k).name for k in ("research", "chart", "write"))
    subject = subject or topic
    read, subject = subject, held or subject  # the title's, and the one searched and judged by
    keywords = [section_keywords(theme, lang) for theme in themes]
    words = labels(lang)
    details = details or [{} for _ in themes]
    research_outputs = ["notes", "claims"]
    tasks = [
        Task(
            id="research-overview", agent=research, kind="research",
            aim=words["aim_overview"].format(topic=read),
            inputs={"query": TaskInput(value=subject), "k": TaskInput(value=8),
                    **({"sense": TaskInput(value=list(dict.fromkeys(sense))), "subject": TaskInput(value=subject)}
                       if sense else {})},
            outputs=research_outputs,
        )
    ]
    for n, theme in enumerate(themes, start=1):
        sid = f"s{n}"
        tasks += [
            Task(
                id=f"research-{n}", agent=research, kind="research", section=sid,
                aim=words["aim_research"].format(theme=theme, n=n),
                inputs={
                    "query": TaskInput(value=theme if terms(subject, lang) <= terms(theme, lang)
                                       else f"{theme} {subject}"),
                    "focus": TaskInput(value=theme),
                    "k": TaskInput(value=SECTION_PASSAGES),
                    "questions": TaskInput(value=list(details[n - 1].get("questions", []))),
                    "companions": TaskInput(value=list(details[n - 1].get("companions", []))),
                },
                outputs=research_outputs,
            ),
            Task(
                id=f"chart-{n}", agent=chart, kind="chart", section=sid,
                aim=words["aim_chart"].format(theme=theme),
                inputs={
                    "notes": TaskInput(from_task=f"research-{n}", output="notes"),
                    "subject": TaskInput(value=theme),
                    "report_subject": TaskInput(value=charted or subject),
                    "keywords": TaskInput(value=keywords[n - 1]),
                    "chart_ideas": TaskInput(value=list(details[n - 1].get("chart_ideas", []))),
                },
                outputs=["chart"],
            ),
            Task(
                id=f"write-{n}", agent=writer, kind="write", section=sid,
                aim=words["aim_write"].format(theme=theme),
                inputs={
                    "notes": TaskInput(from_task=f"research-{n}", output="notes"),
                    "chart": TaskInput(from_task=f"chart-{n}", output="chart", optional=True),
                    "title": TaskInput(value=theme),
                    "keywords": TaskInput(value=keywords[n - 1]),
                    "section_id": TaskInput(value=sid),
                    "claims": TaskInput(from_task=f"research-{n}", output="claims"),
                    "subject_notes": TaskInput(from_task="research-overview", output="notes", optional=True),
                    "subject": TaskInput(value=subject),
                    "companions": TaskInput(value=list(details[n - 1].get("companions", []))),
                },
                outputs=["section"],
            ),
        ]
    for kind in ("introduction", "conclusion"):
        tasks.append(
            Task(
                id=kind, agent=registry.agent_for(kind).name, kind=kind, section=kind,
                aim=words[f"aim_{kind}"],
                inputs={
                    "notes": TaskInput(from_task="research-overview", output="notes"),
                    "subject": TaskInput(value=subject),
                    # both keep to the core's sense when they search more ("Pitch": the field, not the note)
                    **({"sense": TaskInput(value=list(dict.fromkeys(sense)))} if sense else {}),
                    **{
                        f"section_{n}": TaskInput(from_task=f"write-{n}", output="section", optional=True)
                        for n in range(1, len(themes) + 1)
                    },
                },
                outputs=["section"],
            )
        )
    tasks += _planned_tasks(registry, subject, themes, keywords, local_corpus, tasks)
    return Blueprint(report_id=report_id, topic=topic, subject=read, tasks=with_other_sections(tasks))


def with_other_sections(tasks: list[Task]) -> list[Task]:
    """Give every section's writer the titles of the other sections (its input ``others``), so that it
    leaves their own articles to them: the report on the Internet had quoted *HTTP*'s article in an earlier
    section, and the section on HTTP was left with sentences on fibre optics and GPS. The planner and the
    plan review (:func:`reportgen.review.apply_plan`, after sections are renamed, added or removed) both
    call it.

    Args:
        tasks: The blueprint's tasks; the ``write`` tasks' ``title`` inputs name the sections.

    Returns:
        ``tasks``, each write task's ``others`` input set (changed in place).
    """
    writers = [t for t in tasks if t.kind == "write" and "title" in t.inputs]
    for task in writers:
        others = [str(t.inputs["title"].value) for t in writers if t is not task]
        task.inputs["others"] = TaskInput(value=list(dict.fromkeys(others)))
    return tasks


#: Weight of :func:`subject_density` in a theme's score in a topic space (relatedness is in [-1, 1]).
DENSITY_WEIGHT = 0.3
#: A theme related to the core by less than this in a topic space must name the subject in at least
#: :data:`PASSING_DENSITY` of its sentences (:func:`subject_density`, over the passages found of it): one
#: sentence in nine of "Kabul" says "urbanization" (0.30), where Seismology (0.26), Alexander Fleming (0.31)
#: and Plasmid (0.29) name their subjects in a quarter of theirs or more. Measured on the handed requests
#: (README, "Report quality"); not applied where a part's article stands for a subject the corpora never
#: write (its density is always 0).
LOOSE_RELATEDNESS = 0.35
#: See :data:`LOOSE_RELATEDNESS`.
PASSING_DENSITY = 0.2
#: Share of a candidate's sentences naming the subject (:func:`names_densely`) that makes it a theme under the
#: threshold, down to :data:`KIND_FLOOR`: a text that speaks of the subject in every other sentence is on it, though
#: the topic space puts it nearer something else. *Bobby Fischer* ("an American chess grandmaster and the eleventh
#: World Chess Champion") scores 0.17 to *Chess*, nearer the Cold War of his match. Twice the share over which a
#: loosely related text is no passing mention (:data:`PASSING_DENSITY`). Not where a part's article stands for the
#: subject (no text writes it).
DENSE_NAMING = 0.5
#: Fewest sentences naming the subject in such a text (:func:`names_densely`).
DENSE_SENTENCES = 2
#: Added to the score of a theme that names every subject of a two-subject request.
BOTH_SUBJECTS_BONUS = 0.3
#: Added to the score of a theme whose text holds every word of a subject of several words, over one named by
#: the subject's head noun alone (:func:`uncommon`): "Historia del Imperio inca" had Gengis Kan, Selim I and
#: Hernán Cortés (other empires) before Francisco Pizarro; "Steam engine" had Nicolaus Otto and Thermodynamic
#: cycle (engines, cycles) before Steamship. The head noun still names the subject, as "power" names it in
#: *Electricity generation* for "Solar power": such themes follow. Not for a subject a part's article stands for
#: (no passage writes it). As much as :data:`BOTH_SUBJECTS_BONUS`.
WHOLE_SUBJECT_BONUS = 0.3
#: Added, times the share of the request's aspects a theme names, to its score.
ASPECT_WEIGHT = 0.3
#: Added to the score of a theme titled as a kind of the subject (:func:`a_kind_of`): "Sharks" had Batomorphi,
#: Acanthodii, Sturgeon and Chimaera (relatives) as sections before Hammerhead shark and Whale shark, and the
#: Great white and Tiger sharks only as companions. As much as an aspect asked for (:data:`ASPECT_WEIGHT`).
KIND_BONUS = 0.3
#: Least relatedness of a dated event of the subject's kind (:func:`a_kind_of`, :func:`_dated`) to be a theme;
#: under the threshold, as a text on one event shares little vocabulary with the subject's own: the 1755 Lisbon
#: earthquake scores 0.19 to *Earthquake* (a city, its dead), the 1976 Tangshan earthquake 0.17, the 1556 Shaanxi
#: earthquake 0.11. :data:`~reportgen.blueprint.relevance.SEMANTIC_SENSE_FLOOR`: a wrong sense scores under it.
#: Only dated events: *Cosmic inflation*, titled as a kind of inflation, scores over it to the economists'.
KIND_FLOOR = SEMANTIC_SENSE_FLOOR
#: Added to the score of an aspect's own article that speaks of the subject ("Blue" in "Why is the sky
#: blue?": the topic space puts the colour far from the sky, 0.06, but its text says why the sky is blue):
#: it is a theme whatever its relatedness, and the first.
ANSWER_BONUS = 1.0
#: Most sections the answering articles lead a report with (:func:`gather_themes`), best scored first: half the
#: default six, so the subject keeps sections of its own.
MAX_ANSWERS = 3


#: Least rarity (:meth:`~reportgen.blueprint.relevance.TopicSpace.rarity`, an inverse document frequency) of
#: a word that names a subject of several words alone: under it a word is in more than about one document in
#: 33 (``ln 33 + 1``, 4.5) — "great" (4.2), "power" (4.4), "united" (4.0), "history" (3.8); not "energy" (4.8),
#: "reef" (7.7).
COMMON_RARITY = 4.5


def uncommon(subject: str, lang: str, space: TopicSpace | None) -> set[str]:
    """The terms of a subject of several words that name it in a candidate: its head noun's, and its other
    words not common in the corpus.

    "Great Barrier Reef" had sections on the Great Artesian Basin and Great Britain, named by "great", a
    word of one document in 20 that names many things. A word before the head noun
    (:func:`~reportgen.agents.ranking.head_noun`) under :data:`COMMON_RARITY` does not name the subject
    alone; its head noun ("reef") and rarer words ("barrier") do. The head noun always names it: "Solar
    power" keeps *Electricity generation* and *Electrical grid* (a rule on every common word lost them and
    drew *Interplanetary medium* through "solar"); another thing of its kind is left out by :func:`_sibling`.

    Args:
        subject: One subject with an article of its own.
        lang: Its language.
        space: The corpus's topic space (without one, every term names it).

    Returns:
        The stemmed terms; all of the subject's when it has one term.
    """
    wanted = terms(subject, lang)
    if space is None or len(wanted) < 2:
        return wanted
    head = terms(head_noun(subject, lang), lang) & wanted
    return head | {t for t in wanted - head if space.rarity(t) >= COMMON_RARITY}


def distinctive(subject: str, lang: str, space: TopicSpace | None = None) -> set[str]:
    """The terms of a subject that name it in a candidate: all but its head noun's, for a subject of two
    or more terms.

    A text that writes only the head noun (:func:`~reportgen.agents.ranking.head_noun`) of "Battle of
    Hastings", "Food security" or "Solar power" names another thing of its kind: Alaric I's battle of
    Adrianople, national security, hydropower. A word of its own ("Hastings", "food", "solar") or the
    subject as a whole names it. A subject of one term is named by that term. In a topic space the other
    words must each be rarer in the corpus than the head noun (:meth:`TopicSpace.rarity`), as a name
    is rarer than its kind; otherwise the head noun was misread ("urban to suburban living" is headed by
    "living", not by "urban", the word before "to") and every term names the subject.

    Args:
        subject: One subject as the request gives it.
        lang: Its language.
        space: The corpus's topic space, if any.

    Returns:
        The stemmed terms (:func:`~reportgen.agents.ranking.terms`); all of the subject's when it has one
        term or the head noun is in doubt.
    """
    wanted = terms(subject, lang)
    head = terms(head_noun(subject, lang), lang) & wanted
    rest = wanted - head
    if len(wanted) < 2 or not head or not rest:
        return wanted
    if space is not None and min(space.rarity(t) for t in rest) <= max(space.rarity(t) for t in head):
        return wanted
    return rest


def proper_name(subject: str, core: list[Passage], lang: str) -> bool:
    """Whether a subject of several words is a proper name: its own article's title, in the encyclopedia's
    sentence case, capitalises a word after the first ("Black Death", "Roman Empire", "Great Barrier Reef";
    not "Solar power"). French and Spanish titles write "Révolution française", "Imperio incaico": there the
    article says it, writing the name's first word with a capital inside its sentences (:func:`_written_as_name`).

    A proper name's head noun is no name of it: "death" had drawn Gangrene, Tuberculosis and the health
    effects of smoking into a report on the Black Death (:func:`gather_themes` takes only candidates that write
    the name).

    Args:
        subject: One subject of the request.
        core: The subjects' core passages (its own article among them, or not).
        lang: The language.

    Returns:
        True for a proper name with an article of its own.
    """
    wanted = terms(subject, lang)
    own = next((p for p in core if terms(p.title, lang) == wanted), None)
    words = bare_title(own.title).split() if own is not None else []
    if own is None or len(wanted) < 2 or len(words) < 2:
        return False
    return any(w[:1].isupper() for w in words[1:]) or lang in ("fr", "es") and _written_as_name(words, own.text)


def _written_as_name(words: list[str], text: str) -> bool:
    """Whether a text writes a title of several words (French or Spanish, in sentence case) as a name: its first
    word with a capital inside its sentences, after an article ("La Révolution française (1789-1799) est …", "la
    Segunda Guerra Mundial fue …"), and never with a small letter ("La guerra civil española" is no name: the
    Spanish encyclopedia writes it so).

    Args:
        words: The title's words.
        text: The title's own article.

    Returns:
        True when every mention of the title inside a sentence capitalises its first word, and there is one.
    """
    tokens = [w.casefold() for w in words]
    capital = small = 0
    for sentence in split_sentences(text):
        written = re.findall(r"[^\W\d_]+", sentence)
        for at in range(1, len(written) - len(tokens) + 1):
            if [w.casefold() for w in written[at:at + len(tokens)]] == tokens:
                capital += written[at][:1].isupper()
                small += written[at][:1].islower()
    return capital > 0 and small == 0


#: A title naming an aspect of a name: "Economy of China", "History of Japan", "Historia de México".
_OF_A_NAME = re.compile(r"^[^\W\d_]+\s+(?:of|de|du|des|del|de\s+la)\s+(?:the\s+|la\s+|le\s+|l['’])?(?P<name>\S.*)$")


def _name_of(subject: str, core: list[Passage], lang: str) -> str:
    """The name a subject titled "<word> of <name>" (:data:`_OF_A_NAME`) is of, as its own article's title writes
    it: "México" of *Historia de México*, "Cent Ans" of *Guerre de Cent Ans*; ``""`` when it is not so titled."""
    wanted = terms(subject, lang)
    own = next((bare_title(p.title) for p in core if terms(p.title, lang) == wanted), "")
    found = _OF_A_NAME.match(own)
    return found.group("name") if found else ""


def _of_a_name(subject: str, core: list[Passage], lang: str) -> bool:
    """Whether a subject that is a proper name (:func:`proper_name`) is titled "<word> of <name>" (:data:`_OF_A_NAME`):
    an aspect of a place or a people, whose texts write the name without the aspect's word ("Battle of Hastings"
    too, which :func:`gather_themes` reads so only when the whole name leaves it fewer than half its themes)."""
    return bool(_name_of(subject, core, lang))


def _own_article(subject: str, core: list[Passage], lang: str) -> bool:
    """Whether the core holds the subject's own article: a passage titled with exactly its terms."""
    wanted = terms(subject, lang)
    return any(terms(p.title, lang) == wanted for p in core)


def subject_density(text: str, request: Request, lang: str, derived: frozenset[str] = frozenset(),
                    thing: bool = False) -> float:
    """Share of a text's sentences that name the subject (every term of one subject, or an acronym).

    "1755 Lisbon earthquake" says "earthquake" in most sentences; "Earth"
    says it once: of two related documents, the one about the subject makes
    the better section. A sentence writing the subject only as one item of a long list
    (:func:`~reportgen.agents.ranking.listed`) does not name it: *Kaziranga National Park*'s "Indian
    rhinoceros, Asian elephant, wild water buffalo, swamp deer, tiger and fishing cat" is a passing mention.
    (Not counting compounds the subject's texts never write as well, "tall elephant grass", was tried and
    dropped: it lost *Wi-Fi*'s "Internet access" from the Internet and *Alexander Fleming* from antibiotics.)

    Args:
        text: A document's text.
        request: The read request.
        lang: Its language.
        derived: Words made from the subject that name it too (:func:`derived_forms`: "volcanic").
        thing: Whether a history is named by what it is the history of (:func:`naming_sentences`).

    Returns:
        A share in [0, 1].
    """
    sentences = split_sentences(text, lang) or [text]
    return naming_sentences(sentences, request, lang, derived, thing) / len(sentences)


def naming_sentences(sentences: list[str], request: Request, lang: str,
                     derived: frozenset[str] = frozenset(), thing: bool = False) -> int:
    """How many sentences name the subject, as :func:`subject_density` counts them.

    Args:
        sentences: The sentences of a text.
        request: The read request.
        lang: Its language.
        derived: Words made from the subject that name it too (:func:`derived_forms`).
        thing: Whether a history is named by what it is the history of (:func:`_named_by`), as
            :func:`gather_themes` reads it when its whole title leaves it too few themes.

    Returns:
        The count, in ``[0, len(sentences)]``.
    """
    wanted = [_named_by(s, lang) if thing else terms(s, lang) for s in request.subjects] \
        + [{a.lower()} for a in request.acronyms]
    return sum((any(w and w <= held for w in wanted) or bool(derived & held)) and not _listed_each(x, request, lang)
               for x in sentences for held in [terms(x, lang)])


def _named_by(subject: str, lang: str) -> set[str]:
    """The terms a sentence writes to name a subject (:func:`naming_sentences` with ``thing``): all of its own,
    but a history's (:data:`HISTORY_TITLE`) those of what it is the history of: "La conquista de México" is on the
    *Historia de México* without writing "historia" (the Spanish histories, whose articles are one sentence
    long, had had no section at all, every candidate read as a passing mention). Only where the whole title
    leaves too few themes: read so always, "Histoire de l'Allemagne" had traded *Empire allemand* for *Dresde*
    and *Stuttgart* (a blind reader's find)."""
    history = terms(_history_word(lang), lang)
    own = terms(subject, lang)
    return own - history if fold(subject).startswith(f"{_history_word(lang)} ") and own - history else own


#: Passages searched for each word made from a one-word subject (:func:`derived_forms`), as many as for an
#: aspect's article (the search of ``subject aspect`` takes 30); 40 found *Tuff* ("volcanic ash") for volcanoes.
DERIVED_SEARCH_K = 40

#: Words made from the subject searched, the commonest in its core first.
DERIVED_SEARCHED = 3


def derived_forms(subject: str, core: list[Passage], lang: str) -> frozenset[str]:
    """The words the subject's own core writes that are made from a one-word subject
    (:func:`~reportgen.agents.ranking.mentions`, not the word itself): "volcanic" and "volcanism" in the
    Volcano article. A text writing "volcanic ash" and never "volcano" (*Tuff*) is on the subject; the search
    for the subject never finds it, and the count of sentences naming the subject took it for a passing
    mention. Only words the core writes: the Inflation article never writes "inflationary", so *Cosmic
    inflation*'s "inflationary epoch" does not name economic inflation.

    Args:
        subject: The request's one subject.
        core: Its core passages.
        lang: The language.

    Returns:
        Folded, stemmed terms (:func:`~reportgen.agents.ranking.terms`); empty for a subject of several
        words or without an article of its own.
    """
    wanted = terms(subject, lang)
    if len(wanted) != 1 or not _own_article(subject, core, lang):
        return frozenset()
    (term,) = wanted
    held = terms(" ".join(p.text for p in core), lang)
    return frozenset(t for t in held if t != term and mentions({t}, term))


def only_listed(text: str, request: Request, lang: str) -> bool:
    """Whether every sentence of a text that writes the subject writes it as one item of a list
    (:func:`~reportgen.agents.ranking.listed`).

    Such a text mentions the subject in passing however near it stands in the topic space: *Cinnamon* (0.70 to
    *Chocolate*) flavours "biscuits, breakfast cereals, snack foods, bagels, teas, hot chocolate, and traditional
    foods"; *Kitchen* (0.55 to *Refrigerator*) holds "a stove, a sink …, a refrigerator, and worktops"; *Fascism*
    is "Opposed to communism, democracy, liberalism, pluralism, and socialism". A text that names the subject
    otherwise, or by a word made from it (:func:`~reportgen.agents.ranking.mentions`: "socialist" in *Social
    democracy*, "refrigeration" in *Refrigeration*), is not such a text. The class the subject's own article
    defines it as lists its members and is no passing mention (:func:`defined_as`: *Planet*'s "the terrestrial
    planets Mercury, Venus, Earth, and Mars"): :func:`gather_themes` keeps it, and a text the subject's core
    names by an uncommon word (:func:`_named_rarely`: *Camellia*, whose "ornamental, tea, and woody-oil plants"
    the Tea article's "leaves of *Camellia sinensis*" makes more than a passing mention). A history's subject is
    what it is the history of (:func:`_history_thing`): *Dynamical system*, applied to "economics, history, and
    medicine", had been a section of the *History of medicine*, holding both its words.

    Args:
        text: A document's text (the passages found of it).
        request: The read request.
        lang: Its language.

    Returns:
        True when the text writes the subject, and only in lists.
    """
    things = [_history_thing(s, lang) for s in request.subjects]
    request = replace(request, subjects=things) if things != request.subjects else request
    wanted = [sorted(terms(s, lang)) for s in request.subjects] + [[a.lower()] for a in request.acronyms]
    mentioning = [x for x in split_sentences(text, lang) or [text] if any(w and about(x, w, lang) for w in wanted)]
    return bool(mentioning) and all(_listed_each(x, request, lang) for x in mentioning)


def _history_thing(subject: str, lang: str) -> str:
    """What a history's title (:data:`HISTORY_TITLE`) is the history of when that is a common noun ("medicine"
    for *History of medicine*); any other subject itself. A place listed among others is still on its history
    (*Alexander the Great* conquered "Persia, Egypt, …"), a field listed among fields is not."""
    opening = HISTORY_TITLE.get(lang, HISTORY_TITLE["en"]).split("{}")[0]
    rest = subject[len(opening):].strip()
    return rest if fold(subject[:len(opening)]) == fold(opening) and rest[:1].islower() else subject


def _listed_each(sentence: str, request: Request, lang: str) -> bool:
    """Whether a sentence writes each subject it mentions only as an item of a list
    (:func:`~reportgen.agents.ranking.listed`): with two subjects, each is judged alone ("Natural predators of
    adult African buffaloes include lions, African wild dogs, spotted hyenas, and Nile crocodiles" lists
    crocodiles in a report on crocodiles and alligators; the phrase "crocodiles and alligators", which no
    sentence writes, had been looked for)."""
    mentioned = [x for x in request.subjects if about(sentence, sorted(terms(x, lang)), lang)] or [request.subject]
    return all(listed(sentence, x, lang) for x in mentioned)


def for_each_subject(text: str, request: Request, lang: str, rule: Callable[[str], bool]) -> bool:
    """Whether a rule on one subject holds of a candidate for every subject of the request it names.

    The rules on a one-word subject (:func:`~reportgen.agents.ranking.of_its_own_kind`, :func:`_in_compounds`)
    read a request on two subjects as one phrase ("crocodiles and alligators") and never applied: *Alligator
    snapping turtle* ("the alligator snapping turtle", a turtle named after the alligator) stood in a report
    comparing crocodiles and alligators.

    Args:
        text: The candidate's text.
        request: The read request.
        lang: Its language.
        rule: The rule, given one subject.

    Returns:
        ``rule(request.subject)`` for one subject; for two, whether the text names one of them and the rule
        holds for each it names.
    """
    if len(request.subjects) < 2:
        return rule(request.subject)
    held = terms(text, lang)
    named = [x for x in request.subjects if terms(x, lang) <= held]
    return bool(named) and all(rule(x) for x in named)


def names_densely(text: str, request: Request, lang: str, derived: frozenset[str] = frozenset()) -> bool:
    """Whether a text names the subject in at least :data:`DENSE_NAMING` of its sentences, and in at least
    :data:`DENSE_SENTENCES` of them (the passage found of *Asmara* is two sentences, one on its "rapid
    urbanization": a city that urbanized once, not a text on urbanization).

    Args:
        text: A document's text (the passages found of it).
        request: The read request.
        lang: Its language.
        derived: Words made from the subject that name it too (:func:`derived_forms`).

    Returns:
        True when the text is densely on the subject.
    """
    sentences = split_sentences(text, lang) or [text]
    hits = naming_sentences(sentences, request, lang, derived)
    return hits >= DENSE_SENTENCES and hits >= DENSE_NAMING * len(sentences)


#: Core passages kept when the subject has no document of its own (the densest in the subject's terms).
CORE_PASSAGES = 5


def _a_sense_of(title: str, subject: str) -> bool:
    """Whether ``title`` is the subject's word with a sense in brackets ("Mercury (planet)" for "Mercury")."""
    folded = fold(title)
    return folded.startswith(f"{fold(subject).strip()} (") and folded.endswith(")")


def _main_sense(holding: list[Passage], subject: str, space: TopicSpace | None,
                near: list[Passage] | None = None) -> list[Passage]:
    """The document of the word's main sense, when the corpus holds only disambiguated ones.

    "Mercury" has no article of its own but "Mercury (planet)" and "Mercury
    (element)": a report keeps to one sense, the one most of the passages
    naming the word are about — each passage votes for the sense document it
    is nearest in the topic space (without a space, the search's first). Beside another subject (``near``, its
    core) the sense is the one nearest that, when one is at least :data:`SAME_SENSE` near it, as passages of one
    sense are ("Mercury and Venus").

    Returns:
        The main sense's passages, or ``[]`` when no title is "<subject> (...)".
    """
    senses: dict[str, list[Passage]] = {}
    for p in holding:
        if _a_sense_of(p.title, subject):
            senses.setdefault(p.source_id, []).append(p)
    if not senses:
        return []
    order = list(senses)
    if space is None or len(order) == 1:
        return senses[order[0]]
    sense_vectors = space.vectors([" ".join(f"{q.title} {q.text}" for q in senses[sid]) for sid in order])
    if near:
        nearness = (sense_vectors @ space.vectors([" ".join(f"{q.title} {q.text}" for q in near)]).T)[:, 0]
        if float(nearness.max()) >= SAME_SENSE:
            return senses[order[int(nearness.argmax())]]
    others = [p for p in holding if p.source_id not in senses]
    if not others:
        return senses[order[0]]
    votes = (space.vectors([f"{p.title} {p.text}" for p in others]) @ sense_vectors.T).argmax(axis=1)
    counts = [int((votes == i).sum()) for i in range(len(order))]
    return senses[order[max(range(len(order)), key=lambda i: (counts[i], -i))]]


#: A name of two or more capitalised words ("South America", "New Zealand", "Costa Rica"), as :func:`_core` reads
#: it in a subject.
_NAME_RUN = re.compile(r"\b[A-ZÀ-Þ][^\W\d_]+(?:\s+[A-ZÀ-Þ][^\W\d_]+)+")


def _core(
    holding: list[Passage], subject: str, lang: str, space: TopicSpace | None = None, phrase: bool = True,
    near: list[Passage] | None = None,
) -> list[Passage]:
    """The subject's core: its own document when the corpus has one, else the passages densest in its terms.

    Every passage that merely mentions "tea" holds the subject's one term, so
    "holding every term" alone made Chittagong (a tea port) part of the core of
    "Tea"; the core is what the subject's vocabulary is learnt from. A word
    with only disambiguated articles takes its main sense's
    (:func:`_main_sense`).

    A subject of two or three words that no passage writes as a phrase, in
    any inflection (:func:`~reportgen.agents.ranking.writes_phrase`), has no
    passage about it and so no core (``[]``) when ``phrase`` is set:
    "Cluster munition" holds "electric" (power lines) and "vehicles" (that it
    destroys), and the passages nearest both words in the topic space, the
    earlier rule, were Aircraft engine and Cluster munition. The request then
    takes the aspect core (:func:`_aspect_core`, which unsets ``phrase``)
    or is answered with the closest subjects the corpora hold; when some do,
    the core is theirs ("food security" is not National security's "food"
    and "security" apart). A longer
    subject ("building resilient healthcare supply chains") keeps the
    densest passages.

    A name of several capitalised words in the subject (:data:`_NAME_RUN`: "South America") is written whole
    by the passages the core is chosen from, when any writes it.

    Beside another subject of the request (``near``, its core; ``holding`` then the passages near it,
    :func:`_beside_each_other`), of disambiguated articles the one nearest it (:func:`_main_sense`): "sharks and
    rays" had taken *X-ray* for the rays.
    """
    wanted = terms(subject, lang)
    own = [p for p in holding if terms(p.title, lang) == wanted]
    # of titles folded alike, the one written as asked: "blues" is *Blues*, not *Blue* (the colour had closed a
    # report on jazz and blues, a reader's find); "dogs" still has *Dog*
    as_asked = [p for p in own if fold(bare_title(p.title)) == fold(subject)]
    if as_asked:
        return as_asked
    if own:
        return own
    sense = _main_sense(holding, subject, space, near)
    if sense:
        return sense
    # a name of several capitalised words in the subject is written whole: "Rivers of South America" is not the
    # Columbia River's, whose article writes "then south" and "North America" (it had opened that report)
    names = _NAME_RUN.findall(subject)
    holding = [p for p in holding if all(writes_phrase(f"{p.title} {p.text}", n) for n in names)] or holding
    if phrase and compound(subject, lang):
        writing = [p for p in holding if writes_phrase(f"{p.title} {p.text}", subject)]
        if not writing:
            return []
        holding = writing  # "food security" is the passages that write it, not National security's "food"

    def density(p: Passage) -> float:
        counts = term_counts(f"{p.title} {p.text}", lang)
        return sum(counts[t] for t in wanted) / (1 + sum(counts.values()))

    return one_sense(sorted(holding, key=density, reverse=True)[:CORE_PASSAGES], space)


#: Least sentences of a subject's core that write it, when no core passage is titled with it, for the core to
#: stand for the subject. In the encyclopedias "Quantum computing" is written once, in *Google*, "Blockchain"
#: once, in *Chain*, and "cambio climático" once, in *Mar Muerto*: the reports drawn from them were on
#: Google, on chains and on the Dead Sea. "Heat pumps" is written in 5 sentences of 4 articles on cooling,
#: "food security" in 2.
MIN_SUBJECT_SENTENCES = 2


def _in_passing(core: list[Passage], subject: str, lang: str) -> bool:
    """Whether a subject's core only mentions it in passing: no core passage is titled with every subject
    term (its own article, or a sense of it: "Mercury (planet)") or with its head noun (*Machine learning*,
    which writes "deep learning" once, is on the field of "Deep learning") or is one of the user's own
    documents (:func:`~reportgen.sources.local.is_local`: a folder given with ``--corpus`` is read however
    little it says), and fewer than
    :data:`MIN_SUBJECT_SENTENCES` of the core's sentences write the subject (as a phrase when it is a
    :func:`compound`, else with every term). The subject is then not held as such: the article of a part of it
    may stand for it (:func:`_part_article`), or the request is answered with the closest subjects.

    Args:
        core: The subject's core passages (:func:`_core`).
        subject: The subject as read.
        lang: Its language.

    Returns:
        True when the core holds the subject only in passing (``False`` for an empty core).
    """
    wanted = terms(subject, lang)
    head = terms(head_noun(subject, lang), lang)
    if not core or not wanted or any(wanted <= terms(p.title, lang) or head and head <= terms(p.title, lang)
                                     or is_local(p.source_id) for p in core):
        return False
    phrase = compound(subject, lang)
    written = sum(writes_phrase(x, subject) if phrase else wanted <= terms(x, lang)
                  for p in {(q.source_id, q.text): q for q in core}.values()
                  for x in split_sentences(p.text, lang) or [p.text])
    return written < MIN_SUBJECT_SENTENCES


#: Least similarity, in the topic space, of a core passage to the first for both to be in one sense.
SAME_SENSE = 0.3


def one_sense(core: list[Passage], space: TopicSpace | None) -> list[Passage]:
    """The core passages of one sense: "Bass" is the instrument or the fish, not both.

    The anchor is the passage most of the others are similar to (at least
    :data:`SAME_SENSE` in the topic space; ties go to the better ranked), and
    the passages similar to it are kept: the sense most of the core is in.

    Args:
        core: Core passages, best first.
        space: The corpus's topic space; without one ``core`` is kept whole.

    Returns:
        The anchor and the passages similar to it, in their order.
    """
    if space is None or len(core) < 2:
        return core
    vectors = space.vectors([f"{p.title} {p.text}" for p in core])
    similar = (vectors @ vectors.T) >= SAME_SENSE
    anchor = max(range(len(core)), key=lambda i: (int(similar[i].sum()), -i))
    return [p for i, p in enumerate(core) if similar[anchor, i] or i == anchor]


def _beside_each_other(request: Request, cores: dict[str, list[Passage]],
                       held: dict[str, tuple[list[Passage], bool]], lang: str,
                       space: TopicSpace | None) -> tuple[dict[str, list[Passage]], set[str]]:
    """The cores of a request's two subjects, each of a word without an article titled by it alone read again in
    the sense nearest the other's core (:func:`_core` with ``near``), and the passages holding it in another sense.

    "sharks and rays" had taken *X-ray* for the rays and drawn it as a section, "bass and trout" *Double bass*:
    the fishes are the passages near the other subject (:func:`_near_passages`). "Mercury and Venus" keeps
    *Mercury (planet)* and loses *Mercury (element)* and *Amalgam (chemistry)*. A subject titled as asked keeps its
    article ("Jaguar and leopard").

    Args:
        request: The resolved request.
        cores: Each subject's core as read alone, by subject (acronyms too).
        held: Each subject's passages holding it and whether it is read as a phrase (:func:`_core`).
        lang: Report language.
        space: The corpus's topic space; without one ``cores`` is returned as is.

    Returns:
        ``cores``, or a copy with a subject's core read again; and the source ids of the passages holding a subject
        read again that are not near the other (no candidate section).
    """
    far: set[str] = set()
    if space is None or len(request.subjects) != 2 or not all(cores.get(s) for s in request.subjects):
        return cores, far
    again = dict(cores)
    for subject, other in (request.subjects, request.subjects[::-1]):
        asked = {fold(subject), fold(singular(subject, lang))}
        if subject not in held or any(fold(p.title) in asked for p in cores[subject]):
            continue  # its own article as asked: "Jaguar" beside "leopard" (not *X-ray* for "rays")
        holding, phrase = held[subject]
        near = _near_passages(holding, cores[other], space)
        read = _core(near, subject, lang, space, phrase=phrase, near=cores[other]) if near else []
        if not read or _in_passing(read, subject, lang):
            continue
        # read in another sense, or in the one sense of a word the corpora title in several ("Mercury (planet)")
        if {p.source_id for p in read} != {p.source_id for p in cores[subject]} \
                or any(bare_title(p.title) != p.title for p in read):
            again[subject] = read
            kept = {p.source_id for p in near} | {p.source_id for p in cores[other]}
            far |= {p.source_id for p in holding} - kept
    return again, far


def _near_passages(holding: list[Passage], near: list[Passage] | None, space: TopicSpace | None) -> list[Passage]:
    """The passages of ``holding`` at least :data:`SAME_SENSE` near the core ``near`` of a request's other subject
    in the topic space (as near as passages of one sense are), in their order: the fishes among the texts writing
    "rays" beside sharks (0.37 to 0.51), not *X-ray* (0.12) or *Gamma ray* (0.19). ``[]`` without a space or
    another subject's core."""
    if space is None or not near or not holding:
        return []
    nearness = (space.vectors([f"{p.title} {p.text}" for p in holding])
                @ space.vectors([" ".join(f"{q.title} {q.text}" for q in near)]).T)[:, 0]
    return [p for p, x in zip(holding, nearness, strict=True) if x >= SAME_SENSE]


def _core_terms(subject: str, found: list[Passage], lang: str) -> str:
    """The subject's terms the corpus holds, when no passage holds all of them ("" when that is no subject).

    Only for subjects of three or more terms, keeping at least two: "resilient
    healthcare supply chains" without "resilient" is still a subject; a short
    subject missing a term is a different subject ("found no sources").
    """
    wanted = terms(subject, lang)
    if len(wanted) < 3:  # "../../etc/passwd" holding "etc" is not a subject
        return ""
    df = {t: sum(t in terms(f"{p.title} {p.text}", lang) for p in found) for t in wanted}
    held = [t for t in sorted(wanted, key=lambda t: df[t]) if df[t] > 0]
    return " ".join(held) if len(held) >= 2 and len(held) < len(wanted) else ""


def compound(subject: str, lang: str, most: int = 3) -> bool:
    """Whether ``subject`` is a compound of two to ``most`` words (three by default), every one a content term
    ("electric vehicle", "human heart"): the subjects that are no subject when never written side by side
    (:func:`_core`). "Climate change in Africa" or "Electricity from wind turbines" are rarely written
    word for word, and keep the passages densest in their terms.
    """
    tokens = tokenize(subject)
    stop = stopwords(lang)
    return 1 < len(tokens) <= most and len(terms(subject, lang)) == len(tokens) and not any(t in stop for t in tokens)


#: Most words of a subject of a longer request whose most specific part's article may stand for it
#: (:func:`_part_article` with ``named`` unset): "the global semiconductor supply chain and its geopolitical risks"
#: had been planned on the aspect alone (*Nuclear weapon*, *Endangered species*, *Flood*).
UNNAMED_PART_WORDS = 4


def _part_article(subject: str, search: SearchBackend, lang: str, named: bool = True) -> list[Passage]:
    """The own article of a part of the subject that names the rest, for a subject no passage writes.

    "Human heart" is never written side by side, but the article "Heart"
    speaks of humans; "Tidal power energy" is never written, but "Tidal
    power" speaks of energy: that article is the core (and the report says at
    the top that the corpora hold no text on the subject as such,
    :func:`thin_note`). The article "Vehicle" never says "electric", so
    "electric vehicle" has none. The longest part is tried first. Only for
    subjects of two or three terms (:func:`_core`'s rule).

    Args:
        subject: The subject as read.
        search: The search backend.
        lang: Its language.
        named: Whether the article must name the rest. Unset for a subject
            that is not the whole request (it has aspects, or is one of two
            subjects: "the effect of sleep deprivation on memory"): then the
            most specific part with an article of its own is taken, the one
            the fewest passages hold ("Sleep", not a broader "Production"
            for "coffee production"), and of parts more passages hold than a
            search returns, the rarest in the topic space ("Tea", not the
            colour, for the health benefits of green tea: both had returned
            :data:`PLAN_SEARCH_K` passages, and the first, *Green*, had been
            taken).

    Returns:
        The article's passages, or ``[]``.
    """
    wanted = terms(subject, lang)
    words = subject.split()
    if not compound(subject, lang) and (named or not compound(subject, lang, most=UNNAMED_PART_WORDS)):
        return []  # "global semiconductor supply chain" and its risks: *Semiconductor* (had been *Nuclear weapon*)
    unnamed: list[tuple[int, float, list[Passage]]] = []
    space = topic_space(search)
    for n in range(len(words) - 1, 0, -1):
        for i in range(len(words) - n + 1):
            part = " ".join(words[i:i + n])
            if not terms(part, lang) <= wanted:  # stop words only
                continue
            found = search.search(part, k=PLAN_SEARCH_K)
            own = [p for p in found[:10] if terms(p.title, lang) == terms(part, lang)]
            if own and wanted <= terms(" ".join(f"{p.title} {p.text}" for p in own), lang):
                return own
            if own:
                rarest = max((space.rarity(t) for t in terms(part, lang)), default=0.0) if space is not None else 0.0
                unnamed.append((len(found), -rarest, own))
    if named or not unnamed:
        return []
    return min(unnamed, key=lambda item: item[:2])[2]


def _qualified_article(subject: str, search: SearchBackend, lang: str, space: TopicSpace | None) -> list[Passage]:
    """The own article of what a common word qualifies, for a subject no passage writes: "human immune
    system" is the *Immune system* ("human" is in one document in 16 of the encyclopedia, under
    :data:`COMMON_RARITY`; the request had been answered with "found no sources"), and "Type 2 diabetes" the
    *Diabetes* (the qualifier may be several common words or numbers, shortest first). "Electric vehicle" is not
    the *Vehicle*: "electric" is rarer, a kind that the vehicle's article does not speak of
    (:func:`_part_article`). The qualifier is the first word in English, the last in French and Spanish
    ("système immunitaire humain"); the report says at the top that the corpora hold no text on the subject as
    such (:func:`thin_note`).

    Args:
        subject: A subject of two or three words (:func:`compound`) no passage writes.
        search: The search backend.
        lang: Its language.
        space: The corpus's topic space (without one, no word is known to be common).

    Returns:
        The article's passages, or ``[]``.
    """
    for rest in _qualified(subject, lang, space):
        own = [p for p in search.search(rest, k=10) if terms(bare_title(p.title), lang) == terms(rest, lang)]
        if own:
            return own
    return []


#: English adjectives of how good or how often, that qualify a thing without naming a kind of it, however rare in
#: the encyclopedia ("regular" is in one document in 740, "healthy" in one in 1,900): "Benefits of regular
#: exercise" and "healthy diet" had found no sources beside *Exercise* and *Diet (nutrition)*. Not "daily" ("daily
#: life" is no *Life*), "simple" or "normal" ("simple harmonic motion", "normal distribution").
_PLAIN_QUALIFIERS = frozenset("regular healthy unhealthy balanced proper good bad typical".split())


def _qualified(subject: str, lang: str, space: TopicSpace | None) -> Iterator[str]:
    """What common words and numbers qualify in a subject of two or three words (:func:`compound`), the
    shortest qualifier first: "Type 2 diabetes" yields "2 diabetes", then "diabetes" (:func:`_qualified_article`).
    A qualifier's words are under :data:`COMMON_RARITY` in the topic space, numbers, or English adjectives of
    how good or how often (:data:`_PLAIN_QUALIFIERS`); what they qualify is
    never a number alone ("World War 1" yields nothing). The qualifier is the first words in English, the last in
    French and Spanish. Without a topic space no word is known to be common, and nothing is yielded."""
    words = subject.split()
    if space is None or not compound(subject, lang) or len(words) < 2:
        return
    for n in range(1, len(words)):  # "Type 2 diabetes": "Type", then "Type 2", qualify the diabetes
        qualifier, rest = (words[-n:], words[:-n]) if lang in ("fr", "es") else (words[:n], words[n:])
        common = terms(" ".join(qualifier), lang)
        plain = lang == "en" and all(fold(w) in _PLAIN_QUALIFIERS for w in qualifier)
        if not common or not plain and any(not t.isdigit() and space.rarity(t) >= COMMON_RARITY for t in common):
            return  # a number qualifies as a common word does ("2", which the space does not index)
        wanted = terms(" ".join(rest), lang)
        if not wanted or all(t.isdigit() for t in wanted):
            return  # what is qualified is a thing, not a number: "World War 1" is no report on *1*
        yield " ".join(rest)


def _of_its_subject(request: Request, search: SearchBackend, lang: str) -> Request:
    """A subject "<aspect> of <thing>" no article is titled by and fewer than :data:`MIN_SUBJECT_SENTENCES`
    passages write, its aspect in small letters as typed, read as the thing with that aspect, when an article is
    titled by the thing (:func:`_titled_as`: "a butterfly" is *Butterfly*) and the corpora do not hold the whole
    as asked (:func:`_held_as_asked`), by :func:`_with_aspect`.

    "Report on the economy of Japan" and "The life cycle of a butterfly" had found no sources. A name the corpus
    writes stays whole ("the fall of Constantinople", "the kings of France"), and so does one typed with its
    capital ("Bank of America": the corpus may not hold the name, and a report on America would be on
    something else); the framing words a request is read off ("the history of", "the causes of") are the request
    reader's, and a question's "What are the symptoms of diabetes?" too (``_WHAT_OF``).

    Args:
        request: The read request.
        search: The search backend over every configured corpus.
        lang: Report language.

    Returns:
        ``request``, or a copy with the thing as its subject and the aspect first among its aspects.
    """
    if len(request.subjects) != 1:
        return request
    parts = _OF_ANOTHER.split(request.subjects[0], maxsplit=1)
    if len(parts) != 2 or not parts[0].strip() or not is_aspect(parts[0]):
        return request
    aspect, thing = parts[0].strip(), strip_article(parts[1])
    opening = aspect != aspect.lower() and _sentence_case(aspect, request)
    if aspect != aspect.lower() and not opening:
        return request
    aspect = aspect.lower()
    read = _of_its_people(request, aspect, thing, search, lang)
    if read is not None:
        return read
    if opening and not (aspect_noun(aspect) or _writes_in_small_letters(thing, aspect, search, lang)
                        or lang in ("fr", "es") and re.search(r"[sx]$", aspect) is not None):
        # "Siege of Leningrad", "Bank of America": a name, its first capital no sentence's; but a French or Spanish
        # plural opening the request is the things asked of a place ("Ríos de España", as "Los ríos de España" is
        # read: a reader found it refused)
        return request
    return _with_aspect(request, aspect, thing, search, lang)


def _sentence_case(word: str, request: Request) -> bool:
    """Whether ``word`` is one word capitalised only because it opens the request ("Economy of Japan", "Music of
    Brazil"), not a name typed with its capitals: its first letter alone is a capital, and the request opens on it
    (after any instruction it was read off, :attr:`~reportgen.blueprint.request.Request.text`)."""
    return " " not in word and word[1:] == word[1:].lower() \
        and re.match(rf"(?:.*?\b(?:on|about|of)\s+(?:the\s+)?)?{re.escape(word)}\b", request.text) is not None


def _writes_in_small_letters(thing: str, word: str, search: SearchBackend, lang: str) -> bool:
    """Whether the article titled by ``thing`` (:func:`_titled_as`) writes ``word`` as a common noun, in small
    letters ("flora" in *Madagascar*): what a place or thing has, not part of a name (*Wales* writes "Prince of
    Wales" with its capital)."""
    own = _titled_as(thing, search, lang)
    return own is not None and re.search(rf"(?<![\w-]){re.escape(word.lower())}(?![\w-])",
                                         _article_text(own, search)) is not None


def _of_its_people(request: Request, aspect: str, place: str, search: SearchBackend, lang: str) -> Request | None:
    """An English subject "<aspect> of <Place>" read as "<the place's adjective> <aspect>" when an article is
    titled by that (:func:`_titled_as`), or when the corpora hold that as asked (:func:`_held_as_asked`) and not
    the whole as typed.

    "music of Brazil" had been *Brazil* with the aspect "music": its sections were Rio de Janeiro, Brasília and
    São Paulo, the cities nearest the country's article. The corpus writes "Brazilian music" in four sentences
    (*Bossa nova*, *Samba*, *Antônio Carlos Jobim*), and "art of Japan" is *Japanese art*, "literature of Russia"
    *Russian literature*. A titled article wins over the whole held as typed: "cuisine of France", held by
    passages naming "<someone> of France", had drawn *Joan of Arc*, *Tour de France* and *Philip II of France*.
    The adjective is a capitalised word of the texts on the place sharing its first letters, the most written
    first: two for a titled article that names the place ("French" for France), as many as :func:`_same_people`
    asks otherwise ("Brazilian", "Japanese"). "economy of Brazil" stays *Brazil* with its aspect: nothing writes
    "Brazilian economy".

    Args:
        request: The read request.
        aspect: The aspect as typed ("music").
        place: The place, capitalised as typed ("Brazil").
        search: The search backend over every configured corpus.
        lang: Report language (English only: French and Spanish put the adjective after the noun).

    Returns:
        A copy of ``request`` on the adjective's reading, titled as asked and saying which it was read as
        (:attr:`Request.named_as`); ``None`` when there is none.
    """
    whole = request.subjects[0]
    if lang != "en" or not place[:1].isupper() or len(place.split()) != 1 or _article_on(whole, search, lang) \
            or passages_writing(whole, search) >= MIN_SUBJECT_SENTENCES:
        return None
    written = Counter(word for p in search.search(place, k=PLAN_SEARCH_K)
                      for word in re.findall(r"(?<![\w-])[A-Z][a-z]+(?![\w-])", f"{p.title} {p.text}")
                      if fold(word) != fold(place) and fold(word)[:2] == fold(place)[:2])
    adjectives = [adjective for adjective, _ in written.most_common()]
    titled = (_titled_as(f"{adjective} {aspect}", search, lang) for adjective in adjectives)
    subject = next((bare_title(own.title) for own in titled if own is not None
                    and terms(place, lang) <= terms(_article_text(own, search), lang)), None)
    if subject is None and not _held_as_asked(whole, search, lang):
        subject = next((reading for reading in (f"{adjective} {aspect}" for adjective in adjectives
                                                if _same_people(place, adjective))
                        if _held_as_asked(reading, search, lang)), None)
    if subject is None and not _held_as_asked(whole, search, lang) and adjectives \
            and _same_people(place, adjectives[0]):
        # "Food of Mexico": "Mexican food" is *Mexican cuisine*, the kin title its adjective and a word for food
        reading = f"{adjectives[0]} {aspect}"
        kin = _kin_titled(replace(request, subjects=[reading]), search, lang).subjects[0]
        subject = kin if kin.casefold() != reading.casefold() else None
    if subject is None:
        return None
    return replace(request, subjects=[subject], alternatives=[], title=request.title or whole,
                   named_as={**request.named_as, whole: subject})


def _with_aspect(request: Request, aspect: str, thing: str, search: SearchBackend, lang: str) -> Request:
    """The request on ``thing`` with ``aspect`` first among its aspects, when its one subject has no article
    titled by it, fewer than :data:`MIN_SUBJECT_SENTENCES` passages write it and the corpora do not hold it as asked
    (:func:`_held_as_asked`), and an article is titled by the thing (:func:`_titled_as`); else ``request`` itself.
    Titled as asked. (:func:`_of_its_subject`, :func:`_done_to`.)"""
    whole = request.subjects[0]
    if not thing or _article_on(whole, search, lang) is not None \
            or passages_writing(whole, search) >= MIN_SUBJECT_SENTENCES or _held_as_asked(whole, search, lang):
        return request
    own = _titled_as(thing, search, lang)
    if own is None:
        return request
    return replace(request, subjects=[bare_title(own.title)], aspects=list(dict.fromkeys([aspect, *request.aspects])),
                   alternatives=[], title=request.title or whole)


#: A doing that opens a subject, in small letters: "playing chess", "drinking coffee" (English gerunds).
_DOING = re.compile(r"^(?P<doing>[a-z]{2,}ing)\s+(?P<thing>(?:(?:a|an|the)\s+)?[^\W\d_].*)$")


def _done_to(request: Request, search: SearchBackend, lang: str) -> Request:
    """An English subject "<doing> <thing>" ("Benefits of playing chess": "playing chess") no article is titled by
    and fewer than :data:`MIN_SUBJECT_SENTENCES` passages write, read as the thing with the doing as its aspect
    when an article is titled by the thing, as "How to play chess" is (*chess*, aspect *play*). "Boxing Day" and
    "King penguin" are no doings (a capital, no "-ing" verb in small letters).

    Returns:
        ``request``, or a copy on the thing (:func:`_with_aspect`).
    """
    doing = _DOING.match(request.subjects[0]) if lang == "en" and len(request.subjects) == 1 else None
    if doing is None:
        return request
    return _with_aspect(request, doing.group("doing"), strip_article(doing.group("thing")), search, lang)


def _aspect_last(request: Request, search: SearchBackend, lang: str) -> Request:
    """An English subject "<thing> <aspect>" of two or three words that no passage writes and no title holds,
    its last word typed in small letters, read as the thing with that aspect when an article is titled by the
    thing, as "<aspect> of <thing>" is (:func:`_of_its_subject`).

    "Antarctica climate" and "Greek mythology gods" had found no sources. A head noun the thing's article does
    not stand for keeps its subject: "electric vehicle" (passages write it), "Mars exploration" (*Exploration of
    Mars* holds its words), "human heart" (*Heart* writes "human": :func:`_part_article`).

    Args:
        request: The read request.
        search: The search backend over every configured corpus.
        lang: Report language (English only: French and Spanish put the aspect first, with "de").

    Returns:
        ``request``, or a copy with the thing as its subject and the aspect first among its aspects.
    """
    if lang != "en" or len(request.subjects) != 1:
        return request
    subject = request.subjects[0]
    words = subject.split()
    aspect = words[-1] if len(words) > 1 else ""
    # a noun that only names an aspect ("causes", "symptoms", "history": aspect_noun) is one after any thing:
    # "Tsunami causes" had found no sources, "a tsunami causes …" being written and the tsunami no name
    asked = aspect_noun(aspect)
    if not aspect.isalpha() or aspect != aspect.lower() or not is_aspect(aspect) \
            or not (compound(subject, lang) or len(words) > 3 or asked):  # "Leonardo da Vinci inventions": a long
        return request  # name; "Windows 10" keeps its number
    wanted = terms(subject, lang)
    if any(wanted <= terms(p.title, lang) for p in search.search(subject, k=20)) or not asked and (
            passages_writing(subject, search) or _part_article(subject, search, lang)):
        return request
    own = _titled_as(" ".join(words[:-1]), search, lang)
    # the thing is a name its article writes with its capital: "King penguin" is a kind of penguin, not the
    # penguin of a king, and "eating chocolate" no chocolate of *Eating*
    if own is None or not (asked or never_small(words[0], _article_text(own, search))):
        return request
    return replace(request, subjects=[bare_title(own.title)], aspects=list(dict.fromkeys([aspect, *request.aspects])),
                   alternatives=[], title=request.title or subject)


#: Least relatedness, in the corpus's topic space, of the last word of a title to the last word of a subject
#: it stands for (:func:`_kin_titled`): "food" and "cuisine" are at 0.62 in the encyclopedia's space, "gods" and
#: "mythology" at 0.59; "culture" and "mythology" at 0.28, "food" and "wine" at 0.41 are not the same thing.
KIN_RELATEDNESS = 0.5
#: Words for a people's whole way of life, in English, French and Spanish (:func:`_kin_titled`): the encyclopedias
#: title it by one of them, and people ask by another ("Inca civilization", *Inca Empire*; "Mayan culture", *Maya
#: civilization*; "civilización inca", *Imperio incaico*); in the topic space "civilization" and "empire" are at 0.06.
_PEOPLE_KINDS = re.compile(
    r"civili[sz]ations?|cultures?|empires?|peoples?|societ(?:y|ies)|kingdoms?|peuples?|soci[ée]t[ée]s?|royaumes?|"
    r"civilizaci(?:ón|on|ones)|culturas?|imperios?|pueblos?|sociedad(?:es)?|reinos?",
    re.IGNORECASE,
)


def _a_peoples_name(title: str, word: str) -> bool:
    """Whether a one-word title names the people a qualifier names: the word itself or its plural, or another
    gender's ending in French and Spanish (*Vikings* for "Viking", *Aztèques* for "aztèque", *Vikingo* for
    "vikinga"); not a place sharing its first letters (*Greece* for "Greek").

    Args:
        title: A title.
        word: The qualifier, folded.

    Returns:
        True when the title is the people's own.
    """
    folded = fold(title)
    stems = {word, word[:-1]} if word[-1:] in "aeo" else {word}
    return folded != word and any(folded in {s + end for end in ("s", "es", "a", "o", "as", "os", "e")}
                                  for s in stems)


#: Whether a language writes a qualified thing's noun last ("Chinese food") or first ("civilización maya",
#: "cuisine chinoise"): the languages :func:`_kin_titled` reads.
_KIND_LAST = {"en": True, "fr": False, "es": False}
#: Fewest letters two words of a people or place share from their start to name the same one (:func:`_same_people`).
PEOPLE_STEM = 4


def _same_people(word: str, other: str) -> bool:
    """Whether two words name one place or people: the same word, or a place and its adjective sharing their
    first letters, at least :data:`PEOPLE_STEM` and all but one of the shorter's ("Italy" and "Italian", "Japan"
    and "Japanese", "Greece" and "Greek", "Mexico" and "Mexican"; not "Austria" and "Australian", "Iran" and
    "Iraqi"). Irregular ones ("France" and "French", "Turkey" and "Turkish") are not told. Any case:
    :func:`_kin_titled` asks the adjective's article to write it with its capital."""
    a, b = fold(word), fold(other)
    return a == b or len(os.path.commonprefix([a, b])) >= max(PEOPLE_STEM, min(len(a), len(b)) - 1)


def _kin_titled(request: Request, search: SearchBackend, lang: str) -> Request:
    """A subject "<qualifier> <thing>" of two or three words (in French and Spanish "<thing> <qualifier>",
    :data:`_KIND_LAST`) that no article is titled by, fewer than :data:`MIN_SUBJECT_SENTENCES` passages write and the
    corpora do not hold as asked (:func:`_held_as_asked`), read as the article titled by the same qualifier, or its
    place's or people's adjective (:func:`_same_people`), and a word standing for the thing: related to it in the
    topic space by at least :data:`KIN_RELATEDNESS`, or, for a people's way of life, another word for it
    (:data:`_PEOPLE_KINDS`: "Inca civilization" is *Inca Empire*), else the people's own article (*Vikings* for
    "Viking culture", :func:`_a_peoples_name`).

    "Chinese food" and "Italy food" had found no sources, or made a report on Italy, while the corpus holds
    *Chinese cuisine* and *Italian cuisine*; "Greek gods" had found none beside *Greek mythology*. The report is
    titled as asked and says at the top which title it was read as (:func:`named_note`). "Japanese culture" is
    no *Japanese mythology* (0.28), and "electric vehicle" no *Electric motor*: "motor" and "vehicle" are at 0.68,
    but passages write them side by side ("motor vehicles"), as they never write two names of one thing.

    Args:
        request: The read request.
        search: The search backend over every configured corpus.
        lang: Report language (English, French or Spanish).

    Returns:
        ``request``, or a copy on the kin article's title.
    """
    space = topic_space(search)
    if lang not in _KIND_LAST or len(request.subjects) != 1 or space is None or request.alternatives:
        return request
    subject = request.subjects[0]
    words = subject.split()
    if not 2 <= len(words) <= 3 or not compound(subject, lang) or _article_on(subject, search, lang) is not None \
            or passages_writing(subject, search) >= MIN_SUBJECT_SENTENCES or _held_as_asked(subject, search, lang):
        return request
    # the thing is the last word in English ("Chinese food"), the first in French and Spanish ("civilización maya")
    at = -1 if _KIND_LAST[lang] else 0

    def qualifier(phrase: list[str]) -> list[str]:
        return phrase[:-1] if at == -1 else phrase[1:]

    def people_word(phrase: list[str]) -> str:  # the qualifier's word a people's or place's adjective may stand in
        return phrase[0] if at == -1 else phrase[-1]

    titles: dict[str, None] = {}
    for query in (subject, " ".join(qualifier(words))):
        titles.update((bare_title(p.title), None) for p in search.search(query, k=PLAN_SEARCH_K))
    for adjective in {people_word(t.split()) for t in titles if len(t.split()) == len(words)}:  # "Italian": "Italy"
        if _same_people(people_word(words), adjective) and fold(adjective) != fold(people_word(words)):
            query = " ".join([adjective, *words[1:]] if at == -1 else [*words[:-1], adjective])
            titles.update((bare_title(p.title), None) for p in search.search(query, k=PLAN_SEARCH_K))
    kin = [t for t in titles if len(t.split()) == len(words) and fold(t.split()[at]) != fold(words[at])
           and all(_same_people(w, x) if w == people_word(words) else fold(w) == fold(x)
                   for w, x in zip(qualifier(words), qualifier(t.split()), strict=True))]
    # a people's whole way of life has several names: "Inca civilization" is *Inca Empire*, "Mayan culture" *Maya
    # civilization*, "civilización inca" *Imperio incaico*; without such a title, the people's own (*Vikings*)
    of_a_people = bool(_PEOPLE_KINDS.fullmatch(words[at])) and len(words) == 2
    scores = Relatedness([words[at]], [], lang, subject=words[at], space=space).scores(
        [t.split()[at] for t in kin]) if kin else []
    ranked = sorted(((1.0 if of_a_people and _PEOPLE_KINDS.fullmatch(t.split()[at]) else score, t)
                     for t, score in zip(kin, scores, strict=True)), key=lambda pair: -pair[0])
    if of_a_people:
        named = fold(people_word(words))
        ranked += [(1.0, t) for t in titles if len(t.split()) == 1 and _a_peoples_name(t, named)]

    def stands_for_it(title: str) -> bool:
        own = _titled_as(title, search, lang)
        # "Italian" for "Italy": a name, written with its capital (in English: French and Spanish write a people's
        # adjective in small letters, "incaico")
        people = fold(people_word(title.split())) != fold(people_word(words)) and lang == "en"
        kind = title.split()[at] if len(title.split()) == len(words) else ""
        # words written side by side are no two names of one thing: a "motor vehicle", "Maya peoples' culture"
        return own is not None and not (people and not never_small(people_word(title.split()),
                                                                    _article_text(own, search))) \
            and not (kind and (passages_writing(f"{kind} {words[at]}", search)
                               or passages_writing(f"{words[at]} {kind}", search)))

    # the nearest kin only, but of a people's names each in turn ("Maya peoples", whose passages write "peoples'
    # culture", then *Maya civilization*)
    best = next((t for score, t in (ranked if of_a_people else ranked[:1])
                 if score >= KIN_RELATEDNESS and stands_for_it(t)), None)
    if best is None:
        return request
    return replace(request, subjects=[best], alternatives=[], title=request.title or subject,
                   named_as={**request.named_as, subject: best})


def _held_as_asked(subject: str, search: SearchBackend, lang: str) -> bool:
    """Whether the corpora hold a subject as it is asked, as :func:`gather_themes` reads its core: passages holding
    its terms (:func:`_relevant`), the densest of them (:func:`_core`), not only in passing (:func:`_in_passing`).
    "the culture of India" is held (*Architecture of India*, *History of India*, *Rabindranath Tagore*): read as
    *India* with the aspect "culture", a reader found its report drift into India's neighbours.
    "the economy of Japan" is not: only *East Asia* holds both words, in passing."""
    holding, _ = _relevant(search.search(subject, k=PLAN_SEARCH_K), subject, lang)
    core = _core(holding, subject, lang, topic_space(search))
    return bool(core) and not _in_passing(core, subject, lang)


def _article_text(own: Passage, search: SearchBackend) -> str:
    """The whole text of the article ``own`` is a passage of: its passages among the first 20 a search for its
    title finds, joined."""
    return " ".join(p.text for p in search.search(own.title, k=20) if p.source_id == own.source_id)


def _titled_as(thing: str, search: SearchBackend, lang: str) -> Passage | None:
    """The article titled by ``thing``, or by its singular, letter for letter once folded (:func:`_titled_reading`
    also takes *B. B. King* for "King"), or ``None``."""
    titled = _titled_reading(thing, search, lang)
    own = _article_on(titled, search, lang) if titled is not None else None
    return own if own is not None and fold(bare_title(own.title)) == fold(str(titled)) else None


def _unqualified(request: Request, search: SearchBackend, lang: str) -> Request:
    """The request with each subject no passage writes and no article is titled by read as what its common
    qualifier qualifies, when that is written by at least :data:`MIN_SUBJECT_SENTENCES` passages and no article
    is titled by it either (a titled one is :func:`_qualified_article`'s: the report keeps the subject's name).

    "Ancient Egyptian pyramids" had found no sources: no passage writes it, "ancient" is in one document in ten
    of the encyclopedia, and two write "Egyptian pyramids" (*Great Pyramid of Giza*, *Old Kingdom of Egypt*).
    The report is titled as asked and says at the top that the corpora hold no text on the subject as such
    (:attr:`~reportgen.blueprint.request.Request.asked`, :func:`thin_note`).

    Args:
        request: The read request.
        search: The search backend over every configured corpus.
        lang: Report language.

    Returns:
        ``request``, or a copy with the qualified subjects.
    """
    space = topic_space(search)
    read: dict[str, str] = {}
    for subject in request.subjects if not request.alternatives else []:  # a question's readings are tried after
        if space is None or not compound(subject, lang) or passages_writing(subject, search) \
                or _article_on(subject, search, lang) is not None:
            continue
        read[subject] = next((rest for rest in _qualified(subject, lang, space)
                              if " " in rest.strip()  # a phrase: "Can animals predict earthquakes?" is no "predict"
                              and passages_writing(rest, search) >= MIN_SUBJECT_SENTENCES
                              and _article_on(rest, search, lang) is None), subject)
    if all(read.get(s, s) == s for s in request.subjects):
        return request
    return replace(request, subjects=[read.get(s, s) for s in request.subjects], alternatives=[],
                   asked=request.subject, title=request.title or request.subject)


def _aspect_core(request: Request, search: SearchBackend, lang: str) -> list[Passage]:
    """The core of a request whose subject has no passage of its own but whose aspects do.

    "DeFi and how it challenges traditional banking models and regulations":
    no passage holds "decentralized finance", but passages on finance,
    banking and regulation do. The subject and the aspects are searched
    together, and the passages holding a subject term and an aspect term are
    the core (the report then says near the top that the corpora hold little
    on the subject itself, see :func:`thin_note`). Only for requests that
    name aspects: a bare subject the corpus lacks is "found no sources".
    """
    wanted = terms(request.subject, lang) | {a.lower() for a in request.acronyms}
    aspect_terms = set().union(*(terms(a, lang) for a in request.aspects)) - wanted
    found = search.search(f"{request.subject} {' '.join(request.aspects)}", k=PLAN_SEARCH_K)
    holding = [p for p in found if wanted & (t := terms(f"{p.title} {p.text}", lang)) and aspect_terms & t]
    return _core(holding, request.subject, lang, phrase=False)


#: Words after which a sentence says what causes something ("the sky appears blue *because of* …",
#: "tides are the rise and fall of sea level *resulting from* …"), by language.
_CAUSE_MARKERS = {
    # "The greenhouse effect occurs when heat-trapping gases … prevent the planet from losing heat" says what
    # causes it (a reader found it noted as unanswered)
    "en": re.compile(r"\b(?:because(?:\s+of)?|due\s+to|owing\s+to|thanks\s+to|caused\s+by|driven\s+by|"
                     r"produced\s+by|generated\s+by|created\s+by|formed\s+by|result(?:s|ing|ed)?\s+from|"
                     r"arising\s+from|(?:the\s+)?results?\s+of|(?:occurs?|occurred|happens?|happened|arises?|"
                     r"takes?\s+place)\s+when)\s+", re.IGNORECASE),
    "fr": re.compile(r"\b(?:à\s+cause\s+d(?:e|u|es|['’])|en\s+raison\s+d(?:e|u|es|['’])|grâce\s+à|"
                     r"se\s+produit\s+(?:lorsqu(?:e|['’])|quand)|"
                     r"du(?:e|s|es)?\s+à|causée?s?\s+par|provoquée?s?\s+par|produite?s?\s+par|"
                     r"résult(?:e|ent|ant)\s+d(?:e|u|es|['’])|sous\s+l['’]effet\s+d(?:e|u|es|['’]))\s*",
                     re.IGNORECASE),
    "es": re.compile(r"\b(?:debido\s+a|a\s+causa\s+de|gracias\s+a|causad[oa]s?\s+por|provocad[oa]s?\s+por|"
                     r"(?:ocurre|se\s+produce)\s+cuando|"
                     r"producid[oa]s?\s+por|result(?:ado|a|an)\s+de)\s+", re.IGNORECASE),
}
#: Where the cause a marker introduces ends: a clause break.
_CAUSE_END = re.compile(r"[,;:()\[\]]|\s(?:whereas|while|but|which|that|mais|tandis|pero|mientras)\s", re.IGNORECASE)
#: Words after which a sentence names what its subject caused ("The incident was one of the key events that
#: *led to* World War I"), by language: the text is on a cause of what follows.
_EFFECT_MARKERS = {
    "en": re.compile(r"\b(?:led\s+to|leading\s+to|lead\s+to|caused|triggered|sparked|precipitated|provoked|"
                     r"(?:helped\s+(?:to\s+)?)?(?:cause|trigger|spark)|contributed\s+to|gave\s+rise\s+to|"
                     r"resulted\s+in|brought\s+about)\s+(?:the\s+)?", re.IGNORECASE),
    "fr": re.compile(r"\b(?:(?:a|ont)\s+)?(?:conduit|mené|provoqué|déclenché|causé|entraîné)\s+(?:à\s+)?"
                     r"(?:la\s+|le\s+|les\s+|l['’])?", re.IGNORECASE),
    "es": re.compile(r"\b(?:condujo|llevó|provocó|desencadenó|causó|originó|dio\s+lugar)\s+(?:a\s+)?"
                     r"(?:la\s+|el\s+|los\s+|las\s+)?", re.IGNORECASE),
}
#: Markers of where a thing is or lives, which answer a question asking where ("Where do tigers live?": "The tiger
#: is native to Asia" answers it; a reader found the note saying no sentence did), by :func:`unanswered_note`.
_PLACE_MARKERS = {
    "en": re.compile(r"\b(?:native\s+to|endemic\s+to|found\s+(?:in|on|throughout|across)|li(?:ve|ves|ving)\s+(?:in|on)|"
                     r"inhabit(?:s|ed|ing)?|located\s+(?:in|on|at|near)|situated\s+(?:in|on|at|near)|"
                     r"range\s+(?:from|across|over|extends)|distributed\s+(?:in|across|throughout)|"
                     r"occurs?\s+(?:in|on|throughout))\b", re.IGNORECASE),
    "fr": re.compile(r"\b(?:originaire\s+d|endémique|vi(?:t|vent)\s+(?:en|dans|sur)|"
                     r"situé(?:e|s|es)?\s+(?:en|à|dans|au)|présente?s?\s+(?:en|dans|sur))", re.IGNORECASE),
    "es": re.compile(r"\b(?:nativ[oa]s?\s+de|endémic[oa]s?|viven?\s+en|ubicad[oa]s?\s+en|situad[oa]s?\s+en|"
                     r"habita(?:n)?\s+en)", re.IGNORECASE),
}
#: Superlatives written for one another: "What is the biggest ocean?" is answered by "The Pacific Ocean is the
#: largest …" (a reader found the note saying no sentence answered it), "the tallest mountain" by "Earth's highest
#: mountain".
_SAME_SUPERLATIVE = {"biggest": "largest", "greatest": "largest", "tallest": "highest"}


def _alike(word: str, lang: str) -> str:
    """A term as :func:`unanswered_note` compares it: in its American spelling
    (:func:`~reportgen.sources.text.american`) and, for a superlative, the one it is written for
    (:data:`_SAME_SUPERLATIVE`)."""
    spelled = american(word, lang)
    return _SAME_SUPERLATIVE.get(spelled, spelled) if lang == "en" else spelled


#: A question asking where ("Where do tigers live?", "¿Dónde viven los tigres?", "Où vivent les tigres ?").
_ASKS_WHERE = re.compile(r"^\W*(?:where|dónde|donde|où|ou)\b", re.IGNORECASE)
#: Words after an effect marker that may hold the subject ("led to *the outbreak of* World War I").
EFFECT_WORDS = 6


def causes_it(text: str, request: Request, lang: str) -> bool:
    """Whether a text says it, or a thing of it, caused the request's subject: a sentence with an effect
    marker (:data:`_EFFECT_MARKERS`: "led to", "triggered") followed within :data:`EFFECT_WORDS` words by
    every term of a subject. *Assassination of Archduke Franz Ferdinand* ("one of the key events that led to
    World War I") answers "World War I causes", though the war's own article says nothing of its causes and
    :func:`explained` finds nothing there. Where the request asks more of the subject than its causes ("Why do
    birds migrate?"), a word of that aspect, or one made from it (:func:`_derived`), is in the effect too:
    "cause diseases in mammals and birds" says nothing of why birds migrate.

    Args:
        text: A candidate's text.
        request: The read request (:func:`~reportgen.blueprint.request.asks_why` holds).
        lang: The language.

    Returns:
        True when a sentence names a subject as what something in the text caused.
    """
    marker = _EFFECT_MARKERS.get(lang)
    if marker is None:
        return False
    # what the question asks of the subject is caused too: "Coronaviruses … cause diseases in mammals and birds"
    # does not say why birds migrate (a reader found *Coronavirus* leading that report)
    asked = _asked_of_it(request, lang)
    for sentence in split_sentences(text, lang):
        for m in marker.finditer(sentence):
            clause = _CAUSE_END.split(sentence[m.end():], maxsplit=1)[0]  # "led to a long war, and later to …"
            for subject in request.subjects:
                wanted = terms(subject, lang)
                words = tokenize(clause)[:EFFECT_WORDS + len(tokenize(subject)) + max(map(len, asked), default=0)]
                held = terms(" ".join(words), lang)
                if wanted and wanted <= held and (not asked or any(_writes_aspect(held, a, lang) for a in asked)):
                    return True
    return False


#: Words inside a cause that end a noun phrase in English: participles and adverbs ("forces *exerted primarily* by
#: the Moon", "an optical effect *known* as Rayleigh scattering").
_PHRASE_BREAK_EN = re.compile(r"^(?:\w+(?:ed|ly)|known|called|named|such|including|another|other)$", re.IGNORECASE)
#: Passages of one search (:data:`PLAN_SEARCH_K`) holding a one-word cause beyond which it is too broad to be
#: a theme: in the English encyclopedia "energy", "force", "region", "Earth" and "light" fill 186-200 of them;
#: "Sun" 100, "wave" 81, "orbit" 46, "scattering" 7 (issue 11's reader checks).
BROAD_WORD_PASSAGES = 150
#: Most articles on causes one question adds as themes (the first causes its subject's texts give).
MAX_EXPLAINED = 3
def explained(request: Request, texts: list[Passage], search: SearchBackend, lang: str) -> list[Passage]:
    """The own articles of the causes the subject's texts give, for a request that asks why.

    A sentence that names the subject and says what causes it ("The clear daytime sky and the deep sea
    appear blue because of an optical effect known as Rayleigh scattering", in *Blue*; "Tides are … resulting
    from the differential gravitational forces exerted primarily by the Moon and the Sun") names the
    answer's parts. Each noun phrase of the cause (a run of content words, English participles and adverbs
    breaking it: :data:`_PHRASE_BREAK_EN`) is looked up whole, then by its parts of two words, then by its
    head noun or a capitalised word: the article whose title holds the same terms (*Scattering*, *Moon*,
    *Sun*, *Plate tectonics* for "tectonic plates") is a theme. These articles need not name the subject:
    the topic space put *Scattering* far from *Sky*. A one word cause most texts hold
    (:data:`BROAD_WORD_PASSAGES`: "energy", "Earth") is none.

    Args:
        request: The read request (:func:`~reportgen.blueprint.request.asks_why` holds).
        texts: The subject's own passages and its answering aspects' articles, best first.
        search: The search backend.
        lang: The request's language (cause markers in English, French and Spanish: :data:`_CAUSE_MARKERS`).

    Returns:
        Up to :data:`MAX_EXPLAINED` passages, one per article, none a subject's own, in the order the
        causes are written.
    """
    marker = _CAUSE_MARKERS.get(lang)
    if marker is None:
        return []
    stop = stopwords(lang)
    # the subject as texts write it, its plural too: "Leaves are mostly green in color due to the presence of a
    # compound called chlorophyll" names the leaf (written_forms)
    wanted = [form for x in request.subjects for form in written_forms(x, lang)]
    taken = {fold(x) for x in request.subjects} | {fold(p.title) for p in texts}
    found: list[Passage] = []
    looked: set[str] = set()

    def own_article(phrase: str) -> Passage | None:
        wanted_terms = terms(phrase, lang)
        key = " ".join(sorted(wanted_terms))
        if not key or key in looked:
            return None
        looked.add(key)
        hits = search.search(phrase, k=PLAN_SEARCH_K)
        if len(wanted_terms) == 1 and sum(wanted_terms <= terms(f"{p.title} {p.text}", lang)
                                          for p in hits) >= BROAD_WORD_PASSAGES:
            return None  # "energy", "region", "Earth": a word too many texts hold to say what causes anything
        own, _ = choose_themes(phrase, hits[:20], 0, lang)
        return own if own is not None and fold(own.title) not in taken else None

    for passage in texts:
        for sentence in split_sentences(passage.text, lang):
            held = terms(sentence, lang)
            if not any(w and all(mentions(held, t) for t in w) for w in wanted):
                continue
            for m in marker.finditer(sentence):
                cause = _CAUSE_END.split(sentence[m.end():], maxsplit=1)[0]
                words = re.findall(r"[^\W\d_]+(?:[-‐][^\W\d_]+)*", re.sub(r"['’]s\b", "", cause))
                runs: list[list[str]] = [[]]
                for w in words:
                    if fold(w) in stop or (lang == "en" and _PHRASE_BREAK_EN.match(w)):
                        runs.append([])
                    else:
                        runs[-1].append(w)
                for run in (r for r in runs if r):
                    head = head_noun(" ".join(run), lang)
                    tries = [" ".join(run)] if len(run) <= 3 else []
                    tries += [" ".join(run[i:i + 2]) for i in range(len(run) - 1)] if len(run) > 2 else []
                    tries += [w for w in run if len(run) == 1 or tokenize(w) == [head] or w[:1].isupper()]
                    for phrase in tries:
                        own = own_article(phrase)
                        if own is not None:
                            taken.add(fold(own.title))
                            found.append(own)
                            break
                    if len(found) == MAX_EXPLAINED:
                        return found
    return found


#: A possessor in a subject ("Einstein's", "Newton’s").
_POSSESSOR = re.compile(r"[^\W\d_][\w-]*['’]s?(?=\s|$)")


def thin_note(request: Request, core: list[Passage], lang: str) -> str:
    """A note for the top of the report when the core passages do not hold the subject ("" otherwise).

    A subject's own article holds it. A compound (:func:`compound`) must be
    written by a core passage (:func:`~reportgen.agents.ranking.writes_phrase`):
    holding its words apart ("electric" power lines, "vehicles") is not;
    another subject must have all its terms in one core passage. A subject no core passage's title writes whole
    (not even as a kind of it: *Rugby football*), that no core passage defines its thing as a kind of
    (:func:`kind_of`: "Iguanodon est un genre fossile de dinosaures") and that no core article holds as whose it is
    (:func:`_holds_whose`: "In humans, the heart …") is held only by texts that mention it, and the note says so
    (the ``mentioned`` label): "glaciares", and "economy of Germany", drawn from *Economy of the European Union*
    and *Great Depression* (it had said nothing, a blind reader's find), "Heat pumps".
    """
    if not core:
        return ""
    if not request.asked and all(_holds(core, s, lang) or _holds_whose(core, s, lang) for s in request.subjects):
        # a word no article is titled by, held by the texts that mention it: the report says so ("glaciares" in
        # the Spanish encyclopedia, whose report was on the Karakórum and Mount Logan, and said nothing)
        # not where a core text is titled by a kind of it (*Rugby football*) or defines its thing as one (the
        # French *Iguanodon*, "un genre fossile de dinosaures": a reader found the note false above a report on
        # dinosaurs, which the French edition titles *Dinosauria*)
        # nor where a core article holds it as whose it is: *Heart*'s "In humans, the heart …" (_holds_whose)
        def titled(subject: str) -> bool:
            # a possessor is whose it is, not what: "Einstein's theory of relativity" is *Theory of relativity*'s
            wanted = terms(_POSSESSOR.sub("", subject), lang) or terms(subject, lang)
            return any(wanted <= terms(p.title, lang) or kind_of(p.text, bare_title(p.title), subject, lang)
                       for p in core)

        mentioned = [s for s in request.subjects if not _holds_whose(core, s, lang) and not titled(s)]
        if not mentioned:
            return ""
        return labels(lang)["mentioned"].format(subject=join_list(mentioned, lang),
                                                titles=", ".join(dict.fromkeys(p.title for p in core)))
    return labels(lang)["thin"].format(subject=request.asked or request.subject,
                                       titles=", ".join(dict.fromkeys(p.title for p in core)))


def named_note(request: Request, lang: str) -> str:
    """A note for the top of the report when the corpora hold the subject under another title
    (:attr:`~reportgen.blueprint.request.Request.named_as`: "Soccer" is *Association football*), ``""``
    otherwise."""
    return " ".join(labels(lang)["named_as"].format(asked=asked, named=named)
                    for asked, named in request.named_as.items())


#: Body sections under which a report says at the top that the corpora hold little on its subject (when
#: fewer than asked for): "Jaguar", named by one article only, is a report of one section.
FEW_SECTIONS = 3


def little_note(request: Request, titles: list[str], count: int, lang: str, thin: bool = False) -> str:
    """A note for the top of the report when the corpora hold too little for the sections asked for:
    fewer than :data:`FEW_SECTIONS` (and than ``count``) body sections, ``titles``. ``""`` otherwise.
    After the note that the corpora hold no text on the subject as such (``thin``, :func:`thin_note`) it
    does not say again how little they hold: "aucun texte sur … en tant que tel" followed by "peu de chose
    sur …" had read as a contradiction."""
    if len(titles) >= min(FEW_SECTIONS, count):
        return ""
    return counted(labels(lang), "few" if thin else "little", len(titles)).format(
        # a question's title is no subject: "hold little on 'cheetahs'", not on 'How fast do cheetahs run?'
        subject=request.subject if request.question else request.title or request.subject, count=len(titles),
        titles=join_list(titles, lang))


def sense_note(request: Request, core: list[Passage], search: SearchBackend, lang: str) -> str:
    """A note for the top of the report when the subject's word has other senses the corpora hold ("" otherwise).

    A report keeps to one sense (:func:`_main_sense`, :func:`one_sense`):
    "Mercury" is the planet, and the reader is told so and how to get the
    element ("ask for Mercury (element)"). The other senses are the
    articles titled "<subject> (...)" that are not the core's.

    Args:
        request: The read request (one subject; two subjects get no note).
        core: The subject's core passages.
        search: The search backend.
        lang: The report language.

    Returns:
        The note, or ``""``.
    """
    if len(request.subjects) != 1 or not core:
        return ""
    key = fold(request.subject).strip()
    mine = {p.title for p in core}
    others = [t for t in dict.fromkeys(p.title for p in search.search(request.subject, k=PLAN_SEARCH_K))
              if _a_sense_of(t, request.subject) and t not in mine]
    others += [t for t in _named_kinds(request.subject, core, search, lang) if t not in others]
    if not others:
        return ""
    if fold(core[0].title).strip() == key:  # "Java" is the article "Java": only the others need saying
        return labels(lang)["senses_other"].format(others=", ".join(others))
    return labels(lang)["senses"].format(subject=request.subject, chosen=core[0].title, others=", ".join(others))


#: How near (cosine in the topic space) an article named "<word> <subject>" may be to the subject's own
#: article and still be another sense: "Computer mouse" is 0.05 from *Mouse*, "Arab Spring" 0.07 and "Hot
#: spring" 0.17 from *Spring (season)*; "Stem cell" is 0.81 from *Cell (biology)*, "Vampire bat" 0.31 from *Bat*.
OTHER_SENSE_NEARNESS = 0.2
#: Most other senses named this way in the note.
OTHER_SENSE_TITLES = 4


def _named_kinds(subject: str, core: list[Passage], search: SearchBackend, lang: str) -> list[str]:
    """The articles headed by a one-word subject with more words ("Computer mouse", "Arab Spring", "Printemps
    arabe"; :func:`~reportgen.agents.ranking.head_noun`; none with a number, which names one event of it:
    "1755 Lisbon earthquake") that the topic space puts far from the subject's own
    article (under :data:`OTHER_SENSE_NEARNESS`): other senses the report does not cover, at most
    :data:`OTHER_SENSE_TITLES`. ``[]`` without a topic space or an own article among the core."""
    space = topic_space(search)
    wanted = terms(subject, lang)
    if space is None or space.documents is None or len(wanted) != 1:
        return []
    index = {t: i for i, t in enumerate(space.titles)}
    own = next((index[p.title] for p in core if p.title in index and terms(bare_title(p.title), lang) == wanted),
               None)
    if own is None:
        return []
    found = []
    word = next(iter(wanted))[:5]  # a cheap first sieve over the corpus's titles (the stem: "bees" → "bee")
    for title, i in index.items():
        if word not in fold(title):
            continue
        name = bare_title(title)
        if len(name.split()) < 2 or terms(name, lang) <= wanted or terms(head_noun(name, lang), lang) != wanted \
                or _dated(name):
            continue  # "1755 Lisbon earthquake" is one earthquake, not another sense
        if float(space.documents[i] @ space.documents[own]) < OTHER_SENSE_NEARNESS:
            found.append(title)
    return found[:OTHER_SENSE_TITLES]


def _another_sense(title: str, request: Request, core: list[Passage], kinds: list[str]) -> bool:
    """Whether ``title`` is one of the other senses of a one-subject request's word that the note at the top names
    (:func:`sense_note`): titled by the word with another bracketed sense than the core's, or headed by it far
    from its article (``kinds``, :func:`_named_kinds`). *Spring (device)* had been a section of "Spring", read as
    the season, under the note naming it, and filled with the Prague Spring, the Arab Spring and a hot spring."""
    if len(request.subjects) != 1:
        return False
    return _a_sense_of(title, request.subject) and title not in {p.title for p in core} or title in kinds


def _in_named_kinds_only(text: str, subject: str, kinds: list[str], lang: str) -> bool:
    """Whether ``text`` writes a one-word subject, and only inside the titles of its other senses (``kinds``,
    :func:`_named_kinds`): *Douglas Engelbart*, who invented "the computer mouse", had been one of the two
    sections of "Mouse", whose note names *Computer mouse* as the sense to ask for.

    Args:
        text: A candidate's text.
        subject: The subject, one word.
        kinds: Titles of the subject's other senses headed by its word ("Computer mouse").
        lang: The language.

    Returns:
        True when every mention of the subject is one of those titles'.
    """
    wanted = terms(subject, lang)
    tokens = [fold(t) for t in tokenize(text)]
    titles = [[fold(t) for t in tokenize(bare_title(kind))] for kind in kinds]
    mentions = [i for i, t in enumerate(tokens) if terms(t, lang) == wanted]

    def in_a_kind(i: int) -> bool:
        for title in titles:
            head = next((h for h, t in enumerate(title) if terms(t, lang) == wanted), None)
            if head is not None and i >= head and tokens[i - head:i] == title[:head] \
                    and tokens[i + 1:i + len(title) - head] == title[head + 1:]:
                return True
        return False

    return bool(mentions) and bool(titles) and all(in_a_kind(i) for i in mentions)


#: The preposition saying whose a thing is, before the ones it is found in ("in humans, the heart …").
_WHOSE = {"en": r"in|among|including", "fr": r"chez|dont", "es": r"en|incluidos|incluidas"}
#: The pronouns standing for the head in such a sentence ("In humans, it is located …", of *Liver*).
_WHOSE_PRONOUNS = {"en": r"it|they|its|their", "fr": r"il|elle|ils|elles", "es": r"él|ella|ellos|ellas|su|sus"}


def _holds_whose(core: list[Passage], subject: str, lang: str) -> bool:
    """Whether a core passage titled by a two-word subject's head says whose it is in the modifier's word: *Heart*
    writes "In humans, the heart is approximately the size of a closed fist" (*Liver* "In humans, it is located …",
    *Lung* "… in many animals, including humans"), so it is on the human heart too
    (a reader found "The corpora hold no text on 'human heart' as such" misleading above it). :func:`thin_note`
    only: the subject is still searched and judged as its article's (:func:`held_subject`).

    Args:
        core: The subject's core passages.
        subject: One subject as read ("human heart").
        lang: The language; one without a preposition in :data:`_WHOSE` gives ``False``.

    Returns:
        True when such a passage writes, in one sentence, the modifier after the preposition and the head or a
        pronoun (:data:`_WHOSE_PRONOUNS`).
    """
    words = subject.split()
    if len(words) != 2 or lang not in _WHOSE or not compound(subject, lang):
        return False
    modifier, head = words
    whose = re.compile(rf"\b(?:{_WHOSE[lang]})\s+(?:(?:the|les|l'|los|las)\s*)?{re.escape(fold(modifier))}\w{{0,2}}\b",
                       re.IGNORECASE)
    pronoun = re.compile(rf"\b(?:{_WHOSE_PRONOUNS[lang]})\b", re.IGNORECASE)
    return any(terms(bare_title(p.title), lang) == terms(head, lang)
               and any(whose.search(fold(x)) and (terms(head, lang) <= terms(x, lang) or pronoun.search(x))
                       for x in split_sentences(p.text))
               for p in core)


def _holds(core: list[Passage], subject: str, lang: str) -> bool:
    """Whether core passages hold ``subject`` (:func:`thin_note`'s rule)."""
    wanted = terms(subject, lang)
    if compound(subject, lang):
        return any(writes_phrase(f"{p.title} {p.text}", subject) or terms(p.title, lang) == wanted for p in core)
    return any(wanted <= terms(f"{p.title} {p.text}", lang) for p in core)


def held_subject(request: Request, core: list[Passage], lang: str) -> str:
    """The subject as the corpora hold it: each subject the core does not hold is named by the title of
    its part's article that stands for it (:func:`_part_article`), when there is one.

    "AI-driven automation" is searched and judged as "Automation": the words
    of the unwritten phrase are no sign of being on the subject ("driven" is
    said of a chainsaw's chain and of breathing). The report keeps the
    subject as read for its title and its note.

    Args:
        request: The read request.
        core: The subjects' core passages (:func:`gather_themes`).
        lang: Its language.

    Returns:
        The subjects as held, joined with "and" as :attr:`Request.subject` is.
    """
    held = []
    for subject in request.subjects:
        wanted = terms(subject, lang)
        part = next((p.title for p in core if terms(p.title, lang) and terms(p.title, lang) < wanted), None)
        held.append(part if part and not _holds(core, subject, lang) else subject)
    return " and ".join(dict.fromkeys(held))  # "Coffee and coffee production": Coffee, once


#: Closest subjects the "found no sources" message names.
CLOSEST = 5


def _closest(search: SearchBackend, request: Request, lang: str) -> list[str]:
    """Titles the corpora do hold that come closest to the request (for the "found no sources" message).

    The documents found for the request and for each of its words, those whose title holds most of its
    words first, then those whose text does, then in search order: "Electric vehicles" offers *Vehicle*,
    *Electric motor* and *Electric battery*, where the search order alone had offered *Launch vehicle*,
    *Spacecraft*, *Armour* and *Garage (residential)*.

    Returns:
        At most :data:`CLOSEST` titles.
    """
    wanted = terms(request.subject, lang) | set().union(*(terms(a, lang) for a in request.acronyms))
    queries = [*request.subjects, *request.acronyms, *sorted(wanted)]
    found: dict[str, tuple[int, int, int]] = {}
    for query in queries:
        for p in search.search(query, k=10):
            if p.title not in found:
                found[p.title] = (-len(wanted & terms(p.title, lang)),
                                  -len(wanted & terms(f"{p.title} {p.text}", lang)), len(found))
    return sorted(found, key=found.__getitem__)[:CLOSEST]


def gather_themes(
    request: Request, search: SearchBackend, count: int, lang: str, name_whole: bool = True,
) -> tuple[list[str], list[Passage], dict[str, list[str]]]:
    """Choose the section themes of a request from what the corpora hold.

    1. Each subject is searched; its *core* passages hold every subject term
       (or are the subject's own document), its *linked* documents are named
       by a core passage; acronyms given in brackets are searched too. A
       subject its core only mentions in passing (:func:`_in_passing`) is not
       held by it. A subject no passage writes, in a request that is more than the subject,
       takes the article of a part of it (:func:`_part_article`: "Coffee" for
       "How does climate change affect coffee production?", "Vehicle" for
       "electric vehicle (EV) adoption rates"), which leads as the subject's
       own would. In a topic space a candidate must name a subject: by one of
       its terms, or a word sharing its first seven letters
       (:func:`~reportgen.agents.ranking.mentions`); where a part's article stands for
       the subject, by that part, the subject's other words ("driven" in
       "AI-driven automation", which Lung says of breathing) counting only
       beside a term of an aspect asked for; where the subject has no article
       of its own, by a term other than its head noun (:func:`distinctive`:
       Alaric I's "battle" does not name the Battle of Hastings); where it has one and two words, by its head
       noun alone, or by its other words alone and never before a noun, only when its core speaks of the
       candidate (:func:`by_head_only`, :func:`by_modifier_alone`, :func:`spoken_of`: *Nicolaus Otto*'s
       "engine" names no jet engine, *Solar wind* no wind turbine). A one-word subject is named by the words
       its own article makes from it too, and they are searched (:func:`derived_forms`: "volcanic").
    2. Each aspect asked for is searched with the subject.
    3. Every candidate document is scored by :class:`~reportgen.blueprint.relevance.Relatedness`
       to the core passages; those below its threshold
       (:data:`~reportgen.blueprint.relevance.SEMANTIC_THRESHOLD` in a topic space, else
       :data:`~reportgen.blueprint.relevance.ON_TOPIC_THRESHOLD`) are dropped
       (a shorter on-topic report beats a longer wandering one), so an
       ambiguous word keeps the sense of its core and a subject with no
       article of its own is found through the passages that mention it.
       A candidate naming the subject in half its sentences (:func:`names_densely`) is kept under
       the threshold, down to the sense floor.
       So are a candidate that names the subject only in passing (under
       :data:`LOOSE_RELATEDNESS` and :data:`PASSING_DENSITY`) or only to
       measure another thing by it (:func:`_compared`) or only in compounds
       its core never writes ("umbrella term": :func:`~reportgen.agents.ranking.compounded_only`), and, for a word
       without an article of its own, one of the word's other sense
       (:func:`~reportgen.blueprint.relevance.of_other_sense`).
    4. With two subjects, each subject's own document leads; then the best
       scored themes, one per document, no theme twice (see :func:`choose_themes`).

    Args:
        request: The read request.
        search: The search backend over every configured corpus.
        count: Body sections wanted.
        lang: Report language.
        name_whole: Whether a subject titled "<word> of <name>" (*Historia de México*, *Economy of China*) is
            named only by its whole title (:func:`proper_name`); when that leaves it fewer than half the themes
            wanted, it is gathered again without (a history taking only texts that print a year), and the
            gathering with more themes is kept.

    Returns:
        ``(theme titles in reading order, core passages, companions per theme
        title)`` (see :func:`companion_themes`); empty when the corpora hold
        nothing on the subject.
    """
    core: list[Passage] = []
    candidates: list[Passage] = []
    parts: dict[str, Passage] = {}  # subject → the article of its part that stands for it (_part_article)
    space = topic_space(search)
    part_of_request = len(request.subjects) > 1 or bool(request.aspects)
    cores: dict[str, list[Passage]] = {}  # each subject's core, in the request's order
    holdings: dict[str, tuple[list[Passage], bool]] = {}  # each subject's passages holding it, whether a phrase
    for subject in [*request.subjects, *request.acronyms]:
        # "Thé" is not the "The" of an English title: a text must write the subject's accents (writes_accents)
        found = [p for p in search.search(subject, k=PLAN_SEARCH_K)
                 if writes_accents(f"{p.title} {p.text}", subject, lang)]
        if subject in request.acronyms:  # "EV" as written, a word of its own: not the "eV" of electronvolts
            found = [p for p in found if re.search(rf"(?<!\w){re.escape(subject)}(?!\w)", f"{p.title} {p.text}")]
        holding, linked = _relevant(found, subject, lang)
        fallback = _core_terms(subject, found, lang) if not holding else ""
        if fallback:  # no passage holds every term of a long subject: the passages holding most of them
            holding, linked = _relevant(found, fallback, lang)
        subject_core = _core(holding, subject, lang, space, phrase=not fallback)  # "resilient wind farms": "wind farm"
        if not fallback and _in_passing(subject_core, subject, lang):
            subject_core = []  # "Quantum computing", written once in the encyclopedia (in Google), is not held
        if not fallback:  # a subject read from most of its terms, or through a part's article, is not read again
            holdings[subject] = (holding, True)
        if not subject_core:
            subject_core = (_part_article(subject, search, lang)
                            or (_part_article(subject, search, lang, named=False) if part_of_request else [])
                            or _qualified_article(subject, search, lang, space))
            if subject_core:  # the part's article stands for the subject: what it names and what names it join
                parts[subject] = subject_core[0]
                holdings.pop(subject, None)
                found = search.search(subject_core[0].title, k=PLAN_SEARCH_K)
                holding, linked = _relevant(found, subject_core[0].title, lang)
        cores[subject] = subject_core
        candidates += holding + linked + found[:40] + subject_core
    cores, far = _beside_each_other(request, cores, holdings, lang, space)
    core = [p for subject_core in cores.values() for p in subject_core]
    held_place = _place_of_things(request, lang)
    if held_place:  # "Rivers of France": a text naming France only to measure something by it is on no French river
        core = [p for p in core if not compared_only(f"{p.title}. {p.text}", held_place)] or core
    candidates = [p for p in candidates if p.source_id not in far] + core
    if not core and request.aspects:
        core = _aspect_core(request, search, lang)
    if not core:
        return [], [], {}
    # how the subject's own texts write it: "the lion", so "the Golden Lion" and "Apple Inc." are names (without_names)
    common, subject_words = common_terms(" ".join(p.text for p in core)), terms(request.subject, lang)
    # "volcanic ash" is on volcanoes: the texts writing the words the subject's core makes from it are searched
    made_from = derived_forms(request.subject, core, lang) if len(request.subjects) == 1 else frozenset()
    core_words = fold(" ".join(p.text for p in core))
    for word in sorted(made_from, key=lambda w: (-core_words.count(w), w))[:DERIVED_SEARCHED]:
        candidates += search.search(word, k=DERIVED_SEARCH_K)
    answers: set[str] = set()  # the aspects' own articles that speak of the subject ("Blue" for the sky)
    for aspect in request.aspects:
        candidates += search.search(f"{request.subject} {aspect}", k=30)
        own = _article_on(aspect, search, lang) if terms(aspect, lang) else None
        if own is not None and (_writes_a_subject(own, request, lang) or _writes_its_kind(own, request, lang)):
            answers.add(own.source_id)
            candidates.append(own)
        elif own is None:  # "migrate": Animal migration
            for titled in _titled_after(aspect, request, search, lang, space):
                answers.add(titled.source_id)
                candidates.append(titled)
    if asks_why(request):  # "Why is the sky blue?": the articles on what its texts say causes it
        answering = [p for p in candidates if p.source_id in answers]
        for own in explained(request, [*core, *answering], search, lang):
            answers.add(own.source_id)
            candidates.append(own)
    if space is not None:  # in a topic space the search's loose matches (feedback terms) must hold a subject term
        # a subject a part's article stands for is named by that part ("automation"); its other words
        # ("driven", which Lung says of breathing) count only beside an aspect asked for
        named = set().union(*(terms(parts[s].title if s in parts else s, lang) for s in request.subjects))
        named |= {a.lower() for a in request.acronyms}
        # nor a common word or a number ("type 2" of type 2 diabetes, beside "causes", had drawn *Bruise*, "the
        # most common cause", and *Respiratory failure*, "Type 1 or Type 2")
        loose = {t for t in terms(request.subject, lang) - named
                 if not t.isdigit() and space.rarity(t) >= COMMON_RARITY}
        asked = set().union(*(terms(a, lang) for a in request.aspects)) - named
        # a subject without an article of its own is named by its distinctive words (distinctive): its core
        # is the passages that name it, and the passages on another battle or another security are near them
        # a proper name is named only by writing it: "the Black Death", not any text on death (proper_name)
        proper = [s for s in request.subjects if s not in parts and proper_name(s, core, lang)
                  and (name_whole or not _of_a_name(s, core, lang))]
        # gathered again without the whole name ("Historia de México"), a name "<word> of <name>" is named by its
        # name written whole ("México"), not by any word of the title: *Révolte des Taiping* writes "guerre" and
        # "pour cent", and had been a section of "La guerre de Cent Ans" (_name_of)
        by_name = {s: name for s in request.subjects if not name_whole and s not in parts
                   and proper_name(s, core, lang) and (name := _name_of(s, core, lang))}
        naming = [set() if s in proper or s in by_name else terms(parts[s].title, lang) if s in parts
                  else uncommon(s, lang, space) if _own_article(s, core, lang) else distinctive(s, lang, space)
                  for s in request.subjects]
        naming += [{a.lower()} for a in request.acronyms]
        # "leaves" names the leaf: a one-word subject's plural the light stem does not fold (written_forms)
        naming += [form for s in request.subjects if s not in parts and len(terms(s, lang)) == 1
                   for form in written_forms(s, lang)[1:]]

        def names(held: set[str]) -> bool:  # "hydroelectric" names hydroelectricity (ranking.mentions)
            return any(mentions(held, t) for ts in naming for t in ts)

        own_texts = {s: [q.text for q in core if terms(q.title, lang) == terms(s, lang)] for s in proper}

        def names_proper(p: Passage) -> bool:  # writes the name ("Solar System" is no name to blank here), or
            # is what the name's article defines it as ("the world's largest coral reef system": Coral reef), or
            # what it names by title: "the best-known sections were built by the Ming dynasty" (the Great Wall
            # of China, which three articles write, had had one section, *Dzungar Khanate*)
            # not inside a longer name only: *Holy Roman Empire* writes no Roman Empire (in_longer_names_only, the
            # writer's rule), and had joined the section on the Western Roman Empire
            text = unnamed_each(f"{p.title}. {p.text}", bare_title(p.title), request, lang)
            return any(writes_phrase(text, s) and not in_longer_names_only(text, s)
                       or any(kind_of(t, s, bare_title(p.title), lang)
                                                     or names_title(t, bare_title(p.title)) for t in own_texts[s])
                       for s in proper) or any(writes_phrase(text, name) for name in by_name.values())

        # "Spring and Autumn period" is named with the subject's word, not after the season (unnamed_each)
        candidates = [p for p in candidates if p.source_id in answers
                      or names(held := terms(unnamed_each(without_names(f"{p.title}. {p.text}", subject_words, common),
                                                          bare_title(p.title), request, lang), lang))
                      or (loose & held and asked & held) or names_proper(p)]
    candidates = [p for p in candidates if p.source_id in answers
                  or all(writes_accents(f"{p.title} {p.text}", s, lang) for s in request.subjects)]
    by_doc: dict[str, list[Passage]] = {}
    for p in candidates:
        if p.text not in {q.text for q in by_doc.get(p.source_id, [])}:
            by_doc.setdefault(p.source_id, []).append(p)
    docs = {sid: " ".join(q.text for q in ps) for sid, ps in by_doc.items()}
    scorer = Relatedness([p.text for p in core], docs.values(), lang, subject=request.subject, space=space)
    relatedness = dict(zip(docs, scorer.scores([f"{by_doc[sid][0].title} {docs[sid]}" for sid in docs]), strict=True))
    # relatedness filters; without a space the order stays the search's (its score, with the boost of being
    # named by the core); in a space it is relatedness, raised by how much of the document is on the subject
    # a history's word is no aspect a text is scored by: the eras and "History of sociology" write it, and had
    # stood before Danton and Marat in "History of the French Revolution" (its sections come in time order)
    aspect_terms = [t for t in (terms(x, lang) for x in request.aspects
                                if fold(x) != _history_word(lang)) if t]
    # subjects of several words, each held by passages of its own: where a part's article stands for a subject, no
    # passage writes it, and a text holding its words apart is no nearer it (Cluster munition, whose bombs "destroy
    # vehicles" and "electric power transmission lines", had led a report on electric vehicles)
    wholes = [t for t in (terms(x, lang) for x in request.subjects if x not in parts) if len(t) > 1]

    # the compounds many candidates write the subject in, a set phrase on other things ("umbrella term", in Jade,
    # Textile, Gnosticism, Transgender): a text writing the subject only so is off however near it is (*Jade*, 0.40
    # to the Umbrella article, had been the one section of "Umbrella", a reader's find)
    idioms = {subject: set_phrases(docs.values(), subject, lang) for subject in request.subjects}

    def idiom_only(sid: str) -> bool:
        return for_each_subject(docs[sid], request, lang, lambda subject: in_set_phrases_only(
            docs[sid], subject, lang, idioms.get(subject, set())))

    @cache
    def density(sid: str) -> float:  # read by the passing-mention filter and the score: each list read once
        return subject_density(docs[sid], request, lang, made_from, thing=not name_whole)

    def theme_score(sid: str) -> float:
        score = relatedness[sid] + DENSITY_WEIGHT * density(sid)
        held = terms(docs[sid], lang)
        if len(request.subjects) > 1 and all(terms(x, lang) <= held for x in request.subjects):
            score += BOTH_SUBJECTS_BONUS  # "Coral reefs and climate change": a text on both before one on either
        if any(whole <= held for whole in wholes):
            score += WHOLE_SUBJECT_BONUS  # "Imperio incaico": Francisco Pizarro before Gengis Kan's "imperio"
        if aspect_terms:  # "Why is the sky blue?": a text on the sky that speaks of its blue first
            score += ASPECT_WEIGHT * sum(t <= held for t in aspect_terms) / len(aspect_terms)
        if sid in answers:  # the article "Blue", which says why the sky is blue, leads
            score += ANSWER_BONUS
        if sid in kinds:  # "Sharks": Whale shark before Sturgeon
            score += KIND_BONUS
        return score

    kinds = set(of_one_sense([sid for sid, ps in by_doc.items() if a_kind_of(ps[0].title, request, lang)], docs,
                             space, {sid: ps[0].title for sid, ps in by_doc.items()})) if space is not None else set()

    # of_other_sense is not applied to themes of a subject with an article of its own: the specific volcanoes
    # (Mount Etna) score under the threshold to the Volcano article as Apple Inc. does to the fruit's, so it
    # dropped Etna with Steve Jobs. A word with no article of its own ("Pitch": its core is the passages
    # densest in it, on the playing field) has no such anchor, and a theme far nearer its other sense (Pipe
    # organ, 0.22 to the field, near the musical passages) is of that sense; so has a word whose articles are
    # all of one sense or another ("Mercury (planet)": Project Mercury in "Apollo program" is of another).
    # For a subject with an article of its own the flag only withholds the rescue of a text naming the word
    # densely (names_densely): *Cricket*, the sport, writes "bat" in half its sentences, in the bat-and-ball
    # sense, and had stood in a report on bats.
    other_sense = dict.fromkeys(by_doc, False)
    dense_other = dict.fromkeys(by_doc, False)
    if len(request.subjects) == 1:
        flags = dict(zip(by_doc, of_other_sense([f"{by_doc[sid][0].title} {docs[sid]}" for sid in by_doc], scorer,
                                                request.subject, lang), strict=True))
        if _own_article(request.subject, core, lang):
            dense_other = flags
        else:
            other_sense = flags
    core_ids = {p.source_id for p in core}
    if asks_why(request):  # a text saying it led to the subject answers why, in the core's sense (causes_it)
        answers |= {sid for sid in docs if sid not in core_ids and relatedness[sid] >= KIND_FLOOR
                    and not other_sense[sid] and not dense_other[sid] and causes_it(docs[sid], request, lang)}
    core_text = " ".join(f"{p.title}. {p.text}" for p in core)  # "umbrella term" is no umbrella (compounded_only)
    # the other senses the note names, headed by the subject's word: "the computer mouse" is no mouse
    named_kinds = _named_kinds(request.subject, core, search, lang) if len(request.subjects) == 1 else []
    # a title writing the subject's common noun with a capital inside is a name: "Mickey Mouse" is no section of
    # a report on mice, nor "The Lion King" of one on lions (a_name)
    scored = [
        ps[0] if space is None else ps[0].model_copy(update={"score": theme_score(sid)})
        for sid, ps in by_doc.items()
        if ((relatedness[sid] >= scorer.threshold
             or sid in kinds and _dated(ps[0].title) and relatedness[sid] >= KIND_FLOOR
             or space is not None and not parts and relatedness[sid] >= KIND_FLOOR
             and names_densely(docs[sid], request, lang, made_from) and not dense_other[sid])
            and not other_sense[sid] or sid in answers)
        and (sid in core_ids or not a_name(ps[0].title, subject_words, common))
        and not _sibling(ps[0].title, docs[sid], request, core, lang)
        and not (space is not None and sid not in answers and sid not in core_ids and sid not in kinds
                 and (by_head_only(f"{ps[0].title}. {docs[sid]}", request, core, lang)
                      or by_modifier_alone(docs[sid], request, core, lang, ps[0].title, own_name=True)
                      or by_words_apart(f"{ps[0].title}. {docs[sid]}", request, core, core_text, lang)
                      or by_people_alone(f"{ps[0].title}. {docs[sid]}", request, core, core_text, lang, space))
                 and not spoken_of(ps[0].title, core_text, request, lang))
        and not _compared(unnamed_each(f"{ps[0].title} {docs[sid]}", bare_title(ps[0].title), request, lang),
                          request)  # "resemble a tiger's pattern", once "tiger shark" is blanked (unnamed)
        and not (sid not in answers and sid not in core_ids
                 and _in_named_kinds_only(docs[sid], request.subject, named_kinds, lang))
        and not (sid not in core_ids and _another_sense(ps[0].title, request, core, named_kinds))
        and not (sid not in answers and sid not in core_ids
                 and for_each_subject(docs[sid], request, lang,
                                      partial(of_its_own_kind, docs[sid], ps[0].title, core=core_text, lang=lang)))
        and not (space is not None and sid not in answers and sid not in core_ids
                 and (relatedness[sid] < LOOSE_RELATEDNESS or idiom_only(sid))
                 and for_each_subject(docs[sid], request, lang, partial(
                     _in_compounds, f"{ps[0].title}. {docs[sid]}", core=core, core_text=core_text, lang=lang)))
        and not (space is not None and not parts and sid not in answers and relatedness[sid] < LOOSE_RELATEDNESS
                 and density(sid) < PASSING_DENSITY)  # a passing mention
        and not (space is not None and not parts and sid not in answers and sid not in core_ids and sid not in kinds
                 and passing_sibling(docs[sid], ps[0].title, request, core, lang)  # Fukuoka in a report on Kyoto
                 and not spoken_of(ps[0].title, core_text, request, lang))
        and (name_whole or sid in core_ids or not _is_history(request, lang)
             or bool(printed_years(docs[sid], lang)))  # a past prints dates (below)
        and not (space is not None and not parts and sid not in answers and sid not in core_ids
                 and only_listed(docs[sid], request, lang)  # a passing mention, however near, unless the
                 and not _named_rarely(ps[0].title, core_text, lang, space)  # subject's texts name it (Camellia)
                 and not defined_as(ps[0].title, request.subject, core, lang))  # or it is the subject's class
    ]
    if space is not None:
        scored.sort(key=lambda p: -p.score)
        if len(request.subjects) > 1:  # "Cats versus dogs": not Mastiff, Herding dog and Canidae after the leads
            scored = taking_turns(scored, {sid: f"{ps[0].title} {docs[sid]}" for sid, ps in by_doc.items()},
                                  request, lang)
    place = _placed_in(request, lang)
    if place:  # things in a place: a section names the place ("Earthquakes in Japan" had been Lisbon's and Shaanxi's)
        scored = [p for p in scored if p.source_id in core_ids or p.source_id in answers
                  or names_place(f"{p.title}. {docs[p.source_id]}", place)]
    things = _things_of_the_place(request, lang)
    if things:  # "Los ríos de España": a section is one of the things, not the place's neighbour (Andorra)
        scored = [p for p in scored if p.source_id in core_ids
                  or mentions(terms(f"{p.title}. {(split_sentences(docs[p.source_id], lang) or [''])[0]}", lang),
                              things) and not (held_place and compared_only(f"{p.title}. {docs[p.source_id]}",
                                                                            held_place))]
    leads: list[Passage] = []
    if len(request.subjects) > 1:  # "Malaria and tuberculosis": each subject's own document is a section
        for subject in request.subjects:
            own, _ = choose_themes(parts[subject].title if subject in parts else subject, scored, 0, lang)
            if own is not None and own not in leads:
                leads.append(own)
    # the articles answering what the request asks lead, after the subjects' own: the subject's own article names
    # its parts, not its answer, so choose_themes's boost for a title it names had put *Passerine*, *Feather* and
    # *Moa* before *Animal migration* for "Why do birds migrate?", which then lost its section
    leads += [p for p in scored if p.source_id in answers and p not in leads][:MAX_ANSWERS]
    # half of a question's other sections are on what it asks of the subject: texts writing the subject and, in a
    # sentence, a word made from the aspect ("It is mainly migratory", of *Common quail*), before its other parts
    writing = [p for p in scored if p not in leads and p.source_id not in core_ids
               and writes_what_is_asked(docs[p.source_id], request, lang)]
    if writing:
        _, asked_of_it = choose_themes(request.subject, writing, max(0, count - len(leads)) // 2, lang)
        leads += asked_of_it
    # a core text titled by the subject's words is on it, where the subject has no article of its own: *Bee* and
    # *Honey* for "Honey bees" (choose_themes skips such titles as broader than the subject: *Energy* for
    # "Renewable energy")
    if len(request.subjects) == 1 and not _own_article(request.subject, core, lang):
        leads += [p for p in scored if p.source_id in core_ids and p not in leads
                  and terms(p.title, lang) < terms(request.subject, lang)][:max(0, count - len(leads))]
    senses = {p.source_id for p in core if fold(p.title).startswith(f"{fold(request.subject).strip()} (")}
    _, themes = choose_themes(request.subject, [p for p in scored if p not in leads and p.source_id not in senses],
                              max(0, count - len(leads)), lang)
    chosen = (leads + themes)[:count]
    if len(chosen) < count // 2 and name_whole and space is not None \
            and any(_of_a_name(s, core, lang) for s in proper):
        # "Historia de México", "China economy" (*Economy of China*): the title capitalises the place's name, and
        # the texts on its past or its economy need not write the whole title; the history's article, a sentence
        # long, names none of them by title (no section at all; "history of Egypt" had one, fewer than half).
        # Named by the place alone, a text must print a year to be on its past: *Sobremesa*, *Aldea* and *Iker
        # Casillas* name Spain and print none
        gathered = gather_themes(request, search, count, lang, name_whole=False)
        if len(gathered[0]) > len(chosen):  # "history of Egypt" had one section, *Narmer*, its article names
            return gathered
    if tells_history(request, lang):  # a history reads in time order
        chosen = in_time_order(chosen, " ".join(p.text for p in core), docs, lang)
    # only documents that name the subject join: the nearest neighbours of its core in the topic space
    # were tried and brought Gibbon into a section on tea plants
    spare = [p.title for p in scored if p not in chosen and p.source_id not in core_ids]
    # a question's texts writing what it asks join first, each section taking at most MAX_COMPANIONS
    asking = {p.title for p in writing}
    spare = sorted(spare, key=lambda title: title not in asking)
    # the periods of a history: a document joins the period it names (the Second Sino-Japanese War had joined
    # the Jōmon period, the nearest section in the topic space)
    periods = {p.title: f"{p.title} {docs[p.source_id]}" for p in scored} if _is_history(request, lang) else None
    whole = [p.title for p in core if terms(bare_title(p.title), lang) == terms(request.subject, lang)]
    # which of two subjects each document is on: those its title writes, else those its text writes ("Bat" is on
    # bats though its text says they fly better than birds), where each is written by some section
    written = {p.title: {s for s in request.subjects if writes_phrase(bare_title(p.title), s)}
               or {s for s in request.subjects if writes_phrase(docs[p.source_id], s)}
               for p in scored if p.source_id in docs} if len(request.subjects) == 2 else {}
    if not all(any(s in written.get(p.title, set()) for p in chosen) for s in request.subjects):
        written = {}
    return [p.title for p in chosen], core, companion_themes(chosen, spare, space, naming=periods, lang=lang,
                                                              general=whole[0] if whole and len(request.subjects) == 1
                                                              else None, written=written or None)


def _placed_in(request: Request, lang: str) -> str:
    """The place an English request puts its things in, or ``""``: one subject, a plural in small letters once read
    ("Earthquakes", "bridges"), and one aspect written as a name, every word capitalised ("Japan", "South America"),
    as "<things> in <Place>" is read (the place an aspect when the corpora do not hold the whole).

    Args:
        request: The read request.
        lang: Its language (English: French and Spanish read "<things> de <place>" otherwise).

    Returns:
        The place as the request writes it, or ``""``.
    """
    if lang != "en" or len(request.subjects) != 1 or len(request.aspects) != 1:
        return ""
    things, place = request.subjects[0].split(), request.aspects[0]
    if len(things) != 1 or not things[0].lower().endswith("s") or not things[0][1:].islower():
        return ""
    words = place.split()
    return place if words and all(w[:1].isupper() for w in words if w.lower() not in _NAME_PARTICLES) else ""


#: An English subject of things of a place, held as asked ("Languages of Nigeria", "Rivers of India").
_THINGS_OF_A_PLACE = re.compile(r"(?P<things>[A-Za-z]+s)\s+of\s+(?P<place>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")


def _things_of_the_place(request: Request, lang: str) -> str:
    """The things a request asks of a place, as a term, or ``""``: "Los ríos de España" is read as *España* with the
    aspect "ríos"; its sections had been Andorra, Madrid and *Pelota vasca*, and those of "Les volcans du Japon"
    Korea, Taiwan and the yen. An English subject held as asked (:data:`_THINGS_OF_A_PLACE`) too: "Languages of
    Nigeria" had *Ivory Coast*, *Cameroon* and *West Africa*, "Deserts of Africa" *Tunisia*, *Botswana* and
    *Kenya*. A section is then one of the things: its title or the first sentence found of it writes the word
    (*Aconcagua*, "la montaña más alta"). An aspect a place is asked (:func:`~reportgen.blueprint.request.aspect_noun`:
    "économie", "historia") names no things.

    Args:
        request: The read request.
        lang: Its language (English "<things> in <Place>" read as the things is :func:`_placed_in`'s).

    Returns:
        The things' word in the singular, stemmed (:func:`~reportgen.agents.ranking.terms`), or ``""``.
    """
    if lang == "en":
        # "Languages of Nigeria", held as asked: its sections had been *Ivory Coast*, *Cameroon* and *West Africa*
        held_whole = _held_things_of_a_place(request, lang)
        if held_whole is None:
            return ""
        found = sorted(terms(singular(held_whole.group("things"), lang), lang))
        return found[0] if len(found) == 1 else ""
    if lang not in ("fr", "es") or len(request.subjects) != 1 or len(request.aspects) != 1:
        return ""
    place, aspect = request.subjects[0], request.aspects[0]
    if not place[:1].isupper() or len(aspect.split()) != 1 or not aspect.islower() or aspect_noun(aspect) \
            or not re.search(r"[sx]$", aspect):
        return ""
    held = sorted(terms(singular(aspect, lang), lang))
    return held[0] if held else ""


def charted_subject(request: Request, lang: str) -> str | None:
    """The report's subject as a chart must name it, when the request asks for things of a place and the subject
    searched is only the things or only the place: "Mountains in Chile" for "Mountains of Chile" (read as the
    mountains, :func:`_placed_in`), "langues Canada" for "Les langues du Canada" (read as Canada,
    :func:`_things_of_the_place`). A chart in a section on another theme draws only on texts naming it
    (:func:`~reportgen.agents.plot.on_the_report`): readers found the Balkan and Carpathian ranges beside the Andes
    in "Mountains of Chile", and Calgary's population in "Les langues du Canada".

    Args:
        request: The read request.
        lang: Its language.

    Returns:
        The things and the place as one phrase (every word must be named), or ``None`` for any other request.
    """
    place = _placed_in(request, lang)
    if place:
        return f"{request.subjects[0]} in {place}"
    if lang in ("fr", "es") and _things_of_the_place(request, lang):
        return f"{request.aspects[0]} {request.subjects[0]}"
    return None


#: The places a text names only to leave them out, up to the next word in small letters: "a worldwide native
#: distribution except for Australia and the polar regions" (*Finch*, a section of "Birds in Australia" a reader
#: found off), "native to all countries in South America except Chile", "sauf la Corse", "excepto Chile".
_EXCLUDED_PLACES = re.compile(
    r"\b(?:except(?:\s+(?:for|in))?|excluding|apart\s+from|other\s+than|sauf|hormis|excepté|excepto|salvo|"
    r"menos)\s+(?:(?:the|la|le|les|l['’]|el|los|las|and|or|et|ou|y|o|,)\s*|[A-ZÀ-Ý][\w'’\-]*\s*)+"
)


def _place_of_things(request: Request, lang: str) -> str:
    """The place of an English subject of things of a place held as asked (:data:`_THINGS_OF_A_PLACE`: "France" of
    "Rivers of France"), or ``""``. A text naming it only to measure something by it (:func:`compared_only`: the
    *Columbia River*'s "drainage basin is roughly the size of France") is on none of its things: it had been a
    section of "Rivers of France", and one of the texts its note said the report drew on.

    Args:
        request: The read request.
        lang: Its language.

    Returns:
        The place as the request writes it, or ``""``.
    """
    held = _held_things_of_a_place(request, lang)
    return held.group("place") if held is not None else ""


def _held_things_of_a_place(request: Request, lang: str) -> re.Match[str] | None:
    """The match of an English request's one subject, with no aspect, as things of a place held as asked
    (:data:`_THINGS_OF_A_PLACE`, its things no aspect a place is asked:
    :func:`~reportgen.blueprint.request.aspect_noun`), or ``None``: the reading :func:`_things_of_the_place` and
    :func:`_place_of_things` share."""
    if lang != "en" or len(request.subjects) != 1 or request.aspects:
        return None
    held = _THINGS_OF_A_PLACE.fullmatch(request.subjects[0])
    return held if held is not None and not aspect_noun(held.group("things")) else None


def names_place(text: str, place: str) -> bool:
    """Whether a text writes a place, or its people's word (:func:`_same_people`: "Japanese" for Japan,
    "Italian" for Italy), capitalised, other than to leave it out (:data:`_EXCLUDED_PLACES`).

    Args:
        text: A candidate's title and text.
        place: The place, as the request writes it.

    Returns:
        True when the text writes it.
    """
    text = _EXCLUDED_PLACES.sub(" ", text)
    if writes_phrase(text, place):
        return True
    words = place.split()
    return len(words) == 1 and any(_same_people(words[0], w) for w in re.findall(r"\b[A-Z][a-z]+\b", text))


def a_kind_of(title: str, request: Request, lang: str) -> bool:
    """Whether a title names a kind of the request's one subject: it writes every subject term and more, and
    is headed by the subject's head noun (:func:`~reportgen.agents.ranking.head_noun`: "Whale shark" and
    "Great white shark" for "Sharks", "Space-based solar power" for "Solar power"; not "Tiger shark" for
    "Tiger", nor "Wind power" for "Solar power").

    Args:
        title: A candidate's title (its bracketed qualifier is ignored).
        request: The read request.
        lang: Its language.

    Returns:
        True for a kind of the subject (``False`` for a request on two subjects).
    """
    if len(request.subjects) != 1:
        return False
    name, subject = bare_title(title), request.subject
    wanted, held = terms(subject, lang), terms(name, lang)
    head = terms(head_noun(name, lang), lang)
    return bool(wanted and head) and wanted < held and head == terms(head_noun(subject, lang), lang)


#: Least mean similarity, in the topic space, of a subject's kind to its other kinds for it to count as one
#: (:func:`of_one_sense`). Measured on the English edition: the sharks' kinds 0.45-0.51 to one another, Stem
#: cell 0.55 and Plant cell 0.48 among the cells, where *Solar cell* has 0.39 and *Hadley cell* 0.28 (the
#: word in other senses); Flowering, Carnivorous and Chemical plant 0.30-0.35 (a factory among them: none
#: counts).
KIND_SIMILARITY = 0.4


def of_one_sense(kinds: list[str], docs: dict[str, str], space: TopicSpace,
                 titles: dict[str, str] | None = None) -> list[str]:
    """The kinds of a subject (:func:`a_kind_of`) that are of one sense with the others: at least
    :data:`KIND_SIMILARITY` to them on average in the topic space. "Cell" has Stem cell, Muscle cell and Plant
    cell, and also *Solar cell* and *Hadley cell*, named with the word in other senses; "Plant" has Flowering
    plant and Carnivorous plant, and *Chemical plant*, a factory. A lone kind stays one, and so does a dated
    event (:func:`_dated`): the 1755 Lisbon, 1976 Tangshan and 1556 Shaanxi earthquakes are each on a
    place and its dead, 0.2-0.3 to one another, and each is an earthquake.

    Args:
        kinds: Source ids of the candidates titled as kinds of the subject.
        docs: Each candidate's text, by source id.
        space: The corpus's topic space.
        titles: Each candidate's title, by source id (default: none is dated).

    Returns:
        The source ids kept, in their order.
    """
    if len(kinds) < 2:
        return kinds
    vectors = space.vectors([docs[sid] for sid in kinds])
    similar = vectors @ vectors.T
    return [sid for i, sid in enumerate(kinds)
            if (similar[i].sum() - similar[i, i]) / (len(kinds) - 1) >= KIND_SIMILARITY
            or titles is not None and _dated(titles.get(sid, ""))]


def _dated(title: str) -> bool:
    """Whether a title, its bracketed qualifier aside, holds a number: it names one instance of its head noun
    (an event by its year: "1755 Lisbon earthquake", "2004 Summer Olympics"), not another sense of the word."""
    return bool(re.search(r"\d", bare_title(title)))


def taking_turns(scored: list[Passage], texts: dict[str, str], request: Request, lang: str) -> list[Passage]:
    """The themes of a request on several subjects, the subjects taking turns.

    A broad subject draws the most related candidates: "Coral reefs and climate change" had Köppen climate
    classification, Temperate climate and Natural gas after its two leads, "Cats versus dogs" Mastiff,
    Herding dog and Canidae. The candidates naming every subject come first; then one of the first
    subject's, one of the second's, … each subject's in their order. A candidate is a subject's when it
    holds the largest share of that subject's terms (the first subject's on a tie).

    Args:
        scored: The candidates, best first.
        texts: Each candidate's title and text, by source id.
        request: The read request (two subjects or more).
        lang: Its language.

    Returns:
        The same candidates, reordered, their scores falling in that order.
    """
    wanted = [terms(s, lang) for s in request.subjects]
    every: list[Passage] = []
    turns: list[list[Passage]] = [[] for _ in wanted]
    for p in scored:
        held = terms(texts.get(p.source_id, f"{p.title} {p.text}"), lang)
        shares = [len(w & held) / len(w) if w else 0.0 for w in wanted]
        if all(share == 1.0 for share in shares):
            every.append(p)
        else:
            turns[max(range(len(wanted)), key=lambda i: shares[i])].append(p)
    ordered = every
    for rank in range(max(map(len, turns), default=0)):
        ordered += [turn[rank] for turn in turns if rank < len(turn)]
    # scores that keep the order (choose_themes orders by score)
    return [p.model_copy(update={"score": float(len(ordered) - i)}) for i, p in enumerate(ordered)]


def unnamed_each(text: str, name: str, request: Request, lang: str) -> str:
    """``text`` without an article's name that is named with the words of a subject but headed by another noun
    (:func:`~reportgen.agents.ranking.unnamed`), each subject of the request judged alone: with "Lions vs
    tigers", *Tiger shark* is named with the tiger's word, though not with "lions and tigers", and the rest of
    its text only likens stripes to "a tiger's pattern"; it had been a section of that comparison.

    Args:
        text: Any text.
        name: The article's name, without its bracketed qualifier.
        request: The read request.
        lang: The language.

    Returns:
        ``text`` with the name blanked where it is named after a subject.
    """
    return unnamed_for(text, name, request.subjects, lang)


def _compared(text: str, request: Request) -> bool:
    """Whether a candidate writes the subjects only to measure something else by them
    (:func:`~reportgen.agents.ranking.compared_only`): Ganymede "is larger than the planet Mercury" is a
    moon of Jupiter, no section of a report on Mercury."""
    written = [s for s in request.subjects if writes_phrase(text, s)]
    return bool(written) and all(compared_only(text, s) for s in written)


def _sibling(title: str, text: str, request: Request, core: list[Passage], lang: str) -> bool:
    """Whether a candidate is another thing of the subject's kind rather than a part of the subject.

    "Guerra civil de Nigeria" beside "Guerra Civil Española", "Philippine
    Revolution" beside "French Revolution", "Wind power" beside "Solar
    power": the title holds the subject's head noun (:func:`~reportgen.agents.ranking.head_noun`:
    the last before a preposition in English, the first in French and Spanish) but not all its words, and its
    text never writes the subject. "Solar energy" stays in a report on
    renewable energy when it says it is renewable energy; "Solar cell" stays
    in one on solar power (no head noun). Only for one subject of two or
    more words that has an article of its own (the core's title), or whose head noun's article stands for
    it (*Vehicle* for "electric vehicle": *Launch vehicle* is another vehicle), in the
    encyclopedia's languages.

    Returns:
        True when the candidate is a sibling, to be left out.
    """
    if len(request.subjects) != 1 or lang not in ("en", "fr", "es"):
        return False
    subject = request.subject
    words = [w for w in tokenize(subject) if w not in stopwords(lang)]
    wanted = terms(subject, lang)
    head = terms(head_noun(subject, lang), lang)
    if len(wanted) < 2 or not words or not (_own_article(subject, core, lang)
                                            or any(terms(p.title, lang) == head for p in core)):
        return False
    held = terms(title, lang)
    return bool(head) and head <= held and not wanted <= held and not writes_phrase(f"{title} {text}", subject) \
        and not any(kind_of(p.text, subject, bare_title(title), lang) for p in core if terms(p.title, lang) == wanted)


def names_title(text: str, title: str) -> bool:
    """Whether a text writes a title of more than three letters as a word group, folded: the subject's core
    naming a candidate ("Engine" in the Jet engine article; "Farm" is not in "wind farms")."""
    name = fold(title)
    return len(name) > 3 and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", fold(text)) is not None


#: The role a title takes its thing in ("Chicken *as food*", "Le cheval *comme* animal", "El agua *como* recurso").
_AS_ROLE = re.compile(r"\s+(?:as|comme|como)\s+", re.IGNORECASE)


def spoken_of(title: str, core_text: str, request: Request, lang: str) -> bool:
    """Whether the subject's core speaks of a candidate: writes its title (*Engine* in the Jet engine
    article), or a word of it beside the subject's own (:func:`~reportgen.agents.ranking.mentions`: the Solar
    power article's "conversion of energy from sunlight into electricity" speaks of *Electricity generation*
    and *Electrical grid*, its "drive a steam turbine" of *Wind turbine*; the Jet engine article speaks of
    neither *Steam locomotive* nor *Filling station*).

    Args:
        title: The candidate's title.
        core_text: The core passages' titles and texts.
        request: The read request.
        lang: The language.

    Returns:
        True when the core names the candidate or a word of its title.
    """
    bare = bare_title(title)
    held = terms(core_text, lang)
    # what a thing is taken "as" is no word of the thing: *Chicken as food* is not spoken of by "the regional and
    # traditional foods of Japan" (it had been a section of "Cuisine of Japan" and of "Cuisine of Mexico")
    own = terms(_AS_ROLE.split(bare)[0], lang) - terms(request.subject, lang)
    return names_title(core_text, bare) or any(mentions(held, t) for t in own)


def by_head_only(text: str, request: Request, core: list[Passage], lang: str) -> bool:
    """Whether a candidate names a subject of several words only by its head noun
    (:func:`~reportgen.agents.ranking.head_noun`): a text on its kind, or on another thing of its kind.

    *Nicolaus Otto* (0.69 to *Jet engine* in the topic space), *Steam locomotive* and *Filling station* write
    "engine" and never "jet"; *Ironing*'s "permanent press" is no printing press. A reader found them off the
    subject: :func:`_sibling` reads the title alone, and they are titled otherwise. Only for one subject with
    an article of its own, in the encyclopedia's languages; :func:`gather_themes` keeps a document the
    subject's core names by title (*Engine*, which the Jet engine article names), an answer and a kind of the
    subject, and one the core speaks of (:func:`spoken_of`): *Electricity generation*, which never writes
    "solar", stays in a report on solar power, whose article converts sunlight "into electricity" (it is why
    :func:`uncommon` lets the head noun name the subject); *Hydropower* leaves it.

    Args:
        text: The candidate's title and text.
        request: The read request.
        core: The subject's core passages.
        lang: The language.

    Returns:
        True when the text holds the subject's head noun and none of its other terms.
    """
    if len(request.subjects) != 1 or lang not in ("en", "fr", "es") or not _own_article(request.subject, core, lang):
        return False
    wanted = terms(request.subject, lang)
    head = terms(head_noun(request.subject, lang), lang) & wanted
    rest, held = wanted - head, terms(text, lang)
    return bool(head and rest) and head <= held and not rest & held


def by_words_apart(text: str, request: Request, core: list[Passage], core_text: str, lang: str) -> bool:
    """Whether a candidate holds both words of a two-word subject with an article of its own, never side by
    side, each only in a compound naming another thing that the subject's texts never write.

    *Dark humor* writes "dark comedy", "dark humor" and "subject matter": no dark matter, though it holds both
    words in every sentence, and it had been a section of "What is dark matter?" (a reader found it). A text
    writing either word alone ("pumps move heat" for heat pumps) or in a compound of the subject's own texts
    ("solar panels" for solar power) may still be on the subject, and is left to the other rules. English only:
    French and Spanish write a noun's describing adjective after it ("l'énergie principale" of *Bombe H*, whose
    energy is nuclear), and a word after a noun no more makes a compound there (the rule had left *Bombe H* and
    *Arme nucléaire* out of "Énergie nucléaire").

    Args:
        text: The candidate's title and text.
        request: The read request.
        core: The subject's core passages.
        core_text: Their titles and texts, joined.
        lang: The language.

    Returns:
        True when the candidate is to be left out as naming other things.
    """
    if len(request.subjects) != 1 or lang != "en" or not _own_article(request.subject, core, lang):
        return False
    words = tokenize(request.subject)
    if len(words) != 2 or words[1] != head_noun(request.subject, lang) or writes_phrase(text, request.subject):
        return False
    modifier, head = words
    nouns = neighbours(text, modifier, lang, after=True)  # "dark comedy": the modifier's other nouns
    modifiers = neighbours(text, head, lang, after=False)  # "subject matter": the head's other modifiers
    return (bool(nouns) and bool(modifiers) and "" not in nouns | modifiers
            and not nouns & neighbours(core_text, modifier, lang, after=True)
            and not modifiers & neighbours(core_text, head, lang, after=False))


def by_modifier_alone(text: str, request: Request, core: list[Passage], lang: str, title: str = "",
                      own_name: bool = False) -> bool:
    """Whether a candidate names a subject of several words only by its other words, never as they modify a
    noun, or is titled by a name headed by one of them: the mirror of :func:`by_head_only`.

    "Wind turbines": *Solar wind* is a wind of the Sun, and *Machine* writes "wind" as a noun ("natural forces
    such as wind and water"), never "turbine"; neither is on wind turbines (a reader found both in that
    report). *Solar cell* writes "solar" before a noun ("solar cells", "solar energy") and stays in a report on
    solar power. With ``own_name``, the candidate's own name does not count
    (:func:`~reportgen.agents.ranking.unnamed` with ``part``): *Coral snake* writes "coral" only in "coral
    snakes", and had been a section of a report on coral reefs; *Solar cell* still writes "solar panels". A
    modifier stands before its noun in English and after it in French and Spanish ("énergie solaire"), with
    only spaces or a hyphen between. :func:`gather_themes` keeps the same candidates as for
    :func:`by_head_only` (answers, kinds, the core, and what the core speaks of: *Wind*, which the Wind turbine
    article names).

    Args:
        text: The candidate's text.
        request: The read request.
        core: The subject's core passages.
        lang: The language.
        title: The candidate's title ("" to judge the text alone).
        own_name: Blank the candidate's own name, when a word of the subject heads none of it, before judging.

    Returns:
        True when the text holds the subject's other terms, not its head noun, and never as a modifier.
    """
    if len(request.subjects) != 1 or lang not in ("en", "fr", "es") or not _own_article(request.subject, core, lang) \
            or _is_history(request, lang):  # "Historia de la aviación": a text on aviation needs no "historia"
        return False
    wanted = terms(request.subject, lang)
    head = terms(head_noun(request.subject, lang), lang) & wanted
    rest, held = wanted - head, terms(text, lang)
    if not head or not rest or head & held or not rest & held:
        return False
    if title and stem(head_noun(bare_title(title), lang)) in rest:
        return True  # "Solar wind": a wind, not a wind turbine
    if title and own_name:  # "coral snakes" in *Coral snake*: its own name, headed by a noun of none of its words
        text = unnamed(text, bare_title(title), wanted, lang, part=True)
    folded, stop = fold(text), stopwords(lang)
    words = list(re.finditer(r"[^\W_]+", folded))
    for i, word in enumerate(words):
        if stem(word.group()) not in rest:
            continue
        noun = words[i + 1] if lang == "en" and i + 1 < len(words) else words[i - 1] if lang != "en" and i else None
        if noun is None:
            continue
        between = folded[word.end():noun.start()] if lang == "en" else folded[noun.end():word.start()]
        if re.fullmatch(r"[\s-]+", between) and noun.group() not in stop and not noun.group().isdigit():
            return False  # "wind turbines", "wind farm": the word modifies a noun
    return True


#: Least relatedness, in the topic space, of a candidate naming a subject "<people> <thing>" only by its people
#: to the thing alone (:func:`by_people_alone`): for *Chinese cuisine*, *Sake* is at 0.33 to "cuisine", *Soy
#: sauce* 0.47, *Noodle* 0.65; *Chinese calendar* 0.19, *Petrarch* (an "Italian scholar") 0.19, *Kojiki* 0.11,
#: *Chinese Civil War* 0.01.
PEOPLE_HEAD_RELATEDNESS = 0.25


def by_people_alone(text: str, request: Request, core: list[Passage], core_text: str, lang: str,
                    space: TopicSpace | None) -> bool:
    """Whether a candidate names an English subject "<people> <thing>" ("Chinese cuisine", "Greek mythology",
    "Russian literature") only by its people, and is not on the thing: it never writes the head noun, nor a word
    it is made from or that is made from it (:func:`_derived`: "myths" for "mythology"; *Kojiki* had left "Japanese
    mythology"), and relates to it alone by less than :data:`PEOPLE_HEAD_RELATEDNESS` in the topic space.

    The people's adjective modifies every noun it is written before, so :func:`by_modifier_alone` keeps it:
    *Chinese Civil War*, *Chinese calendar* and *Yue Chinese* had been sections of the Chinese cuisine, and
    *Petrarch*, *Giuseppe Garibaldi* and *Mannerism* of the Italian. The people is a word the subject's own
    texts always write with its capital (:func:`~reportgen.agents.ranking.never_small`): "solar" in "Solar
    power" is no people. :func:`gather_themes` keeps the same candidates as for :func:`by_head_only`.

    Args:
        text: The candidate's title and text.
        request: The read request.
        core: The subject's core passages.
        core_text: Their titles and texts, joined.
        lang: The language.
        space: The corpus's topic space (without one nothing is left out).

    Returns:
        True when the candidate is to be left out as on the people, not the thing.
    """
    if space is None or lang != "en" or len(request.subjects) != 1 or not _own_article(request.subject, core, lang):
        return False
    words = request.subject.split()
    head = head_noun(request.subject, lang)
    wanted = terms(request.subject, lang)
    rest, held = wanted - terms(head, lang), terms(text, lang)
    heads = terms(head, lang)
    if len(words) < 2 or not head or not rest or not rest & held or not never_small(words[0], core_text) \
            or any(h == t or _derived(h, t, lang) or _derived(t, h, lang) for h in heads for t in held):
        return False  # it writes the head, or a word it is made from: *Kojiki*'s "myths" for "Japanese mythology"
    return Relatedness([head], [], lang, subject=head, space=space).score(text) < PEOPLE_HEAD_RELATEDNESS


#: Most words between a definition's copula and the kind it defines the subject as: "The Great Barrier Reef
#: is *the world's largest* coral reef system" (4).
KIND_GAP = 5


def kind_of(text: str, subject: str, kind: str, lang: str) -> bool:
    """Whether an article's first sentence defines ``subject`` as a ``kind``: the subject before the copula,
    the kind within :data:`KIND_GAP` words after it, in one clause ("The Great Barrier Reef is the world's
    largest coral reef system": a coral reef). The kind is no sibling of the subject but what it is
    (:func:`_sibling`): *Coral reef* is a section of a report on the Great Barrier Reef.

    Args:
        text: The subject's own article's text.
        subject: The subject.
        kind: A candidate's title, its qualifier removed.
        lang: The language.

    Returns:
        True when the first sentence defines the subject so.
    """
    sentences = split_sentences(text, lang)
    if not sentences:
        return False
    words = tokenize(re.split(r"[,;:(]", sentences[0])[0])
    stems = [stem(w) for w in words]
    verb = next((i for i, w in enumerate(words) if w in _COPULAS.get(lang, _COPULAS["en"])), None)
    wanted, sort = [stem(t) for t in tokenize(subject)], [stem(t) for t in tokenize(kind)]
    return verb is not None and bool(sort) and _at(stems, wanted, 0, verb) is not None \
        and _at(stems, sort, verb + 1, verb + 1 + KIND_GAP + len(sort)) is not None


def _in_compounds(text: str, subject: str, core: list[Passage], core_text: str, lang: str) -> bool:
    """Whether a candidate writes a one-word subject only in compounds naming another thing
    (:func:`~reportgen.agents.ranking.compounded_only`: "umbrella term", "coffee table"), a compound headed by
    the kind the subject's own article defines it as (:func:`kind_of`) naming the subject itself: Alexander
    Fleming's penicillin "was the first antibiotic substance discovered", and "An antibiotic is a type of
    antimicrobial substance"; the rule had dropped him from a report on antibiotics.

    Args:
        text: The candidate's title and text.
        subject: The subject.
        core: The subject's core passages.
        core_text: Their titles and texts, joined.
        lang: The language.

    Returns:
        True when the candidate is to be left out as naming another thing.
    """
    if not compounded_only(text, subject, core_text, lang):
        return False
    return not any(defined_as(head, subject, core, lang) for head in compounds(text, subject, lang))


def _named_rarely(title: str, core_text: str, lang: str, space: TopicSpace) -> bool:
    """Whether the subject's core writes a candidate's title, every word of it uncommon in the corpus (at least
    :data:`COMMON_RARITY`): the Tea article's "leaves of *Camellia sinensis*" names *Camellia* (8.8); the Earthquake
    article's "the shaking of the Earth's surface" does not make *Earth* (4.3) more than a passing mention."""
    name = bare_title(title)
    return writes_phrase(core_text, name) and all(space.rarity(t) >= COMMON_RARITY for t in terms(name, lang))


def defined_as(kind: str, subject: str, core: list[Passage], lang: str) -> bool:
    """Whether the subject's own article (its core passage titled with its terms, a bracketed qualifier aside)
    defines it as ``kind``, or as its head noun (*Terrestrial planet*), in its first sentence (:func:`kind_of`):
    "Mercury is the first planet from the Sun", "Crabs are decapod crustaceans", "Cheese is a dairy product".

    Args:
        kind: A candidate's title (its qualifier is dropped) or a compound's head.
        subject: The subject.
        core: The subject's core passages.
        lang: The language.

    Returns:
        True when an own article of the core defines the subject so.
    """
    wanted, name = terms(subject, lang), bare_title(kind)
    return any(kind_of(p.text, subject, k, lang) for p in core if terms(bare_title(p.title), lang) == wanted
               for k in dict.fromkeys([name, head_noun(name, lang)]))


#: Words that open a relative clause after a defined kind ("a city *that* …").
_RELATIVES = frozenset({"that", "which", "who", "whose", "where"})
#: Words a definition opens on that name no kind of their own ("a *member* of the genus Panthera", "a *type* of
#: …", "the *process* by which …", "a *rise* of prices": a wage spiral is no sibling of inflation): a text
#: defined so is no sibling of another defined so.
_GENERIC_KINDS = frozenset("type kind form member group one part name term set class variety sort example number "
                           "collection series branch field area process way common rise increase decrease decline "
                           "growth change loss".split())


def defined_kind(text: str, lang: str) -> str:
    """The kind a text's first sentence defines its subject as: the head noun
    (:func:`~reportgen.agents.ranking.head_noun`) of the words after its first copula, up to a comma or a
    clause ("Kyoto, officially Kyoto City, is the capital city of Kyoto Prefecture" → "city"; "Fukuoka is a
    designated city in the Kyushu region" → "city").

    Args:
        text: An article's text.
        lang: Its language (English, French, Spanish copulas: :data:`_COPULAS`).

    Returns:
        The kind's word, stemmed (:func:`~reportgen.agents.ranking.stem`), or ``""``.
    """
    sentences = split_sentences(text, lang)
    if not sentences:
        return ""
    words = tokenize(sentences[0])
    verb = next((i for i, w in enumerate(words) if w in _COPULAS.get(lang, _COPULAS["en"])), None)
    if verb is None:
        return ""
    phrase = words[verb + 1:verb + 1 + KIND_GAP + 2]
    if lang == "en":  # "an aromatic beverage prepared by …": a participle before a function word ends the phrase
        stop = stopwords(lang)
        end = next((i for i, w in enumerate(phrase) if i and (w in _RELATIVES or w.endswith(("ed", "ing")) and (
            i + 1 == len(phrase) or phrase[i + 1] in stop))), len(phrase))
        phrase = phrase[:end]
    kind = stem(head_noun(" ".join(phrase), lang)) if phrase else ""
    return "" if kind in _GENERIC_KINDS else kind


def passing_sibling(text: str, title: str, request: Request, core: list[Passage], lang: str) -> bool:
    """Whether a candidate is another thing of the subject's kind that names the subject in passing: its first
    sentence defines it as the kind the subject's own article defines the subject as (:func:`defined_kind`),
    and it names the subject in one sentence at most (under :data:`DENSE_SENTENCES`). *Fukuoka* ("a designated city
    in the Kyushu region of Japan") names Kyoto once, as a far-off political centre, and a reader found it off
    the subject of a report on Kyoto; *Kobe*, which names Kyoto in two sentences of five, stays (and the Kyoto
    article speaks of it: :func:`gather_themes` keeps what the core speaks of).

    Args:
        text: The candidate's text.
        title: Its title.
        request: The read request (one subject with an article of its own, else never).
        core: The subject's core passages.
        lang: The language.

    Returns:
        True when the candidate is such a sibling.
    """
    if len(request.subjects) != 1 or lang not in ("en", "fr", "es"):
        return False
    wanted = terms(request.subject, lang)
    own = [p for p in core if terms(bare_title(p.title), lang) == wanted]
    kind = defined_kind(own[0].text, lang) if own else ""
    if not kind or kind in wanted or stem(head_noun(bare_title(title), lang)) == kind:
        return False  # no kind; the subject's own word ("Sharks"); a kind of the subject titled by its kind
    sentences = split_sentences(text, lang) or [text]
    return defined_kind(text, lang) == kind and naming_sentences(sentences, request, lang) < DENSE_SENTENCES


#: Least similarity, in the topic space, of a document to a section's own for it to join that section.
COMPANION_SIMILARITY = 0.35
#: Most documents joined to one section.
MAX_COMPANIONS = 4
#: Least margin by which a document nearer, in the topic space, to the subject's own article than to every section's
#: joins none (:func:`companion_themes`): *Theodor Herzl*, who names the Ottoman Empire once, is 0.53 from its
#: article and at best 0.40 from a section (*Ottoman wars in Europe*); *Mount Vesuvius*, 0.43 from *Volcano* and 0.40
#: from *Ring of Fire*, joins. Over 92 requests it set three apart: *Herzl*; *South China Sea* under *Bandung* (Java);
#: *Ancient Greek literature* under *Artemis* (Greek mythology).
GENERAL_MARGIN = 0.1


def companion_themes(chosen: list[Passage], spare: list[str], space: TopicSpace | None,
                     naming: dict[str, str] | None = None, lang: str = "en",
                     general: str | None = None, written: dict[str, set[str]] | None = None) -> dict[str, list[str]]:
    """The related documents each section reads besides its own: a section combines several sources.

    Each spare related document (on the subject, not chosen as a section)
    joins the section whose own document it is most similar to in the
    corpus's topic space, when that similarity is at least
    :data:`COMPANION_SIMILARITY`; at most :data:`MAX_COMPANIONS` per section,
    the best first. "Alexander Fleming" joins "Penicillin" in a report on
    antibiotics. Without a topic space (or one without document vectors) no
    document joins.

    Args:
        chosen: The sections' own documents, in reading order.
        spare: Titles of other related documents, best first.
        space: The corpus's topic space, if any.
        naming: The spare documents' texts by title, when a document may join only a section whose title
            (its qualifier removed) it writes: the periods of a history (:func:`_is_history`).
        lang: The language. A document named with a section's words but on another thing joins no
            section on that thing (:func:`~reportgen.agents.ranking.another_thing`): *Tiger shark* joins
            no section on the tiger.
        general: The title of the subject's own article, when it has one: a document at least
            :data:`GENERAL_MARGIN` nearer to it than to every section is on the subject as a whole, often in
            passing, and on no section's aspect; it joins none.
        written: For a request of two subjects, the subjects each document writes, by title (sections and spare
            documents): a document writing one of them only joins no section writing only the other. *Loons*,
            *Hoatzin* and *Eagle* had stood under *Vampire bat* in "Bats and birds", *Flamingo* and *Goose*
            under *Megabat*, the nearest sections in the topic space.

    Returns:
        ``{section title: [companion titles]}`` (sections without one omitted).
    """
    if space is None or space.documents is None or not chosen or not spare:
        return {}
    row = {t: i for i, t in enumerate(space.titles)}
    sections = [p for p in chosen if p.title in row]
    others = [t for t in spare if t in row and t not in {p.title for p in chosen}]
    if not sections or not others:
        return {}
    similarity = space.documents[[row[t] for t in others]] @ space.documents[[row[p.title] for p in sections]].T
    if naming is not None:  # a section its text does not name is none it may join
        for i, title in enumerate(others):
            for j, section in enumerate(sections):
                if not writes_phrase(naming.get(title, title), bare_title(section.title)):
                    similarity[i, j] = -1.0
    for i, title in enumerate(others):  # "The tiger shark is a species of ground shark": no companion of Tiger
        for j, section in enumerate(sections):
            if another_thing(title, section.title, section.text, lang):
                similarity[i, j] = -1.0
            elif written and written.get(title) and written.get(section.title) \
                    and not written[title] & written[section.title]:
                similarity[i, j] = -1.0  # a bird joins no section on bats alone
    nearer_whole = None
    if general is not None and general in row:
        nearer_whole = space.documents[[row[t] for t in others]] @ space.documents[row[general]]
    joined: dict[str, list[str]] = {}
    for i, title in enumerate(others):
        j = int(similarity[i].argmax())
        if similarity[i, j] < COMPANION_SIMILARITY:
            continue
        if nearer_whole is not None and nearer_whole[i] - similarity[i, j] >= GENERAL_MARGIN:
            continue
        group = joined.setdefault(sections[j].title, [])
        if len(group) < MAX_COMPANIONS:
            group.append(title)
    return joined


def _article_on(phrase: str, search: SearchBackend, lang: str) -> Passage | None:
    """The article titled by ``phrase`` among its first 20 search results (:func:`choose_themes`), or ``None``."""
    return choose_themes(phrase, search.search(phrase, k=20), 0, lang)[0]


#: Most letters a title word may add to an aspect's word and still name it (:func:`_titled_after`): "eruption"
#: for "erupt", "melting" for "melt", "migration" for "migrate" (English's derivational suffixes -ion, -ing,
#: -ation, -ment, -ence run to five letters).
SUFFIX_LETTERS = 5
#: Fewest letters of an aspect's word, its final "e" dropped, for a title word it starts to name it.
ASPECT_STEM = 4


#: Verb endings a French or Spanish aspect drops before a noun's suffix ("migrent", "migran" → "migr-ation",
#: "migr-ación"), longest first; English drops a final "e" ("migrat-ion").
_VERB_ENDINGS = {"en": ("e",), "fr": ("ent", "ons", "ez", "er", "ir", "es", "e"),
                 "es": ("an", "en", "ar", "er", "ir", "as", "es", "a", "e")}


#: The endings that make a word from another, by language (inflections and the common derivations): "erupt-ion",
#: "migrat-ory", "sing-ing", not "sing-le" ("single" had written the "sing" of "Why do birds sing?", its report
#: on bird families said to answer it).
_SUFFIXES = {
    "en": frozenset("s es ed d ing ings er ers or ors ion ions ation ations ment ments al ive ives ory ant ants ent "
                    "ents ance ence ure y ly ic ous age ism ist ists able ible "
                    "down up out off over ology ologies ological".split()),  # "meltdown", "mythology"
    "fr": frozenset("s e es ent ons ez er ait aient é ée és ées ion ions ation ations age ement ment eur eurs euse "
                    "if ive al aux ique".split()),
    "es": frozenset("s es a o as os an en ar er ir ción ciones ación aciones miento mientos dor dora ido ida ado "
                    "ada al ivo iva".split()),
}


def _derived(word: str, term: str, lang: str = "en") -> bool:
    """Whether ``word`` is ``term`` with a suffix (:data:`_SUFFIXES`, at most :data:`SUFFIX_LETTERS`), a verb
    ending of ``term`` dropped before it (:data:`_VERB_ENDINGS`: "migrat-ion", "migr-ation" for "migrent"), or
    mentions it (:func:`~reportgen.agents.ranking.mentions`)."""
    ending = next((e for e in _VERB_ENDINGS.get(lang, _VERB_ENDINGS["en"])
                   if term.endswith(e) and len(term) - len(e) >= ASPECT_STEM), "")
    base = term[:len(term) - len(ending)]
    suffix = word[len(base):]
    return mentions({word}, term) or (len(base) >= ASPECT_STEM and word.startswith(base)
                                      and len(suffix) <= SUFFIX_LETTERS
                                      and (not suffix or suffix in _SUFFIXES.get(lang, _SUFFIXES["en"])))


def unanswered_note(blueprint: Blueprint, texts: list[str], lang: str) -> str:
    """A note for the top of the report naming what the request asks about that no quoted sentence writes.

    An aspect asked for ("adoption rates", the "twinkle" of "Why do stars twinkle?") is written by a sentence
    holding more than half of its terms, each as written or as a word made from it (:func:`_derived`:
    "eruption" for "erupt"): "the COVID-19 pandemic" writes of the "COVID-19 crisis", "infrastructure, vehicles,
    and operations" not of "infrastructure challenges"; nor does a sentence writing it only as one item of a list
    (:func:`~reportgen.agents.ranking.listed`: "Cat communication includes meowing, purring, trilling …" does not
    say why cats purr). An aspect of cause ("What caused the Great Depression?",
    :func:`~reportgen.blueprint.request.is_cause`) is written only by a sentence writing the subject with a marker
    of cause or effect (:data:`_CAUSE_MARKERS`, :data:`_EFFECT_MARKERS`: "triggered", "because of"), not by the
    word: "Migraine is a neurological disorder that causes moderate-to-severe headaches" says what it causes. A
    report on stars that never says why they twinkle had read as an answer: the corpora hold no text on
    twinkling, and the report must say so near the top (issue 11: "when it holds little, the report says so").
    A history asked for is told by its sections' time order (:func:`tells_history`), not by the word, and is
    not named. One word asked of a name (a subject the quoted sentences always capitalise,
    :func:`~reportgen.agents.ranking.never_small`: "the climate of Peru") is written only by a sentence naming it
    (:func:`~reportgen.agents.ranking.names_subject`) or opening on a pronoun; where sentences write it of
    other things only, the note says it is written apart from the name, not that nothing writes it (a reader
    found "No sentence … writes of 'deforestation'" false above a section on deforestation at large, in a report
    on the Amazon rainforest). A question's aspects are parts of
    one question: it is said to be unanswered when none is written, and nothing is said when one is ("How does
    the human eye see color?" is answered by sentences on colour and the eye that never write "see"). A question
    asking where is answered by a sentence writing the subject with a marker of place (:data:`_PLACE_MARKERS`:
    "native to", "found in", "located in").

    A request to compare two subjects ("Compare cotton and wool", "Rome vs Carthage":
    :attr:`~reportgen.blueprint.request.Request.compared`) is answered by a sentence writing both
    (:func:`~reportgen.agents.ranking.written_subjects`), neither as an item of a list
    (:func:`~reportgen.agents.ranking.listed`: "The order includes the true crocodiles, the alligators and
    caimans" compares nothing); where none does, the note says the sections give each on its own (a reader
    found both comparisons of twelve requests comparing nothing, unsaid).

    Args:
        blueprint: The report's blueprint: its aspects (:attr:`~reportgen.blueprint.model.Blueprint.aspects`),
            its request as typed, and the subject its introduction is on.
        texts: Every sentence the report quotes (introduction, sections, conclusion).
        lang: The report language.

    Returns:
        The note, or ``""`` when the request asks for no aspect or every one is written.
    """
    intro = next((t for t in blueprint.tasks if t.kind == "introduction" and "subject" in t.inputs), None)
    subject = str(intro.inputs["subject"].value) if intro is not None else blueprint.subject or blueprint.topic
    asked = read_request(blueprint.topic, lang)  # a question's title, as typed, cleaned
    written = [{_alike(w, lang) for w in terms(t, lang)} for t in texts]  # "colour" writes "color"

    markers = [m[lang] for m in (_CAUSE_MARKERS, _EFFECT_MARKERS) if lang in m]
    placed = _PLACE_MARKERS.get(lang) if asked.question and _ASKS_WHERE.match(blueprint.topic) else None
    # a name: a subject the quoted sentences always capitalise ("Coal power" is none: they write "coal")
    named = subject[:1].isupper() and never_small(subject.split()[0], " ".join(texts))

    # the sections titled by the subject and a word made from what is asked: the article *Sinking of the Titanic*,
    # quoted, answers "Why did the Titanic sink?" ("… when she struck an iceberg"; a reader found the note false)
    titled = [{_alike(w, lang) for w in terms(str(t.inputs["title"].value), lang)} for t in blueprint.tasks
              if t.kind == "write" and t.status is TaskStatus.DONE and "title" in t.inputs
              and names_subject(str(t.inputs["title"].value), subject)]

    def writes(aspect: str, of_it: bool = True) -> bool:
        need = {_alike(w, lang) for w in terms(aspect, lang)}
        if need and any(all(any(_derived(w, t, lang) for w in words) for t in need) for words in titled):
            return True
        if is_cause(aspect):  # "triggered … the worldwide Great Depression" says what caused it, without "cause";
            # "Migraine is a neurological disorder that causes moderate-to-severe headaches" says what it causes
            return any(m.search(t) and names_subject(t, subject) for m in markers for t in texts)
        if placed is not None and any(placed.search(t) and names_subject(t, subject) for t in texts):
            return True  # "Where do tigers live?": "The tiger is native to Asia" says where, without "live"
        # the one word asked of a name is written of it by a sentence naming it, or going on with a pronoun from
        # one opening on it: Bolivia's "a wide range of climates" is not the climate of Peru (a reader found that
        # report silent on its having no sentence on it), nor, after "Machu Picchu is … in southern Peru", is "It
        # is situated … with a subtropical mountain climate"
        of_a_name = of_it and named and len(aspect.split()) == 1
        for i, (text, words) in enumerate(zip(texts, written, strict=True)):
            if 2 * sum(any(_derived(w, t, lang) for w in words) for t in need) <= len(need):
                continue
            if of_a_name and not names_subject(text, subject) and not (
                    text.split(maxsplit=1)[0].casefold() in _PRONOUNS and i > 0
                    and fold(strip_article(texts[i - 1])).startswith(fold(subject))):
                continue
            # written only as one item of a list, it is named, not written of: "Cat communication includes
            # meowing, purring, trilling, hissing …" says nothing of why cats purr (the comparison's rule)
            made = [w for w in words if any(_derived(w, t, lang) for t in need)]
            if not all(listed(text, w, lang) for w in made):
                return True
        return False

    missing = [a for a in blueprint.aspects if terms(a, lang) and fold(a) != _history_word(lang) and not writes(a)]
    # written, yet never of the name: a section on deforestation at large in a report on the Amazon rainforest
    # (a reader found "No sentence … writes of 'deforestation'" above it false)
    apart = [a for a in missing if not asked.question and writes(a, of_it=False)]
    missing = [a for a in missing if a not in apart]
    words = labels(lang)
    notes = []
    parts = subject_parts(subject)
    if asked.compared and len(parts) > 1 and not any(written_subjects(t, subject) > 1 and not any(
            listed(t, p, lang) for p in parts) for t in texts):  # "cotton, wool, flax, nylon" compares nothing
        notes.append(words["not_compared"].format(
            subjects=join_list([words["quoted"].format(text=p) for p in parts], lang)))
    if asked.question:  # a question's aspects are one question: "see" and "color" in "How does the human eye
        # see color?", which sentences on colour vision answer without the verb; it is unanswered when none is
        if missing and len(missing) == len(blueprint.aspects):
            notes.append(words["unanswered"].format(asked=asked.title or asked.text, subject=subject))
    elif missing:
        notes.append(words["unwritten"].format(
            aspects=join_list([words["quoted"].format(text=a) for a in missing], lang), subject=subject))
    if apart:
        notes.append(words["written_apart"].format(
            aspects=join_list([words["quoted"].format(text=a) for a in apart], lang), subject=subject))
    return " ".join(notes)


def writes_what_is_asked(text: str, request: Request, lang: str) -> bool:
    """Whether a text writes a subject of a question and, in one sentence, what the question asks of it: every
    word of an aspect, or a word made from it (:func:`_derived`: "migration", "migratory" for "migrate").
    The subject may stand in another sentence: *Common quail* says "It is mainly migratory, breeding in the
    western Palearctic …", after naming it a game bird. Aspects of cause are not counted (:func:`explained`
    and :func:`causes_it` judge them), nor the aspects of an instruction (the paper's "adoption rates" are
    searched, not required).

    Args:
        text: A candidate's text.
        request: The read request.
        lang: The language.

    Returns:
        True when the text writes a subject and a sentence of it an aspect; False for a request that is no
        question or asks only why.
    """
    asked = _asked_of_it(request, lang) if request.question else []
    if not asked:
        return False
    whole = terms(text, lang)
    if not any(subject and all(any(mentions({w}, t) for w in whole) for t in subject)
               for subject in (terms(s, lang) for s in request.subjects)):
        return False
    return any(_writes_aspect(terms(sentence, lang), a, lang) for sentence in split_sentences(text, lang)
               for a in asked)


def _asked_of_it(request: Request, lang: str) -> list[set[str]]:
    """The terms of each aspect a request asks of its subject, its aspects of cause left out
    (:func:`~reportgen.blueprint.request.is_cause`: :func:`explained` and :func:`causes_it` judge those)."""
    return [t for t in (terms(a, lang) for a in request.aspects if not is_cause(a)) if t]


def _writes_aspect(words: set[str], aspect: set[str], lang: str) -> bool:
    """Whether ``words`` (a sentence's :func:`~reportgen.agents.ranking.terms`) hold every term of ``aspect``, as
    written or as a word made from it (:func:`_derived`: "migratory" for "migrate")."""
    return all(any(_derived(w, t, lang) for w in words) for t in aspect)


def _writes_a_subject(passage: Passage, request: Request, lang: str) -> bool:
    """Whether a passage (its title and text) holds every term of one of the request's subjects, as any of its
    written forms (:func:`written_forms`: "leaves" for the leaf)."""
    held = terms(f"{passage.title} {passage.text}", lang)
    return any(form <= held for s in request.subjects for form in written_forms(s, lang))


def _writes_its_kind(passage: Passage, request: Request, lang: str) -> bool:
    """Whether the article of an aspect asked in a request that is no question writes the head noun of its one
    subject of several words (:func:`~reportgen.agents.ranking.head_noun`): what the aspect does to things of the
    subject's kind. "Amazon rainforest: biodiversity, deforestation, indigenous peoples" had dropped all three
    aspects, its sections Peru, Manaus and the Spanish conquest of the Inca Empire, while *Deforestation* writes
    "areas of mature rainforest that are especially important for biodiversity". A one-word subject is its own
    head: *Climate* does not write the Sahara."""
    if request.question or len(request.subjects) != 1 or len(terms(request.subject, lang)) < 2:
        return False
    head = head_noun(request.subject, lang)
    return bool(head) and any(mentions({t}, stem(head)) for t in terms(f"{passage.title} {passage.text}", lang))


#: Where a title's head gives way to whose it is ("History *of* sociology", "Histoire *de* la chimie").
_OF_ANOTHER = re.compile(r"\s+(?:of|de|du|des|del)\s+|\s+d['’](?=[^\W\d_])", re.IGNORECASE)


def _titled_after(aspect: str, request: Request, search: SearchBackend, lang: str,
                  space: TopicSpace | None) -> list[Passage]:
    """The articles titled by a word made from each word of ``aspect`` that write the subject, for an aspect no
    article is titled by: a verb's noun ("Why do birds migrate?": *Animal migration*, which says birds
    migrate; "Why do volcanoes erupt?": an article titled *eruption*), which a search for the verb does not
    find (the index folds plurals only).

    Args:
        aspect: An aspect of the request, as read.
        request: The read request (its subjects must be written by the article).
        search: The search backend (each title's article is fetched through it).
        lang: Report language.
        space: The corpora's topic space, whose titles are looked through; ``None`` finds nothing.

    Returns:
        The articles, at most :data:`MAX_EXPLAINED`, in the space's order of titles.
    """
    wanted = terms(aspect, lang)
    if space is None or not wanted:
        return []
    found: list[Passage] = []
    for title in space.titles:
        if len(found) >= MAX_EXPLAINED:
            break
        words = terms(title, lang)
        if not all(any(_derived(w, t, lang) for w in words) for t in wanted):
            continue
        # the aspect of another thing is none of the subject's: "History of sociology", which names the French
        # Revolution, had led "History of the French Revolution" as its answer
        of_whom = _OF_ANOTHER.split(bare_title(title), maxsplit=1)
        if len(of_whom) > 1 and not terms(of_whom[1], lang) & terms(request.subject, lang):
            continue
        own = _article_on(title, search, lang)
        if own is not None and _writes_a_subject(own, request, lang):
            found.append(own)
    return found


def _borne_on_a_word(request: Request, search: SearchBackend, lang: str) -> Request:
    """A request on how its subject bears on a single word no article is titled by, read as that subject with
    the word as its aspect.

    "Effects of caffeine on the body" had been two subjects, and "body", which no article is titled by (the
    encyclopedia has *Human body*), drew *Black-body radiation*, *Body piercing*, *Shirt* and *Spinning top*
    beside *Caffeine*. A word an article is titled by stays a subject ("The impact of social media on
    democracy"), and so does a phrase ("How does climate change affect coffee production?": the article of its
    part, *Coffee*, stands for it).

    Args:
        request: The read request (:attr:`~reportgen.blueprint.request.Request.borne_on`).
        search: The search backend over every configured corpus.
        lang: Report language.

    Returns:
        ``request``, or a copy with one subject.
    """
    word = request.borne_on
    if not word or request.subjects[1:] != [word] or len(terms(word, lang)) != 1 \
            or _titled_reading(word, search, lang) is not None:
        return request
    return replace(request, subjects=request.subjects[:1], aspects=list(dict.fromkeys([word, *request.aspects])),
                   borne_on="", title=request.title or request.subject)


def _unshared(request: Request, search: SearchBackend, lang: str) -> Request:
    """Two subjects whose first took the second's head noun ("wind and solar power" → "wind power"), read
    apart when only the bare word has an article: "coffee vs energy drinks" is *coffee* and *energy drinks*,
    not "coffee drinks" (a reader found the report drawn on *Drink*, *Bar* and *Juice*, with no coffee).

    Args:
        request: The read request.
        search: The search backend over every configured corpus.
        lang: Report language.

    Returns:
        ``request``, or a copy with the first subject bare.
    """
    if len(request.subjects) != 2:
        return request
    first, second = request.subjects
    shared = " ".join(second.split()[1:])
    if not shared or not fold(first).endswith(f" {fold(shared)}"):
        return request
    bare = first[:len(first) - len(shared)].strip()
    if _article_on(first, search, lang) is None and _article_on(bare, search, lang) is not None:
        return replace(request, subjects=[bare, second])
    return request


def resolve_subject(request: Request, search: SearchBackend, lang: str) -> Request:
    """The request with the reading of its subject the corpora hold an article on.

    "How does the immune system fight viruses?" reads as subject "immune
    system fight" (the verb may follow the subject, see
    :attr:`~reportgen.blueprint.request.Request.alternatives`); when no
    document is titled by the subject but one is titled by a shorter reading
    ("Immune system"), that reading becomes the subject and the words it
    leaves out an aspect. A subject read off a qualified framing word ("health effects" of smoking
    tobacco, :attr:`~reportgen.blueprint.request.Request.framed`) is the whole phrase again when an
    article is titled so.

    Args:
        request: The read request.
        search: The search backend over every configured corpus.
        lang: Report language.

    Returns:
        ``request`` itself, or a copy with the resolved subject.
    """
    if request.framed and _article_on(request.framed, search, lang) is not None:
        # "the health effects of smoking tobacco" is an article's title: the subject, whole
        request = replace(request, subjects=[request.framed], framed="",
                          aspects=[a for a in request.aspects if not terms(a, lang) <= terms(request.framed, lang)])
    request = _singular(_written_apart(_unshared(_borne_on_a_word(_bracketed_sense(request, search, lang), search,
                                                                  lang), search, lang), search, lang), search, lang)
    request = _by_surname(request, search, lang)
    request = _history_of(_event_of(_misspelled(_respelled(_spelled_out(request, search, lang), search, lang),
                                                search, lang), search, lang), search, lang)
    request = _of_its_subject(_unqualified(request, search, lang), search, lang)
    request = _aspect_last(_kin_titled(request, search, lang), search, lang)
    request = _written_aspects(_done_to(request, search, lang), search, lang)
    if not request.alternatives:
        return _titled_parts(request, search, lang)
    if _article_on(request.subject, search, lang) is not None:
        return request
    if _written_whole(request.subject, request.alternatives, search, lang):
        return _titled_parts(replace(request, alternatives=[]), search, lang)
    space = topic_space(search)
    for at, reading in enumerate(request.alternatives):
        titled = _titled_reading(reading, search, lang)
        if titled is None and _written_whole(reading, request.alternatives[at + 1:], search, lang) \
                and _held_as_asked(reading, search, lang):  # not "cambio climático", once in *Mar Muerto*
            titled = reading  # a phrase the corpus writes, which no shorter reading's article stands for
        # "how to grow potatos at home": the shorter reading may be misspelled too (_misspelled)
        spelled = _spelled_title(reading, search, lang, space) if titled is None else None
        if titled is not None or spelled is not None:
            rest = SETTING_LEAD.sub("", request.subject[len(reading):].strip())  # "for health": health
            return replace(request, subjects=[titled or str(spelled)],
                           aspects=[a for a in [rest, *request.aspects] if is_aspect(a)], alternatives=[],
                           title=request.title or request.subject,  # titled as asked
                           named_as={**request.named_as, reading: str(spelled)} if spelled else request.named_as)
    return _titled_parts(request, search, lang)


#: Words a person's full name may write in small letters between the capitalised ones ("Ludwig van Beethoven").
_NAME_PARTICLES = frozenset("van von de da del der di du le la y bin ibn al".split())
#: A sentence opening on a pronoun only a person's article writes of its subject ("He composed …", "Her work …"),
#: by language.
_PERSONAL = re.compile(r"(?:^|[.!?]\s+)(?:He|She|His|Her|Il|Elle|Él|Ella)\b")
#: A title opening on an article names a work, not a person: *The Seventh Seal* is no one called Seal.
_ARTICLE_OPENING = re.compile(r"^(?:the|a|an|le|la|les|el|los|las|un|une|una)\s", re.IGNORECASE)


def _by_surname(request: Request, search: SearchBackend, lang: str) -> Request:
    """The request on the one article titled by a person's full name ending on its one-word subject, when no
    article is titled by the subject: "Mozart" had been planned on the texts writing "Mozart", its introduction a
    sentence on *Don Giovanni* and *Wolfgang Amadeus Mozart* one section among the symphonies (a reader's find);
    "Einstein" is *Albert Einstein*, "Darwin" *Charles Darwin*. A full name is two to four words, each
    capitalised but a particle (:data:`_NAME_PARTICLES`), none an opening article (:data:`_ARTICLE_OPENING`:
    "Seal" is no *The Seventh Seal*), whose article writes of a person (:data:`_PERSONAL`: "Python" is no *Monty
    Python*). Two such articles are two people and the subject stays ("Gandhi": *Mahatma
    Gandhi*, *Indira Gandhi*; "Curie"). The report keeps the title asked for and says at the
    top which title it was read as (:attr:`~reportgen.blueprint.request.Request.named_as`).

    Args:
        request: The read request.
        search: The search backend over every configured corpus.
        lang: Report language.

    Returns:
        ``request`` itself, or a copy on the person's article.
    """
    subject = request.subject
    if len(request.subjects) != 1 or len(subject.split()) != 1 or not subject[:1].isupper() \
            or _article_on(subject, search, lang) is not None:
        return request
    named = {p.title for p in search.search(subject, k=PLAN_SEARCH_K)
             if p.title == bare_title(p.title) and 2 <= len(words := p.title.split()) <= 4
             and fold(words[-1]) == fold(subject) and not _ARTICLE_OPENING.match(p.title)
             and all(w[:1].isupper() or w in _NAME_PARTICLES for w in words)}
    if len(named) != 1:
        return request
    person = named.pop()
    own = _article_on(person, search, lang)
    if own is None or not _PERSONAL.search(_article_text(own, search)):
        return request  # no person: *Monty Python* "were a British comedy troupe"
    return replace(request, subjects=[person], alternatives=[], title=request.title or subject,
                   named_as={**request.named_as, subject: person})


def _bracketed_sense(request: Request, search: SearchBackend, lang: str) -> Request:
    """The request on the article of its one subject's name whose text the topic space puts nearest the bracketed
    sense, when no article is titled by the name with that sense: "Cricket (sport)" had found no sources, the
    corpus titling the sport *Cricket* beside *Cricket (insect)*; "sport" is nearer the
    game's article than the insect's. The articles weighed are the one titled by the name and those titled by it
    with another sense in brackets; the nearest must reach :data:`~reportgen.blueprint.relevance.SEMANTIC_SENSE_FLOOR`,
    under which a text is of another sense ("Mercury (god)" is neither the planet, 0.08, nor the element). The
    report keeps the title asked for and says at the top which title it was read as
    (:attr:`~reportgen.blueprint.request.Request.named_as`).

    Args:
        request: The read request.
        search: The search backend over every configured corpus.
        lang: Report language.

    Returns:
        ``request`` itself, or a copy on the chosen article.
    """
    named = re.fullmatch(r"(?P<name>[^()]+?)\s*\((?P<sense>[^()]+)\)", request.subject)
    if len(request.subjects) != 1 or named is None or _article_on(request.subject, search, lang) is not None:
        return request
    space = topic_space(search)
    if space is None:
        return request
    name = fold(named.group("name").strip())
    senses = {p.source_id: p for p in search.search(named.group("name"), k=PLAN_SEARCH_K)
              if fold(bare_title(p.title)) == name}
    if not senses:
        return request
    texts = {sid: _article_text(p, search) for sid, p in senses.items()}
    near = {sid: Relatedness([texts[sid]], [], lang, subject=named.group("sense"), space=space).score(
        named.group("sense")) for sid in senses}
    best = max(near, key=lambda sid: near[sid])
    if near[best] < SEMANTIC_SENSE_FLOOR:  # no article of that sense: "Jaguar (car)" is no cat, "Apple (company)"
        return request  # no fruit (their scores: -0.09, 0.00)
    subject = senses[best].title
    return replace(request, subjects=[subject], alternatives=[], title=request.title or request.subject,
                   named_as={**request.named_as, request.subject: subject})


def _written_whole(reading: str, shorter: list[str], search: SearchBackend, lang: str) -> bool:
    """Whether a question's reading of several words is a noun phrase, not a subject and its verb: at least
    :data:`MIN_SUBJECT_SENTENCES` passages write it (:func:`passages_writing`), and no article titled by a shorter
    reading does (:func:`_titled_reading`), which would stand for it.

    "How does the stock market work?" had been read as *Stock* asked of its market: three articles write "stock
    market", *Stock* does not, and the report on *Stock* had drawn *High-speed rail* (its rolling stock) and
    *Bill Gates*. "How do nuclear power plants work?" stays *Nuclear power*, whose article writes "nuclear power
    plants"; "How does the immune system fight viruses?" stays *Immune system*: no passage writes "immune system
    fight".

    Args:
        reading: A reading of the question's subject.
        shorter: Its shorter readings, longest first (:attr:`~reportgen.blueprint.request.Request.alternatives`).
        search: The search backend over every configured corpus.
        lang: Report language.

    Returns:
        True when the reading is the subject.
    """
    if " " not in reading.strip() or passages_writing(reading, search) < MIN_SUBJECT_SENTENCES:
        return False
    for short in shorter:
        titled = _titled_reading(short, search, lang)
        own = _article_on(titled, search, lang) if titled is not None else None
        if own is not None and writes_phrase(_article_text(own, search), reading):
            return False
    return True


def written_forms(subject: str, lang: str) -> list[set[str]]:
    """The terms of a subject as texts write it: itself, and its plural where the light stem
    (:func:`~reportgen.agents.ranking.stem`) does not fold it to the same terms ("leaf": "leaves" is
    ``{"leave"}``, :func:`~reportgen.sources.text.plural`). *Autumn*'s "the change in colour of the leaves"
    answers "Why do leaves change color in autumn?", planned on *Leaf*.

    Args:
        subject: One subject.
        lang: Its language (only English is inflected).

    Returns:
        The stemmed terms of each form, the subject's own first.
    """
    own = terms(subject, lang)
    many = terms(plural(subject, lang), lang)
    return [own, many] if many and many != own else [own]


def _titled_reading(reading: str, search: SearchBackend, lang: str) -> str | None:
    """``reading`` when an article is titled by it, else its singular (:func:`~reportgen.sources.text.singular`)
    when one is titled by that ("leaves": *Leaf*), else ``None``."""
    if _article_on(reading, search, lang) is not None:
        return reading
    one = singular(reading, lang)
    return one if one != reading and _article_on(one, search, lang) is not None else None


def _singular(request: Request, search: SearchBackend, lang: str) -> Request:
    """The request with each subject no article is titled by in the singular, when an article is titled by
    that (:func:`_titled_reading`), or in the plural (:func:`_titled_plural`: "bacterium" is *Bacteria*): "Wolves"
    is *Wolf*; "Why do leaves change color in autumn?" had been planned on *Color*, with Yellow, Fluorescence and
    Red, the light stem not folding "leaves" to "leaf".

    Returns:
        ``request`` itself, or a copy with the subjects in the number their articles are titled in.
    """
    subjects = [_titled_reading(s, search, lang) or _titled_plural(s, search, lang) or s for s in request.subjects]
    if subjects == request.subjects:
        return request
    return replace(request, subjects=subjects, title=request.title or request.subject)  # titled as asked: "Wolves"


def _titled_plural(subject: str, search: SearchBackend, lang: str) -> str | None:
    """The title of the article titled by ``subject`` in the plural (:func:`~reportgen.sources.text.plural`), or
    ``None``: "What is the difference between a virus and a bacterium?" had no section on *Bacteria*, the light
    stem not folding a Latin plural."""
    many = plural(subject, lang)
    own = _titled_as(many, search, lang) if fold(many) != fold(subject) else None
    return bare_title(own.title) if own is not None else None


#: Endings that make a noun an adjective of it, by language: "inca" → "incaico" (es), "Canada" → "canadien"
#: (fr, the final vowel giving way), "Inca" → "Incan" (en). A title that writes a subject's word so is the
#: subject in the corpus's spelling.
ADJECTIVE_ENDINGS = {
    "en": ("n", "an", "ian", "ic", "ese", "ish"),
    "es": ("ico", "ica", "no", "na", "ano", "ana", "ino", "ina", "ense", "es", "esa"),
    "fr": ("en", "enne", "ien", "ienne", "ique", "ais", "aise", "ain", "aine"),
}
#: Letters a word must have for an ending added to it to count ("inca" does; "art" → "artic" does not).
ADJECTIVE_STEM = 4


def written_as_adjective(subject: str, title: str, lang: str) -> bool:
    """Whether ``title`` is ``subject`` with one or more of its words written as their adjective
    (:data:`ADJECTIVE_ENDINGS`): "Imperio incaico" is "Imperio inca". The words must pair up in order, at
    least one written alike (a subject of one word is never respelled: "Java" is not "Javanese").

    Args:
        subject: The subject as asked.
        title: An article's title, without its bracketed qualifier.
        lang: The language.

    Returns:
        True when the title writes the subject so, and not exactly.
    """
    asked, titled = tokenize(subject), tokenize(title)
    if len(asked) != len(titled) or len(asked) < 2:
        return False
    endings = ADJECTIVE_ENDINGS.get(lang, ADJECTIVE_ENDINGS["en"])
    alike = derived = 0
    for a, t in zip(asked, titled, strict=True):
        if stem(a) == stem(t):
            alike += 1
        elif len(a) >= ADJECTIVE_STEM and any(t.startswith(base) and t[len(base):] in endings
                                              for base in {a, a[:-1] if a[-1] in "aeiouy" else a}):
            derived += 1  # a final vowel may give way: "canada" → "canadien", "rome" → "roman"
        else:
            return False
    return bool(alike and derived)


#: Words of an article's opening clause that give another name for its subject ("A mobile phone or cell
#: phone is", "Association football, more commonly known as football or soccer, is"), accent-folded.
_ALIAS_CUES = {
    "en": frozenset({"or", "also", "known", "called", "named"}),
    "fr": frozenset({"ou", "aussi", "appele", "appelee", "appeles", "dit", "dite", "nomme", "nommee"}),
    "es": frozenset({"o", "tambien", "llamado", "llamada", "conocido", "conocida", "denominado", "denominada"}),
}
#: Words that introduce another name in an opening clause ("known *as* soccer"), and articles that may
#: stand between them and the name ("or *an* automobile"), accent-folded.
_AS = frozenset({"as", "comme", "como"})
_ARTICLES = frozenset({"a", "an", "the", "un", "une", "le", "la", "les", "l", "el", "los", "las", "unos", "unas"})


def _given_as_name(words: list[str], at: int, cues: frozenset[str]) -> bool:
    """Whether the word at ``at`` follows a word that gives another name ("or soccer", "as seals", "or an
    automobile"), not a name it is part of ("Diógenes el Perro")."""
    before = words[at - 1] if at else ""
    if before in cues or before in _AS:
        return True
    return before in _ARTICLES and at >= 2 and (words[at - 2] in cues or words[at - 2] in _AS)


#: Verbs that end an article's opening clause and define what precedes them.
_COPULAS = {
    "en": frozenset({"is", "are", "was", "were", "refers"}),
    "fr": frozenset({"est", "sont", "etait", "designe"}),
    "es": frozenset({"es", "son", "fue", "era"}),
}
#: Words after a copula that give a name ("a tropical cyclone is called a hurricane").
_NAMING_VERBS = frozenset({"called", "known", "named", "appele", "appelee", "nomme", "llamado", "llamada",
                           "denominado", "conocido"})
#: Words between a copula and the title in a definition ("A hurricane is *a strong* tropical cyclone").
DEFINITION_GAP = 3


def _at(words: list[str], phrase: list[str], start: int = 0, end: int | None = None) -> int | None:
    """Where ``phrase`` (stems) starts among ``words`` (stems) between ``start`` and ``end``, or ``None``."""
    n, stop = len(phrase), len(words) if end is None else min(end, len(words))
    return next((i for i in range(start, stop - n + 1) if words[i:i + n] == phrase), None) if n else None


#: What gives names after a copula ("is called a hurricane, typhoon or cyclonic storm"), accent-folded.
_NAMING = re.compile(r"\b(?:called|known as|named|appelee?s?|nommee?s?|llamad[oa]s?|conocid[oa]s? como|"
                     r"denominad[oa]s?)\s+([^.;:()]+)")
#: What parts a list of names.
_NAME_LIST = re.compile(r",|\b(?:or|and|ou|et|o|y)\b")


def _names_given(sentence: str) -> list[list[str]]:
    """The names a sentence gives after a naming verb, each as the stems of its words without an article:
    "is called a hurricane, typhoon or cyclonic storm" gives ``[["hurricane"], ["typhoon"], ["cyclonic",
    "storm"]]``."""
    found = _NAMING.search(fold(sentence))
    if not found:
        return []
    names = []
    for name in _NAME_LIST.split(found.group(1)):
        words = [w for w in tokenize(name) if w not in _ARTICLES]
        if words:
            names.append([stem(w) for w in words])
    return names


def names_subject_as(subject: str, passage: Passage, lang: str) -> bool:
    """Whether an article gives ``subject`` as another name of its own, or defines it as a kind of itself.

    * Its opening clause, before the first copula (:data:`_COPULAS`), writes the subject with a word that
      gives another name (:data:`_ALIAS_CUES`): "Association football, more commonly known as football or
      soccer, is a team sport", "A car, or an automobile, is a motor vehicle" (the encyclopedia's own
      convention for other names, bold in its first sentence);
    * or its first sentence opens on the subject, a fuller name holding the title's words ("Napoleon
      Bonaparte, later known by his regnal name Napoleon I, was Emperor of the French": *Napoleon*);
    * or one of its first three sentences defines the subject by the title, within
      :data:`DEFINITION_GAP` words of the copula ("A hurricane is a strong tropical cyclone"), or gives it
      as one of its names ("a tropical cyclone is called a hurricane, typhoon or cyclonic storm": not
      "storm", :func:`_names_given`).

    Args:
        subject: The subject as asked ("Soccer", "Hurricanes").
        passage: An article's passage (its title and text).
        lang: The language.

    Returns:
        True when the article is the subject under the corpus's name for it.
    """
    wanted = [stem(t) for t in tokenize(subject)]
    title = [stem(t) for t in tokenize(bare_title(passage.title))]
    if not wanted or not title or set(wanted) <= set(title):
        return False  # "Hot spring" is a kind of spring, not spring under another name
    copulas = _COPULAS.get(lang, _COPULAS["en"])
    sentences = split_sentences(passage.text, lang)[:3]
    for n, sentence in enumerate(sentences):
        words = tokenize(sentence)
        stems = [stem(w) for w in words]
        verb = next((i for i, w in enumerate(words) if w in copulas), None)
        if verb is None:
            continue
        at = _at(stems, wanted, 0, verb)
        cues = _ALIAS_CUES.get(lang, _ALIAS_CUES["en"])
        if n == 0 and at is not None and cues & set(words[:verb]) and _at(stems, title, 0, verb) is not None \
                and _given_as_name(words, at, cues) \
                and (at + len(wanted) == verb or words[at + len(wanted)] in cues):
            return True  # "A mobile phone or cell phone is …", but not "… or geothermal spring is"
        if at is not None and at + len(wanted) == verb \
                and _at(stems, title, verb + 1, verb + 1 + DEFINITION_GAP + len(title)) is not None:
            return True  # "A hurricane is a strong tropical cyclone"
        if n == 0 and set(title) < set(wanted) and stems[:len(wanted)] == wanted \
                and (verb == len(wanted) or re.match(rf"^\W*{_words_of(subject)}\s*[,(]", fold(sentence))):
            return True  # its fuller name opens it: "Napoleon Bonaparte, later known … as Napoleon I, was …"
        named = _at(stems, title, 0, verb)
        if named is not None and named + len(title) == verb and set(words[verb + 1:verb + 3]) & _NAMING_VERBS \
                and wanted in _names_given(sentence):
            return True  # "a tropical cyclone is called a hurricane"
    return False


def _words_of(phrase: str) -> str:
    """A pattern matching ``phrase``'s folded words, any spaces or hyphens between them."""
    return r"[\s-]+".join(re.escape(w) for w in tokenize(phrase))


#: Largest number a title writes in Roman numerals after a name ("World War II", "Louis XIV", "Pius XII").
ROMAN_MAX = 39


def _in_roman(subject: str) -> str:
    """``subject`` with each number after a word, up to :data:`ROMAN_MAX`, in Roman numerals (the ``roman``
    package), as the encyclopedia titles wars, monarchs and popes: "World War 1" → "World War I". A number
    opening the subject stays ("1 Corinthians")."""
    import roman

    words = subject.split()
    return " ".join(roman.toRoman(int(w)) if i and w.isdigit() and 0 < int(w) <= ROMAN_MAX else w
                    for i, w in enumerate(words))


#: A subject written as an acronym: a capital, then one to five capitals or digits ("UK", "WWII", "WW2", "AI").
_ACRONYM_SUBJECT = re.compile(r"[A-Z][A-Z0-9]{1,5}")
#: Words an acronym's letters skip ("United States *of* America", "Organisation *des* Nations unies").
_ACRONYM_SKIPS = frozenset("of the and for in on de des du la le et del los las y".split())
#: Most words an acronym stands for (:func:`_expanded`).
ACRONYM_WORDS = 6


def _initials(words: list[str]) -> str:
    """The acronym ``words`` make: each word's first letter in capitals, a Roman numeral or a number whole, the
    words of :data:`_ACRONYM_SKIPS` skipped ("World War II" → "WWII", "United States of America" → "USA")."""
    return "".join(w if re.fullmatch(r"[IVX]+|\d+", w) else w[0].upper()
                   for w in words if w.casefold() not in _ACRONYM_SKIPS)


def _expanded(subject: str, search: SearchBackend, lang: str) -> str | None:
    """The title of the article an acronym stands for, when no article is titled by the acronym: "UK", "USA" and
    "AI" had been drawn from the texts mentioning them (*Bobby Fischer* in the core of "USSR"), or had found no
    sources ("AI", "WWII"). The words it stands for are read from the passages writing it as a word: the run
    of capitalised words whose initials spell it ("United Kingdom", "World War II", :func:`_initials`), or
    the words just before it in brackets ("artificial intelligence (AI)"); the most written whose article the
    corpora hold (:func:`_titled_as`) is the subject; else the article opening on them ("The United States of
    America (USA) is …"); else the one title of the corpus whose initials spell it ("WWII": *World War II*). A
    number is tried in Roman numerals too ("WW2" as "WWII").

    Args:
        subject: The subject as read.
        search: The search backend over every configured corpus.
        lang: Report language.

    Returns:
        The article's title (bracketed qualifier aside), or ``None``.
    """
    if not _ACRONYM_SUBJECT.fullmatch(subject):
        return None
    import roman

    spelled = {subject, re.sub(r"\d+", lambda m: roman.toRoman(int(m.group())) if 0 < int(m.group()) <= ROMAN_MAX
                              else m.group(), subject)}
    written: Counter[str] = Counter()
    defining: list[str] = []  # articles opening on the words in full and the acronym in brackets
    for acronym in spelled:
        at = re.compile(rf"(?<![\w-]){re.escape(acronym)}(?![\w-])")
        for p in search.search(acronym, k=PLAN_SEARCH_K):
            if not at.search(p.text):
                continue
            words = re.findall(r"[^\W_]+(?:['’-][^\W_]+)*|\(", p.text)
            for i in range(len(words)):
                for n in range(2, ACRONYM_WORDS + 1):
                    run = words[i:i + n]
                    if len(run) < n or "(" in run or run[0].casefold() in _ACRONYM_SKIPS \
                            or run[-1].casefold() in _ACRONYM_SKIPS or _initials(run) != acronym:
                        continue
                    bracketed = words[i + n:i + n + 2] == ["(", acronym]
                    if bracketed or all(w[:1].isupper() or w.casefold() in _ACRONYM_SKIPS for w in run):
                        written[" ".join(run)] += 1
                    if bracketed and all(w.casefold() in _ACRONYM_SKIPS for w in words[:i]):
                        defining.append(bare_title(p.title))  # "The United States of America (USA) is …"
    for phrase, _ in written.most_common():
        own = _titled_as(phrase, search, lang)
        if own is not None:
            return bare_title(own.title)
    if defining:
        return defining[0]
    space = topic_space(search)
    titled = {bare_title(t) for t in (space.titles if space is not None else [])
              if _initials(bare_title(t).split()) in spelled and len(bare_title(t).split()) > 1}
    return titled.pop() if len(titled) == 1 else None  # "WWII": *World War II*, which no passage writes so


def _spelled_out(request: Request, search: SearchBackend, lang: str) -> Request:
    """The request with each acronym inside a longer subject no article is titled by written out as the article it
    stands for (:func:`_expanded`): "AI in healthcare" had found no sources, and is artificial intelligence with
    the aspect "healthcare" (:func:`_titled_parts`). The report keeps the title asked for and says at the top what
    it read the acronym as (:attr:`~reportgen.blueprint.request.Request.named_as`); an acronym alone is renamed
    by :func:`_respelled`.

    Returns:
        ``request`` itself, or a copy with the acronyms written out.
    """
    subjects, named = [], dict(request.named_as)
    for subject in request.subjects:
        words = subject.split()
        if len(words) > 1 and any(_ACRONYM_SUBJECT.fullmatch(w) for w in words) \
                and _article_on(subject, search, lang) is None:
            for i, word in enumerate(words):
                expanded = _expanded(word, search, lang)
                if expanded is not None:
                    words[i], named[word] = expanded, expanded
        subjects.append(" ".join(words))
    if subjects == request.subjects:
        return request
    return replace(request, subjects=subjects, title=request.title or request.subject, named_as=named)


def _titled_exactly(phrase: str, search: SearchBackend, k: int) -> Passage | None:
    """The article among the first ``k`` results for ``phrase`` titled by it letter for letter (its bracketed
    qualifier aside, accents and case folded): "World War I", not *Window* for "Windows X" as the terms would
    match (a numeral of one letter is no term)."""
    return next((p for p in search.search(phrase, k=k) if fold(bare_title(p.title)) == fold(phrase)), None)


def _named_with_its_kind(subject: str, search: SearchBackend, lang: str) -> str | None:
    """The article a subject names by its name and its kind, when the encyclopedia titles it by the name alone
    and its first sentence defines it as that kind: "The Sahara Desert" is *Sahara* ("The Sahara is a desert
    spanning North Africa"; the report had been built on *Tunisia*, *Mauritania* and *Mongolia*), "the Nile
    river" *Nile*. "Honey bees" is not *Honey* ("Honey is a sweet substance made by honey bees": the kind is no
    predicate of it). English, whose kind closes the name.

    Args:
        subject: A subject no article is titled by.
        search: The search backend.
        lang: Its language.

    Returns:
        The article's title, or ``None``.
    """
    words = subject.split()
    if lang != "en" or len(words) < 2:
        return None
    name, kind = " ".join(words[:-1]), stem(fold(words[-1]))
    own = _titled_exactly(name, search, k=10)
    if own is None or not own.text.strip():
        return None
    first = fold(split_sentences(own.text, lang)[0])
    defines = re.match(rf"(?:the\s+)?{re.escape(fold(name))}\s+(?:is|was|are|were)\s+(?:an?|the)\s+"
                       rf"(?:[\w-]+\s+){{0,3}}{re.escape(kind)}", first)
    return bare_title(own.title) if defines else None


def _respelled(request: Request, search: SearchBackend, lang: str) -> Request:
    """The request with each subject no article is titled by replaced by the article the corpus names it
    with: one whose title writes it as an adjective (:func:`written_as_adjective`: "Historia del Imperio
    inca" is on *Imperio incaico*), else one that gives it as another name of its own or defines it as a
    kind of itself (:func:`names_subject_as`: "Soccer" is *Association football*, "Hurricanes" *Tropical
    cyclone*). A name with its kind is the article titled by the name that defines it as that kind
    (:func:`_named_with_its_kind`: "The Sahara Desert" is *Sahara*). A number is tried in Roman numerals
    (:func:`_in_roman`: "World War 1" had been refused, *World War I* offered among the closest subjects). The
    report keeps the title asked for and says at the top what it is on
    (:attr:`~reportgen.blueprint.request.Request.named_as`).

    Returns:
        ``request`` itself, or a copy with the subjects as the corpus names them.
    """
    def spelled(subject: str) -> str | None:
        found = search.search(subject, k=20)
        if not terms(subject, lang) or choose_themes(subject, found, 0, lang)[0] is not None:
            return None
        named = _named_with_its_kind(subject, search, lang)  # "the Sahara Desert" is *Sahara*
        if named is not None:
            return named
        numbered = _in_roman(subject)  # "World War 1" is *World War I*, titled so letter for letter
        if numbered != subject:
            own = _titled_exactly(numbered, search, k=20)
            if own is not None:
                return bare_title(own.title)
        expanded = _expanded(subject, search, lang)  # "UK" is *United Kingdom*, "AI" *Artificial intelligence*
        if expanded is not None:
            return expanded
        return next((bare_title(p.title) for p in found if written_as_adjective(subject, bare_title(p.title), lang)),
                    None) or next((bare_title(p.title) for p in found if names_subject_as(subject, p, lang)), None)

    return _renamed(request, spelled)


def _renamed(request: Request, spell: Callable[[str], str | None]) -> Request:
    """The request with each subject ``spell`` gives another title for renamed so, the report keeping the title
    asked for and saying at the top what it read (:attr:`~reportgen.blueprint.request.Request.named_as`);
    two subjects renamed alike are one ("Hurricanes and typhoons" are both *Tropical cyclone*). The rule of
    :func:`_respelled` and :func:`_misspelled`.

    Args:
        request: The request.
        spell: A subject's title in the corpora, or ``None`` to keep it.

    Returns:
        ``request`` itself, or a copy with the subjects renamed.
    """
    renamed = {subject: title for subject in request.subjects if (title := spell(subject))}
    if not renamed:
        return request
    return replace(request, subjects=list(dict.fromkeys(renamed.get(s, s) for s in request.subjects)),
                   alternatives=[], title=request.title or request.subject,
                   named_as={**request.named_as, **renamed})


#: How alike a subject no passage holds and an article's title must be, as :func:`difflib.get_close_matches`
#: measures (twice the matched letters over both lengths): "charles darwn" and "Charles Darwin" are 0.96,
#: "potatos" and "Potato" 0.92; "Mars" and "Mass" 0.75.
SPELLING_CUTOFF = 0.88
#: Fewest letters of a subject read as a misspelling (a short word is too near too many titles).
SPELLING_LETTERS = 5


@cache
def _titles_by_letter(space: TopicSpace) -> dict[str, dict[str, str]]:
    """A topic space's titles, bare and folded, by their first letter: folding the encyclopedia's 10,000
    titles takes about 4 s, once per process."""
    by_letter: dict[str, dict[str, str]] = {}
    for title in space.titles:
        bare = bare_title(title)
        folded = fold(bare)
        by_letter.setdefault(folded[:1], {})[folded] = bare
    return by_letter


def _spelled_title(subject: str, search: SearchBackend, lang: str, space: TopicSpace | None) -> str | None:
    """The article title ``subject`` misspells (:func:`_misspelled`'s rule), or ``None``: the subject is held by
    a passage or titles an article, is shorter than :data:`SPELLING_LETTERS`, or is near no title."""
    if space is None or not space.titles or len(subject) < SPELLING_LETTERS or not terms(subject, lang):
        return None
    if all(math.isfinite(space.rarity(t)) for t in terms(subject, lang)):
        return None  # every word is one the corpus writes: "electric cars" is no "Electric charge" misspelt
    found = search.search(subject, k=20)
    if choose_themes(subject, found, 0, lang)[0] is not None or _relevant(found, subject, lang)[0]:
        return None
    titles = _titles_by_letter(space).get(fold(subject)[:1], {})  # a typo rarely falls on the first letter
    close = difflib.get_close_matches(fold(subject), titles, n=1, cutoff=SPELLING_CUTOFF) or \
        difflib.get_close_matches(fold(singular(subject, lang)), titles, n=1, cutoff=SPELLING_CUTOFF)
    return titles[close[0]] if close else None


def _misspelled(request: Request, search: SearchBackend, lang: str) -> Request:
    """The request with each subject no passage holds, and no article is titled by, replaced by the article
    title it is a misspelling of (:data:`SPELLING_CUTOFF`, by the standard library's :mod:`difflib`): "the life
    of charles darwn" is *Charles Darwin* (a reader found "found no sources" and other Charleses offered),
    "potatos" *Potato*. The report keeps the title asked for and says at the top what it read
    (:attr:`~reportgen.blueprint.request.Request.named_as`). Only where the corpora have a topic space (its
    titles are the list searched).

    Returns:
        ``request`` itself, or a copy with the subjects spelled as the corpus titles them.
    """
    space = topic_space(search)
    return _renamed(request, lambda subject: _spelled_title(subject, search, lang, space))


#: How alike a word of an aspect and a function word must be, as :func:`difflib.get_close_matches` measures, for
#: the word to be read as that function word misspelled: "tehy" and "they" are 0.75, "thier" and "their" 0.8.
FUNCTION_SPELLING_CUTOFF = 0.75


def _written_aspects(request: Request, search: SearchBackend, lang: str) -> Request:
    """The request without the words of its aspects that no two documents of the corpora write (the topic space's
    vocabulary, :meth:`~reportgen.blueprint.relevance.TopicSpace.rarity`) and that are a function word misspelled
    (:data:`FUNCTION_SPELLING_CUTOFF`). "blak holes and how tehy form" had had the aspect "tehy form", and the note
    at the top said that no sentence quoted wrote of it, over sentences on how black holes form. A word the
    corpora lack that is no misspelling stays ("workforce"). Without a topic space the request is itself.

    Returns:
        ``request`` itself, or a copy with its aspects so written.
    """
    space = topic_space(search)
    if space is None:
        return request
    function = sorted(stopwords(lang))

    def known(word: str) -> bool:
        held = terms(word, lang) - stopwords(lang)
        return not held or any(t.isdigit() or space.rarity(t) < math.inf for t in held) \
            or not difflib.get_close_matches(fold(word), function, n=1, cutoff=FUNCTION_SPELLING_CUTOFF)

    aspects = [" ".join(w for w in a.split() if known(w)) for a in request.aspects]
    aspects = [a for a in aspects if a.strip()]
    return request if aspects == request.aspects else replace(request, aspects=aspects)


#: What happened to a subject, before its name: "the fall of the Berlin Wall", "la chute de l'Empire romain",
#: "el descubrimiento de la penicilina". Words of its history in general ("the rise of", "the history of")
#: are framing words the request reader drops (:mod:`reportgen.blueprint.request`).
_EVENT_OF = re.compile(
    r"^(?:the\s+|la\s+|le\s+|l['’]|el\s+)?(?P<event>fall|collapse|decline|end|birth|death|invention|discovery|"
    r"founding|foundation|creation|spread|siege|sack|assassination|partition|unification|independence|"
    r"chute|effondrement|d[ée]clin|fin|naissance|mort|invention|d[ée]couverte|fondation|cr[ée]ation|"
    r"ca[íi]da|colapso|decadencia|declive|nacimiento|muerte|invenci[óo]n|descubrimiento|fundaci[óo]n|"
    r"creaci[óo]n)\s+(?:of|de|du|des|del|d['’])\s*(?:the\s+|la\s+|le\s+|les\s+|l['’]|el\s+|los\s+|las\s+)?"
    r"(?P<subject>.+)$",
    re.IGNORECASE,
)


def _event_of(request: Request, search: SearchBackend, lang: str) -> Request:
    """The request with a subject that is an event of another (:data:`_EVENT_OF`) replaced by that other,
    the event an aspect, when the corpora hold no article titled by the whole but one titled by the other:
    "Fall of the Berlin Wall" is a report on *Berlin Wall* with the aspect "fall" (it had opened on a
    sentence about Subhas Chandra Bose in Germany). "Fall of Constantinople", where the corpus has that
    article, stays whole. The report keeps the title asked for, and says at the top what it draws on when no
    passage writes the event (:func:`thin_note`).

    Returns:
        ``request`` itself, or a copy with the subjects replaced.
    """
    subjects, aspects, unheld = [], [], []
    changed = False
    for subject in request.subjects:
        event = _EVENT_OF.match(subject.strip())
        found = search.search(subject, k=20) if event else []
        if event and choose_themes(subject, found, 0, lang)[0] is None:
            other = event.group("subject").strip()
            if _article_on(other, search, lang) is not None:
                subjects.append(other)
                aspects.append(event.group("event").lower())
                changed = True
                if not any(writes_phrase(p.text, strip_article(subject)) for p in found):
                    unheld.append(subject)  # no passage writes "the fall of the Berlin Wall": said at the top
                continue
        subjects.append(subject)
    if not changed:
        return request
    return replace(request, subjects=subjects, aspects=list(dict.fromkeys([*aspects, *request.aspects])),
                   alternatives=[], asked=request.asked or " and ".join(unheld),
                   title=request.title or request.subject)


#: How a corpus titles the history of a subject, by language: "History of Japan", "Histoire du Japon",
#: "Historia de las matemáticas" (a title's function words do not count, :func:`choose_themes`).
HISTORY_TITLE = {"en": "History of {}", "fr": "Histoire de {}", "es": "Historia de {}"}


def _history_word(lang: str) -> str:
    """The word a history's title starts with in ``lang`` (:data:`HISTORY_TITLE`), accent-folded."""
    return fold(HISTORY_TITLE.get(lang, HISTORY_TITLE["en"]).split()[0])


def _is_history(request: Request, lang: str) -> bool:
    """Whether a request's subject is a history the corpora hold an article on (:func:`_history_of`: *History
    of Japan*), not a subject with its history asked as an aspect."""
    return any(fold(s).startswith(f"{_history_word(lang)} ") for s in request.subjects)


def tells_history(request: Request, lang: str) -> bool:
    """Whether a request asks for its subject's history: it asks for it as an aspect ("The history of the
    bicycle", :func:`~reportgen.blueprint.request.read_request`) or its subject is a history
    (:data:`HISTORY_TITLE`: *History of Japan*, :func:`_history_of`).

    Args:
        request: The read request, its subject resolved (:func:`resolve_subject`).
        lang: Its language.

    Returns:
        True when its sections are to come in time order (:func:`in_time_order`).
    """
    return any(fold(a) == _history_word(lang) for a in request.aspects) or _is_history(request, lang)


def in_time_order(chosen: list[Passage], told: str, texts: dict[str, str], lang: str) -> list[Passage]:
    """The sections of a history in time order.

    The sections whose title the subject's own text writes come first, in the order it writes them
    (a history is told in time order: *History of Japan* names the Jōmon period, then the Yayoi
    period); then the sections whose text prints a year, by their first year
    (:func:`~reportgen.charts.numbers.printed_years`, the timeline's reader: the Heian period,
    1185, before the Edo period, 1600); then the others, as they were. A section written by
    score order had put the Yayoi period before the Jōmon period.

    Args:
        chosen: The sections' own passages, by score.
        told: The text of the subject's own passages.
        texts: Each candidate document's text, by source id (``chosen``'s own passage text when absent).
        lang: Their language.

    Returns:
        The same passages, reordered.
    """
    from reportgen.charts.numbers import printed_years

    def when(item: tuple[int, Passage]) -> tuple[int, int]:
        rank, passage = item
        at = phrase_at(told, bare_title(passage.title))
        if at is not None:
            return 0, at
        years = printed_years(texts.get(passage.source_id, passage.text), lang)
        return (1, years[0][1]) if years else (2, rank)

    return [p for _, p in sorted(enumerate(chosen), key=when)]


def _history_of(request: Request, search: SearchBackend, lang: str) -> Request:
    """The request with a subject whose history it asks for replaced by the corpora's article on that history.

    A request asking for a subject's history ("The history of Japan", "Japan: history", "Histoire du Japon",
    the aspect "history" of :func:`~reportgen.blueprint.request.read_request`) is planned on the article
    titled so (:data:`HISTORY_TITLE`), when the corpora hold one: "History of Japan" had been planned on
    *Japan* and drew the Sea of Okhotsk, Tokyo and Honshu; on *History of Japan* it draws the Jōmon, Heian
    and Edo periods. Without such an article the subject stays, with its history an aspect, and so it does when
    the request asks other aspects too: "the history, culture and economy of Brazil" had been planned on *History of
    Brazil* alone, one section.

    Returns:
        ``request`` itself, or a copy with the subjects replaced and the history aspect spent.
    """
    told = [a for a in request.aspects if fold(a) in {_history_word(code) for code in HISTORY_TITLE}]
    pattern = HISTORY_TITLE.get(lang)
    if not told or pattern is None or len(told) < len(request.aspects):
        return request
    subjects = []
    for subject in request.subjects:
        article = _article_on(pattern.format(subject), search, lang)
        subjects.append(bare_title(article.title) if article is not None else subject)
    if subjects == request.subjects:
        return request
    return replace(request, subjects=list(dict.fromkeys(subjects)), alternatives=[],
                   aspects=[a for a in request.aspects if a not in told])


def _titled_parts(request: Request, search: SearchBackend, lang: str) -> Request:
    """The request with each long subject no passage is about replaced by its part the corpora hold an article on.

    Only for subjects of three or more words without an article of their own:

    * a subject placed by a preposition (:data:`_PLACING`) whose head has an
      article is that head, and the place an aspect: "Deforestation in the
      Amazon" is deforestation with the aspect "Amazon", "Artificial
      intelligence in medicine" artificial intelligence with "medicine"; so
      is a head of two or three words without one ("coffee production in
      Brazil": the article of its part "Coffee" then stands for it,
      :func:`_part_article`);
    * else, when no passage holds the subject's terms (:func:`_relevant`),
      its longest part with an article, leftmost first, is the subject and
      the words around it an aspect. "Renewable energy adoption in
      developing countries" (the passages holding most of its terms were on
      protectionism and referendums) is renewable energy with the aspect
      "adoption in developing countries". A part of one word counts when
      the corpus spells it apart ("healthcare": "Health care",
      :func:`_longest_titled`).

    Where no passage held the whole subject, :attr:`Request.asked` keeps it
    and the report says so at the top (:func:`thin_note`).

    Returns:
        ``request`` itself, or a copy with the parts as subjects.
    """
    subjects: list[str] = []
    aspects: list[str] = []
    unheld = False  # whether a subject replaced holds no passage of its own: the report says so at the top
    rests: dict[str, list[str]] = {}  # the words around each part, per part
    for subject in request.subjects:
        words = subject.split()
        found = search.search(subject, k=PLAN_SEARCH_K) if len(words) >= 3 else []
        placed = len(words) >= 3 and any(fold(w) in _PLACING for w in words[1:-1])  # "photosynthsis in plnts"
        if not found and not placed or found and choose_themes(subject, found, 0, lang)[0] is not None:
            subjects.append(subject)
            continue
        none_on_it = not _relevant(found, subject, lang)[0]
        at = next((i for i, w in enumerate(words) if 0 < i < len(words) - 1 and fold(w) in _PLACING), None)
        of_placed = at is None and len(words) >= 3 and fold(words[1]) in _OF_PLACING and words[2][:1].isupper() \
            and singular(words[0], lang) != words[0] and not _held_as_asked(subject, search, lang)
        if of_placed:
            at = 1  # "Castles of Wales", "Forests of Canada": things of a place, as "in" it
        whole_unheld = of_placed  # the note at the top says the corpora hold no text on the whole
        head = " ".join(words[:at]) if at is not None else ""
        title = _own_title(head, search, lang) if head else None
        if head and title is None and " " not in head and not of_placed:
            # "Women in science": the plural's article (*Woman*); "Railways in India": a word passages write
            title = _titled_reading(head, search, lang) or (
                head if passages_writing(head, search) >= MIN_SUBJECT_SENTENCES else None)
            whole_unheld = title is not None and not _held_as_asked(subject, search, lang)
        if head and title is None and none_on_it:  # "photosynthsis in plants": the head misspelled (_misspelled)
            spelled = _spelled_title(head, search, lang, topic_space(search))
            title = str(spelled) if spelled is not None else None
        part = _longest_titled(words, search, lang) if none_on_it and not title else None
        if not title and not part and head and compound(head, lang):
            title = head  # "coffee production in Brazil": the article of a part of it stands for it (gather_themes)
        if title and at is not None:
            subjects.append(title)  # "Deforestation in the Amazon": deforestation, where
            aspects.append(strip_article(" ".join(words[at + 1:])))
            unheld = unheld or none_on_it or whole_unheld
            continue
        if part is None:
            subjects.append(subject)
            continue
        i, j, title = part
        subjects.append(title)  # as the corpus spells it: "Health care" for "healthcare"
        unheld = True
        around = [*words[:i], *words[j:]]
        while around and fold(around[-1]) in stopwords(lang):  # "EV adoption in the EU": "EV adoption"
            around.pop()
        rest = " ".join(around)
        rests[title.casefold()] = [*rests.get(title.casefold(), []), rest]
        aspects += [rest] if terms(rest, lang) and is_aspect(rest) else []
    if subjects == request.subjects:
        return request
    if len(subjects) == 2 and subjects[0].casefold() == subjects[1].casefold() \
            and all(rests.get(subjects[0].casefold(), ["", ""])):
        # "Python and Rust programming languages": one part for both, so the words setting them apart are the
        # subjects, and the part what is asked of them (it had been two subjects "programming languages")
        shared = subjects[0]
        return replace(request, subjects=rests[shared.casefold()][:2], aspects=[shared, *request.aspects],
                       alternatives=[], title=request.title or " and ".join(request.subjects))
    return replace(request, subjects=subjects, aspects=list(dict.fromkeys([*aspects, *request.aspects])),
                   alternatives=[], asked=request.subject if unheld else "", title=request.title or request.subject)


#: Prepositions that place a subject ("Deforestation in the Amazon", "Artificial intelligence in medicine"):
#: what precedes is the subject when it has an article of its own, what follows an aspect.
_PLACING = {"in", "for", "on", "at", "across", "among", "during", "within", "around", "under", "throughout",
            "dans", "pour", "chez", "durant", "en", "para", "durante", "entre"}


#: "of" placing a plural's things, in English, French and Spanish: "Castles of Wales", "Châteaux de la Loire".
_OF_PLACING = frozenset({"of", "de", "del", "des", "du"})


def _longest_titled(words: list[str], search: SearchBackend, lang: str) -> tuple[int, int, str] | None:
    """Where in ``words`` the longest run of at least two words that titles an article is (leftmost of the
    longest), a run neither starting nor ending on a stop word, and the article's title; ``None`` when
    there is none. One word counts when the corpus spells it as two ("healthcare": "Health care",
    :func:`_spelled_apart`): it is a compound, not a word as broad as "building"."""
    stop = stopwords(lang)
    for n in range(len(words) - 1, 0, -1):
        for i in range(len(words) - n + 1):
            run = words[i:i + n]
            if fold(run[0]) in stop or fold(run[-1]) in stop or not terms(" ".join(run), lang):
                continue
            title = _own_title(" ".join(run), search, lang, titled=n > 1)
            if title:
                return i, i + n, title
    return None


def _own_title(phrase: str, search: SearchBackend, lang: str, titled: bool = True) -> str | None:
    """The phrase as an article titles it: the phrase itself when an article is titled by it
    (:func:`choose_themes`; only when ``titled``), the title when the corpus spells it apart
    (:func:`_spelled_apart`), else ``None``."""
    found = search.search(phrase, k=20)
    if titled and choose_themes(phrase, found, 0, lang)[0] is not None:
        return phrase
    return next((p.title for p in found if _spelled_apart(phrase, p.title)), None)


#: Letters each part of a word split in two must have (:func:`_written_apart`): "honey|bee", not "hon|eybee".
SPLIT_PART = 3


def _written_apart(request: Request, search: SearchBackend, lang: str) -> Request:
    """The request with each one-word subject no passage writes replaced by the two words passages write it as.

    "Honeybee" was "found no sources", with no closest subject to offer: no passage writes the word, and
    the corpus titles it *Western honey bee*. Each split of the word into two parts of at least
    :data:`SPLIT_PART` letters is searched as a phrase; the split most passages write side by side
    (:func:`~reportgen.agents.ranking.writes_phrase`) is the subject ("honey bee"), the report keeping the
    title asked for. A word some passage writes, or no split at least :data:`MIN_SUBJECT_SENTENCES` passages
    write, stays: "Blockchain" is not the "block chains" one sentence of *Chain* names among roller chains.

    Returns:
        ``request`` itself, or a copy with the subjects written apart.
    """
    subjects = []
    for subject in request.subjects:
        word = subject.strip()
        if " " in word or len(word) < 2 * SPLIT_PART or any(
                writes_phrase(f"{p.title} {p.text}", word) for p in search.search(word, k=PLAN_SEARCH_K)):
            subjects.append(subject)
            continue
        best, most = subject, 0
        for at in range(SPLIT_PART, len(word) - SPLIT_PART + 1):
            phrase = f"{word[:at]} {word[at:]}"
            written = passages_writing(phrase, search)
            if written > most and written >= MIN_SUBJECT_SENTENCES:
                best, most = phrase, written
        subjects.append(best)
    if subjects == request.subjects:
        return request
    return replace(request, subjects=subjects, alternatives=[], title=request.title or request.subject)


def passages_writing(phrase: str, search: SearchBackend) -> int:
    """How many of the :data:`PLAN_SEARCH_K` passages a search for ``phrase`` finds write it, its words side by
    side in any inflection (:func:`~reportgen.agents.ranking.writes_phrase`, title or text).

    Args:
        phrase: A phrase of one or more words.
        search: The search backend over every configured corpus.

    Returns:
        A count of passages, 0 to :data:`PLAN_SEARCH_K`.
    """
    return sum(writes_phrase(f"{p.title} {p.text}", phrase) for p in search.search(phrase, k=PLAN_SEARCH_K))


def _spelled_apart(word: str, title: str) -> bool:
    """Whether ``title`` spells ``word`` as two or more words ("Health care" for "healthcare", "E-mail" and
    "Email" alike)."""
    squeeze = lambda text: re.sub(r"[\s\-‐]+", "", fold(text))  # noqa: E731
    return bool(re.search(r"[\s\-‐]", title.strip())) and squeeze(word) == squeeze(title)


def no_sources_message(request: Request, search: SearchBackend, lang: str) -> str:
    """The one-line error when the corpora hold nothing on the request: what they hold instead, and what to do."""
    closest = _closest(search, request, lang)
    hint = f"; the closest subjects it holds: {', '.join(closest)}" if closest else ""
    return (f"found no sources on {request.subject!r} in {search.name}{hint}. For a report on it, add your own "
            "documents (--corpus DIR) or configure a model with web search "
            "(REPORTGEN_LLM_MODEL, REPORTGEN_SEARCH=auto)")


def plan_extractive(
    report_id: str, options: RunOptions, search: SearchBackend, *, registry: Registry | None = None
) -> Blueprint:
    """Plan a report from what the corpora hold on the request (see :func:`gather_themes`).

    Args:
        report_id: The report id.
        options: The run options (topic, language, sections wanted, corpora).
        search: The search backend over every configured corpus.
        registry: The agent registry (see :func:`compile_blueprint`).

    Returns:
        The validated-shape blueprint (validate it with
        :meth:`Blueprint.validate_dag` before running).

    Raises:
        NoSourcesError: Nothing on the subject was found; the message names
            the closest subjects the corpora hold and how to get a report.
    """
    request = resolve_subject(read_request(options.topic, options.lang), search, options.lang)
    if not request.subject.strip():  # "???", "«»": punctuation only
        raise NoSourcesError(f"found no sources on {options.topic!r}: it holds no word to search for")
    count = section_count(options.sections, request)
    titles, core, companions = gather_themes(request, search, count, options.lang)
    if not core:
        raise NoSourcesError(no_sources_message(request, search, options.lang))
    # no theme besides the subject: one section, titled as its own article is ("Octopus", not "octopus" as typed),
    # or as the article the corpora hold it by ("the Roman Colosseum" is *Colosseum*: a section titled "Roman
    # Colosseum" had found no sentence writing both words, and the report had been refused)
    held = held_subject(request, core, options.lang)
    wanted = [terms(request.subject, options.lang), terms(held, options.lang)]
    titles = titles or [next((p.title for want in wanted for p in core
                              if terms(bare_title(p.title), options.lang) == want),
                             request.subject[:1].upper() + request.subject[1:])]
    blueprint = compile_blueprint(report_id, options.topic, titles, options.lang, registry=registry,
                                  local_corpus=bool(options.corpus_dirs), subject=request.title or request.subject,
                                  held=held,
                                  details=[{"companions": companions.get(t, [])} for t in titles],
                                  sense=[p.title for p in core], charted=charted_subject(request, options.lang))
    blueprint.aspects = list(request.aspects)
    thin = thin_note(request, core, options.lang)
    blueprint.note_titles = list(dict.fromkeys(p.title for p in core)) if thin else []
    blueprint.note = " ".join(n for n in (named_note(request, options.lang), thin,
                                          sense_note(request, core, search, options.lang),
                                          little_note(request, titles, count, options.lang, thin=bool(thin))) if n)
    return blueprint

