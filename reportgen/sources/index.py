"""A cached SQLite FTS5 index of a corpus, and the offline search backends on top of it.

An index is built once per corpus *fingerprint* (a hash of what the corpus
holds) and cached in ``get_settings().index_dir`` as
``<name>-<fingerprint[:12]>.sqlite``. The build writes a temporary file in the
same folder and ``os.replace``\\ s it into place, so a killed build never leaves
a half index behind; a later open finds either the old state or the whole new
index.

Layout of one index file (schema :data:`SCHEMA_VERSION`)::

    meta(key, value)                    name, fingerprint, counts, notes
    documents(source_id, title, url, text, corpus, lang)
    passages   fts5(title, text, source_id, url, corpus, chunk)
               tokenize 'unicode61 remove_diacritics 2'; the last four UNINDEXED
    passages_cjk fts5(title, text) tokenize 'trigram', external content =
               passages; only passages holding Han, kana or Hangul
    cjk_rows(rowid)                     which passages those are

Documents are cut into passages of at most :data:`PASSAGE_CHARS` characters on
sentence boundaries. Queries are built from the user's words only (each token
quoted, joined with ``OR``), so no text can inject FTS5 syntax, and ranked with
``bm25(passages, 5.0, 1.0)`` (a title hit weighs five text hits), then
refined by one pass of pseudo-relevance feedback (see
:meth:`CorpusIndex.search`) so that passages on the topic that do not repeat
the query's words are found too. The unicode61 tokenizer reads a run of Han characters as one token, so queries
holding CJK characters also go through the trigram table (runs of three or
more characters) and a substring scan of the CJK passages (shorter runs).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import re
import sqlite3
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from reportgen.config import get_settings
from reportgen.errors import ReportgenError, SourceError
from reportgen.sources.models import Closing, Document, Passage, SearchBackend
from reportgen.sources.text import CJK_RE, chunk_text, has_cjk, stopwords, tokenize

if TYPE_CHECKING:
    from reportgen.blueprint.relevance import TopicSpace

__all__ = [
    "CorpusIndex",
    "MAX_QUERY_TERMS",
    "MultiSearch",
    "OfflineSearch",
    "PASSAGE_CHARS",
    "SCHEMA_VERSION",
    "match_expression",
    "topic_space",
]

logger = logging.getLogger(__name__)

#: Version of the on-disk layout; an index of another version is rebuilt.
SCHEMA_VERSION = 3  # 2: passages keep paragraph breaks; 3: Markdown files split by heading

#: Largest passage, in characters: about a paragraph, short enough to quote
#: and to fit many in a model prompt.
PASSAGE_CHARS = 1000

#: Most distinct terms taken from one query (bounds the cost of pasted text).
MAX_QUERY_TERMS = 64

#: bm25 column weights: title, text.
_BM25 = "bm25(passages, 5.0, 1.0)"

#: Pseudo-relevance feedback (RM3-style query expansion): the first-pass
#: passages read, the expansion terms added, the weight of the expansion
#: query against the user's, the largest share of passages an expansion term
#: may occur in, and the smallest index where document frequencies mean
#: something. Tuned on the English encyclopedia so that "renewable energy"
#: also finds "Wind power" and "Solar power", which never say "renewable".
_PRF_DOCS = 5
_PRF_TERMS = 10
_PRF_WEIGHT = 0.5
_PRF_MAX_DF = 0.05
_PRF_MIN_PASSAGES = 200
#: Passages of the first pass kept as candidates for the fused ranking.
_FIRST_PASS = 200

#: Temporary build files older than this (seconds) are leftovers of killed builds.
_STALE_TMP_SECONDS = 3600

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE documents (
    id INTEGER PRIMARY KEY,
    source_id TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    url TEXT NOT NULL,
    text TEXT NOT NULL,
    corpus TEXT NOT NULL,
    lang TEXT NOT NULL
);
CREATE VIRTUAL TABLE passages USING fts5(
    title, text,
    source_id UNINDEXED, url UNINDEXED, corpus UNINDEXED, chunk UNINDEXED,
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE passages_cjk USING fts5(
    title, text, content = 'passages', content_rowid = 'rowid', tokenize = 'trigram'
);
CREATE TABLE cjk_rows (rowid INTEGER PRIMARY KEY);
"""

