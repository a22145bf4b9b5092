"""Comparable numbers of several articles become one chart; every value is checked against its cited passage.

The corpora are small encyclopedia-like passages made here: a number joins a
chart of other articles' numbers only when its unit, its length measure and
its kind (the words around it) are the same, its magnitude and year are
close, and it is about its own article. Each value is checked by the one
chart verifier (:func:`reportgen.agents.verify.verify_outputs`) and again
here, digit by digit, against the text of the passage it cites.
"""

from __future__ import annotations

import math
import re

import pytest

from reportgen.acp import MessageLog
from reportgen.agents.plot import PlotBrain, related_sources
from reportgen.agents.runtime import RunContext
from reportgen.agents.verify import verify_outputs
from reportgen.blueprint.model import Task
from reportgen.charts import NumericFact, extract_facts, parse_number, propose_chart
from reportgen.charts.numbers import quantity_kind
from reportgen.charts.spec import MAX_SPREAD, ChartSpec, comparable_key, entity
from reportgen.errors import AgentError
from reportgen.sources.models import Passage

from factories import passage, passages
from fakes import FakeSearch

DAMS = {
    "Three Gorges Dam": "The Three Gorges Dam is a hydroelectric dam on the Yangtze river in China. "
                        "The dam has an installed capacity of 22,500 MW, the largest of any power station.",
    "Itaipu Dam": "The Itaipu Dam is a hydroelectric dam on the Paraná river between Brazil and Paraguay. "
                  "Its installed capacity is 14,000 MW from 20 generating units.",
    "Guri Dam": "The Guri Dam is a hydroelectric dam in Venezuela on the Caroní river. "
                "It has an installed capacity of 10,235 MW.",
    "Hydroelectricity": "Hydroelectricity is electricity generated from hydropower. Hydroelectric dams "
                        "such as the Three Gorges Dam, Itaipu Dam and Guri Dam hold large reservoirs.",
}


def assert_printed_in_cited_passage(spec: ChartSpec, cited: list[Passage]) -> None:
    """Every point's value is printed, as its raw text, in the text of the passage it cites."""
    texts = {p.source_id: p for p in cited}
    for point in spec.points:
        source = texts[point.source_id]
        assert point.url == source.url and point.title == source.title
        assert point.quote in source.text and point.raw in point.quote
        number = re.match(r"[−\-]?[\d.,]+", point.raw)
        assert number is not None
        assert parse_number(number.group(0)) == pytest.approx(point.value)


def ctx_for(docs: dict[str, str], tmp_path, topic: str = "Hydroelectricity") -> RunContext:
    search = FakeSearch([{"title": t, "text": x} for t, x in docs.items()], name="wikipedia-en")
    return RunContext(topic=topic, lang="en", search=search, log=MessageLog(tmp_path / "messages.jsonl"),
                      backoff_scale=0.0)


def run_plot(notes: list[Passage], subject: str, ctx: RunContext, keywords: list[str] | None = None):
    """One plot-agent step as the runtime runs it: request, call, check, then the one verifier."""
    brain = PlotBrain()
    task = Task(id="chart-1", agent="plot", kind="chart", aim="chart", outputs=["chart"])
    inputs = {"notes": [p.model_dump() for p in notes], "subject": subject}
    if keywords is not None:
        inputs["keywords"] = keywords
    params = brain.build_request(task, inputs, "default", ctx)
    raw = brain.call(params, ctx)
    outputs = brain.check_response(task, params, raw, ctx)
    verify_outputs(outputs, raw, ctx)
    return outputs["chart"], raw


# --------------------------------------------------------------------------- kinds


