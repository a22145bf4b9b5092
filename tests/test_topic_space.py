"""The corpus's topic space (LSA): one sense of an ambiguous word, sections that combine sources.

The corpora are made here: two vocabularies (prices and money; the early
universe) of 120 documents each, some of each naming "inflation", so the
word alone cannot tell the senses apart and only the words around it can.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial
from typing import Any

import pytest

from reportgen.blueprint import planner
from reportgen.blueprint.planner import companion_themes, gather_themes, resolve_subject
from reportgen.blueprint.relevance import MIN_SPACE_DOCUMENTS, SEMANTIC_THRESHOLD, Relatedness, TopicSpace
from reportgen.blueprint.request import read_request
from reportgen.config import RunOptions
from reportgen.errors import NoSourcesError, SourceError
from reportgen.sources.models import Passage

from fakes import FakeSearch

ECONOMY = ("prices goods services money wages banks interest rates central bank purchasing power economy "
           "consumers markets demand supply trade taxes budget").split()
COSMOS = ("universe expansion galaxies cosmic radiation space early epoch density cooled particles gravity "
          "stars light telescope matter energy field").split()


def _corpus(seed: int = 7) -> list[dict[str, str]]:
    rng = random.Random(seed)
    docs = []
    for sense, words in (("Economy", ECONOMY), ("Cosmos", COSMOS)):
        for i in range(120):
            body = " ".join(rng.choice(words) for _ in range(40))
            if i % 3 == 0:
                body += " inflation"
            docs.append({"title": f"{sense} {i}", "text": f"{body}."})
    docs.append({"title": "Inflation", "text": "Inflation is a rise of prices: money buys fewer goods and services; "
                 "central banks raise interest rates and wages lag behind prices in the economy."})
    return docs


def _filler(rng: random.Random, senses: dict[str, list[str]], count: int, length: int) -> list[dict[str, str]]:
    """``count`` documents per sense, each ``length`` of its words drawn by ``rng`` and titled "<sense> <i>": the
    clusters that give a test's topic space its senses."""
    return [{"title": f"{sense} {i}", "text": " ".join(rng.choice(words) for _ in range(length)) + "."}
            for sense, words in senses.items() for i in range(count)]


class SpaceSearch(FakeSearch):
    """The fake search with the topic space of its own documents (as an indexed corpus has)."""

    def __init__(self, docs: list[dict[str, str]]) -> None:
        super().__init__(docs)
        self._space = TopicSpace.build([f"{d['title']} {d['text']}" for d in docs], "en",
                                       titles=[d["title"] for d in docs])

    def space(self) -> TopicSpace | None:
        return self._space


class _FirstFound(SpaceSearch):
    """:class:`SpaceSearch` returning the documents titled ``first`` before the others found, as a full-text search
    may rank them."""

    def __init__(self, docs: list[dict[str, str]], first: tuple[str, ...]) -> None:
        super().__init__(docs)
        self._first = first

    def search(self, query: str, k: int = 10):
        return sorted(super().search(query, k), key=lambda p: p.title not in self._first)


@pytest.fixture(scope="module")
def corpus() -> list[dict[str, str]]:
    return _corpus()


@pytest.fixture(scope="module")
def search(corpus) -> SpaceSearch:
    return SpaceSearch(corpus)


def test_a_small_corpus_has_no_space():
    assert TopicSpace.build(["a b c"] * (MIN_SPACE_DOCUMENTS - 1), "en") is None
    assert TopicSpace.build([""] * MIN_SPACE_DOCUMENTS, "en") is None  # no term at all


def test_the_space_tells_the_senses_apart(search, corpus):
    space = search.space()
    assert space is not None
    core = [corpus[-1]["text"]]
    scorer = Relatedness(core, [], "en", subject="inflation", space=space)
    economy = [d["text"] for d in corpus if d["title"].startswith("Economy") and "inflation" in d["text"]]
    cosmos = [d["text"] for d in corpus if d["title"].startswith("Cosmos") and "inflation" in d["text"]]
    assert min(scorer.scores(economy)) >= SEMANTIC_THRESHOLD
    assert max(scorer.scores(cosmos)) < SEMANTIC_THRESHOLD
    assert scorer.threshold == SEMANTIC_THRESHOLD


def test_themes_keep_the_sense_of_the_subjects_own_article(search):
    themes, core, companions = gather_themes(read_request("Inflation"), search, 5, "en")
    assert [p.title for p in core] == ["Inflation"]
    assert len(themes) == 5
    assert all(t.startswith("Economy") for t in themes)  # every section names inflation in its own sense
    joined = [t for group in companions.values() for t in group]
    assert joined and all(t.startswith("Economy") for t in joined)
    assert not set(joined) & set(themes)


def test_a_theme_may_name_the_subject_by_a_derived_word(corpus):
    """ "inflationary" names inflation (its first seven letters, ``ranking.mentions``); in the other sense
    it is still left out, by relatedness."""
    # both are found by the aspect's words (the fake search matches whole terms, the index stems)
    themes = _themes_with(corpus, {
        "Wage-price spiral": "An inflationary wage-price spiral: wages rise, prices rise, money buys fewer goods, "
                             "central banks raise interest rates, consumers and markets and demand.",
        "Early epoch": "The inflationary epoch: the universe expansion, spiral galaxies, cosmic radiation, density, "
                       "particles, gravity, stars, light, matter, energy field.",
    }, "Inflation and its spiral", 60)
    assert "Wage-price spiral" in themes
    assert "Early epoch" not in themes


def test_a_questions_aspect_article_that_speaks_of_the_subject_answers_it(corpus):
    """ "Why is the sky blue?": the article "Blue" says why, though the space puts colours far from the sky."""
    docs = [*corpus, {"title": "Spiral", "text": "A spiral is a curve seen in galaxies, cosmic radiation, "
                      "stars, light and matter; the universe expansion after inflation made spiral galaxies."}]
    themes, _, _ = gather_themes(read_request("Why does inflation spiral?"), SpaceSearch(docs), 5, "en")
    assert themes[0] == "Spiral"
    themes, _, _ = gather_themes(read_request("Inflation"), SpaceSearch(docs), 60, "en")
    assert "Spiral" not in themes  # not asked about: of the other sense, under the threshold


def test_the_space_is_saved_and_read_back(tmp_path, search, corpus):
    space = search.space()
    path = tmp_path / "corpus.space.joblib"
    space.save(path)
    again = TopicSpace.load(path)
    assert again is not None and again.titles == space.titles
    text = corpus[3]["text"]
    assert (again.vectors([text]) == space.vectors([text])).all()
    path.write_bytes(b"not a joblib file")  # a damaged cache is rebuilt, never fatal
    assert TopicSpace.load(path) is None


def test_companions_join_the_nearest_section_and_need_document_vectors(search):
    space = search.space()
    chosen = [Passage(source_id="e0", title="Economy 0", url="https://example.org/e0", text="x", corpus="c"),
              Passage(source_id="c0", title="Cosmos 0", url="https://example.org/c0", text="x", corpus="c")]
    groups = companion_themes(chosen, ["Economy 3", "Cosmos 3", "Nowhere"], space)
    assert groups == {"Economy 0": ["Economy 3"], "Cosmos 0": ["Cosmos 3"]}
    assert companion_themes(chosen, ["Economy 3"], None) == {}
    # the periods of a history: a document joins only a section whose title it writes, however near another is
    named = companion_themes(chosen, ["Economy 3", "Cosmos 3"], space,
                             naming={"Economy 3": "Prices rose in Economy 0.", "Cosmos 3": "Stars, as in Economy 0."})
    assert named == {"Economy 0": ["Economy 3"]}


def test_a_document_named_with_a_sections_word_but_on_another_thing_is_no_companion_of_it():
    """*Tiger shark* had been read in a section on the tiger (a report on cats): headed by another noun, it
    joins no section on the tiger, however near; *Snow leopard*, a leopard, joins *Leopard*."""
    from types import SimpleNamespace

    import numpy as np

    def doc(title: str, text: str) -> Passage:
        return Passage(source_id=title, title=title, url="https://example.org/x", text=text, corpus="c")

    space = SimpleNamespace(titles=["Tiger", "Leopard", "Tiger shark", "Snow leopard"],
                            documents=np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.1], [0.1, 1.0]]))
    chosen = [doc("Tiger", "The tiger is a large cat."), doc("Leopard", "The leopard is a cat.")]
    groups = companion_themes(chosen, ["Tiger shark", "Snow leopard"], space)  # type: ignore[arg-type]
    assert groups == {"Leopard": ["Snow leopard"]}


def test_of_two_subjects_a_document_on_one_joins_no_section_on_the_other_alone():
    """ "Bats and birds": *Loons*, *Hoatzin* and *Eagle* had stood under *Vampire bat*, *Flamingo* and *Goose* under
    *Megabat*, the nearest sections in the topic space. A document on one subject joins no section on the other
    alone; a section on both takes either (``written``, what each document is on)."""
    from types import SimpleNamespace

    import numpy as np

    def doc(title: str) -> Passage:
        return Passage(source_id=title, title=title, url="https://example.org/x", text="x", corpus="c")

    space = SimpleNamespace(titles=["Vampire bat", "Bird", "Loon", "Fruit bat"],
                            documents=np.array([[1.0, 0.0], [0.0, 1.0], [0.9, 0.4], [0.95, 0.1]]))
    chosen = [doc("Vampire bat"), doc("Bird")]
    assert companion_themes(chosen, ["Loon", "Fruit bat"], space) == {  # type: ignore[arg-type]
        "Vampire bat": ["Loon", "Fruit bat"]}
    written = {"Vampire bat": {"bats"}, "Bird": {"birds"}, "Loon": {"birds"}, "Fruit bat": {"bats"}}
    groups = companion_themes(chosen, ["Loon", "Fruit bat"], space, written=written)  # type: ignore[arg-type]
    assert groups == {"Vampire bat": ["Fruit bat"], "Bird": ["Loon"]}
    written["Vampire bat"] = {"bats", "birds"}  # a section on both takes either
    groups = companion_themes(chosen, ["Loon", "Fruit bat"], space, written=written)  # type: ignore[arg-type]
    assert groups == {"Vampire bat": ["Loon", "Fruit bat"]}


def test_a_document_nearer_the_whole_subject_than_to_any_section_is_no_companion():
    """*Theodor Herzl*, who names the Ottoman Empire once, had been read under *Ottoman wars in Europe*: nearer
    the subject's own article than any section's by GENERAL_MARGIN, it is on no section's aspect; *Osman I*,
    near both, joins the wars."""
    from types import SimpleNamespace

    import numpy as np

    def doc(title: str) -> Passage:
        return Passage(source_id=title, title=title, url="https://example.org/x", text="x", corpus="c")

    def unit(*xs: float) -> list[float]:
        return list(np.array(xs) / np.linalg.norm(xs))

    space = SimpleNamespace(titles=["Empire", "Wars", "Herzl", "Osman"],
                            documents=np.array([unit(1, 0, 0), unit(0, 1, 0), unit(1.4, 0.9, 1), unit(0.8, 1, 0.2)]))
    groups = companion_themes([doc("Wars")], ["Herzl", "Osman"], space)  # type: ignore[arg-type]
    assert groups == {"Wars": ["Herzl", "Osman"]}  # without the subject's own article, both join
    groups = companion_themes([doc("Wars")], ["Herzl", "Osman"], space, general="Empire")  # type: ignore[arg-type]
    assert groups == {"Wars": ["Osman"]}


def test_the_overview_research_keeps_to_the_cores_sense(search, corpus, tmp_path):
    from reportgen.acp import MessageLog
    from reportgen.agents.browser import BrowserBrain, keep_to_sense
    from reportgen.agents.runtime import RunContext

    ctx = RunContext(topic="Inflation", lang="en", search=search, log=MessageLog(tmp_path / "messages.jsonl"))
    found = [Passage(source_id=d["title"], title=d["title"], url="u", corpus="c", text=d["text"])
             for d in corpus if "inflation" in d["text"].lower()]
    kept = keep_to_sense(found, ["Inflation"], ctx)
    titles = [p.title for p in kept]
    assert "Inflation" in titles
    assert not [t for t in titles if t.startswith("Cosmos")]  # the early universe is another sense
    assert len([t for t in titles if t.startswith("Economy")]) >= 30  # the prices one stays
    assert keep_to_sense(found, ["Not found"], ctx) == found  # no core passage: nothing to judge by
    params = BrowserBrain.__new__(BrowserBrain).build_request(
        None, {"query": "inflation", "sense": ["Inflation", " "]}, "first", ctx)  # type: ignore[arg-type]
    assert params["sense"] == ["Inflation"]


def test_a_candidate_nearer_the_words_other_sense_is_of_that_sense(search, corpus):
    from reportgen.blueprint.relevance import of_other_sense

    core = [corpus[-1]["text"]]
    scorer = Relatedness(core, [], "en", subject="inflation", space=search.space())
    named = [d for d in corpus if "inflation" in d["text"]]
    cosmos = [d for d in named if d["title"].startswith("Cosmos")]
    economy = [d for d in named if d["title"].startswith("Economy")]
    flags = of_other_sense([f"{d['title']} {d['text']}" for d in named], scorer, "Inflation", "en")
    by_title = dict(zip([d["title"] for d in named], flags, strict=True))
    assert not any(by_title[d["title"]] for d in economy)  # the core's sense stays
    assert sum(by_title[d["title"]] for d in cosmos) >= len(cosmos) // 2  # the universe's is of the other
    lone = of_other_sense([f"{d['title']} {d['text']}" for d in [cosmos[0], *economy]], scorer, "Inflation", "en")
    assert lone == [False] * (1 + len(economy))  # one text under the threshold: no other sense to be near
    plain = Relatedness(core, [], "en", subject="inflation")  # no topic space: no senses to tell apart
    assert of_other_sense([d["text"] for d in named], plain, "Inflation", "en") == [False] * len(named)


def test_the_conclusion_searches_the_subject_again_in_the_cores_sense(search, corpus, tmp_path):
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import _more_on_the_subject

    ctx = RunContext(topic="Inflation", lang="en", search=search, log=MessageLog(tmp_path / "messages.jsonl"))
    have = [p for p in search.search("Inflation", k=5) if p.title == "Inflation"]
    more = _more_on_the_subject(have, ["Inflation"], ctx, "inflation")
    assert more and not {p.title for p in more} & {p.title for p in have}
    assert not [p for p in more if p.title.startswith("Cosmos")]  # the early universe's passages stay out

    class Dead(SpaceSearch):
        def search(self, query, k=10):
            raise SourceError("the search engine is down")

    dead = Dead(corpus)
    dead._space = search.space()
    ctx = RunContext(topic="Inflation", lang="en", search=dead, log=MessageLog(tmp_path / "dead.jsonl"))
    assert _more_on_the_subject(have, ["Inflation"], ctx, "inflation") == []  # adds nothing, loses nothing


def test_the_introduction_and_conclusion_are_told_the_cores_sense():
    """A broadened introduction searched "Pitch" again without it, and opened a report on the field with music."""
    from reportgen.blueprint.planner import compile_blueprint

    blueprint = compile_blueprint("r", "Pitch", ["Cricket"], sense=["Softball", "Association football"])
    for kind in ("research-overview", "introduction", "conclusion"):
        assert blueprint.task(kind).inputs["sense"].value == ["Softball", "Association football"]


def test_a_broadened_conclusion_keeps_to_the_cores_sense(search, tmp_path):
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain

    ctx = RunContext(topic="Inflation", lang="en", search=search, log=MessageLog(tmp_path / "messages.jsonl"))
    notes = [p.model_dump() for p in search.search("Inflation", k=3) if p.title == "Inflation"]
    section = {"id": "s1", "sentences": [{"text": "Prices rise.", "sources": []}], "alternates": []}
    brain = WriterBrain.__new__(WriterBrain)
    params = {"kind": "conclusion", "notes": notes, "title": "", "keywords": [], "section_id": "conclusion",
              "chart": None, "sections": [section], "broaden": True, "subject_notes": [], "companions": [],
              "sense": ["Inflation"], "subject": "inflation"}
    raw = brain.call(params, ctx)
    assert not [p for p in raw["passages"] if p.title.startswith("Cosmos")]  # broadened, still one sense
    assert any(p.title.startswith("Economy") for p in raw["passages"])


FIELD = ("players teams ball grass match goal referee stadium league season kick score tournament bat innings "
         "umpire wicket club fans").split()
SOUND = ("music notes frequency sound instrument melody tone octave scale voice chord orchestra pipes keys "
         "singer harmony vibration ear").split()


def test_a_word_without_an_article_of_its_own_keeps_one_sense_in_its_themes():
    """ "Pitch" has no article: its core is the passages densest in it (the field), and a theme that is far
    nearer the word's other sense (an organ, 0.2 to the field) is of that sense, not a section."""
    rng = random.Random(11)
    docs = []
    for sense, words, times in (("Field", FIELD, 3), ("Sound", SOUND, 1)):
        for i in range(120):
            body = " ".join(rng.choice(words) for _ in range(40))
            docs.append({"title": f"{sense} {i}", "text": body + " pitch" * (times if i % 3 == 0 else 0) + "."})
    organ = " ".join(rng.choice(SOUND) for _ in range(26)) + " " + " ".join(rng.choice(FIELD) for _ in range(14))
    docs.append({"title": "Organ", "text": f"{organ} pitch."})
    search = SpaceSearch(docs)
    request = read_request("Pitch", "en")
    themes, core, _ = gather_themes(request, search, 100, "en")  # room for every candidate
    assert core and all(p.title.startswith("Field") for p in core)
    scorer = Relatedness([p.text for p in core], [], "en", subject="pitch", space=search.space())
    assert scorer.score(f"Organ {docs[-1]['text']}") >= SEMANTIC_THRESHOLD  # related enough by itself ...
    assert "Organ" not in themes  # ... but of the other sense
    assert themes and all(t.startswith("Field") for t in themes)


def test_a_question_takes_the_articles_on_what_the_subjects_texts_say_causes_it(corpus, monkeypatch):
    """ "Why is the sky blue?": *Blue* says "because of … Rayleigh scattering", and *Scattering*, which never
    names the sky, is a theme (``planner.explained``). A one-word cause most texts hold is none
    (``BROAD_WORD_PASSAGES``, lowered to this corpus's size)."""
    docs = [d for d in corpus if d["title"] != "Inflation"] + [
        {"title": "Inflation", "text": "Inflation is a rise of prices: money buys fewer goods. Inflation results "
                                       "from demand and from monetary expansion by central banks."},
        {"title": "Monetary expansion", "text": "Monetary expansion is growth of the money supply when central "
                                                "banks lower interest rates."},
        {"title": "Demand", "text": "Demand is what consumers want to buy at given prices in markets."}]
    monkeypatch.setattr(planner, "BROAD_WORD_PASSAGES", 50)
    themes, _, _ = gather_themes(read_request("What causes inflation?"), SpaceSearch(docs), 5, "en")
    assert themes[0] == "Monetary expansion"
    assert "Demand" not in themes  # "demand" fills most of this corpus: it says what causes nothing
    themes, _, _ = gather_themes(read_request("Inflation"), SpaceSearch(docs), 60, "en")
    assert "Monetary expansion" not in themes  # not asked why: it never names inflation
    # a cause ends before a relative clause: "… results from monetary expansion that creates demand" gives no
    # *Demand* (a reader found *Wave*, of "the lithosphere that creates seismic waves", answering earthquakes)
    docs[-3] = {"title": "Inflation", "text": "Inflation is a rise of prices: money buys fewer goods. Inflation "
                                              "results from monetary expansion that creates spending demand."}
    monkeypatch.setattr(planner, "BROAD_WORD_PASSAGES", 1000)
    themes, _, _ = gather_themes(read_request("What causes inflation?"), SpaceSearch(docs), 5, "en")
    assert themes[0] == "Monetary expansion" and "Demand" not in themes, themes


