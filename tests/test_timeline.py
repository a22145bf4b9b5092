"""A timeline of dated events: the chart of a section whose sources give dates but no comparable numbers.

Passages are made here: events are found, sorted and labelled verbatim; years
inside identifiers and quantities are not taken, BC years are negative,
French and Spanish sentences work; the plot brain falls back to a timeline,
the chart verifier rejects a forged year (607), coordination keeps one
timeline per report, and a plugin's chart kind still draws.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from reportgen.acp import MessageLog
from reportgen.agents.plot import PlotBrain
from reportgen.agents.ranking import terms
from reportgen.agents.runtime import RunContext
from reportgen.agents.verify import verify_outputs
from reportgen.blueprint.model import Task, TaskStatus
from reportgen.blueprint.planner import compile_blueprint
from reportgen.charts import ChartPoint, ChartSpec, caption, draw_svg, propose_timeline
from reportgen.charts.numbers import printed_years
from reportgen.charts.timeline import MAX_EVENTS, event_label
from reportgen.coordinate import coordinate
from reportgen.errors import AgentError
from reportgen.sources.models import Passage
from reportgen.sources.text import namesakes

from factories import passage, passages
from fakes import FakeSearch

PENICILLIN = {
    "Penicillin": "Penicillins are a group of antibiotics obtained from Penicillium moulds. "
                  "Penicillin was first used to treat a patient in 1941, when the supply was tiny. "
                  "By 1944 penicillin was being mass-produced in the United States.",
    "Alexander Fleming": "In 1928, Alexander Fleming discovered penicillin in a mould at St Mary's Hospital. "
                         "He shared the 1945 Nobel Prize with Howard Florey and Ernst Chain for penicillin.",
    "Antibiotic": "Antibiotics are medications that fight bacterial infections. "
                  "In 1961, resistance to penicillin was reported in hospitals.",
}


def ctx_for(docs: dict[str, str], tmp_path, lang: str = "en") -> RunContext:
    search = FakeSearch([{"title": t, "text": x} for t, x in docs.items()], name="wikipedia-en")
    return RunContext(topic="Antibiotic", lang=lang, search=search, log=MessageLog(tmp_path / "messages.jsonl"),
                      backoff_scale=0.0)


def run_plot(notes: list[Passage], subject: str, ctx: RunContext, keywords: list[str]):
    """One plot-agent step as the runtime runs it: request, call, check; the outputs and the raw result."""
    brain = PlotBrain()
    task = Task(id="chart-1", agent="plot", kind="chart", aim="chart", outputs=["chart"])
    params = brain.build_request(task, {"notes": [p.model_dump() for p in notes], "subject": subject,
                                        "keywords": keywords}, "default", ctx)
    raw = brain.call(params, ctx)
    return brain.check_response(task, params, raw, ctx), raw


# --------------------------------------------------------------------------- events


def test_events_are_found_sorted_and_quoted_verbatim() -> None:
    notes = passages(PENICILLIN)
    spec = propose_timeline(notes, "Penicillin", ["penicillin"], "en")
    assert spec is not None and spec.kind == "timeline" and spec.unit == "year"
    assert [p.year for p in spec.points] == [1928, 1941, 1944, 1945, 1961]
    assert [p.value for p in spec.points] == [1928, 1941, 1944, 1945, 1961]
    texts = {p.source_id: p.text for p in notes}
    for point in spec.points:
        assert point.raw in point.quote and point.quote in texts[point.source_id]
        assert point.url.endswith(point.title)
    assert spec.title == "Key dates: Penicillin"
    assert caption(spec) == "Key dates: Penicillin, 1928–1961"
    assert {p.title for p in spec.points} == set(PENICILLIN)  # every source gives an event


def test_labels_are_verbatim_pieces_saying_what_happened() -> None:
    spec = propose_timeline(passages(PENICILLIN), "Penicillin", ["penicillin"], "en")
    assert spec is not None
    labels = {p.year: p.label for p in spec.points}
    assert labels[1928] == "Alexander Fleming discovered penicillin in a mould at…"  # "In 1928," stripped
    assert labels[1941] == "Penicillin was first used to treat a patient…"
    assert labels[1945] == "Alexander Fleming: shared the 1945 Nobel Prize with Howard…"  # "He" → the title
    for point in spec.points:
        piece = point.label.removesuffix("…").split(": ", 1)[-1]
        assert piece in point.quote
        assert len(piece.split()) <= 8


@pytest.mark.parametrize(("sentence", "raw", "label"), [
    ("Tim Berners-Lee invented the World Wide Web in 1989.", "1989", "Tim Berners-Lee invented the World Wide Web"),
    ("In 1928, however, Fleming saw a mould kill bacteria.", "1928", "Fleming saw a mould kill bacteria"),
    ("It was founded in 1998.", "1998", "Google: was founded"),
    ("In 1998, it.", "1998", "Google …"),
    ("The city fell in 1453 (to the Ottomans) and was renamed.", "1453", "The city fell…"),
    ("Google has the world's most used search engine by far and since 2004 has been listed on the Nasdaq.",
     "2004", "Google: has been listed on the Nasdaq"),  # the year's own clause, its subject the title
])
def test_event_labels(sentence: str, raw: str, label: str) -> None:
    assert event_label(sentence, sentence.index(raw), raw, "Google") == label


def test_a_pronoun_only_clause_gives_the_title() -> None:
    docs = {"Google": "Google is a search company. It was founded in 1998. In 2004, it. "
                      "Google bought YouTube in 2006. Google became part of Alphabet in 2015."}
    spec = propose_timeline(passages(docs), "Google", ["google"], "en")
    assert spec is not None
    assert [p.label for p in spec.points] == ["Google: was founded", "Google bought YouTube",
                                              "Google became part of Alphabet"]  # "In 2004, it." says nothing


def test_fewer_than_three_years_is_no_timeline() -> None:
    docs = {"Penicillin": "In 1928, Alexander Fleming discovered penicillin. Penicillin was mass-produced by 1944. "
                          "In 1944 penicillin saved soldiers."}
    assert propose_timeline(passages(docs), "Penicillin", ["penicillin"], "en") is None
    assert propose_timeline([], "Penicillin", ["penicillin"], "en") is None


def test_only_sentences_about_the_subject_are_events() -> None:
    docs = {"Antibiotic": "In 1928, Fleming found penicillin. Streptomycin was found in 1943. "
                          "In 1955, tetracycline was patented. Penicillin was mass-produced in 1944."}
    spec = propose_timeline(passages(docs), "Penicillin", ["penicillin"], "en")
    assert spec is None  # two sentences name penicillin; the article's title does not


@pytest.mark.parametrize("text", [
    "The ISBN 1999 edition sold well.",
    "Windows 2000 was a release.",
    "Some 1,500 people died.",
    "1500 people were evacuated.",
    "COVID-19 spread widely.",
    "The 1960s and the mid-1990s were busy.",
    "The road is 2000 km long.",
    "Les années 1920 furent prospères.",
    "It was 1928.5 units.",
])
def test_years_inside_identifiers_and_quantities_are_not_taken(text: str) -> None:
    assert printed_years(text, "fr" if "années" in text else "en") == []


def test_ranges_give_both_years_and_the_event_the_start() -> None:
    assert [y for _, y, _ in printed_years("The war (1939–1945) ended.")] == [1939, 1945]
    docs = {"World War II": "World War II (1939–1945) was a global conflict. The war in Europe ended in 1945. "
                            "The United Nations was founded after the war in 1946. The Cold War began in 1947."}
    spec = propose_timeline(passages(docs), "World War II", ["war"], "en")
    assert spec is not None and [p.year for p in spec.points] == [1939, 1945, 1946, 1947]
    assert spec.points[0].raw == "1939"


def test_bc_dates_are_negative_and_sorted_first() -> None:
    text = "Rome was founded in 753 BC and Caesar died in 44 BCE."
    assert printed_years(text) == [("753 BC", -753, text.index("753")), ("44 BCE", -44, text.index("44"))]
    assert printed_years("Vesuvius erupted in AD 79.") == [("AD 79", 79, len("Vesuvius erupted in "))]
    docs = {"Rome": "Rome was founded in 753 BC on the Tiber. Julius Caesar of Rome was killed in 44 BC. "
                    "In 476, Rome fell. The Western Roman Empire based in Rome collapsed in 476 AD. "
                    "Rome became the capital of Italy in 1871."}
    spec = propose_timeline(passages(docs), "Rome", ["rome"], "en")
    assert spec is not None
    assert [(p.raw, p.value) for p in spec.points] == [("753 BC", -753), ("44 BC", -44), ("476 AD", 476),
                                                       ("1871", 1871)]
    assert caption(spec) == "Key dates: Rome, 753 BC–1871"


def test_french_and_spanish_sentences() -> None:
    fr = {"Pénicilline": "En 1928, Alexander Fleming découvre la pénicilline. La pénicilline est produite en masse "
                         "dès 1944. En 1945, le prix Nobel récompense la découverte de la pénicilline. "
                         "César meurt en 44 av. J.-C. sans pénicilline."}
    spec = propose_timeline(passages(fr), "Pénicilline", ["penicilline"], "fr")
    assert spec is not None and spec.title == "Dates clés : Pénicilline"
    assert [p.raw for p in spec.points] == ["44 av. J.-C.", "1928", "1944", "1945"]
    assert spec.points[1].label == "Alexander Fleming découvre la pénicilline"
    es = {"Penicilina": "En 1928, Alexander Fleming descubrió la penicilina. Desde 1944, la penicilina se produce "
                        "en masa. La penicilina recibió el Nobel en 1945. El 3 de mayo de 1961 la penicilina falló."}
    spec = propose_timeline(passages(es), "Penicilina", ["penicilina"], "es")
    assert spec is not None and spec.title == "Fechas clave: Penicilina"
    assert [p.year for p in spec.points] == [1928, 1944, 1945, 1961]
    assert spec.points[1].label == "la penicilina se produce en masa"


def test_at_most_eight_events_spread_over_the_range_one_per_year() -> None:
    text = " ".join(f"The bridge was repainted in {y}." for y in range(1900, 1930))
    text += " The bridge was repainted in 1900 again."
    spec = propose_timeline([passage("Bridge", text)], "Bridge", ["bridge"], "en")
    assert spec is not None and len(spec.points) == MAX_EVENTS
    years = [p.year for p in spec.points]
    assert years[0] == 1900 and years[-1] == 1929 and years == sorted(set(years))  # type: ignore[type-var]
    assert len({p.label.casefold() for p in spec.points}) == MAX_EVENTS  # same words: the year tells them apart


def test_the_spec_rejects_a_timeline_out_of_order() -> None:
    quote = "A happened in 1950 and B in 1940."
    points = [ChartPoint(label=label, value=y, raw=str(y), unit="year", year=y, source_id="s", url="u", title="t",
                         quote=quote) for label, y in (("A", 1950), ("B", 1940))]
    with pytest.raises(ValueError, match="timeline chart years must be distinct and ascending"):
        ChartSpec(kind="timeline", title="T", y_label="", unit="year", points=points)


# --------------------------------------------------------------------------- drawing


def test_a_timeline_draws_as_a_self_contained_svg() -> None:
    text = " ".join(f"In {y}, the bridge over the river was repainted by the city workers." for y in range(1900, 1908))
    spec = propose_timeline([passage("Bridge", text)], "Bridge", ["bridge"], "en")
    assert spec is not None
    svg = draw_svg(spec)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    texts = "".join(root.itertext())
    assert all(str(y) in texts for y in range(1900, 1908))
    assert svg == draw_svg(spec)  # deterministic


def test_a_plugin_registered_kind_still_draws_beside_the_timeline() -> None:
    from reportgen.agents.registry import load_registry
    from reportgen.config import get_settings

    kinds = dict(load_registry(get_settings()).chart_kinds)
    assert {"bar", "line", "timeline"} <= set(kinds)

    def draw_dots(ax, spec):  # noqa: ANN001, ANN202 - a plugin's drawer
        ax.scatter(range(len(spec.points)), [p.value for p in spec.points])

    kinds["dots"] = draw_dots
    quote = "A had 3 units and B had 5 units."
    points = [ChartPoint(label=label, value=v, raw=f"{v:g} units", unit="units", source_id="s", url="u", title="t",
                         quote=quote) for label, v in (("A", 3), ("B", 5))]
    assert "<svg" in draw_svg(ChartSpec(kind="dots", title="Dots", y_label="units", unit="units", points=points),
                              kinds)
    spec = propose_timeline(passages(PENICILLIN), "Penicillin", ["penicillin"], "en")
    assert spec is not None and "<svg" in draw_svg(spec, kinds)


# --------------------------------------------------------------------------- the plot brain and the verifier


def test_the_plot_brain_falls_back_to_a_timeline_and_the_verifier_accepts_it(tmp_path) -> None:
    notes = passages(PENICILLIN)
    ctx = ctx_for(PENICILLIN, tmp_path)
    outputs, raw = run_plot(notes, "Penicillin", ctx, ["penicillin"])
    verify_outputs(outputs, raw, ctx)
    chart = outputs["chart"]
    assert chart["spec"]["kind"] == "timeline" and chart["caption"] == "Key dates: Penicillin, 1928–1961"
    assert {s["title"] for s in chart["sources"]} == set(PENICILLIN)
    assert "<svg" in chart["svg"]


@pytest.mark.parametrize("forge", [
    {"value": 1929.0, "year": 1929},  # a year the sentence does not print
    {"raw": "1929", "value": 1929.0, "year": 1929},  # a raw text not in the sentence
    {"quote": "In 1929, Alexander Fleming discovered penicillin."},  # a sentence not in the source
    {"year": 1929},  # a year that is not the value
])
def test_the_verifier_rejects_a_forged_year(tmp_path, forge: dict) -> None:
    notes = passages(PENICILLIN)
    ctx = ctx_for(PENICILLIN, tmp_path)
    outputs, raw = run_plot(notes, "Penicillin", ctx, ["penicillin"])
    outputs["chart"]["spec"]["points"][0].update(forge)
    with pytest.raises(AgentError) as err:
        verify_outputs(outputs, raw, ctx)
    assert err.value.status_code == 607


def test_too_few_dates_and_no_numbers_is_still_605(tmp_path) -> None:
    docs = {"Penicillin": "In 1928, Alexander Fleming discovered penicillin. Penicillin is an antibiotic."}
    with pytest.raises(AgentError) as err:
        run_plot(passages(docs), "Penicillin", ctx_for(docs, tmp_path), ["penicillin"])
    assert err.value.status_code == 605 and "dated events" in err.value.args[0]


# --------------------------------------------------------------------------- coordination


def _src(title: str) -> dict:
    return {"source_id": f"id:{title}", "title": title, "url": f"https://x.org/wiki/{title}", "corpus": "c"}


def _chart(kind: str, n: int, tag: str) -> dict:
    points = [{"label": f"{tag} event {i}", "value": 1900 + i, "raw": str(1900 + i), "year": 1900 + i,
               "source_id": f"id:{tag}", "quote": f"In {1900 + i}, {tag} happened."} for i in range(n)]
    unit = "year" if kind == "timeline" else "MW"
    return {"spec": {"kind": kind, "unit": unit, "points": points}, "svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
            "caption": f"{tag} chart", "sources": [_src(tag)]}


def test_coordination_keeps_one_timeline_the_one_with_most_events(tmp_path) -> None:
    from reportgen.agents.model_common import quoted, section_output

    bp = compile_blueprint("r", "Antibiotic", ["A", "B", "C", "D"])
    for t in bp.tasks:
        t.status = TaskStatus.DONE
    charts = {"write-1": _chart("timeline", 3, "A"), "write-2": _chart("bar", 2, "B"),
              "write-3": _chart("timeline", 5, "C"), "write-4": _chart("timeline", 5, "D")}
    outputs = {
        task: {"section": section_output(f"s{i}", title, "body", [quoted(f"{title} is a subject.", _src(title))],
                                         charts[task])}
        for i, (task, title) in enumerate(zip(charts, "ABCD", strict=True), start=1)
    }
    report = coordinate(bp, outputs, lang="en", corpora=["c"])
    assert [(f.kind, f.caption) for f in report.figures] == [("bar", "B chart"), ("timeline", "C chart")]
    assert [f.number for f in report.figures] == [1, 2]
    assert [s.title for s in report.sections] == ["A", "B", "C", "D"]  # the dropped timelines' text stays
    assert [s.figure_ids for s in report.sections] == [[], ["fig-1"], ["fig-2"], []]


def test_the_start_of_a_range_ending_bc_is_bc() -> None:
    found = printed_years("Around 1800 - 1500 BCE the Indo-Aryan tribes arrived.")
    assert [(raw, y) for raw, y, _ in found] == [("1800 - 1500 BCE", -1800), ("1500 BCE", -1500)]
    # a day and a month before the second year (the Egypt report's timeline had put Ramesses III in AD 1185)
    found = printed_years("Some scholars date his reign from 26 March 1185 to 15 April 1154 BC.")
    assert [y for _, y, _ in found] == [-1185, -1154]
    assert [y for _, y, _ in printed_years("He was born on 26 March 1185 and died in 1200.")] == [1185, 1200]


def test_a_year_dating_a_figure_is_no_event() -> None:
    docs = {"Surabaya": "Surabaya was founded in 1293. With 3,018,022 people living in Surabaya as of 2024, it is "
                        "large. Surabaya had 2,874,314 inhabitants in 2020. The Battle of Surabaya was fought in 1945. "
                        "Surabaya had a population of 2,874,314 at the 2020 census. Surabaya had an estimated 2016 "
                        "GDP at Rp. Surabaya on May 25, 1961. Surabaya became a municipality in 1906."}
    spec = propose_timeline(passages(docs), "Surabaya", ["surabaya"], "en")
    assert spec is not None and [p.year for p in spec.points] == [1293, 1906, 1945]


QUAKES = {
    "2004 Indian Ocean earthquake and tsunami": "The 2004 Indian Ocean earthquake and tsunami struck on 26 December "
                                                 "2004 off Sumatra. The earthquake and tsunami killed many people.",
    "1755 Lisbon earthquake": "The 1755 Lisbon earthquake hit Lisbon on 1 November 1755. Lisbon was rebuilt.",
    "1556 Shaanxi earthquake": "One of the deadliest earthquakes in history occurred on 23 January 1556 in Shaanxi.",
    "1976 Tangshan earthquake": "The earthquake struck the city of Tangshan on 28 July 1976.",
    "Mercator projection": "The Mercator projection is a map projection presented in 1569.",
}


def test_related_articles_add_their_own_events_named_and_the_title_says_so() -> None:
    notes = passages(QUAKES)
    keywords = ["2004", "earthquak", "indian", "ocean", "tsunami"]
    related = {p.source_id for p in notes if "earthquake" in p.title}
    spec = propose_timeline(notes, "2004 Indian Ocean earthquake and tsunami", keywords, "en", related)
    assert spec is not None
    assert spec.title == "Key dates: 2004 Indian Ocean earthquake and tsunami and related subjects"
    assert [p.year for p in spec.points] == [1556, 1755, 1976, 2004]  # not the unrelated Mercator projection
    labels = {p.year: p.label for p in spec.points}
    assert labels[1556] == "1556 Shaanxi earthquake: One of the deadliest earthquakes in history occurred…"
    assert labels[1755] == "The 1755 Lisbon earthquake hit Lisbon…"  # names its article already
    assert propose_timeline(notes, "2004 Indian Ocean earthquake and tsunami", keywords, "en") is None  # own only
    without_own = [p for p in notes if "2004" not in p.title]
    assert propose_timeline(without_own, "2004 Indian Ocean earthquake and tsunami", keywords, "en", related) is None


@pytest.mark.parametrize(("text", "raw", "year"), [
    ("In 1200 B.C. the Hittite empire collapsed.", "1200 B.C.", -1200),
    ("It was built around 2560 B.C.E. by workers.", "2560 B.C.E.", -2560),
    ("In 1200 bc the city fell.", "1200 bc", -1200),
    ("In 1066 A.D. the Normans came.", "1066 A.D.", 1066),
    ("In 1450 advertising began.", "1450", 1450),  # "ad" starting a word is no era
    ("En 1789 ce fut la révolution.", "1789", 1789),  # nor the French "ce"
])
def test_dotted_and_lowercase_eras(text: str, raw: str, year: int) -> None:
    assert [(r, y) for r, y, _ in printed_years(text)][:1] == [(raw, year)]


def test_a_chain_of_years_ending_bc_starts_bc() -> None:
    text = "The Middle Kingdom lasted from approximately 2040 to 1782 or 1700 BC, after the reunification."
    assert [(r, y) for r, y, _ in printed_years(text)][0] == ("2040 to 1782 or 1700 BC", -2040)
    assert [y for _, y, _ in printed_years("It ruled from 1550 to 1070 B.C. over Egypt.")][0] == -1550


def test_a_caption_spans_single_years_even_when_a_source_gives_a_range() -> None:
    def point(raw: str, year: int, label: str) -> ChartPoint:
        return ChartPoint(label=label, value=year, raw=raw, unit="year", year=year, source_id="s", url="u",
                          title="Rome", quote=f"In {raw} it happened.")

    spec = ChartSpec(kind="timeline", title="Key dates: Rome", y_label="Year", unit="year",
                     points=[point("753–509 BC", -753, "a"), point("44 BC", -44, "b"), point("1590", 1590, "c")])
    assert caption(spec) == "Key dates: Rome, 753 BC–1590"


def test_articles_named_with_the_subjects_word_give_no_events_of_the_subject() -> None:
    """ "Rhapsody in Blue is a 1924 musical composition" is no date of the colour blue: the article is named
    with the word but headed by another noun (``ranking.head_noun``). A sentence that names blue outside the
    name still counts, and so does an instance of the subject ("1906 San Francisco earthquake")."""
    works = {"Rhapsody in Blue": "Rhapsody in Blue is a 1924 musical composition by George Gershwin.",
             "Kind of Blue": "Kind of Blue is a studio album by Miles Davis, released in 1959.",
             "The Blue Marble": "The Blue Marble is a photograph of Earth taken in 1972 by the crew of Apollo 17.",
             "Blue": "Blue is one of the three primary colours. Blue pigments were made from lapis lazuli in 1200."}
    assert propose_timeline(passages(works), "Blue", ["blue"], "en") is None
    named = {**works, "Kind of Blue": "In 1959 the album's cover was printed in blue ink, a rare blue for jazz.",
             "Ultramarine": "Ultramarine is a deep blue pigment, made synthetically from 1826."}
    spec = propose_timeline(passages(named), "Blue", ["blue"], "en")
    assert spec is not None and [p.year for p in spec.points] == [1200, 1826, 1959]  # blue outside the name
    quakes = {"Earthquake": "An earthquake is the shaking of the Earth. The first seismometer was built in AD 132.",
              "1906 San Francisco earthquake": "The 1906 San Francisco earthquake struck the coast of California.",
              "1755 Lisbon earthquake": "The 1755 Lisbon earthquake destroyed most of Lisbon."}
    spec = propose_timeline(passages(quakes), "Earthquake", ["earthquake"], "en")
    assert spec is not None and [p.year for p in spec.points] == [132, 1755, 1906]


def test_a_common_noun_written_with_a_capital_inside_a_sentence_is_part_of_a_name() -> None:
    """ "Key dates: Lion" had been Richard I (the Lionheart, "Richard Cœur de Lion"), Woody Allen's and Ang Lee's
    Golden Lions: the Lion article writes "the lion", so a capital inside a sentence makes a name. A subject its
    article writes with a capital ("the Internet") keeps its events."""
    lion = {"Lion": "The lion is a large cat of the genus Panthera. Adult male lions have a mane.",
            "Richard I of England": "Richard I, known as Richard Cœur de Lion, was King of England from 1189.",
            "Woody Allen": "Woody Allen also received an Honorary Golden Lion in 1995 at the festival.",
            "Ang Lee": "Ang Lee won the Golden Lion twice, first in 2005 for his film."}
    assert propose_timeline(passages(lion), "Lion", ["lion"], "en") is None
    dated = {**lion, "Lion": lion["Lion"] + " Lions were kept in the Tower of London from 1204. "
             "The lion was listed as vulnerable in 1996. In 2015 the lion was split into two subspecies."}
    spec = propose_timeline(passages(dated), "Lion", ["lion"], "en")
    assert spec is not None and [p.year for p in spec.points] == [1204, 1996, 2015]
    internet = {"Internet": "The Internet (or internet) is the global system of computer networks. "
                            "The Internet grew out of ARPANET, first connected in 1969. "
                            "In 1983 the Internet adopted TCP/IP. Commercial use of the Internet began in 1995."}
    spec = propose_timeline(passages(internet), "Internet", ["internet"], "en")
    assert spec is not None and [p.year for p in spec.points] == [1969, 1983, 1995]


def test_a_sense_of_a_word_takes_only_that_senses_events_from_other_articles() -> None:
    """"Dates clés : Memphis (Égypte)" had been Martin Luther King, Elvis Presley and Aretha Franklin, of
    Memphis, Tennessee: another article gives events only when it writes a word of the sense."""
    memphis = {
        "Memphis (Egypt)": "Memphis was the capital of ancient Egypt. It was founded around 3100 BC. "
                           "Memphis declined after 641, when Egypt was conquered.",
        "Elvis Presley": "In 1953 Elvis Presley recorded his first songs in Memphis. He died in Memphis in 1977.",
        "Ptah": "Ptah was the god of Memphis in Egypt. His temple in Memphis was rebuilt in 1350 BC.",
        "Ramesses II": "Ramesses II ruled Egypt. In 1270 BC he raised a colossal statue of himself at Memphis.",
    }
    keywords = sorted(terms("Memphis", "en"))
    spec = propose_timeline(passages(memphis), "Memphis (Egypt)", keywords, "en")
    assert spec is not None
    assert "Elvis Presley" not in {p.title for p in spec.points}
    assert {"Memphis (Egypt)", "Ptah"} <= {p.title for p in spec.points}
    plain = propose_timeline(passages(memphis), "Memphis", keywords, "en")  # no sense asked for
    assert plain is not None and "Elvis Presley" in {p.title for p in plain.points}


def test_a_place_where_people_were_born_or_died_gives_no_events_of_its_own() -> None:
    """"Dates clés : Paris, 1553–1940" had been made of Henri IV's, Louis XVI's and Ionesco's lives, each "mort …
    à Paris" (a reader's find, in a report on the Eiffel Tower): a place named only where someone was born or
    died is no event of that place; the place's own events stay."""
    from reportgen.agents.plot import related_sources
    from reportgen.agents.ranking import without_life_places

    lives = {"Henri IV": "Henri IV, né le 13 décembre 1553 à Pau et mort le 14 mai 1610 à Paris, est roi de France.",
             "Louis XVI": "Louis XVI, né le 23 août 1754 à Versailles et mort le 21 janvier 1793 à Paris, est roi.",
             "Eugène Ionesco": "Eugène Ionesco, né en 1909 à Slatina et mort le 28 mars 1994 à Paris, est un écrivain."}
    keywords = sorted(terms("Paris", "fr"))
    assert propose_timeline(passages(lives), "Paris", keywords, "fr") is None
    assert related_sources(passages(lives), "Paris", keywords, "fr") == set()
    own = {"Paris": "En 1789, la Bastille est prise à Paris. En 1889, Paris accueille l'Exposition universelle. "
                    "En 1900, Paris accueille les Jeux olympiques."}
    spec = propose_timeline(passages({**lives, **own}), "Paris", keywords, "fr")
    assert spec is not None and [p.value for p in spec.points] == [1789, 1889, 1900]
    assert without_life_places("Ivan Bunin, born in 1870 in Voronezh and died in Paris, was a writer.", "en") \
        .count("Paris") == 0
    assert "Madrid" in without_life_places("Cervantes vivió en Madrid, donde murió en 1616.", "es").split("donde")[0]
    # an event's toll is no place of a life: "died in the 2004 Indian Ocean earthquake" stays on the earthquake
    toll = "About 230,000 people died in the 2004 Indian Ocean earthquake and tsunami."
    assert without_life_places(toll, "en") == toll


