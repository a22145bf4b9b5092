"""The FTS5 corpus index, the offline search backends and the text helpers they use."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import reportgen.sources as sources
from reportgen.config import RunOptions, get_settings
from reportgen.errors import InputError, SourceError
from reportgen.sources import (
    PASSAGE_CHARS,
    CorpusIndex,
    Document,
    MultiSearch,
    OfflineSearch,
    Passage,
    SearchBackend,
    chunk_text,
    match_expression,
    open_backends,
    open_local_backend,
    open_wiki_backend,
    split_sentences,
    stopwords,
    tokenize,
)

HOSTILE = Path(__file__).parent / "fixtures" / "hostile"


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def wiki_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One index folder shared by the whole session: each encyclopedia is built once."""
    return tmp_path_factory.mktemp("wiki-index")


@pytest.fixture(scope="session")
def wiki_en(wiki_dir: Path) -> Iterator[OfflineSearch]:
    backend = open_wiki_backend("en", directory=wiki_dir)
    yield backend
    backend.close()


@pytest.fixture(scope="session")
def wiki_fr(wiki_dir: Path) -> Iterator[OfflineSearch]:
    backend = open_wiki_backend("fr", directory=wiki_dir)
    yield backend
    backend.close()


def _doc(number: int, text: str, title: str = "", lang: str = "en") -> Document:
    return Document(
        source_id=f"test:{number}",
        title=title or f"Doc {number}",
        url=f"https://example.org/{number}",
        text=text,
        corpus="test",
        lang=lang,
    )


SMALL = [
    _doc(1, "Wind turbines turn moving air into electricity.", "Wind power"),
    _doc(2, "Photovoltaic panels turn sunlight into electricity.", "Solar power"),
    _doc(3, "Dams store water and release it through turbines.", "Hydroelectricity"),
]


class Counter:
    """A documents callable that counts its calls."""

    def __init__(self, docs: list[Document]) -> None:
        self.docs = docs
        self.calls = 0

    def __call__(self) -> list[Document]:
        self.calls += 1
        return self.docs


# --------------------------------------------------------------------------- search quality


def _titles(passages: list[Passage]) -> list[str]:
    return [passage.title for passage in passages]


def test_renewable_energy_finds_the_sources(wiki_en: OfflineSearch) -> None:
    titles = _titles(wiki_en.search("renewable energy", k=20))
    for wanted in ("Renewable energy", "Wind power", "Solar power", "Hydroelectricity"):
        assert wanted in titles


def test_scores_decrease_and_k_is_respected(wiki_en: OfflineSearch) -> None:
    results = wiki_en.search("renewable energy", k=7)
    assert len(results) == 7
    scores = [passage.score for passage in results]
    assert scores == sorted(scores, reverse=True)
    assert results[0].title == "Renewable energy"
    assert results[0].url == "https://en.wikipedia.org/wiki/Renewable_energy"
    assert results[0].corpus == "wikipedia-en"
    assert wiki_en.search("renewable energy", k=0) == []


def test_plain_bm25_without_expansion(wiki_en: OfflineSearch) -> None:
    results = wiki_en.index.search("wind power", k=5, lang="en", expand=False)
    assert results[0].title == "Wind power"
    assert all(passage.score > 0 for passage in results)


def test_french_query(wiki_fr: OfflineSearch) -> None:
    results = wiki_fr.search("énergie renouvelable", k=10)
    assert results[0].title == "Énergie renouvelable"
    assert "Énergie éolienne" in _titles(results)
    assert all(p.url.startswith("https://fr.wikipedia.org/wiki/") for p in results)
    assert all(p.corpus == "wikipedia-fr" for p in results)
    # Accents are folded on both sides.
    assert wiki_fr.search("energie renouvelable", k=1)[0].title == "Énergie renouvelable"


def test_spanish_query(wiki_dir: Path) -> None:
    with open_wiki_backend("es", directory=wiki_dir).index as index:
        titles = _titles(index.search("energía renovable", k=10, lang="es"))
    assert "Energía renovable" in titles
    assert "Energía eólica" in titles


