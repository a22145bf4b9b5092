"""A section reads as one text: sentences that point back come right after theirs, or not at all."""

from __future__ import annotations

import pytest

from reportgen.agents.ranking import rank_sentences, with_antecedents
from reportgen.sources.models import Passage

TEXT = ("Penicillin is a group of antibiotics obtained from moulds. It was the first antibiotic used widely in "
        "medicine. However, many bacteria have developed resistance to it. Doctors still prescribe it often today.")


def _passage(title: str, text: str) -> Passage:
    return Passage(source_id=f"wiki:{title}", title=title, url=f"https://example.org/{title}", text=text,
                   corpus="c")


def _introduction(tmp_path, subject: str, notes: list[Passage], section_title: str) -> list[str]:
    """The sentences the writer's introduction quotes from ``notes`` beside one body section."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task

    from fakes import FakeSearch

    ctx = RunContext(topic=subject, lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()
    task = Task(id="introduction", agent="writer", kind="introduction", section="introduction", aim="intro")
    section = {"id": "s1", "title": section_title, "sentences": [{"text": f"{section_title} is a subject."}]}
    inputs = {"notes": [p.model_dump() for p in notes], "subject": subject, "section_1": section}
    out = writer.call(writer.build_request(task, inputs, "direct", ctx), ctx)["section"]["sentences"]
    return [s["text"] for s in out]


def _body_section(tmp_path, notes: list[Passage], title: str, subject: str) -> list[dict]:
    """The sentences the writer's body section titled ``title`` quotes from ``notes`` in a report on ``subject``."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task

    from fakes import FakeSearch

    ctx = RunContext(topic=subject, lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()
    task = Task(id="write-1", agent="writer", kind="write", section="s1", aim="write")
    inputs = {"notes": [p.model_dump() for p in notes], "title": title, "keywords": [title.lower()],
              "section_id": "s1", "subject": subject}
    return writer.call(writer.build_request(task, inputs, "direct", ctx), ctx)["section"]["sentences"]


def test_a_sentence_that_points_back_follows_its_antecedent():
    ranked = rank_sentences([_passage("Penicillin", TEXT)], focus="Penicillin", topic="Antibiotic", lang="en",
                            keywords=["penicillin"])
    by_text = {s.text: s for s in ranked}
    it = by_text["It was the first antibiotic used widely in medicine."]
    assert it.after == "Penicillin is a group of antibiotics obtained from moulds."
    assert it.score < by_text[it.after].score
    assert by_text["However, many bacteria have developed resistance to it."].after == it.text
    # the own article reads on in its order: the last sentence is kept though it names neither term
    assert "Doctors still prescribe it often today." in by_text


def test_a_chain_loses_everything_after_a_missing_link():
    ranked = rank_sentences([_passage("Penicillin", TEXT)], focus="Penicillin", topic="Antibiotic", lang="en",
                            keywords=["penicillin"])
    without_first = [s for s in ranked if not s.text.startswith("Penicillin is")]
    kept = with_antecedents(without_first)
    assert all(not s.text.startswith(("It ", "However")) for s in kept)


def test_a_companion_document_counts_as_the_sections_own():
    fleming = _passage("Alexander Fleming", "Alexander Fleming was a Scottish physician. He discovered the mould's "
                       "effect in 1928, which was later named benzylpenicillin.")
    alone = rank_sentences([fleming], focus="Penicillin", topic="Antibiotic", lang="en", keywords=["penicillin"])
    joined = rank_sentences([fleming], focus="Penicillin", topic="Antibiotic", lang="en", keywords=["penicillin"],
                            companions=["Alexander Fleming"])
    assert not alone
    assert [s.text for s in joined] == ["Alexander Fleming was a Scottish physician.",
                                        "He discovered the mould's effect in 1928, which was later named "
                                        "benzylpenicillin."]
    # a companion does not read on as the own article does: a sentence naming neither term and not pointing
    # back is left out
    more = _passage("Alexander Fleming", "Alexander Fleming was a Scottish physician. Fleming was born on a farm "
                    "in Ayrshire. Fleming studied medicine in London.")
    assert [s.text for s in rank_sentences([more], focus="Penicillin", topic="Antibiotic", lang="en",
                                           keywords=["penicillin"], companions=["Alexander Fleming"])] == [
        "Alexander Fleming was a Scottish physician."]


def test_a_section_opens_with_its_own_article():
    from reportgen.agents.writer import _reading_order

    ceres = _passage("Ceres", "Ceres is a dwarf planet in the asteroid belt between Mars and Jupiter. Ceres is the "
                     "largest object of the belt.")
    planet = _passage("Planet", "A planet is a large rounded body in orbit around a star. The planet Mars is rocky.")
    ranked = rank_sentences([ceres, planet], focus="Planet", topic="Mars", lang="en", keywords=["planet"])
    ranked.sort(key=lambda s: s.source["title"] != "Ceres")  # Ceres ranked first, yet not read first
    ordered = _reading_order(ranked, "Planet")
    assert [s.source["title"] for s in ordered][:2] == ["Planet", "Planet"]
    assert ordered[0].text.startswith("A planet is")
    assert [s.source["title"] for s in _reading_order(ranked)][0] == "Ceres"  # no own article: best source first


def test_the_conclusion_takes_the_sentences_naming_the_subject_first(tmp_path):
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import CONCLUSION_FLOOR, _summary

    from fakes import FakeSearch

    facts = ["Mars has two small moons named Phobos and Deimos.", "Mars is red because of iron oxide on its surface.",
             "Mars has the tallest volcano known, Olympus Mons."]
    near = _passage("Triton", "Triton is the largest moon of the planet Neptune, far from the Sun.")
    gin = {"text": "Gin is a distilled drink flavoured with juniper.",
           "sources": [{"source_id": "wiki:Gin", "title": "Gin", "url": "u", "corpus": "c"}]}
    section = {"id": "s1", "sentences": [{"text": "The planet Mars has been explored by spacecraft."}],
               "alternates": [gin]}  # a section's spare that does not name the subject never makes up the floor
    ctx = RunContext(topic="Mars", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))

    # what was fetched of Triton's article names Mars further on (a sentence the conclusion does not take)
    fetched = [near, _passage("Triton", "Voyager 2 passed Triton years after the Viking probes landed on Mars.")]

    def conclusion(mars: list[str], fetched: list[Passage] = fetched) -> list[str]:
        ranked = rank_sentences([_passage("Mars", " ".join(mars))], focus="Mars", topic="Mars", lang="en",
                                keywords=["mars"])
        ranked += rank_sentences([near], focus="Triton", topic="Triton", lang="en", keywords=["triton"])
        chosen, passages = _summary(ranked, [section], set(), ctx, fetched=fetched)
        assert [p.text for p in passages] == [s["text"] for s in chosen]  # kept for the citation check
        return [s["text"] for s in chosen]

    assert conclusion(facts) == facts  # they name Mars: the moon of Neptune is not needed
    assert conclusion(facts[:1]) == [facts[0], near.text]  # one names Mars: Triton makes up the floor
    assert len(conclusion(facts[:1])) == CONCLUSION_FLOOR
    assert conclusion([]) == []  # none names Mars: Triton alone is no conclusion
    # a source that never names the subject makes up no floor: "The most significant war was fought with the
    # Seleucid Empire", of *Macedonian Wars*, had closed a report on the Ottoman Empire
    assert conclusion(facts[:1], fetched=[near]) == [facts[0]]
    # a sentence writing the word, not of the subject, makes up no floor: "… horse-flies, crane flies …" had closed
    # a report on cranes (here Mars only as one item of a list)
    probe = _passage("Probe", "Probes have flown past Venus, Mars, Jupiter, Saturn and Neptune with cameras.")
    ranked = rank_sentences([_passage("Mars", facts[0])], focus="Mars", topic="Mars", lang="en", keywords=["mars"])
    ranked += rank_sentences([probe], focus="Probe", topic="Probe", lang="en", keywords=["probe"])
    assert [s["text"] for s in _summary(ranked, [section], set(), ctx)[0]] == [facts[0]]
    # nor does a sentence of another kind beside the subject: *Indian cuisine*'s "these cuisines vary
    # substantially" had closed the Mexican cuisine
    own = "Mexican cuisine consists of the food traditions of Mexico."
    other = _passage("Indian cuisine", "Given the diversity in soil and climate, these cuisines vary from region "
                                       "to region, in food and traditions.")
    ranked = rank_sentences([_passage("Mexican cuisine", own)], focus="Mexican cuisine", topic="Mexican cuisine",
                            lang="en", keywords=["mexican", "cuisine"])
    ranked += rank_sentences([other], focus="Indian cuisine", topic="Indian cuisine", lang="en",
                             keywords=["cuisine"])
    kitchen = {"id": "s1", "sentences": [{"text": "Maize is a staple of Mexico."}], "alternates": []}
    chosen = _summary(ranked, [kitchen], set(), ctx, subject_text="Mexican cuisine", core=f"Mexican cuisine. {own}")
    assert [s["text"] for s in chosen[0]] == [own], chosen[0]


def test_the_conclusion_searches_again_only_where_it_can_keep_to_the_sense(tmp_path):
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import _more_on_the_subject

    from fakes import FakeSearch

    docs = [{"title": "Mars", "text": "Mars is the fourth planet from the Sun."},
            {"title": "Olympus Mons", "text": "Olympus Mons is the tallest volcano on Mars."}]
    ctx = RunContext(topic="Write a report on Mars", lang="en", search=FakeSearch(docs),
                     log=MessageLog(tmp_path / "m.jsonl"))
    have = ctx.search.search("Mars", k=1)
    assert _more_on_the_subject(have, ["Mars"], ctx, "Mars") == []  # no topic space: nothing to judge the sense by



def test_a_passage_opening_on_a_pronoun_is_an_articles_later_part():
    second = _passage("Om", "It is the essence of the supreme Absolute, consciousness, and knowledge. Om is a sacred "
                      "sound and symbol in Indian religions.")
    ranked = rank_sentences([second], focus="Om", topic="Hinduism", lang="en", keywords=["om"])
    assert [s.text for s in ranked] == ["Om is a sacred sound and symbol in Indian religions."]


def test_a_pronoun_a_first_clauses_verb_takes_as_object_points_back():
    """"Australian World Heritage places included it in its list in 2007" had ended a conclusion on the Great
    Barrier Reef, saying nothing of what "it" is."""
    from reportgen.agents.ranking import quotable

    for text in ("Australian World Heritage places included it in its list in 2007.",
                 "CNN labelled it one of the Seven Natural Wonders of the World in 1997.",
                 "The Romans called it Mare Nostrum.", "Later sailors mapped them in detail.",
                 "Rapid urbanization has made it the country's primate city."):
        assert not quotable(text, 0, "en"), text
    for text in ("The invention made it possible to fly.", "Engineers found it hard to say that the reef grows.",
                 "The reef supports a wide diversity of life.", "The process gives its name to the period.",
                 "Bees carry pollen and deposit it on the stigma."):  # the clause names what "it" is, or will
        assert quotable(text, 0, "en"), text
    assert quotable("Los romanos lo llamaban Mare Nostrum.", 0, "es")  # no such rule outside English


