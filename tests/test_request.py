"""Reading requests the way people type them, and planning sections that stay on the subject."""

from __future__ import annotations

import pytest

from reportgen.blueprint.planner import gather_themes, plan_extractive, resolve_subject
from reportgen.blueprint.relevance import ON_TOPIC_THRESHOLD, Relatedness
from reportgen.blueprint.request import DEFAULT_SECTIONS, LONG_SECTIONS, SHORT_SECTIONS, read_request, section_count
from reportgen.config import RunOptions, clean_topic, resolve_language
from reportgen.errors import NoSourcesError

from fakes import FakeSearch


@pytest.mark.parametrize(("text", "subjects", "aspects"), [
    ("Solar power", ["Solar power"], []),
    ("Write a report on the history and future of nuclear energy.", ["nuclear energy"], ["history"]),
    ("Prepare a briefing on global rice production and food security.", ["global rice production", "food security"],
     []),
    ("Why do volcanoes erupt?", ["volcanoes"], ["erupt"]),
    ("What causes inflation?", ["inflation"], ["causes"]),
    ("Write a short report on the causes of the French Revolution", ["French Revolution"], ["causes"]),
    ("The origins of the Cold War", ["Cold War"], ["origins"]),
    # a framing word after "main", "key", "underlying" … ("main causes of the First World War" had been refused)
    ("What are the main causes of the First World War?", ["First World War"], ["causes"]),
    ("The underlying causes of obesity", ["obesity"], ["causes"]),
    ("The key benefits of exercise", ["exercise"], []),
    ("Main Street", ["Main Street"], []),
    # "A and B compared" compares (it had been read "Mars compared", "Venus compared")
    ("Mars and Venus compared", ["Mars", "Venus"], []),
    ("Why do we dream?", ["dream"], []),  # a question on what people do is on the doing, not on "we"
    ("Why does it rain?", ["rain"], []),  # the weather's "it" (had been the subject "it")
    # a second question's auxiliary and pronoun are no aspect (had been "is it important", "does it work")
    ("What is photosynthesis and why is it important?", ["photosynthesis"], ["important"]),
    ("What is blockchain and how does it work?", ["blockchain"], []),
    ("What is inflation and what causes it?", ["inflation"], ["causes"]),
    ("Why do people procrastinate?", ["procrastinate"], []),
    ("Why do we have seasons?", ["seasons"], []),  # not "we have": people and a verb before what is asked
    ("Why do humans need sleep?", ["sleep"], []),
    ("How do nuclear power plants work?", ["nuclear power plants"], []),  # "work" asks how, it is no aspect
    ("How do typhoons form?", ["typhoons"], []),  # nor "form" (searched with the subject, it found Starfish)
    # nor after the subject in an instruction: the report had said no sentence writes of "matter"
    ("Write a report on coral reefs and why they matter", ["coral reefs"], []),
    ("Write a report on bees and how they work", ["bees"], []),
    ("Write a report on bees and their decline", ["bees"], ["decline"]),
    # a measure asked of the subject ("How smart are octopuses?" had been read as the subject "smart are", and
    # planned on the Smart Cities of India)
    ("How smart are octopuses?", ["octopuses"], ["intelligence"]),
    ("How old is the universe?", ["universe"], ["age"]),
    ("How dangerous are sharks?", ["sharks"], ["dangerous"]),
    ("How fast do cheetahs run?", ["cheetahs"], ["run", "speed"]),
    ("How long do elephants live?", ["elephants"], ["live"]),  # how long a thing does is no length
    ("How many moons does Jupiter have?", ["Jupiter"], ["moons"]),
    # a count in a place asks it of the place (had been the subjects "in the solar system", "many people live")
    ("How many planets are in the solar system?", ["solar system"], ["planets"]),
    ("How many people live in China?", ["China"], ["population"]),
    ("How many people died in World War II?", ["World War II"], ["died"]),
    ("How much does a car cost?", ["car"], ["cost"]),
    ("Is coffee bad for you?", ["coffee"], ["bad", "health"]),
    ("Who invented the telephone?", ["telephone"], ["invented"]),
    ("What do bees eat?", ["bees"], ["eat"]),
    ("Wind and solar power", ["Wind power", "solar power"], []),
    ("Malaria and tuberculosis", ["Malaria", "tuberculosis"], []),
    ("Interest rates", ["Interest rates"], []),
    ("Write a comprehensive report on electric vehicle (EV) adoption rates and the infrastructure challenges "
     "shaping the future of transportation.", ["electric vehicle"],
     ["adoption rates", "infrastructure challenges", "future of transportation"]),
    ("Write a comprehensive report on AI-driven automation and its influence on workforce productivity, cost "
     "savings, and job displacement.", ["AI-driven automation"],
     ["AI", "workforce productivity", "cost savings", "job displacement"]),
])
def test_the_subject_is_separated_from_the_instruction(text, subjects, aspects):
    request = read_request(text)
    assert request.subjects == subjects
    assert request.aspects == aspects


@pytest.mark.parametrize(("text", "lang", "title"), [
    ("Why do leaves change color in autumn?", "en", "Why do leaves change color in autumn?"),  # was "Leaves change…"
    ("Write a short report on the history of the printing press", "en", "The history of the printing press"),
    ("Explain how vaccines work", "en", "How vaccines work"),  # asks, but was not typed as a question
    ("¿cómo funcionan las vacunas?", "es", "¿Cómo funcionan las vacunas?"),
    ("Comment se forment les ouragans ?", "fr", "Comment se forment les ouragans ?"),
    ("Why do we have seasons?", "en", "Why do we have seasons?"),  # asks why, though every other word is common
    ("What is photosynthesis?", "en", ""),  # asks what the subject is: its name is the title
    ("Solar power", "en", ""),  # the request is its subject
    ("Write a report on antibiotics for a general audience", "en", ""),
    ("Tell me about the Great Barrier Reef", "en", ""),
    ("Write a comprehensive report on electric vehicle (EV) adoption rates and the infrastructure challenges "
     "shaping the future of transportation.", "en", ""),  # longer than a title
])
def test_a_report_asked_for_more_than_its_subject_is_titled_as_asked(text, lang, title):
    assert read_request(text, lang).title == title


def test_acronyms_questions_and_markup():
    assert read_request("Write a detailed report on the rise of Decentralized Finance (DeFi).").acronyms == ["DeFi"]
    assert read_request("Why do volcanoes erupt?").question
    assert read_request("<script>alert(1)</script>").subjects == ["alert"]  # markup and a bracketed number go


def test_control_and_bidi_characters_go_before_anything_else():
    assert clean_topic("Wind\u202e power\x00\u2066 farms\u2069") == "Wind power farms"
    with pytest.raises(ValueError, match="empty"):
        clean_topic("\u202e\x00\u200b")
    # a terminal's escape sequences go whole, not only their ESC
    assert clean_topic("\x1b[1mDinosaurs\x1b[0m") == "Dinosaurs"
    assert clean_topic("\x1b]0;title\x07Tea \x1b[31;1mplants") == "Tea plants"


def test_a_spanish_request_is_read_among_the_editions():
    assert resolve_language("Cambio climático", None, encyclopedia=True, model=False) == "es"
    assert resolve_language("Internet", None, encyclopedia=True, model=False) == "en"
    # an unaccented English phrase the detector half-reads as French stays English
    assert resolve_language("Kubernetes container orchestration", None, encyclopedia=True, model=False) == "en"
    assert resolve_language("Rapport sur la revolution", None, encyclopedia=True, model=False) == "fr"
    # unaccented Spanish the detector reads as Italian or Occitan: its "del", "la" and a word of its own say Spanish
    for spanish in ("Historia del Imperio inca", "historia del imperio inca", "La revolucion mexicana",
                    "Historia de la Segunda Guerra Mundial"):  # two function words of its own, every word else a name
        assert resolve_language(spanish, None, encyclopedia=True, model=False) == "es", spanish
    # names of places and days are written alike in English requests
    for english in ("Las Vegas", "Rio de Janeiro", "Cinco de Mayo", "El Nino and La Nina", "Leonardo da Vinci"):
        assert resolve_language(english, None, encyclopedia=True, model=False) == "en", english
    # an article English lacks before a lower-case word says the language however unsure the detector is;
    # before a capitalised word it may open an English request's name
    # ("Le fromage" and "la pomme" whatever the detector reads, English at 0.60 among the editions for the cheese;
    # "La casa" of the edition the detector prefers of the two writing "la")
    for request, lang in (("Les dinosaures", "fr"), ("Le football", "fr"), ("Le vin", "fr"), ("Los gatos", "es"),
                          ("Le fromage", "fr"), ("le chocolat", "fr"), ("La casa", "es"), ("La pomme", "fr")):
        assert resolve_language(request, None, encyclopedia=True, model=False) == lang, request
    for english in ("Le Mans race", "Los Angeles", "Le Corbusier", "the Louvre", "the Sagrada Familia"):
        assert resolve_language(english, None, encyclopedia=True, model=False) == "en", english
    # an unaccented topic with no function word of the edition is a name English writes alike (had been French
    # reports, py3langid 0.97 to 0.99); one function word of its own keeps the edition's language
    for english in ("Renaissance", "Renaissance art", "Art nouveau"):
        assert resolve_language(english, None, encyclopedia=True, model=False) == "en", english
    assert resolve_language("Cafe con leche", None, encyclopedia=True, model=False) == "es"
    # other scripts do not count among the Latin-script editions
    assert resolve_language("Tokyo 東京 и Москва: urban transport", None, encyclopedia=True, model=False) == "en"
    assert resolve_language("Kubernetes container orchestration 東京", None, encyclopedia=True, model=False) == "en"
    assert resolve_language("Cambio climático 東京 Москва", None, encyclopedia=True, model=False) == "es"


def _doc(title: str, text: str) -> dict[str, str]:
    return {"title": title, "text": text}


#: "Inflation" in two senses: prices (the request's) and the early universe.
SENSES = [
    _doc("Inflation", "Inflation is a general increase in the prices of goods and services in an economy. "
         "Inflation reduces the purchasing power of money. Central banks target low inflation with interest rates."),
    _doc("Central bank", "A central bank manages the money supply and interest rates of a country. Central banks "
         "fight inflation by raising interest rates, which slows the growth of prices and wages."),
    _doc("Wage", "A wage is payment for work. When prices rise faster than wages, inflation lowers the purchasing "
         "power of workers and their money buys fewer goods and services."),
    _doc("Cosmic inflation", "Cosmic inflation is a theory of exponential expansion of space in the early universe. "
         "The inflation epoch lasted a tiny fraction of a second after the Big Bang, before the universe cooled."),
    _doc("Big Bang", "The Big Bang describes how the universe expanded from an initial state of high density. "
         "Cosmic inflation explains why the universe is flat; galaxies formed as the universe cooled."),
]


def test_an_ambiguous_word_keeps_the_sense_of_its_own_article():
    themes, core, _ = gather_themes(read_request("Inflation"), FakeSearch(SENSES), 5, "en")
    assert [p.title for p in core] == ["Inflation"]
    assert "Cosmic inflation" not in themes and "Big Bang" not in themes
    assert {"Central bank", "Wage"} <= set(themes)


def test_the_relatedness_threshold_separates_the_senses():
    core = [SENSES[0]["text"]]
    pool = [d["text"] for d in SENSES]
    scorer = Relatedness(core, pool, "en", subject="inflation")
    assert scorer.score(SENSES[1]["text"]) >= ON_TOPIC_THRESHOLD
    assert scorer.score(SENSES[3]["text"]) < ON_TOPIC_THRESHOLD


#: No article of its own on heat pumps: they are found through the articles that mention them.
NO_ARTICLE = [
    _doc("Air conditioning", "Air conditioning cools a building. Heat pumps can work as air conditioners in summer "
         "and move heat into the building in winter. Heat pumps use a refrigerant cycle."),
    _doc("Geothermal heating", "Geothermal heating uses the heat of the ground. Ground-source heat pumps move heat "
         "from the ground into buildings; heat pumps need electricity to run the compressor."),
    _doc("Refrigerator", "A refrigerator is a heat pump that moves heat out of a box. Heat pumps and refrigerators "
         "share the vapour-compression cycle and the refrigerant."),
    _doc("Volcano", "A volcano is a rupture in the crust of a planet. Volcanoes erupt lava and ash."),
]


def test_a_subject_without_its_own_article_is_found_through_the_passages_that_mention_it(tmp_path):
    blueprint = plan_extractive("r", RunOptions(topic="Heat pumps", sections=4), FakeSearch(NO_ARTICLE))
    titles = [t.inputs["title"].value for t in blueprint.tasks if t.kind == "write"]
    assert titles and set(titles) <= {"Air conditioning", "Geothermal heating", "Refrigerator"}
    assert blueprint.subject == "Heat pumps"


def test_instructions_and_questions_plan_the_subject():
    search = FakeSearch(SENSES)
    for text, title in (("Write a comprehensive report on inflation.", "inflation"),
                        ("What causes inflation?", "What causes inflation?")):  # a question is titled by itself
        blueprint = plan_extractive("r", RunOptions(topic=text, sections=3), search)
        assert blueprint.subject == title and blueprint.topic == text
        assert blueprint.task("research-overview").inputs["query"].value == "inflation"
        assert "Cosmic inflation" not in {t.inputs["title"].value for t in blueprint.tasks if t.kind == "write"}
        # the aspects asked for are kept for the coordinator, which names the ones no quoted sentence writes
        assert blueprint.aspects == (["causes"] if text.startswith("What") else [])


TWO = [
    _doc("Malaria", "Malaria is a disease spread by mosquitoes. Malaria kills hundreds of thousands each year."),
    _doc("Tuberculosis", "Tuberculosis is a disease caused by bacteria. Tuberculosis usually affects the lungs."),
    _doc("Infectious disease", "An infectious disease such as malaria or tuberculosis is caused by a pathogen. "
         "Malaria and tuberculosis are leading infectious diseases."),
]


def test_two_subjects_each_lead_a_section():
    themes, _, _ = gather_themes(read_request("Malaria and tuberculosis"), FakeSearch(TWO), 4, "en")
    assert themes[:2] == ["Malaria", "Tuberculosis"]


def test_nothing_on_the_subject_names_the_closest_subjects_and_the_way_out():
    with pytest.raises(NoSourcesError) as info:
        plan_extractive("r", RunOptions(topic="Quantum gravity of volcanoes"), FakeSearch(NO_ARTICLE))
    message = str(info.value)
    assert "closest subjects it holds: Volcano" in message
    assert "--corpus" in message and "REPORTGEN_LLM_MODEL" in message
    with pytest.raises(NoSourcesError):
        plan_extractive("r", RunOptions(topic="<script>alert(1)</script>"), FakeSearch(NO_ARTICLE))


async def test_limitations_name_local_files_inside_their_corpus_folder(tmp_path):
    from reportgen.run import generate_report

    docs = tmp_path / "home" / "someone" / "notes"
    (docs / "sub").mkdir(parents=True)
    (docs / "wind.md").write_text("# Wind power\n\nWind power turns the wind into electricity with turbines. "
                                  "Wind farms group many wind turbines.\n", encoding="utf-8")
    (docs / "sub" / "broken.pdf").write_text("not a pdf at all", encoding="utf-8")
    result = await generate_report(RunOptions(topic="Wind power", sections=1, corpus_dirs=[docs], use_wiki=False),
                                   out_dir=tmp_path / "out", backoff_scale=0)
    reasons = [lim.reason for lim in result.report.limitations]
    assert any(r.startswith("notes/sub/broken.pdf: not used") for r in reasons), reasons
    assert not any(str(tmp_path) in r for r in reasons)  # never the absolute path of the machine that made it