def test_get_and_len(wiki_en: OfflineSearch) -> None:
    assert len(wiki_en.index) > 9000
    assert wiki_en.index.passage_count >= len(wiki_en.index)
    doc = wiki_en.get("wiki-en:Wind power")
    assert doc is not None
    assert doc.url == "https://en.wikipedia.org/wiki/Wind_power"
    assert doc.lang == "en"
    assert wiki_en.get("wiki-en:No such article") is None


HOSTILE_QUERIES = [
    "",
    " ",
    '"',
    '""',
    "'",
    "*",
    "wind*",
    "NEAR",
    "NEAR(wind power, 2)",
    "AND OR NOT",
    "wind AND",
    "title:wind",
    "{title text}: wind",
    "(((",
    ")",
    "^wind",
    "-wind +power",
    "'; DROP TABLE passages; --",
    "\\",
    "%_%",
    "\x00\x1b[31m",
    "😀🔥",
    "风力发电",
    "إنتاج الطاقة",
    "wind " * 500,
    "x" * 10_000,
    "the of and a",
    "l'énergie d'aujourd'hui",
    "\ud800 lone surrogate",
]


@pytest.mark.parametrize("query", HOSTILE_QUERIES)
def test_hostile_queries_never_raise(wiki_en: OfflineSearch, query: str) -> None:
    results = wiki_en.search(query, k=5)
    assert isinstance(results, list)
    assert len(results) <= 5
    assert wiki_en.search("wind power", k=1)[0].title == "Wind power"


def test_match_expression() -> None:
    assert match_expression("") == ""
    assert match_expression("😀 !!") == ""
    assert match_expression('Wind "power" NEAR*', "en") == '"wind" OR "power" OR "near"'
    assert match_expression("the wind of the north", "en") == '"wind" OR "north"'
    assert match_expression("the of", "en") == '"the" OR "of"'  # only stopwords: keep them
    assert match_expression("L'Énergie", "fr") == '"energie" OR "energies"'
    # inflections: a plural finds its singular, a long singular its plural (the tokenizer does not stem)
    assert match_expression("Heat pumps", "en") == '"heat" OR "pumps" OR "pump"'
    assert match_expression("Antibiotic", "en") == '"antibiotic" OR "antibiotics"'
    assert match_expression("风力 power") == '"power"'  # Han goes to the CJK fallback
    assert match_expression(" ".join(f"w{i}" for i in range(200))).count(" OR ") == 63


def test_backends_implement_the_protocol(wiki_en: OfflineSearch) -> None:
    assert isinstance(wiki_en, SearchBackend)
    assert isinstance(MultiSearch([wiki_en]), SearchBackend)
    assert wiki_en.name == "wikipedia-en"


def test_concurrent_searches(wiki_en: OfflineSearch) -> None:
    queries = ["wind power", "solar power", "hydroelectricity", "renewable energy"] * 8
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda q: wiki_en.search(q, k=3), queries))
    assert all(len(r) == 3 for r in results)


# --------------------------------------------------------------------------- building and caching


def test_index_is_built_once_and_cached() -> None:
    documents = Counter(SMALL)
    with CorpusIndex.open_or_build("tiny", "a" * 40, documents) as first:
        assert first.built
        assert first.path.parent == get_settings().index_dir.resolve()
        assert first.path.name == "tiny-aaaaaaaaaaaa.sqlite"
        mtime = first.path.stat().st_mtime_ns
        assert len(first) == 3
    with CorpusIndex.open_or_build("tiny", "a" * 40, documents) as second:
        assert not second.built
        assert second.path.stat().st_mtime_ns == mtime
        assert second.search("sunlight", k=3)[0].title == "Solar power"
    assert documents.calls == 1


def test_new_fingerprint_rebuilds_and_drops_the_old_index() -> None:
    with CorpusIndex.open_or_build("tiny", "a" * 40, Counter(SMALL)) as old:
        old_path = old.path
    documents = Counter([*SMALL, _doc(4, "Geothermal heat comes from the ground.", "Geothermal")])
    with CorpusIndex.open_or_build("tiny", "b" * 40, documents) as new:
        assert new.built
        assert len(new) == 4
        assert new.search("geothermal", k=1)[0].source_id == "test:4"
    assert documents.calls == 1
    assert not old_path.exists()


