"""Offline corpora (the encyclopedia, the user's folders) and their search index.

The one entry point the pipeline needs is :func:`open_backends`: it opens (and
on first use builds) the cached index of every corpus a run asked for and
returns the search backends with the files a local load skipped::

    with open_backends(options) as sources:
        passages = MultiSearch(sources.backends).search("renewable energy", k=10)
        limitations = [f"{s.path.name}: {s.reason}" for s in sources.skipped]
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING as _TYPE_CHECKING

from reportgen._lazy import lazy_exports as _lazy_exports
from reportgen.config import RunOptions
from reportgen.sources.index import (
    MAX_QUERY_TERMS,
    PASSAGE_CHARS,
    SCHEMA_VERSION,
    CorpusIndex,
    MultiSearch,
    OfflineSearch,
    match_expression,
    topic_space,
)
from reportgen.sources.local import (
    LOCAL_PREFIX,
    MAX_FILE_BYTES,
    SUPPORTED_SUFFIXES,
    LocalLoad,
    SkippedFile,
    folder_fingerprint,
    html_to_text,
    is_inside,
    is_local,
    load_local_documents,
    markdown_sections,
    markdown_to_text,
    walk_corpus,
)
from reportgen.sources.models import Closing, Document, Passage, SearchBackend
from reportgen.sources.text import (
    CJK_RE,
    american,
    bare_title,
    chunk_text,
    clean_text,
    fold,
    has_cjk,
    plural,
    singular,
    split_sentences,
    stopwords,
    tokenize,
)
from reportgen.sources.wiki import (
    WIKI_DISTRIBUTION,
    WIKI_LICENSE,
    load_wiki_documents,
    wiki_corpus,
    wiki_fingerprint,
    wiki_url,
    wiki_version,
)

if _TYPE_CHECKING:
    from reportgen.sources.fetch import (
        MAX_PDF_BYTES,
        USER_AGENT,
        FetchedPage,
        PageFetcher,
        extract_main_text,
        is_public_address,
        normalize_url,
        parse_retry_after,
    )
    from reportgen.sources.web import (
        AutoSearch,
        SearchFn,
        SearchResult,
        WebCache,
        WebSearch,
        ddgs_search,
        open_search,
        web_source_id,
    )

__all__ = [
    "AutoSearch",
    "CJK_RE",
    "Closing",
    "CorpusIndex",
    "Document",
    "FetchedPage",
    "LOCAL_PREFIX",
    "LocalLoad",
    "MAX_FILE_BYTES",
    "MAX_PDF_BYTES",
    "MAX_QUERY_TERMS",
    "MultiSearch",
    "OfflineSearch",
    "PASSAGE_CHARS",
    "PageFetcher",
    "Passage",
    "SCHEMA_VERSION",
    "SUPPORTED_SUFFIXES",
    "SearchBackend",
    "SearchFn",
    "SearchResult",
    "SkippedFile",
    "Sources",
    "USER_AGENT",
    "WIKI_DISTRIBUTION",
    "WIKI_LICENSE",
    "WebCache",
    "WebSearch",
    "american",
    "bare_title",
    "chunk_text",
    "clean_text",
    "ddgs_search",
    "extract_main_text",
    "fold",
    "folder_fingerprint",
    "has_cjk",
    "html_to_text",
    "is_inside",
    "is_local",
    "is_public_address",
    "load_local_documents",
    "load_wiki_documents",
    "markdown_sections",
    "markdown_to_text",
    "match_expression",
    "normalize_url",
    "open_backends",
    "open_local_backend",
    "open_search",
    "open_wiki_backend",
    "parse_retry_after",
    "plural",
    "singular",
    "split_sentences",
    "stopwords",
    "tokenize",
    "topic_space",
    "walk_corpus",
    "web_source_id",
    "wiki_corpus",
    "wiki_fingerprint",
    "wiki_url",
    "wiki_version",
]

#: Imported on first use: page fetching and web search load httpx and lxml's
#: HTML parser, which an offline run never needs (issue 15: start-up).
_LAZY: dict[str, str] = {
    "MAX_PDF_BYTES": "reportgen.sources.fetch",
    "USER_AGENT": "reportgen.sources.fetch",
    "FetchedPage": "reportgen.sources.fetch",
    "PageFetcher": "reportgen.sources.fetch",
    "extract_main_text": "reportgen.sources.fetch",
    "is_public_address": "reportgen.sources.fetch",
    "normalize_url": "reportgen.sources.fetch",
    "parse_retry_after": "reportgen.sources.fetch",
    "AutoSearch": "reportgen.sources.web",
    "SearchFn": "reportgen.sources.web",
    "SearchResult": "reportgen.sources.web",
    "WebCache": "reportgen.sources.web",
    "WebSearch": "reportgen.sources.web",
    "ddgs_search": "reportgen.sources.web",
    "open_search": "reportgen.sources.web",
    "web_source_id": "reportgen.sources.web",
}

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)

logger = logging.getLogger(__name__)


class Sources(Closing):
    """The search backends of one run and what loading them left out.

    Closes every backend on :meth:`close` or when leaving a ``with`` block.

    Attributes:
        backends: One backend per corpus: the user's folders first (in the
            order given), then the encyclopedia.
        skipped: Files of the user's folders that were not loaded, with
            reasons, for the report's limitations note.
    """

    def __init__(self, backends: Sequence[OfflineSearch], skipped: Sequence[SkippedFile]) -> None:
        self.backends: list[OfflineSearch] = list(backends)
        self.skipped: list[SkippedFile] = list(skipped)

    def close(self) -> None:
        """Close every backend (idempotent)."""
        for backend in self.backends:
            backend.close()



def open_wiki_backend(lang: str, *, directory: Path | None = None) -> OfflineSearch:
    """Open the encyclopedia backend of one language, building its index on first use.

    Args:
        lang: ``"en"``, ``"es"`` or ``"fr"``.
        directory: Index folder; default ``get_settings().index_dir``.

    Returns:
        A backend named ``"wikipedia-<lang>"``.

    Raises:
        reportgen.errors.InputError: The language is not shipped.
        reportgen.errors.SourceError: The data package is missing or the
            index cannot be built.
    """
    name = wiki_corpus(lang)
    index = CorpusIndex.open_or_build(
        name, wiki_fingerprint(lang), lambda: load_wiki_documents(lang), directory=directory
    )
    return OfflineSearch(index, name, lang=lang)


def open_local_backend(
    folder: Path, *, lang: str = "", directory: Path | None = None
) -> tuple[OfflineSearch, list[SkippedFile]]:
    """Open the backend of one user folder, (re)building its index when the folder changed.

    The index is reused while every supported file keeps its relative path,
    size and modification time (see :func:`folder_fingerprint`); the skipped
    files of the build are stored in the index and returned from the cache too.

    Args:
        folder: The corpus folder.
        lang: Stopword language of queries (the run's language).
        directory: Index folder; default ``get_settings().index_dir``.

    Returns:
        The backend (named ``"local:<folder name>"``) and the skipped files.

    Raises:
        reportgen.errors.InputError: The folder is missing, not a folder, or
            holds no usable file.
        reportgen.errors.SourceError: The index cannot be built or read.
    """
    folder = Path(folder)
    fingerprint = folder_fingerprint(folder)
    loaded: list[LocalLoad] = []

    def documents() -> list[Document]:
        loaded.append(load_local_documents(folder))
        return loaded[-1].documents

    def notes() -> dict[str, str]:
        skipped = [item.model_dump(mode="json") for item in loaded[-1].skipped] if loaded else []
        return {"skipped": json.dumps(skipped)}

    root = folder.resolve()
    # The folder's path is in the name so two folders called "notes" keep two indexes.
    where = hashlib.sha1(root.as_posix().encode("utf-8", "surrogatepass")).hexdigest()[:8]
    name = f"local-{root.name}-{where}"
    index = CorpusIndex.open_or_build(
        name, fingerprint, documents, notes=notes, directory=directory
    )
    try:
        raw = json.loads(index.note("skipped") or "[]")
        skipped = [SkippedFile.model_validate(item) for item in raw]
    except ValueError:
        skipped = []
    return OfflineSearch(index, f"local:{root.name}", lang=lang), skipped


def open_backends(options: RunOptions, *, directory: Path | None = None) -> Sources:
    """Open the offline search backends a run asked for.

    One backend per ``options.corpus_dirs`` folder, then the encyclopedia in
    ``options.lang`` when ``options.use_wiki``. Indexes are built on first use
    (the English encyclopedia takes a few seconds) and cached in
    ``get_settings().index_dir``. Asking for no corpus gives no backend.

    Args:
        options: The run's options.
        directory: Index folder; default ``get_settings().index_dir``.

    Returns:
        The backends and the skipped local files; close it when done.

    Raises:
        reportgen.errors.InputError: A corpus folder is missing, not a folder
            or holds no usable file.
        reportgen.errors.SourceError: A corpus or its index cannot be read.
    """
    backends: list[OfflineSearch] = []
    skipped: list[SkippedFile] = []
    try:
        for folder in options.corpus_dirs:
            backend, left_out = open_local_backend(folder, lang=options.lang, directory=directory)
            backends.append(backend)
            skipped.extend(left_out)
        if options.use_wiki:
            backends.append(open_wiki_backend(options.lang, directory=directory))
    except BaseException:
        for backend in backends:
            backend.close()
        raise
    if skipped:
        logger.info("%d corpus file(s) skipped", len(skipped))
    return Sources(backends, skipped)