def test_head_nouns() -> None:
    from reportgen.agents.ranking import head_noun
    assert head_noun("Rhapsody in Blue", "en") == "rhapsody"
    assert head_noun("The Blue Marble", "en") == "marble"
    assert head_noun("World War II", "en") == "war"
    assert head_noun("Civil war", "en") == "war"  # "civil" is no Roman numeral
    assert head_noun("2004 Indian Ocean earthquake", "en") == "earthquake"
    assert head_noun("Guerra civil de Nigeria", "es") == "guerra"
    assert head_noun("of the", "en") == ""


@pytest.mark.parametrize("text, expected", [
    # every mention measures something else by the subject: the text is about that other thing
    ("Ganymede is the largest moon. Like Titan, it is larger than the planet Mercury, but has less surface "
     "gravity than Mercury, Io, or Earth's Moon.", True),
    ("Callisto is nearly as large as the planet Mercury.", True),
    # the sentence's other mentions explain the comparison
    ("Titan is the largest moon of Saturn. It is larger than Mercury, and yet Titan is only 40% as massive as "
     "Mercury, because Mercury is mainly iron and rock, whereas Titan is mostly ice.", True),
    ("Ganymède est plus grand que Mercure.", False),  # another word: the subject is not written
    ("Ganymède est plus grand que la planète Mercury.", True),
    # a mention outside a comparison, "known as", or none at all
    ("Mercury is the smallest planet. It is smaller than Ganymede.", False),
    ("Venus is closer than Mercury to Earth at times. Mercury orbits fastest.", False),
    ("The innermost planet, known as Mercury, has no moon.", False),
    ("When prices rise faster than wages, Mercury lowers them.", False),  # the comparison ends at the comma
    ("Jupiter is the largest planet.", False),
    # a likening is a comparison: the tiger shark's stripes, a mackerel's "tiger-like" ones
    ("Its dark stripes resemble the Mercury pattern.", True),
    ("Mackerel have vertical \"Mercury-like\" stripes on their backs.", True),
    ("Mercury-like rocks cover Io. Mercury is a planet.", False),  # then written as itself
    # a size given by a thing of that size: "The size of a small dog, the Tasmanian devil …" under "Dogs"
    ("The size of a small Mercury, the moon became the largest of its kind.", True),
    ("Cette lune est de la taille d'une Mercury.", True),
    ("The size of the Mercury orbit grew.", False),  # the size of the subject itself
])
def test_a_subject_written_only_in_comparisons(text, expected):
    from reportgen.agents.ranking import compared_only

    assert compared_only(text, "Mercury") is expected


def test_a_candidate_that_only_measures_something_by_the_subject_is_no_theme():
    from reportgen.blueprint.planner import _compared

    request = read_request("Mercury", "en")
    assert _compared("Titan is larger than the planet Mercury and has a dense atmosphere.", request)
    assert not _compared("Mercury is the closest planet to the Sun; Titan is larger than it.", request)
    both = read_request("Malaria and tuberculosis", "en")  # every subject it writes must be compared only
    assert not _compared("Tuberculosis kills more people than malaria.", both)
    assert _compared("Measles spreads faster than malaria.", both)


def test_a_candidate_named_with_the_subjects_word_that_only_likens_something_to_it_is_no_theme():
    """"Tiger" had one section, *Tiger shark*: "The tiger shark is a species of ground shark … Its name
    derives from the dark stripes down its body, which resemble a tiger's pattern". Its own name is another
    thing's (``unnamed``), and the rest only likens to the tiger (``compared_only``)."""
    rng = random.Random(29)
    shark = " ".join(rng.choice(ECONOMY) for _ in range(30))
    docs = [*_corpus(), {"title": "Inflation shark", "text": f"The inflation shark is a species of {shark}. Its "
                                                             "stripes resemble an inflation chart."}]
    request = read_request("Inflation", "en")
    assert "Inflation shark" not in gather_themes(request, SpaceSearch(docs), 100, "en")[0]
    docs[-1] = {"title": "Inflation shark", "text": f"The inflation shark is a species of {shark}. Inflation "
                                                    "drove its price."}
    assert "Inflation shark" in gather_themes(request, SpaceSearch(docs), 100, "en")[0]  # written as itself


def test_with_two_subjects_a_name_after_one_of_them_is_blanked_too():
    """ "Lions vs tigers" had a *Tiger shark* section: its name is named with the tiger's word, though not with
    "lions and tigers", so it was not blanked and its likeness of stripes read as a mention."""
    text = ("Tiger shark The tiger shark is a species of ground shark. Its name derives from the dark stripes down "
            "its body, which resemble a tiger's pattern.")
    request = read_request("Lions vs tigers", "en")
    blanked = planner.unnamed_each(text, "Tiger shark", request, "en")
    assert "tiger shark" not in blanked.casefold() and "tiger's pattern" in blanked
    assert planner._compared(blanked, request)  # what is left only likens to the tiger
    assert not planner._compared(planner.unnamed_each("Tiger Tigers hunt deer.", "Tiger", request, "en"), request)


def test_the_kinds_of_a_subject_come_before_its_relatives():
    """"Sharks" had Batomorphi, Acanthodii, Sturgeon and Chimaera before Hammerhead shark and Whale shark."""
    from reportgen.blueprint.planner import a_kind_of

    sharks = read_request("Sharks", "en")
    assert a_kind_of("Whale shark", sharks, "en") and a_kind_of("Great white shark", sharks, "en")
    assert not a_kind_of("Shark", sharks, "en") and not a_kind_of("Sturgeon", sharks, "en")
    assert not a_kind_of("Tiger shark", read_request("Tiger", "en"), "en")  # a shark, not a tiger
    solar = read_request("Solar power", "en")
    assert a_kind_of("Space-based solar power", solar, "en") and not a_kind_of("Wind power", solar, "en")
    assert not a_kind_of("Whale shark", read_request("Sharks and rays", "en"), "en")  # one subject only
    rng = random.Random(31)
    docs = _corpus()
    relatives = [{"title": f"Relative {i}", "text": " ".join(rng.choice(ECONOMY) for _ in range(30))
                  + " and inflation, inflation."} for i in range(6)]
    kind = {"title": "Wage inflation", "text": "Wage inflation is inflation of wages. " + " ".join(
        rng.choice(ECONOMY) for _ in range(12)) + "."}
    themes = gather_themes(read_request("Inflation", "en"), SpaceSearch([*docs, *relatives, kind]), 3, "en")[0]
    assert themes[0] == "Wage inflation"


def test_an_unwritten_subject_qualified_by_a_common_word_is_the_article_of_what_it_qualifies():
    """"How does the human immune system work?" was "found no sources": no passage writes "human immune
    system", and the Immune system article never says "human". "Human" is a common word; "electric" in
    "electric vehicle" is not, and that request still gets the closest subjects."""
    docs = _corpus()
    for d in docs[:60]:  # "global" in a quarter of the documents: common (under COMMON_RARITY)
        d["text"] += " Global markets."
    docs.append({"title": "Price index", "text": "A price index measures prices of goods over time."})
    docs.append({"title": "Index", "text": "An index lists things in order."})
    docs.append({"title": "Quarterly report", "text": "A quarterly report comes every three months."})
    search = SpaceSearch(docs)
    assert search.space().rarity("global") < planner.COMMON_RARITY <= search.space().rarity("quarterly")
    _, core, _ = gather_themes(read_request("Global price index", "en"), search, 6, "en")
    assert [p.title for p in core] == ["Price index"]
    blueprint = planner.plan_extractive("r", RunOptions(topic="Global price index"), search)
    assert blueprint.note.startswith("The corpora hold no text on 'Global price index' as such")
    with pytest.raises(NoSourcesError):  # a rare qualifier is a kind the article does not speak of
        planner.plan_extractive("r", RunOptions(topic="Quarterly index"), search)
    assert [p.title for p in gather_themes(read_request("Global index", "en"), search, 6, "en")[1]] == ["Index"]


def test_an_adjective_of_how_good_or_how_often_qualifies_however_rare():
    """ "Benefits of regular exercise" and "healthy diet" had found no sources beside *Exercise* and *Diet
    (nutrition)*: "regular" and "healthy" are rare in the encyclopedia, yet name no kind of either (a title's
    lowercase qualifier, "(nutrition)", is no word of it). "Quarterly index" still gets the closest subjects."""
    docs = [*_corpus(),
            {"title": "Exercise", "text": "Exercise is physical activity that maintains fitness and health."},
            {"title": "Diet (nutrition)", "text": "In nutrition, diet is the sum of food a person eats."},
            {"title": "Regular polygon", "text": "A regular polygon has equal sides."},
            {"title": "Index", "text": "An index lists things in order."},
            {"title": "Quarterly report", "text": "A quarterly report comes every three months."}]
    search = SpaceSearch(docs)
    assert search.space().rarity("regular") >= planner.COMMON_RARITY
    for text, title in (("Benefits of regular exercise", "Exercise"), ("healthy diet", "Diet (nutrition)")):
        _, core, _ = gather_themes(resolve_subject(read_request(text, "en"), search, "en"), search, 6, "en")
        assert [p.title for p in core] == [title], text
    with pytest.raises(NoSourcesError):
        planner.plan_extractive("r", RunOptions(topic="Quarterly index"), search)


def _passing(mix: int, naming: int) -> dict[str, str]:
    """A document on the early universe with ``mix`` words of prices in each sentence, ``naming`` of its nine
    sentences naming inflation."""
    rng = random.Random(5)
    sentences = [" ".join(rng.choice(COSMOS) for _ in range(8 - mix)) + " " + " ".join(
        rng.choice(ECONOMY) for _ in range(mix)) for _ in range(9 - naming)]
    sentences += ["Prices rose there with inflation"] * naming
    return {"title": "Passing", "text": ". ".join(s.capitalize() for s in sentences) + "."}


def test_a_loosely_related_theme_that_names_the_subject_in_passing_is_no_section(monkeypatch):
    """ "Kabul" says "urbanization" once in nine sentences, 0.30 from the Urbanization article: no section."""
    from reportgen.blueprint.planner import LOOSE_RELATEDNESS, PASSING_DENSITY, subject_density

    request = read_request("Inflation", "en")
    passing = _passing(mix=2, naming=1)
    search = SpaceSearch([*_corpus(), passing])
    scorer = Relatedness([_corpus()[-1]["text"]], [], "en", subject="inflation", space=search.space())
    assert SEMANTIC_THRESHOLD <= scorer.score(f"Passing {passing['text']}") < LOOSE_RELATEDNESS
    assert subject_density(passing["text"], request, "en") < PASSING_DENSITY
    themes, _, _ = gather_themes(request, search, 100, "en")
    assert "Passing" not in themes
    monkeypatch.setattr(planner, "LOOSE_RELATEDNESS", 0.0)  # the rule is what drops it
    assert "Passing" in gather_themes(request, search, 100, "en")[0]
    monkeypatch.undo()
    naming = _passing(mix=2, naming=3)  # a third of its sentences on the subject: a section
    assert subject_density(naming["text"], request, "en") >= PASSING_DENSITY
    assert "Passing" in gather_themes(request, SpaceSearch([*_corpus(), naming]), 100, "en")[0]


def test_an_article_named_with_the_subjects_words_but_headed_by_another_noun():
    from reportgen.agents.ranking import named_after, terms

    assert named_after("The Jazz Singer", terms("Jazz", "en"), "en")
    assert named_after("Rhapsody in Blue", terms("blue", "en"), "en")
    assert not named_after("1755 Lisbon earthquake", terms("earthquake", "en"), "en")  # an instance of it
    assert not named_after("Jazz", terms("Jazz", "en"), "en")
    assert not named_after("Blues", terms("Jazz", "en"), "en")  # does not hold the words at all
    assert not named_after("Anything", set(), "en")


def test_an_article_named_with_one_word_of_the_subject_and_another_head_names_no_subject():
    """*Coral snake* was a section of a report on coral reefs: its text writes "coral" only in "coral snakes".
    The planner's test of a candidate naming the subject by its other words alone (``by_modifier_alone``) blanks
    such a name (``part``); the other tests of naming do not."""
    from reportgen.agents.ranking import named_with_a_part, terms, unnamed

    reefs = terms("coral reefs", "en")
    assert named_with_a_part("Coral snake", reefs, "en")
    assert named_with_a_part("Solar System", terms("solar power", "en"), "en")
    assert not named_with_a_part("Coral reef fish", reefs, "en")  # every word (named_after's case)
    assert not named_with_a_part("Barrier reef", reefs, "en")  # headed by the subject's own noun
    assert not named_with_a_part("Coral snake", terms("coral", "en"), "en")  # one word: named_after's case
    text = "Coral snake. Old World coral snakes are elapid snakes."
    assert "coral" not in terms(unnamed(text, "Coral snake", reefs, "en", part=True), "en")
    assert unnamed(text, "Coral snake", reefs, "en") == text


def test_a_subject_without_an_article_is_named_by_its_own_words_not_its_head_noun(monkeypatch):
    """ "Battle of Hastings" has no article: Alaric I, who won another battle, writes only its head noun and
    names another thing of its kind; Bayeux Tapestry, which writes "Hastings", names it."""
    rng = random.Random(3)

    def text(extra: str) -> str:
        return " ".join(rng.choice(ECONOMY) for _ in range(30)) + f" {extra}."

    docs = [*_corpus(),
            {"title": "Bayeux Tapestry", "text": text("The tapestry shows the Battle of Hastings")},
            {"title": "William", "text": text("William won the Battle of Hastings")},
            {"title": "Harold", "text": text("Harold died at Hastings in the battle")},
            {"title": "Alaric", "text": text("Alaric won a battle. The battle was long. Another battle followed")}]
    request = read_request("The Battle of Hastings", "en")
    assert planner.distinctive(request.subject, "en") == read_terms("Hastings")
    themes, core, _ = gather_themes(request, SpaceSearch(docs), 100, "en")
    assert {"Bayeux Tapestry", "William"} <= {p.title for p in core}
    assert "Harold" in themes and "Alaric" not in themes
    monkeypatch.setattr(planner, "distinctive", lambda subject, lang, space=None: read_terms(subject))
    assert "Alaric" in gather_themes(request, SpaceSearch(docs), 100, "en")[0]  # the rule is what drops it


def read_terms(text: str) -> set[str]:
    from reportgen.agents.ranking import terms

    return terms(text, "en")


@pytest.mark.parametrize("subject, expected", [
    ("Battle of Hastings", "Hastings"),
    ("food security", "food"),
    ("Solar power", "solar"),
    ("Guerra civil de Nigeria", "civil Nigeria"),
    ("Inflation", "Inflation"),  # one term: itself
])
def test_the_distinctive_words_of_a_subject(subject, expected):
    lang = "es" if subject.startswith("Guerra") else "en"
    from reportgen.agents.ranking import terms

    assert planner.distinctive(subject, lang) == terms(expected, lang)


def test_a_compound_subjects_core_is_the_passages_that_write_it():
    """ "food security" is what Food security passages write, not National security, which holds both words
    apart ("security … food")."""
    from reportgen.blueprint.planner import _core

    passages = [Passage(source_id=t, title=t, text=x, url=f"file://{t}", corpus="test", score=1.0) for t, x in [
        ("National security", "National security protects the state; its food and security agencies. Security "
                              "forces guard the security of the nation and its security."),
        ("Famine", "Famine ends food security for millions."),
        ("Cereal", "Cereal crops underpin food security in poor countries, and food prices."),
    ]]
    assert {p.title for p in _core(passages, "food security", "en")} == {"Famine", "Cereal"}


def test_a_head_noun_commoner_than_the_other_words_is_read_so_in_a_space():
    """The words that name a subject are rarer than its head noun, as "Hastings" is rarer than "battle";
    "urban to suburban living" read as headed by "urban" (the word before "to") has "living", commoner,
    among its naming words: the head is in doubt, and every term names the subject."""
    rng = random.Random(13)
    docs = []
    for i in range(240):
        words = [rng.choice(ECONOMY) for _ in range(20)]
        words += ["battle", "living"] if i % 2 else []
        words += ["hastings"] if i % 40 == 0 else []
        words += ["urban", "suburban"] if i % 30 == 0 else []
        docs.append(" ".join(words))
    space = TopicSpace.build(docs, "en")
    assert space is not None
    assert planner.distinctive("Battle of Hastings", "en", space) == read_terms("Hastings")
    assert planner.distinctive("urban to suburban living", "en") == read_terms("suburban living")
    assert planner.distinctive("urban to suburban living", "en", space) == read_terms("urban suburban living")


def test_a_common_word_before_the_head_noun_does_not_name_a_subject_alone(monkeypatch):
    """"Great Barrier Reef" had sections on the Great Artesian Basin and Great Britain, through "great"."""
    rng = random.Random(5)
    docs = []
    for i in range(240):
        words = [rng.choice(ECONOMY) for _ in range(20)]
        words += ["great"] if i % 4 == 0 else []  # one document in four: common
        words += ["barrier", "reef"] if i % 60 == 0 else []
        docs.append(" ".join(words))
    space = TopicSpace.build(docs, "en")
    assert space is not None
    assert planner.uncommon("Great Barrier Reef", "en", space) == read_terms("barrier reef")
    assert planner.uncommon("Great Barrier Reef", "en", None) == read_terms("great barrier reef")
    # the head noun names the subject however common: "power" in "Solar power"
    assert planner.uncommon("great barrier", "en", space) == read_terms("barrier")
    assert planner.uncommon("barrier great", "en", space) == read_terms("barrier great")
    # in planning: the Great Artesian Basin, named only by "great", is no section
    reef = [{"title": "Great Barrier Reef", "text": "The Great Barrier Reef is the world's largest coral reef "
             "system, off the coast of Queensland in Australia; its reef is built by corals."},
            {"title": "Coral reef", "text": "A coral reef is an underwater ecosystem built by corals in warm seas "
             "off the coast, and each reef shelters fish."},
            {"title": "Great Artesian Basin", "text": "The Great Artesian Basin is the largest artesian basin in "
             "Australia, under the coast and the dry inland of Queensland."},
            *({"title": f"Other {i}", "text": d} for i, d in enumerate(docs))]
    monkeypatch.setattr(planner, "LOOSE_RELATEDNESS", -1.0)  # no passing-mention rule: naming alone is tested
    themes, _, _ = gather_themes(read_request("Great Barrier Reef"), SpaceSearch(reef), 4, "en")
    assert "Great Artesian Basin" not in themes
    assert "Coral reef" in themes  # what the subject's own article defines it as is no sibling