@pytest.mark.parametrize(
    ("sentence", "raw", "kind"),
    [
        ("The dam has an installed capacity of 22,500 MW.", "22,500 MW", "capacity"),
        ("It generated 101.6 TWh in 2020.", "101.6 TWh", "production"),
        ("Tokyo is home to 14 million people.", "14 million people", "population"),
        ("The bombings killed between 150,000 and 246,000 people.", "150,000 and 246,000 people", "deaths"),
        ("Xinjiang has about 25 million inhabitants.", "25 million inhabitants", "population"),
        ("Its mean diameter, 6,779 km (4,212 mi), is about half the Earth's.", "6,779 km", "diameter"),
        ("Saturn orbits the Sun at a distance of 9.59 AU, with an orbital period of 29.45 years.",
         "29.45 years", "period"),
        ("Neptune orbits the Sun once every 164.8 years at an orbital distance of 30.1 AU.", "164.8 years", ""),
        ("The population density is 25.5 inhabitants per square kilometre.", "25.5 inhabitants", ""),
        ("Cnidaria has over 11,000 species.", "11,000 species", "species"),
        ("The country covers 9.6 million square kilometres.", "9.6 million square kilometres", "area"),
        ("The club played 12 years in the league.", "12 years", ""),
        ("Symptoms typically begin 3 to 14 days after infection.", "3 to 14 days", "onset of symptoms"),
        ("Death typically occurs between 6 and 16 days after the first symptoms appear.", "6 and 16 days", ""),
        ("The outer core lies 2,889 km below the surface.", "2,889 km", ""),
        # a height below the sea is no length to set beside one above it ("Vänern: length", 44 m beside 62 m)
        ("Its surface lies at 44 metres (144 ft) above sea level.", "44 metres", "height"),
        ("Its lowest point is 62 metres (203 ft) below sea level.", "62 metres", "depth below sea level"),
    ],
)
def test_the_words_around_a_number_give_its_kind(sentence: str, raw: str, kind: str) -> None:
    facts = {f.raw: f for f in extract_facts([passage("Doc", sentence)])}
    assert facts[raw].kind == kind
    start = sentence.index(raw)
    assert quantity_kind(sentence, start, start + len(raw), facts[raw].unit, facts[raw].measure) == kind


# --------------------------------------------------------------------------- combining


def test_capacities_of_several_dams_make_one_chart_each_value_cited_to_its_article(tmp_path) -> None:
    notes = passages(DAMS)
    chart, raw = run_plot(notes, "Hydroelectricity", ctx_for(DAMS, tmp_path), keywords=["dam"])
    spec = ChartSpec.model_validate(chart["spec"])
    assert spec.kind == "bar" and spec.unit == "MW"
    assert [(p.label, p.raw) for p in spec.points] == [
        ("Three Gorges Dam", "22,500 MW"), ("Itaipu Dam", "14,000 MW"), ("Guri Dam", "10,235 MW")]
    assert {p.source_id for p in spec.points} == {f"wiki-en:{t}" for t in ("Three Gorges Dam", "Itaipu Dam",
                                                                             "Guri Dam")}
    assert spec.y_label == "Capacity (MW)"
    # the title says what is compared, not the section's name ("Hydroelectricity: capacity")
    assert spec.title == "Capacity: Three Gorges Dam, Itaipu Dam, Guri Dam"
    assert_printed_in_cited_passage(spec, notes)
    cited = {s["source_id"] for s in chart["sources"]}
    assert cited == {p.source_id for p in spec.points}  # each bar's own article is a source of the chart


def test_siblings_related_to_the_subject_join_its_chart(tmp_path) -> None:
    docs = {
        "Mercury (planet)": "Mercury is the smallest planet in the Solar System and the closest to the Sun. "
                            "Mercury is a rocky planet with a heavily cratered surface and a thin exosphere.",
        "Jupiter": "Jupiter is the fifth planet from the Sun and the largest in the Solar System. It orbits "
                   "the Sun at a distance of 5.20 AU, with an orbital period of 11.86 years.",
        "Saturn": "Saturn is the sixth planet from the Sun and the second largest in the Solar System. "
                  "It orbits the Sun at a distance of 9.59 AU, with an orbital period of 29.45 years.",
        "Tea": "Tea is a drink made from the leaves of a shrub. China exported 400,000 tonnes of tea.",
    }
    notes = passages(docs)
    facts = extract_facts(notes)
    related = related_sources(notes, "Mercury (planet)", ["mercury", "planet"], "en")
    assert {"wiki-en:Jupiter", "wiki-en:Saturn"} <= related and "wiki-en:Tea" not in related
    spec = propose_chart([], "Mercury (planet)", [f for f in facts if f.source_id in related])
    assert spec is not None and spec.unit in {"AU", "years"}
    assert {p.label for p in spec.points} == {"Jupiter", "Saturn"}
    assert_printed_in_cited_passage(spec, notes)