@pytest.mark.parametrize(("text", "subjects", "alternatives"), [
    ("Who was Napoleon?", ["Napoleon"], []),
    ("What are black holes?", ["black holes"], []),
    ("Is nuclear power safe?", ["nuclear power"], []),
    ("Explain how vaccines work", ["vaccines"], []),
    ("Tell me about the French Revolution", ["French Revolution"], []),
    ("Can you write a short report on coffee?", ["coffee"], []),
    ("I need a report about bees and pollination", ["bees", "pollination"], []),
    ("Compare solar and wind power", ["solar power", "wind power"], []),
    ("What is the difference between weather and climate?", ["weather", "climate"], []),
    ("Cats versus dogs", ["Cats", "dogs"], []),
    ("Pros and cons of electric cars", ["electric cars"], []),
    ("How does the immune system fight viruses?", ["immune system fight"], ["immune system", "immune"]),
    ("Can dogs see colours?", ["dogs see"], ["dogs"]),  # a yes-or-no question: the verb may follow the subject
])
def test_lead_ins_comparisons_and_questions(text, subjects, alternatives):
    request = read_request(text)
    assert request.subjects == subjects
    assert request.alternatives == alternatives
    assert not {"is", "are", "was"} & set(request.aspects)  # an auxiliary is never an aspect


def test_a_question_takes_the_reading_the_corpus_holds():
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Immune system", "The immune system protects the body against viruses and bacteria."),
            _doc("Virus", "A virus is a small infectious agent; the immune system fights viruses.")]
    request = resolve_subject(read_request("How does the immune system fight viruses?"), FakeSearch(docs), "en")
    assert request.subjects == ["immune system"]
    assert "fight" in request.aspects
    plain = read_request("Solar power")
    assert resolve_subject(plain, FakeSearch(docs), "en") is plain


def test_an_acronym_counts_only_as_written():
    docs = [_doc("Electronvolt", "An electronvolt (eV) is a unit of energy; gamma rays carry MeV and eV."),
            _doc("Electric car", "An electric car (EV) runs on batteries; EV sales grew as charging spread.")]
    themes, core, _ = gather_themes(read_request("Electric vehicle (EV) adoption"), FakeSearch(docs), 3, "en")
    assert "Electronvolt" not in [p.title for p in core] + themes


@pytest.mark.parametrize("text,lang,depth,count", [
    ("Write a comprehensive and well-researched report on the rise of DeFi.", "en", "long", 8),
    ("Write a detailed report on building resilient healthcare supply chains", "en", "long", 8),
    ("Please give me a short, concise overview of tea", "en", "short", 3),
    ("A Brief History of Time", "en", "", 6),  # "brief" in the subject is not an instruction
    ("Short story", "en", "", 6),
    ("Solar power", "en", "", 6),
    ("Rédige un rapport détaillé sur l'énergie nucléaire", "fr", "long", 8),
    ("Fais une synthèse complète de l'énergie solaire", "fr", "long", 8),
    ("Escribe un informe breve sobre el café", "es", "short", 3),
    ("Write a quick report on volcanoes", "en", "short", 3),
    ("Write an extensive report on volcanoes", "en", "long", 8),
    ("Rédige une courte note sur les volcans", "fr", "short", 3),
    ("Rédige un rapport exhaustif sur les volcans", "fr", "long", 8),
    ("Escribe un informe conciso sobre el café", "es", "short", 3),
    ("Write a concise but comprehensive report on tea", "en", "long", 8),  # asked for both: the longer
    ("Write a brief on tea", "en", "", 6),  # a brief is the document, not its length
])
def test_the_instruction_sets_the_length(text, lang, depth, count):
    request = read_request(text, lang)
    assert request.depth == depth
    assert section_count(None, request) == count
    assert section_count(4, request) == 4  # what the user asked for wins
    assert not {"détaillé", "complète", "breve", "short", "comprehensive", "quick", "extensive", "courte", "exhaustif",
                "conciso", "report", "rapport", "informe"} & set(" ".join(request.subjects).split())


def test_the_planner_asks_for_the_sections_the_request_sets(monkeypatch):
    import reportgen.blueprint.planner as planner

    asked: list[int] = []
    real = planner.gather_themes

    def spy(request, search, count, lang):
        asked.append(count)
        return real(request, search, count, lang)

    monkeypatch.setattr(planner, "gather_themes", spy)
    docs = [_doc("Volcano", "A volcano is a rupture in the crust. Volcano eruptions send out lava and ash.")]
    for topic, sections in [("Write a short report on volcano", None), ("Volcano", None),
                            ("Write a comprehensive report on volcano", None), ("Write a short report on volcano", 5)]:
        plan_extractive("r", RunOptions(topic=topic, sections=sections), FakeSearch(docs))
    assert asked == [SHORT_SECTIONS, DEFAULT_SECTIONS, LONG_SECTIONS, 5]


def test_a_phrase_is_written_only_side_by_side():
    from reportgen.agents.ranking import writes_phrase

    assert writes_phrase("A heat pump moves heat from a cold place.", "Heat pumps")
    assert writes_phrase("Electric vehicles run on batteries.", "electric vehicle")
    assert not writes_phrase("It destroys vehicles and electric power lines.", "electric vehicle")
    assert not writes_phrase("", "electric vehicle") and not writes_phrase("anything", "")


# Words of the subject far apart, never side by side: the encyclopedia's case for "electric vehicle".
APART = [_doc("Cluster munition", "A cluster munition releases bomblets to destroy vehicles and electric power "
                                  "transmission lines."),
         _doc("Electric motor", "An electric motor converts electrical energy into motion; transport by rail uses "
                                "electric motors."),
         _doc("Vehicle", "A vehicle is a machine for transport of people or cargo; vehicles shape transport."),
         _doc("Rapid transit", "Rapid transit is electric railway transport in cities; its vehicles run on "
                               "exclusive tracks.")]


def test_a_compound_subject_no_passage_writes_has_no_sources():
    with pytest.raises(NoSourcesError) as err:
        plan_extractive("r", RunOptions(topic="Electric vehicle"), FakeSearch(APART))
    assert "closest subjects" in str(err.value)
    # the articles titled by its words first, then those whose text writes more of them
    assert "closest subjects it holds: Electric motor, Vehicle, " in str(err.value)


def test_the_closest_subjects_are_those_titled_by_the_requests_words():
    """A full-text search put *Launch vehicle*, *Spacecraft*, *Armour* first for "Electric vehicles"."""
    from reportgen.blueprint.planner import no_sources_message

    class InOrder(FakeSearch):  # the order a full-text search ranked them in
        def search(self, query: str, k: int = 10):
            return super().search(query, k)[::-1]

    docs = [_doc("Electric battery", "Electric batteries power vehicles."), _doc("Vehicle", "A vehicle moves."),
            _doc("Armour", "Armour protects a vehicle."), _doc("Spacecraft", "A spacecraft is a vehicle in space."),
            _doc("Garage", "A garage stores a vehicle.")]
    message = no_sources_message(read_request("Electric vehicles"), InOrder(docs), "en")
    assert "closest subjects it holds: Electric battery, Vehicle, Garage, Spacecraft, Armour." in message
    # written side by side in two sentences, it is a subject (found through the passage that mentions it)
    written = [*APART, _doc("Battery", "Batteries power every electric vehicle. Electric vehicle sales rose.")]
    blueprint = plan_extractive("r", RunOptions(topic="Electric vehicle"), FakeSearch(written))
    assert any(t.kind == "write" for t in blueprint.tasks) and "no text on" not in blueprint.note


def test_a_qualified_framing_word_leaves_an_article_titled_with_it_whole():
    """"Health effects of smoking tobacco" is an article of the encyclopedia: the subject, whole; "health
    effects of coffee" is none, and the report is on coffee with the aspect "health effects"."""
    docs = [_doc("Health effects of smoking tobacco", "Tobacco smoking harms health. Its health effects are "
                                                      "severe; smoking tobacco causes cancer."),
            _doc("Coffee", "Coffee is a drink. Coffee has health effects, from caffeine. Coffee is traded.")]
    tobacco = resolve_subject(read_request("The health effects of smoking tobacco"), FakeSearch(docs), "en")
    assert tobacco.subjects == ["health effects of smoking tobacco"] and tobacco.aspects == []
    coffee = resolve_subject(read_request("What are the health effects of coffee?"), FakeSearch(docs), "en")
    assert coffee.subjects == ["coffee"] and coffee.aspects == ["health effects"]


def test_a_subject_written_in_one_sentence_only_is_not_held():
    """"Quantum computing" is written once in the encyclopedia, in *Google*; "cambio climático" once, in *Mar
    Muerto*: the reports drawn from them were on Google and on the Dead Sea. One mention is no subject held."""
    once = [_doc("Google", "Google is a technology company. It has worked on quantum computing since 2014. "
                           "Google runs a search engine and sells advertising."),
            _doc("Computing", "Computing is any goal-oriented activity requiring computers."),
            _doc("Quantum mechanics", "Quantum mechanics describes nature at the scale of atoms.")]
    with pytest.raises(NoSourcesError, match="closest subjects it holds: (Computing|Quantum mechanics)"):
        plan_extractive("r", RunOptions(topic="Quantum computing"), FakeSearch(once))
    # a word no passage writes is not split into words one sentence writes side by side ("block chains")
    chains = [_doc("Chain", "A chain is a series of links. There are roller chains and block chains."),
              _doc("Saw", "A saw cuts with a blade, wire or chain.")]
    with pytest.raises(NoSourcesError):
        plan_extractive("r", RunOptions(topic="Blockchain"), FakeSearch(chains))
    # written in two sentences, it is held, through the passage that mentions it
    twice = [*once[1:], _doc("Google", once[0]["text"] + " Its quantum computing chip has 72 qubits.")]
    blueprint = plan_extractive("r", RunOptions(topic="Quantum computing"), FakeSearch(twice))
    assert [t for t in blueprint.tasks if t.kind == "write"]
    # once, in the user's own documents: a folder given with --corpus is read however little it says
    class Local(FakeSearch):
        def search(self, query: str, k: int = 10):
            return [p.model_copy(update={"source_id": p.source_id.replace("fake:", "local:")})
                    for p in super().search(query, k)]

    assert [t for t in plan_extractive("r", RunOptions(topic="Quantum computing"), Local(once)).tasks
            if t.kind == "write"]
    # once, in an article titled with its head noun: the article is on its field ("deep learning" in Machine
    # learning)
    field = [*once, _doc("Machine learning", "Machine learning lets computers learn. Deep learning uses networks.")]
    blueprint = plan_extractive("r", RunOptions(topic="Deep learning"), FakeSearch(field))
    assert [t for t in blueprint.tasks if t.kind == "write"]


def test_a_compound_subject_with_aspects_takes_the_aspect_core_and_says_so():
    request = "Write a report on electric vehicle adoption and the transport infrastructure it needs"
    blueprint = plan_extractive("r", RunOptions(topic=request), FakeSearch(APART))
    assert blueprint.note.startswith("The corpora hold no text on")  # the words apart are not the subject


def test_a_how_does_it_work_question_has_no_aspect_work():
    request = read_request("How does the human heart work?")
    assert request.subjects == ["human heart"] and "work" not in request.aspects


def test_an_unwritten_compound_falls_back_on_a_word_article_naming_the_others():
    docs = [_doc("Heart", "The heart is a muscular organ that pumps blood. The hearts of humans beat fast."),
            _doc("Artery", "An artery carries blood away from the heart; human arteries are elastic."),
            _doc("Work (human activity)", "Work is human activity; people work with heart and hands.")]
    blueprint = plan_extractive("r", RunOptions(topic="How does the human heart work?"), FakeSearch(docs))
    assert blueprint.note.startswith("The corpora hold no text on 'human heart' as such")
    assert "Heart" in blueprint.note
    # the article saying whose it is ("In humans, the heart …", "In humans, it is located …") is on the human
    # heart too: no note (a reader found it misleading above *Heart*), the subject still searched as Heart
    for whose in ("In humans, the heart is the size of a fist.", "In humans, it lies between the lungs.",
                  "Hearts pump blood in many animals, including humans."):
        docs[0] = _doc("Heart", f"The heart is a muscular organ that pumps blood. {whose}")
        blueprint = plan_extractive("r", RunOptions(topic="How does the human heart work?"), FakeSearch(docs))
        assert "no text on" not in blueprint.note, (whose, blueprint.note)
        assert any(t.kind == "write" for t in blueprint.tasks)
    # "Vehicle" never says "electric": no word article names the other words, so no sources
    with pytest.raises(NoSourcesError):
        plan_extractive("r", RunOptions(topic="Electric vehicle"), FakeSearch(APART))


@pytest.mark.parametrize("topic", ["???", "«»", "?"])
def test_a_topic_of_punctuation_only_is_a_clear_error(topic):
    assert read_request(topic).aspects == []  # nothing to split, no crash
    with pytest.raises(NoSourcesError, match="holds no word"):
        plan_extractive("r", RunOptions(topic=topic), FakeSearch(APART))


@pytest.mark.parametrize("text,lang,subjects,aspects", [
    ("Quelles sont les causes de la Révolution française ?", "fr", ["Révolution française"], ["causes"]),
    ("Rapport sur la Révolution française", "fr", ["Révolution française"], []),
    ("¿Cuáles son las causas de la Revolución mexicana?", "es", ["Revolución mexicana"], ["causas"]),
    ("Qu'est-ce que la photosynthèse ?", "fr", ["photosynthèse"], []),
    ("¿Qué es la fotosíntesis?", "es", ["fotosíntesis"], []),
    ("Informe sobre el café", "es", ["café"], []),
    ("Report on solar power", "en", ["solar power"], []),
    ("Pourquoi la Révolution française a-t-elle commencé ?", "fr", ["Révolution française"], ["commencé"]),
    # what follows the pronoun is what is asked about
    ("Pourquoi le ciel est-il bleu ?", "fr", ["ciel"], ["bleu"]),
    ("Pourquoi les volcans explosent-ils ?", "fr", ["volcans"], ["explosent"]),
    # the verb first, then the subject with its article ("las vacunas" had read as "s vacunas")
    ("¿Cómo funcionan las vacunas?", "es", ["vacunas"], []),
    ("¿Por qué se extinguieron los dinosaurios?", "es", ["dinosaurios"], ["extinguieron"]),
    ("¿Cómo se forman los huracanes?", "es", ["huracanes"], []),
    ("¿Por qué el cielo es azul?", "es", ["cielo"], ["azul"]),
    ("Comment fonctionnent les vaccins ?", "fr", ["vaccins"], []),
    ("Comment se forment les ouragans ?", "fr", ["ouragans"], []),
    # with an indefinite article (had been read whole, "Comment fonctionne un moteur électrique")
    ("Comment fonctionne un moteur électrique ?", "fr", ["moteur électrique"], []),
    ("¿Cómo funciona un motor eléctrico?", "es", ["motor eléctrico"], []),
    # lead-ins that ask to be told or shown
    ("Háblame de la imprenta de Gutenberg", "es", ["imprenta de Gutenberg"], []),
    ("Cuéntame sobre los volcanes", "es", ["volcanes"], []),
    ("Explícame la fotosíntesis", "es", ["fotosíntesis"], []),
    ("Parle-moi de la Révolution française", "fr", ["Révolution française"], []),
    ("Dis-moi tout sur les abeilles", "fr", ["abeilles"], []),
    ("Explique-moi la photosynthèse", "fr", ["photosynthèse"], []),
])
def test_french_and_spanish_questions_and_bare_document_requests(text, lang, subjects, aspects):
    request = read_request(text, lang)
    assert request.subjects == subjects
    assert request.aspects == aspects