@pytest.mark.parametrize("text, kind, expected", [
    ("The Great Barrier Reef is the world's largest coral reef system, off Queensland.", "Coral reef", True),
    ("The Great Barrier Reef is off Queensland, a coral reef of Australia.", "Coral reef", False),  # other clause
    ("The Great Barrier Reef is a very large and very old system of many living reefs.", "Reef", False),  # too far
    ("Coral reefs are like the Great Barrier Reef.", "Coral reef", False),  # the subject is not defined
])
def test_the_kind_an_article_defines_its_subject_as(text, kind, expected):
    assert planner.kind_of(text, "Great Barrier Reef", kind, "en") is expected


@pytest.mark.parametrize("text, expected", [
    ("Gnosticism is an umbrella term for religious ideas.", True),  # the term, not the canopy
    ("Crane flies are insects. The crane fly is harmless.", True),  # inflected head, same compound
    ("Rain falls on an umbrella, and umbrella stands hold them.", False),  # written alone once
    ("Cranes form pairs in spring.", False),  # inflected: "form" is a verb, not a compound's head
    ("The bass guitar plays low notes.", False),  # the core writes "bass guitar"
    ("Jupiter is the largest planet.", False),  # never written
    # three compounds or more: the subject's field (Bobby Fischer's "chess grandmaster", "chess prodigy", …)
    ("An umbrella maker sells umbrella frames and umbrella stands.", False),
])
def test_a_word_written_only_as_the_first_of_a_compound_names_another_thing(text, expected):
    from reportgen.agents.ranking import compounded_only

    subject = next(w for w in ("umbrella", "crane", "bass", "tea") if w in text.lower() or w == "tea")
    core = "The bass guitar and the double bass. An umbrella is a canopy. Cranes are birds."
    assert compounded_only(text, subject, core, "en") is expected


def _loosely_related(mix: int, sentence: str) -> tuple[Any, SpaceSearch]:
    """A request on inflation and a corpus holding "Passing" (:func:`_passing`) with ``sentence`` added, related
    to the Inflation article above the threshold but under :data:`~reportgen.blueprint.planner.LOOSE_RELATEDNESS`
    (where the compound rule applies)."""
    compounded = _passing(mix=mix, naming=0)
    compounded["text"] += f" {sentence}"
    search = SpaceSearch([*_corpus(), compounded])
    scorer = Relatedness([_corpus()[-1]["text"]], [], "en", subject="inflation", space=search.space())
    assert SEMANTIC_THRESHOLD <= scorer.score(f"Passing {compounded['text']}") < planner.LOOSE_RELATEDNESS
    return read_request("Inflation", "en"), search


def test_a_candidate_naming_the_subject_only_in_compounds_is_no_theme(monkeypatch):
    """ "Umbrella": Gnosticism, Textile and Transgender each say "an umbrella term", which the Umbrella
    article never writes, and are loosely related to it: no sections."""
    request, search = _loosely_related(mix=2, sentence="Prices rose there as inflation measures show.")
    monkeypatch.setattr(planner, "PASSING_DENSITY", 0.0)  # not dropped as a passing mention
    assert "Passing" not in gather_themes(request, search, 100, "en")[0]
    monkeypatch.setattr(planner, "compounded_only", lambda *args: False)
    assert "Passing" in gather_themes(request, search, 100, "en")[0]  # the rule is what drops it


def test_a_candidate_naming_the_subject_only_in_a_set_phrase_is_no_theme_however_related(monkeypatch):
    """*Jade* ("Jade is an umbrella term for two different types of decorative rocks"), 0.40 to the Umbrella
    article, had been the one section of "Umbrella": a compound many candidates write the subject in
    ("umbrella term" in Jade, Textile, Gnosticism, Transgender) is a set phrase, and a text writing the subject
    only in it is off whatever its relatedness."""
    request, search = _loosely_related(mix=2, sentence="Prices rose there as inflation measures show.")
    monkeypatch.setattr(planner, "PASSING_DENSITY", 0.0)  # not dropped as a passing mention
    monkeypatch.setattr(planner, "LOOSE_RELATEDNESS", 0.0)  # as near the subject as Jade is to the umbrella
    assert "Passing" in gather_themes(request, search, 100, "en")[0]
    monkeypatch.setattr(planner, "set_phrases", lambda texts, subject, lang: {"measure"})  # written in 3 texts
    assert "Passing" not in gather_themes(request, search, 100, "en")[0]


def test_set_phrases_are_the_compounds_several_texts_write_the_subject_in():
    from reportgen.agents.ranking import IDIOM_DOCUMENTS, in_set_phrases_only, set_phrases

    texts = ["Jade is an umbrella term for rocks.", "Textile is an umbrella term for fibres.",
             "Gender is an umbrella term for identities.", "An umbrella stand holds umbrellas."]
    assert set_phrases(texts, "Umbrella", "en") == {"term"}
    assert set_phrases(texts[:IDIOM_DOCUMENTS - 1], "Umbrella", "en") == set()
    assert in_set_phrases_only(texts[0], "Umbrella", "en", {"term"})
    assert not in_set_phrases_only("The umbrella keeps off rain; an umbrella term too.", "Umbrella", "en", {"term"})
    assert not in_set_phrases_only(texts[0], "Umbrella", "en", set())


def test_a_compound_headed_by_the_kind_the_subject_is_defined_as_names_the_subject(monkeypatch):
    """Alexander Fleming's penicillin "was the first antibiotic substance discovered", and "An antibiotic is
    a type of antimicrobial substance": the compound is the subject itself, and Fleming a theme. Here
    "Inflation is a rise of prices", and a text on "the inflation rise" is on inflation."""
    request, search = _loosely_related(mix=1, sentence="Inflation rise shows there.")
    monkeypatch.setattr(planner, "PASSING_DENSITY", 0.0)  # not dropped as a passing mention
    assert "Passing" in gather_themes(request, search, 100, "en")[0]
    monkeypatch.setattr(planner, "kind_of", lambda *args: False)
    assert "Passing" not in gather_themes(request, search, 100, "en")[0]  # the kind is what keeps it


def test_the_conclusion_judges_sentences_not_naming_the_subject_by_the_subjects_own(search, tmp_path):
    """Once the introduction took the Silk Road's best sentences, the overview's best left were Road's and
    Road transport's, and judged against them "A road is a thoroughfare" made up the conclusion. Sentences
    that do not name the subject are judged against the overview's sentences on the subject."""
    from reportgen.acp import MessageLog
    from reportgen.agents.ranking import rank_sentences
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import INTRO_SENTENCES, _summary

    def passage(title: str, text: str) -> Passage:
        return Passage(source_id=title, title=title, url=f"https://example.org/{title}", text=text, corpus="c")

    rng = random.Random(17)
    cosmos = [" ".join(rng.choice(COSMOS) for _ in range(9)).capitalize() + "." for _ in range(INTRO_SENTENCES + 3)]
    ranked = rank_sentences([passage("Cosmos 1", " ".join(cosmos))], focus="universe", topic="universe",
                            lang="en", keywords=["universe"])
    ranked += rank_sentences([passage("Inflation", "Inflation is a rise of prices in the economy.")],
                             focus="Inflation", topic="Inflation", lang="en", keywords=["inflation"])
    section = {"id": "s1", "sentences": [{"text": "Prices and wages rose with inflation."}], "alternates": []}
    ctx = RunContext(topic="Inflation", lang="en", search=search, log=MessageLog(tmp_path / "m.jsonl"))
    chosen, _ = _summary(ranked, [section], set(), ctx, "Inflation")
    assert [s["text"] for s in chosen][:1] == ["Inflation is a rise of prices in the economy."]
    assert not set(cosmos) & {s["text"] for s in chosen}  # the universe does not sum up inflation


def test_a_candidate_that_writes_the_subject_only_in_its_own_name_of_another_thing_is_no_theme(monkeypatch):
    """ "Spring and Autumn period" (a period of Chinese history) writes "spring" only in its name, headed by
    "period": it does not name the season (``ranking.named_after``, the timelines' and introduction's rule)."""
    rng = random.Random(23)
    act = " ".join(rng.choice(ECONOMY) for _ in range(30))
    docs = [*_corpus(), {"title": "Inflation Act", "text": f"The Inflation Act was a law on {act}."}]
    request = read_request("Inflation", "en")
    assert "Inflation Act" not in gather_themes(request, SpaceSearch(docs), 100, "en")[0]
    monkeypatch.setattr(planner, "unnamed_for", lambda text, *args: text)
    # the rule is what drops it (with of_its_own_kind's: the act is named after inflation, headed by its own word)
    monkeypatch.setattr(planner, "of_its_own_kind", lambda *args, **kwargs: False)
    assert "Inflation Act" in gather_themes(request, SpaceSearch(docs), 100, "en")[0]


def test_the_subjects_of_a_request_on_two_take_turns_in_its_themes():
    """"Cats versus dogs": after the leads, one theme of each in turn, not three of the broader one."""
    from reportgen.blueprint.planner import taking_turns

    def p(title: str, text: str, score: float) -> Passage:
        return Passage(source_id=title, title=title, url=f"https://example.org/{title}", text=text, corpus="c",
                       score=score)

    scored = [p("Mastiff", "The mastiff is a large dog.", 0.9), p("Herding dog", "A herding dog herds sheep.", 0.8),
              p("Pets", "Cats and dogs are the commonest pets.", 0.7),
              p("Canidae", "Canidae are dogs and wolves.", 0.6),
              p("Felidae", "Felidae are cats, lions and tigers.", 0.5), p("Lion", "The lion is a large cat.", 0.4)]
    ordered = taking_turns(scored, {}, read_request("Cats versus dogs"), "en")
    assert [x.title for x in ordered] == ["Pets", "Felidae", "Mastiff", "Lion", "Herding dog", "Canidae"]
    assert [x.score for x in ordered] == sorted((x.score for x in ordered), reverse=True)


def test_articles_named_with_the_word_in_another_sense_are_named_at_the_top(corpus):
    """"Mouse" (the animal) says the corpora also hold *Computer mouse*; a kind near the subject, or one event
    of it ("1923 Weimar inflation"), is no other sense."""
    from reportgen.blueprint.planner import plan_extractive
    from reportgen.config import RunOptions

    docs = [*corpus,
            {"title": "Cosmic inflation", "text": "Cosmic inflation is the expansion of the early universe: space "
             "and galaxies, radiation and particles cooled as the density of matter fell."},
            {"title": "Price inflation", "text": "Price inflation is a rise of prices of goods and services, "
             "money and wages in the economy; central banks raise interest rates."},
            {"title": "1923 Weimar inflation", "text": "Prices of goods rose every hour and money lost its "
             "purchasing power; banks and wages failed; the cosmos of the economy fell."}]
    note = plan_extractive("r", RunOptions(topic="Inflation"), SpaceSearch(docs)).note
    assert "The corpora also hold Cosmic inflation: ask for one by its name" in note
    assert "Price inflation" not in note and "1923" not in note


def test_a_name_written_with_the_subjects_common_noun_is_no_section_of_it():
    """ "Mice" had a section on *Mickey Mouse*, and "Apple" one on *Steve Jobs* ("co-founded Apple Inc."): the
    subject's own article writes "the mouse", "an apple", so a capital inside a title or a sentence makes a
    name (a character, a company), not the subject (candidates that name it only so are no candidates:
    ``without_names``). A subject its article writes with a capital keeps its capitalised mentions."""
    from reportgen.agents.ranking import a_name, common_terms, terms, without_names

    rng = random.Random(7)
    rodent = "rodents tail fur burrow seeds grain nest litter whiskers species field house pest breeding".split()
    docs = [{"title": "Mouse", "text": "A mouse is a small rodent with a pointed snout and a long tail. "
                                       "The house mouse is the best known mouse species."}]
    for i in range(MIN_SPACE_DOCUMENTS + 10):
        body = " ".join(rng.choice(rodent) for _ in range(40))
        docs.append({"title": f"Rodent {i}", "text": f"The mouse {body}."})
    docs.append({"title": "Mickey Mouse", "text": "Mickey Mouse is a cartoon character with a tail, fur and "
                 "whiskers; Mickey Mouse lives in a house with seeds, grain and a nest of rodents."})
    themes, _, _ = gather_themes(read_request("Mouse"), SpaceSearch(docs), 400, "en")
    assert any(t.startswith("Rodent") for t in themes) and "Mickey Mouse" not in themes
    common = common_terms(docs[0]["text"])
    assert a_name("Mickey Mouse", terms("mouse", "en"), common) and a_name("The Mouse (film)", {"mouse"}, common)
    assert not a_name("House mouse", {"mouse"}, common) and not a_name("Mouse", {"mouse"}, common)
    internet = "The Internet (or internet) is a network. The Internet grew. Many use the Internet."
    assert "internet" not in common_terms(internet)  # written mostly with a capital: a name, kept
    assert without_names("Use of the Internet grew.", ["internet"], common_terms(internet)) == \
        "Use of the Internet grew."


def test_a_kind_named_with_the_word_in_another_sense_is_no_kind():
    """"Cell": Stem cell, Muscle cell and Plant cell are alike; *Hadley cell* (the atmosphere's) is like none of
    them, and gets no kind's place."""
    import numpy as np

    from reportgen.blueprint.planner import of_one_sense

    rows = {"stem": [1.0, 0.0], "muscle": [0.9, 0.436], "plant": [0.95, -0.312], "hadley": [0.0, 1.0]}

    class Space:
        def vectors(self, texts):
            return np.array([rows[t] for t in texts])

    docs = {sid: sid for sid in rows}
    kept = of_one_sense(list(rows), docs, Space())  # type: ignore[arg-type]
    assert kept == ["stem", "muscle", "plant"]
    assert of_one_sense(["hadley"], docs, Space()) == ["hadley"]  # type: ignore[arg-type]  # a lone kind stays


def test_a_proper_name_is_named_only_by_writing_it(monkeypatch):
    """"The Black Death" had Gangrene, Tuberculosis and the health effects of smoking as sections, each named by
    "death", the head noun of a proper name; a candidate must write the name ("Edward III … the Black Death")."""
    rng = random.Random(41)

    def economy(n: int) -> str:
        return " ".join(rng.choice(ECONOMY) for _ in range(n))

    shared = economy(25)
    docs = [*_corpus(), {"title": "Great Inflation", "text": f"The Great Inflation was a time of inflation: {shared}."},
            {"title": "Stagflation", "text": f"Stagflation followed the Great Inflation: {shared}."},
            {"title": "Price spiral", "text": f"A price spiral is inflation feeding on itself: {shared}."}]
    assert planner.proper_name("Great Inflation", [planner.Passage(source_id="g", title="Great Inflation", url="",
                                                                   text="", corpus="c")], "en")
    assert not planner.proper_name("Solar power", [planner.Passage(source_id="s", title="Solar power", url="",
                                                                   text="", corpus="c")], "en")
    search = _FirstFound(docs, ("Great Inflation", "Stagflation", "Price spiral"))
    themes = gather_themes(read_request("Great Inflation", "en"), search, 300, "en")[0]
    assert "Stagflation" in themes and "Price spiral" not in themes
    monkeypatch.setattr(planner, "proper_name", lambda *args: False)
    assert "Price spiral" in gather_themes(read_request("Great Inflation", "en"), search, 300, "en")[0]


def test_a_proper_name_written_only_inside_a_longer_name_does_not_name_it():
    """*Holy Roman Empire* writes "Roman Empire" only inside its own longer name, and had been a companion of the
    section on the Western Roman Empire in an overview of the Roman Empire (a reader's find): a candidate writing
    the name only so does not name it (the writer's rule, ``in_longer_names_only``)."""
    rng = random.Random(41)
    shared = " ".join(rng.choice(ECONOMY) for _ in range(25))
    docs = [*_corpus(), {"title": "Great Inflation", "text": f"The Great Inflation was a time of inflation: {shared}."},
            {"title": "Stagflation", "text": f"Stagflation followed the Great Inflation: {shared}."},
            {"title": "Holy Great Inflation", "text": f"The Holy Great Inflation was a polity of prices: {shared}."}]
    search = _FirstFound(docs, ("Great Inflation", "Stagflation", "Holy Great Inflation"))
    themes, _, companions = gather_themes(read_request("Great Inflation", "en"), search, 300, "en")
    assert "Stagflation" in themes
    assert "Holy Great Inflation" not in themes + [t for ts in companions.values() for t in ts]


def test_a_text_holding_the_words_of_a_subject_no_passage_writes_gets_no_bonus_for_it(corpus):
    """ "Electric vehicle" is written nowhere in the encyclopedia, and *Vehicle* stands for it: *Cluster munition*,
    whose bombs "destroy vehicles" and "electric power transmission lines", had led the report on the bonus of a
    text holding every word of the subject (``WHOLE_SUBJECT_BONUS``)."""
    decoy = {"title": "Digital clock", "text": "A digital clock shows the time in numbers on a screen, with a "
             "battery and a quartz crystal. Its makers watch prices, wages and inflation."}
    request = read_request("Write a report on digital inflation and its effects")
    themes, core, _ = gather_themes(request, SpaceSearch([*corpus, decoy]), 5, "en")
    assert [p.title for p in core] == ["Inflation"]  # the part's article stands for the subject
    assert themes and "Digital clock" not in themes[:2]


def _themes_with(corpus: list[dict[str, str]], extra: dict[str, str], request: str, count: int) -> list[str]:
    """The themes of ``request`` over the corpus and ``extra`` (title → text)."""
    docs = [*corpus, *({"title": title, "text": text} for title, text in extra.items())]
    return gather_themes(read_request(request), SpaceSearch(docs), count, "en")[0]


def test_a_questions_verb_is_answered_by_the_article_titled_with_its_noun(corpus):
    """ "Why do birds migrate?": no article is titled "migrate", and the index does not find *Animal migration*
    by the verb; the article titled with its noun, which writes the subject, answers the question."""
    themes = _themes_with(corpus, {
        "Price migration": "Price migration is when inflation moves from one market to the next: prices rise in "
                           "one trade, then wages and money follow in others.",
        "Migration of galaxies": "The migration of galaxies away from each other follows the universe expansion.",
    }, "Why does inflation migrate?", 5)
    assert themes[0] == "Price migration"
    assert "Migration of galaxies" not in themes  # it never writes the subject


@pytest.mark.parametrize("answers", [planner.MAX_ANSWERS, 0])
def test_the_answering_article_leads_though_the_subjects_article_names_other_themes(corpus, monkeypatch, answers):
    """ "Why do birds migrate?" lost *Animal migration*: the subject's own article names *Passerine*, *Feather*
    and *Moa*, and the boost of a title it names (``choose_themes``) put them first, past the answer's bonus. The
    answering articles now lead (``planner.MAX_ANSWERS``); without that the answer is pushed out, as before."""
    monkeypatch.setattr(planner, "MAX_ANSWERS", answers)
    monkeypatch.setattr(planner, "writes_what_is_asked", lambda *_: False)  # the answer's rule alone
    named = {title: f"{title} and inflation: prices, money, wages, banks, interest rates and markets in the "
                    f"economy; inflation of prices." for title in ("Central bank", "Interest rate", "Wage", "Money",
                                                                   "Price", "Market")}
    themes = _themes_with(corpus, {**named, "Price migration": "Price migration is when inflation moves from one "
                                   "market to the next."}, "Why does inflation migrate?", 5)
    assert ("Price migration" in themes) is bool(answers)
    if answers:
        assert themes[0] == "Price migration"