def test_failed_build_leaves_nothing_behind() -> None:
    def broken() -> Iterator[Document]:
        yield SMALL[0]
        raise SourceError("disk on fire")

    with pytest.raises(SourceError, match="disk on fire"):
        CorpusIndex.open_or_build("tiny", "c" * 40, broken)
    assert list(get_settings().index_dir.iterdir()) == []
    with CorpusIndex.open_or_build("tiny", "c" * 40, Counter(SMALL)) as index:
        assert index.built and len(index) == 3


def test_unreadable_or_stale_index_is_rebuilt() -> None:
    folder = get_settings().index_dir
    folder.mkdir(parents=True)
    (folder / "tiny-dddddddddddd.sqlite").write_bytes(b"this is not a database" * 100)
    with CorpusIndex.open_or_build("tiny", "d" * 40, Counter(SMALL)) as index:
        assert index.built and len(index) == 3
    # Same 12-digit prefix, different full fingerprint: stale, rebuilt.
    documents = Counter(SMALL[:1])
    with CorpusIndex.open_or_build("tiny", "d" * 12 + "e" * 28, documents) as index:
        assert index.built and len(index) == 1


def test_unsafe_names_make_safe_files() -> None:
    with CorpusIndex.open_or_build("../../etc/pass wd ☃", "f" * 40, Counter(SMALL)) as index:
        assert index.path.parent == get_settings().index_dir.resolve()
        assert index.path.name == "etc-pass-wd-ffffffffffff.sqlite"


def test_duplicate_ids_are_indexed_once() -> None:
    with CorpusIndex.open_or_build("dupes", "1" * 40, lambda: [SMALL[0], SMALL[0]]) as index:
        assert len(index) == 1


def test_closed_index_raises_source_error() -> None:
    index = CorpusIndex.open_or_build("tiny", "2" * 40, Counter(SMALL))
    index.close()
    index.close()
    with pytest.raises(SourceError, match="closed"):
        index.search("wind")