def test_a_verb_that_only_asks_how_is_no_aspect_of_the_subject_found():
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Bee", "A bee is a flying insect; bees make honey and pollinate flowers.")]
    request = resolve_subject(read_request("How do bees make honey?"), FakeSearch(docs), "en")
    assert request.subjects == ["bees"] and request.aspects == ["honey"]  # "make" asks how


@pytest.mark.parametrize(("text", "lang", "subjects", "aspects"), [
    # how one subject bears on another: a report on both
    ("Write a report on the impact of social media on teenage mental health", "en",
     ["social media", "teenage mental health"], []),
    ("The effect of sleep deprivation on memory", "en", ["sleep deprivation", "memory"], []),
    ("What is the impact of tourism on the environment?", "en", ["tourism", "environment"], []),
    ("How does climate change affect coffee production?", "en", ["climate change", "coffee production"], []),
    ("How do volcanoes affect the climate?", "en", ["volcanoes", "climate"], []),
    ("L'impact du changement climatique sur l'agriculture", "fr", ["changement climatique", "agriculture"], []),
    ("El impacto del turismo en el medio ambiente", "es", ["turismo", "medio ambiente"], []),
    # the role of one thing in another: a report on the other, the first its aspect
    ("The role of women in the French Revolution", "en", ["French Revolution"], ["women"]),
    ("Write a detailed report on the role of microplastics in ocean pollution", "en", ["ocean pollution"],
     ["microplastics"]),
    ("Le rôle des femmes dans la Révolution française", "fr", ["Révolution française"], ["femmes"]),
    # a modifier saying what drives the subject is an aspect too
    ("AI-driven automation", "en", ["AI-driven automation"], ["AI"]),
    ("AI-powered diagnosis and its costs", "en", ["AI-powered diagnosis"], ["AI", "costs"]),
    # framing words in the singular go as the plural did
    ("The effect of caffeine", "en", ["caffeine"], []),
    ("The impact of the printing press", "en", ["printing press"], []),
    # had been the subject "importance of a healthy", with the aspect "diet"
    ("the importance of a healthy diet", "en", ["healthy diet"], []),
    ("The significance of the Magna Carta", "en", ["Magna Carta"], []),
    # a framing word a qualifier narrows is an aspect: "health effects of coffee" had been one subject no
    # passage writes ("found no sources")
    ("What are the health effects of coffee?", "en", ["coffee"], ["health effects"]),
    ("The economic impact of the Olympic Games", "en", ["Olympic Games"], ["economic impact"]),
    ("Write a report on the environmental impact of tourism", "en", ["tourism"], ["environmental impact"]),
    ("Side effects of aspirin", "en", ["aspirin"], ["side effects"]),
    ("The main effects of caffeine", "en", ["caffeine"], []),  # "main" is no aspect, as "the effect of"
    ("Greenhouse effect", "en", ["Greenhouse effect"], []),
])
def test_relations_roles_and_drivers_are_read(text, lang, subjects, aspects):
    request = read_request(text, lang)
    assert request.subjects == subjects
    assert request.aspects == aspects


@pytest.mark.parametrize(("text", "lang", "subjects", "aspects"), [
    # any adjectives, an audience, a colon before what is asked
    ("Write a thorough, well-sourced and balanced report for a general audience on antibiotics: how they were "
     "discovered, why resistance develops", "en", ["antibiotics"], ["were discovered", "resistance develops"]),
    ("Write a thorough report for policy makers on antibiotics", "en", ["antibiotics"], []),
    ("I would like a balanced overview of antibiotics and antibiotic resistance for a general audience", "en",
     ["antibiotics", "antibiotic resistance"], []),  # no shared head: not "antibiotics resistance"
    ("Write a clear, concise report on tea", "en", ["tea"], []),
    ("Rédige un rapport clair et complet sur la photosynthèse", "fr", ["photosynthèse"], []),
    # the verb with its pronoun, hyphened in French and joined in Spanish (had been read whole as the subject)
    ("Fais-moi un rapport sur le fromage", "fr", ["fromage"], []),
    ("Écris-moi une synthèse sur les abeilles", "fr", ["abeilles"], []),
    ("Hazme un informe sobre el chocolate", "es", ["chocolate"], []),
    ("Escríbeme un informe breve sobre los volcanes", "es", ["volcanes"], []),
    ("Dame un resumen sobre la Revolución francesa", "es", ["Revolución francesa"], []),
    ("Informe breve y claro sobre el café", "es", ["café"], []),
    # a preposition is no adjective: the summary of a report is asked for
    ("Write a summary of the Mueller report on Russian interference", "en",
     ["Mueller report on Russian interference"], []),
])
def test_the_instruction_may_hold_any_adjectives_and_an_audience(text, lang, subjects, aspects):
    request = read_request(text, lang)
    assert request.subjects == subjects
    assert request.aspects == aspects


#: A corpus with articles on parts of long subjects, and none on the subjects themselves.
PARTS = [
    _doc("Renewable energy", "Renewable energy comes from sources that are naturally replenished, such as sunlight "
         "and wind. Renewable energy is growing in many countries."),
    _doc("Solar energy", "Solar energy is renewable energy from sunlight, used for heat and electricity."),
    _doc("Protectionism", "Protectionism is the economic policy of restricting imports; developing countries and "
         "adoption of tariffs are debated."),
    _doc("Deforestation", "Deforestation is the removal of a forest. Deforestation causes habitat loss and "
         "climate change."),
    _doc("Amazon rainforest", "The Amazon rainforest is a moist broadleaf tropical rainforest in South America."),
    _doc("Logging", "Logging is the cutting of trees; it is a cause of deforestation in the Amazon basin."),
    _doc("Coffee", "Coffee is a beverage brewed from roasted coffee beans, grown in tropical countries."),
    _doc("Climate change", "Climate change is the long-term warming of the planet and shifts in weather."),
    _doc("Sleep", "Sleep is a state of rest of mind and body in which consciousness is reduced."),
    _doc("Memory", "Memory is the faculty of the mind by which information is stored and recalled; sleep helps "
         "memory."),
]


@pytest.mark.parametrize(("text", "subjects", "aspect"), [
    # no article and no passage on the whole: its longest part with an article, the rest an aspect
    ("Analyze renewable energy adoption in developing countries", ["renewable energy"],
     "adoption in developing countries"),
    # a placed subject: what precedes the preposition, when it has an article, and where as an aspect
    ("Deforestation in the Amazon", ["Deforestation"], "Amazon"),
    # a compound head without an article: its part's article stands for it in the plan
    ("Coffee production in Brazil", ["Coffee production"], "Brazil"),
    # the words around the part end on no function word (had been "Barriers to adoption of")
    ("Barriers to adoption of renewable energy", ["renewable energy"], "Barriers to adoption"),
])
def test_a_long_subject_takes_its_part_the_corpus_holds(text, subjects, aspect):
    from reportgen.blueprint.planner import resolve_subject

    request = resolve_subject(read_request(text), FakeSearch(PARTS), "en")
    assert request.subjects == subjects
    assert aspect in request.aspects
    assert plan_extractive("r", RunOptions(topic=text), FakeSearch(PARTS)).subject == read_request(text).subject
    themes, core, _ = gather_themes(request, FakeSearch(PARTS), 4, "en")
    assert "Protectionism" not in themes + [p.title for p in core]


def test_a_placed_plural_is_its_articles_or_the_word_passages_write_and_of_places_it_too():
    """ "Women in science", "Railways in India" and "Castles of Wales" had found no sources though "Women",
    "Railways" and "Castles" alone make reports: the head of a placed subject is read in the singular its article
    is titled by (*Woman*), or as the word passages write when no article is titled by either ("Railways"). Things
    "of" a named place are placed as "in" it, when the whole is no phrase the corpora hold; "Bank of America" is
    no plural. The report says at the top that it holds no text on the whole."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [*PARTS, _doc("Woman", "A woman is an adult female human. Women have worked in every field."),
            _doc("Railway track", "A railway track carries trains. Railways laid tracks across continents."),
            _doc("Train station", "A train station serves railways; railways stop at stations for passengers."),
            _doc("Castle", "A castle is a fortified structure built in the Middle Ages by nobility."),
            _doc("America", "America is a landmass of two continents.")]
    read = {text: resolve_subject(read_request(text), FakeSearch(docs), "en")
            for text in ("Women in science", "Railways in India", "Castles of Wales", "Bank of America")}
    assert (read["Women in science"].subjects, read["Women in science"].aspects) == (["Woman"], ["science"])
    assert (read["Railways in India"].subjects, read["Railways in India"].aspects) == (["Railways"], ["India"])
    assert read["Railways in India"].asked == "Railways in India"  # said at the top
    assert read["Castles of Wales"].aspects == ["Wales"] and read["Castles of Wales"].title == "Castles of Wales"
    themes, core, _ = gather_themes(read["Castles of Wales"], FakeSearch(docs), 4, "en")
    assert [p.title for p in core] == ["Castle"], core
    assert read["Bank of America"].subjects == ["Bank of America"]
    blueprint = plan_extractive("r", RunOptions(topic="Railways in India"), FakeSearch(docs))
    assert "Railways in India" in blueprint.note


def test_a_subject_held_by_its_part_alone_is_one_section_titled_as_that_article():
    """ "Write a report on the Roman Colosseum" had been refused: the corpora hold *Colosseum*, read as the subject
    held, but the one section was titled "Roman Colosseum" and no sentence writes both words."""
    docs = [_doc("Colosseum", "The Colosseum is an elliptical amphitheatre in Rome, east of the Roman Forum. "
                              "Construction began under the Emperor Vespasian in 72 and was completed in AD 80."),
            _doc("Rome", "Rome is the capital city of Italy.")]
    blueprint = plan_extractive("r", RunOptions(topic="Write a report on the Roman Colosseum"), FakeSearch(docs))
    writes = [t for t in blueprint.tasks if t.kind == "write"]
    assert [t.inputs["title"].value for t in writes] == ["Colosseum"], blueprint.tasks


def test_things_in_a_place_are_sections_that_name_the_place():
    """ "Earthquakes in Japan" had been six sections on other earthquakes (Lisbon, Shaanxi, Tangshan) and "Volcanoes
    in Iceland" on Mauna Loa and lava: a section of things in a place names the place, or its people's word
    ("the Italian island of Sicily"); where none does, the report is the things' own article, and its note says
    that no quoted sentence writes the place."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Volcano", "A volcano is a rupture in the crust of a planet. Volcanoes erupt lava and ash."),
            _doc("Mount Vesuvius", "Mount Vesuvius is an active volcano near Naples, Italy. Its volcano erupts lava."),
            _doc("Mount Etna", "Mount Etna is an active volcano on the Italian island of Sicily. Its volcano erupts "
                               "lava."),
            _doc("Mauna Loa", "Mauna Loa is a volcano in Hawaii. The volcano erupts lava often."),
            _doc("Lava", "Lava is molten rock a volcano expels. Volcanoes erupt lava.")]
    request = resolve_subject(read_request("Volcanoes in Italy"), FakeSearch(docs), "en")
    assert (request.subjects, request.aspects) == (["Volcanoes"], ["Italy"]), request
    themes, _, _ = gather_themes(request, FakeSearch(docs), 4, "en")
    assert set(themes) == {"Mount Vesuvius", "Mount Etna"}, themes
    themes, _, _ = gather_themes(resolve_subject(read_request("Volcanoes in Chile"), FakeSearch(docs), "en"),
                                 FakeSearch(docs), 4, "en")
    assert themes == [], themes


def test_a_place_a_text_names_only_to_leave_out_is_not_named():
    """ "Birds in Australia" had a section on finches, whose article names Australia only to leave it out ("a
    worldwide native distribution except for Australia and the polar regions")."""
    from reportgen.blueprint.planner import names_place, resolve_subject

    assert not names_place("Finch. They have a worldwide native distribution except for Australia and the polar "
                           "regions.", "Australia")
    assert not names_place("Capybara. It is native to all countries in South America except Chile.", "Chile")
    assert not names_place("Le pays entier sauf la Corse est couvert.", "Corse")
    # a place named beside the one left out, or elsewhere in the text, is named
    assert names_place("Orchids live on every continent except Antarctica, and are common in Australia.", "Australia")
    assert names_place("Capybara. It is native to all countries in South America except Chile.", "South America")
    docs = [_doc("Bird", "A bird is a feathered animal. Birds lay eggs and build nests."),
            _doc("Emu", "The emu is a flightless bird endemic to Australia. The bird lays eggs in nests."),
            _doc("Finch", "Finches are seed-eating birds that lay eggs in nests. They have a worldwide native "
                          "distribution except for Australia and the polar regions."),
            _doc("Kiwi", "Kiwi are flightless birds endemic to New Zealand. The bird lays eggs in nests.")]
    request = resolve_subject(read_request("Birds in Australia"), FakeSearch(docs), "en")
    themes, _, _ = gather_themes(request, FakeSearch(docs), 4, "en")
    assert themes == ["Emu"], themes