@pytest.mark.parametrize("rule", [True, False])
def test_half_of_a_questions_sections_write_what_it_asks(corpus, monkeypatch, rule):
    """ "Why do birds migrate?" had *Passerine*, *Feather* and *Moa*, named by the birds' own article, and none of
    the migratory birds (*Swallow*, *Common quail*, *American robin*): half the sections after the answers are
    texts writing the subject and, in a sentence, a word made from the aspect (``writes_what_is_asked``);
    without the rule they are left out, as before."""
    if not rule:
        monkeypatch.setattr(planner, "writes_what_is_asked", lambda *_: False)
    named = {title: f"{title} and inflation: prices, money, wages, banks, interest rates and markets in the "
                    f"economy; inflation of prices." for title in ("Central bank", "Interest rate", "Wage", "Money",
                                                                   "Price", "Market")}
    migrating = {f"Trade {i}": f"Trade {i} is a market of goods where inflation of prices and wages rises. Its "
                               f"money is migratory, moving between banks each season." for i in (1, 2)}
    themes = _themes_with(corpus, {**named, **migrating}, "Why does inflation migrate?", 5)
    assert (set(migrating) <= set(themes)) is rule


@pytest.mark.parametrize(("request_text", "text", "expected"), [
    ("Why do birds migrate?", "The swallow is a bird. Many species are migratory.", True),
    ("Why do birds migrate?", "The swallow is a bird. It eats insects.", False),  # the aspect unwritten
    ("Why do birds migrate?", "Many fish are migratory.", False),  # the subject unwritten
    ("What causes inflation?", "Inflation causes prices to rise.", False),  # a cause is no such aspect
    ("Write a report on birds and their migration", "Birds are migratory.", False),  # no question
])
def test_a_text_writing_what_a_question_asks(request_text, text, expected):
    assert planner.writes_what_is_asked(text, read_request(request_text), "en") is expected


def test_a_text_causing_the_subject_answers_why_only_with_what_is_asked_of_it():
    """ "Coronaviruses … cause diseases in mammals and birds" had led a report on "Why do birds migrate?": where
    the question asks more of the subject than its causes, the effect writes that too (a word made from it)."""
    request = read_request("Why do birds migrate?")
    assert not planner.causes_it("Coronaviruses cause diseases in mammals and birds.", request, "en")
    assert planner.causes_it("Shorter days cause birds to begin their migration south.", request, "en")
    assert planner.causes_it("Coronaviruses cause diseases in mammals and birds.", read_request("What causes birds?"),
                             "en")


def test_another_kind_of_the_head_noun_standing_for_the_subject_is_no_theme(corpus):
    """*Vehicle* stands for "electric vehicle", which no passage writes: *Launch vehicle* is another vehicle, as
    *Wind power* is another power in a report on solar power (``planner._sibling``)."""
    docs = [*corpus, {"title": "Wage inflation", "text": "Wage inflation is when wages rise faster than prices: "
                      "money, banks, interest rates, consumers and markets in the economy."}]
    request = read_request("Write a report on digital inflation and its effects")
    themes, core, _ = gather_themes(request, SpaceSearch(docs), 60, "en")
    assert [p.title for p in core] == ["Inflation"] and themes
    assert "Wage inflation" not in themes
    themes, _, _ = gather_themes(read_request("Inflation"), SpaceSearch(docs), 60, "en")
    assert "Wage inflation" in themes  # a kind of the subject itself


def test_kinds_of_the_subject_under_the_threshold_are_themes_and_dated_events_are_of_one_sense(corpus, monkeypatch):
    """The 1755 Lisbon, 1976 Tangshan and 1556 Shaanxi earthquakes score 0.11-0.19 to *Earthquake* (a city and
    its dead) and 0.2-0.3 to one another: each is an earthquake all the same (``planner.KIND_FLOOR``,
    ``planner._dated``)."""
    from reportgen.blueprint import relevance

    docs = [*corpus,
            {"title": "1923 German inflation", "text": "In 1923 bread cost billions of marks in Berlin; workers "
             "were paid twice a day, prices doubled and inflation wiped out savings."},
            {"title": "1970s Peruvian inflation", "text": "The 1970s inflation in Peru: copper exports fell, the "
             "sol lost value and prices of fuel rose in Lima."}]
    search = SpaceSearch(docs)
    scorer = Relatedness([corpus[-1]["text"]], [], "en", subject="inflation", space=search.space())
    kinds = [scorer.score(f"{d['title']} {d['text']}") for d in docs[-2:]]
    # this corpus's space puts them near the core: a threshold above them stands for the encyclopedia's
    monkeypatch.setattr(relevance, "SEMANTIC_THRESHOLD", max(kinds) + 0.01)
    themes, _, _ = gather_themes(read_request("Inflation"), search, 8, "en")
    assert {"1923 German inflation", "1970s Peruvian inflation"} <= set(themes)
    undated = [*corpus, {**docs[-2], "title": "German inflation"}, {**docs[-1], "title": "Peruvian inflation"}]
    themes, _, _ = gather_themes(read_request("Inflation"), SpaceSearch(undated), 8, "en")
    assert not {"German inflation", "Peruvian inflation"} & set(themes)  # "Cosmic inflation" is a kind by its title

    class Orthogonal:  # three texts with nothing in common
        def vectors(self, texts):
            import numpy as np
            return np.eye(len(texts))

    ids = {"a": "1755 Lisbon earthquake", "b": "1976 Tangshan earthquake", "c": "Solar cell"}
    kept = planner.of_one_sense(list(ids), dict.fromkeys(ids, ""), Orthogonal(), ids)  # type: ignore[arg-type]
    assert kept == ["a", "b"]
    assert planner.of_one_sense(list(ids), dict.fromkeys(ids, ""), Orthogonal()) == []  # type: ignore[arg-type]


def test_a_thing_of_the_candidates_own_kind_named_after_the_subject_is_no_theme(corpus):
    """*Shrew* writes "elephant" only in "elephant shrews", *Bird* only in "elephant birds": things of their own
    kind named after the elephant, however near the topic space puts the animals (``ranking.of_its_own_kind``).
    A compound headed by another word may still be on the subject ("the tea plant" in *Theaceae*)."""
    docs = [*corpus,
            {"title": "Spiral", "text": "Inflation spirals are spirals of prices and wages: money, banks, interest "
             "rates, consumers, markets and demand in the economy."},
            {"title": "Central bank", "text": "Central banks set inflation targets for prices and wages: money, "
             "interest rates, consumers, markets and demand in the economy."}]
    themes, _, _ = gather_themes(read_request("Inflation"), SpaceSearch(docs), 60, "en")
    assert "Spiral" not in themes
    assert "Central bank" in themes
    # asked in the plural: a compound's first noun is still in the singular ("Elephants" had kept Shrew and Bird)
    themes, _, _ = gather_themes(read_request("Inflations"), SpaceSearch(docs), 60, "en")
    assert "Spiral" not in themes
    from reportgen.agents.ranking import compounds
    assert compounds("The elephant shrews are native to Africa.", "Elephants", "en") == {"shrew"}


@pytest.mark.parametrize(("sentence", "subject", "expected"), [
    ("This habitat hosts populations of the Indian rhinoceros, Asian elephant, wild water buffalo, swamp deer, "
     "tiger and fishing cat.", "elephant", True),
    ("Elephants are the largest land animals, and they live in Africa and Asia.", "elephant", False),
    ("Penicillin, streptomycin, tetracycline and other antibiotics were discovered.", "antibiotic", False),
    ("Wages, prices, rents and inflation rose.", "inflation", True),
    # three items are a list: Drink and Sphinx had been sections of "Chocolate" and "Lions"
    ("Traditionally warm beverages encompass coffee, tea, and hot chocolate.", "chocolate", True),
    ("A sphinx is a mythical creature with the head of a human, the body of a lion, and the wings of an eagle.",
     "lion", True),  # "the body of a lion": two content words
    # the first item begins after the words opening the list
    ("Natural predators of adult African buffaloes include lions, African wild dogs, spotted hyenas, and Nile "
     "crocodiles.", "lion", True),
    # an apposition between commas is no list: the next piece is a clause ("it is …")
    ("In its edible form, common table salt, it is commonly used as a condiment and food preservative.", "salt",
     False),
    # a subject written across a comma is in no item (two subjects joined: "global rice production and food
    # security"): no list, and no error (it had stopped the planner)
    ("Farms grow rice, wheat and maize for global rice production, and food security.",
     "global rice production and food security", False),
    # a relative clause before the subject opens the list
    ("Earth's crust consists of tectonic plates, which interact to produce mountain ranges, volcanoes, and "
     "earthquakes.", "earthquake", True),
    # the subject before the words opening the list is not in it
    ("Cycling is the activity of riding a bicycle or other vehicles such as balance bikes, unicycles, tricycles, "
     "and quadricycles.", "bicycle", False),
    # an opening phrase set off by a comma is no item
    ("In the Pleistocene, elephants and mammoths roamed Eurasia together.", "elephant", False),
    # a clause going on past the subject is no item
    ("Workers were paid twice a day, prices doubled and inflation wiped out savings.", "inflation", False),
    # the subject heading the first item before "of" is what the list is of ("economy" had read as unwritten)
    ("The economies of China, Japan, South Korea, and Taiwan are among the world's largest.", "economy", False),
    ("The economies of China, Japan, South Korea, and Taiwan are among the world's largest.", "Japan", True),
    # a clause of four content words is no item
    ("Nearly half of these species are crabs, with the shrimp and Anomura including hermit crabs, king crabs, "
     "porcelain crabs, squat lobsters making up the bulk of the remainder.", "crab", False),
])
def test_a_subject_written_as_one_item_of_a_list_is_a_passing_mention(sentence, subject, expected):
    """*Kaziranga National Park* was a section of "Elephant": one sentence of its four names the elephant, among
    six animals, and one its "tall elephant grass" (``planner.listed``, ``planner.subject_density``)."""
    from reportgen.agents.ranking import listed

    assert listed(sentence, subject) is expected


def test_a_loosely_related_text_naming_the_subject_only_in_a_list_is_no_theme(corpus, monkeypatch):
    monkeypatch.setattr(planner, "LOOSE_RELATEDNESS", 1.0)  # every candidate is loosely related here
    themes = _themes_with(corpus, {
        "Price survey": "A price survey lists goods. It counts wages, rents, prices, inflation and taxes. "
                        "Its data feed the economy reports."},
        "Inflation", 100)
    assert "Price survey" not in themes
    themes = _themes_with(corpus, {
        "Price survey": "A price survey lists goods. Inflation is what it measures in the economy. "
                        "Its data feed the economy reports."},
        "Inflation", 100)
    assert "Price survey" in themes  # one sentence of three names it: a fifth or more


def test_a_text_naming_the_subject_only_in_lists_is_no_theme_however_near(corpus, monkeypatch):
    """*Cinnamon* scores 0.70 to *Chocolate* in the topic space and flavours "biscuits, …, teas, hot chocolate, and
    traditional foods"; *Kitchen* (0.55 to *Refrigerator*) holds "a stove, a sink, a refrigerator, and worktops":
    a text writing the subject only as an item of lists is a passing mention at any relatedness
    (``planner.only_listed``). A text naming it by a word made from it ("inflationary") is not, nor the class
    the subject's own article defines it as, listing its members (*Planet* in a report on Mercury), nor a text the
    subject's own article names (*Camellia*, in "leaves of *Camellia sinensis*", for "Tea")."""
    monkeypatch.setattr(planner, "LOOSE_RELATEDNESS", 0.0)  # the density rule for loose texts plays no part
    economy = "Central banks set interest rates for money, wages, prices and goods in the economy. "
    themes = _themes_with(corpus, {
        "Price index": economy + "The index counts wages, rents, inflation and taxes.",
        "Wage spiral": economy + "The index counts wages, rents, inflation and taxes. In times of inflation, wages "
                                 "chase prices.",
    }, "Inflation", 100)
    assert "Price index" not in themes
    assert "Wage spiral" in themes  # it names inflation outside a list too
    themes = _themes_with(corpus, {  # "Inflation is a rise of prices": the class it is, listing its members
        "Price rise": economy + "Price rises are of three kinds: inflation, shrinkflation and stagflation.",
    }, "Inflation", 100)
    assert "Price rise" in themes  # (planner.defined_as)
    themes = _themes_with(corpus, {  # the subject's own article names the fund by rare words
        "Deflation": "Deflation is a fall of prices: money buys more goods, and the Zorvane Fund tracks it.",
        "Zorvane Fund": economy + "The fund counts wages, rents, deflation and taxes.",
        "Price index": economy + "The index counts wages, rents, deflation and taxes.",
    }, "Deflation", 100)
    assert "Zorvane Fund" in themes  # (planner._named_rarely)
    assert "Price index" not in themes
    listing = economy + "The index counts wages, rents, inflation and taxes."
    assert planner.only_listed(listing, read_request("Inflation"), "en")
    assert not planner.only_listed(listing + " Inflationary times raise them.", read_request("Inflation"), "en")


def test_a_history_of_a_field_is_listed_when_the_field_is_listed():
    """*Dynamical system*, applied to "economics, history, and medicine", had been a section of the *History of
    medicine*: it holds both words, but lists the field among fields (``planner._history_thing``). A place listed
    among the places a conqueror took is still on that place's history (*Alexander the Great* in *History of
    Egypt*)."""
    def history(of: str) -> Any:  # the request as the planner resolves it, on the corpus's *History of …*
        return replace(read_request(f"History of {of}"), subjects=[f"History of {of}"], aspects=[])

    request = history("medicine")
    applied = ("A dynamical system describes how a system evolves in time. It has applications to fields such as "
               "mathematics, physics, economics, history, and medicine.")
    assert planner.only_listed(applied, request, "en")
    assert not planner.only_listed("Hippocrates is the father of medicine; his school changed its history.",
                                   request, "en")
    conquests = "Alexander the Great conquered Persia, Syria, Egypt, Bactria and Punjab before 323 BC."
    assert not planner.only_listed(conquests, history("Egypt"), "en")


def test_with_two_subjects_each_is_judged_alone():
    """A request comparing crocodiles and alligators had *African buffalo* (crocodiles one predator in a list)
    and *Alligator snapping turtle* (a turtle named after the alligator): the rules on one subject had been given
    the phrase "crocodiles and alligators", which no text writes (``planner._listed_each``,
    ``planner.for_each_subject``)."""
    request = read_request("Crocodiles versus alligators")
    assert planner.only_listed("Natural predators of adult African buffaloes include lions, African wild dogs, "
                               "spotted hyenas, and Nile crocodiles.", request, "en")
    assert not planner.only_listed("Crocodiles hunt buffaloes at rivers.", request, "en")
    turtle = "The alligator snapping turtle is a large species of turtle."
    assert planner.for_each_subject(turtle, request, "en", lambda x: x == "alligators")
    assert not planner.for_each_subject(turtle + " Crocodiles eat it.", request, "en", lambda x: x == "alligators")
    assert not planner.for_each_subject("Turtles swim.", request, "en", lambda x: True)  # names neither


@pytest.mark.parametrize(("word", "term", "lang", "expected"), [
    ("migration", "migrate", "en", True),
    ("eruption", "erupt", "en", True),
    ("melting", "melt", "en", True),
    ("migration", "migrent", "fr", True),  # "Pourquoi les oiseaux migrent-ils ?"
    ("migración", "migran", "es", True),  # "¿Por qué migran las aves?"
    ("meltdown", "melt", "en", True),
    ("melancholy", "melt", "en", False),
    ("rate", "rat", "en", False),  # under four letters, a word is matched whole
    ("singing", "sing", "en", True),
    ("single", "sing", "en", False),  # no ending of English: "Why do birds sing?" had been answered by "a single genus"
    ("mythology", "myth", "en", True),
])
def test_a_title_word_made_from_an_aspect(word, term, lang, expected):
    """An aspect no article is titled by is answered by articles titled with a word made from it
    (``planner._titled_after``): English drops a final "e", French and Spanish a verb ending, before the suffix."""
    assert planner._derived(word, term, lang) is expected


def test_a_text_naming_the_subject_in_every_other_sentence_is_a_theme_under_the_threshold(corpus, monkeypatch):
    """*Bobby Fischer* ("an American chess grandmaster and the eleventh World Chess Champion") scores 0.17 to
    *Chess*, the topic space putting him near the Cold War of his match: a text naming the subject in half its
    sentences or more, and in two of them, is on it down to the sense floor (``planner.names_densely``). A text
    naming it once ("the city of Asmara experienced rapid urbanization") is not."""
    from reportgen.blueprint import relevance

    extra = {
        "Milton Friedman": "Milton Friedman studied inflation all his life. He said inflation is always and "
                           "everywhere a monetary matter. He taught in Chicago.",
        "Weimar": "Weimar saw inflation in a bad year. It has a theatre and a palace. Goethe lived there.",
    }
    search = SpaceSearch([*corpus, *({"title": t, "text": x} for t, x in extra.items())])
    scorer = Relatedness([corpus[-1]["text"]], [], "en", subject="inflation", space=search.space())
    scores = [scorer.score(f"{t} {x}") for t, x in extra.items()]
    assert min(scores) >= planner.KIND_FLOOR  # both above the sense floor: only the density tells them apart
    monkeypatch.setattr(relevance, "SEMANTIC_THRESHOLD", max(scores) + 0.01)
    monkeypatch.setattr(planner, "LOOSE_RELATEDNESS", 0.0)  # no passing-mention rule: the density rule alone
    themes, _, _ = gather_themes(read_request("Inflation"), search, 60, "en")
    assert "Milton Friedman" in themes
    assert "Weimar" not in themes
    monkeypatch.setattr(planner, "DENSE_SENTENCES", 3)
    themes, _, _ = gather_themes(read_request("Inflation"), search, 60, "en")
    assert "Milton Friedman" not in themes  # two sentences of three: under three


def test_a_candidate_naming_a_subject_of_two_words_only_by_its_head_noun_is_no_theme(corpus, monkeypatch):
    """*Nicolaus Otto*, *Steam locomotive* and *Filling station* wrote "engine" and never "jet": off a report on
    the jet engine, as *Ironing*'s "permanent press" is off one on the printing press (``planner.by_head_only``).
    A text the subject's own article speaks of stays (``planner.spoken_of``)."""
    extra = {
        "Price inflation": "Price inflation is a rise of prices of goods and services: money buys fewer goods, "
                           "central banks raise interest rates and savings lose value in the economy.",
        "Wage spiral": "A wage spiral is a rise of wages with inflation: money buys fewer goods and services, "
                       "central banks raise interest rates and wages lag in the economy.",
        "Price index": "A price index measures price inflation: prices of goods and services, money and wages.",
    }
    def _themes_first(extra: dict[str, str], corpus: list[dict[str, str]]) -> list[str]:  # found before the rest
        docs = [*({"title": title, "text": text} for title, text in extra.items()), *corpus]
        return gather_themes(read_request("Price inflation"), SpaceSearch(docs), 300, "en")[0]

    themes = _themes_first(extra, corpus)
    assert "Price index" in themes and "Wage spiral" not in themes
    spoken = {**extra, "Price inflation": extra["Price inflation"] + " Each wage spiral feeds it."}
    assert "Wage spiral" in _themes_first(spoken, corpus)
    monkeypatch.setattr(planner, "by_head_only", lambda *args: False)
    assert "Wage spiral" in _themes_first(extra, corpus)


