"""Relatedness to the request: the one measure the planner, the writer and the quality bench share.

A text is related to the request when it shares the request's *vocabulary*,
not a word in a title: its vector is close, by cosine, to the vector of the
request's core — the passages that hold the subject itself. Shared
vocabulary keeps one sense of an ambiguous word: "Inflation" (prices, money,
central banks) and "Cosmic inflation" (universe, expansion, Big Bang) share
the title word and little else.

Two vector spaces, one rule:

- **A corpus's topic space** (:class:`TopicSpace`, latent semantic analysis:
  TF-IDF over every document of the corpus reduced by a truncated SVD, Deerwester
  et al., 1990, with scikit-learn). Words that occur in the same documents
  share dimensions, so "tsunami", "fault" and "seismic" sit near "earthquake"
  even in a text that never says it, and a lone shared word ("magnitude" in
  Candela and Earthquake) weighs little. Built once per corpus index and
  cached beside it; used whenever the search backend offers one
  (``search.space()``: the offline encyclopedia and any local corpus of at
  least :data:`MIN_SPACE_DOCUMENTS` documents). Cut: :data:`SEMANTIC_THRESHOLD`.
- **Plain TF-IDF** over the texts being compared (stemmed terms of
  :func:`reportgen.agents.ranking.terms`), the subject's own terms left out,
  when there is no space (web search, a handful of documents). Cut:
  :data:`ON_TOPIC_THRESHOLD`.

Both cuts are the ones the planner drops candidates below and the bench
counts sections by; they were set on the handed quality requests (``make
bench-quality``) so that wrong-sense and stray sections fall below them while
the sections a reader would call on the subject stay above (README, "Report
quality").
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from reportgen.agents.ranking import stem, terms
from reportgen.sources.text import has_cjk, stopwords, tokenize

__all__ = [
    "MENTION_SHARE",
    "MIN_SPACE_DOCUMENTS",
    "ON_TOPIC_THRESHOLD",
    "OTHER_SENSE_MARGIN",
    "SEMANTIC_THRESHOLD",
    "SEMANTIC_SENSE_FLOOR",
    "SENSE_FLOOR",
    "Relatedness",
    "TopicSpace",
    "mention_share",
    "of_other_sense",
    "on_topic",
    "section_score",
    "term_counts",
]

#: Least TF-IDF cosine similarity to the core for a section theme, a section or a
#: sentence pool to count as on the subject (see the module docstring).
ON_TOPIC_THRESHOLD = 0.07
#: Least cosine similarity in a corpus's :class:`TopicSpace` for the same (see the module docstring).
SEMANTIC_THRESHOLD = 0.2
#: Fewest documents a corpus needs for a topic space: below it the SVD has too
#: few documents to learn which words go together, and plain TF-IDF is used.
MIN_SPACE_DOCUMENTS = 200
#: Dimensions of a topic space (LSA's usual range is 100–300, Deerwester et al., 1990;
#: 150 keeps the encyclopedia's space at 6 MB and its build under half a minute on 2 cores).
SPACE_DIMENSIONS = 150


class _Analyzer:
    """The scikit-learn analyzer of a topic space: the content terms of :func:`term_counts` (picklable)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, text: str) -> list[str]:
        return [t for t, c in term_counts(text, self.lang).items() for _ in range(c)]