def test_things_of_a_place_asked_in_spanish_or_french_are_sections_of_those_things():
    """ "Los ríos de España" is read as *España* with the aspect "ríos": its sections had been Andorra, Madrid and
    *Pelota vasca*, the country's neighbours, and "Les volcans du Japon" Korea, Taiwan and the yen. A section is one
    of the things: its title or its first sentence writes the word."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("España", "España es un país de Europa. España limita con Francia, Andorra y Portugal."),
            _doc("Andorra", "Andorra es un país de Europa entre España y Francia. Andorra es un país pequeño."),
            _doc("Madrid", "Madrid es la capital de España. Madrid es la ciudad más poblada de España."),
            _doc("Tajo", "El Tajo es el río más largo de la península ibérica. Nace en España y cruza Portugal.")]
    request = resolve_subject(read_request("Los ríos de España", "es"), FakeSearch(docs), "es")
    assert (request.subjects, request.aspects) == (["España"], ["ríos"]), request
    themes, _, _ = gather_themes(request, FakeSearch(docs), 4, "es")
    assert themes == ["Tajo"], themes
    # without the article, its plural opening the request is no name's capital (it had been refused)
    bare = resolve_subject(read_request("Ríos de España", "es"), FakeSearch(docs), "es")
    assert (bare.subjects, bare.aspects) == (["España"], ["ríos"]), bare
    # an aspect a place is asked names no things: its sections stay the place's
    request = resolve_subject(read_request("La economía de España", "es"), FakeSearch(docs), "es")
    themes, _, _ = gather_themes(request, FakeSearch(docs), 4, "es")
    assert "Andorra" in themes, (request, themes)


def test_a_chart_of_things_of_a_place_draws_on_texts_naming_both():
    """ "Mountains of Chile" is read as the mountains in Chile; its charts had compared the Andes with the Balkan
    and Carpathian ranges, and "Les langues du Canada" had charted Calgary's population: a chart in a section on
    another theme draws on texts naming the things and the place, not either alone."""
    from reportgen.agents.plot import on_the_report
    from reportgen.sources.models import Passage

    volcanoes = [_doc("Volcano", "A volcano is a rupture in the crust of a planet. Volcanoes erupt lava and ash."),
                 _doc("Mount Etna", "Mount Etna is an active volcano on Sicily, Italy. It stands 3,357 m high."),
                 _doc("Mount Vesuvius", "Mount Vesuvius is an active volcano near Naples, Italy. It is 1,281 m "
                                        "high."),
                 _doc("Mauna Loa", "Mauna Loa is a volcano in Hawaii. It rises 4,169 m above sea level.")]
    spain = [_doc("España", "España es un país de Europa. España limita con Francia, Andorra y Portugal."),
             _doc("Tajo", "El Tajo es el río más largo de la península ibérica. Nace en España y cruza Portugal."),
             _doc("Madrid", "Madrid es la capital de España. Madrid tiene 3,3 millones de habitantes.")]
    charted = {}
    for text, lang, docs in (("Volcanoes in Italy", "en", volcanoes), ("Los ríos de España", "es", spain),
                             ("Volcano", "en", volcanoes)):
        blueprint = plan_extractive("r", RunOptions(topic=text, lang=lang), FakeSearch(docs))
        charted[text] = {t.inputs["report_subject"].value for t in blueprint.tasks if t.kind == "chart"}
    assert charted == {"Volcanoes in Italy": {"Volcanoes in Italy"}, "Los ríos de España": {"ríos España"},
                       "Volcano": {"Volcano"}}
    notes = [Passage(source_id=d["title"], title=d["title"], text=d["text"], url="u", corpus="c") for d in volcanoes]
    kept = on_the_report(notes, "Mount Etna", "Volcanoes in Italy", "en")
    assert [p.title for p in kept] == ["Mount Etna", "Mount Vesuvius"]  # not Mauna Loa, nor the volcano in general
    notes = [Passage(source_id=d["title"], title=d["title"], text=d["text"], url="u", corpus="c") for d in spain]
    assert [p.title for p in on_the_report(notes, "España", "ríos España", "es")] == ["España", "Tajo"]


def test_a_place_named_only_as_a_measure_holds_none_of_its_things():
    """ "Rivers of France" had a section, and a text its note said the report drew on, on the *Columbia River*,
    whose "drainage basin is roughly the size of France"."""
    from reportgen.agents.ranking import compared_only
    from reportgen.blueprint.planner import resolve_subject

    assert compared_only("Its drainage basin is roughly the size of France.", "France")
    assert not compared_only("It doubled the size of the France office.", "France")  # no name after "the size of"
    assert not compared_only("They live in New Guinea, as well as eastern France.", "France")  # joined, not compared
    docs = [_doc("Loire", "The Loire is the longest river in France. The river drains a fifth of France."),
            _doc("Seine", "The Seine is a river in northern France. The river flows through Paris in France."),
            _doc("Columbia River", "The Columbia River is the largest river of the Pacific Northwest. The river flows "
                                   "to the Pacific. Its drainage basin is roughly the size of France."),
            _doc("Garonne", "The Garonne is a river of southwest France. The river flows from the Pyrenees across "
                            "France.")]
    request = resolve_subject(read_request("Rivers of France"), FakeSearch(docs), "en")
    themes, core, _ = gather_themes(request, FakeSearch(docs), 6, "en")
    assert "Columbia River" not in themes + [p.title for p in core], (themes, core)
    assert "Loire" in themes + [p.title for p in core]


def test_things_of_a_place_held_as_asked_in_english_are_sections_of_those_things():
    """ "Languages of Nigeria" had *Ivory Coast*, *Cameroon* and *West Africa* as sections beside its languages, and
    "Deserts of Africa" *Tunisia*, *Botswana* and *Kenya*: a section of things of a place is one of the things."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Yoruba language", "Yoruba is one of the languages of Nigeria, spoken in the south-west. The "
                                    "languages of Nigeria number over 500."),
            _doc("Hausa language", "Hausa is a Chadic language, among the languages of Nigeria, spoken in the north."),
            _doc("Cameroon", "Cameroon is a country in Central Africa. It borders Nigeria, and its people speak "
                             "250 languages, Hausa among them."),
            _doc("Igbo language", "Igbo is a language of the languages of Nigeria, spoken in the south-east."),
            _doc("Fula language", "Fula is a language of West Africa, among the languages of Nigeria."),
            _doc("Kanuri language", "Kanuri is a Saharan language, one of the languages of Nigeria.")]
    request = resolve_subject(read_request("Languages of Nigeria"), FakeSearch(docs), "en")
    assert (request.subjects, request.aspects) == (["Languages of Nigeria"], []), request
    themes, _, _ = gather_themes(request, FakeSearch(docs), 6, "en")
    assert themes == ["Yoruba language", "Hausa language", "Igbo language", "Fula language", "Kanuri language"], themes


@pytest.mark.parametrize(("text", "lang", "subject", "aspect"), [
    ("Économie du Japon", "fr", "Japon", "économie"),
    ("Géographie du Chili", "fr", "Chili", "géographie"),
    ("Economía de México", "es", "México", "economía"),
])
def test_a_places_aspect_opening_a_french_or_spanish_request_is_an_aspect(text, lang, subject, aspect):
    """ "Économie du Japon" and "Economía de México" had found no sources while "économie du Japon" was read: the
    capital is the sentence's (``planner._sentence_case``), and the word names what a place is asked
    (``request.aspect_noun``), as "Economy of Japan" does in English."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Japon", "Le Japon est un pays insulaire d'Asie de l'Est."),
            _doc("Chili", "Le Chili est un pays d'Amérique du Sud, long et étroit."),
            _doc("México", "México es un país de América del Norte.")]
    request = resolve_subject(read_request(text, lang), FakeSearch(docs), lang)
    assert (request.subjects, request.aspects, request.title) == ([subject], [aspect], text)


def test_a_part_spelled_apart_in_the_corpus_is_found_and_the_report_says_what_it_lacks():
    from reportgen.blueprint.planner import resolve_subject

    docs = [*PARTS, _doc("Health care", "Health care, or healthcare, is the improvement of health by prevention."),
            _doc("Hospital", "A hospital is a health care institution with staff and medical equipment."),
            _doc("Building", "A building is a structure with a roof and walls.")]
    text = "Write a detailed report on building resilient healthcare supply chains"
    request = resolve_subject(read_request(text), FakeSearch(docs), "en")
    assert request.subjects == ["Health care"]  # not the broad "Building"
    assert request.asked == "building resilient healthcare supply chains"
    blueprint = plan_extractive("r", RunOptions(topic=text), FakeSearch(docs))
    assert "building resilient healthcare supply chains" in blueprint.note and "Health care" in blueprint.note


INCAS = [
    _doc("Imperio incaico", "El Imperio incaico, o Imperio inca, fue el imperio más extenso de la América "
         "precolombina. Su capital fue el Cuzco."),
    _doc("Imperio gupta", "El Imperio gupta fue uno de los mayores imperios de la historia de la India."),
    _doc("Conquista del Imperio incaico", "La conquista del Imperio incaico fue el proceso por el que la Monarquía "
         "Hispánica incorporó los territorios incas en el siglo XVI."),
    _doc("Java", "Java es una isla de Indonesia."),
    _doc("Javanés", "El javanés es la lengua de Java."),
]


def test_a_subject_the_corpus_writes_as_an_adjective_is_its_article():
    """"Imperio inca" is the Spanish encyclopedia's *Imperio incaico*; the report keeps the title asked for."""
    from reportgen.blueprint.planner import resolve_subject, written_as_adjective

    request = resolve_subject(read_request("Historia del Imperio inca", "es"), FakeSearch(INCAS), "es")
    assert request.subjects == ["Imperio incaico"] and request.title == "Historia del Imperio inca"
    assert request.named_as == {"Imperio inca": "Imperio incaico"}
    themes, core, _ = gather_themes(request, FakeSearch(INCAS), 4, "es")
    assert core and core[0].title == "Imperio incaico" and "Imperio gupta" not in [p.title for p in core]
    assert written_as_adjective("Inca empire", "Incan Empire", "en")
    assert written_as_adjective("empire canada", "empire canadien", "fr")
    assert written_as_adjective("Rome empire", "Roman Empire", "en")
    # one word is never respelled, every word must pair, and a word of three letters takes no ending
    assert not written_as_adjective("Java", "Javanés", "es")
    assert not written_as_adjective("Imperio inca", "Imperio gupta", "es")
    assert not written_as_adjective("Art history", "Artic history", "en")
    assert not written_as_adjective("Imperio inca", "Imperio inca", "es")  # the very title is no respelling
    assert resolve_subject(read_request("Java", "es"), FakeSearch(INCAS), "es").subjects == ["Java"]


#: French "thé" beside English titles the French encyclopedia quotes, and "pêche" (fishing) beside "péché" (sin):
#: the terms fold accents, so each pair is one word to the search.
ACCENTS = [
    _doc("Thé", "Le thé est une boisson préparée par infusion des feuilles du théier. Le thé vert et le thé noir "
         "viennent de la même plante."),
    _doc("The Times", "The Times est un quotidien britannique. The Times est publié à Londres depuis 1785."),
    _doc("The Beatles", "The Beatles est un groupe de rock britannique. Leur album The White Album paraît en 1968."),
    _doc("Menthe", "La menthe est une plante aromatique. Le Maroc la cultive pour le thé à la menthe."),
    _doc("Tasse", "Une tasse permet de boire le café ou le thé chaud."),
    _doc("Péché", "Le péché est une faute contre la loi divine. Le péché originel est une doctrine chrétienne."),
    _doc("Pêche (halieutique)", "La pêche est la capture des poissons. La pêche en mer se fait sur un navire."),
    _doc("Navire de pêche", "Un navire de pêche sert à la pêche en mer."),
    _doc("Salut (théologie)", "Le salut est la délivrance du péché dans la théologie chrétienne."),
]


def test_a_french_word_is_written_with_its_accents(tmp_path):
    """The corpora's terms fold accents: "thé" had been named by every English title the French encyclopedia
    quotes (*John Knox*, *Babe Ruth*), and "La pêche" had been planned on *Péché*."""
    from reportgen.acp import MessageLog
    from reportgen.agents.browser import keep_to_sense
    from reportgen.agents.ranking import writes_accents
    from reportgen.agents.runtime import RunContext

    search = FakeSearch(ACCENTS, lang="fr")
    assert "The Times" in [p.title for p in search.search("thé")]  # one word to the search
    themes, core, _ = gather_themes(read_request("Le thé", "fr"), search, 4, "fr")
    assert [p.title for p in core] == ["Thé"] and not {"The Times", "The Beatles"} & set(themes)
    # the overview's and the conclusion's passages too (keep_to_sense), here without a topic space
    ctx = RunContext(topic="Le thé", lang="fr", search=search, log=MessageLog(tmp_path / "messages.jsonl"))
    assert [p.title for p in keep_to_sense(search.search("thé"), ["Thé"], ctx, "thé")] == ["Thé", "Menthe", "Tasse"]
    themes, core, _ = gather_themes(read_request("La pêche", "fr"), search, 4, "fr")
    assert {p.title for p in core} <= {"Pêche (halieutique)", "Navire de pêche"} and core
    assert themes == ["Navire de pêche"]  # not *Salut (théologie)*, on sin
    assert not writes_accents("The Times. The Times est un quotidien.", "Thé", "fr")
    assert writes_accents("Le thé vert. The Times en parle.", "Thé", "fr")  # written with its accent once
    assert writes_accents("Un texte sans le mot.", "Thé", "fr")  # not written at all: not judged here
    assert writes_accents("Etats-Unis", "États-Unis", "fr")  # a capital's accent, dropped in French
    assert not writes_accents("Le péché originel.", "pêche", "fr")
    assert writes_accents("The Times", "Thé", "en")  # English writes "cafe" and "café" alike


NAMED = [
    _doc("Association football", "Association football, more commonly known as football or soccer, is a team sport "
         "played between two teams of eleven players. Football is played on a pitch with a ball."),
    _doc("Premier League", "The Premier League is the top football league of England, with twenty clubs."),
    _doc("Tropical cyclone", "A tropical cyclone is a rotating storm system with a low-pressure centre. Depending on "
         "its location, a tropical cyclone is called a hurricane, typhoon or cyclonic storm. A hurricane is a strong "
         "tropical cyclone of the Atlantic Ocean."),
    _doc("Thunderstorm", "A thunderstorm is a storm with lightning; a tropical cyclone holds many thunderstorms."),
    _doc("Hot spring", "A hot spring, hydrothermal spring, or geothermal spring is a spring of warm groundwater."),
    _doc("Diogenes", "Diogenes, also called Diogenes the Cynic or Diogenes the Dog was a Greek philosopher."),
    _doc("Jaguar", "The jaguar is a large cat species native to the Americas, with a spotted coat."),
    _doc("Napoleon", "Napoleon Bonaparte, later known by his regnal name Napoleon I, was Emperor of the French."),
    _doc("Napoleon III", "Napoleon III was the nephew of Napoleon and the last emperor of France."),
]


@pytest.mark.parametrize(("asked", "named"), [
    ("Soccer", "Association football"),  # another name in the opening clause
    ("Hurricanes", "Tropical cyclone"),  # defined as a kind of it ("A hurricane is a strong tropical cyclone")
    ("Typhoon", "Tropical cyclone"),  # named by it ("a tropical cyclone is called a hurricane, typhoon")
    # its fuller name opens it (had been its own subject, with *Napoleon* a section beside *Napoleon III*)
    ("Napoleon Bonaparte", "Napoleon"),
])
def test_a_subject_the_corpus_holds_under_another_title_is_that_article(asked, named):
    from reportgen.blueprint.planner import resolve_subject

    request = resolve_subject(read_request(asked), FakeSearch(NAMED), "en")
    assert request.subjects == [named] and request.title == asked and request.named_as == {asked: named}
    blueprint = plan_extractive("r", RunOptions(topic=asked), FakeSearch(NAMED))
    assert f"This report reads {asked!r} as {named}, the title the corpora hold it under." in blueprint.note
    assert blueprint.subject == asked  # the report keeps the title asked for


def test_two_subjects_the_corpus_holds_under_one_title_are_one():
    from reportgen.blueprint.planner import resolve_subject

    request = resolve_subject(read_request("Hurricanes and typhoons"), FakeSearch(NAMED), "en")
    assert request.subjects == ["Tropical cyclone"] and request.title == "Hurricanes and typhoons"
    assert request.named_as == {"Hurricanes": "Tropical cyclone", "typhoons": "Tropical cyclone"}


@pytest.mark.parametrize("word", ["Spring", "Dog", "Storm"])
def test_a_word_inside_another_name_is_no_other_name_of_the_article(word):
    """"A hot spring, … or geothermal spring is" names kinds of spring; "Diogenes the Dog" is a man; a
    thunderstorm is a storm, but "Storm" is no other name of *Thunderstorm*."""
    from reportgen.blueprint.planner import resolve_subject

    assert resolve_subject(read_request(word), FakeSearch(NAMED), "en").named_as == {}


def test_a_report_the_corpus_holds_little_for_says_so_at_the_top():
    blueprint = plan_extractive("r", RunOptions(topic="Jaguar"), FakeSearch(NAMED))
    assert [t.inputs["title"].value for t in blueprint.tasks if t.kind == "write"] == ["Jaguar"]
    assert ("The corpora hold little on 'Jaguar': this report has one section, from Jaguar. For a fuller report, "
            "add your own documents or configure a model.") in blueprint.note
    one = plan_extractive("r", RunOptions(topic="Jaguar", sections=1), FakeSearch(NAMED))
    assert "hold little" not in one.note  # one section is all that was asked for
    asked = plan_extractive("r", RunOptions(topic="How fast do jaguars run?"), FakeSearch(NAMED))
    assert "The corpora hold little on 'jaguars':" in asked.note  # the subject, not the whole question
    typed = plan_extractive("r", RunOptions(topic="jaguar"), FakeSearch(NAMED))  # typed in lower case
    assert [t.inputs["title"].value for t in typed.tasks if t.kind == "write"] == ["Jaguar"]  # its article's title

    from reportgen.blueprint.planner import little_note
    from reportgen.blueprint.request import Request

    # after the note that the corpora hold no text on it as such, the count alone: "aucun texte … en tant que
    # tel" then "peu de chose" had read as a contradiction
    asked = Request(text="t", subjects=["changement climatique"])
    note = little_note(asked, ["Pollution", "Glaciation"], 6, "fr", thin=True)
    assert note.startswith("Il a 2 sections, tirées de Pollution et Glaciation.") and "peu de chose" not in note
    assert little_note(asked, ["Pollution"], 6, "en", thin=True).startswith("It has one section, from Pollution.")