#: A section on a place in a report on a trade route: the place's own article, a text on the route naming the place,
#: and texts on the place alone (a reader found "Key dates: India and related subjects" made of the Asian Games in a
#: report on the Silk Road).
SILK_ROAD_INDIA = {
    "India": "India is a country in South Asia. In 1947, India became independent. "
             "In 1950, India adopted its constitution. In 1991, India opened its economy.",
    "Marco Polo": "Marco Polo travelled through Asia along the Silk Road between 1271 and 1295. "
                  "In 1298, Marco Polo dictated his travels, which describe India.",
    "Asian Games": "The Asian Games were first held in New Delhi, India, in 1951. "
                   "In 1982, India hosted the Asian Games again.",
    "Indian cricket": "In 1932, India played its first Test match. In 1983, India won the Cricket World Cup.",
}


def test_a_section_on_another_theme_charts_its_own_article_and_texts_naming_the_report_subject(tmp_path) -> None:
    ctx = ctx_for(SILK_ROAD_INDIA, tmp_path)
    brain = PlotBrain()
    task = Task(id="chart-1", agent="plot", kind="chart", aim="chart", outputs=["chart"])
    inputs = {"notes": [p.model_dump() for p in passages(SILK_ROAD_INDIA)], "subject": "India", "keywords": ["india"]}
    # without the report's subject every text on India is charted: the Asian Games and cricket among them
    alone = brain.call(brain.build_request(task, inputs, "default", ctx), ctx)["spec"]
    assert {p.title for p in alone.points} >= {"Asian Games", "Indian cricket"}
    spec = brain.call(brain.build_request(task, {**inputs, "report_subject": "Silk Road"}, "default", ctx), ctx)["spec"]
    assert spec is not None and {p.title for p in spec.points} <= {"India", "Marco Polo"}
    assert "Marco Polo" in {p.title for p in spec.points}
    # a section on the subject itself, or a report on the theme, charts as before
    for subject in ("India", "India and the Silk Road"):
        same = brain.call(brain.build_request(task, {**inputs, "report_subject": subject}, "default", ctx), ctx)["spec"]
        assert [p.quote for p in same.points] == [p.quote for p in alone.points]