class TopicSpace:
    """The latent semantic space of one corpus (see the module docstring).

    Build one with :meth:`build`, keep it with :meth:`save` / :meth:`load`.

    Args:
        vectorizer: The fitted ``sklearn.feature_extraction.text.TfidfVectorizer``.
        svd: The fitted ``sklearn.decomposition.TruncatedSVD``.
        titles: The corpus's document titles, in the order of ``documents``.
        documents: Unit vectors of the corpus's documents, shape ``(len(titles), dimensions)``
            (how near two documents are, e.g. :func:`reportgen.blueprint.planner.companion_themes`).
    """

    #: Layout of the saved file; another layout is rebuilt.
    VERSION = 2

    def __init__(self, vectorizer: Any, svd: Any, titles: Sequence[str] = (), documents: Any = None) -> None:
        self.vectorizer = vectorizer
        self.svd = svd
        self.titles = list(titles)
        self.documents = documents

    @classmethod
    def build(cls, texts: Sequence[str], lang: str, titles: Sequence[str] = ()) -> TopicSpace | None:
        """Fit a space on a corpus's documents.

        Args:
            texts: One text per document (title and body).
            lang: The corpus language (stemming and stop words).
            titles: The documents' titles (kept with their vectors).

        Returns:
            The space; ``None`` when the corpus has fewer than
            :data:`MIN_SPACE_DOCUMENTS` documents or too few shared terms.
        """
        if len(texts) < MIN_SPACE_DOCUMENTS:
            return None
        from sklearn.decomposition import TruncatedSVD
        from sklearn.feature_extraction.text import TfidfVectorizer

        vectorizer = TfidfVectorizer(analyzer=_Analyzer(lang), sublinear_tf=True, min_df=2)
        try:
            matrix = vectorizer.fit_transform(texts)
        except ValueError:  # no term in two documents
            return None
        dimensions = min(SPACE_DIMENSIONS, matrix.shape[1] - 1, len(texts) - 1)
        if dimensions < 10:
            return None
        import numpy as np

        svd = TruncatedSVD(dimensions, random_state=0)
        reduced = svd.fit_transform(matrix)
        norms = np.linalg.norm(reduced, axis=1, keepdims=True)
        documents = (reduced / np.where(norms > 0, norms, 1.0)).astype(np.float32)
        return cls(vectorizer, svd, list(titles) if titles else [], documents if titles else None)

    def vectors(self, texts: Sequence[str]) -> Any:
        """Unit vectors of ``texts`` in the space.

        Args:
            texts: Any texts (words the corpus never had are ignored).

        Returns:
            A ``numpy`` array of shape ``(len(texts), dimensions)``; a text with
            no known word is the zero vector.
        """
        import numpy as np

        reduced = self.svd.transform(self.vectorizer.transform(list(texts)))
        norms = np.linalg.norm(reduced, axis=1, keepdims=True)
        return reduced / np.where(norms > 0, norms, 1.0)

    def rarity(self, term: str) -> float:
        """How rare a term is in the corpus: its inverse document frequency (scikit-learn's smoothed
        ``ln((1 + n) / (1 + df)) + 1``), ``inf`` for a term in fewer than two documents.

        Args:
            term: A stemmed term (:func:`~reportgen.agents.ranking.terms`).
        """
        column = self.vectorizer.vocabulary_.get(term)
        return math.inf if column is None else float(self.vectorizer.idf_[column])

    def save(self, path: Path) -> None:
        """Write the space to ``path`` atomically (joblib, scikit-learn's documented persistence)."""
        import joblib

        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        joblib.dump({"version": self.VERSION, "vectorizer": self.vectorizer, "svd": self.svd,
                     "titles": self.titles, "documents": self.documents}, tmp)
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path) -> TopicSpace | None:
        """Read a space written by :meth:`save`; ``None`` when the file is missing or unreadable."""
        import joblib

        try:
            saved = joblib.load(path)
        except Exception:  # noqa: BLE001 — a damaged cache is rebuilt, never fatal
            return None
        if not isinstance(saved, dict) or saved.get("version") != cls.VERSION:
            return None
        return cls(saved["vectorizer"], saved["svd"], saved["titles"], saved["documents"])