def test_what_a_thing_is_taken_as_is_no_word_the_core_speaks_of_it_by():
    """*Chicken as food* had been a section of "Cuisine of Japan", "Cuisine of Mexico" and "Chinese food": it writes
    "cuisines" and never "Japanese", and the Japanese cuisine article's "traditional foods of Japan" spoke of its
    title's "food". The role a title takes its thing in is no word of the thing; a word of the thing still is."""
    request = read_request("Japanese cuisine")
    core = "Japanese cuisine encompasses the regional and traditional foods of Japan, based on rice and fish."
    assert not planner.spoken_of("Chicken as food", core, request, "en")
    assert planner.spoken_of("Fish as food", core, request, "en")
    assert planner.spoken_of("Electricity generation", "Solar power is the conversion of sunlight into "
                             "electricity.", read_request("Solar power"), "en")


def test_a_title_opening_on_the_subjects_lower_case_word_and_capitalised_after_is_a_name():
    """"Solar System" had a section in a report on solar power: the subject's article writes "solar" in lower
    case, and the title capitalises a later word (titles are in sentence case)."""
    from reportgen.agents.ranking import a_name, common_terms, terms

    common = common_terms("Solar power is the conversion of sunlight into electricity, or of concentrated solar power.")
    keywords = terms("Solar power", "en")
    assert a_name("Solar System", keywords, common)
    assert not a_name("Solar cell", keywords, common) and not a_name("Solar power", keywords, common)


def test_a_theme_repeats_another_unless_both_are_kinds_of_one_thing():
    """ "Renewable energy" is no repeat of "Solar energy" in a report on solar power: two kinds of energy.
    "Solar energy" and "Solar power" stay one theme in a report on renewable energy, and so do "Hydropower" and
    "Hydroelectricity"."""
    def doc(title: str, score: float) -> Passage:
        return Passage(source_id=f"wiki:{title}", title=title, url=f"https://example.org/{title}",
                       text=f"{title} and solar power.", corpus="wiki", score=score)

    found = [doc("Solar power", 9), doc("Solar energy", 8), doc("Renewable energy", 7), doc("Solar cell", 6)]
    own, themes = planner.choose_themes("Solar power", found, 5, "en")
    assert own is not None and own.title == "Solar power"
    assert [t.title for t in themes] == ["Solar energy", "Renewable energy", "Solar cell"]
    _, themes = planner.choose_themes("Energy", [doc("Hydropower", 9), doc("Hydroelectricity", 8)], 5, "en")
    assert [t.title for t in themes] == ["Hydropower"]
    _, themes = planner.choose_themes("Renewable energy", [doc("Solar energy", 9), doc("Solar power", 8)], 5, "en")
    assert [t.title for t in themes] == ["Solar energy"]


def test_a_text_naming_the_subject_densely_in_the_words_other_sense_is_no_theme(monkeypatch):
    """*Cricket* writes "bat" in half its sentences, in the bat-and-ball sense: no section of a report on bats.
    Here a text on the early universe names inflation in every sentence, 0.15 to the Inflation article."""
    rng = random.Random(3)
    sentences = [" ".join(rng.choice(COSMOS) for _ in range(7)) + f" {rng.choice(ECONOMY)} inflation"
                 for _ in range(6)]
    dense = {"title": "Dense", "text": ". ".join(s.capitalize() for s in sentences) + "."}
    search = SpaceSearch([*_corpus(), dense])
    request = read_request("Inflation", "en")
    scorer = Relatedness([_corpus()[-1]["text"]], [], "en", subject="inflation", space=search.space())
    assert planner.KIND_FLOOR <= scorer.score(f"Dense {dense['text']}") < SEMANTIC_THRESHOLD
    assert planner.names_densely(dense["text"], request, "en")
    themes, _, _ = gather_themes(request, search, 100, "en")
    assert "Dense" not in themes and themes
    monkeypatch.setattr(planner, "of_other_sense", lambda texts, *args: [False] * len(texts))
    assert "Dense" in gather_themes(request, search, 100, "en")[0]  # the other sense is what keeps it out


GEOLOGY = ("lava magma eruption ash crater rock mountain cone basalt gases crust plates island ridge summit "
           "pressure heat flow").split()


def test_a_text_naming_the_subject_only_by_a_word_made_from_it_is_found_and_kept(monkeypatch):
    """*Tuff* writes "volcanic ash" and never "volcano": the search for the subject never finds it, but the
    Volcano article writes "volcanic", so the search for that word does, and the text is on the subject."""
    rng = random.Random(13)
    docs = []
    for sense, words in (("Rock", GEOLOGY), ("Economy", ECONOMY)):
        for i in range(120):
            body = " ".join(rng.choice(words) for _ in range(40))
            docs.append({"title": f"{sense} {i}", "text": body + (" volcano." if sense == "Rock" and i % 3 == 0
                                                                 else ".")})
    docs.append({"title": "Volcano", "text": "A volcano is a rupture in the crust where lava, volcanic ash and "
                 "gases escape. Volcanic eruptions build a cone of basalt rock around the crater."})
    tuff = ". ".join(" ".join(rng.choice(GEOLOGY) for _ in range(7)).capitalize() + " volcanic ash"
                     for _ in range(5))
    docs.append({"title": "Tuff", "text": f"{tuff}."})
    economic = ". ".join(" ".join(rng.choice(ECONOMY) for _ in range(7)).capitalize() + " volcanically"
                         for _ in range(5))
    docs.append({"title": "Markets", "text": f"{economic}."})  # made from it, but of no sense of the core
    search = SpaceSearch(docs)
    request = read_request("Volcanoes", "en")
    core = [p for p in search.search("Volcano", k=5) if p.title == "Volcano"]
    assert planner.derived_forms(request.subject, core, "en") == {"volcanic"}
    assert "Tuff" not in [p.title for p in search.search("Volcano", k=200)]
    themes, _, _ = gather_themes(request, search, 100, "en")
    assert "Tuff" in themes and "Markets" not in themes
    monkeypatch.setattr(planner, "DERIVED_SEARCHED", 0)  # without the search of the derived word it is lost
    assert "Tuff" not in gather_themes(request, search, 100, "en")[0]


#: The own article of "Peso inflation", a subject of two words in the economy's vocabulary.
PESO_INFLATION = {"title": "Peso inflation", "text": "Peso inflation is a rise of prices in the peso economy: money "
                  "buys fewer goods and services, and central banks raise interest rates."}


def _economy_text(rng: random.Random, ending: str) -> str:
    """Five sentences of the economy's words, each closing on ``ending``: a candidate near the peso's article."""
    return ". ".join(" ".join(rng.choice(ECONOMY) for _ in range(9)).capitalize() + ending for _ in range(5)) + "."


def test_a_candidate_naming_a_subject_of_two_words_only_by_its_other_word_as_a_noun_is_no_theme(monkeypatch):
    """ "Wind turbines": *Solar wind* is a wind and *Machine* writes "powered by wind"; neither writes
    "turbine" nor "wind" before a noun. Here "peso inflation": *Peso coin* writes "peso" only as a noun and
    *Mexican peso* is headed by it, so both are out; *Peso bond*'s "peso markets" keeps it. Its own name does not
    count: *Coral snake*, whose text writes "coral" only in "coral snakes", had been a section of a report on coral
    reefs, and *Peso note*, writing only "peso notes", is out too."""
    rng = random.Random(17)

    text = partial(_economy_text, rng)

    extra = [
        PESO_INFLATION,
        {"title": "Peso bond", "text": text(" and peso bonds pay interest in peso markets")},
        {"title": "Peso note", "text": text(" and peso notes pay interest")},
        {"title": "Peso coin", "text": text(", worth one peso")},
        {"title": "Mexican peso", "text": text(" in the peso")},
    ]
    search = SpaceSearch([*_corpus(), *extra])
    request = read_request("Peso inflation", "en")
    themes, core, _ = gather_themes(request, search, 100, "en")
    assert [p.title for p in core] == ["Peso inflation"]
    assert "Peso bond" in themes
    assert "Peso coin" not in themes and "Mexican peso" not in themes and "Peso note" not in themes
    monkeypatch.setattr(planner, "by_modifier_alone", lambda *args, **kwargs: False)  # the rule leaves them out
    assert {"Peso coin", "Mexican peso", "Peso note"} <= set(gather_themes(request, search, 100, "en")[0])


def test_a_candidate_holding_both_words_of_a_subject_only_in_other_compounds_is_no_theme(monkeypatch):
    """*Dark humor* writes "dark comedy" and "subject matter" in every sentence, never "dark matter", and had been
    a section of "What is dark matter?". Here *Peso coin* writes "peso coins" and "market inflation" only; *Peso
    bond* writes "peso inflation" once and stays."""
    rng = random.Random(23)

    text = partial(_economy_text, rng)

    extra = [
        PESO_INFLATION,
        {"title": "Peso coin", "text": text(" while peso coins lose value to market inflation")},
        {"title": "Peso bond", "text": text(" while peso bonds lose value to market inflation") + " Peso inflation."},
    ]
    search = SpaceSearch([*_corpus(), *extra])
    request = read_request("Peso inflation", "en")
    themes = gather_themes(request, search, 100, "en")[0]
    assert "Peso bond" in themes and "Peso coin" not in themes
    monkeypatch.setattr(planner, "by_words_apart", lambda *args, **kwargs: False)  # the rule leaves it out
    assert "Peso coin" in gather_themes(request, search, 100, "en")[0]


@pytest.mark.parametrize(("subject", "lang", "text", "expected"), [
    ("Dark matter", "en", "Dark humor. Dark comedy makes light of subject matter.", True),
    ("Dark matter", "en", "Dark energy and ordinary matter fill the universe.", False),  # compounds its core writes
    ("Heat pump", "en", "Pumps move heat from a cold place.", False),  # a word written alone
    ("Dark matter", "en", "Galaxies hold dark matter and dark gas.", False),  # the subject written
    # English only: a French adjective after its noun describes it ("l'énergie principale" of the H-bomb)
    ("Énergie nucléaire", "fr", "La bombe H est une bombe nucléaire dont l'énergie principale provient de la fusion.",
     False),
])
def test_both_words_of_a_subject_each_in_another_compound(subject, lang, text, expected):
    core = [Passage(source_id="wiki:own", title=subject, url="https://example.org/own", corpus="wiki",
                    text=f"{subject} is in galaxies. Dark energy and ordinary matter are not. Énergie noire.")]
    core_text = " ".join(f"{p.title}. {p.text}" for p in core)
    assert planner.by_words_apart(text, read_request(subject, lang), core, core_text, lang) is expected


@pytest.mark.parametrize(("subject", "lang", "text", "title", "expected"), [
    ("Wind turbine", "en", "Mills and pumps were powered by wind. Sails caught the wind.", "Machine", True),
    ("Wind turbine", "en", "Wind farms and wind-driven pumps.", "Farm", False),  # "wind" before a noun
    ("Wind turbine", "en", "A stream of charged particles from the Sun: wind farms of plasma.", "Solar wind", True),
    ("Wind turbine", "en", "A turbine turns in the wind.", "Turbine", False),  # the head noun is written
    # its own name does not count: *Coral snake* had been a section of a report on coral reefs
    ("Coral reef", "en", "Old World coral snakes are elapid snakes.", "Coral snake", True),
    ("Solar power", "en", "Solar cells are the building blocks of solar panels.", "Solar cell", False),
    ("Énergie solaire", "fr", "Le panneau solaire produit du courant.", "Panneau", False),  # after its noun
    ("Énergie solaire", "fr", "Le rayonnement est solaire.", "Rayonnement", True),
])
def test_the_other_words_of_a_subject_written_alone_or_as_a_modifier(subject, lang, text, title, expected):
    core = [Passage(source_id="wiki:own", title=subject, url="https://example.org/own", corpus="wiki",
                    text=f"{subject}.")]
    request = read_request(subject, lang)
    assert planner.by_modifier_alone(text, request, core, lang, title, own_name=True) is expected


@pytest.mark.parametrize(("text", "subject", "lang", "expected"), [
    ("The incident was one of the key events that led to World War I.", "World War I", "en", True),
    ("The oil shock triggered a decade of high inflation.", "inflation", "en", True),
    ("Inflation led to unrest.", "inflation", "en", False),  # the subject is the cause here, not the effect
    ("It led to a long war, and later to World War I.", "World War I", "en", False),  # too far after the marker
    ("L'attentat de Sarajevo a déclenché la Première Guerre mondiale.", "Première Guerre mondiale", "fr", True),
    ("La crisis del petróleo provocó la inflación.", "inflación", "es", True),
])
def test_a_text_saying_it_led_to_the_subject(text, subject, lang, expected):
    request = read_request(subject, lang)
    assert planner.causes_it(text, request, lang) is expected


def test_a_text_saying_it_led_to_the_subject_answers_why(monkeypatch):
    """ "World War I causes": the war's article names no cause, *Assassination of Archduke Franz Ferdinand*
    says it led to the war; such a text leads the themes of a request that asks why."""
    rng = random.Random(19)
    shock = ". ".join(" ".join(rng.choice(ECONOMY) for _ in range(9)).capitalize() for _ in range(3))
    shock += ". The oil shock of that year led to a decade of high inflation."
    search = SpaceSearch([*_corpus(), {"title": "Oil shock", "text": shock}])
    request = read_request("What causes inflation?", "en")
    themes, _, _ = gather_themes(request, search, 5, "en")
    assert themes[0] == "Oil shock"
    monkeypatch.setattr(planner, "causes_it", lambda *args: False)
    assert gather_themes(request, search, 5, "en")[0][0] != "Oil shock"


@pytest.mark.parametrize(("text", "kind"), [
    ("Kyoto, officially Kyoto City, is the capital city of Kyoto Prefecture in Japan.", "city"),
    ("Fukuoka is a designated city in the Kyushu region of Japan.", "city"),  # an adjective in -ed stays
    ("Tea is an aromatic beverage prepared by pouring hot water over leaves.", "beverage"),  # a participle ends it
    ("Mercury is the first planet from the Sun.", "planet"),
    ("The tiger is a member of the genus Panthera.", ""),  # a generic word names no kind
    ("Inflation is a rise of prices.", ""),
    ("No copula here.", ""),
])
def test_the_kind_a_first_sentence_defines_its_subject_as(text, kind):
    assert planner.defined_kind(text, "en") == kind


def test_another_thing_of_the_subjects_kind_naming_it_once_is_no_theme():
    """ "Kyoto": *Fukuoka*, a city that names Kyoto once as a far-off political centre, is off the subject; *Kobe*,
    which names it in two sentences, is not."""
    core = [Passage(source_id="wiki:Kyoto", title="Kyoto", url="https://example.org/Kyoto", corpus="wiki",
                    text="Kyoto is the capital city of Kyoto Prefecture in Japan. It has many temples.")]
    request = read_request("Kyoto", "en")
    fukuoka = ("Fukuoka is a designated city in the Kyushu region of Japan. The city is built along Hakata Bay. "
               "It rose far from the political centres of Kyoto and Edo. It is a port.")
    kobe = ("Kobe is the capital city of Hyogo Prefecture. It lies west of Osaka and of Kyoto. Kobe and Kyoto "
            "share a metropolitan area.")
    temple = "Kinkaku-ji is a Zen temple in northern Kyoto. It was a villa."
    assert planner.passing_sibling(fukuoka, "Fukuoka", request, core, "en")
    assert not planner.passing_sibling(kobe, "Kobe", request, core, "en")  # names the subject twice
    assert not planner.passing_sibling(temple, "Kinkaku-ji", request, core, "en")  # another kind
    assert not planner.passing_sibling(fukuoka, "Fukuoka", read_request("Kyoto and Osaka", "en"), core, "en")


def test_a_sibling_naming_the_subject_once_is_left_out_of_the_themes(monkeypatch):
    rng = random.Random(23)
    body = ". ".join(" ".join(rng.choice(ECONOMY) for _ in range(9)).capitalize() for _ in range(4))
    sibling = {"title": "Unemployment", "text": f"Unemployment is an economic indicator of idle labour. {body}. It "
                                                "follows inflation in some years."}
    docs = _corpus()
    docs[-1] = {"title": "Inflation", "text": "Inflation is an economic indicator of rising prices: money buys "
                "fewer goods and services; central banks raise interest rates and wages lag behind prices."}
    search = SpaceSearch([*docs, sibling])
    request = read_request("Inflation", "en")
    assert planner.defined_kind(docs[-1]["text"], "en") == planner.defined_kind(sibling["text"], "en") == "indicator"
    assert "Unemployment" not in gather_themes(request, search, 100, "en")[0]
    monkeypatch.setattr(planner, "passing_sibling", lambda *args: False)  # the rule is what leaves it out
    assert "Unemployment" in gather_themes(request, search, 100, "en")[0]


def test_the_overview_judges_other_senses_among_the_wider_search(tmp_path):
    """A passage of the word's other sense that is the lone one of its sense among the few the overview found
    is judged among the planner's wider search (*Pipe organ* among eight passages on the body's organ)."""
    from reportgen.acp import MessageLog
    from reportgen.agents.browser import keep_to_sense
    from reportgen.agents.runtime import RunContext

    rng = random.Random(5)  # the early universe's words, with a sixth of the prices' words: related, not of them
    mixed = {"title": "Mixed", "text": " ".join(rng.choice(COSMOS) for _ in range(24)) + " "
             + " ".join(rng.choice(ECONOMY) for _ in range(16)) + " inflation."}
    corpus = [*_corpus(), mixed]

    class Failing(SpaceSearch):  # the wider search fails: the found passages are judged among themselves
        def search(self, query: str, k: int = 10) -> list[Passage]:
            if k >= planner.PLAN_SEARCH_K:
                raise SourceError("search engine down")
            return super().search(query, k)

    found = [Passage(source_id=d["title"], title=d["title"], url="u", corpus="c", text=d["text"])
             for d in corpus if d["title"] in ("Inflation", "Economy 0", "Economy 3", "Economy 6", "Mixed")]
    search = SpaceSearch(corpus)
    scorer = Relatedness([corpus[-2]["text"]], [], "en", subject="inflation", space=search.space())
    assert scorer.score(f"Mixed {mixed['text']}") >= scorer.threshold  # related to the core: only its sense tells
    kept = {}
    for name, backend in (("wide", search), ("failing", Failing(corpus))):
        ctx = RunContext(topic="Inflation", lang="en", search=backend, log=MessageLog(tmp_path / f"{name}.jsonl"))
        kept[name] = [p.title for p in keep_to_sense(found, ["Inflation"], ctx)]
    assert "Mixed" not in kept["wide"] and "Economy 0" in kept["wide"] and "Inflation" in kept["wide"]
    assert "Mixed" in kept["failing"]  # a lone text of its sense among the found, as before; nothing is lost