def test_the_blueprint_gives_each_chart_the_report_subject() -> None:
    blueprint = compile_blueprint("r1", "Write a short report on the Silk Road", ["India", "Khazars"],
                                  subject="Silk Road")
    charts = [t for t in blueprint.tasks if t.kind == "chart"]
    assert charts and all(t.inputs["report_subject"].value == "Silk Road" for t in charts)


#: A person's own dates and related articles' (a reader found the Sorbonne's founding in 1257 and curium's discovery
#: in 1944 on "Key dates: Pierre Curie and related subjects").
CURIE = {
    "Pierre Curie": "Pierre Curie was born in Paris in 1859. In 1880, Pierre Curie and his brother discovered "
                    "piezoelectricity. In 1903, Pierre Curie shared the Nobel Prize in Physics. "
                    "Pierre Curie died in a street accident in 1906.",
    "Henri Becquerel": "In 1896, Henri Becquerel discovered radioactivity while working on phosphorescent materials.",
    "University of Paris": "The University of Paris was founded around 1150, and its college was established in 1257 "
                           "by Robert de Sorbon.",
    "Curium": "Curium was first intentionally made by the team of Glenn Seaborg in 1944, and named after the Curies.",
}


def test_a_related_articles_date_far_from_the_subjects_own_is_left_out() -> None:
    notes = passages(CURIE)
    related = {p.source_id for p in notes}
    spec = propose_timeline(notes, "Pierre Curie", sorted(terms("Pierre Curie", "en")), "en", related)
    assert spec is not None
    years = [p.year for p in spec.points]
    assert 1896 in years and 1859 in years  # a related article's event in his time joins
    assert 1150 not in years and 1944 not in years  # their own history does not