_CJK_RUN_RE = re.compile(f"(?:{CJK_RE.pattern})+")
_SAFE_NAME_RE = re.compile(r"[^A-Za-z0-9._-]+")


def _safe_name(name: str) -> str:
    safe = _SAFE_NAME_RE.sub("-", name).strip("-.")[:48]
    return safe or "corpus"


#: Shortest singular searched with its plural too: short words' plurals are often other
#: subjects ("winds" is the weather, not wind power), long words' rarely.
PLURAL_MIN_LETTERS = 7


def match_expression(query: str, lang: str = "") -> str:
    """Turn free user text into a safe FTS5 MATCH expression.

    Words come from :func:`~reportgen.sources.text.tokenize`; each is quoted
    as an FTS5 string and the strings are joined with ``OR``, so quotes,
    ``*``, ``NEAR``, ``AND``, column filters and brackets in the user text are
    only ever words. Stopwords are dropped unless nothing else remains; Han
    and kana characters are left to the CJK fallback. A plural word also
    matches its singular (:func:`~reportgen.agents.ranking.stem`) and a
    singular of at least :data:`PLURAL_MIN_LETTERS` letters its ``-s``
    plural, so "Heat pumps" finds "heat pump" and "Antibiotic" finds
    "antibiotics" (the index's tokenizer does not stem).

    Args:
        query: Free text in any script.
        lang: Language of the stopword list (``""``: all three).

    Returns:
        The expression, or ``""`` when the text holds no usable word.
    """
    terms: list[str] = []
    seen: set[str] = set()
    for token in tokenize(query):
        if token in seen or _CJK_RUN_RE.fullmatch(token) and len(token) == 1:
            continue
        seen.add(token)
        terms.append(token)
    stop = stopwords(lang)
    content = [term for term in terms if term not in stop]
    chosen = (content or terms)[:MAX_QUERY_TERMS]
    from reportgen.agents.ranking import stem

    forms: list[str] = []
    for term in chosen:
        variants = [term]
        if term.isalpha() and not _CJK_RUN_RE.search(term):
            base = stem(term)
            if base != term:  # "pumps" also finds "pump"
                variants.append(base)
            elif len(term) >= PLURAL_MIN_LETTERS:  # "antibiotic" also finds "antibiotics"
                variants.append(f"{term}s")
        forms += [v for v in dict.fromkeys(variants) if v not in forms]
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in forms)


def _cjk_queries(query: str) -> tuple[str, list[str]]:
    """Return (trigram MATCH expression, short CJK runs to scan for)."""
    trigrams: list[str] = []
    short: list[str] = []
    for run in _CJK_RUN_RE.findall(query):
        if len(run) < 3:
            if run not in short:
                short.append(run)
            continue
        for i in range(len(run) - 2):
            gram = run[i : i + 3]
            if gram not in trigrams:
                trigrams.append(gram)
    expression = " OR ".join(f'"{gram}"' for gram in trigrams[:MAX_QUERY_TERMS])
    return expression, short[:MAX_QUERY_TERMS]