EVENTS = [
    _doc("Berlin Wall", "The Berlin Wall was a guarded concrete barrier that divided Berlin from 1961 to 1989. "
         "The fall of the Berlin Wall in 1989 led to German reunification."),
    _doc("German reunification", "German reunification in 1990 followed the fall of the Berlin Wall."),
    _doc("Subhas Chandra Bose", "The honorific Netaji was first applied to Bose in Germany, far from any wall."),
    _doc("Fall of Constantinople", "The Fall of Constantinople was the capture of the city by the Ottomans in 1453."),
    _doc("Constantinople", "Constantinople was the capital of the Byzantine Empire."),
]


def test_an_event_of_a_subject_is_a_report_on_the_subject_when_the_event_has_no_article():
    """"Fall of the Berlin Wall" opened on Subhas Chandra Bose; it is the Berlin Wall, with the aspect "fall"."""
    from reportgen.blueprint.planner import resolve_subject

    request = resolve_subject(read_request("Fall of the Berlin Wall"), FakeSearch(EVENTS), "en")
    assert request.subjects == ["Berlin Wall"] and request.aspects == ["fall"]
    assert request.title == "Fall of the Berlin Wall"
    blueprint = plan_extractive("r", RunOptions(topic="Fall of the Berlin Wall"), FakeSearch(EVENTS))
    # passages write "the fall of the Berlin Wall": the corpora hold text on it, if no article
    assert blueprint.subject == "Fall of the Berlin Wall" and "no text on" not in blueprint.note
    unwritten = [_doc("Berlin Wall", "The Berlin Wall was a guarded concrete barrier that divided Berlin."),
                 *[d for d in EVENTS if "fall" not in d["text"].lower()]]
    blueprint = plan_extractive("r", RunOptions(topic="Fall of the Berlin Wall"), FakeSearch(unwritten))
    assert "no text on 'Fall of the Berlin Wall'" in blueprint.note
    # an event with an article of its own stays whole
    whole = resolve_subject(read_request("Fall of Constantinople"), FakeSearch(EVENTS), "en")
    assert whole.subjects == ["Fall of Constantinople"] and whole.aspects == []
    french = resolve_subject(read_request("La chute du mur de Berlin", "fr"),
                             FakeSearch([_doc("Mur de Berlin", "Le mur de Berlin divisait Berlin.")]), "fr")
    assert french.subjects == ["mur de Berlin"] and french.aspects == ["chute"]


HISTORIES = [
    _doc("Japan", "Japan is an island country in East Asia, on the Sea of Okhotsk and the Sea of Japan."),
    _doc("Sea of Okhotsk", "The Sea of Okhotsk lies north of Japan."),
    _doc("History of Japan", "The first human inhabitants of Japan arrived in the Jōmon period; the Edo period "
         "followed the Heian period in the history of Japan."),
    _doc("Edo period", "The Edo period of Japanese history was ruled by the Tokugawa shogunate."),
    _doc("Bicycle", "A bicycle is a human-powered vehicle with two wheels, first built in the 19th century."),
    _doc("Histoire du Japon", "L'histoire du Japon commence avec la période Jōmon."),
    _doc("Japon", "Le Japon est un pays insulaire d'Asie de l'Est."),
]


def test_a_request_for_a_subjects_history_is_planned_on_the_corpus_article_on_that_history():
    """"History of Japan" had been planned on *Japan* and drew the Sea of Okhotsk and Tokyo: the history is asked."""
    from reportgen.blueprint.planner import resolve_subject

    for text in ("History of Japan", "Write a short report on the history of Japan", "Japan: history"):
        request = resolve_subject(read_request(text), FakeSearch(HISTORIES), "en")
        assert request.subjects == ["History of Japan"] and request.aspects == [], text
    french = resolve_subject(read_request("Histoire du Japon", "fr"), FakeSearch(HISTORIES), "fr")
    assert french.subjects == ["Histoire du Japon"]
    # without an article on its history, the subject stays and its history is an aspect
    bicycle = resolve_subject(read_request("The history of the bicycle"), FakeSearch(HISTORIES), "en")
    assert bicycle.subjects == ["bicycle"] and bicycle.aspects == ["history"]
    # a subject asked for without its history keeps its own article
    assert resolve_subject(read_request("Japan"), FakeSearch(HISTORIES), "en").subjects == ["Japan"]
    # asked with other aspects, the subject stays ("the history, culture and economy of Brazil" had been planned on
    # *History of Brazil* alone, one section)
    both = resolve_subject(read_request("the history, culture and economy of Japan"), FakeSearch(HISTORIES), "en")
    assert both.subjects == ["Japan"] and both.aspects == ["history", "culture", "economy"]
    blueprint = plan_extractive("r", RunOptions(topic="The history of Japan", sections=2), FakeSearch(HISTORIES))
    assert "Edo period" in [t.inputs["title"].value for t in blueprint.tasks if t.kind == "write"]


def test_the_sections_of_a_history_come_in_time_order():
    """Planned by score, the Yayoi period came before the Jōmon period it followed."""
    from reportgen.blueprint.planner import in_time_order, tells_history
    from reportgen.blueprint.request import Request
    from reportgen.sources.models import Passage

    def passage(title: str, text: str) -> Passage:
        return Passage(source_id=title, title=title, url=f"https://example.org/{title}", text=text, corpus="c")

    told = "The Jōmon period was followed by the Yayoi period, when rice came from Asia."
    by_score = [passage("Edo period", "The Edo period ran from 1603 to 1868."),
                passage("Yayoi period", "The Yayoi period spans the first millennium BC."),
                passage("The Tale of Genji", "A classic novel of the imperial court."),
                passage("Heian period", "The Heian period ended in 1185."),
                passage("Jōmon period (prehistory)", "The Jōmon period ended around 300 BC.")]
    ordered = in_time_order(by_score, told, {}, "en")
    assert [p.title for p in ordered] == ["Jōmon period (prehistory)", "Yayoi period", "Heian period", "Edo period",
                                          "The Tale of Genji"]
    assert tells_history(Request(text="t", subjects=["History of Japan"]), "en")
    assert tells_history(Request(text="t", subjects=["bicycle"], aspects=["history"]), "en")
    assert tells_history(Request(text="t", subjects=["Japon"], aspects=["histoire"]), "fr")
    assert not tells_history(Request(text="t", subjects=["Historical linguistics"]), "en")
    assert not tells_history(Request(text="t", subjects=["Japan"], aspects=["causes"]), "en")


BEES = [
    _doc("Western honey bee", "The western honey bee is the most common of the honey bee species."),
    _doc("Honey", "Honey is a sweet substance made by honey bees from the nectar of flowers."),
    _doc("Beekeeping", "Beekeeping is the keeping of honey bee colonies in hives."),
    _doc("Bee", "Bees are winged insects; a bumble bee is larger than a honey bee."),
    _doc("Honeyeater", "Honeyeaters are birds that feed on nectar."),
]


def test_a_word_no_passage_writes_is_read_as_the_two_words_passages_write_it_as():
    """"Honeybee" was "found no sources" with nothing to offer: passages write "honey bee"."""
    from reportgen.blueprint.planner import resolve_subject

    request = resolve_subject(read_request("Honeybee"), FakeSearch(BEES), "en")
    assert request.subjects == ["Honey bee"] and request.title == "Honeybee"
    blueprint = plan_extractive("r", RunOptions(topic="Honeybee", sections=2), FakeSearch(BEES))
    assert blueprint.subject == "Honeybee"
    assert [t.inputs["title"].value for t in blueprint.tasks if t.kind == "write"]
    # a word passages write stays; so does one no split of which any passage writes
    assert resolve_subject(read_request("Honeyeater"), FakeSearch(BEES), "en").subjects == ["Honeyeater"]
    with pytest.raises(NoSourcesError):
        plan_extractive("r", RunOptions(topic="Quxwizzle"), FakeSearch(BEES))


LEAVES = [
    _doc("Leaf", "A leaf is the main organ of photosynthesis in a plant."),
    _doc("Chlorophyll", "Chlorophyll is the green pigment of leaves; in autumn it breaks down."),
    _doc("Color", "Color is the visual perception of light: yellow, red and green are colors."),
    _doc("Yellow", "Yellow is the color between green and orange; leaves may be yellow."),
    _doc("Physic", "Physic is an old word for medicine."),
    _doc("Physics", "Physics is the natural science of matter and energy."),
    _doc("Autumn", "Autumn is the season after summer; its main feature is the change in colour of the leaves of "
         "deciduous trees."),
]


def test_a_plural_the_stem_does_not_fold_is_read_in_the_singular_when_an_article_is_titled_so():
    """"Why do leaves change color in autumn?" had been planned on *Color*: "leaves" is not "leaf" to the stem;
    French and Spanish plurals are read in the singular by their regular rules."""
    from reportgen.blueprint.planner import resolve_subject
    from reportgen.sources.text import singular

    request = resolve_subject(read_request("Why do leaves change color in autumn?"), FakeSearch(LEAVES), "en")
    assert request.subjects == ["leaf"] and "autumn" in request.aspects
    wolves = resolve_subject(read_request("Leaves"), FakeSearch(LEAVES), "en")
    assert wolves.subjects == ["Leaf"] and wolves.title == "Leaves"  # titled as asked
    # a word with an article of its own stays as it is, even where the rules would misread it
    assert singular("Physics", "en") == "Physic"
    assert resolve_subject(read_request("Physics"), FakeSearch(LEAVES), "en").subjects == ["Physics"]
    assert singular("wolves", "en") == "wolf"
    # French and Spanish put every word in the plural: "Rédige un rapport sur les énergies renouvelables" had
    # found no sources beside *Énergie renouvelable*
    assert singular("énergies renouvelables", "fr") == "énergie renouvelable"
    assert singular("redes sociales", "es") == "red social" and singular("vacunas", "es") == "vacuna"
    french = FakeSearch([_doc("Énergie renouvelable", "Une énergie renouvelable est une source d'énergie."),
                         _doc("Géothermie", "La géothermie est une énergie renouvelable.")])
    assert resolve_subject(read_request("Rédige un rapport sur les énergies renouvelables", "fr"), french,
                           "fr").subjects == ["énergie renouvelable"]
    # the aspect's own article answers the question when it writes the subject in the plural ("leaves")
    themes, _, _ = gather_themes(request, FakeSearch(LEAVES), 3, "en")
    assert "Autumn" in themes, themes
    from reportgen.blueprint.planner import written_forms

    assert written_forms("leaf", "en") == [{"leaf"}, {"leave"}] and written_forms("bee", "en") == [{"bee"}]


def test_a_subject_with_an_article_of_its_own_is_kept_whole():
    from reportgen.blueprint.planner import resolve_subject

    docs = [*PARTS, _doc("Climate change in Africa", "Climate change in Africa brings drought to the Sahel.")]
    request = read_request("Climate change in Africa")
    assert resolve_subject(request, FakeSearch(docs), "en") is request


def test_each_related_subject_leads_through_its_parts_article():
    """ "coffee production" and "sleep deprivation" are never written: their parts' articles stand for them."""
    for text, leads in [("How does climate change affect coffee production?", {"Climate change", "Coffee"}),
                        ("The effect of sleep deprivation on memory", {"Sleep", "Memory"})]:
        request = read_request(text)
        themes, core, _ = gather_themes(request, FakeSearch(PARTS), 4, "en")
        assert leads <= set(themes[:2]), (text, themes)
        blueprint = plan_extractive("r", RunOptions(topic=text), FakeSearch(PARTS))
        assert blueprint.note  # says what it lacks
        # titled as asked; searched and judged as held ("deprivation" is no sign of being on the subject)
        assert blueprint.subject == text
        held = {t.inputs["subject"].value for t in blueprint.tasks if t.kind in ("write", "conclusion")}
        assert held == {request.subject.replace("coffee production", "Coffee").replace("sleep deprivation", "Sleep")}


def test_the_report_names_the_sense_it_took_and_how_to_ask_for_another():
    docs = [_doc("Mercury (planet)", "Mercury is the smallest planet and the closest to the Sun. Mercury has no moon."),
            _doc("Mercury (element)", "Mercury is a chemical element, a heavy silvery metal that is liquid."),
            _doc("Venus", "Venus is the second planet from the Sun; like Mercury it has no moon."),
            _doc("Planet", "A planet orbits the Sun: Mercury, Venus, Earth and Mars are the inner planets.")]
    blueprint = plan_extractive("r", RunOptions(topic="Mercury"), FakeSearch(docs))
    assert "reads 'Mercury' as Mercury (planet)" in blueprint.note and "Mercury (element)" in blueprint.note
    # a sense in brackets is the subject as written, not an acronym
    asked = read_request("Mercury (element)")
    assert asked.subjects == ["Mercury (element)"] and asked.acronyms == []
    assert read_request("Electric vehicle (EV) adoption").acronyms == ["EV"]
    blueprint = plan_extractive("r", RunOptions(topic="Mercury (element)"), FakeSearch(docs))
    assert "Mercury (element)" in blueprint.tasks[0].inputs["query"].value and "reads" not in blueprint.note
    java = [_doc("Java", "Java is an island of Indonesia with volcanoes and rice fields."),
            _doc("Java (programming language)", "Java is a programming language for software on Java islands."),
            _doc("Jakarta", "Jakarta, on Java, is the capital of Indonesia.")]
    note = plan_extractive("r", RunOptions(topic="Java"), FakeSearch(java)).note
    assert note.startswith("The corpora also hold Java (programming language)")  # not "reads 'Java' as Java"


@pytest.mark.parametrize(("text", "subjects"), [
    # an audience is cut only after an instruction; without one "for ..." is part of the subject
    ("Funding for public schools", ["Funding for public schools"]),
    ("Education for children with disabilities", ["Education for children with disabilities"]),
    ("Write a report on mathematics for engineers", ["mathematics"]),
    # a subject that starts with a document noun is no instruction
    ("Review bombing on Steam", ["Review bombing on Steam"]),
    ("Summary statistics on income", ["Summary statistics on income"]),
    ("Write a report covering climate adaptation of coastal cities", ["climate adaptation of coastal cities"]),
    # titles with framing words in the singular, and with colons, stay whole
    ("Benefit of the doubt", ["Benefit of the doubt"]),
    ("Risk of rain", ["Risk of rain"]),
    ("Star Wars: The Empire Strikes Back", ["Star Wars: The Empire Strikes Back"]),
    ("Mission: Impossible", ["Mission: Impossible"]),
    # dates in brackets go; a sense in brackets stays
    ("World War II (1939-1945)", ["World War II"]),
    ("Mercury (element)", ["Mercury (element)"]),
    # established compounds of "-based" get no aspect; the relation splits at its last "on"
    ("Evidence-based medicine", ["Evidence-based medicine"]),
    ("The impact of the war on drugs on incarceration", ["war on drugs", "incarceration"]),
    ("Write a 5-page report on volcanoes", ["volcanoes"]),
])
def test_ordinary_subjects_are_not_cut_by_the_instruction_rules(text, subjects):
    request = read_request(text)
    assert request.subjects == subjects
    if text.startswith("Evidence"):
        assert request.aspects == []