def test_a_pronoun_after_an_opening_phrase_points_back_too():
    from reportgen.agents.ranking import quotable

    for text in ("In 1770, he married Marie Antoinette.", "Later, it became a province of the Achaemenid Empire.",
                 "For example, they eat fish and rice.",
                 "Like Saturn's largest moon, Titan, it is larger than the planet Mercury.",  # two opening phrases
                 "Among the most influential figures in jazz, his career spanned five decades.",
                 "According to them, the literature has privileged sedentary empires.",  # the pronoun opens it
                 "Despite this, trade grew.",
                 # a longer opening phrase (64 characters): the kingdom is named only before
                 "One of the Germanic successor states to the Western Roman Empire, it was originally created by "
                 "the settlement of the Visigoths.",
                 # a number's thousands separator is no end of the opening phrase: the São Francisco River's "it"
                 # had opened the introduction on the rivers of South America, the river named only before
                 "With a length of 2,914 kilometres (1,811 mi), it is the longest river that runs entirely in Brazil."):
        assert not quotable(text, 0, "en"), text
    assert quotable("With a length of 2,914 kilometres (1,811 mi), the river is the longest in Brazil.", 0, "en")
    # a demonstrative after the opening phrases points back as a pronoun does: "estas construcciones", the
    # pyramids named only before, had opened an introduction on the pyramids of Egypt
    for text, lang in (("Antiguamente, en el antiguo Egipto o China, estas construcciones se utilizaban como "
                        "sepulcro.", "es"),
                       ("Autrefois, en Égypte, ces constructions servaient de tombeaux.", "fr"),
                       ("In ancient Egypt, these buildings were used as tombs.", "en"),
                       ("En 1789, à Paris, il prit la Bastille.", "fr")):
        assert not quotable(text, 0, lang), text
    for text, lang in (("Tras la guerra, el país creció.", "es"), ("En 1990, la ville a grandi.", "fr")):
        assert quotable(text, 0, lang), text
    assert not quotable("En 1770, il épousa Marie-Antoinette.", 0, "fr")
    assert not quotable("Selon eux, la route était ancienne.", 0, "fr")
    assert not quotable("Por ello, el comercio creció.", 0, "es")
    assert not quotable("This concept is further refined as:", 0, "en")  # the list it introduces is not quoted
    assert not quotable("Les principales espèces sont :", 0, "fr")
    for text in ("In 1928, Alexander Fleming discovered penicillin.", "Paris, the capital of France, is large.",
                 "Mercury, Venus, Earth and Mars are rocky planets.",
                 "In France, in 2019, it was estimated that a million people were ill.",
                 "The name Silk Road, coined in 1877, is recent."):
        assert quotable(text, 0, "en"), text
    assert not quotable("In this way, trade grew.", 0, "en")  # the way of the sentence before (demonstrative)
    assert not quotable("For instance, cold fronts can bring bands of thunderstorms.", 0, "en")  # an example of?
    for text in ("Thereby, the machine produces a legible written document.", "Thus the press spread quickly.",
                 "As a result, prices fell.", "Consequently the city grew."):  # a connective carries on
        assert not quotable(text, 0, "en"), text
    assert not quotable("Ainsi, la presse se répandit.", 0, "fr") and not quotable("Por lo tanto, creció.", 0, "es")
    for text in ("In addition to the museum, the city has a zoo.", "As a result of the war, trade fell.",
                 "Thermal energy is heat."):  # self-contained
        assert quotable(text, 0, "en"), text
    listing = _passage("Ink", "Ink is a liquid used for writing. "
                              "This concept of ink is further refined by printers as:")
    assert [s.text for s in rank_sentences([listing], focus="Ink", topic="Ink", lang="en", keywords=["ink"])] == [
        "Ink is a liquid used for writing."]  # a list's opening is no continuation of the sentence before
    louis = _passage("Louis XVI", "Louis XVI was the last king of France before the fall of the monarchy. In 1770, "
                     "he married Marie Antoinette.")
    ranked = rank_sentences([louis], focus="Marie Antoinette", topic="France", lang="en",
                            keywords=["marie", "antoinette"])
    assert "In 1770, he married Marie Antoinette." not in [s.text for s in ranked if s.after is None]


def test_a_body_sentence_must_name_the_subject_as_read_not_the_requests_other_words(tmp_path):
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import _about_the_subject

    from fakes import FakeSearch

    ctx = RunContext(topic="Write a report on the history of tea", lang="en", search=FakeSearch([]),
                     log=MessageLog(tmp_path / "m.jsonl"))
    notes = [{"text": "Tea is a drink made from the leaves of the tea plant, grown in China and India."}]
    other = _passage("Rome", "The history of Rome spans 28 centuries. Tea was drunk in Rome only much later.")
    ranked = rank_sentences([other], focus="Rome", topic=ctx.topic, lang="en", keywords=["rome"])
    kept, _ = _about_the_subject(ranked, notes, ctx, "Rome", (), "tea")
    # the sentence naming tea comes first; the one naming only "history" merely fills the section up
    assert [s.text for s in kept] == ["Tea was drunk in Rome only much later.",
                                      "The history of Rome spans 28 centuries."]
    # only the section's own article (and its companions) fill it up: Rome's history is not Camellia's
    kept, _ = _about_the_subject(ranked, notes, ctx, "Camellia", (), "tea")
    assert [s.text for s in kept] == ["Tea was drunk in Rome only much later."]
    loose, _ = _about_the_subject(ranked, notes, ctx, "Rome", ())  # by the request's words, "history" counts
    assert loose[0].text == "The history of Rome spans 28 centuries."


def test_another_articles_sentence_that_only_likens_a_thing_to_the_subject_is_not_kept(tmp_path):
    """"Mackerel species typically have … vertical "tiger-like" stripes" had stood in a report's only
    section, on the tiger (0.52 to the Tiger article in the topic space: animals and stripes)."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import _about_the_subject

    from fakes import FakeSearch

    ctx = RunContext(topic="Tiger", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    notes = [{"text": "The tiger is a large cat with black stripes, native to Asia."}]
    mackerel = _passage("Mackerel", 'Mackerel species have vertical "tiger-like" stripes on their backs. '
                                    "Tigers are said to eat mackerel in India.")
    ranked = rank_sentences([mackerel], focus="Tiger", topic="Tiger", lang="en", keywords=["tiger"])
    kept, _ = _about_the_subject(ranked, notes, ctx, "Tiger", (), "Tiger")
    assert [s.text for s in kept] == ["Tigers are said to eat mackerel in India."]


def test_the_introduction_quotes_sentences_writing_the_subject(tmp_path):
    """ "Sexual and reproductive health" holds "health", but does not write "mental health"."""
    from reportgen.acp import MessageLog
    from reportgen.agents.ranking import names_subject
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task

    from fakes import FakeSearch

    assert names_subject("Psychology is a mental health profession.", "social media and mental health")
    assert not names_subject("Reproductive health is a field of health care.", "social media and mental health")
    notes = [_passage("Reproductive health", "Reproductive health is a field of health care and social activism."),
             _passage("Psychology", "Clinical psychology is a regulated mental health profession.")]
    ctx = RunContext(topic="social media and mental health", lang="en", search=FakeSearch([]),
                     log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()
    task = Task(id="introduction", agent="writer", kind="introduction", section="introduction", aim="intro")
    section = {"id": "s1", "title": "Mental health", "sentences": [{"text": "Mental health is well-being."}]}

    def introduction(sections: list[dict]) -> list[str]:
        inputs = {"notes": [p.model_dump() for p in notes], "subject": "social media and mental health",
                  **{f"section_{i}": s for i, s in enumerate(sections, start=1)}}
        params = writer.build_request(task, inputs, "direct", ctx)
        return [s["text"] for s in writer.call(params, ctx)["section"]["sentences"]]

    other = {"id": "s1", "title": "Psychotherapy", "sentences": [{"text": "Psychotherapy helps people."}]}
    assert introduction([other]) == ["Clinical psychology is a regulated mental health profession."]
    # a section titled by a subject says what it is: the introduction takes only sentences on both, or none
    assert introduction([section]) == []
    both = "Social media use is studied for its effects on mental health."
    notes.append(_passage("Social media", both))
    assert introduction([section]) == [both]
    assert introduction([other])[0] == both  # a sentence on both subjects first
    del notes[1:]  # nothing left writes the subject
    assert introduction([section]) == []


def test_an_impersonal_pronoun_after_an_opening_phrase_points_nowhere():
    from reportgen.agents.ranking import quotable

    assert quotable("In 2019, it was estimated that five million people had the disease.", 0, "en")
    assert quotable("En France, il existe des lois sur la laïcité.", 0, "fr")
    assert not quotable("Since then, it has grown into a city of millions.", 0, "en")


def test_a_section_leaves_the_subjects_own_article_to_the_introduction_even_with_a_qualifier(tmp_path):
    """ "Mercury is the smallest planet" opens the report on Mercury, not its section on planets."""
    notes = [_passage("Mercury (planet)", "Mercury is the smallest planet and the closest to the Sun."),
             _passage("Planet", "A planet is a large body that orbits a star and has cleared its orbit.")]
    out = _body_section(tmp_path, notes, "Planet", "Mercury")
    assert [s["text"] for s in out] == ["A planet is a large body that orbits a star and has cleared its orbit."]


def test_the_introduction_leaves_out_sentences_defining_another_thing_as_one_of_the_subjects_kind(tmp_path):
    """ "Thrushes are small to medium-sized ground living birds" stood in the introduction of "Why do birds
    migrate?": it is on thrushes. A sentence on a part of the subject stays ("The Caloris basin …")."""
    notes = [_passage("Bird", "Birds are warm-blooded vertebrates with feathers and beaks."),
             _passage("Thrush (bird)", "Thrushes are small to medium-sized ground living birds that feed on insects."),
             _passage("Animal migration", "Many birds migrate south each autumn to find food.")]
    intro = _introduction(tmp_path, "birds", notes, "Feather")
    assert "Birds are warm-blooded vertebrates with feathers and beaks." in intro
    assert "Many birds migrate south each autumn to find food." in intro
    assert not any(s.startswith("Thrushes") for s in intro)
    # the kind before a phrase on it: "The Saturn V is a … launch vehicle developed by NASA" had opened the report
    # on electric vehicles (read through *Vehicle*), as the issue found
    notes = [_passage("Vehicle", "A vehicle is a machine designed for self-propulsion."),
             _passage("Saturn V", "The Saturn V is a retired American super heavy-lift launch vehicle developed by "
                                  "NASA under the Apollo program."),
             _passage("Traffic", "Traffic is the movement of every vehicle on a road.")]
    intro = _introduction(tmp_path, "Vehicle", notes, "Traffic")
    assert "A vehicle is a machine designed for self-propulsion." in intro
    assert not any(s.startswith("The Saturn V") for s in intro), intro


def test_the_introduction_leaves_out_another_articles_sentence_naming_the_subject_in_passing(tmp_path):
    """ "The individual light receptors behind each lens … honey bees respond in 0.01s", of *Compound eye*, had
    opened the report on honeybees: it names them past its first words, as the conclusion's rule (_as_topic) does
    not take either. Another article's sentence about them stays."""
    passing = ("The individual light receptors behind each lens are turned on and off during movement, creating a "
               "flicker effect; honey bees respond in 0.01s.")
    notes = [_passage("Compound eye", passing),
             _passage("Beekeeping", "Honey bees are the most commonly kept species of bees.")]
    intro = _introduction(tmp_path, "honey bees", notes, "Bee")
    assert "Honey bees are the most commonly kept species of bees." in intro
    assert passing not in intro


def test_the_introduction_takes_back_the_bodys_sentences_on_the_subject_rather_than_open_off_it(tmp_path):
    """ "Pumping stations … are public utility buildings" opened the report on heat pumps: the body had quoted every
    sentence on them, and the introduction took what was left. It now takes them back (the coordinator gives the
    body its spares), but not a section's first sentence of its own article, which the section stands on."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task

    from fakes import FakeSearch

    on_it = "Heat pumps move heat from a cold place to a warm one using work."
    notes = [_passage("Refrigeration", f"{on_it} Refrigeration cools a space below the room's temperature."),
             _passage("Pumping station", "Pumping stations are public utility buildings containing pumps.")]
    ctx = RunContext(topic="Heat pumps", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()
    task = Task(id="introduction", agent="writer", kind="introduction", section="introduction", aim="intro")
    section = {"id": "s1", "title": "Refrigeration", "sentences": [{"text": on_it}]}
    inputs = {"notes": [p.model_dump() for p in notes], "subject": "Heat pumps", "section_1": section}
    out = writer.call(writer.build_request(task, inputs, "direct", ctx), ctx)["section"]["sentences"]
    assert [s["text"] for s in out] == [on_it]
    source = {"source_id": "wiki:Refrigeration", "title": "Refrigeration"}
    inputs["section_1"] = {**section, "sentences": [{"text": on_it, "sources": [source]}]}  # its first
    out = writer.call(writer.build_request(task, inputs, "direct", ctx), ctx)["section"]["sentences"]
    assert on_it not in [s["text"] for s in out]


def test_a_section_quotes_no_kind_of_its_thing_its_article_never_writes(tmp_path):
    """ "A chemical plant is an industrial process plant" stood in the *Plant* section of a report on
    photosynthesis: an article on a kind of the section's thing its own article never writes is none of its
    sources, unless it names the report's subject. *Flowering plant*, which it writes, stays."""
    notes = [_passage("Plant", "Plants are eukaryotes that make food by photosynthesis. Most flowering plants are "
                               "green."),
             _passage("Chemical plant", "A chemical plant is an industrial process plant that makes chemicals."),
             _passage("Flowering plant", "Flowering plants are the most diverse group of land plants."),
             _passage("Carnivorous plant", "Carnivorous plants still make sugar by photosynthesis in their leaves.")]
    out = _body_section(tmp_path, notes, "Plant", "photosynthesis")
    titles = {s["sources"][0]["title"] for s in out}
    assert "Chemical plant" not in titles
    assert {"Plant", "Flowering plant", "Carnivorous plant"} <= titles


