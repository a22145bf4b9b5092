"""The writer agent, extractive mode: section text built from ranked source sentences.

No language model: every sentence is a sentence of a retrieved passage, kept
verbatim with its source. The writer proposes ``sentences`` (the ones it wants,
in reading order) and ``alternates`` (ranked spares); the coordinator enforces
"no sentence used twice in a report" across sections, in reading order, by
replacing a repeated sentence with the section's next alternate.

Outcomes: no usable sentence → 605 INCOMPLETE_INFORMATION (recovery then
broadens with a fresh search of the section's subject); a sentence that is
not, verbatim, in the passage it cites → 607 WRONG_INFORMATION (it is never
published).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from reportgen.acp import StatusCode
from reportgen.agents.model_common import quoted, section_output
from reportgen.agents.ranking import (
    OPENING_PHRASE,
    about as holds_keywords,
    another_thing,
    compared_only,
    compounded_only,
    head_noun,
    in_longer_names_only,
    in_set_phrases_only,
    listed,
    names_designated,
    names_subject,
    of_its_own_kind,
    phrase_at,
    proper_word,
    rank_sentences,
    set_phrases,
    stem,
    subject_parts,
    terms,
    unnamed,
    unnamed_for,
    with_antecedents,
    without_life_places,
    writes_phrase,
    writes_proper,
    written_subjects,
)
from reportgen.agents.runtime import Brain, RunContext, require_notes
from reportgen.blueprint.model import Task
from reportgen.errors import AgentError
from reportgen.render.labels import render_labels
from reportgen.sources.models import Passage
from reportgen.sources.text import bare_title, fold

__all__ = ["WriterBrain"]

#: Most sentences in a body section (about 350 words: the issue asks for 1,000-word bodies over
#: five sections), and spares kept for deduplication.
BODY_SENTENCES = 18
SPARE_SENTENCES = 8
#: Least relatedness, in the corpus's topic space, of a sentence from another article than the section's
#: own and its companions, when it does not name the subject (one sentence shares few words, so its
#: cosine is noisier than a document's: "Scientists use maps ... seismology" scored 0.2-0.3 for volcanoes).
OTHER_SENTENCE_THRESHOLD = 0.35
#: Least sentences a body section is filled up to with its own sentences that are not about the
#: subject (a shorter on-topic section beats a longer wandering one).
BODY_FILL = 5
#: Least sentences of the section's own article (titled as the section) it quotes when the article has them, before
#: the fill: "Animal migration", the answer to "Why do birds migrate?", had quoted its first sentence, then a
#: sentence on play and one on teeth that named birds, and not "The cause of migration may be local climate".
OWN_FILL = 4
#: Sentences in the introduction and (besides the recap) the conclusion.
INTRO_SENTENCES = 5
CONCLUSION_SENTENCES = 4
#: Sentences a conclusion is made up to with sentences that do not name the subject (but relate to it).
CONCLUSION_FLOOR = 2


class WriterBrain(Brain):
    """Writes body sections, then the introduction and conclusion.

    Inputs by task kind:

    * ``write``: ``notes`` (required), ``chart`` (optional), ``title``, ``section_id``;
    * ``introduction`` / ``conclusion``: ``notes`` (the overview research),
      ``section_1`` .. ``section_N`` (the finished body sections, optional each).

    Outputs: ``section`` in the writers' one contract (see
    :func:`reportgen.agents.model_common.section_output`): sentences
    ``{"text", "sources": [{source_id, title, url, corpus}], "paragraph": None}``
    (``sources`` is empty for the conclusion's recap line; paragraphs are
    then made per source by the coordinator), plus ranked ``alternates``.
    """

    provides = ("compose",)

    def build_request(
        self, task: Task, inputs: dict[str, Any], strategy: str, ctx: RunContext
    ) -> dict[str, Any]:
        notes = require_notes(inputs) + list(inputs.get("extra_notes") or [])  # tables, MCP tools
        numbered = [(int(k[8:]), v) for k, v in inputs.items() if re.fullmatch(r"section_\d+", k)]
        sections = [v for _, v in sorted(numbered, key=lambda kv: kv[0]) if v]
        return {
            "kind": task.kind,
            "notes": notes,
            "title": inputs.get("title") or "",
            "keywords": list(inputs.get("keywords") or []),
            "section_id": inputs.get("section_id") or task.section or task.id,
            "chart": inputs.get("chart"),
            "sections": sections,
            "broaden": strategy == "broaden",
            "subject_notes": list(inputs.get("subject_notes") or []),
            "companions": [str(t) for t in inputs.get("companions") or []],
            "sense": [str(t) for t in inputs.get("sense") or []],
            "subject": str(inputs.get("subject") or ""),
            "others": [str(t) for t in inputs.get("others") or []],
        }

    def call(self, params: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
        passages = [Passage.model_validate(p) for p in params["notes"]]
        kind = params["kind"]
        # the introduction and conclusion are on the subject, not on the request's other words ("make" in
        # "How do bees make honey?" opened a report on bees with Egyptian Christians)
        focus = params["title"] if kind == "write" else params.get("subject") or ctx.topic
        topic = ctx.topic if kind == "write" else focus
        if params["broaden"]:
            extra = ctx.search.search(f"{focus} {ctx.topic}", k=20)
            if kind != "write" and params.get("sense"):  # kept to the subject's sense, as the overview is
                extra = _new_in_sense(passages, extra, params["sense"], ctx, focus)
            passages += extra
        exclude = {s["text"] for sec in params["sections"] for s in sec.get("sentences", [])}
        subject_terms = terms(params.get("subject") or ctx.topic, ctx.lang)
        if kind == "write" and terms(params["title"], ctx.lang) != subject_terms:
            # The subject's own article is the introduction's: a section on "Sun" in a report on "Solar
            # energy" does not quote its definition, nor one on "Planet" that of "Mercury (planet)"
            passages = [p for p in passages if terms(bare_title(p.title), ctx.lang) != subject_terms]
        if kind == "write" and params.get("others") and any(p.title == params["title"] for p in passages):
            # another section's own article is that section's (with_other_sections): the Internet report's
            # section on HTTP had been left with fibre optics and GPS, its article quoted by an earlier one. A
            # section with no article of its own (one a reviewer renamed "Wind turbines") may quote them.
            others = set(params["others"]) - {params["title"]}
            passages = [p for p in passages if p.title not in others]
        if kind == "write":
            # an article named with the section's words but on another thing is none of its sources, as it
            # joins no section as a companion (another_thing): "The tiger shark is a species of ground shark"
            # had stood in a section on the tiger
            own_text = " ".join(p.text for p in passages if p.title == params["title"])
            passages = [p for p in passages if not another_thing(p.title, params["title"], own_text, ctx.lang)
                        and (p.title == params["title"] or names_designated(f"{p.title}. {p.text}", params["title"]))]
            # nor is an article on a kind of the section's thing its own article never writes, unless it names the
            # report's subject: "A chemical plant is an industrial process plant" had stood in a section on the
            # plant of a report on photosynthesis (of_a_kind, the introduction's rule for the subject)
            if own_text:
                passages = [p for p in passages if p.title == params["title"]
                            or not of_a_kind(p.title, params["title"], own_text, ctx.lang)
                            or names_subject(p.text, params.get("subject") or ctx.topic)]
        ranked = rank_sentences(
            passages, focus=focus, topic=topic, lang=ctx.lang, exclude=exclude,
            keywords=params["keywords"], companions=params.get("companions") or (),
        )
        if kind == "write" and params["subject_notes"]:  # what it sets aside is no spare (the alternates below)
            ranked, _ = _about_the_subject(ranked, params["subject_notes"], ctx, params["title"],
                                           params.get("companions") or (), params.get("subject") or "",
                                           params["keywords"])
        # sections titled by the subjects say what each is (two subjects); a section titled with the subject's
        # word ("1755 Lisbon earthquake") is on one of its kind, and the subject's own article still opens it
        led = any(terms(bare_title(str(sec.get("title", ""))), ctx.lang) == terms(part, ctx.lang)
                  for sec in params["sections"] for part in subject_parts(focus))

        def own(r: Any) -> bool:  # a sentence of the subject's own article is about it, named or not
            return not led and terms(bare_title(str(r.source.get("title", ""))), ctx.lang) == subject_terms

        # the subject's own texts: the core documents the planner kept its sense by, or its own article
        sense = set(params.get("sense") or [])
        core_text = " ".join(f"{p.title}. {p.text}" for p in passages
                             if p.title in sense or terms(bare_title(p.title), ctx.lang) == subject_terms)
        # a proper name by its own article is written with its capital ("a moon of Jupiter": proper_word)
        proper = kind != "write" and proper_word(focus, " ".join(  # the body judges it in _about_the_subject
            p.text for p in passages if terms(bare_title(p.title), ctx.lang) == subject_terms))

        # the set phrases the passages write the subject in name other things: "Jade is an umbrella term …" had
        # closed a report on the umbrella (the planner's rule, gather_themes)
        idioms = _set_phrases_of(passages, focus, ctx.lang) if kind != "write" else set()  # writes_it's, below

        def writes_it(r: Any) -> bool:
            return own(r) or _writes_subject(r.text, str(r.source.get("title", "")), focus, ctx.lang, core_text,
                                             proper) and not in_set_phrases_only(r.text, focus, ctx.lang, idioms)

        naming = [r for r in ranked if writes_it(r)] if kind != "write" else []
        if kind == "introduction" and not naming and not led and sense:
            # no sentence writes the subject: the texts the planner drew it from are read, when the overview's
            # research did not keep them (below)
            extra = _sense_passages(passages, sense, ctx)
            if extra:
                passages += extra
                ranked = rank_sentences(passages, focus=focus, topic=topic, lang=ctx.lang, exclude=exclude,
                                        keywords=params["keywords"], companions=params.get("companions") or ())
        if kind == "introduction" and not naming and not led and exclude:
            # the body quoted every sentence on the subject: the introduction takes them back (the coordinator
            # gives the body its spares in their place) rather than open on whatever is left ("Pumping stations
            # … are public utility buildings" had opened the report on heat pumps, no sentence of it on them);
            # not a section's first sentence of its own article, which it stands on (the coordinator's
            # _off_heading: the IAEA's section had gone with its first sentence, on nuclear energy, and the "It
            # was established in 1957 …" that read on from it)
            needed = set()
            for sec in params["sections"]:
                needed |= {next((str(q.get("text", "")) for q in sec.get("sentences", [])
                                 if any(src.get("title") == sec.get("title") for src in q.get("sources") or [])),
                                "")}
            again = rank_sentences(passages, focus=focus, topic=topic, lang=ctx.lang, exclude=needed,
                                   keywords=params["keywords"], companions=params.get("companions") or ())
            naming = [r for r in again if writes_it(r)]
            # where none writes it, the texts the planner drew it from (below) are taken back so
            ranked = naming or [r for r in again if r.source.get("title") in sense] or ranked
        # only sentences writing the subject, or its own article's ("Solar panels use the photovoltaic
        # effect"), open the report ("a regulated mental health profession", not "sexual and reproductive
        # health"); where sections titled by the subjects say what each is, only sentences writing them all
        # ("sleep helps memory"), or none. The conclusion orders them so too, to know which ones it takes.
        need = written_subjects(focus, focus) if led else 1
        opening = sorted((r for r in naming if written_subjects(r.text, focus) >= need or own(r)),
                         key=lambda r: -written_subjects(r.text, focus)) if naming or led else ranked  # both first
        if kind == "introduction" and not naming and not led and sense:
            # no sentence writes the subject: the texts the planner drew it from open the report, as the note at the
            # top says ("this report draws on the texts that mention it: Celia Cruz, Salsa music"), not the best
            # ranked of any source: "Cuba, officially the Republic of Cuba, is an island country" and the Cuban
            # Missile Crisis had opened the report on the music of Cuba, opossums that on the rivers of South America
            opening = [r for r in ranked if r.source.get("title") in sense] or ranked
        # another article's sentence defining its own thing as one of the subject's kind is on that thing, not on
        # the subject: "Thrushes are small to medium-sized ground living birds" had stood in the introduction of
        # "Why do birds migrate?" (a reader found it there); "The Caloris basin is the largest crater on Mercury" is
        # on Mercury. The introduction only: a body section on thrushes quotes it.
        if kind == "introduction":
            # nor does another article's sentence naming the subject only past its first clause: "The individual
            # light receptors behind each lens … ; honey bees respond in 0.01s", of *Compound eye*, had opened the
            # report on honeybees ("Clinical psychology is a regulated mental health profession" names it in its
            # first). Where no sentence names the subject, the best ranked open it as before
            opening = [r for r in opening if own(r) or r.source.get("title") in sense
                       or not _defines_as_one_of(r.text, focus, ctx.lang)
                       and (not naming or _in_first_clause(r.text, focus))]
        reserved = _left_for_conclusion(opening[:INTRO_SENTENCES], focus, ctx.lang) if kind != "write" else []
        if kind == "introduction":
            ranked = [r for r in opening if r not in reserved]
        elif kind == "conclusion" and naming:
            ranked = naming + [r for r in ranked if r not in naming]
        words = render_labels(ctx.lang)
        if kind == "write":
            wanted, role, title = BODY_SENTENCES, "body", params["title"]
        elif kind == "introduction":
            wanted, role, title = INTRO_SENTENCES, "introduction", words["introduction"]
        else:
            wanted, role, title = CONCLUSION_SENTENCES, "conclusion", words["conclusion"]
        if kind == "conclusion":  # the introduction, written at the same time, takes the best ones
            taken = {s.text for s in opening[:INTRO_SENTENCES] if s not in reserved}
            more = _more_on_the_subject(passages, params.get("sense") or [], ctx, params.get("subject") or "")
            passages += more
            ranked = rank_sentences(passages, focus=focus, topic=topic, lang=ctx.lang, exclude=exclude | taken,
                                    keywords=params["keywords"]) if more else [r for r in ranked
                                                                               if r.text not in taken]
        chosen = with_antecedents(ranked[:wanted])
        # a body section's spares replace its sentences another section quoted (the coordinator's dedupe): only
        # those about the subject, not the ones _about_the_subject set aside ("Sun Tzu was a Chinese military
        # general" had stood in a section on the Sun in a report on tides)
        alternates = [s for s in ranked[wanted:] if s.after is None][:SPARE_SENTENCES]
        sentences = [quoted(s.text, s.source) for s in _reading_order(chosen, title if kind == "write" else "")]
        if kind == "conclusion" and params["sections"]:
            sentences, extra = _summary(ranked, params["sections"], exclude, ctx, params.get("subject") or "",
                                        first=[quoted(r.text, r.source) for r in reserved], core=core_text,
                                        proper=proper, fetched=passages)
            passages += extra
            # a spare replaces a sentence the introduction also took (the coordinator's dedupe): it must be
            # on the subject as the conclusion's are, not "Road transport is a type of transport using roads"
            alternates = [s for s in alternates if _on_subject(s.text, str(s.source.get("title", "")), focus,
                                                                ctx.lang, core_text, proper)]
        return {
            "section": section_output(params["section_id"], title, role, sentences, params["chart"],
                                      alternates=[quoted(s.text, s.source) for s in alternates]),
            "passages": passages,
        }

    def check_response(
        self, task: Task, params: dict[str, Any], raw: Any, ctx: RunContext
    ) -> dict[str, Any]:
        section = dict((raw or {}).get("section") or {})
        passages = (raw or {}).get("passages") or []
        sentences = section.get("sentences") or []
        recap_only = section.get("role") == "conclusion" and sentences  # the recap line alone is a conclusion
        if not any(s.get("sources") for s in sentences) and not recap_only:
            raise AgentError(
                StatusCode.INCOMPLETE_INFORMATION,
                f"the notes hold no usable sentence for {section.get('title') or task.id!r}",
                "broaden retrieval for this section",
            )
        texts: dict[str, list[str]] = {}
        for p in passages:
            texts.setdefault(p.source_id, []).append(p.text)
        for sentence in sentences + section.get("alternates", []):
            for source in sentence.get("sources") or []:  # a quote is verbatim in its source
                if not any(sentence["text"] in t for t in texts.get(source["source_id"], [])):
                    raise AgentError(
                        StatusCode.WRONG_INFORMATION,
                        f"a sentence of {section['title']!r} is not in its cited source {source['source_id']!r}",
                        "rewrite the section from the notes",
                    )
        return {"section": section}


def _writes_subject(text: str, title: str, subject: str, lang: str, core: str = "", proper: bool = False) -> bool:
    """Whether a source sentence is on the subject by writing it, as the introduction and conclusion take them.

    It writes the subject (:func:`~reportgen.agents.ranking.names_subject`), not only as the measure of
    another thing ("larger than the planet Mercury": :func:`~reportgen.agents.ranking.compared_only`), nor
    only inside the name of its article when that article is another thing named with the subject's words
    ("The Jazz Singer is a 1927 American part-talkie musical drama film":
    :func:`~reportgen.agents.ranking.named_after`, the rule timelines follow), nor only as one item of a list
    (:func:`~reportgen.agents.ranking.listed`, the planner's rule: "Wider definitions include taller palms, tree
    ferns, bananas, and bamboos", of *Tree*, had opened a report on bananas), nor only in compounds the
    subject's own texts never write headed by its article's own word (:func:`~reportgen.agents.ranking.of_its_own_kind`,
    the planner's rule: "the bass trumpet", of *Trumpet*, had opened a report on the bass; "an
    American jazz pianist", of *Duke Ellington*, is on jazz), nor only inside a longer name
    (:func:`~reportgen.agents.ranking.in_longer_names_only`: "Leopold ruled the Holy Roman Empire").

    Nor is a sentence of an article on one kind of the subject ("Launch vehicle", "Pipe organ":
    :func:`of_a_kind`) on it: an introduction says what the subject is, and the issue found a report on electric
    vehicles opening on launch vehicles.

    Args:
        text: The sentence.
        title: Its source's title.
        subject: The subject as the planner read it.
        lang: The language.
        core: The subject's own texts, joined (without them, compounds and kinds are not checked).
        proper: Whether the subject is a proper name by its own article
            (:func:`~reportgen.agents.ranking.proper_word`): then only its word with the capital writes it, not
            "Callisto is the second-largest moon of Jupiter".

    Returns:
        True when the sentence is on the subject by what it writes.
    """
    if core and of_a_kind(title, subject, core, lang):
        return False
    if proper and not writes_proper(text, subject):  # "the second-largest moon of Jupiter" (proper_word)
        return False
    text = unnamed_for(text, bare_title(title), subject_parts(subject), lang)  # "The tiger shark": after tigers
    written = [part for part in subject_parts(subject) if writes_phrase(text, part)]
    return names_subject(text, subject) and not compared_only(text, subject) \
        and not in_longer_names_only(text, subject) and not (
        core and of_its_own_kind(text, title, subject, core, lang)) and not (
        written and all(listed(text, part, lang) for part in written))  # "…, tree ferns, bananas, and bamboos"


#: Where a sentence's first clause ends: a mark, or a relative word ("… ground living birds that feed on insects").
_CLAUSE_END = re.compile(r"[,;:(]|\s(?:that|which|who|whose|where|qui|que|dont|où|quien|cuyo|donde)\s",
                         re.IGNORECASE)
#: Words a predicate noun does not follow: "the largest crater on Mercury" is on Mercury, not one of its kind.
_BEFORE_A_PLACE = frozenset("of in on at for from with by to into over under about near de du des en dans sur "
                            "à au aux del el en sobre con por para".split())


def _defines_as_one_of(text: str, subject: str, lang: str) -> bool:
    """Whether a sentence defines another thing as one of the subject's kind: its first clause has a copula (the
    planner's ``_COPULAS``), the subject's head noun not before it, and the subject's words last, after a word
    that is no preposition ("Thrushes are small to medium-sized ground living birds that feed on insects"; not
    "The Caloris basin is the largest crater on Mercury"), or before a phrase on them, opening on a preposition
    or, in English, a participle ("The Saturn V is a retired American super heavy-lift launch vehicle developed
    by NASA …"). Such a sentence is on the other thing: a reader found the thrushes opening a report on why birds
    migrate, and the issue the Saturn V opening one on electric vehicles.

    Args:
        text: A source sentence.
        subject: The subject as the planner read it (each of two judged alone).
        lang: The language.

    Returns:
        True when the sentence defines another thing as a kind of the subject.
    """
    from reportgen.blueprint.planner import _COPULAS

    words = [w.casefold() for w in re.findall(r"[^\W_]+", _CLAUSE_END.split(text, maxsplit=1)[0])]
    verb = next((i for i, w in enumerate(words) if w in _COPULAS.get(lang, _COPULAS["en"])), None)
    if verb is None or verb + 2 > len(words):
        return False
    stems = [stem(fold(w)) for w in words]
    for part in subject_parts(subject):
        named = [stem(fold(w)) for w in re.findall(r"[^\W_]+", part)]
        if not named or stem(fold(head_noun(part, lang))) in stems[:verb]:
            continue
        for at in range(verb + 2, len(words) - len(named) + 1):  # after no preposition, closing the clause or
            after = words[at + len(named)] if at + len(named) < len(words) else ""  # a phrase on it: "… launch
            if stems[at:at + len(named)] == named and words[at - 1] not in _BEFORE_A_PLACE \
                    and (not after or after in _BEFORE_A_PLACE or lang == "en" and after.endswith("ed")):
                return True  # vehicle developed by NASA" (the Saturn V had opened the electric-vehicle report)
    return False


def of_a_kind(title: str, subject: str, core: str, lang: str, siblings: bool = False) -> bool:
    """Whether an article is on one kind of the subject its own texts never name: its title is headed by the
    subject's head noun (:func:`~reportgen.agents.ranking.head_noun`) and adds words to it ("Launch vehicle" to
    "Vehicle", "Concentrated solar power" to "Solar power"), and ``core`` does not write it.

    Args:
        title: The article's title (its bracketed qualifier is ignored).
        subject: The subject as the planner read it.
        core: The subject's own texts, joined.
        lang: The language.
        siblings: Whether a kind beside the subject counts too, the same head with other words ("Indian
            cuisine" beside "Mexican cuisine"; the conclusion's rule, :func:`_summary`).

    Returns:
        True when the article is on a kind of the subject its texts do not speak of.
    """
    name = bare_title(title)
    held = terms(name, lang)
    return any(head_noun(name, lang) and stem(head_noun(name, lang)) == stem(head_noun(part, lang))
               and (held > terms(part, lang) or siblings and bool(held - terms(part, lang))
                    and bool(terms(part, lang) - held))
               and not writes_phrase(core, name)
               for part in subject_parts(subject))


#: Most words before the subject in a sentence about it (:func:`_as_topic`), an opening phrase set off by a comma
#: aside: "The African elephant is ..." (2), "Most species of elephants ..." (3).
TOPIC_POSITION = 4


def _as_topic(text: str, subject: str) -> bool:
    """Whether a sentence writes the subject (or one of two joined by "and") among its first
    :data:`TOPIC_POSITION` words, where what a sentence is about stands: "Elephants are the largest living land
    animals", not "In 962, Otto I became the first emperor of the Holy Roman Empire" for the Roman Empire, nor
    "The band comprised vocalist Robert Plant, guitarist Jimmy Page, bass-guitarist …" for the bass.
    """
    body = OPENING_PHRASE.sub("", text, count=1)
    parts = [subject, *subject_parts(subject)]
    return any((at := phrase_at(body, part)) is not None and at <= TOPIC_POSITION for part in parts)


#: Where a sentence's first clause ends (:func:`_in_first_clause`): a semicolon, a colon, a bracket, a dash set off.
_FIRST_CLAUSE_END = re.compile(r"[;:(]|\s[–—-]\s")


def _in_first_clause(text: str, subject: str) -> bool:
    """Whether a sentence writes the subject (or one of two joined by "and") in its first clause, an opening
    phrase set off by a comma aside (:data:`~reportgen.agents.ranking.OPENING_PHRASE`): what it says is of the
    subject, not of another thing the subject only follows. The introduction's rule for other articles'
    sentences.

    Args:
        text: A source sentence.
        subject: The subject as the planner read it.

    Returns:
        True when the first clause writes the subject.
    """
    first = _FIRST_CLAUSE_END.split(OPENING_PHRASE.sub("", text, count=1), maxsplit=1)[0]
    return any(writes_phrase(first, part) for part in [subject, *subject_parts(subject)])


def _on_subject(text: str, title: str, subject: str, lang: str, core: str = "", proper: bool = False) -> bool:
    """Whether a source sentence is on the subject as the conclusion takes them: it is of the subject's own
    article (named or not), or writes the subject (:func:`_writes_subject`) as what it is about
    (:func:`_as_topic`): the five conclusions a reader checked ended on sentences that named the subject in
    passing ("a pore found in the epidermis of leaves" for a question on leaves).

    Args:
        text: The sentence.
        title: Its source's title.
        subject: The subject as the planner read it.
        lang: The language.
    """
    return terms(bare_title(title), lang) == terms(subject, lang) or _about_it(text, title, subject, lang, core,
                                                                                proper)


def _about_it(text: str, title: str, subject: str, lang: str, core: str = "", proper: bool = False) -> bool:
    """Whether a source sentence writes the subject (:func:`_writes_subject`) as what it is about
    (:func:`_as_topic`), whatever its article."""
    return _writes_subject(text, title, subject, lang, core, proper) \
        and _as_topic(unnamed(text, bare_title(title), terms(subject, lang), lang), subject)


def _about_the_subject(
    ranked: list[Any], subject_notes: list[dict[str, Any]], ctx: RunContext, theme: str = "",
    companions: Iterable[str] = (), about: str = "", keywords: Iterable[str] = (),
) -> tuple[list[Any], list[Any]]:
    """The ranked sentences of a body section about the request's subject, and the others (spares).

    A sentence is kept when it names the subject, or when its vocabulary is
    related to the subject's own passages by the one relatedness measure — at
    its threshold for the section's own article (titled ``theme``), at
    :data:`OTHER_SENTENCE_THRESHOLD` for its ``companions`` and other articles
    (a companion's sentence had been held to the lower one: "Chinese cuisine
    comprises cuisines originating from China" stood in a rice briefing; on
    ``make bench-quality`` the stricter one cost the median body 11 words)
    (:class:`~reportgen.blueprint.relevance.Relatedness`, in the corpus's topic
    space when it has one, :func:`~reportgen.sources.index.topic_space`): a
    section on "Calcium carbonate" in a report on coral reefs quotes how reefs
    are built, not that calcium carbonate is a calcium supplement. A sentence
    of another article kept by relatedness alone must be on the section's
    theme too: it, or its article's title, mentions every one of the section's
    ``keywords`` (the rule :func:`~reportgen.agents.ranking.rank_sentences`
    spares companions); so must a companion's that fills the section. On
    ``make bench-quality`` this took 135 sentences out of the bodies
    (*Imperialism* under *Wind power*, *Baking* under *Refrigeration*,
    *Cotonou* under *Urbanization*) and the median body fell from 907 to
    744.5 words: a shorter on-topic report beats a longer wandering one. Another
    article's sentence that writes the subject only to liken or measure
    another thing by it (:func:`~reportgen.agents.ranking.compared_only`:
    "vertical "tiger-like" stripes") is never kept. The section's own
    article's best sentences follow, up to :data:`OWN_FILL` of its own, and
    its companions' on its theme only to fill it up to :data:`BODY_FILL`; the rest are spares.
    """
    from reportgen.blueprint.relevance import Relatedness
    from reportgen.sources.index import topic_space

    about = about or ctx.topic  # the subject as the planner read it ("bees", not "How do bees make honey?")
    subject = terms(about, ctx.lang)
    core = [str(n.get("text", "")) for n in subject_notes]
    scorer = Relatedness(core, [s.text for s in ranked], ctx.lang, subject=about, space=topic_space(ctx.search))
    scores = scorer.scores([s.text for s in ranked])
    own = {theme, *companions}

    core_text = " ".join(core)
    proper = proper_word(about, " ".join(str(n.get("text", "")) for n in subject_notes  # by its own article
                                         if terms(bare_title(str(n.get("title", ""))), ctx.lang) == subject))

    def named(text: str) -> bool:
        # one word of a subject of several is not the subject: "the Solar System" does not name solar power;
        # nor does a one-word subject written only in compounds its core never writes: "8,611 metres above sea
        # level" is no sentence on the sea (compounded_only), and has to be related to be kept
        # nor does a sentence writing it only as one item of a list (the introduction's and the planner's rule:
        # "Scarves can be made from materials including wool, linen, silk, and cotton" had stood in a section
        # on cotton): it has to be related to be kept
        written = [part for part in subject_parts(about) if writes_phrase(text, part)]
        if written and all(listed(text, part, ctx.lang) for part in written):
            return False
        # nor does a proper name's word written with a small letter: "the second-largest moon of Jupiter" is
        # another moon than the Moon (proper_word), and has to be related to be kept
        if len(subject) < 2:
            return bool(subject & terms(text, ctx.lang)) and not compounded_only(text, about, core_text, ctx.lang) \
                and (not proper or writes_proper(text, about))
        # nor does a name written only inside a longer one: "Leopold ruled the Holy Roman Empire" (in_longer_names_only)
        return names_subject(text, about) and not in_longer_names_only(text, about)

    def on_the_theme(s: Any) -> bool:  # rank_sentences' keyword rule, which a companion's sentences are spared;
        # a place where someone was born or died is no theme of the sentence ("mort … à Paris", under *Paris*)
        return any(holds_keywords(text, list(keywords), ctx.lang)
                   for text in (without_life_places(s.text, ctx.lang), str(s.source.get("title", ""))))

    related: list[Any] = []
    for s, score in zip(ranked, scores, strict=True):  # a sentence reading on from a related one is related
        # the section's own article at the threshold, its companions and other articles at the stricter one
        cut = scorer.threshold if s.source.get("title") == theme or scorer.space is None else OTHER_SENTENCE_THRESHOLD
        # another article's sentence not naming the subject is related to it by its field, not by its thing, unless
        # it is on the section's theme too: "Imperialism is the maintaining and extending of power over foreign
        # nations" (0.5) had stood under *Wind power*, "Baking is a method of preparing food … that uses dry heat"
        # under *Refrigeration* in a report on heat pumps
        by_vocabulary = score >= cut and (s.source.get("title") == theme or on_the_theme(s))
        if s.source.get("title") not in own and (compared_only(s.text, about) or in_longer_names_only(s.text, about)):
            continue  # another article's sentence likening a thing to the subject: "Mackerel species have
            # vertical "tiger-like" stripes" is no sentence on the tiger, however near the topic space puts it;
            # nor one writing it only inside a longer name: "The Holy Roman Empire, also known as …" had stood
            # under *Western Roman Empire* in an overview of the Roman Empire, on the section's words
        # a companion's sentence writing the subject only as a measure is no more on it ("Callisto is roughly a
        # third larger than Earth's Moon" under *Solar eclipse*): it is kept on the section's theme alone
        compared = s.source.get("title") != theme and compared_only(s.text, about)
        if named(s.text) and not compared or by_vocabulary or (
                s.after is not None and s.after in {r.text for r in related}):
            related.append(s)
    related = _with_their_antecedents(related, ranked)
    # the section's own best sentences (its article's and its companions') fill it up when too few name the
    # subject: its theme was kept as related. Another article's sentence unrelated to the subject does not
    # ("Sun Tzu was a Chinese military general" in a section on the Sun, in a report on tides)
    rest = [s for s in ranked if s not in related]
    first = sum(s.source.get("title") == theme for s in related)  # the own article's, then the others' (OWN_FILL)
    first_fill = [s for s in rest if theme and s.source.get("title") == theme][:max(0, OWN_FILL - first)]
    rest = [s for s in rest if s not in first_fill]
    fill = [s for s in rest if s.source.get("title") == theme or s.source.get("title") in own and on_the_theme(s)
            ][:max(0, BODY_FILL - len(related) - len(first_fill))]  # a companion's on the theme, as above
    return related + first_fill + fill, [s for s in rest if s not in fill]


def _with_their_antecedents(kept: list[Any], ranked: list[Any]) -> list[Any]:
    """``kept`` with, before each sentence reading on from another, the sentences it reads on from.

    A sentence on the subject that opens "This last type includes …" is quoted with the sentence it points
    back to, though that one does not name the subject: *Mite*'s "This last type includes the commercially
    destructive Varroa parasite of honey bees" had been dropped from a report on honey bees, with its
    antecedent (:func:`~reportgen.agents.ranking.with_antecedents` drops a sentence whose antecedent is not
    quoted), and the section said nothing on bees.

    Args:
        kept: Sentences kept for a section, best first.
        ranked: Every ranked sentence of its sources (a sentence quoted elsewhere is not among them, and
            its dependants stay dropped).

    Returns:
        The kept sentences, each preceded by its chain of antecedents not kept yet.
    """
    by_text = {s.text: s for s in ranked}
    out: list[Any] = []
    for s in kept:
        chain: list[Any] = []
        step = s
        while step.after is not None and step.after in by_text and by_text[step.after] not in out + chain + kept:
            step = by_text[step.after]
            chain.insert(0, step)
        out += [*chain, s]
    return out


#: Fewest sentences the introduction keeps before it leaves one to the conclusion (:func:`_left_for_conclusion`):
#: an opening sentence and the one after it.
INTRO_FLOOR = 2


def _left_for_conclusion(share: list[Any], subject: str, lang: str) -> list[Any]:
    """The sentence the introduction leaves to the conclusion: of its share (the first
    :data:`INTRO_SENTENCES` on the subject) when it holds more than :data:`INTRO_FLOOR`, the last past its
    opening sentence that is on the subject as what it is about (:func:`_about_it`: "Two or more organs working
    together … form an organ system", not "Tissues are formed from same type cells", though of the subject's own
    article), points back to none and is pointed back to by none, and comes after the introduction's other
    sentences of its passage (a reader found "The agent stimulates the body's immune system" opening a report
    whose "A vaccine typically contains an agent …" had gone to the conclusion). A conclusion draws on the
    sentences left once the introduction took the best, and the short summaries of the offline encyclopedia
    leave none on the subject in most reports: readers found 12 of 14 reports without a conclusion, and three
    in 22 of ``make bench-quality`` had one. :data:`INTRO_FLOOR` is two: at three, four of the 22 had one. Any
    sentence past the opening may go, not only those past the floor: *Solar power*'s article is three sentences,
    the one about solar power ranked second, and its report had no conclusion (7 of the 22 now have one, were 5).

    Args:
        share: The introduction's sentences, best first (:class:`~reportgen.agents.ranking.RankedSentence`).
        subject: The subject as the planner read it.
        lang: The language.

    Returns:
        One sentence, or none when the share is :data:`INTRO_FLOOR` or shorter or none qualifies.
    """
    pointed = {r.after for r in share if r.after is not None}

    def last_of_its_passage(r: Any) -> bool:  # "The agent stimulates …" needs "A vaccine contains an agent" first
        return not any(o.source == r.source and o.position > r.position for o in share)

    if len(share) <= INTRO_FLOOR:
        return []
    for r in reversed(share[1:]):  # any but the opening sentence, so long as the floor is left
        if r.after is None and r.text not in pointed and last_of_its_passage(r) \
                and _about_it(r.text, str(r.source.get("title", "")), subject, lang):
            return [r]
    return []


def _summary(
    ranked: list[Any], sections: list[dict[str, Any]], exclude: set[str], ctx: RunContext, subject_text: str = "",
    first: list[dict[str, Any]] | None = None, core: str = "", proper: bool = False,
    fetched: list[Passage] | None = None,
) -> tuple[list[dict[str, Any]], list[Passage]]:
    """The conclusion: the unused source sentences most central to the finished body.

    Candidates are the overview's remaining sentences and each body section's
    spare sentences (never used: no sentence repeats in a report); each is
    scored by :class:`~reportgen.blueprint.relevance.Relatedness` to the body's
    text, and the best are kept, at most one per section, so the conclusion
    sums up the body instead of listing its titles. The sentences naming the
    subject (not merely measuring another thing by it, :func:`~reportgen.agents.ranking.compared_only`),
    and those of its own article the introduction left, come first (a section's
    spare among them only when related to the overview's best sentences: the overview keeps to the subject's sense, a
    section's spares may not); the others only make up a conclusion of fewer than
    :data:`CONCLUSION_FLOOR` sentences that has one naming the subject ("Sunlight is intense
    in these climates" alone sums up nothing), and in a topic space such a sentence needs
    :data:`OTHER_SENTENCE_THRESHOLD` against the overview's best sentences on the subject
    (the body's own drift, a sausage beside a section on beef, does not
    count), and a sentence that points back is never taken.

    The sentences the introduction left to the conclusion (``first``, :func:`_left_for_conclusion`) lead it.
    With the subject's own texts (``core``), a sentence of an article on a kind of it they never name is not on
    it (:func:`of_a_kind`: "Most launch vehicles operate from a launch pad" had closed a report on electric
    vehicles). A sentence not naming the subject tops up only from a source whose ``fetched`` passages name it
    somewhere: "The most significant war was fought with the Seleucid Empire", of *Macedonian Wars*, which
    never names the Ottoman Empire, had closed a report on it (found on a request in no list).

    Args:
        ranked: The overview's ranked sentences (:func:`~reportgen.agents.ranking.rank_sentences`).
        sections: The finished body sections (``sentences`` and ``alternates`` of quoted sentences).
        exclude: Sentence texts already quoted in the report.
        ctx: The run context (language, search backend, topic).
        subject_text: The subject as the planner read it.
        first: The sentences the introduction left to the conclusion.
        core: The subject's own texts, joined.
        proper: Whether the subject is a proper name by its own article.
        fetched: Every passage the conclusion's task holds, its own search's included; without them, no
            source is known to name the subject and only sentences naming it are taken. A sentence writing the
            subject only in the set phrases they write it in is not on it (:func:`_set_phrases_of`: "Jade is an
            umbrella term …").

    Returns:
        ``(sentences, passages)``: the chosen sentences, and a passage per
        section sentence (its verbatim text, for the citation check).
    """
    from reportgen.blueprint.relevance import Relatedness
    from reportgen.sources.index import topic_space

    body = [" ".join(x["text"] for x in sec.get("sentences", [])) for sec in sections]
    spares = [(alt, sec["id"]) for sec in sections for alt in sec.get("alternates", []) if alt.get("sources")]
    scorer = Relatedness(body, [c.text for c in ranked] + [a["text"] for a, _ in spares], ctx.lang,
                         subject=subject_text or ctx.topic, space=topic_space(ctx.search))
    # a sentence that points back ("These are ...") means nothing away from its antecedent
    candidates = [(scorer.score(c.text), quoted(c.text, c.source), "overview") for c in ranked if c.after is None]
    candidates += [(scorer.score(a["text"]), quoted(a["text"], a["sources"][0]), sid) for a, sid in spares]
    chosen: list[dict[str, Any]] = [s for s in first or [] if s["text"] not in exclude]
    exclude = exclude | {s["text"] for s in chosen}
    used_sections: set[str] = set()
    subject_text = subject_text or ctx.topic  # the subject as read, not the request's other words
    ordered = sorted(candidates, key=lambda c: -c[0])

    idioms = _set_phrases_of(fetched or [], subject_text, ctx.lang)

    def on_subject(sentence: dict[str, Any]) -> bool:
        return _on_subject(sentence["text"], str(sentence["sources"][0].get("title", "")), subject_text, ctx.lang,
                           core, proper) and not in_set_phrases_only(sentence["text"], subject_text, ctx.lang, idioms)
    # the overview's best sentences on the subject judge the ones not naming it: its best sentences alone
    # were, once the introduction took the Silk Road's, those of Road and Road transport
    own_best = [c.text for c in ranked if on_subject(quoted(c.text, c.source))][:INTRO_SENTENCES]
    naming_sources = {p.source_id for p in fetched or [] if names_subject(p.text, subject_text)}
    about = Relatedness(own_best or [subject_text], [], ctx.lang, subject=subject_text, space=scorer.space)
    # the sentences naming the subject first; the others only make up a conclusion of fewer than
    # CONCLUSION_FLOOR ("Triton is the largest moon of Neptune" is near the planets, not about Mars)
    for naming in (True, False):
        if not naming and not chosen:
            break  # sentences that only relate to the subject top up a conclusion, never make one alone
        for _, sentence, origin in ordered:
            if len(chosen) >= (CONCLUSION_SENTENCES if naming else CONCLUSION_FLOOR):
                break
            if sentence["text"] in exclude or (origin != "overview" and origin in used_sections):
                continue
            if on_subject(sentence) != naming:
                continue
            if naming and origin != "overview" and scorer.space is not None \
                    and about.score(sentence["text"]) < about.threshold:
                continue  # a section's spare naming the word in another sense: "the sum of the mole fractions"
            if not naming and (origin != "overview" or scorer.space is not None
                               and about.score(sentence["text"]) < OTHER_SENTENCE_THRESHOLD):
                continue  # "Gin is a distilled alcoholic drink", a spare of a section on drinks, is not about tea
            if not naming and names_subject(sentence["text"], subject_text):
                continue  # it writes the word, yet not of the subject: "… horse-flies, crane flies …" under cranes
            if not naming and sentence["sources"][0].get("source_id") not in naming_sources:
                continue  # its source never names the subject: the Seleucid Empire's war under the Ottoman Empire
            if not naming and core and of_a_kind(str(sentence["sources"][0].get("title", "")), subject_text, core,
                                                 ctx.lang, siblings=True):
                continue  # another kind's: *Indian cuisine*'s "these cuisines vary" had closed the Mexican cuisine
            chosen.append(sentence)
            used_sections.add(origin)
            exclude = exclude | {sentence["text"]}
    passages = [Passage(source_id=s["sources"][0]["source_id"], title=s["sources"][0]["title"],
                        url=s["sources"][0]["url"], corpus=s["sources"][0]["corpus"], text=s["text"])
                for s in chosen]
    return chosen, passages


def _set_phrases_of(passages: list[Passage], subject: str, lang: str) -> set[str]:
    """The set phrases the passages' documents write a one-word subject in
    (:func:`~reportgen.agents.ranking.set_phrases`, the planner's rule: "umbrella term" in *Jade*, *Textile*,
    *Transgender*): a sentence writing the subject only in them is not on it."""
    by_source: dict[str, list[str]] = {}
    for p in passages:
        by_source.setdefault(p.source_id, []).append(p.text)
    return set_phrases([" ".join(texts) for texts in by_source.values()], subject, lang)


#: Passages the conclusion searches on the subject besides the overview's (which the introduction uses up).
CONCLUSION_SEARCH = 20


#: Passages searched per core document title when the introduction reads the core documents (:func:`_sense_passages`):
#: an article's own passages come first in a search for its title.
SENSE_SEARCH = 3


def _more_on_the_subject(have: list[Passage], sense: list[str], ctx: RunContext, subject: str = "") -> list[Passage]:
    """More passages on the report's subject for the conclusion, in the sense of its core documents.

    The overview research's best sentences go to the introduction; a
    conclusion drawn only from what is left took "Gin is a distilled
    alcoholic drink" for a report on tea. The subject is searched again
    (``subject``, default the topic; :data:`CONCLUSION_SEARCH` passages), kept to the sense of the planner's
    core documents (``sense``: :func:`reportgen.agents.browser.keep_to_sense`). Only in a topic
    space and with a ``sense``, else the new passages could not be kept to it; a search that fails
    adds nothing.

    Returns:
        The passages found that ``have`` does not hold.
    """
    from reportgen.errors import ReportgenError
    from reportgen.sources.index import topic_space

    if not sense or topic_space(ctx.search) is None:  # nothing to keep the new passages to the subject's sense by
        return []
    try:
        found = ctx.search.search(subject or ctx.topic, k=CONCLUSION_SEARCH)
    except ReportgenError:  # a dead search engine: the overview's notes still make a conclusion
        return []
    return _new_in_sense(have, found, sense, ctx, subject)


def _sense_passages(have: list[Passage], sense: Iterable[str], ctx: RunContext) -> list[Passage]:
    """The passages of the planner's core documents (``sense``, by title) that ``have`` does not hold: each
    title searched, its own passages kept. A search that fails adds nothing.

    Args:
        have: The passages read already.
        sense: Titles of the subject's core documents (:func:`reportgen.blueprint.planner.gather_themes`).
        ctx: The run context (its search backend).

    Returns:
        The core documents' passages missing from ``have``, in ``sense``'s order.
    """
    from reportgen.errors import ReportgenError

    seen = {(p.source_id, p.text) for p in have}
    out: list[Passage] = []
    for title in sense:
        try:
            found = ctx.search.search(title, k=SENSE_SEARCH)
        except ReportgenError:  # a dead search engine: the overview's notes still make an introduction
            return out
        out += [p for p in found if p.title == title and (p.source_id, p.text) not in seen and p not in out]
    return out


def _new_in_sense(have: list[Passage], found: list[Passage], sense: list[str], ctx: RunContext,
                  subject: str) -> list[Passage]:
    """The passages of ``found`` that ``have`` does not hold, kept to the sense of the core documents
    (:func:`reportgen.agents.browser.keep_to_sense`, judged with ``have`` beside them)."""
    from reportgen.agents.browser import keep_to_sense

    seen = {(p.source_id, p.text) for p in have}
    if not [p for p in found if (p.source_id, p.text) not in seen]:
        return []
    return [p for p in keep_to_sense([*have, *found], sense, ctx, subject) if (p.source_id, p.text) not in seen]


def _reading_order(chosen: list[Any], own: str = "") -> list[Any]:
    """Group chosen sentences by source, each in its original order.

    The section's own article (titled ``own``) comes first, so a section on
    "Planet" opens with what a planet is, not with Ceres; then the other
    sources, best first.
    """
    first_rank: dict[str, int] = {}
    for rank, s in enumerate(chosen):
        first_rank.setdefault(s.source["source_id"], -1 if own and s.source.get("title") == own else rank)
    return sorted(chosen, key=lambda s: (first_rank[s.source["source_id"]], s.position))