def test_a_question_on_a_place_or_a_cause_is_no_relation():
    """ "How does the heart benefit from exercise?" has no second subject "from exercise"."""
    for text in ("How is the climate changing in the Arctic?", "How does the heart benefit from exercise?",
                 "How do self-driving cars drive in snow?"):
        request = read_request(text)
        assert not any(s.split()[0].lower() in {"in", "from"} for s in request.subjects), request.subjects


def test_another_thing_of_the_subjects_kind_is_no_section():
    """ "Philippine Revolution" is no part of the French Revolution; "Solar energy" that says it is renewable
    energy is a part of renewable energy."""
    docs = [_doc("French Revolution", "The French Revolution was a period of political change in France from 1789."),
            _doc("Philippine Revolution", "The Philippine Revolution was a war against Spanish rule in 1896; "
                 "revolution and France were in the minds of its leaders."),
            _doc("Reign of Terror", "The Reign of Terror was a period of the French Revolution in 1793."),
            _doc("Storming of the Bastille", "The storming of the Bastille opened the French Revolution in 1789.")]
    themes, _, _ = gather_themes(read_request("French Revolution"), FakeSearch(docs), 4, "en")
    assert "Philippine Revolution" not in themes and "Reign of Terror" in themes
    energy = [_doc("Renewable energy", "Renewable energy comes from sources replenished by nature: sun and wind."),
              _doc("Solar energy", "Solar energy is light from the Sun, a renewable energy source."),
              _doc("Nuclear energy", "Nuclear energy comes from the atomic nucleus; it is not renewable from sun.")]
    themes, _, _ = gather_themes(read_request("Renewable energy"), FakeSearch(energy), 4, "en")
    assert "Solar energy" in themes and "Nuclear energy" not in themes


@pytest.mark.parametrize(("text", "lang", "subjects", "aspects"), [
    ("I need a short briefing on renewable energy for my team", "en", ["renewable energy"], []),
    ("Prepare a short briefing for my manager on the impact of tourism on the environment", "en",
     ["tourism", "environment"], []),
    ("Write a report for the board meeting on climate risk", "en", ["climate risk"], []),
    ("Necesito un informe breve sobre el café para mi equipo", "es", ["café"], []),
    ("J'ai besoin d'un rapport sur la photosynthèse", "fr", ["photosynthèse"], []),
    ("Informe sobre la historia del café en Colombia", "es", ["café en Colombia"], ["historia"]),
    ("L'histoire de la Révolution française", "fr", ["Révolution française"], ["histoire"]),
    ("Rédige un rapport sur la Révolution française et ses conséquences", "fr", ["Révolution française"],
     ["conséquences"]),
    ("The Cold War: Origins and Consequences (1947–1991)", "en", ["Cold War"], ["Origins", "Consequences"]),
    ("Photosynthesis: an overview", "en", ["Photosynthesis"], ["overview"]),
])
def test_teams_french_and_spanish_lead_ins_and_aspect_titles(text, lang, subjects, aspects):
    request = read_request(text, lang)
    assert request.subjects == subjects
    assert request.aspects == aspects


def test_a_rambling_request_is_about_what_follows_something_about():
    request = read_request("So my boss asked me to put together something about bees, like why they are "
                           "important and what is killing them, I have no idea where to start honestly")
    assert request.subjects == ["bees"]
    assert read_request("A long title of a film that has more than ten words in it for sure").subjects == [
        "long title of a film that has more than ten words in it for sure"]


def test_a_long_request_keeps_its_lead_in_removed():
    request = read_request("Can you explain how vaccines work in the human body and why some people are afraid of "
                           "them")
    assert request.subjects[0].startswith("vaccines")


@pytest.mark.parametrize("text, lang, subjects, title", [
    # a second subject with its own article shares no head noun, and loses its article
    ("Les abeilles et la pollinisation", "fr", ["abeilles", "pollinisation"], "abeilles et pollinisation"),
    ("El café y el té", "es", ["café", "té"], "café y té"),
    ("Malaria and tuberculosis", "en", ["Malaria", "tuberculosis"], ""),  # English keeps the subject phrase
    ("Wind and solar power", "en", ["Wind power", "solar power"], ""),
])
def test_two_subjects_with_articles_are_two_noun_phrases_titled_in_the_requests_language(text, lang, subjects, title):
    request = read_request(text, lang)
    assert request.subjects == subjects and request.title == title


def test_a_subject_never_ends_on_a_preposition():
    """ "in autumn" goes to the aspects; "in" does not stay behind ("Leaves change colour in")."""
    request = read_request("Why do leaves change colour in autumn?", "en")
    assert request.subjects == ["leaves change colour"] and "autumn" in request.aspects
    assert read_request("Vitamin A", "en").subjects == ["Vitamin A"]  # a letter is no article here


@pytest.mark.parametrize("text, lang, subjects, aspect", [
    # a setting the second subject closes on is both subjects': "as pets" is no part of "dogs"
    ("Cats vs dogs as pets", "en", ["Cats", "dogs"], "pets"),
    ("Coffee versus tea for health", "en", ["Coffee", "tea"], "health"),
    ("Malaria and tuberculosis in Africa", "en", ["Malaria", "tuberculosis"], "Africa"),
    ("Wind and solar power in Germany", "en", ["Wind power", "solar power"], "Germany"),  # the head noun still shared
    ("Les abeilles et la pollinisation en France", "fr", ["abeilles", "pollinisation"], "France"),
    ("El café y el té para la salud", "es", ["café", "té"], "salud"),
])
def test_a_setting_two_subjects_share_is_an_aspect_of_both(text, lang, subjects, aspect):
    request = read_request(text, lang)
    assert request.subjects == subjects and request.aspects[0] == aspect


def test_causes_and_effects_of_a_subject_stay_its_aspects():
    assert read_request("Causes and effects of inflation", "en").subjects == ["inflation"]


@pytest.mark.parametrize("text, aspects", [
    ("Write a report on tourism and its impact on the environment", ["environment"]),
    ("Coffee and its effects on health", ["health"]),
    ("AI and its influence on workforce productivity and job displacement",
     ["workforce productivity", "job displacement"]),
])
def test_an_aspect_is_what_the_subject_bears_on_not_the_bearing(text, aspects):
    assert read_request(text, "en").aspects == aspects


@pytest.mark.parametrize("text, subjects, aspects", [
    ("World War I causes", ["World War I"], ["causes"]),
    ("French Revolution causes and consequences", ["French Revolution"], ["causes", "consequences"]),
    ("Roman Empire history", ["Roman Empire"], ["history"]),
    ("Art history", ["Art history"], []),  # two words: the subject itself
    ("Root causes", ["Root causes"], []),
    # had been two subjects, "Electric cars pros" and "cons"
    ("Electric cars pros and cons", ["Electric cars"], ["pros", "cons"]),
    ("solar panels advantages and disadvantages", ["solar panels"], ["advantages", "disadvantages"]),
    ("Social media drawbacks", ["Social media"], ["drawbacks"]),
    # a list of aspects reads to its first (had been the subject "diabetes symptoms and", a reader's find)
    ("diabetes symptoms and treatment", ["diabetes"], ["symptoms", "treatment"]),
    ("asthma causes and treatment", ["asthma"], ["causes", "treatment"]),
    # what a place is asked (had been two subjects, "Australia economy" and the science of geography)
    ("Australia economy and geography", ["Australia"], ["economy", "geography"]),
    ("Human geography", ["Human geography"], []),  # two words: the subject itself
])
def test_a_subject_closing_on_an_aspect_noun_keeps_it_as_an_aspect(text, subjects, aspects):
    request = read_request(text, "en")
    assert request.subjects == subjects and request.aspects == aspects


@pytest.mark.parametrize("text, lang, subjects, aspects, compared", [
    # a subject, then a question on it after a colon or a dash: the head is what is asked about
    ("Chess vs Go: which game is harder?", "en", ["Chess", "Go"], ["harder"], True),
    ("iPhone vs Android - which is better?", "en", ["iPhone", "Android"], ["better"], True),
    ("Tea or coffee: which is healthier?", "en", ["Tea", "coffee"], ["healthier"], True),  # which of two: compared
    ("Nuclear power: is it safe?", "en", ["Nuclear power"], ["safe"], False),
    ("Write a report on remote work — what does it cost?", "en", ["remote work"], ["cost"], False),
    ("Thé ou café : lequel est le plus sain ?", "fr", ["Thé", "café"], ["sain"], True),
    ("Té o café: ¿cuál es más sano?", "es", ["Té", "café"], ["sano"], True),
])
def test_a_question_after_its_subject_asks_about_the_subject(text, lang, subjects, aspects, compared):
    request = read_request(text, lang)
    assert (request.subjects, request.aspects, request.compared) == (subjects, aspects, compared)
    assert request.question
    # titled as asked, the instruction gone and the name's small letter kept ("iPhone")
    assert request.title == text.removeprefix("Write a report on ").replace("remote", "Remote")


def test_a_colon_before_a_capital_belongs_to_a_title_and_before_lower_case_words_lists_what_is_asked():
    assert read_request("Star Wars: The Empire Strikes Back").subjects == ["Star Wars: The Empire Strikes Back"]
    # words in lower case after the colon or a dash are what is asked of the subject, whatever their form
    for text in ("Bitcoin: bubble or future?", "Bitcoin - bubble or future", "Bitcoin: is it a bubble"):
        assert read_request(text).subjects == ["Bitcoin"], text


def test_a_comparison_asked_as_a_question_plans_both_subjects():
    docs = [_doc("Chess", "Chess is a board game for two players. Chess is played on a board of 64 squares."),
            _doc("Go (game)", "Go is an abstract strategy board game for two players. Go is played with stones."),
            _doc("Monopoly (game)", "Monopoly is a board game in which players buy and trade properties.")]
    themes, _, _ = gather_themes(read_request("Chess vs Go: which game is harder?"), FakeSearch(docs), 3, "en")
    assert themes[:2] == ["Chess", "Go (game)"]


@pytest.mark.parametrize("text, lang, subject, aspect", [
    ("What are the benefits of olive oil for health?", "en", "olive oil", "health"),
    ("¿Cuáles son los beneficios del aceite de oliva para la salud?", "es", "aceite de oliva", "salud"),
    ("¿Cuáles son los efectos del aceite de oliva en la salud?", "es", "aceite de oliva", "salud"),
    ("Quels sont les bienfaits de l'huile d'olive pour la santé ?", "fr", "huile d'olive", "santé"),
])
def test_a_setting_the_subject_closes_on_is_an_aspect_when_the_whole_has_no_article(text, lang, subject, aspect):
    """ "aceite de oliva para la salud" had been the subject, which no article is titled by; a reader found the
    report on olive oil with nothing on health, titled without the benefits asked for."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc(subject[:1].upper() + subject[1:], f"{subject} is pressed from olives; {subject} is a fat."),
            _doc("Salud", "La salud es un estado de bienestar.")]
    request = resolve_subject(read_request(text, lang), FakeSearch(docs), lang)
    assert request.subjects == [subject] and aspect in request.aspects
    assert read_request(text, lang).title.startswith(("What are the benefits", "¿Cuáles son los", "Quels sont"))


def test_a_subject_closing_on_a_setting_stays_whole_when_an_article_is_titled_so():
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Olive oil", "Olive oil is pressed from olives."),
            _doc("Olive oil for health", "Olive oil for health is a book on diets with olive oil for health.")]
    request = resolve_subject(read_request("Write a report on olive oil for health"), FakeSearch(docs), "en")
    assert request.subjects == ["olive oil for health"]


@pytest.mark.parametrize("text, subjects, aspects, question", [
    # ways of asking that are no part of the subject (a reader's requests and their kind)
    ("Tell me everything about black holes", ["black holes"], [], False),
    ("Everything you need to know about vaccines", ["vaccines"], [], False),
    ("What's the deal with inflation?", ["inflation"], [], True),
    ("A beginner's guide to photosynthesis", ["photosynthesis"], [], False),
    ("An introduction to machine learning", ["machine learning"], [], False),
    ("ELI5 quantum computing", ["quantum computing"], [], False),
    ("Top 10 facts about sharks", ["sharks"], [], False),
    ("black holes explained", ["black holes"], [], False),
    ("photosynthesis explained simply", ["photosynthesis"], [], False),  # had been "photosynthesis explained"
    ("black holes explained simply pls", ["black holes"], [], False),
    ("Machine learning basics", ["Machine learning"], [], False),
    ("i want to know about sharks pls", ["sharks"], [], False),
    ("Explain the theory of relativity like I'm five", ["theory of relativity"], [], False),
    # aspects listed after a dash, a colon or in brackets
    ("Renaissance art - key facts", ["Renaissance art"], ["key facts"], False),
    ("Coffee - history, production and health effects", ["Coffee"], ["history", "production", "health effects"],
     False),
    ("Nuclear energy: pros and cons", ["Nuclear energy"], ["pros", "cons"], False),
    ("Report on coffee (history, production, health)", ["coffee"], ["history", "production", "health"], False),
    # questions the forms had not read
    ("What's the difference between a virus and a bacterium?", ["virus", "bacterium"], [], True),
    ("What happened at Chernobyl?", ["Chernobyl"], [], True),
    ("Is it safe to eat raw eggs?", ["raw eggs"], ["safe"], True),
    ("Where do hurricanes come from?", ["hurricanes"], ["origins"], True),  # where from: its origins
    ("Where does chocolate come from?", ["chocolate"], ["origins"], True),
    # a life, told: the person is the subject
    ("The life of Napoleon Bonaparte", ["Napoleon Bonaparte"], [], False),
    ("Marie Curie's life and work", ["Marie Curie"], ["life"], False),
    ("The Hitchhiker's Guide to the Galaxy", ["Hitchhiker's Guide to the Galaxy"], [], False),  # a title stays
    ("A Brief History of Time", ["Brief History of Time"], [], False),
])
def test_ways_of_asking_are_no_part_of_the_subject(text, subjects, aspects, question):
    request = read_request(text, "en")
    assert (request.subjects, request.aspects, request.question) == (subjects, aspects, question)


MORE_WAYS_OF_ASKING = [
    ("sharks 🦈", "en", ["sharks"], []),  # a symbol names nothing
    ("Why are sharks important to the ocean ecosystem?", "en", ["sharks important to the ocean"], ["ecosystem"]),
    ("Compare the economies of France and Germany", "en", ["France", "Germany"], ["economies"]),
    ("Tout savoir sur les requins", "fr", ["requins"], []),
    ("Les requins : biologie et comportement", "fr", ["requins"], ["biologie", "comportement"]),
    ("Todo sobre los tiburones", "es", ["tiburones"], []),
    ("Guía para principiantes sobre la fotosíntesis", "es", ["fotosíntesis"], []),
    ("Introduction à l'apprentissage automatique", "fr", ["apprentissage automatique"], []),
    ("I'm writing a school project on the Amazon rainforest, can you help?", "en", ["Amazon rainforest"], []),
    ("What are some interesting facts about octopuses?", "en", ["octopuses"], []),
    ("What are the symptoms of diabetes?", "en", ["diabetes"], ["symptoms"]),
    ("What is the role of women in the French Revolution?", "en", ["French Revolution"], ["women"]),
]


def test_a_question_on_a_part_of_its_subject_reads_the_whole_when_an_article_is_titled_so():
    """ "What are the symptoms of diabetes?" is on diabetes; "What is the theory of relativity?" on the theory,
    an article of its own. "Why are sharks important to …?" is on sharks when no article holds the longer reading."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Diabetes", "Diabetes is a disease of high blood sugar."),
            _doc("Theory of relativity", "The theory of relativity is two theories by Albert Einstein."),
            _doc("Relativity", "Relativity is a rock band."),
            _doc("Shark", "Sharks are fish of the oceans; sharks keep the ocean ecosystem healthy.")]
    search = FakeSearch(docs)
    assert resolve_subject(read_request("What are the symptoms of diabetes?"), search, "en").subjects == ["diabetes"]
    relativity = resolve_subject(read_request("What is the theory of relativity?"), search, "en")
    assert relativity.subjects == ["theory of relativity"]
    sharks = resolve_subject(read_request("Why are sharks important to the ocean ecosystem?"), search, "en")
    assert [s.casefold() for s in sharks.subjects] in (["shark"], ["sharks"])
    assert "important to the ocean" in sharks.aspects