#: A section on volcanoes in a report on Japan's mountains: two Japanese mountains' heights and two others'.
HEIGHTS = {
    "Mount Fuji": "Mount Fuji is an active volcano, the tallest mountain in Japan, with a summit elevation of "
                  "3,776 m. It last erupted in 1707.",
    "Mount Ontake": "Mount Ontake is an active volcano, the second-highest volcanic mountain in Japan, with a summit "
                    "elevation of 3,067 m. It erupted in 2014.",
    "Mount Elbrus": "Mount Elbrus is a dormant volcano, the highest mountain in Europe, with a summit elevation of "
                    "5,642 m. It was first climbed in 1874.",
    "Mount Kilimanjaro": "Mount Kilimanjaro is a dormant volcano, the highest mountain in Africa, with a summit "
                         "elevation of 5,895 m. It was first climbed in 1889.",
}


def test_a_bar_chart_in_a_section_on_another_theme_compares_texts_on_the_report_subject(tmp_path) -> None:
    """In a section on another theme a bar chart compares the numbers of the texts on the report's subject: Mount
    Fuji's height beside Mount Ontake's in a report on Japan's mountains, not beside Elbrus's and Kilimanjaro's (a
    reader found the Dnieper beside the Krishna and the Godavari in "Rivers of India", and the Bahamas beside the
    Faroe Islands in a report on Iceland); the same heights are no chart of a report on Mercury, whose texts they
    never name ("Geothermal power: number of countries" had stood in a report on solar power)."""
    ctx = ctx_for(HEIGHTS, tmp_path)
    brain = PlotBrain()
    task = Task(id="chart-1", agent="plot", kind="chart", aim="chart", outputs=["chart"])
    inputs = {"notes": [p.model_dump() for p in passages(HEIGHTS)], "subject": "Volcano",
              "keywords": ["volcano"]}
    alone = brain.call(brain.build_request(task, inputs, "default", ctx), ctx)["spec"]
    assert alone is not None and alone.kind != "timeline" and {p.title for p in alone.points} >= {
        "Mount Elbrus", "Mount Kilimanjaro"}
    japan = brain.call(brain.build_request(task, {**inputs, "report_subject": "Mountains of Japan"}, "default", ctx),
                       ctx)["spec"]
    assert japan is not None and [(p.title, p.value) for p in japan.points] == [
        ("Mount Fuji", 3776), ("Mount Ontake", 3067)]
    assert brain.call(brain.build_request(task, {**inputs, "report_subject": "Mercury"}, "default", ctx),
                      ctx)["spec"] is None