def test_a_misspelled_subject_no_passage_holds_is_read_as_the_title_it_is_near():
    """ "the life of charles darwn" had found no sources, offering other Charleses."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [*_corpus(), {"title": "Charles Darwin", "text": "Charles Darwin was a naturalist who proposed evolution "
                                                            "by natural selection."},
            {"title": "Charles Babbage", "text": "Charles Babbage designed a mechanical computer."}]
    search = SpaceSearch(docs)
    request = resolve_subject(read_request("the life of charles darwn", "en"), search, "en")
    assert request.subjects == ["Charles Darwin"] and request.named_as == {"charles darwn": "Charles Darwin"}
    assert request.title == "The life of charles darwn"  # titled as asked; the note at the top says what it read
    assert resolve_subject(read_request("Blockchain", "en"), search, "en").subjects == ["Blockchain"]  # near none


def test_a_misspelled_shorter_reading_is_read_as_its_title():
    """ "how to grow strawbery at home": the setting goes, and the misspelled word left is the title it is near;
    a question keeps its title ("What are the benefits of …?" had been titled by its part)."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [*_corpus(), {"title": "Strawberry", "text": "The strawberry is a fruit grown in gardens and fields."}]
    request = resolve_subject(read_request("how to grow strawbery at home", "en"), SpaceSearch(docs), "en")
    assert request.subjects == ["Strawberry"] and request.named_as == {"strawbery": "Strawberry"}
    assert "home" in request.aspects and request.title == "How to grow strawbery at home"


def test_a_subject_of_words_the_corpus_writes_is_no_misspelling():
    """ "Electric cars vs petrol cars" had been read as *Electric charge* vs petrol cars: "electric cars" is as
    near that title as a typo, but both its words are the corpus's own."""
    docs = [*_corpus(), *[{"title": f"Guitar {i}", "text": f"The electric guitar is loud {i}."} for i in range(3)],
            *[{"title": f"Road {i}", "text": f"Petrol cars drive on the road {i}."} for i in range(3)],
            {"title": "Electric charge", "text": "Electric charge is the property of matter in an electric field."}]
    request = resolve_subject(read_request("Electric cars vs petrol cars", "en"), SpaceSearch(docs), "en")
    assert "Electric charge" not in request.subjects and request.named_as == {}


def test_a_kind_named_by_common_words_and_a_number_is_read_through_its_heads_article():
    """ "Type 2 diabetes" had found no sources (one passage writes it) and, asked with its causes, had drawn
    *Bruise* ("a type of hematoma … the most common cause") and *Respiratory failure* ("Type 1 or Type 2"):
    "Type 2" qualifies the diabetes, a common word and a number (`_qualified_article`), and neither names the
    subject beside an aspect."""
    docs = [*_corpus(), *[{"title": f"Kind {i}", "text": f"A type of thing numbered {i}."} for i in range(60)],
            {"title": "Diabetes", "text": "Diabetes is a group of endocrine diseases with high blood sugar. Diabetes "
                                          "follows a lack of insulin."},
            {"title": "Obesity", "text": "Obesity is excess body fat. Obesity is correlated with type 2 diabetes."},
            {"title": "Bruise", "text": "A bruise is a type of hematoma, the most common cause being trauma to "
                                        "capillaries; its prevention is care."}]
    search = SpaceSearch(docs)
    for text in ("Type 2 diabetes", "Type 2 diabetes: causes and prevention"):
        request = resolve_subject(read_request(text, "en"), search, "en")
        themes, core, _ = gather_themes(request, search, 4, "en")
        assert [p.title for p in core] == ["Diabetes"], text
        assert "Bruise" not in themes, text


def test_a_proper_name_takes_what_its_own_article_names_by_title():
    """ "The Great Wall of China", which three articles write, had had one section, *Dzungar Khanate*: its
    article names the Ming dynasty, whose article does not write the wall's name. A proper name's candidates
    are the texts writing it, and those its own article names by title."""
    wall = {"title": "Great Wall of China", "text": "The Great Wall of China is a series of fortifications in China "
            "against nomads. The best-known sections of the Great Wall of China were built by the Ming dynasty."}
    ming = {"title": "Ming dynasty", "text": "The Ming dynasty ruled China from 1368 to 1644; Ming China built "
            "fortifications against nomads and rebuilt walls."}
    search = SpaceSearch([*_corpus(), wall, ming, {"title": "Dzungar Khanate", "text": "The Dzungar Khanate lay "
                          "beyond the Great Wall of China, a realm of nomads."}])
    request = resolve_subject(read_request("The Great Wall of China", "en"), search, "en")
    themes, _, _ = gather_themes(request, search, 3, "en")
    assert "Ming dynasty" in themes, themes


def test_a_subject_without_an_article_has_sections_on_its_core_texts_titled_by_its_words():
    """ "Honeybees" had sections on *Compound eye*, *Honeyguide* and *Mite* while its core texts *Bee* and
    *Honey*, titled by its words, were left out as broader than the subject (the rule that keeps *Energy* out of
    "Renewable energy", which has an article of its own)."""
    docs = [*_corpus(),
            {"title": "Bee", "text": "Bees are winged insects; honey bees are the best-known bees, and honey bees "
                                     "make honey in hives."},
            {"title": "Honey", "text": "Honey is made by honey bees from nectar; honey bees store honey in hives."},
            {"title": "Western honey bee", "text": "The western honey bee is the most common of the honey bees; "
                                                   "honey bees live in hives."},
            {"title": "Mite", "text": "Mites are small arachnids; some mites live in hives of honey bees."}]
    search = SpaceSearch(docs)
    request = resolve_subject(read_request("Honey bees", "en"), search, "en")
    themes, core, _ = gather_themes(request, search, 3, "en")
    assert {"Bee", "Honey"} <= set(themes), themes


def test_a_number_is_no_thing_a_common_word_qualifies():
    """"World War 1" had become a report on *1* (the number): "World War" is two common words, and what they
    qualify was taken to be the article titled "1"."""
    from reportgen.blueprint.planner import _qualified_article

    docs = [*_corpus(), *[{"title": f"Battle {i}", "text": f"A war in the world, numbered {i}."} for i in range(60)],
            {"title": "1", "text": "1 is a number, numeral, and grapheme."}]
    search = SpaceSearch(docs)
    assert _qualified_article("World War 1", search, "en", search.space()) == []


REVOLUTION = [
    {"title": "French Revolution", "text": "The French Revolution was a period of political and societal change in "
     "France. The French Revolution abolished the monarchy; the revolution executed the king and spread liberty."},
    {"title": "Georges Danton", "text": "Georges Danton was a leading figure of the French Revolution. Danton led "
     "the revolution and the Paris clubs; the revolution guillotined Danton."},
    {"title": "Jean-Paul Marat", "text": "Jean-Paul Marat was a journalist of the French Revolution. Marat wrote for "
     "the revolution and the Paris clubs; the revolution mourned Marat."},
    {"title": "History of sociology", "text": "The history of sociology begins after the French Revolution. In "
     "history, sociology studied society; the history of sociology is a history of society."},
    {"title": "Modern era", "text": "The modern era of history includes the French Revolution. History divides the "
     "modern era; in history, the era follows the middle ages."},
]


def test_a_history_is_not_led_by_the_history_of_another_thing_nor_by_texts_writing_history():
    """"History of the French Revolution" had been led by *History of sociology* (an answer titled by its aspect
    "history", of another thing) and its other sections were eras that write "history" (the aspect's score),
    before Danton and Marat. The aspect of another thing answers nothing (`_titled_after`), and a history's word
    scores no text (its sections come in time order)."""
    docs = [*_corpus(), *REVOLUTION]
    search = SpaceSearch(docs)
    request = resolve_subject(read_request("History of the French Revolution"), search, "en")
    assert request.subjects == ["French Revolution"] and request.aspects == ["history"]
    themes, _, _ = gather_themes(request, search, 2, "en")
    assert sorted(themes) == ["Georges Danton", "Jean-Paul Marat"], themes


def _resolved(search: SpaceSearch, *texts: str) -> dict[str, Any]:
    """Each English request as the planner resolves it over ``search``."""
    return {text: resolve_subject(read_request(text, "en"), search, "en") for text in texts}


def test_a_questions_subject_the_corpus_writes_whole_is_no_subject_and_its_verb():
    """ "How does the stock market work?" had been read as *Stock* asked of its market, and the report drew
    *High-speed rail* (its rolling stock): two passages write "stock market" and *Stock* does not, so the whole
    phrase is the subject. A shorter reading stays the subject when its own article writes the phrase ("nuclear
    power plants" in *Nuclear power*), or when no passage writes the whole ("immune system fight")."""
    docs = [*_corpus(),
            {"title": "Stock", "text": "Stock is the equity of a corporation, divided into shares."},
            {"title": "Stock exchange", "text": "A stock exchange is where traders buy and sell shares; the stock "
                                                "market of a country meets there."},
            {"title": "Wall Street crash", "text": "The Wall Street crash of 1929 was a fall of the stock market."},
            {"title": "Rolling stock", "text": "Rolling stock is the railway vehicles of a line."},
            {"title": "Nuclear power", "text": "Nuclear power is the use of nuclear reactions to make electricity; "
                                               "nuclear power plants run reactors."},
            {"title": "Chernobyl disaster", "text": "The Chernobyl disaster struck one of the nuclear power plants "
                                                    "of Ukraine."},
            {"title": "Immune system", "text": "The immune system protects the body; its cells fight viruses."}]
    search = SpaceSearch(docs)
    read = {text: r.subjects for text, r in _resolved(search, "How does the stock market work?",
                                                     "How do nuclear power plants work?",
                                                     "How does the immune system fight viruses?").items()}
    assert read == {"How does the stock market work?": ["stock market"],
                    "How do nuclear power plants work?": ["nuclear power"],
                    "How does the immune system fight viruses?": ["immune system"]}, read


def test_a_single_word_a_subject_bears_on_is_its_aspect_when_no_article_is_titled_by_it():
    """ "Effects of caffeine on the body" had been two subjects, and "body", no article's title, drew
    *Black-body radiation* and *Body piercing* beside *Caffeine*. A word an article is titled by stays a
    subject ("… on democracy"), and so does a phrase (the article of a part of it stands for it)."""
    docs = [*_corpus(),
            {"title": "Caffeine", "text": "Caffeine is a stimulant; caffeine acts on the nervous system of the body."},
            {"title": "Black-body radiation", "text": "Black-body radiation is emitted by a black body in heat."},
            {"title": "Body piercing", "text": "Body piercing makes an opening in the body for jewellery."},
            {"title": "Social media", "text": "Social media are platforms where people share content."},
            {"title": "Democracy", "text": "Democracy is a form of government where people vote."}]
    search = SpaceSearch(docs)
    request = resolve_subject(read_request("Effects of caffeine on the body", "en"), search, "en")
    assert request.subjects == ["caffeine"] and request.aspects[0] == "body", request
    assert request.title == "Effects of caffeine on the body"
    request = resolve_subject(read_request("The impact of social media on democracy", "en"), search, "en")
    assert request.subjects == ["social media", "democracy"], request
    request = resolve_subject(read_request("How does climate change affect coffee production?", "en"), search, "en")
    assert request.subjects == ["climate change", "coffee production"], request


def test_a_subject_no_passage_writes_is_what_its_common_qualifier_qualifies_when_passages_write_that():
    """ "Ancient Egyptian pyramids" had found no sources: no passage writes it, "ancient" is a common word, and
    two passages write "Egyptian pyramids" (no article is titled so). The report keeps the title asked and says
    at the top that no text is on the subject as such."""
    docs = [*_corpus(), *[{"title": f"Relic {i}", "text": f"An ancient relic numbered {i}."} for i in range(60)],
            {"title": "Great Pyramid of Giza", "text": "The Great Pyramid of Giza is the largest of the Egyptian "
                                                      "pyramids, built for the pharaoh Khufu."},
            {"title": "Old Kingdom of Egypt", "text": "The Old Kingdom of Egypt built the Egyptian pyramids at "
                                                     "Giza and Saqqara."},
            {"title": "Pharaoh", "text": "A pharaoh ruled ancient Egypt."}]
    search = SpaceSearch(docs)
    request = resolve_subject(read_request("Ancient Egyptian pyramids", "en"), search, "en")
    assert request.subjects == ["Egyptian pyramids"], request
    assert request.title == "Ancient Egyptian pyramids" and request.asked == "Ancient Egyptian pyramids"
    themes, core, _ = gather_themes(request, search, 3, "en")
    assert "Great Pyramid of Giza" in themes + [p.title for p in core], themes
    assert "Pharaoh" not in themes  # a passage writing the words apart is no core text of the subject


def test_an_aspect_of_a_thing_no_article_is_titled_by_is_the_thing_with_that_aspect():
    """ "The life cycle of a butterfly" had found no sources. A phrase the corpus writes stays whole ("the kings
    of France"), and so does a name typed with its capital ("Bank of America": a report on America would be on
    something else). French elides "de" before a vowel ("volcans d'Islande")."""
    docs = [*_corpus(),
            {"title": "Butterfly", "text": "Butterflies are winged insects; a butterfly hatches from a pupa."},
            {"title": "France", "text": "France is a country in Europe, once ruled by the kings of France."},
            {"title": "Louis XIV", "text": "Louis XIV was the longest reigning of the kings of France."},
            {"title": "America", "text": "America is a landmass of two continents."},
            {"title": "India", "text": "India is a country in South Asia."},
            {"title": "Architecture of India", "text": "Architecture in India is part of its culture, rooted in "
                                                       "India's history; India's temples are its culture in stone."},
            {"title": "Rabindranath Tagore", "text": "Tagore reshaped the culture and music of India; in India his "
                                                     "songs are culture."}]
    search = SpaceSearch(docs)
    asked = ("The life cycle of a butterfly", "The kings of France", "Bank of America", "the culture of India")
    read = {text: (r.subjects, r.aspects, r.title) for text, r in _resolved(search, *asked).items()}
    # held as asked, by texts dense in both words: read as *India*, a reader found its report on India's neighbours
    assert read["the culture of India"][0] == ["culture of India"], read
    assert read["The life cycle of a butterfly"] == (["Butterfly"], ["life cycle"], "life cycle of a butterfly")
    assert read["The kings of France"][0] == ["kings of France"], read
    assert read["Bank of America"][0] == ["Bank of America"], read
    # the French elided "d'" gives way to whose it is as "de" does: "Les volcans d'Islande" had found no sources
    docs.append({"title": "Islande", "text": "L'Islande est une île de l'Atlantique Nord, aux nombreux volcans."})
    iceland = resolve_subject(read_request("Les volcans d'Islande", "fr"), SpaceSearch(docs), "fr")
    assert (iceland.subjects, iceland.aspects) == (["Islande"], ["volcans"]), iceland


def test_an_aspect_capitalised_only_as_the_requests_first_word_is_still_an_aspect():
    """ "Economy of Japan", "Climate of India", "Music of Brazil" and "Food of Mexico" had found no sources while
    "the economy of Japan" was read: the first word's capital is the sentence's, not a name's
    (``planner._sentence_case``). Such a word is an aspect where it names one (``aspect_noun``) or where the
    thing's article writes it in small letters; a name stays whole: "Bank of America" (*America* writes no
    "bank"), "Siege of Leningrad", "Prince of Wales" (*Wales* writes "Prince of Wales" with its capital). A
    place's adjective holds the aspect as before ("Music of Brazil": *Brazilian music*), its kin title too
    (:func:`test_a_subject_no_article_is_titled_by_is_read_as_its_kins_title`)."""
    docs = [*_corpus(),
            {"title": "Japan", "text": "Japan is an island country in East Asia; its economy is large."},
            {"title": "America", "text": "America is a landmass of two continents."},
            {"title": "Wales", "text": "Wales is a country of the United Kingdom; the Prince of Wales is its title."},
            {"title": "Madagascar", "text": "Madagascar is an island off Africa; its flora is unique."},
            {"title": "Baobab", "text": "The baobab is a tree of the flora of Africa and Australia."},
            {"title": "Brazil", "text": "Brazil is the largest country in South America. Brazilian cities are large."},
            {"title": "Bossa nova", "text": "Bossa nova is a style of Brazilian music from Rio. Bossa nova made "
                                            "Brazilian music known abroad."},
            {"title": "Samba", "text": "Samba is a genre of Brazilian music with African roots."}]
    search = SpaceSearch(docs)
    asked = ("Economy of Japan", "Bank of America", "Siege of Leningrad", "Prince of Wales", "Flora of Madagascar",
             "Music of Brazil")
    read = {text: (r.subjects, r.aspects, r.title) for text, r in _resolved(search, *asked).items()}
    assert read["Economy of Japan"] == (["Japan"], ["economy"], "Economy of Japan"), read
    assert read["Flora of Madagascar"] == (["Madagascar"], ["flora"], "Flora of Madagascar"), read
    assert read["Music of Brazil"][0] == ["Brazilian music"], read
    for name in ("Bank of America", "Siege of Leningrad", "Prince of Wales"):
        assert read[name][0] == [name], read
    # the subject opens the request after the instruction it is read off
    assert _resolved(search, "Write a report on Economy of Japan")["Write a report on Economy of Japan"].subjects \
        == ["Japan"]


def test_a_thing_and_an_aspect_noun_is_the_thing_with_that_aspect_though_passages_write_it():
    """ "Tsunami causes" had found no sources: passages write "a tsunami causes …" (a verb), and the tsunami is no
    name its article capitalises, the two tests that keep "King penguin" a penguin. A noun that only names an
    aspect ("causes", "symptoms", "history") is one after any thing."""
    docs = [*_corpus(),
            {"title": "Tsunami", "text": "A tsunami is a series of waves in a body of water. A tsunami causes floods "
                                         "on coasts; an earthquake under the sea can start a tsunami."},
            {"title": "Flood", "text": "A flood is an overflow of water; a tsunami causes floods too."}]
    read = _resolved(SpaceSearch(docs), "Tsunami causes")["Tsunami causes"]
    assert (read.subjects, read.aspects) == (["Tsunami"], ["causes"]), read


def test_a_bracketed_sense_no_article_is_titled_by_is_the_names_article_nearest_it():
    """ "Cricket (sport)" had found no sources, the corpus titling the sport *Cricket* beside *Cricket (insect)*
    (``planner._bracketed_sense``): the sense is read in the topic space, "sport" nearest the game's article and
    "grasshopper" the insect's. The report is titled as asked and says which title it read."""
    docs = [*_corpus(),
            {"title": "Cricket", "text": "Cricket is a bat-and-ball game played by two teams on a pitch; a batsman "
                                         "scores runs against the bowler."},
            {"title": "Cricket (insect)", "text": "Crickets are insects related to grasshoppers; the male insect "
                                                  "chirps by rubbing its wings."},
            {"title": "Football", "text": "Football is a team sport: a game played by two teams who score goals; "
                                          "the sport has leagues and teams."},
            {"title": "Tennis", "text": "Tennis is a racket sport played by two players who score points in a "
                                        "game of sets."},
            {"title": "Beetle", "text": "Beetles are insects with hard wings; a beetle is a bug of the insect "
                                        "order Coleoptera."},
            {"title": "Grasshopper", "text": "Grasshoppers are insects that jump; the bug eats grass and chirps."},
            {"title": "Ant", "text": "Ants are insects living in colonies; the bug has six legs and wings."},
            {"title": "Aphid", "text": "Aphids are small insects; the bug sucks sap with its wings folded."}]
    search = SpaceSearch(docs)
    read = _resolved(search, "Cricket (sport)", "Cricket (grasshopper)")
    assert read["Cricket (sport)"].subjects == ["Cricket"], read["Cricket (sport)"]
    assert read["Cricket (sport)"].named_as == {"Cricket (sport)": "Cricket"}
    assert read["Cricket (grasshopper)"].subjects == ["Cricket (insect)"], read["Cricket (grasshopper)"]
    # a sense no article is near stays as asked (and finds no sources): "Jaguar (car)" is no cat
    assert _resolved(search, "Cricket (goals)")["Cricket (goals)"].subjects == ["Cricket (goals)"]