def test_a_number_about_something_else_in_an_article_does_not_join() -> None:
    docs = {
        "Mercury (planet)": "Its largest crater, Caloris Planitia, has a diameter of 1,550 km.",
        "Mars": "Mars is a planet. Its mean diameter, 6,779 km, is about half the Earth's.",
        "Venus": "Venus is a planet. Its diameter, 12,104 km, is close to the Earth's.",
    }
    notes = passages(docs)
    spec = propose_chart([], "planet", extract_facts(notes))
    assert spec is not None
    assert [p.label for p in spec.points] == ["Mars", "Venus"]  # the crater is not Mercury
    assert_printed_in_cited_passage(spec, notes)


# --------------------------------------------------------------------------- not combined


@pytest.mark.parametrize(
    "docs",
    [
        # same unit, different kinds: people killed and people living
        {"Hiroshima": "The bombing of Hiroshima killed 140,000 people.",
         "Osaka": "Osaka is home to 2,700,000 people."},
        # same kind, different units (never converted)
        {"Itaipu Dam": "Its installed capacity is 14,000 MW.", "Wind farm": "Its installed capacity is 2 GW."},
        # a percentage and an absolute number
        {"Coal": "Coal produced 36% of the world's electricity.", "Gas": "Gas produced 6,500 TWh of electricity."},
        # shares of different wholes
        {"Solar": "Solar power produced 5% of the world's electricity.",
         "Heating": "Solar heating produced 30% of household heat."},
        # a kind the words do not say
        {"Club A": "Club A played 12 years in the league.", "Club B": "Club B played 30 years in the league."},
        # years too far apart
        {"Town A": "Town A had a population of 12,000 people in 1950.",
         "Town B": "Town B had a population of 15,000 people in 2020."},
        # magnitudes too far apart
        {"Village": "The village has a population of 40 people.",
         "Country": "The country has a population of 200 million people."},
    ],
)
def test_non_comparable_numbers_are_not_combined(docs: dict[str, str]) -> None:
    notes = passages(docs)
    facts = extract_facts(notes)
    assert propose_chart([], "anything", facts) is None


def test_a_chart_needs_two_comparable_articles_else_605(tmp_path) -> None:
    docs = {"Itaipu Dam": "The Itaipu Dam has an installed capacity of 14,000 MW.",
            "Osaka": "Osaka is home to 2,700,000 people."}
    with pytest.raises(AgentError) as err:
        run_plot(passages(docs), "Itaipu Dam", ctx_for(docs, tmp_path))
    assert err.value.status_code == 605


# --------------------------------------------------------------------------- hostile numbers


def _fact(label: str, value: float, raw: str, source: str, kind: str = "capacity", unit: str = "MW",
          year: int | None = None) -> NumericFact:
    return NumericFact(value=value, raw=raw, unit=unit, label=label, sentence=f"{label} has a capacity of {raw}.",
                       source_id=f"wiki-en:{source}", title=source, url=f"https://x/{source}", kind=kind,
                       year=year)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_values_are_never_charted(bad: float) -> None:
    facts = [_fact("A", 100, "100 MW", "A"), _fact("B", bad, "999 MW", "B"), _fact("C", 120, "120 MW", "C")]
    spec = propose_chart([], "capacity", facts)
    assert spec is not None
    assert all(math.isfinite(p.value) for p in spec.points)
    assert [p.label for p in spec.points] == ["A", "C"]


def test_huge_and_negative_values_are_left_out_of_combined_charts() -> None:
    facts = [_fact("A", 100, "100 MW", "A"), _fact("B", 1e300, "1e300 MW", "B"), _fact("C", -50, "-50 MW", "C"),
             _fact("D", 130, "130 MW", "D")]
    spec = propose_chart([], "capacity", facts)
    assert spec is not None and [p.label for p in spec.points] == ["A", "D"]
    assert max(p.value for p in spec.points) <= MAX_SPREAD * min(p.value for p in spec.points)


def test_temperatures_may_be_negative() -> None:
    facts = [_fact("Titan", -179, "−179 °C", "Titan", kind="temperature", unit="°C"),
             _fact("Mars", -63, "−63 °C", "Mars", kind="temperature", unit="°C")]
    spec = propose_chart([], "temperature", facts)
    assert spec is not None and sorted(p.value for p in spec.points) == [-179, -63]


