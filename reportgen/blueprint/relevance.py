"""Relatedness to the request: the one measure the planner, the writer and the quality bench share.

A text is related to the request when it shares the request's *vocabulary*,
not a word in a title: its TF-IDF vector (stemmed terms of
:func:`reportgen.agents.ranking.terms`, IDF over the texts being compared) is
close, by cosine, to the vector of the request's core — the passages that
hold the subject itself. Shared vocabulary keeps one sense of an ambiguous
word: "Inflation" (prices, money, central banks) and "Cosmic inflation"
(universe, expansion, Big Bang) share the title word and little else.

:data:`ON_TOPIC_THRESHOLD` is the cut the planner drops candidates below and
the bench counts sections by; it was set on the handed quality requests
(``make bench-quality``) so that wrong-sense and stray sections fall below it
while every section a reader would call on the subject stays above (README,
"Report quality").
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from reportgen.agents.ranking import stem, terms
from reportgen.sources.text import has_cjk, stopwords, tokenize

__all__ = [
    "MENTION_SHARE",
    "ON_TOPIC_THRESHOLD",
    "SENSE_FLOOR",
    "Relatedness",
    "mention_share",
    "on_topic",
    "section_score",
    "term_counts",
]

#: Least cosine similarity to the core for a section theme, a section or a
#: sentence pool to count as on the subject (see the module docstring).
ON_TOPIC_THRESHOLD = 0.07


class Relatedness:
    """TF-IDF cosine similarity of texts to a core, with IDF over a pool of texts.

    Args:
        core: The core texts (the subject's own passages, the request).
        pool: Every text that will be scored (IDF is computed over the
            pool and the core together, so common words weigh little).
        lang: Language of the texts (stemming and stop words).
        subject: The subject; its own terms are left out of both vectors, since
            every candidate was found by them: relatedness is measured on the
            vocabulary around the subject (prices and central banks, or
            universe and Big Bang, around "inflation").
    """

    def __init__(self, core: Sequence[str], pool: Iterable[str], lang: str, subject: str = "") -> None:
        self.lang = lang
        self.subject = terms(subject, lang) if subject else set()
        docs = [self._bag(t) for t in [*core, *pool]]
        n = len(docs) or 1
        df: Counter[str] = Counter()
        for bag in docs:
            df.update(bag.keys())
        self.idf = {t: math.log((1 + n) / (1 + c)) + 1.0 for t, c in df.items()}
        core_bag: Counter[str] = Counter()
        for text in core:
            core_bag.update(self._bag(text))
        self.core = self._vector(core_bag)

    def _bag(self, text: str) -> Counter[str]:
        bag = term_counts(text, self.lang)
        for t in self.subject:
            bag.pop(t, None)
        return bag

    def _vector(self, bag: Counter[str]) -> dict[str, float]:
        vec = {t: (1 + math.log(c)) * self.idf.get(t, 1.0) for t, c in bag.items() if c > 0}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        return {t: v / norm for t, v in vec.items()}

    def score(self, text: str) -> float:
        """Cosine similarity of ``text`` to the core, in [0, 1]."""
        vec = self._vector(self._bag(text))
        return sum(v * self.core.get(t, 0.0) for t, v in vec.items())


def term_counts(text: str, lang: str) -> Counter[str]:
    """How often each content term (:func:`~reportgen.agents.ranking.terms`) occurs in ``text``."""
    stop = stopwords(lang)
    return Counter(stem(t) for t in tokenize(text) if t not in stop and (len(t) > 1 or has_cjk(t)))


def section_score(report: Any, section: Any) -> float:
    """How related a report section is to its request, by :class:`Relatedness`.

    The core is the request's subject and the introduction (written from the
    subject's own passages); the pool is every section of the report.

    Args:
        report: A :class:`~reportgen.report.Report`.
        section: One of its sections.

    Returns:
        The cosine similarity, in [0, 1].
    """
    from reportgen.blueprint.request import read_request

    text = {s.id: " ".join(x.text for p in s.paragraphs for x in p.sentences) for s in report.sections}
    intro = [text[s.id] for s in report.sections if s.role == "introduction"]
    subject = " ".join(read_request(report.topic, report.lang).subjects)
    scorer = Relatedness([subject, *intro], text.values(), report.lang, subject=subject)
    return scorer.score(f"{section.title} {text[section.id]}")


#: Least share of a section's sentences that name the subject for it to count as on the subject
#: by mention (with a relatedness above :data:`SENSE_FLOOR`, so a wrong sense does not count).
MENTION_SHARE = 0.3
#: Least relatedness of a section that names the subject: "Cosmic inflation" names "inflation"
#: but shares nothing else with an economics core (it scores about 0).
SENSE_FLOOR = 0.01


def mention_share(section: Any, subjects: list[str], lang: str) -> float:
    """Share of a section's sentences that name one of the subjects (stemmed terms, all of a subject's)."""
    wanted = [terms(s, lang) for s in subjects]
    sentences = [x.text for p in section.paragraphs for x in p.sentences]
    if not sentences:
        return 0.0
    hits = sum(any(w and w <= terms(t, lang) for w in wanted) for t in sentences)
    return hits / len(sentences)


def on_topic(report: Any, section: Any) -> bool:
    """Whether a section is on the request's subject, the measure ``make bench-quality`` reports.

    On the subject when its relatedness (:func:`section_score`) is at least
    :data:`ON_TOPIC_THRESHOLD`, or when at least :data:`MENTION_SHARE` of its
    sentences name the subject and its relatedness is above :data:`SENSE_FLOOR`
    (a section on penicillin in a report on antibiotics names them in every
    other sentence; a section on cosmic inflation in a report on prices names
    "inflation" but in another sense).
    """
    from reportgen.blueprint.request import read_request

    score = section_score(report, section)
    if score >= ON_TOPIC_THRESHOLD:
        return True
    subjects = read_request(report.topic, report.lang).subjects
    return score > SENSE_FLOOR and mention_share(section, subjects, report.lang) >= MENTION_SHARE
