"""A timeline of dated events: the chart of a section whose sources give dates but no comparable numbers.

Many subjects are told by what happened when ("In 1928, Alexander Fleming
discovered penicillin"; "Tim Berners-Lee invented the World Wide Web in
1989"), not by quantities. :func:`propose_timeline` turns such sentences into
a :class:`~reportgen.charts.spec.ChartSpec` of kind ``"timeline"``, with the
same invariant as every chart: each point's ``raw`` (the year as written) is
a substring of its ``quote`` (the verbatim sentence), and the quote of the
passage it came from, so the chart verifier checks a timeline the way it
checks a bar chart (:func:`reportgen.agents.verify.verify_chart`).

The rules, each in one place:

* a sentence is an event when it is about the section's subject (every
  keyword mentioned in the sentence or its source's title:
  :func:`reportgen.agents.ranking.about`, the plot agent's rule for numbers)
  and prints a year (:func:`reportgen.charts.numbers.printed_years`: a
  standalone token, BC negative, no years inside identifiers or quantities,
  the first year of a sentence and of a range) that is not the date of a
  figure (a year :func:`~reportgen.charts.numbers.extract_facts` reads as
  dating a quantity of the sentence, "as of 2024", "the 2020 census",
  "an estimated 2016 GDP") and leaves at least three words beside its date
  (a split-off fragment such as "Congress on May 25, 1961." is no event);
* an article related to the subject (the plot agent's ``related`` sources)
  may add its first dated sentence about itself, labelled with its name;
  at least one drawn event is the subject's own (:func:`propose_timeline`);
* sentences are split by the same splitter as the numbers
  (:mod:`reportgen.charts.numbers`), so a quote is a verbatim slice of its
  passage;
* a label is a short verbatim piece of the sentence (:func:`event_label`).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from reportgen.agents.ranking import (
    about,
    common_terms,
    head_noun,
    mentions,
    named_after,
    stem,
    subject_parts,
    terms,
    unnamed,
    without_life_places,
    without_names,
    writes_phrase,
)
from reportgen.charts.numbers import (
    _ADVERBS,
    _CONJUNCTIONS,
    _DETERMINERS,
    _MONTHS,
    _PRONOUNS,
    _RELATIVES,
    _VERBS,
    _sentences,
    extract_facts,
    printed_years,
)
from reportgen.charts.spec import ChartPoint, ChartSpec
from reportgen.i18n import labels
from reportgen.sources.models import Passage
from reportgen.sources.text import bare_title

__all__ = ["JOINED_MARGIN", "LABEL_WORDS", "MAX_EVENTS", "MIN_EVENTS", "event_label", "propose_timeline"]

#: Fewest events (and distinct years) of a timeline. Two dates are a pair of
#: facts the text already gives side by side; a sequence, with its order and
#: its spacing, needs at least three.
MIN_EVENTS = 3
#: Most events drawn: eight labels, alternating above and below the axis,
#: each get about 1.3 in of width at the figure's 6.4 in (about 22 characters
#: per line at 7.5 pt, three lines), the most that stays readable.
MAX_EVENTS = 8
#: Most words of an event label before it is cut with "…".
LABEL_WORDS = 8
#: Most years (a generation) a related article's event may lie before the subject's first dated event or after its
#: last (:func:`propose_timeline`): further off it is the related article's own history, not the subject's time. A
#: reader found the Sorbonne's founding in 1257 and curium's discovery in 1944 on "Key dates: Pierre Curie and related
#: subjects" (his own dates 1859–1906), and the Asian Games of 1951 and 1982 beside Marco Polo's 1271.
JOINED_MARGIN = 25

#: Subject pronouns and relatives: a label starting with one names its source's title instead ("It was",
#: "which later came" say nothing on their own).
_SUBJECT_PRONOUNS = (_PRONOUNS - _DETERMINERS - {"there", "here"}) | (_RELATIVES - {"that", "where", "que", "où"})
#: Where a clause ends inside a sentence (a comma between digits is a number's).
_CLAUSE_END_RE = re.compile(r"(?<!\d),|,(?!\d)|;|:\s|\s[—–]\s|—")
#: One-word clauses after an opening date that are no event ("In 1928, however, ...").
_CONNECTIVES = _CONJUNCTIONS | _ADVERBS | frozenset(
    "later then finally subsequently eventually afterwards first initially plus tard ensuite puis finalement "
    "después luego finalmente".split())
#: Time words that may introduce a year at the end of a clause ("... the Web in 1989").
_YEAR_PHRASE_RE = re.compile(
    r"\s+(?:in|on|by|since|during|around|circa|c\.|en|el|le|desde|hacia|durante|dès|depuis|vers)"
    r"(?:\s+(?:the\s+year|l['’]an|el\s+año|año))?"
    rf"(?:\s+(?:\d{{1,2}}(?:st|nd|rd|th|er)?|de|{'|'.join(sorted(_MONTHS, key=len, reverse=True))}),?){{0,4}}\s*$",
    re.IGNORECASE,
)
_WORD_RE = re.compile(r"\S+")
#: Verbs of every language's lexicon: a clause opening with one has no subject of its own.
_ALL_VERBS = frozenset().union(*_VERBS.values())
#: A conjunction opening a later clause ("..., and since 2016 has been ...").
_LEAD_RE = re.compile(r"(?:and|but|while|et|mais|y|pero|e)\s+", re.IGNORECASE)
#: A time word right before a year at the head of a clause ("since 2016 has been ...").
_TIME_WORD_RE = re.compile(r"(?:in|on|by|since|from|until|en|depuis|dès|desde|hasta|jusqu['’]en)\s+\d",
                           re.IGNORECASE)
_DATE_LEAD_RE = re.compile(r"[\s,]*")
#: A conjunction and a time word right before the year: a clause boundary with no comma.
_JOINT_RE = re.compile(r"\s(?:and|but|et|mais|y|pero)\s+(?:in|on|by|since|from|until|en|depuis|dès|desde|hasta)\s+$",
                       re.IGNORECASE)
#: "as of 2024", "en date de 2020": the date of a figure, not of an event.
_AS_OF_RE = re.compile(r"\b(?:as\s+of|estimated|en\s+date\s+de|a\s+fecha\s+de)\s+(?:\S+\s+){0,2}$",
                       re.IGNORECASE)
#: "the 2020 census", "le recensement de 2019": the year of a count.
_CENSUS_AFTER_RE = re.compile(r"^\s+(?:census|estimates?|survey|fiscal\s+year)\b", re.IGNORECASE)
_CENSUS_BEFORE_RE = re.compile(r"\b(?:recensement|censo)\s+(?:de\s+)?(?:l['’]an\s+)?$", re.IGNORECASE)


@dataclass(frozen=True)
class _Event:
    year: int
    raw: str
    sentence: str
    label: str
    passage: Passage
    rank: int
    joined: bool = False  # from a related article, not about the subject itself


def _clauses(sentence: str) -> list[tuple[int, int]]:
    """``(start, end)`` spans of the clauses of ``sentence`` (split at commas, semicolons, dashes, brackets)."""
    spans, start = [], 0
    for m in _CLAUSE_END_RE.finditer(sentence):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(sentence)))
    return [(s, e) for s, e in spans if sentence[s:e].strip()]


def _words(text: str) -> list[re.Match[str]]:
    return list(_WORD_RE.finditer(text))


def event_label(sentence: str, start: int, raw: str, title: str) -> str:
    """A short label saying what happened, taken verbatim from the dated sentence.

    The sentence from its start, or — when the year only opens it ("In 1928,
    ...", "En 1928, ...", "On 30 March 1949, ...": a leading clause of at
    most six words holding the year, and a one-word connective after it such
    as "however") — from the clause after the date. At most
    :data:`LABEL_WORDS` words, "…" when cut; when a time word and the year
    ("in 1989", "en 1928") come within them after at least three words, the
    label stops before the time word ("Tim Berners-Lee invented the World
    Wide Web in 1989" → "Tim Berners-Lee invented the World Wide Web"): the
    year is drawn beside the label. A year used as an adjective stays ("He
    shared the 1945 Nobel Prize"). When the year comes after those words, in
    a later clause, that clause says what happened: from its verb when a
    time word and the year open it, its conjunction dropped, and the
    source's title in front when it opens with a verb ("China has
    the world's second-largest economy ..., and since 2016 has been the
    world's largest economy ..." → "Economy of China: has been the world's
    largest economy…"). A label opening with a subject pronoun or a relative ("It was
    first ...", "Il ...", "Él ...", "which later ...") says nothing on its
    own: the pronoun is replaced by the source's title ("Penicillin: was
    first ..."), and one that is only a pronoun gives ``"<title> …"``.

    Args:
        sentence: The dated sentence, verbatim.
        start: Where the year starts in ``sentence``.
        raw: The year as written (``"1928"``, ``"500 BC"``).
        title: The title of the sentence's source.

    Returns:
        The label: a verbatim piece of ``sentence`` (before any "…"), or
        ``"<title>: "`` followed by one.
    """
    clauses = _clauses(sentence)
    begin = 0
    if len(clauses) > 1 and clauses[0][0] <= start < clauses[0][1] and len(_words(sentence[slice(*clauses[0])])) <= 6:
        index = 1  # "In 1928, Alexander Fleming discovered penicillin": from the clause after the date
        while index + 1 < len(clauses) and sentence[slice(*clauses[index])].strip().casefold() in _CONNECTIVES:
            index += 1  # "In 1928, however, ..."
        begin = clauses[index][0]
    headless = False
    lead_in = _YEAR_PHRASE_RE.search(sentence[begin:start])
    late = _words(sentence[begin: begin + lead_in.start()] if lead_in else sentence[begin:start])
    if len(late) >= LABEL_WORDS:  # the year is beyond the label's words: its own clause says what happened
        own = next((c for c in clauses if c[0] <= start < c[1]), None)
        joint = _JOINT_RE.search(sentence, begin, start)
        if own is not None and own[0] <= begin and joint is not None:
            own = (joint.start() + 1, own[1])  # "... by nominal GDP and since 2016 has been ...": no comma
        if own is not None and own[0] > begin:
            clause_start = own[0] + len(sentence[own[0]:own[1]]) - len(sentence[own[0]:own[1]].lstrip())
            lead = _LEAD_RE.match(sentence, clause_start)
            if lead is not None and lead.end() <= start:
                clause_start = lead.end()  # "and since 2016 has been ...": the conjunction goes
            if clause_start == start or _TIME_WORD_RE.match(sentence, clause_start):
                after = _DATE_LEAD_RE.match(sentence, start + len(raw))
                clause_start = after.end() if after else start + len(raw)  # "since 2016 has been": from "has"
            if len(_words(sentence[clause_start:own[1]])) >= 2:
                begin = clause_start
                head = _words(sentence[begin:])[0].group(0).casefold()
                headless = head in _ALL_VERBS or bool(re.fullmatch(r"[^\W\d_]+ed", head))
    text = sentence[begin:]
    words = _words(text)
    end = len(text)
    cut = len(words) > LABEL_WORDS
    if cut:
        end = words[LABEL_WORDS - 1].end()
    year_at = start - begin
    phrase = _YEAR_PHRASE_RE.search(text[:year_at]) if year_at >= 0 else None
    if phrase and phrase.start() < end and len(_words(text[: phrase.start()])) >= 3:
        end = phrase.start()  # "... the World Wide Web in 1989": the year is drawn beside the label
        cut = bool(text[year_at + len(raw):].strip(" .!?\"'”»)"))
    label = text[:end].strip(" .,;:!?\"'“”«»(")
    if cut and (dangling := _YEAR_PHRASE_RE.search(label)) and len(_words(label[: dangling.start()])) >= 3:
        label = label[: dangling.start()].rstrip(" ,;:")  # "... were introduced in…": the time word goes too
    if "(" in label and ")" not in label[label.rindex("("):]:
        label, cut = label[: label.rindex("(")].rstrip(" ,;:"), True
    label += "…" if cut else ""
    if headless:  # "has been the world's largest economy": the article is what it is about
        return f"{title}: {label}"
    first = _words(label)
    if first and first[0].group(0).casefold().strip(",") in _SUBJECT_PRONOUNS:
        rest = label[first[0].end():].strip(" ,")
        return f"{title}: {rest}" if len(first) > 1 and rest.rstrip("…") else f"{title} …"
    return label


def _article_name(passage: Passage) -> str:
    """The passage's title without its bracketed disambiguation ("Mercury (planet)" → "Mercury")."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", passage.title).strip() or passage.title


def _events(passages: list[Passage], keywords: list[str], lang: str, related: Collection[str] = (),
            sense: Collection[str] = (), whole: str = "") -> list[_Event]:
    """Every dated sentence about the subject, in rank then reading order, each sentence once; and,
    from each ``related`` source, its first dated sentence about its own article (``joined``). When the
    subject is one sense of its word (``sense``: the terms of its title's bracketed qualifier, "Memphis
    (Égypte)"), another article gives events only when it writes a term of that sense: "Dates clés : Memphis
    (Égypte)" had been Martin Luther King, Elvis Presley and Aretha Franklin, of Memphis, Tennessee. A subject
    named by several capitalised words (``whole``, :func:`_proper_name`) is the subject of another article's
    sentence only when it, or that article's title, writes the name whole: "Its current iteration was formed in
    2018 by the merger of Paris-Sorbonne University and the Université Pierre et Marie Curie" is no event of Pierre
    Curie (a reader found it, and curium's synthesis in 1944 which its year let join, on his timeline)."""
    # a subject its own article writes in lower case ("the lion") is not named by a capital inside a sentence:
    # "Richard Cœur de Lion", "an Honorary Golden Lion" (without_names)
    common = common_terms(" ".join(p.text or "" for p in passages if terms(_article_name(p), lang) == set(keywords)))
    out: list[_Event] = []
    seen: set[tuple[str, str]] = set()
    joined: set[str] = set()
    for passage in passages:
        text = passage.text or ""
        # a year that dates a quantity ("3,018,022 people ... as of 2024") is a statistic's date, not an event
        statistics = {(f.sentence, f.year) for f in extract_facts([passage], lang) if f.year is not None}
        name = _article_name(passage)
        own = sorted(terms(name, lang))
        if sense and set(own) != set(keywords) and not any(mentions(terms(text, lang), t) for t in sense):
            continue  # another article, not on this sense of the word
        # an article named after the subject's word but on another thing ("Rhapsody in Blue" in a section on
        # Blue): its title does not make its events the subject's, nor does its name in a sentence
        named_other = named_after(name, keywords, lang)
        for s, e in _sentences(text, lang):
            sentence = text[s:e]
            if not re.search(r"\d", sentence) or (passage.source_id, sentence) in seen:
                continue
            # a place where someone was born or died is no event of that place ("mort … à Paris": a reader found
            # "Dates clés : Paris" made of Henri IV's, Louis XVI's and Ionesco's lives, without_life_places)
            named = without_names(without_life_places(sentence, lang), keywords, common)
            core = (about(unnamed(named, name, keywords, lang), keywords, lang) if named_other
                    else about(f"{passage.title} {named}", keywords, lang)
                    and (not whole or set(own) == set(keywords) or writes_phrase(f"{name}. {sentence}", whole)))
            joins = (not core and passage.source_id in related and passage.source_id not in joined
                     and about(sentence, own, lang))
            if not (core or joins):
                continue
            years = printed_years(sentence, lang)
            if not years:
                continue
            raw, year, start = years[0]  # a sentence's first year (the start of a range) dates it
            if ((sentence, year) in statistics or _AS_OF_RE.search(sentence[:start])
                    or _CENSUS_AFTER_RE.match(sentence[start + len(raw):])
                    or _CENSUS_BEFORE_RE.search(sentence[:start])):
                continue
            said = _YEAR_PHRASE_RE.sub("", sentence[:start]) + " " + sentence[start + len(raw):]
            if len(_words(said.strip(" .,;:"))) < 3:
                continue  # a fragment ("Congress on May 25, 1961."): nothing said about what happened
            label = event_label(sentence, start, raw, name)
            if len(_words(label.rstrip("…"))) < 2:
                continue  # nothing said about what happened
            if joins and not about(label, own, lang):
                label = f"{name}: {label}"  # another article's event names its article
            seen.add((passage.source_id, sentence))
            if joins:
                joined.add(passage.source_id)
            out.append(_Event(year, raw, sentence, label, passage, len(out), joined=joins))
    return out


def _proper_name(subject: str) -> str:
    """A subject's name when it is one of several words, each capitalised ("Pierre Curie", "Western Roman
    Empire"), else ``""``; its bracketed qualifier aside."""
    name = re.sub(r"\s*\([^)]*\)\s*$", "", subject).strip()
    words = name.split()
    return name if len(words) > 1 and all(w[:1].isupper() for w in words) else ""


def _spread(years: list[int], rank: dict[int, int], limit: int) -> list[int]:
    """At most ``limit`` of ``years`` spread over their range: the first and the last, then
    each time the year farthest from those chosen (ties: the best-ranked event)."""
    if len(years) <= limit:
        return years
    chosen = [years[0], years[-1]]
    while len(chosen) < limit:
        rest = [y for y in years if y not in chosen]
        best = max(rest, key=lambda y: (min(abs(y - c) for c in chosen), -rank[y]))
        chosen.append(best)
    return sorted(chosen)


def propose_timeline(passages: list[Passage], subject: str, keywords: list[str], lang: str = "en",
                     related: Collection[str] = ()) -> ChartSpec | None:
    """A timeline of the dated events the passages give on ``subject``, or ``None``.

    Events are the sentences about the subject that print a year (module
    docstring). An article named with the subject's word but headed by
    another noun (:func:`~reportgen.agents.ranking.head_noun`: "Rhapsody in
    Blue", "The Blue Marble" beside *Blue*) gives events only where a sentence
    names the subject outside that name. Like the numbers of a combined bar chart
    (:func:`reportgen.charts.propose_chart`, rule 2), the articles of
    ``related`` sources (:func:`reportgen.agents.plot.related_sources`: close
    to the subject's passages in vocabulary) may each add their first dated
    sentence that names their own article, labelled with the article's name
    ("1556 Shaanxi earthquake: ..." beside the 2004 Indian Ocean earthquake);
    the title then says so ("Key dates: ... and related subjects"), and at
    least one event must be the subject's own, and each of theirs within :data:`JOINED_MARGIN` years of the
    subject's own dates. A subject titled as one sense of its word ("Memphis
    (Égypte)") takes other articles' events only where they write a word of that sense. One event per
    year: the best-ranked one whose source no other chosen event has, else the best-ranked (the subject's
    own events before related articles'). At most :data:`MAX_EVENTS`,
    spread over the time range (the earliest, the latest, then the years
    farthest from those chosen), drawn in year order.

    Args:
        passages: The section's passages, best-ranked first.
        subject: The section's subject, for the title ("Key dates: Penicillin").
        keywords: The terms an event's sentence (or its source's title) must
            all mention (:func:`reportgen.agents.ranking.about`).
        related: Source ids whose articles' own events may join (default none).
        lang: Language of the passages and of the title (``reportgen.i18n``
            ``key_dates``).

    Returns:
        A ``"timeline"`` spec: each point's ``value`` and ``year`` the year
        (BC negative), ``raw`` the year as written, ``unit`` ``"year"``,
        ``quote`` the sentence, ``label`` :func:`event_label`; or ``None``
        when fewer than :data:`MIN_EVENTS` distinct years are found.
    """
    qualifier = re.search(r"\(([^)]*)\)\s*$", subject)
    events = _events(passages, keywords, lang, related, sense=sorted(terms(qualifier.group(1), lang)) if qualifier
                     else (), whole=_proper_name(subject))
    own_years = [event.year for event in events if not event.joined]
    kinds = {stem(head_noun(part, lang)) for part in subject_parts(bare_title(subject))} - {""}
    if own_years:  # a related article's date far from the subject's own is its own history (JOINED_MARGIN), unless
        # the article is on a thing of the subject's kind: the 1556 Shaanxi earthquake beside the 2004 one
        events = [event for event in events if not event.joined
                  or min(own_years) - JOINED_MARGIN <= event.year <= max(own_years) + JOINED_MARGIN
                  or stem(head_noun(_article_name(event.passage), lang)) in kinds]
    by_year: dict[int, list[_Event]] = {}
    for event in events:
        by_year.setdefault(event.year, []).append(event)
    if len(by_year) < MIN_EVENTS or all(event.joined for event in events):
        return None
    years = _spread(sorted(by_year), {y: by_year[y][0].rank for y in by_year}, MAX_EVENTS)
    picked: dict[int, _Event] = {}
    used: set[str] = set()
    for year in sorted(years, key=lambda y: by_year[y][0].rank):
        options = by_year[year]
        event = min(options, key=lambda ev: (ev.joined, ev.passage.source_id in used, ev.rank))
        used.add(event.passage.source_id)
        picked[year] = event
    if not any(not ev.joined for ev in picked.values()):  # the subject's own event must be drawn
        own = next(ev for ev in events if not ev.joined)
        del picked[min(picked, key=lambda y: abs(y - own.year))]  # every pick is joined here
        picked[own.year] = own
    points: list[ChartPoint] = []
    taken: set[str] = set()
    for year in sorted(picked):
        event = picked[year]
        label = event.label
        if label.casefold() in taken:
            label = f"{label} ({event.raw})"  # one event per year: the year tells them apart
        taken.add(label.casefold())
        points.append(ChartPoint(
            label=label, value=float(year), raw=event.raw, unit="year", year=year,
            source_id=event.passage.source_id, url=event.passage.url, title=event.passage.title,
            quote=event.sentence,
        ))
    joined = any(ev.joined for ev in picked.values())
    title = labels(lang)["key_dates_related" if joined else "key_dates"].format(
        subject=subject.strip() or points[0].title)
    return ChartSpec(kind="timeline", title=title, x_label="", y_label="", unit="year", points=points)
