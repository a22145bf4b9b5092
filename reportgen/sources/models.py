"""Documents and passages: what search backends return to the browser agent."""

from __future__ import annotations

from typing import Protocol, Self, runtime_checkable

from pydantic import BaseModel

__all__ = ["Closing", "Document", "Passage", "SearchBackend"]


class Closing:
    """``with`` support for anything that has a ``close()`` (indexes, fetchers, backends)."""

    def close(self) -> None:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class Document(BaseModel):
    """One source document as read from a corpus.

    Attributes:
        source_id: Stable id, unique across corpora (``"wiki-en:Wind power"``,
            ``"local:<sha1 of path>"``).
        title: Human title.
        url: Citable location: a Wikipedia ``https://`` URL, or the ``file://``
            URI of a local document.
        text: Plain text (valid Unicode, no control characters except newline).
        corpus: Corpus name (``"wikipedia-en"``, ``"local"``).
        lang: Language tag when known (``"en"``), else ``""``.
    """

    source_id: str
    title: str
    url: str
    text: str
    corpus: str
    lang: str = ""


class Passage(BaseModel):
    """A ranked chunk of a document returned by a search.

    Attributes:
        source_id: Id of the document it belongs to.
        title: The document's title.
        url: The document's citable URL.
        text: Plain text of the chunk.
        corpus: The corpus it came from.
        score: Relevance, higher is better (comparable only within one search).
    """

    source_id: str
    title: str
    url: str
    text: str
    corpus: str
    score: float = 0.0


@runtime_checkable
class SearchBackend(Protocol):
    """The one search interface every backend (offline corpora, later the web) implements."""

    name: str

    def search(self, query: str, k: int = 10) -> list[Passage]:
        """Return up to ``k`` passages answering ``query``, best first.

        Args:
            query: Free text in any script.
            k: Maximum number of passages (>= 1).

        Returns:
            Passages ordered by decreasing score; empty when nothing matches.

        Raises:
            reportgen.errors.SourceError: The backend cannot be read.
        """
        ...