class CorpusIndex(Closing):
    """A read-only, cached full-text index of one corpus.

    Open one with :meth:`open_or_build`; close it with :meth:`close` or use it
    as a context manager. Safe to share between threads (queries are
    serialised on one connection).

    Attributes:
        name: The corpus name the index was opened under.
        path: The index file.
        fingerprint: The corpus fingerprint it was built from.
        built: Whether this open had to build the index (``False``: it came
            from the cache).
    """

    def __init__(self, path: Path, *, name: str, fingerprint: str, built: bool) -> None:
        self.path = path
        self.name = name
        self.fingerprint = fingerprint
        self.built = built
        self._lock = threading.Lock()
        self._space_lock = threading.Lock()
        self._space: TopicSpace | None = None
        self._space_built = False
        self._con: sqlite3.Connection | None = _connect_ro(path)
        try:
            self._meta = dict(self._con.execute("SELECT key, value FROM meta").fetchall())
            self._con.execute(
                "CREATE VIRTUAL TABLE temp.passages_vocab USING fts5vocab(main, passages, row)"
            )
        except sqlite3.Error:
            self.close()
            raise

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def open_or_build(
        cls,
        name: str,
        fingerprint: str,
        documents: Callable[[], Iterable[Document]],
        *,
        notes: Callable[[], Mapping[str, str]] | None = None,
        directory: Path | None = None,
    ) -> CorpusIndex:
        """Open the cached index of a corpus, building it first when needed.

        Args:
            name: Corpus name (any text; made file-name safe).
            fingerprint: Hash of the corpus content (hex, >= 12 characters);
                a different fingerprint means a different index file.
            documents: Called only when building; yields the corpus.
            notes: Called after ``documents`` is exhausted during a build;
                its entries are stored and read back with :meth:`note`
                (e.g. the files a local load skipped).
            directory: Where indexes live; default ``get_settings().index_dir``.

        Returns:
            The open index.

        Raises:
            reportgen.errors.SourceError: The index cannot be written or read.
            reportgen.errors.ReportgenError: Whatever ``documents`` raises
                (e.g. ``InputError`` for an empty folder) passes through.
        """
        folder = Path(directory) if directory is not None else get_settings().index_dir
        safe = _safe_name(name)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SourceError(f"cannot create the index folder {folder}: {exc}") from exc
        path = folder.resolve() / f"{safe}-{fingerprint[:12]}.sqlite"
        if path.is_file():
            try:
                index = cls(path, name=name, fingerprint=fingerprint, built=False)
            except sqlite3.Error:
                logger.warning("index %s is unreadable; rebuilding it", path)
            else:
                if index._is_current():
                    return index
                index.close()
                logger.info("index %s is stale; rebuilding it", path)
        started = time.perf_counter()
        _build(path, name=name, fingerprint=fingerprint, documents=documents, notes=notes)
        logger.info("built index %s in %.1f s", path, time.perf_counter() - started)
        _remove_siblings(folder, safe, keep=path)
        try:
            return cls(path, name=name, fingerprint=fingerprint, built=True)
        except sqlite3.Error as exc:
            raise SourceError(f"cannot read the index {path}: {exc}") from exc

    def _is_current(self) -> bool:
        return (
            self._meta.get("schema_version") == str(SCHEMA_VERSION)
            and self._meta.get("fingerprint") == self.fingerprint
        )

    def close(self) -> None:
        """Close the database connection (idempotent)."""
        with self._lock:
            if self._con is not None:
                self._con.close()
                self._con = None


    def __repr__(self) -> str:
        return f"CorpusIndex(name={self.name!r}, path={str(self.path)!r}, documents={len(self)})"

    # ------------------------------------------------------------------ reading

    def __len__(self) -> int:
        """Number of documents in the index."""
        return int(self._meta.get("documents", "0"))

    @property
    def passage_count(self) -> int:
        """Number of passages (chunks) in the index."""
        return int(self._meta.get("passages", "0"))

    def note(self, key: str) -> str | None:
        """Return a note stored at build time by ``notes`` (``None`` when absent)."""
        return self._meta.get(f"note:{key}")

    def space(self) -> TopicSpace | None:
        """The corpus's topic space (:class:`~reportgen.blueprint.relevance.TopicSpace`), built on first use.

        Fitted on every document (title and text) and cached beside the index
        file (``<index>.space.joblib``), so it is built once per corpus
        version; ``None`` for a corpus too small for one.

        Raises:
            reportgen.errors.SourceError: The index cannot be read.
        """
        from reportgen.blueprint.relevance import TopicSpace

        with self._space_lock:
            if self._space is not None or self._space_built:
                return self._space
            path = self.path.with_suffix(".space.joblib")
            space = TopicSpace.load(path) if path.is_file() else None
            if space is None:
                rows = self._query("SELECT title, text, lang FROM documents", ())
                lang = Counter(r[2] for r in rows).most_common(1)[0][0] if rows else ""
                started = time.perf_counter()
                space = TopicSpace.build([f"{title} {text}" for title, text, _ in rows], lang or "en",
                                         titles=[title for title, _, _ in rows])
                if space is not None:
                    logger.info("built the topic space of %s in %.1f s", self.name, time.perf_counter() - started)
                    with contextlib.suppress(OSError):  # a read-only cache folder: the space lives in memory
                        space.save(path)
            self._space, self._space_built = space, True
            return space

    def _query(self, sql: str, params: Sequence[object]) -> list[tuple]:
        with self._lock:
            if self._con is None:
                raise SourceError(f"the {self.name} index is closed")
            try:
                return self._con.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise SourceError(f"cannot read the {self.name} index {self.path}: {exc}") from exc

    def get(self, source_id: str) -> Document | None:
        """Return a whole document by id.

        Args:
            source_id: The document's ``source_id``.

        Returns:
            The document, or ``None`` when the index does not hold it.

        Raises:
            reportgen.errors.SourceError: The index cannot be read.
        """
        rows = self._query(
            "SELECT source_id, title, url, text, corpus, lang FROM documents WHERE source_id = ?",
            (source_id,),
        )
        if not rows:
            return None
        sid, title, url, text, corpus, lang = rows[0]
        return Document(source_id=sid, title=title, url=url, text=text, corpus=corpus, lang=lang)

    def search(
        self, query: str, k: int = 10, *, lang: str = "", expand: bool = True
    ) -> list[Passage]:
        """Return the passages that best match free text.

        The first pass ranks passages by ``-bm25`` of the user's words. With
        ``expand`` (and an index of at least 200 passages) a second pass adds
        pseudo-relevance feedback: the ten words that best characterise the
        top five passages (weighted by their scores, seen in at least two,
        rare in the corpus) form an expansion query, and the score becomes
        ``first / max(first) + 0.5 * expansion / max(expansion)``. This finds
        passages on the topic that do not repeat the query's words (for
        "renewable energy": wind power, solar power).

        Args:
            query: Free text in any script (quotes, operators, emoji are
                just text).
            k: Maximum number of passages; ``k < 1`` gives ``[]``.
            lang: Stopword language for the query (``""``: all three).
            expand: Whether to run the feedback pass.

        Returns:
            Up to ``k`` passages by decreasing score (higher is better;
            ``-bm25`` without expansion); ``[]`` when the text holds no word
            or nothing matches.

        Raises:
            reportgen.errors.SourceError: The index cannot be read.
        """
        if k < 1 or not query:
            return []
        k = min(int(k), 1000)
        scores: dict[int, float] = {}
        expression = match_expression(query, lang)
        if expression:
            use_feedback = expand and self.passage_count >= _PRF_MIN_PASSAGES
            scores = self._bm25(expression, max(k, _FIRST_PASS) if use_feedback else k)
            if use_feedback and scores:
                scores = self._with_feedback(query, lang, expression, scores)
        if has_cjk(query):
            cjk = self._search_cjk(query, k)
            if cjk and scores:  # put both on a 0..1 scale before merging
                top = max(cjk.values())
                cjk = {rowid: score / top for rowid, score in cjk.items()}
            for rowid, score in cjk.items():
                scores[rowid] = max(scores.get(rowid, 0.0), score)
        if not scores:
            return []
        best = sorted(scores.items(), key=lambda item: -item[1])[:k]
        rows = self._passages([rowid for rowid, _ in best])
        passages = []
        for rowid, score in best:
            if rowid not in rows:
                continue
            title, text, source_id, url, corpus = rows[rowid]
            passages.append(
                Passage(
                    source_id=source_id,
                    title=title,
                    url=url,
                    text=text,
                    corpus=corpus,
                    score=float(score),
                )
            )
        return passages

    def _bm25(self, expression: str, limit: int, rowids: Sequence[int] = ()) -> dict[int, float]:
        """Return ``{rowid: -bm25}`` of the best ``limit`` passages matching ``expression``."""
        restrict = f" AND rowid IN ({','.join('?' * len(rowids))})" if rowids else ""
        return dict(
            self._query(
                f"SELECT rowid, -{_BM25} FROM passages WHERE passages MATCH ?{restrict} "
                f"ORDER BY {_BM25} LIMIT ?",
                (expression, *rowids, limit),
            )
        )

    def _passages(self, rowids: Sequence[int]) -> dict[int, tuple]:
        if not rowids:
            return {}
        marks = ",".join("?" * len(rowids))
        return {
            row[0]: row[1:]
            for row in self._query(
                f"SELECT rowid, title, text, source_id, url, corpus FROM passages "
                f"WHERE rowid IN ({marks})",
                list(rowids),
            )
        }

    def _with_feedback(
        self, query: str, lang: str, expression: str, first: dict[int, float]
    ) -> dict[int, float]:
        """Fuse the first pass with a pseudo-relevance-feedback expansion query."""
        top = sorted(first.items(), key=lambda item: -item[1])[:_PRF_DOCS]
        rows = self._passages([rowid for rowid, _ in top])
        query_terms = set(tokenize(query))
        stop = stopwords(lang)
        total = sum(score for _, score in top) or 1.0
        weight: defaultdict[str, float] = defaultdict(float)  # Counter is typed for int counts
        seen_in: Counter[str] = Counter()
        for rowid, score in top:
            if rowid not in rows:
                continue
            title, text = rows[rowid][0], rows[rowid][1]
            terms = [
                term
                for term in tokenize(f"{title} {text}")
                if len(term) > 2
                and term not in stop
                and term not in query_terms
                and not term.isdigit()
                and not has_cjk(term)
            ]
            for term, count in Counter(terms).items():
                weight[term] += (score / total) * count / len(terms)
                seen_in[term] += 1
        by_weight = sorted(weight.items(), key=lambda item: item[1], reverse=True)  # as Counter.most_common()
        candidates = [term for term, _ in by_weight if seen_in[term] >= 2][:500]
        if not candidates:
            return first
        n = max(self.passage_count, 1)
        frequency = dict(
            self._query(
                f"SELECT term, doc FROM temp.passages_vocab "
                f"WHERE term IN ({','.join('?' * len(candidates))})",
                candidates,
            )
        )
        ranked = sorted(
            (
                (weight[term] * math.log(n / frequency[term]), term)
                for term in candidates
                if 0 < frequency.get(term, 0) <= n * _PRF_MAX_DF
            ),
            reverse=True,
        )[:_PRF_TERMS]
        if not ranked:
            return first
        expansion = self._bm25(" OR ".join(f'"{term}"' for _, term in ranked), _FIRST_PASS)
        missing = [rowid for rowid in expansion if rowid not in first]
        if missing:
            first = {**first, **self._bm25(expression, len(missing), missing)}
        top_first = max(first.values()) or 1.0
        top_expansion = max(expansion.values(), default=1.0) or 1.0
        return {
            rowid: first.get(rowid, 0.0) / top_first
            + _PRF_WEIGHT * expansion.get(rowid, 0.0) / top_expansion
            for rowid in first.keys() | expansion.keys()
        }

    def _search_cjk(self, query: str, k: int) -> dict[int, float]:
        """Score CJK passages: trigram bm25 for long runs, +1 per short run found."""
        trigram_expression, short_runs = _cjk_queries(query)
        scores: dict[int, float] = {}
        if trigram_expression:
            for rowid, rank in self._query(
                "SELECT rowid, bm25(passages_cjk, 5.0, 1.0) FROM passages_cjk "
                "WHERE passages_cjk MATCH ? ORDER BY bm25(passages_cjk, 5.0, 1.0) LIMIT ?",
                (trigram_expression, k * 4),
            ):
                scores[rowid] = -rank
        for run in short_runs:
            for (rowid,) in self._query(
                "SELECT c.rowid FROM cjk_rows AS c JOIN passages AS p ON p.rowid = c.rowid "
                "WHERE instr(p.title, ?) > 0 OR instr(p.text, ?) > 0 LIMIT 10000",
                (run, run),
            ):
                scores[rowid] = scores.get(rowid, 0.0) + 1.0
        return scores