#: A section on reef fish in a report on coral reefs: the reef fish's own text, which prints no number, and an
#: article on a fish related to it by its words that names no reef (a reader found "Swordfish: length (m)" there).
REEF_FISH = {
    "Coral reef fish": "Coral reef fish are fish which live amongst or in close relation to coral reefs. Among the "
                       "myriad inhabitants, the fish stand out as colourful. Hundreds of species of fish can exist in "
                       "a small area. Many are predatory and migratory, found widely in tropical oceans.",
    "Swordfish": "The swordfish are large, highly migratory predatory fish. These fish are found widely in tropical "
                 "oceans. They commonly reach 3 m in length, and the maximum reported is 4.55 m in length.",
    "Tea": "Tea is an aromatic beverage. It is prepared with hot water.",
}


def test_a_chart_shows_a_number_of_a_text_naming_its_section(tmp_path) -> None:
    """Numbers of an article only related to the section's subject join a chart of its numbers; they never make
    one alone, whatever the report's subject."""
    ctx = ctx_for(REEF_FISH, tmp_path)
    brain = PlotBrain()
    task = Task(id="chart-1", agent="plot", kind="chart", aim="chart", outputs=["chart"])
    inputs = {"notes": [p.model_dump() for p in passages(REEF_FISH)], "subject": "Coral reef fish",
              "keywords": ["coral", "fish", "reef"], "report_subject": "coral reefs"}
    assert brain.call(brain.build_request(task, inputs, "default", ctx), ctx)["spec"] is None
    # the same lengths in the swordfish's own section are its chart
    own = {**inputs, "subject": "Swordfish", "keywords": ["swordfish"], "report_subject": "Swordfish"}
    spec = brain.call(brain.build_request(task, own, "default", ctx), ctx)["spec"]
    assert spec is not None and {p.value for p in spec.points} == {3, 4.55}