def test_shares_combine_only_on_the_same_whole() -> None:
    same = [_fact("Coal", 36, "36%", "Coal", kind="", unit="%"), _fact("Gas", 23, "23%", "Gas", kind="", unit="%")]
    for f in same:
        f.base = "world's electricity"
    assert comparable_key(same[0]) == comparable_key(same[1]) == ("%", "", "share of world's electricity")
    unnamed = _fact("Wind", 8, "8%", "Wind", kind="production", unit="%")
    assert comparable_key(unnamed) is None  # a share of an unnamed whole is never combined


def test_bar_labels_name_the_entity() -> None:
    assert entity(_fact("Alcoholic beverages", 1, "1 MW", "Alcoholic beverage")) == "Alcoholic beverage"
    assert entity(_fact("Callisto", 1, "1 MW", "Callisto (moon)")) == "Callisto"
    assert entity(_fact("Caloris Planitia", 1, "1 MW", "Mercury (planet)")) == "Caloris Planitia"


def test_counts_of_other_things_are_no_comparable_counts() -> None:
    """ "Number of species: Western honey bee, Honeyguide" stood in two reports on bees: "16 species of birds" counts
    a bird family's species, not bees'. A count written with what it counts compares only with counts of the same
    thing, or with counts of their own article's thing ("65 species of Pteropus" in *Pteropus*)."""
    docs = {"Western honey bee": "The western honey bee is the most common of the 7–12 species of honey bees "
                                 "worldwide.",
            "Honeyguide": "Honeyguides are a family of 16 species of birds in the order Piciformes.",
            "Bumblebee": "A bumblebee is any of over 250 species in the genus Bombus, part of Apidae."}
    facts = extract_facts(passages(docs))
    own = [f for f in facts if f.title == "Western honey bee"]
    assert propose_chart(own, "Western honey bee", [f for f in facts if f.title == "Honeyguide"]) is None
    assert propose_chart([f for f in facts if f.title == "Bumblebee"], "Bumblebee",
                         [f for f in facts if f.title == "Honeyguide"]) is None
    # the same counts without what they count written after them compare as before
    bare = {title: re.sub(r" (?:of birds in the order Piciformes|of honey bees worldwide)", "", text)
            for title, text in docs.items()}
    facts = extract_facts(passages(bare))
    spec = propose_chart([f for f in facts if f.title == "Western honey bee"], "Western honey bee",
                         [f for f in facts if f.title == "Honeyguide"])
    assert spec is not None and {p.label for p in spec.points} == {"Western honey bee", "Honeyguide"}


def test_the_verifier_reads_a_range_as_the_extractor_does(tmp_path) -> None:
    """ "70–85 million deaths" is 70 million deaths to the extractor; the verifier had read the 70 alone, refused the
    World War I report's chart (607) and printed its refusal in the Limitations."""
    wars = {"World War I": "World War I was a global conflict. It caused an estimated 15 to 22 million deaths.",
            "World War II": "World War II was a global conflict and the deadliest in history, with an estimated "
                            "70–85 million deaths."}
    chart, _ = run_plot(passages(wars), "World War", ctx_for(wars, tmp_path, topic="World wars"), keywords=["war"])
    assert sorted((p["label"], p["value"], p["high"]) for p in chart["spec"]["points"]) == [
        ("World War I", 15e6, 22e6), ("World War II", 70e6, 85e6)]


def test_the_verifier_rejects_a_combined_value_not_printed_in_its_source(tmp_path) -> None:
    notes = passages(DAMS)
    ctx = ctx_for(DAMS, tmp_path)
    brain = PlotBrain()
    task = Task(id="chart-1", agent="plot", kind="chart", aim="chart", outputs=["chart"])
    params = brain.build_request(task, {"notes": [p.model_dump() for p in notes], "subject": "Hydroelectricity",
                                        "keywords": ["dam"]}, "default", ctx)
    raw = brain.call(params, ctx)
    outputs = brain.check_response(task, params, raw, ctx)
    outputs["chart"]["spec"]["points"][1]["value"] = 15000.0  # a value Itaipu's article does not print
    with pytest.raises(AgentError) as err:
        verify_outputs(outputs, raw, ctx)
    assert err.value.status_code == 607


def test_a_value_every_article_repeats_or_all_equal_values_are_not_compared() -> None:
    repeated = [_fact(name, 88, "88 MW", name) for name in ("Orion", "Crux", "Lyra")] + [_fact("Vela", 40, "40 MW",
                                                                                              "Vela")]
    assert propose_chart([], "capacity", repeated) is None
    equal = [_fact("A", 20, "20 MW", "A"), _fact("B", 20, "20 MW", "B")]
    assert propose_chart([], "capacity", equal) is None