class Relatedness:
    """Cosine similarity of texts to a core: in a corpus's topic space, else by TF-IDF over a pool.

    Args:
        core: The core texts (the subject's own passages, the request).
        pool: Every text that will be scored (without a space, IDF is
            computed over the pool and the core together, so common words
            weigh little).
        lang: Language of the texts (stemming and stop words).
        subject: The subject; without a space its own terms are left out of
            both vectors, since every candidate was found by them: relatedness
            is measured on the vocabulary around the subject (prices and
            central banks, or universe and Big Bang, around "inflation"). In a
            space they stay: the space itself tells the senses apart.
        space: The corpus's :class:`TopicSpace`, when it has one.

    Attributes:
        centre: In a space, the unit vector of the core (shape ``(dimensions,)``).
        threshold: The cut for this measure (:data:`SEMANTIC_THRESHOLD` in a
            space, :data:`ON_TOPIC_THRESHOLD` without).
    """

    def __init__(
        self, core: Sequence[str], pool: Iterable[str], lang: str, subject: str = "",
        space: TopicSpace | None = None,
    ) -> None:
        self.lang = lang
        self.space = space
        self.threshold = SEMANTIC_THRESHOLD if space is not None else ON_TOPIC_THRESHOLD
        if space is not None:
            import numpy as np

            vectors = space.vectors([t for t in core if t.strip()] or [subject])
            centre = vectors.sum(axis=0)
            norm = float(np.linalg.norm(centre))
            self.centre = centre / norm if norm > 0 else centre
            return
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
        """Cosine similarity of ``text`` to the core, in [-1, 1] (TF-IDF: [0, 1])."""
        return self.scores([text])[0]

    def scores(self, texts: Sequence[str]) -> list[float]:
        """:meth:`score` of many texts at once (one matrix product in a space)."""
        if not texts:
            return []
        if self.space is not None:
            return [float(x) for x in self.space.vectors(texts) @ self.centre]
        out = []
        for text in texts:
            vec = self._vector(self._bag(text))
            out.append(sum(v * self.core.get(t, 0.0) for t, v in vec.items()))
        return out



def term_counts(text: str, lang: str) -> Counter[str]:
    """How often each content term (:func:`~reportgen.agents.ranking.terms`) occurs in ``text``."""
    stop = stopwords(lang)
    return Counter(stem(t) for t in tokenize(text) if t not in stop and (len(t) > 1 or has_cjk(t)))


def section_score(
    report: Any, section: Any, *, space: TopicSpace | None = None, core: Sequence[str] | None = None
) -> float:
    """How related a report section is to its request, by :class:`Relatedness`.

    Args:
        report: A :class:`~reportgen.report.Report`.
        section: One of its sections.
        space: The topic space of the corpus the report was made from (the
            bench passes the encyclopedia's); without it, TF-IDF over the
            report's sections.
        core: The core texts (the bench passes the subject's own article);
            default the request's subjects and the report's introduction.

    Returns:
        The cosine similarity (see :meth:`Relatedness.score`).
    """
    from reportgen.blueprint.request import read_request

    text = {s.id: " ".join(x.text for p in s.paragraphs for x in p.sentences) for s in report.sections}
    intro = [text[s.id] for s in report.sections if s.role == "introduction"]
    subject = " ".join(read_request(report.topic, report.lang).subjects)
    scorer = Relatedness(list(core) if core else [subject, *intro], text.values(), report.lang, subject=subject,
                         space=space)
    return scorer.score(f"{section.title} {text[section.id]}")


#: Least share of a section's sentences that name the subject for it to count as on the subject
#: by mention (with a relatedness above the sense floor, so a wrong sense does not count).
MENTION_SHARE = 0.3
#: Least TF-IDF relatedness of a section that names the subject: "Cosmic inflation" names "inflation"
#: but shares nothing else with an economics core (it scores about 0).
SENSE_FLOOR = 0.01
#: The same floor in a topic space (cosines there spread over [-1, 1]; a wrong sense scores under 0.1).
SEMANTIC_SENSE_FLOOR = 0.1