def test_big_single_line_document_is_chunked() -> None:
    sentence = "The wind turbine spins steadily above the plain. "
    text = sentence * (5_000_000 // len(sentence)) + "Zanzibar closes the document."
    nowhere = "x" * 3000  # no space, no sentence end: hard splits
    docs = [_doc(1, text, "Big"), _doc(2, nowhere, "Blob")]
    with CorpusIndex.open_or_build("big", "3" * 40, lambda: docs) as index:
        assert index.passage_count > 5000
        hit = index.search("zanzibar", k=1)[0]
        assert hit.title == "Big"
        assert len(hit.text) <= PASSAGE_CHARS
        assert hit.text.endswith("Zanzibar closes the document.")
        doc = index.get("test:1")
        assert doc is not None and doc.text == text


def test_cjk_document_is_found() -> None:
    docs = [
        _doc(1, "风力发电是利用风能发电的技术。风力发电机把风的动能转换成电能。", "风力发电", ""),
        _doc(2, "太阳能电池把光能直接转换成电能。", "太阳能", ""),
        _doc(3, "Wind power in English only.", "Wind power"),
    ]
    with CorpusIndex.open_or_build("cjk", "4" * 40, lambda: docs) as index:
        assert index.search("风力发电", k=3)[0].source_id == "test:1"  # trigram path
        assert index.search("风能", k=3)[0].source_id == "test:1"  # short run: substring scan
        assert index.search("太阳能电池的原理", k=3)[0].source_id == "test:2"
        assert {p.source_id for p in index.search("wind 风能", k=3)} >= {"test:1", "test:3"}
        assert index.search("火山", k=3) == []


def test_local_cjk_folder(tmp_path: Path) -> None:
    (tmp_path / "风能.md").write_text("# 风力发电\n\n风力发电是利用风能发电的技术。", encoding="utf-8")
    backend, skipped = open_local_backend(tmp_path, lang="en")
    with backend.index:
        (hit,) = backend.search("风力发电", k=5)
        assert hit.title == "风力发电"
        assert hit.url == (tmp_path / "风能.md").resolve().as_uri()
    assert skipped == []


# --------------------------------------------------------------------------- local backends


def test_local_backend_is_cached_and_reports_skipped(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(HOSTILE, corpus)
    backend, skipped = open_local_backend(corpus, lang="en")
    with backend.index as index:
        assert index.built
        assert backend.name == "local:corpus"
        assert backend.search("tidal barrage", k=1)[0].title == "Tidal power basics"
    reasons = {item.path.name: item.reason for item in skipped}
    assert reasons == {"empty.md": "empty", "not-a-pdf.pdf": "not a valid PDF"}

    again, skipped_again = open_local_backend(corpus, lang="en")
    with again.index as index:
        assert not index.built
    assert skipped_again == skipped

    (corpus / "new.txt").write_text("Wave energy converters ride the swell.")
    changed, _ = open_local_backend(corpus, lang="en")
    with changed.index as index:
        assert index.built
        assert changed.search("swell", k=1)[0].title == "new"


def test_open_backends(tmp_path: Path, wiki_dir: Path) -> None:
    corpus = tmp_path / "notes"
    shutil.copytree(HOSTILE, corpus)
    options = RunOptions(topic="Tidal power", corpus_dirs=[corpus], use_wiki=True)
    with open_backends(options, directory=wiki_dir) as opened:
        assert [b.name for b in opened.backends] == ["local:notes", "wikipedia-en"]
        assert {s.path.name for s in opened.skipped} == {"empty.md", "not-a-pdf.pdf"}
        merged = MultiSearch(opened.backends).search("tidal power", k=6)
        corpora = [p.corpus for p in merged]
        assert corpora[:2] == ["local", "wikipedia-en"]  # neither corpus crowds out the other
        assert {"local", "wikipedia-en"} <= set(corpora)


def test_open_backends_without_wiki_uses_the_data_dir(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n\nSome text.")
    with open_backends(RunOptions(topic="x", corpus_dirs=[tmp_path], use_wiki=False)) as opened:
        assert len(opened.backends) == 1
        assert opened.backends[0].index.path.parent == get_settings().index_dir.resolve()
    with open_backends(RunOptions(topic="x", use_wiki=False)) as opened:
        assert opened.backends == []


@pytest.mark.parametrize("kind", ["missing", "empty"])
def test_open_backends_rejects_bad_folders(tmp_path: Path, kind: str) -> None:
    folder = tmp_path / "corpus"
    if kind == "empty":
        folder.mkdir()
    good = tmp_path / "good"
    good.mkdir()
    (good / "a.txt").write_text("Fine.")
    options = RunOptions(topic="x", corpus_dirs=[good, folder], use_wiki=False)
    with pytest.raises(InputError, match=f"corpus folder {folder}"):
        open_backends(options)


# --------------------------------------------------------------------------- MultiSearch


class FakeBackend:
    def __init__(
        self, name: str, passages: list[Passage] | None = None, fail: bool = False
    ) -> None:
        self.name = name
        self.passages = passages or []
        self.fail = fail
        self.closed = False

    def search(self, query: str, k: int = 10) -> list[Passage]:
        if self.fail:
            raise SourceError(f"{self.name} is down")
        return self.passages[:k]

    def close(self) -> None:
        self.closed = True


def _passages(corpus: str, count: int, start: float = 100.0) -> list[Passage]:
    return [
        Passage(
            source_id=f"{corpus}:{i}",
            title=f"{corpus} {i}",
            url=f"https://{corpus}.example/{i}",
            text=f"{corpus} passage {i}",
            corpus=corpus,
            score=start - i,
        )
        for i in range(count)
    ]


def test_multisearch_interleaves_by_rank() -> None:
    big = FakeBackend("big", _passages("big", 10, start=1000.0))
    small = FakeBackend("small", _passages("small", 2, start=1.0))
    results = MultiSearch([big, small]).search("q", k=5)
    assert [p.source_id for p in results] == ["big:0", "small:0", "big:1", "small:1", "big:2"]
    scores = [p.score for p in results]
    assert scores == sorted(scores, reverse=True)


def test_multisearch_dedupes_identical_passages() -> None:
    shared = _passages("a", 1)[0]
    copy = shared.model_copy(update={"corpus": "b", "text": "  A passage 0 "})
    results = MultiSearch([FakeBackend("a", [shared]), FakeBackend("b", [copy])]).search("q")
    assert len(results) == 1
    assert results[0].corpus == "a"


def test_multisearch_survives_one_failure_but_not_all() -> None:
    ok = FakeBackend("ok", _passages("ok", 3))
    down = FakeBackend("down", fail=True)
    multi = MultiSearch([down, ok])
    assert len(multi.search("q", k=3)) == 3
    assert multi.failures == [("down", "down is down")]
    with pytest.raises(SourceError, match="every search backend failed"):
        MultiSearch([down, FakeBackend("also", fail=True)]).search("q")
    assert MultiSearch([]).search("q") == []
    multi.close()
    assert ok.closed and down.closed


# --------------------------------------------------------------------------- text helpers


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        (
            "en",
            "Dr. Smith moved to the U.S. in 2020. Output rose 2.5 percent! J. R. R. Tolkien wrote "
            "it, e.g. The Hobbit. Was it good? Yes.",
            [
                "Dr. Smith moved to the U.S. in 2020.",
                "Output rose 2.5 percent!",
                "J. R. R. Tolkien wrote it, e.g. The Hobbit.",
                "Was it good?",
                "Yes.",
            ],
        ),
        (
            "es",
            "El Sr. García llegó a EE. UU. en 1990. ¿Qué pasó? ¡Nada! "
            "Nació en el 44 a. C. y murió.",
            [
                "El Sr. García llegó a EE. UU. en 1990.",
                "¿Qué pasó?",
                "¡Nada!",
                "Nació en el 44 a. C. y murió.",
            ],
        ),
        (
            "fr",
            "M. Dupont est né en 50 av. J.-C. Il est mort. Mme Curie a reçu 2 prix. Quoi ? Non !",
            [
                "M. Dupont est né en 50 av. J.-C.",
                "Il est mort.",
                "Mme Curie a reçu 2 prix.",
                "Quoi ?",
                "Non !",
            ],
        ),
        ("en", "风力发电是一种能源。它很好！", ["风力发电是一种能源。", "它很好！"]),
        # an opus number: a reader found Beethoven's "Op." ending one sentence and "67, is a symphony" opening one
        ("en", "The Symphony No. 5 in C minor, Op. 67, is a symphony by Beethoven. It was written in 1808.",
         ["The Symphony No. 5 in C minor, Op. 67, is a symphony by Beethoven.", "It was written in 1808."]),
        # a unit after a number ends a sentence; an initial does not
        ("en", "It weighs between 140 and 500 g. Thought to have come from Asia, it spread. J. R. R. Tolkien wrote.",
         ["It weighs between 140 and 500 g.", "Thought to have come from Asia, it spread.", "J. R. R. Tolkien wrote."]),
        # "Sun." and "Leo I." end sentences (a reader found "… from the Sun. A leaf …" and "… Pope Leo I. In 454,
        # Aetius …" quoted as one); a month before a number, and initials inside names, do not
        ("en", "It absorbs light from the Sun. A leaf is green. He met Pope Leo I. In 454, Aetius was killed. John F. "
               "Kennedy and Robert M. La Follette ran on Oct. 12, 1960.",
         ["It absorbs light from the Sun.", "A leaf is green.", "He met Pope Leo I.", "In 454, Aetius was killed.",
          "John F. Kennedy and Robert M. La Follette ran on Oct. 12, 1960."]),
        ("en", "It retells E. T. A. Hoffmann's story, as A. A. Milne did.",
         ["It retells E. T. A. Hoffmann's story, as A. A. Milne did."]),
        ("es", "Reinó Felipe V. El rey murió en 1746.", ["Reinó Felipe V.", "El rey murió en 1746."]),
        ("fr", "Pline est né en 23 apr. J.-C. à Côme. Il mourut en 79.", ["Pline est né en 23 apr. J.-C. à Côme.",
                                                                      "Il mourut en 79."]),
        (
            "en",
            "A heading\nThis line wraps\nonto the next. Done.\n\nNew paragraph",
            ["A heading", "This line wraps onto the next.", "Done.", "New paragraph"],
        ),
    ],
)
def test_split_sentences(lang: str, text: str, expected: list[str]) -> None:
    assert split_sentences(text, lang) == expected


def test_tokenize_and_stopwords() -> None:
    assert tokenize("L'Énergie RENOUVELABLE, 2.5 GW_x") == [
        "l", "energie", "renouvelable", "2", "5", "gw", "x",
    ]  # fmt: skip
    assert tokenize("风力abc发电") == ["风", "力", "abc", "发", "电"]
    assert tokenize("😀 -- !!") == []
    assert "the" in stopwords("en") and "energy" not in stopwords("en")
    assert "energia" not in stopwords("es") and "mas" in stopwords("es")
    assert "ete" in stopwords("fr")  # accent-folded like tokens
    assert stopwords("") >= stopwords("en") | stopwords("fr")


def test_chunk_text() -> None:
    text = " ".join(f"Sentence number {i} is here." for i in range(500))
    chunks = chunk_text(text, 200)
    assert all(len(chunk) <= 200 for chunk in chunks)
    assert " ".join(chunks) == text
    assert all(chunk.endswith(".") for chunk in chunks)
    assert [len(c) for c in chunk_text("y" * 450, 200)] == [200, 200, 50]
    assert chunk_text("  \n ") == []


# --------------------------------------------------------------------------- public surface


def test_all_is_sorted_and_complete() -> None:
    assert sources.__all__ == sorted(sources.__all__)
    assert len(set(sources.__all__)) == len(sources.__all__)
    for name in sources.__all__:
        assert hasattr(sources, name), name
    submodules = ("index", "local", "models", "text", "wiki")
    for module in submodules:
        for name in getattr(sources, module).__all__:
            assert name in sources.__all__, f"{module}.{name} is not re-exported"


def test_index_files_are_sqlite_and_closed(tmp_path: Path) -> None:
    with CorpusIndex.open_or_build("tiny", "5" * 40, Counter(SMALL), directory=tmp_path) as index:
        path = index.path
    con = sqlite3.connect(path)
    try:
        tables = {row[0] for row in con.execute("SELECT name FROM sqlite_master")}
    finally:
        con.close()
    assert {"meta", "documents", "passages", "passages_cjk", "cjk_rows"} <= tables
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]