def test_shares_of_a_generic_whole_are_not_combined() -> None:
    docs = {"West Nile fever": "In less than 1% of people, encephalitis occurs.",
            "Yellow fever": "In about 15% of people, the fever recurs."}
    notes = passages(docs)
    assert propose_chart([], "fever", extract_facts(notes)) is None


def test_a_related_article_never_charts_its_own_sentence_alone() -> None:
    """Numbers of a related article join a chart of several articles' numbers; they never make one alone."""
    docs = {"Geothermal power": "Geothermal electricity generation is used in 26 countries, while geothermal "
                                "heating is in use in 70 countries."}
    facts = extract_facts(passages(docs))
    assert propose_chart(facts, "Geothermal power") is not None  # its own section charts it
    assert propose_chart([], "Solar power", facts) is None  # a section on solar power does not


def test_incubation_periods_of_several_diseases_make_one_chart() -> None:
    docs = {"Malaria": "Malaria is a mosquito-borne disease. Symptoms usually begin 10 to 15 days after being bitten.",
            "Dengue fever": "Dengue is a viral disease. Symptoms typically begin 3 to 14 days after infection.",
            "Mumps": "Mumps is a viral disease. Symptoms typically occur 16 to 18 days after exposure to the virus."}
    notes = passages(docs)
    facts = extract_facts(notes)
    spec = propose_chart([f for f in facts if f.title == "Malaria"], "Malaria", facts)
    assert spec is not None and spec.unit == "days"
    assert [(p.label, p.value, p.high) for p in spec.points] == [
        ("Malaria", 10, 15), ("Dengue fever", 3, 14), ("Mumps", 16, 18)]
    assert spec.y_label == "Onset of symptoms (days)"
    assert_printed_in_cited_passage(spec, notes)


def test_a_chart_of_other_things_numbers_is_no_chart_of_the_subject() -> None:
    """Megabat and maple species in a section on *Pteropus* (seen in a "Bat" report): neither bar is the
    subject's own and neither article says it is a thing of the subject, so there is no chart; with the
    subject's own number beside them there is one. Dams that say they are hydroelectric still make a chart on
    hydroelectricity (the dams test above)."""
    docs = {"Pteropus": "Pteropus is a genus of megabats. They live in South Asia and Australia.",
            "Megabat": "Megabats constitute the family Pteropodidae. As of 2018, 197 species of megabat had "
                       "been described.",
            "Maple": "Acer is a genus of trees known as maples. There are approximately 132 species, most "
                     "native to Asia."}
    facts = extract_facts(passages(docs))
    assert len({f.source_id for f in facts}) == 2 and propose_chart([], "Pteropus", facts) is None
    own = {**docs, "Pteropus": "Pteropus is a genus of megabats. There are about 65 species of Pteropus."}
    notes = passages(own)
    spec = propose_chart([], "Pteropus", extract_facts(notes))
    assert spec is not None and "Pteropus" in {p.label for p in spec.points}
    assert_printed_in_cited_passage(spec, notes)
    moons = {"Callisto (moon)": "Callisto is the second-largest moon of Jupiter. With a diameter of 4,821 km, "
                                "Callisto is larger than Earth's Moon.",
             "Mars": "Mars is the fourth planet from the Sun. Its mean diameter, 6,779 km, is twice the Moon's."}
    assert propose_chart([], "Moon", extract_facts(passages(moons))) is None  # both name the Moon, neither is it


MERS = {
    "Mer du Nord": "La mer du Nord est une mer de l'océan Atlantique qui s'étend sur une superficie d'environ "
                   "575 000 km2.",
    "Mer Baltique": "La mer Baltique est une mer intérieure de 364 800 km2 située dans le Nord de l'Europe.",
    "Mer d'Irlande": "S'étendant sur 46 007 km2, la mer d'Irlande communique avec l'océan Atlantique.",
    "Mer Rouge": "La mer Rouge couvre une superficie d'environ 438 000 km2 entre l'Afrique et l'Asie.",
    "Mer": "Une mer est une étendue d'eau salée. La mer du Nord, la mer Baltique et la mer Rouge sont des mers.",
}