def test_the_introduction_quotes_the_subjects_own_article_whole_and_in_order(tmp_path):
    """ "Solar panels use the photovoltaic effect" is about solar power though it does not write it. Of three
    sentences, the last on the subject as what it is about is left to the conclusion (``_left_for_conclusion``:
    any past the opening, so long as two stay); the two quoted keep their order."""
    own = ("Solar power is the conversion of sunlight into electricity. Solar panels use the photovoltaic effect "
           "to turn light into a current. Concentrated solar power systems focus sunlight with mirrors.")
    notes = [_passage("Solar power", own),
             _passage("Steam turbine", "A steam turbine extracts thermal energy from pressurized steam.")]
    assert _introduction(tmp_path, "Solar power", notes, "Steam turbine") == [
        "Solar power is the conversion of sunlight into electricity.",
        "Solar panels use the photovoltaic effect to turn light into a current.",
    ]  # the turbine's sentence, which names neither, stays out


def test_one_word_of_a_compound_subject_does_not_name_it(tmp_path):
    """ "The Solar System" says "solar", not solar power: a companion's sentence on it is no sentence on the subject."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import _about_the_subject

    from fakes import FakeSearch

    ctx = RunContext(topic="Solar power", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    notes = [{"text": "Solar power converts sunlight into electricity with panels."}]
    sun = _passage("Sun", "The Sun is the star at the centre of the Solar System. Sunlight feeds solar power plants.")
    ranked = rank_sentences([sun], focus="Sun", topic=ctx.topic, lang="en", keywords=["sun"])
    kept, spare = _about_the_subject(ranked, notes, ctx, "Sun", (), "solar power")
    assert kept[0].text == "Sunlight feeds solar power plants."  # the one naming the subject leads ...
    assert [s.text for s in kept[1:]] == ["The Sun is the star at the centre of the Solar System."]  # ... this fills


def test_the_conclusion_takes_the_subjects_own_article_and_leaves_out_comparisons(tmp_path):
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import _summary

    from fakes import FakeSearch

    ctx = RunContext(topic="Mars", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    own = _passage("Mars", "Mars is the fourth planet. A thin atmosphere of carbon dioxide covers the planet. "
                           "Two small moons, Phobos and Deimos, orbit close.")
    moon = _passage("Ganymede", "Ganymede is a moon of Jupiter larger than the planet Mars.")
    ranked = rank_sentences([own, moon], focus="Mars", topic="Mars", lang="en", keywords=["mars"])
    section = {"id": "s1", "sentences": [{"text": "The planet Mars has been explored by spacecraft."}],
               "alternates": []}
    chosen, _ = _summary(ranked, [section], {"Mars is the fourth planet."}, ctx)
    # the article's other sentences are on Mars without writing it; the moon only measures itself by Mars
    assert sorted(s["text"] for s in chosen) == ["A thin atmosphere of carbon dioxide covers the planet.",
                                                 "Two small moons, Phobos and Deimos, orbit close."]


@pytest.mark.parametrize("subject, notes, section_title, kept", [
    # "Callisto is nearly as large as the planet Mercury" is about Callisto
    ("Mercury", [("Mercury (planet)", "Mercury is the first planet from the Sun and the smallest."),
                 ("Callisto", "Callisto is nearly as large as the planet Mercury."),
                 ("Caloris", "The Caloris basin is the largest crater on Mercury.")], "Planet",
     ["Mercury is the first planet from the Sun and the smallest.",
      "The Caloris basin is the largest crater on Mercury."]),
    # "The Jazz Singer" is a film: its name does not write jazz (the timelines' rule, ranking.named_after)
    ("Jazz", [("Jazz", "Jazz is a music genre that originated in New Orleans."),
              ("The Jazz Singer", "The Jazz Singer is a 1927 American musical drama film."),
              ("Duke Ellington", "Duke Ellington was an American jazz pianist and composer.")], "Blues",
     ["Duke Ellington was an American jazz pianist and composer.",
      "Jazz is a music genre that originated in New Orleans."]),
])
def test_the_introduction_leaves_out_comparisons_and_works_named_with_the_subjects_words(
        tmp_path, subject, notes, section_title, kept):
    passages = [_passage(title, text) for title, text in notes]
    assert sorted(_introduction(tmp_path, subject, passages, section_title)) == kept


def test_the_conclusions_spares_are_on_the_subject_as_its_sentences_are(tmp_path):
    """A spare replaces a conclusion sentence the introduction also took (the coordinator's dedupe): "Road
    transport is a type of transport using roads" had closed a report on the Silk Road."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task

    from fakes import FakeSearch

    notes = [_passage("Silk Road", "The Silk Road was a network of Asian trade routes. Merchants carried silk "
                                   "along the Silk Road. Scholars still debate the Silk Road's extent. The Silk "
                                   "Road linked China and Rome. Buddhism spread along the Silk Road. Caravans "
                                   "crossed deserts on the Silk Road."),
             _passage("Marco Polo", "Marco Polo travelled the Silk Road to China. He wrote of the Silk Road's "
                                    "cities. Venice traded on the Silk Road. Kublai Khan ruled the Silk Road's "
                                    "east. Silk Road tales made Polo famous. Polo's Silk Road book sold well."),
             _passage("Road transport", "Road transport is a type of transport using roads. Roads carry trucks "
                                        "and buses. A road network links towns."),
             _passage("Road", "A road is a thoroughfare between places. Roads have surfaces of asphalt.")]
    ctx = RunContext(topic="Silk Road", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()
    task = Task(id="conclusion", agent="writer", kind="conclusion", section="conclusion", aim="sum up")
    section = {"id": "s1", "title": "Trade", "sentences": [{"text": "Trade grew in Asia."}], "alternates": []}
    inputs = {"notes": [p.model_dump() for p in notes], "subject": "Silk Road", "section_1": section}
    out = writer.call(writer.build_request(task, inputs, "direct", ctx), ctx)["section"]
    spares = [s["text"] for s in out["alternates"]]
    assert out["sentences"] and spares
    assert all("Silk Road" in t for t in spares), spares  # none on roads alone


def test_a_section_leaves_the_other_sections_articles_to_them(tmp_path):
    """The Internet report's section on HTTP had been left with fibre optics and GPS: an earlier section had
    quoted HTTP's own article. A section with no article of its own (renamed by a reviewer) may quote them."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task
    from reportgen.blueprint.planner import compile_blueprint

    from fakes import FakeSearch

    blueprint = compile_blueprint("r", "Internet", ["World Wide Web", "HTTP", "Router"], subject="Internet")
    writers = {t.inputs["title"].value: t for t in blueprint.tasks if t.kind == "write"}
    assert writers["HTTP"].inputs["others"].value == ["World Wide Web", "Router"]
    notes = [_passage("World Wide Web", "The World Wide Web is an information system on the Internet."),
             _passage("HTTP", "HTTP is the protocol of the World Wide Web on the Internet.")]
    ctx = RunContext(topic="Internet", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()

    def sources(title: str, others: list[str]) -> set[str]:
        task = Task(id="write-1", agent="writer", kind="write", section="s1", aim="write")
        inputs = {"notes": [p.model_dump() for p in notes], "title": title, "subject": "Internet",
                  "others": others, "keywords": title.lower().split()}
        out = writer.call(writer.build_request(task, inputs, "direct", ctx), ctx)["section"]
        return {src["title"] for s in out["sentences"] + out["alternates"] for src in s["sources"]}

    assert sources("World Wide Web", ["HTTP", "Router"]) == {"World Wide Web"}
    assert sources("World Wide Web", []) == {"World Wide Web", "HTTP"}
    assert sources("Web", ["HTTP", "Router"]) == {"World Wide Web", "HTTP"}  # no article of its own


def test_a_sentence_set_aside_as_off_the_subject_neither_fills_a_section_nor_stands_in_for_a_repeat(tmp_path):
    """"Sun Tzu was a Chinese military general" had stood in a section on the Sun in a report on tides: it filled
    the section up, or replaced a sentence another section had quoted."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task

    from fakes import FakeSearch

    core = [_passage("Tide", "Tides are the rise and fall of sea level caused by the Moon and the Sun.")]
    notes = [_passage("Sun", "The Sun pulls the oceans into tides. "
                             "The Sun is the star at the centre of the Solar System."),
             _passage("Sun Tzu", "Sun Tzu was a Chinese military general. He wrote The Art of War."),
             *(_passage(f"Eclipse {i}", f"Sea level and tides follow the Sun in eclipse {i}.") for i in range(20))]
    ctx = RunContext(topic="tides", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()
    task = Task(id="write-1", agent="writer", kind="write", section="s1", aim="write")
    inputs = {"notes": [p.model_dump() for p in notes], "title": "Sun", "subject": "tides",
              "subject_notes": [p.model_dump() for p in core], "keywords": ["sun"]}
    out = writer.call(writer.build_request(task, inputs, "direct", ctx), ctx)["section"]
    quoted = [s["text"] for s in out["sentences"] + out["alternates"]]
    assert "Sun Tzu was a Chinese military general." not in quoted
    assert "The Sun pulls the oceans into tides." in quoted
    few = {**inputs, "notes": [p.model_dump() for p in notes[:2]]}  # too few on the subject: the Sun's own fill up
    out = writer.call(writer.build_request(task, few, "direct", ctx), ctx)["section"]
    quoted = [s["text"] for s in out["sentences"] + out["alternates"]]
    assert "The Sun is the star at the centre of the Solar System." in quoted
    assert "Sun Tzu was a Chinese military general." not in quoted


def test_the_plan_review_gives_the_writers_the_sections_left():
    from reportgen.agents.registry import load_registry
    from reportgen.blueprint.planner import compile_blueprint
    from reportgen.config import get_settings
    from reportgen.review import Plan, apply_plan

    blueprint = compile_blueprint("r", "Internet", ["World Wide Web", "HTTP", "Router"], subject="Internet")
    plan = Plan.model_validate({"sections": [{"id": "s1", "title": "Web"}, {"id": "s3", "title": "Router"}]})
    edited, _ = apply_plan(blueprint, plan, load_registry(get_settings()).kinds())
    writers = {t.inputs["title"].value: t.inputs["others"].value for t in edited.tasks if t.kind == "write"}
    assert writers == {"Web": ["Router"], "Router": ["Web"]}


def test_an_article_named_with_the_sections_word_but_on_another_thing_is_none_of_its_sources(tmp_path):
    """"The tiger shark is a species of ground shark" had stood in a section on the tiger in a report on cats:
    *Tiger shark* is headed by another noun, and the Tiger article never writes it. A snow leopard is a leopard,
    and a name the section's own article writes ("the Bengal tiger") is part of its subject."""
    from reportgen.acp import MessageLog
    from reportgen.agents.ranking import another_thing
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task

    from fakes import FakeSearch

    tiger = "The tiger is a large cat native to Asia. The Bengal tiger lives in India."
    notes = [_passage("Tiger", tiger),
             _passage("Tiger shark", "The tiger shark is a large predator. Its stripes resemble a tiger's pattern."),
             _passage("Bengal tiger", "The Bengal tiger is a population of the tiger in India.")]
    ctx = RunContext(topic="cats", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()
    task = Task(id="write-1", agent="writer", kind="write", section="s1", aim="write")
    inputs = {"notes": [p.model_dump() for p in notes], "title": "Tiger", "subject": "cats", "keywords": ["tiger"]}
    out = writer.call(writer.build_request(task, inputs, "direct", ctx), ctx)["section"]
    quoted = {src["title"] for s in out["sentences"] + out["alternates"] for src in s["sources"]}
    assert "Tiger shark" not in quoted and "Tiger" in quoted
    assert another_thing("Tiger shark", "Tiger", tiger, "en")
    assert not another_thing("Bengal tiger", "Tiger", tiger, "en")  # its article names it
    assert not another_thing("Snow leopard", "Leopard", "The leopard is a cat.", "en")  # a kind of leopard
    assert not another_thing("Tiger shark", "Shark", "A shark is a fish.", "en")
    # a work named with the section's word, capitalised where the section's article writes it small: "To the
    # Lighthouse is a 1927 novel by Virginia Woolf" had stood in the section on the lighthouse
    lighthouse = "A lighthouse is a tower designed to emit light. Each lighthouse guides ships at night."
    assert another_thing("To the Lighthouse", "Lighthouse", lighthouse, "en")
    assert not another_thing("To the Lighthouse", "Lighthouse", "", "en")  # no article to read the word's case by
    assert not another_thing("Lighthouse of Alexandria", "Lighthouse", lighthouse + " The Lighthouse of "
                             "Alexandria was one of the wonders.", "en")  # its article names it


def test_a_sections_own_article_is_quoted_however_it_writes_the_sections_words(tmp_path):
    """*Godavari River* had been left out of its own section in "Rivers of India": its article writes "The
    Godavari is India's second longest river", "River" small, so the title read as a name of another thing
    (another_thing's rule for *To the Lighthouse*); the section had no sentence and the report dropped it."""
    from reportgen.acp import MessageLog
    from reportgen.agents.ranking import another_thing
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task

    from fakes import FakeSearch

    godavari = ("The Godavari is India's second longest river after the Ganges River. The river ultimately empties "
                "into the Bay of Bengal.")
    assert not another_thing("Godavari River", "Godavari River", godavari, "en")
    assert another_thing("To the Lighthouse", "Lighthouse", "A lighthouse is a tower. Each lighthouse guides ships.",
                         "en")
    notes = [_passage("Godavari River", godavari),
             _passage("Sundarbans", "Sundarbans is a mangrove forest area in the Ganges Delta.")]
    ctx = RunContext(topic="Rivers of India", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()
    task = Task(id="write-1", agent="writer", kind="write", section="s1", aim="write")
    inputs = {"notes": [p.model_dump() for p in notes], "title": "Godavari River", "subject": "Rivers of India",
              "keywords": ["godavari", "river"]}
    out = writer.call(writer.build_request(task, inputs, "direct", ctx), ctx)["section"]
    assert [s["text"] for s in out["sentences"]][:1] == ["The Godavari is India's second longest river after the "
                                                         "Ganges River."]


def test_a_sentence_writing_a_one_word_subject_only_in_a_compound_is_not_named_by_it(tmp_path):
    """ "K2 … at 8,611 metres above sea level" had stood in a section of a report on the sea: it writes "sea"
    only in "sea level", which the sea's own texts never write, so it must be related to the sea to be kept."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task

    from fakes import FakeSearch

    core = [_passage("Sea", "The sea is the body of salty water that covers most of the Earth. "
                            "Rivers carry salt from rocks into the sea, where it stays when the water evaporates.")]
    notes = [_passage("Sea level", "Mean sea level is the average level of the sea's surface. The sea level "
                                   "rises as the water of the sea warms."),
             _passage("K2", "K2 rises to 8,611 metres above sea level on the border of China and Pakistan.")]
    ctx = RunContext(topic="sea", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()
    task = Task(id="write-1", agent="writer", kind="write", section="s1", aim="write")
    inputs = {"notes": [p.model_dump() for p in notes], "title": "Sea level", "subject": "sea",
              "subject_notes": [p.model_dump() for p in core], "keywords": ["sea", "level"]}
    out = writer.call(writer.build_request(task, inputs, "direct", ctx), ctx)["section"]
    quoted = [s["text"] for s in out["sentences"] + out["alternates"]]
    assert "Mean sea level is the average level of the sea's surface." in quoted
    assert not [t for t in quoted if t.startswith("K2")]


def test_a_sections_research_reads_its_own_document_whole(tmp_path):
    """"Buddhism and Hinduism": the section on Buddhism searched "Buddhism Buddhism and Hinduism", which found
    Om, Saraswati and the swastika (they name both religions) and not the article on Buddhism; the section never
    said what Buddhism is. The document its focus titles is read whole, as a companion is."""
    from reportgen.acp import MessageLog
    from reportgen.agents.browser import BrowserBrain
    from reportgen.agents.runtime import RunContext
    from reportgen.blueprint.model import Task, TaskInput

    from fakes import FakeSearch

    docs = [{"title": f"Symbol {i} of Buddhism and Hinduism", "text": f"Symbol {i} is sacred in Buddhism and "
                                                                  "Hinduism."} for i in range(9)]
    docs.insert(0, {"title": "Buddhism", "text": "Buddhism is an Indian religion. It teaches the Four Noble Truths."})
    ctx = RunContext(topic="Buddhism and Hinduism", lang="en", search=FakeSearch(docs),
                     log=MessageLog(tmp_path / "m.jsonl"))
    task = Task(id="research-1", agent="browser", kind="research", section="s1", aim="research",
                inputs={"query": TaskInput(value="Buddhism Buddhism and Hinduism")})
    browser = BrowserBrain()
    params = browser.build_request(task, {"query": "Buddhism Buddhism and Hinduism", "focus": "Buddhism", "k": 3},
                                   "default", ctx)
    notes = browser.check_response(task, params, browser.call(params, ctx), ctx)["notes"]
    assert "Buddhism" in [n["title"] for n in notes]
    assert len([n for n in notes if n["title"].startswith("Symbol")]) == 3  # what the search found stays


@pytest.mark.parametrize(("word", "keyword", "expected"), [
    ("financial", "finance", True),  # the silent "e" dropped before a suffix (Porter's step 5a)
    ("migration", "migrate", True),
    ("hydroelectricity", "hydroelectric", True),  # the first seven letters, as before
    ("electron", "electric", False),  # seven letters apart: "electri" / "electro"
    ("engineer", "engine", False),  # a keyword under seven letters is matched whole
    ("finch", "finance", False),
    ("volcanic", "volcano", True),  # a final "o" or "a" goes as the "e" does
    ("volcanism", "volcano", True),
    ("economic", "economy", True),  # a final "y" reads as "i" (Porter's step 1c)
    ("factor", "factory", False),
    ("formulate", "formula", True),
])
def test_a_word_mentions_a_keyword_it_derives_from(word, keyword, expected):
    from reportgen.agents.ranking import mentions

    assert mentions({word}, keyword) is expected


def test_a_section_quotes_its_own_article_before_other_articles_that_only_name_the_subject(tmp_path):
    """ "Animal migration", the answer to "Why do birds migrate?", had quoted its first sentence, then a
    sentence on play and one on teeth that named birds, and not what causes migration."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import OWN_FILL, _about_the_subject

    from fakes import FakeSearch

    ctx = RunContext(topic="Why do birds migrate?", lang="en", search=FakeSearch([]),
                     log=MessageLog(tmp_path / "m.jsonl"))
    notes = [{"text": "Birds are warm-blooded animals with feathers and beaks that lay eggs."}]
    own = _passage("Animal migration", "Animal migration is the long-distance movement of animals. "
                   "Whole herds cross plains and rivers each year. "
                   "The cause of migration may be local climate or the availability of food.")
    others = [_passage("Play", "Play is common among young mammals and birds."),
              _passage("Tooth", "Except for birds, vertebrates usually have teeth."),
              _passage("Nest", "A nest is built by birds for their eggs.")]
    ranked = rank_sentences([*others, own], focus="Animal migration", topic="birds", lang="en")
    kept, _ = _about_the_subject(ranked, notes, ctx, "Animal migration", (), "birds")
    own_kept = [s.text for s in kept if s.source["title"] == "Animal migration"]
    assert "The cause of migration may be local climate or the availability of food." in own_kept
    assert len(own_kept) == min(OWN_FILL, 3)
    # the sentences naming the subject still come first, and stay
    assert {s.text for s in kept} >= {"Play is common among young mammals and birds.",
                                      "A nest is built by birds for their eggs."}


@pytest.mark.parametrize(("text", "lang"), [
    ("His total reign is the longest in the history of the Spanish monarchy.", "en"),  # whose? Philip V's
    ("Her father was a merchant in Lyon.", "en"),
    ("Those were the first steam engines in France.", "en"),
    ("Son règne est le plus long de l'histoire de France.", "fr"),
    ("Sus obras influyeron en toda Europa.", "es"),
])
def test_a_sentence_opening_on_a_possessive_points_back(text, lang):
    """"His total reign is the longest in the history of the Spanish monarchy" stood in a section on the history
    of Poland, its king named only in the sentence before."""
    from reportgen.agents.ranking import quotable

    assert not quotable(text, 0, lang)
    assert quotable("Philip V reigned for 45 years.", 0, "en")


def test_the_conclusion_takes_sentences_about_the_subject_not_naming_it_in_passing(tmp_path):
    """A reader found all five conclusions of a trial off the subject, each on a sentence naming it in passing:
    "In 962, Otto I became the first emperor of the Holy Roman Empire" (the Roman Empire), "In botany, a stoma
    is a pore found in the epidermis of leaves" (why leaves change colour)."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import _summary

    from fakes import FakeSearch

    ctx = RunContext(topic="Elephant", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    notes = [_passage("Mammoth", "Mammoths are an extinct genus closely related to elephants. "
                                 "In the Pleistocene, elephants and mammoths roamed Eurasia together."),
             _passage("Kaziranga National Park", "The park hosts rhinoceros, buffalo, swamp deer, tigers and the "
                                                 "Asian elephant among many others.")]
    ranked = rank_sentences(notes, focus="Elephant", topic="Elephant", lang="en", keywords=["elephant"])
    section = {"id": "s1", "sentences": [{"text": "Elephants are the largest living land animals."}],
               "alternates": []}
    chosen = [s["text"] for s in _summary(ranked, [section], set(), ctx)[0]]
    assert chosen[0] == "In the Pleistocene, elephants and mammoths roamed Eurasia together."
    assert not any(text.startswith("The park hosts") for text in chosen)  # the elephant among many others


@pytest.mark.parametrize(("text", "lang"), [
    ("Risk factors include diet, obesity, smoking, and lack of physical activity.", "en"),
    ("Symptoms include fever, cough and a rash.", "en"),
    ("The most common symptoms are headache and fatigue.", "en"),
    ("Treatment involves rest and fluids.", "en"),
    ("Les symptômes comprennent la fièvre et la toux.", "fr"),
    ("Los síntomas incluyen fiebre y tos.", "es"),
    # examples of a thing named before: a reader found this alone in a report on olive oil
    ("Los ejemplos incluyen sal, mostaza, pimienta, paprika, mayonesa, aceite de oliva, vinagre y azúcar.", "es"),
    ("Examples include salt, mustard and olive oil.", "en"),
    ("Les exemples incluent le sel et la moutarde.", "fr"),
])
def test_a_sentence_opening_on_what_belongs_to_an_unnamed_thing_points_back(text, lang):
    """"Risk factors include diet, obesity, smoking …", from *Colorectal cancer*, read as obesity's in a section
    on obesity: whose risk factors only the sentences before say."""
    from reportgen.agents.ranking import quotable

    assert not quotable(text, 0, lang)
    assert quotable("Malaria symptoms include fever and headache.", 0, "en")  # it names whose
    assert quotable("Signs of spring include blossoms.", 0, "en")
    assert quotable("Examples of condiments include salt and olive oil.", 0, "en")  # it names of what


def test_the_introduction_leaves_out_sentences_naming_the_subject_only_in_compounds_its_texts_never_write(tmp_path):
    """ "The trumpet family includes instruments ranging … to the bass trumpet" opened a report on the bass: a
    compound headed by its own article's word names a trumpet, not the bass (``ranking.of_its_own_kind``).
    "An American jazz pianist" is on jazz, though no jazz text writes "jazz pianist"."""
    notes = [_passage("Bass (music)", "Bass is the lowest range of musical pitch. A double bass plays it."),
             _passage("Trumpet", "The trumpet family includes instruments ranging to the bass trumpet."),
             _passage("Jaco Pastorius", "Jaco Pastorius was a bass player of jazz fusion.")]
    kept = _introduction(tmp_path, "Bass", notes, "Cello")
    assert "The trumpet family includes instruments ranging to the bass trumpet." not in kept
    assert "Jaco Pastorius was a bass player of jazz fusion." in kept


@pytest.mark.parametrize(("text", "title", "lang", "expected"), [
    ("The rash is sometimes itchy and is not as bright as that of measles.", "Rubella", "en", True),
    ("The bacterium is a worldwide problem.", "Staphylococcus aureus", "en", True),
    ("The violin is a wooden chordophone.", "Violin", "en", False),  # its own subject, named
    ("The Moon is the only natural satellite of Earth.", "Moon", "en", False),  # a name, not a kind
    ("La ville est la capitale du pays.", "Paris", "fr", True),
    ("El imperio fue dividido.", "Imperio romano", "es", False),
    # an apposition after the kind: Copernicus's book, quoted under Cicero by a reader's report
    ("The book, first printed in 1543 CE in Nuremberg, was famous.", "Nicolaus Copernicus", "en", True),
    ("The book, printed in 1543, sold well.", "Book", "en", False),
    # an accented kind is its accented title's: "La photosynthèse est …" had never opened "Photosynthèse"
    ("La photosynthèse est le processus bioénergétique des plantes.", "Photosynthèse", "fr", False),
    ("La energía es una propiedad física.", "Energía", "es", False),
])
def test_a_sentence_speaking_of_its_articles_subject_by_its_kind_alone_points_back(text, title, lang, expected):
    """"The rash is sometimes itchy …", of *Rubella*, stood under a section on measles: away from the sentence
    before, "the rash" reads as the section's."""
    from reportgen.agents.ranking import names_another

    assert names_another(text, title, lang) is expected


def test_an_opening_phrase_holding_a_possessive_points_back():
    """"After her death, Egypt became a province of the Roman Empire": Cleopatra's death, named only before."""
    from reportgen.agents.ranking import quotable

    assert not quotable("After her death, Egypt became a province of the Roman Empire.", 0, "en")
    assert not quotable("During their reign, taxes rose.", 0, "en")
    assert quotable("Despite the war, trade grew.", 0, "en")
    rubella = _passage("Rubella", "Rubella is an infection caused by the rubella virus. "
                                  "The rash is sometimes itchy and is not as bright as that of measles.")
    ranked = rank_sentences([rubella], focus="Measles", topic="Measles", lang="en", keywords=["measles"])
    assert "The rash is sometimes itchy and is not as bright as that of measles." not in [
        s.text for s in ranked if s.after is None]  # quoted only after the sentence naming rubella


def test_a_sentence_on_the_subject_is_kept_with_the_sentence_it_reads_on_from(tmp_path, monkeypatch):
    """*Mite*'s "This last type includes the commercially destructive Varroa parasite of honey bees" reads on
    from a sentence on parasites that does not name bees: it had been dropped with it, and the section on
    mites in a report on honey bees said nothing on bees (``writer._with_their_antecedents``)."""
    from reportgen.acp import MessageLog
    from reportgen.agents import writer
    from reportgen.agents.ranking import with_antecedents
    from reportgen.agents.runtime import RunContext

    from fakes import FakeSearch

    monkeypatch.setattr(writer, "OWN_FILL", 0)  # no fill: only what is kept as on the subject
    monkeypatch.setattr(writer, "BODY_FILL", 0)
    ctx = RunContext(topic="Honey bees", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    notes = [{"text": "Honey bees are social insects that make honey and wax in hives."}]
    mite = _passage("Mite", "Mites are small arachnids of two large orders. "
                    "Some live in soil as decomposers, others are predators or parasites. "
                    "This last type includes the Varroa parasite of honey bees. "
                    "Most species are harmless to people.")
    ranked = rank_sentences([mite], focus="Mite", topic="Honey bees", lang="en")
    kept, _ = writer._about_the_subject(ranked, notes, ctx, "Mite", (), "Honey bees")
    texts = [s.text for s in with_antecedents(kept)]
    assert "This last type includes the Varroa parasite of honey bees." in texts
    assert "Some live in soil as decomposers, others are predators or parasites." in texts


def test_an_introduction_takes_no_sentence_writing_the_subject_only_in_a_list(tmp_path):
    """ "Wider definitions include taller palms, tree ferns, bananas, and bamboos", of *Tree*, had opened a report
    on bananas: a sentence writing the subject only as one item of a list is not on it (``writer._writes_subject``
    with ``ranking.listed``, the planner's rule for candidates)."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task

    from fakes import FakeSearch

    notes = [_passage("Banana", "A banana is an elongated, edible fruit of the genus Musa."),
             _passage("Tree", "Wider definitions include taller palms, tree ferns, bananas, and bamboos. "
                              "Bananas grow on large herbaceous plants that look like trees.")]
    ctx = RunContext(topic="Bananas", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()
    task = Task(id="introduction", agent="writer", kind="introduction", section="introduction", aim="intro")
    section = {"id": "s1", "title": "Cooking banana", "sentences": [{"text": "Plantains are cooked."}]}
    params = writer.build_request(task, {"notes": [p.model_dump() for p in notes], "subject": "Bananas",
                                         "section_1": section}, "direct", ctx)
    texts = [s["text"] for s in writer.call(params, ctx)["section"]["sentences"]]
    assert "Bananas grow on large herbaceous plants that look like trees." in texts
    assert "Wider definitions include taller palms, tree ferns, bananas, and bamboos." not in texts


def test_a_pronoun_after_an_opening_phrase_without_a_comma_points_back():
    """A reader found "During World War II he …" under a section that had not said who he was."""
    from reportgen.agents.ranking import quotable

    for text in ("During World War II he served in the navy.", "In 1770 he moved to Vienna.",
                 "After the war she returned to Paris.", "In Europe they are common pets.",
                 "In these tissues the absorbed glucose is stored as glycogen.",  # a demonstrative points back
                 "By that time the city had grown.",
                 # a bracketed group inside the opening phrase (a reader found it under the tiger)
                 "A member of the People's Action Party (PAP), his authoritarian governance was criticised."):
        assert not quotable(text, 0, "en"), text
    for text in ("In places where they nest, eggs are laid.",  # a relative clause, not an opening phrase
                 "By 2020 the population had doubled.", "Inflation rose in 1990 when he left.",
                 "In the 1990s the economy grew."):
        assert quotable(text, 0, "en"), text


def test_with_two_subjects_a_sentence_writing_one_only_in_a_name_after_it_is_not_on_them():
    """The introduction's rule blanks, for each subject alone, an article's name made with its word but headed by
    another noun (``writer._writes_subject``, the planner's ``unnamed_each``): *Tiger shark*'s "The tiger shark is
    a species of ground shark" is not on "lions and tigers", though its name holds no lion."""
    from reportgen.agents.writer import _writes_subject

    shark = "The tiger shark is a species of ground shark."
    assert not _writes_subject(shark, "Tiger shark", "lions and tigers", "en")
    assert not _writes_subject(shark, "Tiger shark", "tigers", "en")  # one subject: as before
    assert _writes_subject("The tiger is the largest living cat.", "Tiger", "lions and tigers", "en")
    assert _writes_subject("Lions and tigers can interbreed in captivity.", "Liger", "lions and tigers", "en")


def _intro_and_conclusion(tmp_path, subject: str, notes: list[Passage], section_title: str):
    """The sentences the writer's introduction and conclusion quote from ``notes`` beside one body section."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task

    from fakes import FakeSearch

    ctx = RunContext(topic=subject, lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()
    section = {"id": "s1", "title": section_title, "sentences": [{"text": f"{section_title} is a subject."}]}
    inputs = {"notes": [p.model_dump() for p in notes], "subject": subject, "section_1": section}
    out = {}
    for kind in ("introduction", "conclusion"):
        task = Task(id=kind, agent="writer", kind=kind, section=kind, aim=kind)
        sentences = writer.call(writer.build_request(task, inputs, "direct", ctx), ctx)["section"]["sentences"]
        out[kind] = [s["text"] for s in sentences]
    return out["introduction"], out["conclusion"]


def test_the_introduction_leaves_the_conclusion_a_sentence_on_the_subject(tmp_path):
    """Readers found 12 of 14 reports without a conclusion: the introduction took every sentence on the subject
    the short summaries hold. With more than two, it leaves its last one writing the subject as what it is
    about to the conclusion; no sentence is quoted twice."""
    organ = _passage("Organ (biology)", (
        "In a multicellular organism, an organ is a collection of tissues joined to serve a common function. "
        "In the hierarchy of life, an organ lies between tissue and an organ system. "
        "Tissues are formed from cells of the same type that act together in a function. "
        "Tissues of different types combine to form an organ which has a specific function. "
        "Two or more organs working together in one body function form an organ system."))
    intro, conclusion = _intro_and_conclusion(tmp_path, "Organ", [organ], "Tissue")
    assert "Two or more organs working together in one body function form an organ system." in conclusion
    assert len(intro) >= 3 and not set(intro) & set(conclusion)
    assert intro[0].startswith("In a multicellular organism")
    # a sentence not about the subject, though of its own article, is not what a conclusion leaves with
    assert "Tissues are formed from cells of the same type that act together in a function." not in conclusion
    # a sentence the introduction's later sentences of its passage may lean on stays ("The agent stimulates …"
    # after "A vaccine typically contains an agent …", which had gone to the conclusion)
    vaccine = _passage("Vaccine", (
        "A vaccine is a biological preparation that provides active acquired immunity to a disease. "
        "The safety and effectiveness of vaccines has been widely studied and verified. "
        "A vaccine typically contains an agent that resembles a disease-causing microorganism. "
        "The agent stimulates the immune system to recognize the agent as a threat and destroy it."))
    intro, conclusion = _intro_and_conclusion(tmp_path, "Vaccine", [vaccine], "Vaccination")
    assert "A vaccine typically contains an agent that resembles a disease-causing microorganism." in intro
    assert not set(intro) & set(conclusion)
    # three sentences, the third not on the organ as what it is about: the introduction keeps them all
    short = _passage("Organ (biology)", ". ".join(organ.text.split(". ")[:3]) + ".")
    intro, conclusion = _intro_and_conclusion(tmp_path, "Organ", [short], "Tissue")
    assert len(intro) == 3 and not conclusion
    # three sentences, one on the subject past the opening: it goes, though ranked second (*Solar power*'s
    # article is three sentences; its report had no conclusion while one of them was about solar power)
    solar = _passage("Solar power", (
        "Solar power is the conversion of sunlight into electricity. Solar panels use the photovoltaic effect "
        "to turn light into a current. Concentrated solar power systems focus sunlight with mirrors."))
    intro, conclusion = _intro_and_conclusion(tmp_path, "Solar power", [solar], "Steam turbine")
    assert conclusion == ["Concentrated solar power systems focus sunlight with mirrors."]
    assert intro == ["Solar power is the conversion of sunlight into electricity.",
                     "Solar panels use the photovoltaic effect to turn light into a current."]


def test_a_section_titled_with_the_subjects_word_leaves_the_subjects_article_to_open_the_report(tmp_path):
    """A section on one earthquake ("1755 Lisbon earthquake") is on a thing of the subject's kind, not on a second
    subject: the introduction still opens on the subject's own article's definition, which its list of other
    names ("a quake, tremor, or temblor") had kept out (it then closed the report as its conclusion)."""
    quake = _passage("Earthquake", (
        "An earthquake, also called a quake, tremor, or temblor, is the shaking of the Earth's surface. "
        "Earthquakes can range in intensity, from those so weak they cannot be felt to violent ones."))
    intro = _introduction(tmp_path, "Earthquake", [quake], "1755 Lisbon earthquake")
    assert intro[0].startswith("An earthquake, also called a quake")


def test_a_number_before_such_points_back():
    """"Three such wars took place …" stood under *Carthage* before the Punic Wars were named: a number or
    quantifier before "such" points back; "such as" names its own examples."""
    from reportgen.agents.ranking import quotable

    for text in ("Three such wars took place between 264 and 146 BC.", "Many such cases were reported in Asia."):
        assert not quotable(text, 0, "en"), text
    for text in ("Grains such as rice are staple foods.", "Examples such as these are rare in Europe."):
        assert quotable(text, 0, "en"), text


def test_one_more_of_a_kind_and_the_french_y_point_back():
    """"Un troisième isotope, le tritium 3H, …" and "La production d'électricité y est assurée …" stood alone in a
    section on fission (the first isotopes, and the country, named only in the sentences before): an opening on
    one more of a kind ("A third", "Another", "Otra") and the French pronoun "y" point back. The impersonal "il y
    a", "y compris" and the Spanish "y" of a name do not."""
    from reportgen.agents.ranking import quotable

    for text, lang in (("A third isotope, tritium, is produced in fission reactions.", "en"),
                       ("Another name for the cello is the violoncello.", "en"),
                       ("Un troisième isotope, le tritium 3H, instable, est produit dans les réactions.", "fr"),
                       ("La production d'électricité y est assurée par la conversion d'une énergie primaire.", "fr"),
                       ("On y trouve des dunes de sable et des lacs de sel.", "fr"),
                       ("Le fleuve Saint-Laurent s'y jette à l'extrémité orientale de l'estuaire.", "fr"),
                       ("Otra especie del género vive en los Andes.", "es"),
                       ("Una tercera guerra estalló en 1812.", "es"),
                       ("Conversely, the cycle may be reversed to move heat.", "en"),
                       ("Inversement, le cycle peut être inversé.", "fr")):
        assert not quotable(text, 0, lang), text
    for text, lang in (("A thirdhand account survives in a letter of 1600.", "en"),
                       ("En Europe, il y a deux sortes de pianos, les droits et les pianos à queue.", "fr"),
                       ("En 2020, il n'y a pas de vaccin contre la maladie.", "fr"),
                       ("Les métaux, y compris le fer, conduisent l'électricité.", "fr"),
                       ("Santiago Ramón y Cajal est un histologiste espagnol.", "fr"),
                       ("La fission nucléaire est le phénomène par lequel un noyau lourd est scindé.", "fr")):
        assert quotable(text, 0, lang), text


def test_the_others_of_a_kind_and_a_demonstrative_opening_point_back():
    """"Other types, such as elementary or secondary school buses …, are free" and "Other reasons include maternal
    health …" stood in a report on education in Finland, their kind named only before; "Durante estos 35 años,
    México experimentó un notable crecimiento económico" closed one on Mexico's economy, the years named only
    before, and "Fue la primera acción encubierta …" stood there with no subject (a reader's finds). "Other
    than" compares, and a demonstrative naming its own noun's referent in the phrase is none."""
    from reportgen.agents.ranking import quotable

    for text, lang in (("Other types, such as elementary or secondary school buses, are free.", "en"),
                       ("Other reasons include maternal health and an inability to afford a child.", "en"),
                       ("D'autres espèces vivent dans les Andes.", "fr"),
                       ("Durante estos 35 años, México experimentó un notable crecimiento económico.", "es"),
                       ("Pendant cette période, la France connut une forte croissance.", "fr"),
                       # Spanish drops the subject it shares with the sentence before
                       ("Está ubicado en la región oeste del país, limitando al norte con Oregón.", "es"),
                       ("Fue la primera acción encubierta de los Estados Unidos en tiempos de paz.", "es"),
                       ("Comunica el mar Caribe con el golfo de México.", "es"),
                       # what the sentence before did or named (a second reader's finds)
                       ("In doing so, the water goes through different phases.", "en"),
                       ("To its west it is connected to the Atlantic Ocean by the Strait of Gibraltar.", "en"),
                       ("The term contrasts with the Western Front.", "en")):
        assert not quotable(text, 0, lang), text
    from reportgen.agents.ranking import names_another

    # a kind named after an opening phrase: "As of 2020, the city had …", of *Kyoto*, stood under Osaka
    assert names_another("As of 2020, the city had a population of 1.46 million.", "Kyoto", "en")
    assert not names_another("In 1900, the violin was the most popular instrument.", "Violin", "en")
    for text, lang in (("Other than the Sun, the nearest star is Proxima Centauri.", "en"),
                       ("Othello is a tragedy by William Shakespeare.", "en"),
                       ("Durante el siglo XX, México experimentó un notable crecimiento económico.", "es"),
                       ("Pendant la Révolution, la France abolit la monarchie.", "fr"),
                       ("Se cree que el imperio cayó en 1521.", "es"),  # impersonal
                       ("Esmeralda es una ciudad de Ecuador.", "es"),
                       # a possessive in a main clause is the clause's own: the Mozart report had lost its section
                       # on the symphony, whose article opens so (a third reader's find)
                       ("Wolfgang Amadeus Mozart completed his Symphony No. 41 in C major, K. 551, on 10 August "
                        "1788.", "en"),
                       ("La ville a perdu cette bataille, puis la guerre.", "fr")):
        assert quotable(text, 0, lang), text


def test_a_companions_sentence_not_naming_the_subject_is_held_to_the_stricter_threshold(tmp_path, monkeypatch):
    """In a topic space, a companion's sentence that does not name the subject had been kept at the section's own
    threshold (0.2): "Chinese cuisine comprises cuisines originating from China" in a rice briefing, "Sir Charles
    Kao … fibre optics" in *Internet*. It is held to :data:`OTHER_SENTENCE_THRESHOLD`, as other articles' are;
    the section's own article keeps the lower one."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import OTHER_SENTENCE_THRESHOLD, _about_the_subject
    from reportgen.blueprint import relevance

    from fakes import FakeSearch

    middle = (0.2 + OTHER_SENTENCE_THRESHOLD) / 2  # between the two thresholds

    Scored = _relatedness_of(middle)  # the relatedness of every sentence: between the thresholds
    monkeypatch.setattr(relevance, "Relatedness", Scored)
    ctx = RunContext(topic="rice", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    notes = [{"text": "Rice is the seed of the grass species Oryza sativa."}]
    own = _passage("Staple food", " ".join(f"Staple food number {i} is eaten routinely in large quantities."
                                           for i in range(1, 7)))  # enough of its own: no fill from companions
    companion = _passage("Chinese cuisine", "Chinese cuisine uses staple food eaten routinely in large quantities.")
    ranked = rank_sentences([own, companion], focus="Staple food", topic="rice", lang="en")
    assert companion.text in [s.text for s in ranked]
    kept, _ = _about_the_subject(ranked, notes, ctx, "Staple food", ("Chinese cuisine",), "rice")
    assert len(kept) >= 5 and companion.text not in [s.text for s in kept]
    monkeypatch.setattr(Scored, "scores", lambda self, texts: [OTHER_SENTENCE_THRESHOLD for _ in texts])
    kept, _ = _about_the_subject(ranked, notes, ctx, "Staple food", ("Chinese cuisine",), "rice")
    assert companion.text in [s.text for s in kept]  # at the stricter threshold it stays


def _relatedness_of(score: float) -> type:
    """A stand-in for :class:`~reportgen.blueprint.relevance.Relatedness` in a topic space, scoring every text
    ``score`` (its threshold 0.2)."""

    class Scored:
        threshold = 0.2
        space = object()

        def __init__(self, *_args, **_kwargs):
            pass

        def scores(self, texts):
            return [score for _ in texts]

    return Scored


def test_another_articles_sentence_related_by_its_field_alone_is_kept_only_on_the_sections_theme(tmp_path,
                                                                                                 monkeypatch):
    """A companion's sentence that names neither the subject nor the section's theme had been kept by its
    relatedness to the subject's field: "Imperialism is the maintaining and extending of power over foreign
    nations" under *Wind power*, "Baking … uses dry heat" under *Refrigeration* in a report on heat pumps. However
    related, it must mention every keyword of the section (or its article's title must), as other articles'
    sentences must in rank_sentences; the section's own article is not held to it."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import _about_the_subject
    from reportgen.blueprint import relevance
    from reportgen.blueprint.planner import section_keywords

    from fakes import FakeSearch

    # every sentence far above both thresholds: related to the subject's field
    monkeypatch.setattr(relevance, "Relatedness", _relatedness_of(0.9))
    ctx = RunContext(topic="heat pumps", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    notes = [{"text": "A heat pump is a device that uses electric power to transfer heat from a cold place."}]
    own = _passage("Refrigeration", "Refrigeration is any of various types of cooling of a space. "
                                    "Its methods move heat out of a space by mechanical means.")
    baking = _passage("Baking", "Baking is a method of preparing food that uses dry heat, typically in an oven. "
                                "Industrial refrigeration keeps baked goods fresh for weeks.")
    companions = ("Baking",)
    ranked = rank_sentences([own, baking], focus="Refrigeration", topic="heat pumps", lang="en",
                            companions=companions)
    keywords = section_keywords("Refrigeration", "en")
    kept = [s.text for s in _about_the_subject(ranked, notes, ctx, "Refrigeration", companions, "heat pumps",
                                               keywords)[0]]
    assert "Baking is a method of preparing food that uses dry heat, typically in an oven." not in kept
    assert "Industrial refrigeration keeps baked goods fresh for weeks." in kept  # on the theme
    assert "Its methods move heat out of a space by mechanical means." in kept  # the own article's, as it was


@pytest.mark.parametrize(("text", "lang", "alone"), [
    # a time only the sentence before gives (a reader found the first under *Johannes Gutenberg*)
    ("Printing by pressing an inked image onto paper appeared later that century.", "en", False),
    ("The air raid prompted the US to declare war on Japan the next day.", "en", False),
    ("Eris was discovered in January 2005 by a team and verified later that year.", "en", True),  # dated itself
    ("Shakespeare was baptised in the same year as Marlowe.", "en", True),  # a comparison
    ("Selznick reçoit aussi l'Irving G. Thalberg Memorial Award la même année.", "fr", False),
    ("Les Jeux d'hiver sont organisés la même année que les Jeux d'été jusqu'en 1992.", "fr", True),
    ("La guerra terminó ese mismo año con un tratado.", "es", False),
    # what stands for a thing named before (a reader found the first two under *Feather*, no species named)
    ("Many are brightly coloured, often with iridescent feathers.", "en", False),
    ("The males of these species tend to have brighter plumage.", "en", False),
    ("Both are named for him.", "en", False),
    ("A member of this family is also called a felid.", "en", False),
    ("Members of this genus are small, active predators.", "en", False),
    ("The blackberry is a fruit of the genus Rubus, and hybrids among these species are common.", "en", True),
    ("In the sense of flowing water, the word may also be applied to the inflow of the tide.", "en", False),
    ("Most birds migrate at night.", "en", True),
    ("The term 'flood' comes from Old English.", "en", True),  # the word is given
    ("Some of the oldest sharks are known from the Jurassic.", "en", True),
    # a quantifier of "this" or "that", a possessive in the opening noun phrase (a reader found the first two alone
    # under *Heart* and *Quasar*), what is left of a cross-reference (under *Agriculture*)
    ("Most of this pressure results from the heart pumping blood.", "en", False),
    ("The mass of its central supermassive black hole is 900 million times the Sun's.", "en", False),
    ("The rest of his life was spent in Paris.", "en", False),
    ("For a discussion of the role of drainage practices in agriculture.", "en", False),
    ("Most of the world's tea is grown in Asia.", "en", True),
    ("The history of tea is long and complex.", "en", True),
    ("For centuries, tea was traded along the Silk Road.", "en", True),
    # a second reader's finds: a pronoun after an opening phrase holding a list, or after "among", or an "it"
    # that is no impersonal one; a noun standing for the article's subject; a Spanish preposition on a pronoun
    ("Associated with genres including Afropop, jazz, and world music, she was an advocate against apartheid.", "en",
     False),
    ("Among his best-known works are the songs Swanee and Rhapsody.", "en", False),
    ("In Japan it is known simply as pops.", "en", False),
    ("In mathematics it is common to write x for the unknown.", "en", True),
    ("The country's western border is formed by the Yellow Sea.", "en", False),
    ("The group drew on the music of 1950s rock and roll.", "en", False),
    ("In the composer's time clavier referred to any keyboard.", "en", False),
    ("The city of Paris is the capital of France.", "en", True),
    ("The band Queen was formed in London in 1970.", "en", True),
    ("En él nacen los glaciares de Hubbard y Logan.", "es", False),
    ("Avec lui, le groupe enregistre trois albums.", "fr", False),
])
def test_a_time_or_a_thing_named_only_before_points_back(text, lang, alone):
    from reportgen.agents.ranking import quotable

    assert quotable(text, 0, lang) is alone


def test_the_following_year_is_a_time_not_the_sources_own_text():
    """*Atahualpa*'s one sentence ends "… his capture and execution in July of the following year": it had been read
    as the source's own text ("The following is a list …") and its section in a report on the Inca civilization was
    left out, its sources holding "no sentence on it"."""
    text = ("Atawallpa, also Atahualpa or Ataw Wallpa, was the last effective Inca emperor, reigning from April 1532 "
            "until his capture and execution in July of the following year. The following is a list of "
            "Atahualpa's wives. "
            "His sons are listed in the following:")
    passage = Passage(source_id="wiki-en:Atahualpa", title="Atahualpa", text=text,
                      url="https://en.wikipedia.org/wiki/Atahualpa", corpus="c")
    ranked = rank_sentences([passage], focus="Atahualpa", topic="Inca civilization", lang="en",
                            keywords=["atahualpa"])
    assert [r.text[:20] for r in ranked] == ["Atawallpa, also Atah"]


def test_a_sentence_whose_formula_the_plain_text_lost_is_not_quoted():
    """ "It is denoted [U+2060 U+2060] or …": the encyclopedia's plain text keeps only the word joiners around a
    formula; a formula that is kept ("real part 1/2" between two of them) leaves it quotable."""
    from reportgen.agents.ranking import quotable

    assert not quotable("The set of rational numbers is denoted \u2060\u2060 or \u2060\u2060 in print.", 0, "en")
    assert quotable("The zeros have real part \u20601/2\u2060 on the critical line.", 0, "en")


def test_the_thing_of_a_past_tense_or_a_verb_of_saying_is_its_articles_kind():
    """ "The revolution concluded the collapse …" (in *Russian Revolution*) and "The theory holds that
    mitochondria …" (in *Chloroplast*) read, away from the sentence before, as about whatever the section is on."""
    from reportgen.agents.ranking import names_another

    assert names_another("The revolution concluded the collapse of the empire.", "Ottoman Empire", "en")
    assert names_another("The theory holds that mitochondria were once bacteria.", "Chloroplast", "en")
    assert not names_another("The revolution began in 1917.", "Russian Revolution", "en")


def test_a_body_sentence_writing_the_subject_only_in_a_list_does_not_name_it(tmp_path):
    """"Scarves can be made from materials including wool, linen, silk, and cotton" stood in a section on cotton
    (a reader's stray paragraph): another article's sentence writing the subject only as one item of a list
    must be related to be kept, as the introduction's and the planner's rule has it."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import _about_the_subject

    from fakes import FakeSearch

    ctx = RunContext(topic="cotton", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    notes = [{"text": "Cotton is a soft fibre that grows in a boll around the seeds of cotton plants."}]
    scarf = _passage("Scarf", "Scarves can be made from materials including wool, linen, silk, and cotton. "
                              "Cotton is also the fibre of light summer scarves.")
    ranked = rank_sentences([scarf], focus="Textile", topic="cotton", lang="en")
    kept, _ = _about_the_subject(ranked, notes, ctx, "Textile", (), "cotton")
    kept_texts = [s.text for s in kept]
    assert "Cotton is also the fibre of light summer scarves." in kept_texts
    assert "Scarves can be made from materials including wool, linen, silk, and cotton." not in kept_texts


def test_a_proper_names_word_with_a_small_letter_is_another_thing(tmp_path, monkeypatch):
    """The Moon's article writes "the Moon" with its capital every time: "Callisto is the second-largest moon of
    Jupiter" is on another moon, and had stood in a section on solar eclipses of a report on the Moon's phases.
    A companion's sentence writing the subject only as a measure ("roughly a third larger than Earth's Moon")
    is no more on it. Both are kept only when related and on the section's theme. A common word stays as it
    was: the tiger's article writes "tiger" small."""
    from reportgen.acp import MessageLog
    from reportgen.agents.ranking import proper_word, writes_proper
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import _about_the_subject
    from reportgen.blueprint import relevance
    from reportgen.blueprint.planner import section_keywords

    from fakes import FakeSearch

    moon = "The Moon is the only natural satellite of Earth. It orbits Earth, and the Moon always shows one face."
    assert proper_word("Moon", moon) and not proper_word("Moon", moon + " A moon of Jupiter is icy.")
    assert not proper_word("Tiger", "The tiger is a large cat. Most tigers live in Asia, where the tiger hunts.")
    assert not proper_word("Jazz", "It grew from New Orleans Jazz. The Jazz Age followed.")  # inside longer names
    assert writes_proper("larger than Earth's Moon", "Moon") and not writes_proper("a moon of Jupiter", "Moon")

    # nothing related by its vocabulary: only naming keeps a sentence
    monkeypatch.setattr(relevance, "Relatedness", _relatedness_of(0.0))
    ctx = RunContext(topic="Moon", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    notes = [{"title": "Moon", "text": moon}]
    own = _passage("Solar eclipse", "A solar eclipse occurs when the Moon passes between Earth and the Sun.")
    callisto = _passage("Callisto (moon)", "Callisto is the second-largest moon of Jupiter, after Ganymede. "
                                           "Callisto orbits Jupiter and is roughly a third larger than Earth's Moon. "
                                           "Sunlight glints on the Moon when Callisto is seen from Earth.")
    companions = ("Callisto (moon)",)
    ranked = rank_sentences([own, callisto], focus="Solar eclipse", topic="Moon", lang="en", companions=companions)
    kept = [s.text for s in _about_the_subject(ranked, notes, ctx, "Solar eclipse", companions, "Moon",
                                               section_keywords("Solar eclipse", "en"))[0]]
    assert "Callisto is the second-largest moon of Jupiter, after Ganymede." not in kept
    assert "Callisto orbits Jupiter and is roughly a third larger than Earth's Moon." not in kept
    assert "Sunlight glints on the Moon when Callisto is seen from Earth." in kept  # names it, as itself
    assert own.text in kept


def test_a_sentence_naming_its_subject_by_its_titles_kind_is_quoted_elsewhere_only_after_its_antecedent():
    """"The company sells automobiles … under the Ford brand", of *Ford Motor Company*, had stood alone under *Car*
    (a reader found it saying no company). In its own section it stands; elsewhere it needs the sentence before."""
    from reportgen.agents.ranking import by_its_kind

    assert by_its_kind("The company sells automobiles under the Ford brand.", "Ford Motor Company", "en")
    assert not by_its_kind("The Ford Motor Company sells cars.", "Ford Motor Company", "en")  # writes its name
    assert not by_its_kind("The violin is a string instrument.", "Violin", "en")  # a title of one word
    ford = _passage("Ford Motor Company", "Ford Motor Company is an American carmaker founded by Henry Ford. "
                                          "The company sells cars and commercial vehicles under the Ford brand.")
    first = ["Ford Motor Company is an American carmaker founded by Henry Ford."]  # quoted by another section
    elsewhere = [s.text for s in rank_sentences([ford], focus="Car", topic="cars", lang="en", exclude=first)]
    assert not any(t.startswith("The company") for t in elsewhere)
    own = [s.text for s in rank_sentences([ford], focus="Ford Motor Company", topic="cars", lang="en",
                                          exclude=first)]
    assert any(t.startswith("The company") for t in own)


def test_the_conclusion_takes_no_sentence_writing_the_subject_only_in_a_set_phrase(tmp_path):
    """"Jade is an umbrella term for two different types of decorative rocks" had closed the report on the
    umbrella: the documents fetched write "umbrella term" three times or more, a set phrase on other things."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import _summary

    from fakes import FakeSearch

    ctx = RunContext(topic="Umbrella", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    own = _passage("Umbrella", "An umbrella is a folding canopy on a pole. The umbrella protects from rain.")
    others = [_passage(t, f"{t} is an umbrella term for {what}.")
              for t, what in (("Jade", "two kinds of decorative rocks"), ("Textile", "fibre-based materials"),
                              ("Gender", "many identities"))]
    ranked = rank_sentences([own, *others], focus="Umbrella", topic="Umbrella", lang="en", keywords=["umbrella"])
    section = {"id": "s1", "sentences": [{"text": "An umbrella is a folding canopy on a pole."}], "alternates": []}
    chosen = [s["text"] for s in _summary(ranked, [section], {"An umbrella is a folding canopy on a pole."}, ctx,
                                          "Umbrella", fetched=[own, *others])[0]]
    assert chosen == ["The umbrella protects from rain."], chosen
    unjudged = [s["text"] for s in _summary(ranked, [section], {"An umbrella is a folding canopy on a pole."}, ctx,
                                            "Umbrella", fetched=[own])[0]]
    assert any("umbrella term" in text for text in unjudged)  # the rule is what leaves them out


def test_a_sentence_naming_the_sections_place_only_where_someone_died_is_not_on_it(tmp_path, monkeypatch):
    """*Henri IV*, *Louis XVI* and *Eugène Ionesco*, each "mort … à Paris", had filled the section on Paris of a
    report on the Eiffel Tower (a reader's find): however related, a place where someone was born or died is no
    theme of the sentence (ranking.without_life_places)."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import _about_the_subject
    from reportgen.blueprint import relevance
    from reportgen.blueprint.planner import section_keywords

    from fakes import FakeSearch

    monkeypatch.setattr(relevance, "Relatedness", _relatedness_of(0.9))  # related to the subject's field
    ctx = RunContext(topic="Eiffel Tower", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    notes = [{"text": "The Eiffel Tower is a wrought-iron lattice tower in Paris."}]
    own = _passage("Paris", "Paris is the capital of France.")
    life = _passage("Eugène Ionesco", "Eugène Ionesco, born in 1909 in Slatina and died in 1994 in Paris, was a "
                                      "playwright. Ionesco often walked through Paris at night.")
    ranked = rank_sentences([own, life], focus="Paris", topic="Eiffel Tower", lang="en")
    kept = [s.text for s in _about_the_subject(ranked, notes, ctx, "Paris", (), "Eiffel Tower",
                                               section_keywords("Paris", "en"))[0]]
    assert "Ionesco often walked through Paris at night." in kept  # the place is its theme
    assert not any(text.startswith("Eugène Ionesco, born") for text in kept)


def test_a_name_written_only_inside_a_longer_name_is_another_thing(tmp_path, monkeypatch):
    """"Elected in 1658, Leopold ruled the Holy Roman Empire until his death in 1705" stood in a report on why the
    Roman Empire fell (a reader's find): the subject written only inside a longer name opening on another
    capitalised word is another thing; "the Western Roman Empire" is a part of it."""
    from reportgen.acp import MessageLog
    from reportgen.agents.ranking import in_longer_names_only
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import _about_the_subject, _writes_subject
    from reportgen.blueprint import relevance

    from fakes import FakeSearch

    leopold = "Elected in 1658, Leopold ruled the Holy Roman Empire until his death in 1705."
    western = "The Western Roman Empire collapsed in 476 AD."
    assert in_longer_names_only(leopold, "Roman Empire")
    assert not in_longer_names_only(western, "Roman Empire")
    assert not in_longer_names_only("Holy Roman Empire lords fought the Roman Empire's heirs.", "Roman Empire")
    assert not in_longer_names_only(leopold, "roman empire")  # no name
    # a season's or an ordinal's games, revolution or war are the same thing's parts: *Summer Olympic Games* had
    # left the themes of "Olympic Games" once a name written only inside a longer one named no candidate
    assert not in_longer_names_only("The Summer Olympic Games are held every four years.", "Olympic Games")
    assert not in_longer_names_only("The Second Industrial Revolution brought steel.", "Industrial Revolution")
    assert not _writes_subject(leopold, "Leopold I", "Roman Empire", "en")
    assert _writes_subject(western, "Western Roman Empire", "Roman Empire", "en")
    monkeypatch.setattr(relevance, "Relatedness", _relatedness_of(0.0))  # kept by naming alone, or not at all
    ctx = RunContext(topic="Roman Empire", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    ranked = rank_sentences([_passage("Leopold I", leopold), _passage("Western Roman Empire", western)],
                            focus="Western Roman Empire", topic="Roman Empire", lang="en")
    kept = [s.text for s in _about_the_subject(ranked, [{"text": "The Roman Empire ruled the Mediterranean."}], ctx,
                                               "Fall of Rome", (), "Roman Empire", ["fall"])[0]]
    assert kept == [western]


def test_an_introduction_on_a_subject_no_sentence_writes_quotes_the_texts_it_is_drawn_from(tmp_path):
    """A subject without an article of its own ("Music of Cuba") is drawn from the texts that mention it, as the note at
    the top says; where no sentence writes it, those texts open the report, searched when the overview's notes do
    not hold them, not the best ranked of any source ("Cuba, officially the Republic of Cuba, is an island country"
    and the Cuban Missile Crisis had opened it)."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task

    from fakes import FakeSearch

    salsa = ("Salsa is a style of dance music influenced by music from Cuba and Puerto Rico. Most salsa songs are "
             "based on son montuno and son cubano.")
    notes = [_passage("Cuba", "Cuba is an island country in the Caribbean. Its music of many kinds is famous."),
             _passage("Cuban Missile Crisis", "The Cuban Missile Crisis was a confrontation over missiles in Cuba.")]
    search = FakeSearch([{"title": "Salsa music", "text": salsa}, {"title": "Cuba", "text": notes[0].text}])
    ctx = RunContext(topic="Music of Cuba", lang="en", search=search, log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()
    task = Task(id="introduction", agent="writer", kind="introduction", section="introduction", aim="intro")
    section = {"id": "s1", "title": "Celia Cruz", "sentences": [{"text": "Celia Cruz was a Cuban singer."}]}
    inputs = {"notes": [p.model_dump() for p in notes], "subject": "Music of Cuba", "section_1": section}

    def introduction(extra: dict) -> list[str]:
        params = writer.build_request(task, {**inputs, **extra}, "direct", ctx)
        return [s["text"] for s in writer.call(params, ctx)["section"]["sentences"]]

    assert any("Cuba is an island" in s or "Missile" in s for s in introduction({}))  # without the core's titles
    opened = introduction({"sense": ["Salsa music"]})
    assert opened and all(s in salsa for s in opened), opened


def test_a_name_of_several_words_in_a_subject_is_written_whole_by_its_core():
    """ "Rivers of South America" had the Columbia River in its core (its article writes "then south" and "North
    America"), and it opened the report."""
    from reportgen.blueprint.planner import _core

    from factories import passage

    columbia = passage("Columbia River", "The Columbia River is the largest river of North America. It flows north "
                       "and then south into Washington; rivers join it.")
    amazon = passage("Amazon River", "The Amazon River in South America is the largest river by discharge.")
    assert [p.title for p in _core([columbia, amazon], "Rivers of South America", "en")] == ["Amazon River"]
    # without a name of several words in it, the densest passages are the core as before
    assert {p.title for p in _core([columbia, amazon], "Rivers of America", "en")} == {"Columbia River", "Amazon River"}


def test_a_french_or_spanish_title_its_article_capitalises_inside_sentences_is_a_proper_name():
    """French and Spanish titles are in sentence case ("Révolution française", "Revolución mexicana"), so the title
    does not say whether the subject is a name; its article does, writing "La Revolución mexicana fue …", "la
    Segunda Guerra Mundial". Read as no name, any one of its words named it: *Guadalajara (México)*, *Antiguo
    Régimen en Francia* and *Independencia de México* had been sections of "La Revolución mexicana". "La guerra
    civil española", as the Spanish encyclopedia writes it, stays no name."""
    from reportgen.blueprint.planner import proper_name

    from factories import passage

    revolution = passage("Revolución mexicana", "La Revolución mexicana fue un conflicto armado en México. Durante "
                         "la Revolución mexicana cayó el porfiriato.")
    assert proper_name("Revolución mexicana", [revolution], "es")
    war = passage("Guerra civil española", "La guerra civil española fue una guerra. Tras la Guerra Civil llegó la "
                  "dictadura; la guerra civil española terminó en 1939.")
    assert not proper_name("Guerra civil española", [war], "es")
    power = passage("Énergie nucléaire", "L'énergie nucléaire est l'énergie libérée par les noyaux.")
    assert not proper_name("Énergie nucléaire", [power], "fr")
    assert not proper_name("Revolución mexicana", [revolution], "en")  # English titles say it themselves


def test_a_body_sentence_writing_the_subject_only_inside_a_longer_name_is_not_kept(tmp_path):
    """ "The Holy Roman Empire, also known as …" had stood under *Western Roman Empire* in an overview of the Roman
    Empire, kept as related to the subject and holding the section's words ("Western Europe"): another article's
    sentence writing the subject only inside a longer name is on that other thing (``in_longer_names_only``)."""
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task
    from reportgen.blueprint.planner import section_keywords

    from fakes import FakeSearch

    core = _passage("Roman Empire", "The Roman Empire ruled lands around the Mediterranean with emperors, legions "
                    "and provinces. The Roman Empire split into a western and an eastern half.")
    own = _passage("Western Roman Empire", "The Western Roman Empire was the western half of the Roman Empire, "
                   "ruled by emperors with legions and provinces.")
    holy = _passage("Holy Roman Empire", "The Holy Roman Empire ruled lands of Western Europe with emperors, legions "
                    "and provinces.")
    ctx = RunContext(topic="Roman Empire", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()
    task = Task(id="write-1", agent="writer", kind="write", section="s1", aim="write")
    inputs = {"notes": [p.model_dump() for p in (own, holy)], "title": "Western Roman Empire",
              "keywords": section_keywords("Western Roman Empire", "en"), "section_id": "s1", "subject": "Roman Empire",
              "subject_notes": [core.model_dump()]}
    out = writer.call(writer.build_request(task, inputs, "direct", ctx), ctx)["section"]["sentences"]
    texts = [s["text"] for s in out]
    assert own.text in texts and holy.text not in texts, texts


def test_a_section_named_with_a_one_letter_designator_quotes_only_texts_writing_the_whole_name(tmp_path):
    """The moons of the planet Saturn had stood in the section on the *Saturn V* rocket of a report on the Apollo 11
    moon landing: one-letter tokens are no terms, so the section's keyword was "saturn" alone."""
    from reportgen.agents.ranking import names_designated

    assert not names_designated("Titan. Titan is the largest moon of Saturn.", "Saturn V")
    assert names_designated("Apollo program. The Saturn V rocket carried the crews.", "Saturn V")
    assert names_designated("Titan. Titan is the largest moon of Saturn.", "Saturn")  # no designator, no check
    assert not names_designated("Vitamin D. Vitamin D is made in the skin.", "Vitamin C")
    assert not names_designated("World War II was a global conflict.", "World War I")
    notes = [_passage("Saturn V", "The Saturn V is a retired American super heavy-lift launch vehicle. The rocket "
                                  "had three stages."),
             _passage("Titan (moon)", "Titan is the largest moon of Saturn. Saturn has 146 moons."),
             _passage("Apollo program", "The Saturn V rocket launched the Apollo program's crews to the Moon.")]
    from reportgen.acp import MessageLog
    from reportgen.agents.runtime import RunContext
    from reportgen.agents.writer import WriterBrain
    from reportgen.blueprint.model import Task

    from fakes import FakeSearch

    ctx = RunContext(topic="Apollo 11", lang="en", search=FakeSearch([]), log=MessageLog(tmp_path / "m.jsonl"))
    writer = WriterBrain()
    task = Task(id="write-1", agent="writer", kind="write", section="s1", aim="write")
    inputs = {"notes": [p.model_dump() for p in notes], "title": "Saturn V", "subject": "Apollo 11",
              "keywords": ["saturn"], "section_id": "s1"}
    out = writer.call(writer.build_request(task, inputs, "direct", ctx), ctx)["section"]
    quoted = [s["text"] for s in out["sentences"]]
    assert "The Saturn V rocket launched the Apollo program's crews to the Moon." in quoted
    assert not any("moons" in text or "moon of" in text for text in quoted), quoted


def test_a_hyphenated_name_holding_a_sections_word_is_another_thing():
    """*Loire*, a section of "Les châteaux de la Loire", had quoted biographies for "Indre-et-Loire" and
    "Saône-et-Loire", and *Marie Antoinette* the chef "Marie-Antoine Carême"."""
    loire = [_passage("Loire", "La Loire est le plus long fleuve de France. Elle se jette dans l'océan Atlantique."),
             _passage("René Descartes", "René Descartes est un philosophe né à La Haye, commune de l'Indre-et-Loire."),
             _passage("Nantes", "Nantes est une ville sur les rives de la Loire, près de l'océan Atlantique.")]
    ranked = rank_sentences(loire, focus="Loire", topic="châteaux Loire", lang="fr", keywords=["loire"])
    assert {r.source["title"] for r in ranked} == {"Loire", "Nantes"}
    queen = [_passage("French cuisine", "Chefs such as Marie-Antoine Carême shaped French cooking."),
             _passage("Marie Antoinette", "Marie Antoinette was the last queen of France before the Revolution.")]
    ranked = rank_sentences(queen, focus="Marie Antoinette", topic="French Revolution", lang="en",
                            keywords=["marie", "antoinette"])
    assert [r.source["title"] for r in ranked] == ["Marie Antoinette"]
    # the section's own hyphenated name, and a compound joining its thing to another, are on it
    ranked = rank_sentences([_passage("Franco-Prussian War", "The Franco-Prussian War was fought by Prussia's "
                                                             "allies. The Franco-Prussian War began in 1870.")],
                            focus="Prussia", topic="Prussia", lang="en", keywords=["prussia"])
    assert len(ranked) == 2
    ranked = rank_sentences([_passage("États-Unis", "Les États-Unis sont un pays d'Amérique du Nord.")],
                            focus="États-Unis", topic="États-Unis", lang="fr", keywords=["etat", "uni"])
    assert len(ranked) == 1


def test_a_sentence_naming_its_subject_by_the_noun_of_its_first_sentence_follows_it():
    """ "The 2,525-kilometre-long (1,569 mi) river rises in the western Himalayas", of *Ganges*, had opened the
    report on the rivers of India, the river never named: in another section it is quoted only after the sentence
    before it, in its own it is plain."""
    ganges = _passage("Ganges", "The Ganges is a trans-boundary river of Asia which flows through India. The "
                                "2,525-kilometre-long (1,569 mi) river rises in the western Himalayas of India.")
    ranked = rank_sentences([ganges], focus="Rivers of India", topic="Rivers of India", lang="en",
                            keywords=["india", "river"])
    second = next(r for r in ranked if r.text.startswith("The 2,525"))
    assert second.after == "The Ganges is a trans-boundary river of Asia which flows through India."
    assert [r.text for r in with_antecedents([second])] == []  # alone, it is not quoted
    own = rank_sentences([ganges], focus="Ganges", topic="Rivers of India", lang="en", keywords=["gang"])
    assert all(r.after is None for r in own)