HOW_TO_ADVICE_AND_FRAMINGS = [
    # how-to and advice: the thing done is the subject, the doing its aspect
    ("How to grow tomatoes", ["tomatoes"], ["grow"]),
    ("How to make bread?", ["bread"], []),  # "make" only asks how
    ("Tips for learning a new language", ["language"], ["learning"]),
    ("Ways to reduce plastic waste", ["plastic waste"], ["reduce"]),
    ("The best way to learn piano", ["piano"], ["learn"]),
    ("Best practices for password security", ["password security"], []),
    # framings that name no subject
    ("Rise and fall of the Roman Empire", ["Roman Empire"], []),
    ("A history of jazz", ["jazz"], ["history"]),
    ("Timeline of the space race", ["space race"], []),
    ("Different kinds of renewable energy", ["renewable energy"], []),
    ("Overview of the human brain", ["human brain"], []),
    ("Human brain anatomy and function", ["Human brain"], ["anatomy", "function"]),
    ("Understanding inflation", ["inflation"], []),
    ("Exploring the deep sea", ["deep sea"], []),
    ("A Brief History of Time", ["Brief History of Time"], []),  # a title
]


def test_a_question_with_has_reads_its_subject():
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Internet", "The Internet is a global network; the Internet changed society.")]
    request = resolve_subject(read_request("How has the internet changed society?"), FakeSearch(docs), "en")
    assert [s.casefold() for s in request.subjects] == ["internet"] and "changed" in request.aspects


def test_a_framed_event_with_an_article_of_its_own_stays_whole():
    """ "Fall of Constantinople" is an article's title; "Fall of the Berlin Wall", with none, is the wall."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Fall of Constantinople", "The Fall of Constantinople was the capture of the city in 1453."),
            _doc("Constantinople", "Constantinople was the capital of the Byzantine Empire."),
            _doc("Timeline of the space race", "The timeline of the space race lists its events."),
            _doc("Space Race", "The Space Race was a competition between two powers.")]
    search = FakeSearch(docs)
    assert resolve_subject(read_request("Fall of Constantinople"), search, "en").subjects == ["Fall of Constantinople"]
    assert resolve_subject(read_request("Timeline of the space race"), search, "en").subjects == \
        ["Timeline of the space race"]


REQUESTS_TYPED_AS_PEOPLE_TYPE_THEM = [
    # a reader's requests, typed as people type them
    ("the fall of the berlin wall 1989", "en", ["fall of the berlin wall"], ["1989"]),  # had found no sources
    ("World War II in 1944", "en", ["World War II"], ["1944"]),
    ("Blade Runner 2049", "en", ["Blade Runner 2049"], []),  # a short name keeps its number
    ("vaccines... do they actually work?", "en", ["vaccines"], []),  # had found no sources
    ("whats the deal with black holes?? how do they form", "en", ["black holes"], []),
    ("coffee vs energy drinks which is better for studying", "en", ["coffee drinks", "energy drinks"],
     ["better for studying"]),  # had been "coffee drinks which is better" and "energy drinks which is better"
    ("Leonardo da Vinci - paintings, inventions, etc", "en", ["Leonardo da Vinci"], ["paintings", "inventions"]),
    ("Write me a detailed report on the life of Albert Einstein: his early years, his major scientific "
     "contributions, and his legacy. Please include a timeline.", "en", ["Albert Einstein"],
     ["early years", "major scientific contributions", "legacy"]),
    ("¿Cómo funcionan los terremotos? no wait - cómo funcionan los glaciares", "es", ["glaciares"], []),
    ("how to grow potatoes at home", "en", ["potatoes at home"], ["grow"]),  # "at home": tried shorter (below)
    # stop 36's: each had been read with its way of asking in the subject or an aspect
    ("Can you write something about the Silk Road?", "en", ["Silk Road"], []),  # aspect "write something about the"
    ("Everything about penguins", "en", ["penguins"], []),  # had found no sources
    ("Need info on hurricanes for school project", "en", ["hurricanes"], []),  # had been the subject "Need info"
    # had kept "Need a report on the for my class" as an aspect (a reader's find); "Need for Speed" is a name
    ("Need a report on the water cycle for my class", "en", ["water cycle"], []),
    ("Need an essay on climate change", "en", ["climate change"], []),
    ("Need for Speed", "en", ["Need for Speed"], []),
    # a document noun before "of" asks for it (had kept "Summary of the" as an aspect)
    ("Summary of the Cold War", "en", ["Cold War"], []),
    # an audience of the user's own closes no title, with no instruction either (had the aspect "my class")
    ("Greek philosophers for my class", "en", ["Greek philosophers"], []),
    ("¿Qué fue la Guerra Fría?", "es", ["Guerra Fría"], []),  # in the past (had kept "Qué fue" in the subject)
    ("Les volcans pour ma classe", "fr", ["volcans"], []),
    ("Funding for public schools", "en", ["Funding for public schools"], []),
    ("Overview of renewable energy", "en", ["renewable energy"], []),
    ("I need information about volcanoes for my homework", "en", ["volcanoes"], []),
    ("Give me some info on the Eiffel Tower", "en", ["Eiffel Tower"], []),
    ("Explain the greenhouse effect to a 10 year old", "en", ["greenhouse effect"], []),
    ("The greenhouse effect", "en", ["greenhouse effect"], []),  # had been *greenhouse*, aspect "effect"
    ("the electric vehicle adoption rates", "en", ["electric vehicle"], ["adoption rates"]),
    ("What role did women play in World War II?", "en", ["World War II"], ["women"]),  # had been "women play"
    ("What part does the Moon play in tides?", "en", ["tides"], ["Moon"]),
    # aspects listed in small letters before "of" their subject (had been the subject "history")
    ("Produce a comprehensive report on the history, culture and economy of Brazil", "en", ["Brazil"],
     ["history", "culture", "economy"]),
    ("The geography and climate of Chile", "en", ["Chile"], ["geography", "climate"]),
    ("the history and future of nuclear energy", "en", ["nuclear energy"], ["history"]),  # framing words, as before
    ("Pride and Prejudice", "en", ["Pride", "Prejudice"], []),
    # a document comparing, as "Compare …" (the instruction had been read as an aspect)
    ("Give me a report comparing nuclear and solar energy costs", "en", ["nuclear energy", "solar energy"],
     ["costs"]),
    ("Write an analysis contrasting Rome and Carthage", "en", ["Rome", "Carthage"], []),
    # "and possible solutions" is an aspect (had been read into the subject, then split around "Middle East")
    ("Prepare an in-depth analysis of water scarcity in the Middle East and possible solutions", "en",
     ["water scarcity in the Middle East"], ["possible solutions"]),
    # what makes a named thing what it is; a ranking asked for (the superlative in small letters)
    ("What makes the Mona Lisa famous?", "en", ["Mona Lisa"], ["famous"]),  # aspect "What makes the famous"
    ("What makes a good leader?", "en", ["What makes a good leader"], []),
    ("Top 5 largest deserts in the world", "en", ["deserts"], ["largest"]),  # had found no sources
    ("the most spoken languages", "en", ["languages"], ["most spoken"]),
    ("The Most Dangerous Game", "en", ["Most Dangerous Game"], []),
    ("The Greatest Showman", "en", ["Greatest Showman"], []),
    # a maker's works: "by", or "of" after a word saying which works (had found no sources)
    ("Famous paintings by Van Gogh", "en", ["Van Gogh"], ["paintings"]),
    ("the major works of Tolstoy", "en", ["Tolstoy"], ["works"]),
    ("Songs of Innocence", "en", ["Songs of Innocence"], []),
    # yes-no and which-of-two questions, and a ranking asked
    ("Is Pluto a planet?", "en", ["Pluto"], ["planet"]),  # had been "Pluto a"
    # a yes-no question typed without its mark (a reader's "is chocolate good for you", read "is chocolate good")
    ("is chocolate good for you", "en", ["chocolate"], ["good", "health"]),
    ("is the earth flat", "en", ["earth"], ["flat"]),
    ("Are You Experienced", "en", ["Are You Experienced"], []),  # a title in capitals
    ("Is This It", "en", ["Is This It"], []),
    ("Is nuclear power safe?", "en", ["nuclear power"], ["safe"]),
    ("Which is bigger, the Sun or Jupiter?", "en", ["Sun", "Jupiter"], ["bigger"]),  # had been the subject "bigger"
    ("What is the tallest mountain in the world?", "en", ["mountain"], ["tallest"]),
    ("top 10 largest countries by area", "en", ["countries"], ["largest", "area"]),  # the measure ranked by
    # "where" and "when" with a copula: a name is the subject whole, a participle in small letters is asked
    ("Where is Machu Picchu?", "en", ["Machu Picchu"], []),  # had been "Machu", asked of its "Picchu"
    ("Where is the Amazon rainforest?", "en", ["Amazon rainforest"], []),
    ("When was the Eiffel Tower built?", "en", ["Eiffel Tower"], ["built"]),
    ("Where was Mozart born?", "en", ["Mozart"], ["born"]),
    # aspect nouns closing the subject: "future" only in small letters (had been a second subject, "future")
    ("Space exploration history and future", "en", ["Space exploration"], ["history", "future"]),
    ("Back to the Future", "en", ["Back to the Future"], []),
    # names, not ways of asking; a colon after a lead-in is a title's
    ("Tell me about Mission: Impossible", "en", ["Mission: Impossible"], []),
    ("All about Eve", "en", ["All about Eve"], []),
    ("Need for Speed", "en", ["Need for Speed"], []),
    ("The 100 Years War", "en", ["100 Years War"], []),
]


def test_a_setting_at_a_place_is_tried_shorter():
    from reportgen.blueprint.planner import resolve_subject

    wall = resolve_subject(read_request("the fall of the berlin wall 1989"),
                           FakeSearch([_doc("Berlin Wall", "The Berlin Wall divided Berlin; it fell in 1989.")]), "en")
    assert [s.casefold() for s in wall.subjects] == ["berlin wall"] and "fall" in wall.aspects

    docs = [_doc("Potato", "The potato is a starchy tuber; potatoes are grown at home and on farms.")]
    request = resolve_subject(read_request("how to grow potatoes at home"), FakeSearch(docs), "en")
    assert [s.casefold() for s in request.subjects] in (["potato"], ["potatoes"]) and "home" in request.aspects


def test_two_subjects_take_no_shared_head_when_only_the_bare_word_has_an_article():
    """ "coffee vs energy drinks" had been "coffee drinks" and "energy drinks": a report on Drink, Bar and Juice."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Coffee", "Coffee is a drink made from roasted coffee beans."),
            _doc("Energy drink", "An energy drink is a drink with caffeine and sugar."),
            _doc("Wind power", "Wind power uses wind turbines."), _doc("Solar power", "Solar power uses sunlight.")]
    search = FakeSearch(docs)
    assert resolve_subject(read_request("coffee vs energy drinks"), search, "en").subjects[0] == "coffee"
    assert resolve_subject(read_request("Wind and solar power"), search, "en").subjects[0] == "Wind power"


FRENCH_AND_SPANISH_WAYS_OF_ASKING = [
    ("Comment faire du pain ?", "fr", ["pain"], []),
    ("Comment cultiver des tomates", "fr", ["tomates"], ["cultiver"]),
    ("Avantages et inconvénients de l'énergie nucléaire", "fr", ["énergie nucléaire"], []),  # had been two subjects
    ("Ventajas y desventajas de la energía nuclear", "es", ["energía nuclear"], []),
    ("La vie de Napoléon", "fr", ["Napoléon"], []),
    ("La vida de Frida Kahlo", "es", ["Frida Kahlo"], []),
    ("Biographie de Victor Hugo", "fr", ["Victor Hugo"], []),
    ("Que s'est-il passé à Tchernobyl ?", "fr", ["Tchernobyl"], []),
    ("¿Qué pasó en Chernóbil?", "es", ["Chernóbil"], []),
    ("Consejos para aprender inglés", "es", ["inglés"], ["aprender"]),
    ("Conseils pour apprendre l'anglais", "fr", ["anglais"], ["apprendre"]),
]


def test_two_subjects_sharing_one_part_are_the_words_that_set_them_apart():
    """ "Compare Python and Rust programming languages" had been two subjects "programming languages"."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Programming language", "A programming language is a system of notation for writing programs."),
            _doc("Monty Python", "Monty Python were a comedy group."), _doc("Iron", "Rust forms on iron.")]
    request = resolve_subject(read_request("Compare Python and Rust programming languages for beginners"),
                              FakeSearch(docs), "en")
    assert request.subjects == ["Python", "Rust"] and "programming languages" in request.aspects


WHAT_A_REQUEST_OF_SEVERAL_SENTENCES_ASKS = [
    # a sentence on what the user is doing, then the request, then how to write it (a reader's; the report had
    # been on writing systems, "I'm writing a school essay and need some background")
    ("I'm writing a school essay and need some background. Please give me an overview of the Apollo 11 moon "
     "landing in 1969. Focus on the crew, the mission, and why it mattered. Keep it readable.",
     ["Apollo 11 moon landing"], ["1969"]),
    ("tips for learning to play the guitar", ["guitar"], ["learning"]),  # had been "to play the guitar"
    # no aspect "are they" (the verb may follow the subject: the planner tries "glaciers")
    ("how do glaciers form and why are they shrinking??", ["glaciers form"], ["shrinking"]),
]


def test_a_subject_as_a_kind_of_thing_is_tried_without_it():
    """ "pros and cons of nuclear fusion as an energy source" had found no sources, naming Nuclear fusion."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Nuclear fusion", "Nuclear fusion joins light nuclei and releases energy.")]
    request = resolve_subject(read_request("pros and cons of nuclear fusion as an energy source"), FakeSearch(docs),
                              "en")
    assert [x.casefold() for x in request.subjects] == ["nuclear fusion"] and "energy source" in request.aspects
    assert request.title == "Pros and cons of nuclear fusion as an energy source"


WHAT_A_REQUEST_SHOULD_COVER = [
    ("tips for learning to swim as an adult", ["swimming"], ["learning", "adult"]),  # had been "as an adult"
    # a sentence asking for a report on nothing yet, then what it should cover (had been titled "Report for my
    # class. It should cover the history of the Olympic Games")
    ("I need a report for my class. It should cover the history of the Olympic Games, the biggest controversies, "
     "and why it matters for teenagers. Keep it simple.", ["Olympic Games"],
     ["history", "biggest controversies", "matters for teenagers"]),
    ("I need a report on volcanoes. It should cover eruptions and famous volcanoes.", ["volcanoes"],
     ["eruptions", "famous volcanoes"]),
]


def test_a_gerund_is_the_verb_inflected():
    from reportgen.sources.text import gerund

    assert [gerund(v, "en") for v in ("swim", "ski", "learn")] == ["swimming", "skiing", "learning"]
    assert gerund("nadar", "es") == "nadar"


@pytest.mark.parametrize("text, subject", [
    ("why do we have leap years??", "leap years"),  # had been "years", read as the Year
    ("Why do people believe in ghosts?", "ghosts"),
    ("Why do we have seasons?", "seasons"),
    ("Why do we dream?", "dream"),
    ("What do I mean by entropy", "entropy"),
])
def test_a_question_on_what_people_do_is_on_what_follows_their_verb(text, subject):
    assert read_request(text, "en").subjects == [subject]