@pytest.mark.parametrize("lang, title, y_label, caption", [
    ("fr", "Superficie : Mer du Nord, Mer Baltique, Mer d'Irlande et autres", "Superficie (km²)",
     "Superficie : Mer du Nord, Mer Baltique, Mer d'Irlande et autres (km²)"),
    ("es", "Superficie: Mer du Nord, Mer Baltique, Mer d'Irlande y otros", "Superficie (km²)",
     "Superficie: Mer du Nord, Mer Baltique, Mer d'Irlande y otros (km²)"),
    ("en", "Area: Mer du Nord, Mer Baltique, Mer d'Irlande and others", "Area (km²)",
     "Area: Mer du Nord, Mer Baltique, Mer d'Irlande and others (km²)"),
])
def test_a_charts_title_and_axes_are_in_the_reports_language(tmp_path, lang, title, y_label, caption) -> None:
    """A French report on the sea had charts titled "Width:", "Area: … and others": the quantity, the kind and
    the words between them are the report's language's (``i18n.chart_word``)."""
    from reportgen.charts import caption as chart_caption
    from reportgen.i18n import chart_word

    facts = extract_facts(passages(MERS), lang="fr")
    spec = propose_chart(facts, "Mer", lang=lang)
    assert spec is not None and spec.unit == "km²" and len(spec.points) == 4
    assert (spec.title, spec.y_label, chart_caption(spec, lang)) == (title, y_label, caption)
    assert chart_word("Year", lang) == {"fr": "Année", "es": "Año", "en": "Year"}[lang]
    assert chart_word("{what} by year", lang, what="Mer du Nord") in (
        "Mer du Nord par année", "Mer du Nord por año", "Mer du Nord by year")
    assert chart_word("Width", "de") == "Width"  # a language without a table keeps the English words


def test_a_quantity_named_by_one_word_of_the_subject_is_no_chart_of_it() -> None:
    """A reader found "Number of islands: Denmark, The Bahamas" in the section on the Faroe Islands: the
    quantity is the subject only when it holds every word of it (as "temperature" does in a section on it)."""
    facts = [_fact("Denmark", 1419, "1,419 islands", "Denmark", kind="islands", unit="islands"),
             _fact("The Bahamas", 700, "700 islands", "The Bahamas", kind="islands", unit="islands")]
    facts[0].opening = "Denmark is a Nordic country in Northern Europe."
    facts[1].opening = "The Bahamas is a country in the Lucayan Archipelago of the West Indies."
    assert propose_chart([], "Faroe Islands", facts) is None
    spec = propose_chart([], "Islands", facts)
    assert spec is not None and {p.label for p in spec.points} == {"Denmark", "The Bahamas"}


#: Lengths a report on the rivers of India read: two rivers', a city's and a lake's (a reader found "Length: Ganges,
#: Godavari River, Patna"); the Ganges's is written as a compound adjective.
INDIA_LENGTHS = {
    "Ganges": "The Ganges is a trans-boundary river of Asia. The 2,525-kilometre-long (1,569 mi) river rises in "
              "the western Himalayas of India.",
    "Godavari River": "The Godavari is a river of India. It flows east for 1,465 kilometres (910 mi) in length "
                      "through India.",
    "Patna": "Patna is the capital and largest city of Bihar in India. The city is approximately 35 kilometres "
             "(22 mi) in length along the river.",
    "Chilika Lake": "Chilika Lake is a brackish water lake of India, fed by a river. The lake is 64.3 kilometres "
                    "(40 mi) in length.",
}


def test_a_length_written_as_a_compound_adjective_is_read_and_places_of_other_kinds_are_not_compared() -> None:
    facts = extract_facts(passages(INDIA_LENGTHS))
    ganges = [f for f in facts if f.title == "Ganges"]
    assert [(f.raw, f.value, f.unit, f.measure, f.label) for f in ganges] == [
        ("2,525-kilometre", 2525.0, "km", "length", "Ganges")]  # the bracketed miles restate it
    spec = propose_chart(facts, "Ganges", list(facts))
    assert spec is not None and [p.label for p in spec.points] == ["Ganges", "Godavari River"], spec
    # a count or a time joined by a hyphen is still no quantity of the thing
    assert extract_facts([passage("X", "He had a 69-year career on a 16-member council.")]) == []