def test_folders_with_the_same_name_keep_their_own_index(tmp_path: Path) -> None:
    for side in ("a", "b"):
        (tmp_path / side / "notes").mkdir(parents=True)
        (tmp_path / side / "notes" / "x.txt").write_text(f"Side {side} text.")
    for _ in range(2):
        built = []
        for side in ("a", "b"):
            backend, _ = open_local_backend(tmp_path / side / "notes")
            with backend.index as index:
                built.append(index.built)
                assert backend.search("side", k=1)[0].text == f"Side {side} text."
    assert built == [False, False]


def test_killed_build_leaves_no_index(tmp_path: Path) -> None:
    script = f"""
import sys, time
from pathlib import Path
from reportgen.sources import CorpusIndex, Document

def docs():
    for i in range(10**6):
        yield Document(
            source_id=f"k:{{i}}", title="t", url="u", text="Some words here.", corpus="k"
        )
        if i == 100:
            print("building", flush=True)
            time.sleep(60)

CorpusIndex.open_or_build("killed", "6" * 40, docs, directory=Path({str(tmp_path)!r}))
"""
    process = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "building"
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
    assert not (tmp_path / "killed-666666666666.sqlite").exists()
    with CorpusIndex.open_or_build("killed", "6" * 40, Counter(SMALL), directory=tmp_path) as index:
        assert index.built and len(index) == 3


def test_local_backend_with_undecodable_names(tmp_path: Path) -> None:
    with open(os.fsencode(tmp_path) + b"/caf\xe9.txt", "wb") as handle:
        handle.write(b"Coffee notes.")
    with open(os.fsencode(tmp_path) + b"/empty\xff.md", "wb"):
        pass
    backend, skipped = open_local_backend(tmp_path)
    with backend.index:
        assert backend.search("coffee", k=1)[0].title == "caf"
    assert len(skipped) == 1 and skipped[0].reason == "empty"
    again, skipped_again = open_local_backend(tmp_path)
    again.close()
    assert skipped_again == skipped