def test_an_aspect_of_a_place_is_read_with_the_places_adjective_where_the_corpus_writes_it():
    """ "music of Brazil" had been *Brazil* with the aspect "music": its sections were the cities nearest the
    country's article. The corpus writes "Brazilian music"; nothing writes "Brazilian economy", so "economy of
    Brazil" stays the country with its aspect. "cuisine of France" is the article titled *French cuisine*, an
    adjective no rule of letters tells, which names France; it had drawn *Philip II of France* and *Tour de
    France*."""
    docs = [*_corpus(),
            {"title": "Brazil", "text": "Brazil is the largest country in South America. Brazilian cities are large."},
            {"title": "Rio de Janeiro", "text": "Rio de Janeiro is a city of Brazil. Its port serves Brazil."},
            {"title": "São Paulo", "text": "São Paulo is the largest city of Brazil and its economic centre."},
            {"title": "Bossa nova", "text": "Bossa nova is a style of Brazilian music from Rio de Janeiro. Bossa nova "
                                            "blends samba and jazz; it made Brazilian music known abroad."},
            {"title": "Samba", "text": "Samba is a dance and a genre of Brazilian music with African roots. Samba "
                                       "is the best-known Brazilian music."},
            {"title": "Antônio Carlos Jobim", "text": "Jobim was a composer of Brazilian music. His songs made "
                                                      "Brazilian music popular."}]
    docs += [{"title": "France", "text": "France is a country of Western Europe. The French speak French."},
             {"title": "French cuisine", "text": "French cuisine is the cooking of France: bread, cheese and wine. "
                                                 "Its chefs trained in Paris."},
             {"title": "Philip II of France", "text": "Philip II of France was a king of France. The cuisine of his "
                                                      "court in France was rich in cuisine of game."},
             {"title": "Tour de France", "text": "The Tour de France is a race across France. Riders eat the "
                                                 "cuisine of each region of France."}]
    search = SpaceSearch(docs)
    read = _resolved(search, "music of Brazil", "economy of Brazil", "cuisine of France")
    assert read["cuisine of France"].subjects == ["French cuisine"], read["cuisine of France"]
    music = read["music of Brazil"]
    assert music.subjects == ["Brazilian music"] and music.title == "music of Brazil", music
    assert music.named_as == {"music of Brazil": "Brazilian music"}
    themes, _, _ = gather_themes(music, search, 3, "en")
    assert set(themes) <= {"Bossa nova", "Samba", "Antônio Carlos Jobim"} and themes, themes
    assert read["economy of Brazil"].subjects == ["Brazil"] and read["economy of Brazil"].aspects == ["economy"]


def test_an_aspect_asked_of_a_subject_is_its_article_where_that_writes_the_subjects_kind():
    """"Amazon rainforest: biodiversity, deforestation, indigenous peoples" had dropped all three aspects, its
    sections Peru, Manaus and the Spanish conquest of the Inca Empire, while *Deforestation* writes "areas of
    mature rainforest" (``planner._writes_its_kind``). A one-word subject is its own kind: *Climate* does not
    write the Sahara, and is no section of "Sahara: climate"."""
    docs = [*_corpus(),
            {"title": "Amazon rainforest", "text": "The Amazon rainforest is a moist broadleaf tropical rainforest "
                                                   "of the Amazon basin in Peru and Brazil."},
            {"title": "Peru", "text": "Peru is a country of South America; the Amazon rainforest covers its east."},
            {"title": "Manaus", "text": "Manaus is a city of Brazil in the Amazon rainforest on the Negro river."},
            {"title": "Deforestation", "text": "Deforestation is the removal of a forest or stand of trees. Much "
                                               "of it falls on areas of mature rainforest in the tropics."},
            {"title": "Sahara", "text": "The Sahara is a hot desert of North Africa with dunes and oases."},
            {"title": "Tuareg people", "text": "The Tuareg people live across the Sahara desert with camels."},
            {"title": "Climate", "text": "Climate is the long-term weather pattern of a region, averaged over "
                                         "thirty years of weather."}]
    search = SpaceSearch(docs)
    read = _resolved(search, "Amazon rainforest: biodiversity and deforestation", "Sahara: climate")
    amazon = read["Amazon rainforest: biodiversity and deforestation"]
    assert amazon.subjects == ["Amazon rainforest"] and "deforestation" in amazon.aspects, amazon
    themes, _, _ = gather_themes(amazon, search, 4, "en")
    assert "Deforestation" in themes, themes
    sahara = read["Sahara: climate"]
    themes, _, _ = gather_themes(sahara, search, 4, "en")
    assert "Climate" not in themes, themes


def test_a_thing_and_its_aspect_no_passage_writes_is_the_thing_with_that_aspect():
    """ "Antarctica climate" had found no sources, as "<aspect> of <thing>" had. A title holding the subject's
    words ("Exploration of Mars"), passages writing it ("electric vehicle") or a thing that is no name ("King
    penguin") keep the subject."""
    docs = [*_corpus(),
            {"title": "Antarctica", "text": "Antarctica is the southernmost continent, covered by an ice sheet."},
            {"title": "Mars", "text": "Mars is the fourth planet from the Sun."},
            {"title": "Exploration of Mars", "text": "Probes and rovers have studied the red planet since 1960."},
            {"title": "Electric car", "text": "An electric vehicle runs on batteries; electric vehicle sales grow."},
            {"title": "Charging station", "text": "A charging station powers an electric vehicle."}]
    search = SpaceSearch(docs)
    docs += [{"title": "King", "text": "A king is a male monarch; the king rules a kingdom."},
             {"title": "Penguin", "text": "Penguins are flightless seabirds of the Southern Hemisphere."},
             {"title": "Chess", "text": "Chess is a board game for two players."},
             {"title": "Leonardo da Vinci", "text": "Leonardo da Vinci was an Italian polymath; Leonardo painted "
                                                    "and drew machines."}]
    search = SpaceSearch(docs)
    texts = ("Antarctica climate", "Mars exploration", "electric vehicle", "King penguin", "Benefits of playing chess",
             "Leonardo da Vinci inventions")
    read = {text: (r.subjects, r.aspects) for text, r in _resolved(search, *texts).items()}
    assert read == {"Antarctica climate": (["Antarctica"], ["climate"]),
                    "Mars exploration": (["Mars exploration"], []),
                    "electric vehicle": (["electric vehicle"], []),
                    # a kind of penguin: *King* writes "king" in small letters, so it is no name with an aspect
                    "King penguin": (["King penguin"], []),
                    # a doing and what it is done to, as "How to play chess" is read (_done_to)
                    "Benefits of playing chess": (["Chess"], ["playing"]),
                    # a name of three words (had found no sources)
                    "Leonardo da Vinci inventions": (["Leonardo da Vinci"], ["inventions"])}, read


def test_a_long_subject_no_passage_holds_takes_its_most_specific_parts_article_before_its_aspect():
    """ "the global semiconductor supply chain and its geopolitical risks" had been planned on its aspect alone
    (*Nuclear weapon*, "global" and "risks"): of a subject of four words, the part with an article of its own
    that the fewest passages hold stands for it, as for one of two or three words."""
    docs = [*_corpus(),
            {"title": "Semiconductor", "text": "A semiconductor conducts electricity between a conductor and an "
                                               "insulator; silicon is the commonest semiconductor."},
            {"title": "Chain", "text": "A chain is a series of connected links."},
            *[{"title": f"Store {i}", "text": f"Store {i} keeps a global supply chain of goods and links."}
              for i in range(4)],
            {"title": "Nuclear weapon", "text": "Nuclear weapons pose global geopolitical risks."}]
    search = SpaceSearch(docs)
    request = resolve_subject(read_request("Write a detailed report on the global semiconductor supply chain and its "
                                           "geopolitical risks", "en"), search, "en")
    _, core, _ = gather_themes(request, search, 3, "en")
    assert [p.title for p in core] == ["Semiconductor"], [p.title for p in core]


def test_a_questions_common_word_is_no_qualifier_of_its_verb():
    """ "Can animals predict earthquakes?" had been read as a report on "predict": "animals" is a common word,
    and what a common qualifier qualifies is a phrase passages write, never one word, and a question's shorter
    readings are tried before it (`_unqualified`)."""
    docs = [*_corpus(), *[{"title": f"Herd {i}", "text": f"Animals graze in herd {i}."} for i in range(60)],
            {"title": "Animal", "text": "Animals are multicellular organisms."},
            {"title": "Forecast", "text": "Forecasters predict the weather; models predict storms."},
            {"title": "Oracle", "text": "Oracles were said to predict the future."}]
    request = resolve_subject(read_request("Can animals predict earthquakes?", "en"), SpaceSearch(docs), "en")
    assert "predict" not in request.subjects, request


#: Words of a corpus's cookery articles (:func:`test_a_subject_no_article_is_titled_by_is_read_as_its_kins_title`):
#: every one writes the first two, apart, so the topic space puts them together.
COOKERY = "food cuisine dish recipe cooking meal kitchen chef flavour spice sauce noodle".split()
#: Words of its road-transport articles, where "motor vehicle" is also written as a compound.
ROADS = "vehicle motor road truck engine traffic lorry highway wheel fuel".split()


def _kin_corpus(seed: int = 11) -> list[dict[str, str]]:
    """The corpus of :func:`_corpus`, with cookery and road articles."""
    rng = random.Random(seed)
    docs = [*_corpus()]
    for sense, words in (("Cookery", COOKERY), ("Roads", ROADS)):
        for i in range(60):
            body = [words[0], *(rng.choice(words[2:]) for _ in range(20)), words[1]]
            docs.append({"title": f"{sense} {i}", "text": " ".join(body) + "."})
    for i in range(3):
        docs.append({"title": f"Traffic law {i}", "text": "Every motor vehicle on a road needs a licence."})
    return docs + [
        {"title": "Italy", "text": "Italy is a country in southern Europe; Rome is its capital."},
        {"title": "Italian literature", "text": "Italian literature is written in Italian: Dante and Petrarch."},
        {"title": "Italian cuisine", "text": "Italian cuisine is the cooking of Italy: pasta, pizza, sauce, "
                                             "recipe and flavour, the food of Rome."},
        {"title": "Chinese cuisine", "text": "Chinese cuisine is the cooking of China: noodle, sauce and spice "
                                             "in every dish, a food of Beijing."},
        {"title": "Chinese Civil War", "text": "The Chinese Civil War was fought between Chinese nationalists and "
                                               "communists."},
        {"title": "Soy sauce", "text": "A Chinese food cooked in every kitchen: food of a meal, a dish, a "
                                       "recipe and flavour."},
        {"title": "Electric motor", "text": "An electric motor turns electric current into motion."},
        {"title": "Electric current", "text": "An electric current is a flow of charge."}]


def test_a_subject_no_article_is_titled_by_is_read_as_its_kins_title():
    """ "Chinese food" and "Italy food" had found no sources (or made a report on Italy) while the corpus holds
    *Chinese cuisine* and *Italian cuisine*: the same qualifier, or its people's adjective, and a word standing
    for the thing in the topic space. "electric vehicle" is no *Electric motor*: passages write "motor vehicle",
    and two names of one thing are not written side by side."""
    search = SpaceSearch(_kin_corpus())
    read = {text: (r.subjects, r.named_as, r.title) for text, r in
            _resolved(search, "Chinese food", "Italy food", "electric vehicle", "Italian poems").items()}
    assert read == {"Chinese food": (["Chinese cuisine"], {"Chinese food": "Chinese cuisine"}, "Chinese food"),
                    "Italy food": (["Italian cuisine"], {"Italy food": "Italian cuisine"}, "Italy food"),
                    "electric vehicle": (["electric vehicle"], {}, ""),
                    "Italian poems": (["Italian poems"], {}, "")}, read
    # "Food of China", "food of China": the place's adjective and its kin (had found no sources)
    search = SpaceSearch([*_kin_corpus(), {"title": "China", "text": "China is a country in East Asia. Chinese "
                                                                       "cities are large; Beijing is its capital."}])
    for text in ("Food of China", "food of China"):
        assert _resolved(search, text)[text].subjects == ["Chinese cuisine"], text


#: Words of a Spanish corpus's cookery articles: every one writes the first two, apart.
COCINA = "comida cocina plato receta guiso salsa especia sabor fideo arroz chef mesa".split()


def test_a_french_or_spanish_subject_is_read_as_its_kins_title_its_thing_first():
    """ "La civilización maya" had found no sources while the Spanish encyclopedia holds *Cultura maya*: French
    and Spanish write the thing first and the qualifier after it ("comida china"), as :func:`_kin_titled` now
    reads them."""
    rng = random.Random(5)
    docs = [*_corpus()]
    for i in range(60):
        body = [COCINA[0], *(rng.choice(COCINA[2:]) for _ in range(20)), COCINA[1]]
        docs.append({"title": f"Recetario {i}", "text": " ".join(body) + "."})
    docs += [{"title": "Cocina china", "text": "La cocina china es la cocina de China: fideo, salsa y especia en "
                                              "cada plato, una comida de Pekín."},
             {"title": "China", "text": "China es un país de Asia oriental; Pekín es su capital."},
             {"title": "Muralla china", "text": "La muralla china es una fortificación de China."}]
    request = resolve_subject(read_request("La comida china", "es"), SpaceSearch(docs), "es")
    assert (request.subjects, request.named_as) == (["Cocina china"], {"comida china": "Cocina china"}), request
    # another qualifier is no kin: "comida japonesa" is no *Cocina china*
    request = resolve_subject(read_request("La comida japonesa", "es"), SpaceSearch(docs), "es")
    assert (request.subjects, request.named_as) == (["comida japonesa"], {}), request


def test_a_peoples_civilization_is_read_as_the_title_the_corpus_gives_its_way_of_life():
    """ "The Inca civilization", "Viking culture", "Mayan culture" and "La civilización inca" had found no sources
    while the encyclopedias hold *Inca Empire*, *Vikings*, *Maya civilization* and *Imperio incaico*: a people's
    whole way of life has several names (:data:`planner._PEOPLE_KINDS`), near nothing alike in the topic space
    ("civilization" and "empire" at 0.06), and the people's own article stands for it when no such title does. A
    place sharing the word's first letters is no people's article: "Greek civilization" is not *Greece*."""
    docs = [*_kin_corpus(),
            {"title": "Inca Empire", "text": "The Inca Empire was the largest empire in pre-Columbian America. The "
                                             "Inca built roads across the Andes."},
            {"title": "Inca road system", "text": "The Inca road system ran through the Andes."},
            {"title": "Vikings", "text": "Vikings were seafaring people from Scandinavia. Viking raiders crossed the "
                                         "North Sea."},
            {"title": "Viking Age", "text": "The Viking Age lasted from 793 to 1066."},
            {"title": "Maya peoples", "text": "The Maya peoples live in Mexico; the Maya peoples' culture endures."},
            {"title": "Maya civilization", "text": "The Maya civilization was a Mesoamerican civilization. Maya "
                                                   "cities rose in the jungle."},
            {"title": "Maya script", "text": "Maya script was the writing system of the Maya."},
            {"title": "Greece", "text": "Greece is a country in Southeast Europe. Greek is spoken there."},
            {"title": "Greek alphabet", "text": "The Greek alphabet has 24 letters."}]
    search = SpaceSearch(docs)
    read = {text: (r.subjects, r.named_as) for text, r in
            _resolved(search, "The Inca civilization", "Viking culture", "Mayan culture", "Greek civilization"
                      ).items()}
    assert read == {"The Inca civilization": (["Inca Empire"], {"Inca civilization": "Inca Empire"}),
                    "Viking culture": (["Vikings"], {"Viking culture": "Vikings"}),
                    # *Maya peoples* is passed over: a passage writes "peoples' culture", two things side by side
                    "Mayan culture": (["Maya civilization"], {"Mayan culture": "Maya civilization"}),
                    "Greek civilization": (["Greek civilization"], {})}, read
    spanish = [*_corpus(), {"title": "Imperio incaico", "text": "El Imperio incaico o Imperio inca fue el imperio "
                                                                "más extenso de América precolombina."},
               {"title": "Conquista del Imperio incaico", "text": "La conquista del Imperio incaico fue una campaña."}]
    request = resolve_subject(read_request("La civilización inca", "es"), SpaceSearch(spanish), "es")
    assert (request.subjects, request.named_as) == (["Imperio incaico"], {"civilización inca": "Imperio incaico"})


def test_of_parts_more_passages_hold_than_a_search_returns_the_rarest_stands_for_the_subject(monkeypatch):
    """ "Health benefits of green tea" had been planned on *Green*, the colour: no passage writes "green tea", and
    of its parts with an article, the one the fewest passages hold stands for it (``planner._part_article``); both
    searches returned as many passages as a search returns, and the first part won. The rarer word in the topic
    space, the head noun here, is the more specific."""
    monkeypatch.setattr(planner, "PLAN_SEARCH_K", 8)
    rng = random.Random(3)
    colours = "green red blue paint light colour dye leaf".split()
    docs = [*_corpus(),
            *({"title": f"Colour {i}", "text": " ".join(rng.choice(colours) for _ in range(12)) + " green."}
              for i in range(40)),
            *({"title": f"Drink {i}", "text": f"A drink of tea in cup {i}, brewed with leaves and water."}
              for i in range(12)),
            {"title": "Green", "text": "Green is the colour between blue and yellow; leaves are green."},
            {"title": "Tea", "text": "Tea is an aromatic beverage brewed from the leaves of Camellia sinensis."}]
    request = _resolved(SpaceSearch(docs), "Health benefits of green tea")["Health benefits of green tea"]
    _, core, _ = gather_themes(request, SpaceSearch(docs), 3, "en")
    assert [p.title for p in core] == ["Tea"], core