def _connect_ro(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, check_same_thread=False)


def _build(
    path: Path,
    *,
    name: str,
    fingerprint: str,
    documents: Callable[[], Iterable[Document]],
    notes: Callable[[], Mapping[str, str]] | None,
) -> None:
    """Build an index into a temporary file, then move it into place atomically."""
    folder = path.parent
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=folder)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        con = sqlite3.connect(tmp)
        try:
            con.execute("PRAGMA journal_mode = OFF")
            con.execute("PRAGMA synchronous = OFF")
            con.executescript(_SCHEMA)
            doc_count, passage_count = _fill(con, documents())
            meta = {
                "schema_version": str(SCHEMA_VERSION),
                "name": name,
                "fingerprint": fingerprint,
                "documents": str(doc_count),
                "passages": str(passage_count),
                "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }
            for key, value in (notes() if notes is not None else {}).items():
                meta[f"note:{key}"] = str(value)
            con.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
            con.execute("INSERT INTO passages (passages) VALUES ('optimize')")
            con.commit()
        finally:
            con.close()
        with tmp.open("rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except ReportgenError:
        tmp.unlink(missing_ok=True)
        raise
    except (sqlite3.Error, OSError, ValueError) as exc:
        tmp.unlink(missing_ok=True)
        raise SourceError(f"cannot build the {name} index at {path}: {exc}") from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _fill(con: sqlite3.Connection, documents: Iterable[Document]) -> tuple[int, int]:
    doc_count = 0
    passage_count = 0
    for doc in documents:
        cursor = con.execute(
            "INSERT OR IGNORE INTO documents (source_id, title, url, text, corpus, lang) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (doc.source_id, doc.title, doc.url, doc.text, doc.corpus, doc.lang),
        )
        if cursor.rowcount != 1:
            logger.warning("duplicate document id %r ignored", doc.source_id)
            continue
        doc_count += 1
        title_cjk = has_cjk(doc.title)
        for number, chunk in enumerate(chunk_text(doc.text, PASSAGE_CHARS, doc.lang or "")):
            cursor = con.execute(
                "INSERT INTO passages (title, text, source_id, url, corpus, chunk) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (doc.title, chunk, doc.source_id, doc.url, doc.corpus, number),
            )
            passage_count += 1
            if title_cjk or has_cjk(chunk):
                rowid = cursor.lastrowid
                con.execute(
                    "INSERT INTO passages_cjk (rowid, title, text) VALUES (?, ?, ?)",
                    (rowid, doc.title, chunk),
                )
                con.execute("INSERT INTO cjk_rows (rowid) VALUES (?)", (rowid,))
    return doc_count, passage_count


def _remove_siblings(folder: Path, safe: str, *, keep: Path) -> None:
    """Delete superseded indexes of the same corpus and stale temporary files."""
    now = time.time()
    pattern = re.compile(rf"{re.escape(safe)}-[0-9a-f]{{1,12}}\.(sqlite|space\.joblib)")
    for entry in folder.iterdir():
        with contextlib.suppress(OSError):
            if entry.name.endswith(".tmp") and entry.name.startswith("."):
                if now - entry.stat().st_mtime > _STALE_TMP_SECONDS:
                    entry.unlink()
            elif pattern.fullmatch(entry.name) and entry.name.split(".")[0] != keep.name.split(".")[0]:
                entry.unlink()


class OfflineSearch:
    """The :class:`~reportgen.sources.models.SearchBackend` of one cached corpus index.

    Args:
        index: The open index (closed by :meth:`close`).
        name: Backend name shown in logs and messages (``"wikipedia-en"``).
        lang: Stopword language of queries (``""``: all three).
    """

    def __init__(self, index: CorpusIndex, name: str, lang: str = "") -> None:
        self.index = index
        self.name = name
        self.lang = lang

    def search(self, query: str, k: int = 10) -> list[Passage]:
        """Return up to ``k`` passages answering ``query``, best first.

        Args:
            query: Free text in any script.
            k: Maximum number of passages (``< 1`` gives ``[]``).

        Returns:
            Passages by decreasing score (``-bm25``).

        Raises:
            reportgen.errors.SourceError: The index cannot be read.
        """
        return self.index.search(query, k, lang=self.lang)

    def get(self, source_id: str) -> Document | None:
        """Return a whole document by id (see :meth:`CorpusIndex.get`)."""
        return self.index.get(source_id)

    def space(self) -> TopicSpace | None:
        """The corpus's topic space (see :meth:`CorpusIndex.space`)."""
        return self.index.space()

    def close(self) -> None:
        """Close the underlying index."""
        self.index.close()

    def __repr__(self) -> str:
        return f"OfflineSearch(name={self.name!r}, index={self.index!r})"


class MultiSearch:
    """Search several backends at once and merge their answers fairly.

    Results are fused by reciprocal rank (score ``sum(1 / (60 + rank))`` over
    the backends that returned a passage, rank from 1), so the best passage of
    every corpus comes before the second best of any: one large corpus cannot
    crowd out another, whatever its raw scores. Identical passages (same text
    after whitespace folding) are merged. A backend that fails with
    :class:`~reportgen.errors.SourceError` is logged and recorded in
    :attr:`failures`; the search fails only when every backend failed.

    Args:
        backends: The backends, in tie-break order.
        name: This backend's name.

    Attributes:
        failures: ``(backend name, message)`` of the failures of the last search.
    """

    #: Rank offset of reciprocal rank fusion (Cormack et al., 2009).
    RRF_K = 60

    def __init__(self, backends: Sequence[SearchBackend], name: str = "offline") -> None:
        self.backends = list(backends)
        self.name = name
        self.failures: list[tuple[str, str]] = []

    def search(self, query: str, k: int = 10) -> list[Passage]:
        """Return up to ``k`` fused passages from all backends.

        Args:
            query: Free text in any script.
            k: Maximum number of passages (``< 1`` gives ``[]``).

        Returns:
            Passages by decreasing fused score.

        Raises:
            reportgen.errors.SourceError: Every backend failed.
        """
        self.failures = []
        if k < 1:
            return []
        ranked: list[list[Passage]] = []
        for backend in self.backends:
            try:
                ranked.append(backend.search(query, k))
            except SourceError as exc:
                logger.warning("search backend %s failed: %s", backend.name, exc)
                self.failures.append((backend.name, str(exc)))
        if self.backends and len(self.failures) == len(self.backends):
            raise SourceError(
                "every search backend failed: "
                + "; ".join(f"{name}: {message}" for name, message in self.failures)
            )
        merged: dict[str, Passage] = {}
        fused: dict[str, float] = {}
        depth = max((len(results) for results in ranked), default=0)
        for position in range(depth):  # round-robin: the tie-break order
            for results in ranked:
                if position >= len(results):
                    continue
                passage = results[position]
                key = " ".join(passage.text.split()).casefold()
                fused[key] = fused.get(key, 0.0) + 1.0 / (self.RRF_K + position + 1)
                merged.setdefault(key, passage)
        order = sorted(merged, key=lambda key: -fused[key])[:k]
        return [merged[key].model_copy(update={"score": fused[key]}) for key in order]

    def space(self) -> TopicSpace | None:
        """The topic space of the largest corpus that has one (see :func:`topic_space`)."""
        return topic_space(*self.backends)

    def close(self) -> None:
        """Close every backend that has a ``close`` method."""
        for backend in self.backends:
            close = getattr(backend, "close", None)
            if callable(close):
                close()



def topic_space(*backends: object) -> TopicSpace | None:
    """The topic space of the largest of ``backends`` that offers one (``space()``), else ``None``.

    Web search and small corpora have none; with the encyclopedia and a folder
    of the user's documents together, the encyclopedia's (the larger) is the
    one texts of either are compared in.

    Args:
        backends: Search backends (any object; those without ``space`` are skipped).

    Returns:
        A :class:`~reportgen.blueprint.relevance.TopicSpace` or ``None``.
    """
    best: tuple[int, TopicSpace] | None = None
    for backend in backends:
        method = getattr(backend, "space", None)
        if not callable(method):
            continue
        try:
            space = method()
        except SourceError as exc:
            logger.warning("no topic space for %s: %s", getattr(backend, "name", backend), exc)
            continue
        if space is not None:
            size = len(space.vectorizer.idf_)
            if best is None or size > best[0]:
                best = (size, space)
    return best[1] if best else None