#: A section on the First World War's Western Front; the Second World War's namesake article names the section's
#: words too (a reader found the fall of France in 1940 on the timeline of "Western Front (World War I)").
WESTERN_FRONTS = {
    "Western Front (World War I)": "The Western Front was one of the main theatres of war during World War I. In "
                                   "1914 the German Army opened the Western Front by invading Belgium. The front "
                                   "changed little until 1917. The Western Front collapsed in 1918.",
    "Western Front (World War II)": "The Western Front was a military theatre of World War II. France fell on the "
                                    "Western Front in 1940. The Western Front was reopened by the Allies in 1944. "
                                    "The Western Front ended in 1945.",
}


def test_a_namesakes_article_gives_no_events_of_a_section() -> None:
    assert namesakes("Western Front (World War II)", "Western Front (World War I)")
    assert namesakes("Mercury (element)", "mercury (planet)")
    assert not namesakes("Western Front (World War I)", "Western Front (World War I)")
    assert not namesakes("Western Front (World War II)", "Western Front")  # the bare name may be either
    assert not namesakes("Eastern Front (World War II)", "Western Front (World War I)")


def test_a_chart_draws_on_no_namesake_of_its_section(tmp_path) -> None:
    ctx = ctx_for(WESTERN_FRONTS, tmp_path)
    brain = PlotBrain()
    task = Task(id="chart-1", agent="plot", kind="chart", aim="chart", outputs=["chart"])
    inputs = {"notes": [p.model_dump() for p in passages(WESTERN_FRONTS)], "subject": "Western Front (World War I)",
              "keywords": ["front", "western"], "report_subject": "World War I"}
    spec = brain.call(brain.build_request(task, inputs, "default", ctx), ctx)["spec"]
    assert spec is not None and [p.year for p in spec.points] == [1914, 1917, 1918]
    assert {p.title for p in spec.points} == {"Western Front (World War I)"}