def test_an_acronym_is_the_article_whose_words_it_spells():
    """ "UK", "USA" and "AI" had been drawn from the texts mentioning them, "WWII", "WW2" and "AI in healthcare" had
    found no sources (``planner._expanded``, ``planner._spelled_out``): the words an acronym spells are read from
    the passages writing it, as a run of capitalised words ("United Kingdom") or the words before it in brackets
    ("artificial intelligence (AI)"); else the article opening on them ("The United States of America (USA)");
    else the one title whose initials spell it ("World War II"), a number in Roman numerals too. An acronym the
    corpus titles stays ("DNA"), and so does one it spells out nowhere."""
    docs = [*_corpus(),
            {"title": "United Kingdom", "text": "The United Kingdom is a country of islands in north-west Europe."},
            {"title": "Palace of Westminster", "text": "The palace is the centre of political life in the United "
                                                       "Kingdom; Westminster is a metonym for the UK Parliament."},
            {"title": "Artificial intelligence", "text": "Artificial intelligence (AI) is the capability of "
                                                         "computers to perform tasks of human intelligence."},
            {"title": "Large language model", "text": "A large language model is an AI model trained on text."},
            {"title": "United States", "text": "The United States of America (USA) is a country in North America."},
            {"title": "Margaret Atwood", "text": "Atwood won the PEN Center USA award for her novels."},
            {"title": "World War II", "text": "World War II was a global conflict between the Allies and the Axis."},
            {"title": "Syngas", "text": "Wood gas was used to power cars in Europe during WWII."},
            {"title": "Health care", "text": "Health care is the improvement of health by prevention and treatment."},
            {"title": "DNA", "text": "DNA is a polymer of two strands coiled around each other, a double helix."},
            {"title": "Ribosome", "text": "A ribosome reads RNA copied from DNA to make proteins."}]
    search = SpaceSearch(docs)
    asked = ("UK", "AI", "USA", "WWII", "WW2", "DNA", "XQZ")
    read = {text: (r.subjects, r.named_as) for text, r in _resolved(search, *asked).items()}
    assert read == {"UK": (["United Kingdom"], {"UK": "United Kingdom"}),
                    "AI": (["Artificial intelligence"], {"AI": "Artificial intelligence"}),
                    "USA": (["United States"], {"USA": "United States"}),
                    "WWII": (["World War II"], {"WWII": "World War II"}),
                    "WW2": (["World War II"], {"WW2": "World War II"}),
                    "DNA": (["DNA"], {}), "XQZ": (["XQZ"], {})}, read
    inside = _resolved(search, "AI in healthcare")["AI in healthcare"]
    assert (inside.subjects, inside.aspects) == (["Artificial intelligence"], ["healthcare"]), inside
    assert inside.named_as == {"AI": "Artificial intelligence"} and inside.title == "AI in healthcare"


def test_a_shorter_reading_written_only_in_passing_is_no_subject():
    """ "Informe sobre el cambio climático en América Latina" had made a report of one sentence on the Dead Sea:
    two passages of the Spanish edition write "cambio climático", in passing, and the shorter reading had been
    taken as the subject with the place as its aspect, the place's texts standing in. A reading the corpora
    write but do not hold as asked (``planner._held_as_asked``) is no subject, as it is none alone; the Spanish
    request now ends in the closest subjects. (In English here: the test's topic space reads English.)"""
    docs = [*_corpus(),
            {"title": "Dead Sea", "text": "The Dead Sea is a salt lake between Jordan and Israel. Its salt brine "
                                          "holds minerals, and bathers float on the salt lake. Irrigation lowers the "
                                          "lake level; with climate change its level falls a metre a year."},
            {"title": "Glacier", "text": "A glacier is a mass of ice on a mountain. Snow packs into ice, and the "
                                         "ice creeps down the mountain valley as a glacier. Climate change shrinks "
                                         "the glacier's ice."},
            {"title": "Latin America", "text": "Latin America is the region of the Americas where Romance "
                                               "languages are spoken."},
            {"title": "History of Canada", "text": "The history of Canada covers North America from the arrival "
                                                   "of its first peoples."}]
    docs += _filler(random.Random(9), {"Lake": "salt lake brine minerals float level irrigation jordan".split(),
                                       "Ice": "ice glacier mountain snow valley creeps packs mass".split()}, 30, 20)
    text = "Write a report on climate change in Latin America"
    request = resolve_subject(read_request(text), SpaceSearch(docs), "en")
    assert "climate change" not in request.subjects, request  # here the titled part, *Latin America*, with its note
    assert resolve_subject(read_request("climate change"), SpaceSearch(docs), "en").subjects == ["climate change"]
    with pytest.raises(NoSourcesError):  # and alone it is none
        planner.plan_extractive("r", RunOptions(topic="climate change"), SpaceSearch(docs))


def test_a_text_writing_the_subject_only_in_another_senses_title_is_no_section():
    """ "Mouse" had had *Douglas Engelbart* as one of its two sections, for his "computer mouse", while the note at
    the top named *Computer mouse* as the sense to ask for (``planner._in_named_kinds_only``). A text writing the
    word also alone stays."""
    docs = [*_corpus(), *_filler(random.Random(4), {
        "Rodent": "rodent tail whiskers fur burrow seeds nest litter pest cheese".split(),
        "Computing": "computer screen cursor pointer interface software keyboard user".split()}, 40, 25)]
    docs += [{"title": "Mouse", "text": "A mouse is a small rodent with whiskers, fur and a long tail; the rodent "
                                        "nests in a burrow, eats seeds and cheese, and its litter grows fast, a "
                                        "pest with fur and whiskers."},
             {"title": "Computer mouse", "text": "A computer mouse is a pointer for a computer screen: the user moves "
                                                 "the cursor on the screen of a computer interface, beside the "
                                                 "keyboard, as the software shows. The pointer, the cursor and the "
                                                 "keyboard make the user interface of computer software, on a "
                                                 "screen the user reads."},
             # near the rodent's texts (his pet), but writing the word only in the device's title
             {"title": "Douglas Engelbart", "text": "Douglas Engelbart kept a rodent with fur and whiskers in a "
                                                    "burrow cage, fed on seeds; he invented the computer mouse."},
             {"title": "Rat", "text": "A rat is a rodent with fur, whiskers and a long tail; the rat, like the "
                                      "mouse, lives in a burrow, eats seeds and is a pest."},
             {"title": "Owl", "text": "An owl is a bird that hunts the rodent at night: a mouse is its usual prey, "
                                      "caught in its burrow by the tail."},
             *({"title": f"Laptop {i}", "text": "A laptop has a touchpad for the cursor, so the user needs no "
                                                "mouse beside its keyboard and screen."} for i in range(4))]
    search = SpaceSearch(docs)
    request = _resolved(search, "Mouse")["Mouse"]
    themes, core, _ = gather_themes(request, search, 4, "en")
    assert [p.title for p in core] == ["Mouse"] and "Owl" in themes, (core, themes)
    assert "Douglas Engelbart" not in themes, themes


def test_another_sense_the_note_names_is_no_section():
    """ "Spring" is read as the season and its note names *Spring (device)*, which had still been a section,
    filled with the Prague Spring and a hot spring (``planner._another_sense``)."""
    docs = [*_corpus(), *_filler(random.Random(6), {
        "Season": "season summer winter weather blossom flowers equinox warm days".split(),
        "Mechanics": "coil force elastic energy metal compress stretch tension load".split()}, 40, 25)]
    docs += [{"title": "Spring (season)", "text": "Spring is the season after winter and before summer, when days "
                                                  "grow warm, flowers blossom and the weather turns mild."},
             {"title": "Spring (device)", "text": "A spring is an elastic object that stores energy: a metal coil "
                                                  "spring resists a force that would compress or stretch it; every "
                                                  "spring has a tension under load in spring mechanics."},
             {"title": "Summer", "text": "Summer is the warmest season, after spring; its days are long and its "
                                         "weather warm."},
             {"title": "Blossom", "text": "Blossom is the flowers of fruit trees in spring, when the season warms."}]
    search = SpaceSearch(docs)
    request = _resolved(search, "Spring")["Spring"]
    themes, core, _ = gather_themes(request, search, 4, "en")
    assert [p.title for p in core] == ["Spring (season)"] and "Summer" in themes, (core, themes)
    assert "Spring (device)" not in themes, themes


#: Words of a corpus's fish articles and radiation articles (:func:`test_two_subjects_keep_each_others_sense`).
FISH = "fish fin gill sea scale swim shark reef cartilage tail predator ocean".split()
RADIATION = "radiation energy photon wavelength beam emission nucleus particle detector spectrum decay dose".split()


def test_two_subjects_keep_each_others_sense():
    """ "sharks and rays" had taken *X-ray* for its rays and drawn it as a section (``planner._beside_each_other``):
    beside another subject, a word without an article titled by it alone is read in the passages near that
    subject's core, as near as passages of one sense are (``SAME_SENSE``), and the passages writing it in another
    sense are no candidates. "rays" alone keeps reading the corpus's main sense, and a subject titled as asked
    keeps its article."""
    rng = random.Random(5)
    docs = [*_corpus(), *_filler(rng, {"Fish": FISH, "Radiation": RADIATION}, 60, 30)]
    docs += [{"title": "Shark", "text": "Sharks are cartilage fish with fins and gills; a shark is a predator of "
                                        "the sea and the reef."},
             {"title": "X-ray", "text": "An X-ray is a ray of radiation: X-rays are photons of high energy; rays "
                                        "of this wavelength pass a detector."},
             {"title": "Gamma ray", "text": "A gamma ray is radiation from the decay of a nucleus; gamma rays are "
                                            "the photons of highest energy in the spectrum."},
             {"title": "Cosmic ray", "text": "A cosmic ray is a particle of high energy; cosmic rays hit the "
                                             "detector as radiation from space."},
             {"title": "Batomorphi", "text": "Batomorphi are cartilage fish commonly known as rays; rays swim the "
                                             "sea floor with wide fins, near the reef."},
             {"title": "Stingray", "text": "Stingrays are a group of rays, fish of the sea with a tail spine; "
                                           "rays have gills below their fins."}]
    search = SpaceSearch(docs)
    alone = _resolved(search, "rays")["rays"]
    assert [p.title for p in gather_themes(alone, search, 4, "en")[1]] == ["X-ray"]  # the main sense, alone
    both = _resolved(search, "sharks and rays")["sharks and rays"]
    themes, core, _ = gather_themes(both, search, 4, "en")
    titles = [p.title for p in core]
    assert titles[0] == "Shark" and set(titles[1:]) <= {"Batomorphi", "Stingray"} and titles[1:], titles
    assert not {"X-ray", "Gamma ray", "Cosmic ray"} & set(themes), themes
    # a word the corpora title in several senses keeps the one near the other subject, and loses the others' texts
    chemistry = "metal element chemical liquid alloy atom compound toxic vapour reaction".split()
    docs += _filler(rng, {"Chemistry": chemistry}, 60, 30)
    docs += [{"title": "Mercury (planet)", "text": "Mercury is the planet nearest the Sun: its gravity, its light "
                                                   "and its orbit among the stars were seen by telescope."},
             {"title": "Mercury (element)", "text": "Mercury is a chemical element, a liquid metal whose toxic "
                                                    "vapour forms an alloy with other metals."},
             {"title": "Amalgam", "text": "An amalgam is an alloy of mercury with another metal, a chemical "
                                          "compound of the element."},
             {"title": "Venus", "text": "Venus is the second planet from the Sun; its light outshines the stars "
                                        "and its gravity and space orbit resemble the planet Mercury's."}]
    search = SpaceSearch(docs)
    both = _resolved(search, "Mercury and Venus")["Mercury and Venus"]
    themes, core, _ = gather_themes(both, search, 4, "en")
    assert [p.title for p in core] == ["Mercury (planet)", "Venus"], core
    assert not {"Mercury (element)", "Amalgam"} & set(themes), themes


@pytest.mark.parametrize("word, other, same", [
    ("Italy", "Italian", True), ("Japan", "Japanese", True), ("Greece", "Greek", True), ("Mexico", "Mexican", True),
    ("Chinese", "Chinese", True), ("Austria", "Australian", False), ("Iran", "Iraqi", False),
    ("France", "French", False), ("Turkey", "Turkish", False),  # irregular: not told
    ("italy", "Italian", True),  # as typed
])
def test_a_place_and_its_peoples_adjective(word, other, same):
    assert planner._same_people(word, other) is same


def test_a_candidate_naming_a_people_and_a_thing_only_by_its_people_is_no_theme():
    """ *Chinese Civil War* had been a section of the Chinese cuisine: "Chinese" modifies a noun in it, so
    :func:`by_modifier_alone` kept it. It never writes "cuisine" and is far from it in the topic space; *Soy
    sauce*, which never writes "cuisine" either, is on the food. "electric" is no people: *Electric current*
    is judged by the other rules. A text writing a word the head is made from is on the thing ("myths": *Kojiki*
    had left "Japanese mythology")."""
    def alone(docs: list[dict[str, str]], subject: str, title: str) -> bool:
        search = SpaceSearch(docs)
        request = read_request(subject, "en")
        core = [p for p in search.search(subject, k=5) if p.title == subject]
        core_text = " ".join(f"{p.title}. {p.text}" for p in core)
        text = next(f"{d['title']}. {d['text']}" for d in docs if d["title"] == title)
        return planner.by_people_alone(text, request, core, core_text, "en", search.space())

    docs = _kin_corpus()
    assert alone(docs, "Chinese cuisine", "Chinese Civil War")
    assert not alone(docs, "Chinese cuisine", "Soy sauce")
    assert not alone(docs, "Electric motor", "Electric current")
    myths = [*docs, {"title": "Chinese mythology", "text": "Chinese mythology is the body of myths of China."},
             {"title": "Shanhaijing", "text": "The Shanhaijing is a Chinese text of myths and monsters."}]
    assert not alone(myths, "Chinese mythology", "Shanhaijing")


def test_a_history_titled_by_a_place_no_text_names_whole_is_gathered_from_the_places_dated_texts():
    """ "Historia de México", "Historia de España" and "history of Russia" had had no section: the history's
    title capitalises the place, so only texts writing the whole title named it (:func:`proper_name`), and a
    sentence naming the place was no sentence on its history (:func:`naming_sentences`). Named by the place
    alone, a text must print a year to be on its past: a custom of the place is not."""
    docs = [*_corpus(),
            {"title": "History of Ruritania", "text": "The history of Ruritania is the account of the past of the "
                                                      "kingdom of Ruritania, its kings and its wars."},
            {"title": "Ruritania", "text": "Ruritania is a kingdom of kings, wars and castles in Europe."},
            {"title": "Ruritanian War", "text": "The Ruritanian War was fought by the kings of Ruritania from 1701 "
                                                "to 1714; the wars of the kingdom ended at its castles."},
            {"title": "Ruritanian Revolution", "text": "The Ruritanian Revolution of 1848 overthrew the kings of "
                                                       "Ruritania after wars at the kingdom's castles."},
            {"title": "Siesta", "text": "The siesta is a rest of the kingdom of Ruritania after lunch, in castles "
                                        "and homes, by kings and wars of old."}]
    for more in ([], [{"title": "Chronicle", "text": "The Chronicle is a history of Ruritania written by monks."}]):
        # with a text writing the whole title, one theme of four: fewer than half ("history of Egypt" had one)
        search = SpaceSearch(docs + more)
        request = resolve_subject(read_request("The history of Ruritania", "en"), search, "en")
        themes, core, _ = gather_themes(request, search, 4, "en")
        assert [p.title for p in core] == ["History of Ruritania"]
        assert "Ruritanian War" in themes and "Siesta" not in themes, themes


def test_an_aspect_of_a_place_no_text_names_whole_is_gathered_from_the_texts_naming_the_place():
    """ "China economy" (*Economy of China*) had had no section: the title capitalises the place, so only texts
    writing the whole title named it. When that leaves no theme, the texts naming the place are its candidates."""
    docs = [*_corpus(),
            {"title": "Economy of Ruritania",
             "text": "The economy of Ruritania is a market economy of banks, wages, prices and trade."},
            {"title": "Ruritanian crown", "text": "The crown is the money of Ruritania, an economy whose banks set "
                                                  "prices, wages and interest rates for trade and goods."}]
    search = SpaceSearch(docs)
    themes, core, _ = gather_themes(resolve_subject(read_request("Ruritania economy", "en"), search, "en"),
                                    search, 4, "en")
    assert [p.title for p in core] == ["Economy of Ruritania"] and themes == ["Ruritanian crown"], themes


def test_an_aspects_misspelled_function_word_is_dropped_and_a_word_the_corpus_lacks_stays():
    """ "blak holes and how tehy form" had had the aspect "tehy form", and the note at the top said no sentence
    quoted wrote of it, over sentences on how black holes form. "tehy" is "they" misspelled; "workforce", which
    the corpus lacks too, is no misspelling and stays."""
    search = SpaceSearch([*_corpus(), {"title": "Star", "text": "Stars form in clouds of gas; the wages of stars."},
                          {"title": "Cloud", "text": "Clouds form from water."}])
    read = {text: planner._written_aspects(read_request(text, "en"), search, "en").aspects
            for text in ("Stars and how tehy form", "Stars and their workforce productivity")}
    assert read == {"Stars and how tehy form": ["form"],
                    "Stars and their workforce productivity": ["workforce productivity"]}, read


def test_a_history_is_named_by_its_place_only_when_read_so():
    """ "Histoire de l'Allemagne" had traded *Empire allemand* for *Dresde* and *Stuttgart* when every sentence
    naming Germany named its history: only the gathering from the place's texts (``thing``) reads it so."""
    request = read_request("The history of Ruritania", "en")
    request = planner.replace(request, subjects=["History of Ruritania"], aspects=[])
    sentences = ["Ruritania is a kingdom in Europe.", "The history of Ruritania is long."]
    assert planner.naming_sentences(sentences, request, "en") == 1
    assert planner.naming_sentences(sentences, request, "en", thing=True) == 2


def test_a_placed_subjects_misspelled_head_is_read_as_the_title_it_is_near():
    """ "photosynthsis in plnts" had found no sources, with no closest subject, while "photosynthsis" alone is
    read as *Photosynthesis*: the head before a preposition of place is spelled as a title too."""
    search = SpaceSearch([*_corpus(), {"title": "Photosynthesis", "text": "Photosynthesis is how plants make sugar "
                                                                          "from light, in their leaves."}])
    for text in ("photosynthsis in plnts", "photosynthsis in plants"):
        request = resolve_subject(read_request(text, "en"), search, "en")
        assert request.subjects == ["Photosynthesis"], (text, request)


def test_a_name_of_a_word_of_a_name_gathered_again_is_named_by_its_name_whole():
    """ "La guerre de Cent Ans" had four sections on other wars (*Révolte des Taiping*, *Traités de Westphalie*):
    its whole name, written by no other text, left it no theme, and gathered again as "Historia de México" is
    (an aspect of a name), any word of its title named it, "guerre" and the "cent" of "pour cent". Gathered again,
    such a subject is named by its name written whole: "Cent Ans", "México"."""
    rng = random.Random(41)
    shared = " ".join(rng.choice(ECONOMY) for _ in range(25))
    own = {"title": "War of Hundred Years", "text": f"The War of Hundred Years was a war of two kingdoms: {shared}."}
    decoy = {"title": "Taiping Rebellion", "text": f"The Taiping Rebellion was a war in 1851, when ten per hundred "
             f"died in a few years: {shared}."}
    named = {"title": "Joan of Arc", "text": f"Joan of Arc fought in 1429 in the Hundred Years' war: {shared}."}
    request = read_request("War of Hundred Years", "en")
    themes = gather_themes(request, SpaceSearch([*_corpus(), own, decoy]), 6, "en")[0]
    assert "Taiping Rebellion" not in themes
    themes = gather_themes(request, SpaceSearch([*_corpus(), own, decoy, named]), 6, "en")[0]
    assert "Joan of Arc" in themes and "Taiping Rebellion" not in themes
    assert planner._name_of("War of Hundred Years", [planner.Passage(source_id="w", title="War of Hundred Years",
                                                                      url="", text="", corpus="c")], "en") \
        == "Hundred Years"