A_QUESTION_ON_WHAT_A_SUBJECT_HAS = [
    ("Why does the Moon have phases?", ["Moon"], ["phases"]),  # had been "Moon have", which no sentence writes
    ("Why do cats have whiskers?", ["cats"], ["whiskers"]),
    ("What rights do citizens have?", ["citizens"], ["rights"]),  # had been the whole question
    ("Which languages do Brazilians speak?", ["Brazilians"], ["languages"]),
    ("Which planets have rings?", ["planets"], ["rings"]),
]


@pytest.mark.parametrize("text, lang, subjects, aspects", [
    *MORE_WAYS_OF_ASKING,
    *[(text, "en", subjects, aspects) for text, subjects, aspects in HOW_TO_ADVICE_AND_FRAMINGS],
    *REQUESTS_TYPED_AS_PEOPLE_TYPE_THEM,
    *FRENCH_AND_SPANISH_WAYS_OF_ASKING,
    *[(text, "en", subjects, aspects) for text, subjects, aspects in WHAT_A_REQUEST_OF_SEVERAL_SENTENCES_ASKS],
    *[(text, "en", subjects, aspects) for text, subjects, aspects in WHAT_A_REQUEST_SHOULD_COVER],
    *[(text, "en", subjects, aspects) for text, subjects, aspects in A_QUESTION_ON_WHAT_A_SUBJECT_HAS],
])
def test_how_a_request_is_read(text, lang, subjects, aspects):
    request = read_request(text, lang)
    assert (request.subjects, request.aspects) == (subjects, aspects)


RENAMED = [_doc("World War I", "World War I was a global conflict fought from 1914 to 1918."),
           _doc("1", "1 is a number, numeral, and grapheme."),
           _doc("Window", "A window is an opening in a wall."),
           _doc("Sahara", "The Sahara is a desert spanning North Africa. It is the largest hot desert."),
           _doc("Tunisia", "Tunisia holds the northern reaches of the Sahara desert."),
           _doc("Honey", "Honey is a sweet substance made by honey bees from nectar.")]


@pytest.mark.parametrize("text, subjects, named_as", [
    # "World War 1" had been refused with *World War I* among the closest subjects (and, for a while, read as a
    # report on the number 1): the number is read as the title writes it, letter for letter
    ("World War 1", ["World War I"], {"World War 1": "World War I"}),
    ("Windows 10", ["Windows 10"], {}),  # "Windows X" is no *Window*
    # "The Sahara Desert" had been built on *Tunisia*, *Mauritania* and *Mongolia*: the encyclopedia titles it
    # *Sahara*, "a desert spanning North Africa"
    ("The Sahara Desert", ["Sahara"], {"Sahara Desert": "Sahara"}),
    ("Honey bees", ["Honey bees"], {}),  # no *Honey*, which bees make
])
def test_a_subject_is_read_as_the_corpus_titles_it(text, subjects, named_as):
    from reportgen.blueprint.planner import resolve_subject

    request = resolve_subject(read_request(text), FakeSearch(RENAMED), "en")
    assert (request.subjects, request.named_as) == (subjects, named_as)


def test_a_number_after_a_name_is_written_in_roman_numerals():
    from reportgen.blueprint.planner import _in_roman

    assert _in_roman("World War 1") == "World War I" and _in_roman("Henry 8") == "Henry VIII"
    assert _in_roman("1 Corinthians") == "1 Corinthians" and _in_roman("Windows 95") == "Windows 95"


def test_a_subject_closing_on_what_the_user_owns_is_tried_without_it():
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Homeschooling", "Homeschooling is the education of children at home.")]
    request = resolve_subject(read_request("pros and cons of homeschooling your kids"), FakeSearch(docs), "en")
    assert [s.casefold() for s in request.subjects] == ["homeschooling"]


def test_a_subject_is_read_in_the_number_its_article_is_titled_in():
    """ "What is the difference between a virus and a bacterium?" had no section on *Bacteria* (a reader's find):
    the light stem does not fold a Latin plural, so a subject no article is titled by is tried in the plural, as
    "Wolves" is tried in the singular."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Bacteria", "Bacteria are microorganisms of one cell."), _doc("Virus", "A virus is an agent."),
            _doc("Wolf", "The wolf is a canine.")]
    search = FakeSearch(docs)
    compared = resolve_subject(read_request("What is the difference between a virus and a bacterium?"), search, "en")
    assert compared.subjects == ["virus", "Bacteria"], compared
    assert resolve_subject(read_request("Wolves"), search, "en").subjects == ["Wolf"]


def test_a_surname_is_the_one_person_an_article_is_titled_by():
    """ "Mozart" had been planned on the texts writing "Mozart", its introduction a sentence on *Don Giovanni* (a
    reader's find): the one article titled by a full name ending on it, and writing of a person, is the subject,
    titled as asked. Two such people are two, and the surname stays ("Curie")."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Wolfgang Amadeus Mozart", "Wolfgang Amadeus Mozart was a prolific composer. He wrote operas."),
            _doc("Don Giovanni", "Don Giovanni is an opera by Mozart."),
            _doc("Ludwig van Beethoven", "Ludwig van Beethoven was a German composer. His symphonies are famous."),
            _doc("Pierre Curie", "Pierre Curie was a French physicist. He studied magnetism."),
            _doc("Marie Curie", "Marie Curie was a physicist and chemist; she won two Nobel prizes."),
            _doc("Monty Python", "Monty Python were a British comedy troupe; the Pythons made films."),
            _doc("The Seventh Seal", "The Seventh Seal is a Swedish film. His knight plays chess with Death.")]
    search = FakeSearch(docs)
    assert resolve_subject(read_request("Python"), search, "en").subjects == ["Python"]  # no person
    assert resolve_subject(read_request("Seal"), search, "en").subjects == ["Seal"]  # a work, no person
    mozart = resolve_subject(read_request("Mozart"), search, "en")
    assert mozart.subjects == ["Wolfgang Amadeus Mozart"] and mozart.title == "Mozart", mozart
    assert mozart.named_as == {"Mozart": "Wolfgang Amadeus Mozart"}
    assert resolve_subject(read_request("Beethoven"), search, "en").subjects == ["Ludwig van Beethoven"]
    assert resolve_subject(read_request("Curie"), search, "en").subjects == ["Curie"]


def test_a_possessor_is_the_subject_when_no_article_is_titled_by_the_whole():
    """ "Isaac Newton's contributions to science" and "Japan's economy" had found no sources (a reader's finds):
    the possessor is the subject, what it owns its aspect. A whole an article is titled by stays ("Alzheimer's
    disease")."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Isaac Newton", "Isaac Newton was an English mathematician and physicist."),
            _doc("Japan", "Japan is an island country in East Asia; its economy is large."),
            _doc("Alzheimer's disease", "Alzheimer's disease is a neurodegenerative disease."),
            _doc("Disease", "A disease is an abnormal condition.")]
    search = FakeSearch(docs)
    read = {text: resolve_subject(read_request(text), search, "en") for text in (
        "Isaac Newton's contributions to science", "Japan's economy", "Alzheimer's disease")}
    assert (read["Isaac Newton's contributions to science"].subjects,
            read["Isaac Newton's contributions to science"].aspects) == (["Isaac Newton"], ["contributions to science"])
    assert (read["Japan's economy"].subjects, read["Japan's economy"].aspects) == (["Japan"], ["economy"])
    assert read["Alzheimer's disease"].subjects == ["Alzheimer's disease"]


@pytest.mark.parametrize("text, subjects", [
    ("The Way of Kings", ["Way of Kings"]),  # "way" gives advice only before "to": a title
    ("sharks, I mean dolphins", ["Dolphins"]),  # taken back after a mark
])
def test_titles_and_corrections(text, subjects):
    assert read_request(text, "en").subjects == subjects


@pytest.mark.parametrize("text, title", [
    # a blind reader found "Poems by Emily Dickinson" titled "Emily Dickinson", the poems silently dropped
    ("poems by Emily Dickinson", "Poems by Emily Dickinson"),
    ("top 10 largest countries by area", "Top 10 largest countries by area"),
])
def test_a_works_or_ranking_request_is_titled_as_asked(text, title):
    assert read_request(text).title == title


@pytest.mark.parametrize(("text", "kept"), [
    ("Haussmann rebuilt Paris for Napoleon III.", False),  # another bearer of the name
    ("Napoleon I crowned himself in 1804.", True),  # the first bearer is he
    ("Napoleon was Emperor of the French.", True),
])
def test_a_name_with_a_regnal_number_is_another_bearer(text, kept):
    """ *Napoleon III* and his prefect *Georges-Eugène Haussmann* had been sections of "Who was Napoleon
    Bonaparte" (a reader's find): "Napoleon III" is blanked where the subject is "Napoleon", not "Louis XIV" where
    the subject has its number."""
    from reportgen.agents.ranking import names_subject, unnamed_for

    assert names_subject(unnamed_for(text, "X", ["Napoleon"], "en"), "Napoleon") is kept
    assert unnamed_for("Louis XIV built Versailles.", "X", ["Louis XIV"], "en") == "Louis XIV built Versailles."


def test_of_titles_folded_alike_the_core_is_the_one_written_as_asked():
    """"blues" folds to "blue": *Blue* (the colour) had been in the core of "Jazz and blues" beside *Blues*, and
    closed its report ("Blue is one of the three primary colours …", a reader's find). The title written as asked
    is the core; "Dogs" still has *Dog*."""
    docs = [_doc("Blues", "Blues is a music genre that originated among African Americans in the Deep South."),
            _doc("Blue", "Blue is one of the three primary colours; blues and greens are cool colours."),
            _doc("Dog", "The dog is a domesticated descendant of the wolf; dogs were bred for herding.")]
    _, core, _ = gather_themes(read_request("Blues"), FakeSearch(docs), 6, "en")
    assert [p.title for p in core] == ["Blues"]
    _, core, _ = gather_themes(read_request("Dogs"), FakeSearch(docs), 6, "en")
    assert [p.title for p in core] == ["Dog"]


def test_a_word_no_article_is_titled_by_is_said_to_be_drawn_from_texts_mentioning_it():
    """"¿Cómo se forman los glaciares?": the Spanish encyclopedia has no article on glaciers, and the report drew on
    *Cordillera del Karakórum* and *Monte Logan*, which mention them, saying nothing at the top."""
    docs = [_doc("Karakoram", "The Karakoram holds many glaciers. Its glaciers are the longest outside the poles."),
            _doc("Mount Logan", "Mount Logan is a mountain in Canada. Glaciers flow from it; the glaciers are vast."),
            _doc("Rugby football", "Rugby football is a team sport."),
            _doc("Association football", "Association football is a team sport played with a ball.")]
    blueprint = plan_extractive("r", RunOptions(topic="Glaciers"), FakeSearch(docs))
    assert blueprint.note.startswith("The corpora hold no article on 'Glaciers'; this report draws on the texts "
                                     "that mention it: "), blueprint.note
    assert "Karakoram" in blueprint.note
    # kinds of the subject titled by its word are articles on it: no such note for "Football"
    blueprint = plan_extractive("r", RunOptions(topic="Football"), FakeSearch(docs))
    assert "no article on" not in blueprint.note
    # nor for texts defining their thing as a kind of it: the French *Iguanodon*, "un genre fossile de dinosaures"
    # (the edition titles its article *Dinosauria*; a reader found the note false)
    kinds = [_doc("Iguanodon", "Iguanodon is a genus of dinosaurs that lived in Europe. These dinosaurs ate plants."),
             _doc("Allosaurus", "Allosaurus is a genus of large dinosaurs. The dinosaurs of this genus hunted."),
             *docs]
    blueprint = plan_extractive("r", RunOptions(topic="Dinosaurs"), FakeSearch(kinds))
    assert "no article on" not in blueprint.note, blueprint.note
    # a subject of several words too: "economy of Germany", held by texts naming both, had said nothing (a blind
    # reader's find); a possessor is whose it is ("Einstein's theory of relativity" is *Theory of relativity*)
    economies = [_doc("Economy of the European Union", "The economy of the European Union is large; Germany has its "
                      "largest economy, and the economy of Germany leads its exports."),
                 _doc("Great Depression", "The Great Depression hit the economy of Germany hard; the German economy "
                      "shrank as trade fell."),
                 _doc("Theory of relativity", "The theory of relativity is Einstein's theory of space and time."),
                 _doc("Albert Einstein", "Albert Einstein developed the theory of relativity; Einstein's theory "
                      "changed physics."),
                 *docs]
    blueprint = plan_extractive("r", RunOptions(topic="economy of Germany"), FakeSearch(economies))
    assert blueprint.note.startswith("The corpora hold no article on 'economy of Germany'; this report draws on "
                                     "the texts that mention it: "), blueprint.note
    blueprint = plan_extractive("r", RunOptions(topic="Einstein's theory of relativity"), FakeSearch(economies))
    assert "no article on" not in blueprint.note, blueprint.note


@pytest.mark.parametrize(("text", "lang", "subject", "aspect"), [
    ("L'impressionnisme en peinture", "fr", "impressionnisme", "peinture"),
    ("Le vin en France", "fr", "vin", "France"),
    ("El café en Colombia", "es", "café", "Colombia"),
])
def test_a_subject_placed_by_en_is_its_head_as_in_english(text, lang, subject, aspect):
    """French and Spanish place a subject with "en" as English does with "in": "L'impressionnisme en peinture" had
    been drawn from *Postimpressionnisme* and *Édouard Manet* under a note that the corpora hold no article on it,
    though *Impressionnisme* is one (a reader's find); "Le vin en France" and "El café en Colombia" had found no
    sources."""
    from reportgen.blueprint.planner import resolve_subject

    docs = [_doc("Impressionnisme", "L'impressionnisme est un mouvement pictural né en France. Les peintres "
                 "impressionnistes peignent en plein air."),
            _doc("Peinture", "La peinture est un art visuel; la peinture à l'huile est ancienne."),
            _doc("Vin", "Le vin est une boisson alcoolisée obtenue par la fermentation du raisin."),
            _doc("Café", "El café es una bebida que se obtiene de las semillas tostadas del cafeto.")]
    request = resolve_subject(read_request(text, lang), FakeSearch(docs, lang=lang), lang)
    assert (request.subjects, request.aspects) == ([subject], [aspect])
    assert request.title == read_request(text, lang).subject  # titled as asked


def test_a_cause_named_of_the_subjects_plural_answers_why():
    """ "Leaves are mostly green in color due to the presence of a compound called chlorophyll" names the leaf by
    its plural, which the light stem does not fold ("leave"): *Chlorophyll* answers "Why do leaves fall?". It had
    been found only while the sentence splitter glued the next sentence ("A leaf with …") to it."""
    from reportgen.blueprint.planner import explained, resolve_subject

    docs = [_doc("Leaf", "A leaf is a flat outgrowth of a plant stem. Leaves are mostly green in color due to the "
                         "presence of a compound called chlorophyll, which absorbs light from the Sun. A leaf with "
                         "white patches is called a variegated leaf."),
            _doc("Chlorophyll", "Chlorophyll is a green pigment found in plants. Chlorophyll absorbs light."),
            _doc("Sun", "The Sun is the star at the centre of the Solar System.")]
    request = resolve_subject(read_request("Why do leaves fall?"), FakeSearch(docs), "en")
    assert request.subjects == ["leaf"], request
    leaf = [p for p in FakeSearch(docs).search("Leaf", k=5) if p.title == "Leaf"]
    assert [p.title for p in explained(request, leaf, FakeSearch(docs), "en")] == ["Chlorophyll"]