def mention_share(section: Any, subjects: list[str], lang: str) -> float:
    """Share of a section's sentences that name one of the subjects (stemmed terms, all of a subject's)."""
    wanted = [terms(s, lang) for s in subjects]
    sentences = [x.text for p in section.paragraphs for x in p.sentences]
    if not sentences:
        return 0.0
    hits = sum(any(w and w <= terms(t, lang) for w in wanted) for t in sentences)
    return hits / len(sentences)


def on_topic(
    report: Any, section: Any, *, space: TopicSpace | None = None, core: Sequence[str] | None = None
) -> bool:
    """Whether a section is on the request's subject, the measure ``make bench-quality`` reports.

    On the subject when its relatedness (:func:`section_score`) reaches the
    measure's threshold (:data:`SEMANTIC_THRESHOLD` in a topic space,
    :data:`ON_TOPIC_THRESHOLD` without), or when at least
    :data:`MENTION_SHARE` of its sentences name the subject and its relatedness
    is above the sense floor (a section on penicillin in a report on
    antibiotics names them in every other sentence; a section on cosmic
    inflation in a report on prices names "inflation" but in another sense).

    Args:
        report: A :class:`~reportgen.report.Report`.
        section: One of its body sections.
        space: See :func:`section_score`.
        core: See :func:`section_score`.

    Returns:
        Whether the section counts as on the subject.
    """
    from reportgen.blueprint.request import read_request

    score = section_score(report, section, space=space, core=core)
    if score >= (SEMANTIC_THRESHOLD if space is not None else ON_TOPIC_THRESHOLD):
        return True
    floor = SEMANTIC_SENSE_FLOOR if space is not None else SENSE_FLOOR
    subjects = read_request(report.topic, report.lang).subjects
    return score > floor and mention_share(section, subjects, report.lang) >= MENTION_SHARE


#: How much nearer a text must be to the subject's other senses than to its core to be of theirs. Set
#: on the handed requests: Steve Jobs scores 0.21 to the fruit's core and 0.73 to Apple Inc. and the
#: iPhone; the sections a reader keeps are within 0.14 (the 2004 Indian Ocean earthquake 0.25 to the
#: core, 0.35 to the historic earthquakes the space puts under the threshold).
OTHER_SENSE_MARGIN = 0.25


def of_other_sense(texts: Sequence[str], scorer: Relatedness, subject: str, lang: str) -> list[bool]:
    """Which texts are of another sense of the subject's word than its core's, though related to the core.

    The texts that name every term of the subject but score below the
    scorer's threshold are the word's other senses and its stray mentions
    (Apple Inc. and the iPhone beside the fruit); a text at least
    :data:`OTHER_SENSE_MARGIN` nearer to them than to the core is of their
    sense ("Steve Jobs" in a report on apples). A text of that set is measured
    against the rest of it only, so a lone one is never of another sense by
    its own nearness to itself (*Bobby Fischer*, the one text under the
    threshold in a report on chess). Only in a topic space.

    Args:
        texts: The candidate texts (each document's title and text).
        scorer: The relatedness to the subject's core (:class:`Relatedness`).
        subject: The subject, as the request gives it.
        lang: Its language.

    Returns:
        One flag per text (all ``False`` without a topic space or another sense).
    """
    if scorer.space is None or not texts:
        return [False] * len(texts)
    scores = scorer.scores(texts)
    wanted = terms(subject, lang)
    other = [t for t, s in zip(texts, scores, strict=True) if s < scorer.threshold and wanted <= terms(t, lang)]
    if not other:
        return [False] * len(texts)
    outside = [t for t in texts if t not in other]
    near = dict(zip(outside, Relatedness(other, [], lang, subject=subject, space=scorer.space).scores(outside),
                    strict=True))
    for text in other:  # a text of the other set is measured against the rest of it only
        rest = [t for t in other if t != text]
        near[text] = Relatedness(rest, [], lang, subject=subject, space=scorer.space).scores([text])[0] if rest else 0.0
    return [near[t] >= s + OTHER_SENSE_MARGIN for t, s in zip(texts, scores, strict=True)]