SATURNS = {
    "Saturn V": "The Saturn V is a retired American super heavy-lift launch vehicle. The Saturn V was designed from "
                "1961. The Saturn V first flew in 1967. The Saturn V last flew in 1973.",
    "Titan (moon)": "Titan is the largest moon of Saturn. Titan was discovered in 1655. The Huygens probe landed on "
                    "Saturn's moon Titan in 2005.",
}


def test_a_chart_on_a_name_with_a_one_letter_designator_draws_on_texts_writing_the_whole_name(tmp_path) -> None:
    ctx = ctx_for(SATURNS, tmp_path)
    brain = PlotBrain()
    task = Task(id="chart-1", agent="plot", kind="chart", aim="chart", outputs=["chart"])
    inputs = {"notes": [p.model_dump() for p in passages(SATURNS)], "subject": "Saturn V", "keywords": ["saturn"],
              "report_subject": "Saturn V"}
    spec = brain.call(brain.build_request(task, inputs, "default", ctx), ctx)["spec"]
    assert spec is not None and [p.year for p in spec.points] == [1961, 1967, 1973]


def test_another_articles_sentence_names_a_persons_subject_only_by_the_whole_name() -> None:
    """ "Key dates: Pierre Curie and related subjects" had been a university merger of 2018 (the "Université Pierre et
    Marie Curie" holds both his names, apart) and curium's synthesis of 1944, which the merger's year let join."""
    notes = passages({
        "Henri Becquerel": "Henri Becquerel shared the 1903 Nobel Prize in Physics with Marie and Pierre Curie.",
        "Sorbonne University": "Its current iteration was formed in 2018 by the merger of Paris-Sorbonne University "
                               "and the Université Pierre et Marie Curie.",
        "Curium": "Curium was first intentionally made by the team of Glenn Seaborg in 1944, and named after the "
                  "Curies.",
        "Radium": "Radium was discovered by Marie and Pierre Curie in 1898.",
    })
    related = {p.source_id for p in notes}
    assert propose_timeline(notes, "Pierre Curie", sorted(terms("Pierre Curie", "en")), "en", related) is None
    # a subject in small letters, or of one word, is named by its words as before
    spec = propose_timeline(passages(PENICILLIN), "penicillin", ["penicillin"], "en")
    assert spec is not None
