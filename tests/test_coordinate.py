"""The final coordination layer."""

import pytest

from reportgen.agents.model_common import quoted, section_output
from reportgen.blueprint.model import TaskStatus
from reportgen.blueprint.planner import compile_blueprint
from reportgen.blueprint.request import read_request
from reportgen.coordinate import coordinate
from reportgen.errors import RunError
from reportgen.report import Limitation
from reportgen.sources.fetch import normalize_url


def _src(title, url=None):
    return {"source_id": f"id:{title}", "title": title, "url": url or f"https://x.org/wiki/{title}", "corpus": "c"}


def _section(sid, title, sentences, role="body", alternates=(), chart=None):
    return {"section": section_output(sid, title, role, [quoted(t, s) for t, s in sentences], chart,
                                      alternates=[quoted(t, s) for t, s in alternates])}


CHART = {
    "spec": {"kind": "bar", "unit": "countries", "points": [
        {"label": "Electricity", "value": 26, "raw": "26 countries", "source_id": "id:G", "quote": "q"},
        {"label": "Heating", "value": 70, "raw": "70 countries", "source_id": "id:G", "quote": "q"},
    ]},
    "svg": "<svg xmlns='http://www.w3.org/2000/svg'/>", "caption": "Countries", "sources": [_src("G")],
}


def _done(bp, *ids):
    for t in bp.tasks:
        t.status = TaskStatus.DONE if t.id in ids or not ids else t.status


def test_citations_are_numbered_by_first_use_and_all_resolve():
    bp = compile_blueprint("r", "Energy", ["A", "B"])
    _done(bp)
    outputs = {
        "introduction": _section("introduction", "Introduction", [("Energy is the capacity to do work.", _src("E"))],
                                 "introduction"),
        "write-1": _section("s1", "A", [("A is one kind of energy.", _src("A")),
                                        ("Energy is the capacity to do work.", _src("E"))],
                            alternates=[("A is used widely.", _src("A2"))]),
        "write-2": _section("s2", "B", [("B is another kind.", _src("B", "https://X.org/wiki/B/#frag"))], chart=CHART),
        "conclusion": _section("conclusion", "Conclusion", [("This report covered A, B.", None),
                                                            ("B is also cheap.", _src("B", "https://x.org/wiki/B"))],
                               "conclusion"),
    }
    report = coordinate(bp, outputs, lang="en", corpora=["test corpus"])
    assert [s.role for s in report.sections] == ["introduction", "body", "body", "conclusion"]
    cited = [n for s in report.sections for p in s.paragraphs for n in p.citations]
    cited += [n for f in report.figures for n in f.citations]
    ref_ids = [r.id for r in report.references]
    assert ref_ids == list(range(1, len(ref_ids) + 1))
    assert set(cited) == set(ref_ids)  # every citation resolves and every reference is cited
    first_use = list(dict.fromkeys(cited))
    assert first_use == sorted(first_use)
    # the repeated sentence was replaced by the section's spare
    texts = [s.text for sec in report.sections for p in sec.paragraphs for s in p.sentences]
    assert texts.count("Energy is the capacity to do work.") == 1
    assert "A is used widely." in texts
    # references deduplicated by normalised URL
    assert sum(1 for r in report.references if r.title == "B") == 1
    assert report.figures[0].number == 1 and report.sections[2].figure_ids == ["fig-1"]
    assert "extractive" in report.mode_note and "test corpus" in report.mode_note


def _areas(*countries):
    points = [{"label": c, "value": v, "raw": f"{v} km2", "source_id": f"id:{c}", "quote": f"{c} covers {v} km2."}
              for c, v in countries]
    return {"spec": {"kind": "bar", "unit": "km²", "points": points}, "svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
            "caption": "Area: " + ", ".join(c for c, _ in countries), "sources": [_src(c) for c, _ in countries]}


def test_a_chart_of_numbers_earlier_figures_show_is_left_out():
    """A Sahara report drew the areas of Tunisia and Algeria in three figures: Figure 2 was four of Figure 1's
    points again. A chart all of whose numbers are shown already is left out; one with a new number stays."""
    bp = compile_blueprint("r", "Sahara", ["A", "B", "C"])
    _done(bp)
    outputs = {
        "write-1": _section("s1", "A", [("A is a desert.", _src("A"))],
                            chart=_areas(("Sahara", 9200000), ("Algeria", 2381741), ("Tunisia", 163610))),
        "write-2": _section("s2", "B", [("B is a country.", _src("B"))],
                            chart=_areas(("Tunisia", 163610), ("Algeria", 2381741))),
        "write-3": _section("s3", "C", [("C is a country.", _src("C"))],
                            chart=_areas(("Niger", 1270000), ("Algeria", 2381741))),
    }
    report = coordinate(bp, outputs, lang="en", corpora=["c"])
    assert [f.caption for f in report.figures] == ["Area: Sahara, Algeria, Tunisia", "Area: Niger, Algeria"]
    assert [f.number for f in report.figures] == [1, 2]
    assert [s.figure_ids for s in report.sections] == [["fig-1"], [], ["fig-2"]]  # section B keeps its text
    assert [s.title for s in report.sections] == ["A", "B", "C"]


def test_failed_and_degraded_tasks_are_listed_as_limitations():
    bp = compile_blueprint("r", "Energy", ["A"])
    _done(bp)
    bp.task("chart-1").status = TaskStatus.FAILED
    bp.task("chart-1").status_codes = [605, 605]
    bp.task("chart-1").reason = "too little comparable data"
    bp.task("write-1").degraded = True
    outputs = {"write-1": _section("s1", "A", [("A is one kind of energy.", _src("A"))])}
    report = coordinate(bp, outputs, lang="en", corpora=["c"])
    by_task = {lim.task_id: lim for lim in report.limitations}
    assert by_task["chart-1"].status_code == 605 and "comparable" in by_task["chart-1"].reason
    assert by_task["chart-1"].minor and "the section on A" in by_task["chart-1"].reason  # whole without it
    assert "write-1" not in by_task
    bp.task("chart-1").status_codes = [604]  # a tool that timed out: the dependents done without it are named
    report = coordinate(bp, outputs, lang="en", corpora=["c"])
    (lim,) = report.limitations
    assert not lim.minor and "Done without it: write the section on A" in lim.reason


def test_a_section_its_sources_hold_no_sentence_for_is_said_in_the_reports_language():
    """A Spanish report had listed "Redactar la sección sobre Ramsés II: the notes hold no usable sentence for
    'Ramsés II' (gave up after the 'broaden' strategy too). Done without it: …": the agent's words are logged,
    the report says it in its language."""
    bp = compile_blueprint("r", "Pirámides de Egipto", ["Zoser", "Ramsés II"], "es")
    _done(bp)
    bp.task("write-2").status = TaskStatus.FAILED
    bp.task("write-2").status_codes = [605, 605]
    bp.task("write-2").reason = "the notes hold no usable sentence for 'Ramsés II'"
    bp.task("conclusion").degraded = True
    outputs = {"write-1": _section("s1", "Zoser", [("Zoser fue un faraón.", _src("Zoser"))])}
    report = coordinate(bp, outputs, lang="es", corpora=["c"])
    (lim,) = [lim for lim in report.limitations if lim.task_id == "write-2"]
    assert lim.reason.startswith("La sección sobre Ramsés II se omitió: sus fuentes no contienen"), lim.reason
    assert "Hecho sin ella: " in lim.reason
    assert "notes" not in lim.reason and "Done without" not in lim.reason
    # the chart of that section, which found no data either, is said so too (it had been the agent's English words)
    bp.task("chart-2").status = TaskStatus.FAILED
    bp.task("chart-2").status_codes = [605, 605]
    bp.task("chart-2").reason = ("the sources hold too little comparable data for a chart on 'Ramsés II' (gave up "
                                 "after the 'broaden' strategy too)")
    report = coordinate(bp, outputs, lang="es", corpora=["c"])
    (chart,) = [lim for lim in report.limitations if lim.task_id == "chart-2"]
    assert chart.reason.startswith("Sin gráfico para la sección Ramsés II: sus fuentes"), chart.reason


def test_a_sentence_pointing_back_to_a_repeat_goes_with_it():
    """*Xiangqi*'s first sentence went to the section on chess: its section was left with "It is the most
    popular board game in China", which points back to nothing."""
    bp = compile_blueprint("r", "Chess", ["A", "B"])
    _done(bp)
    first = ("Xiangqi is a strategy board game for two players.", _src("Xiangqi"))
    outputs = {
        "write-1": _section("s1", "A", [("Chess is a board game.", _src("Chess")), first]),
        "write-2": _section("s2", "Xiangqi", [first, ("It is the most popular board game in China.", _src("Xiangqi")),
                                        ("Xiangqi pieces are discs.", _src("Xiangqi")),
                                        ("They are marked with characters.", _src("Xiangqi"))],
                            alternates=[("Go is played on a grid.", _src("Go"))]),
    }
    report = coordinate(bp, outputs, lang="en", corpora=["c"])
    texts = [s.text for p in report.sections[1].paragraphs for s in p.sentences]
    # the repeat's place goes to a spare; what pointed back to it goes; a sentence that points back to a kept
    # sentence stays
    assert texts == ["Go is played on a grid.", "Xiangqi pieces are discs.", "They are marked with characters."]


def test_a_section_left_with_nothing_on_its_heading_is_left_out():
    """*Extratropical cyclone*'s own sentence went to an earlier section; its companion's sentences on
    tropical rainforests do not make a section on it. Its sentences are free for a later section."""
    bp = compile_blueprint("r", "Hurricanes", ["A", "B", "C"])
    _done(bp)
    own = ("Extratropical cyclones are low-pressure areas of the mid-latitudes.", _src("Extratropical cyclone"))
    rain = ("Tropical rainforests are dense and warm.", _src("Tropical rainforest"))
    outputs = {
        "write-1": _section("s1", "Low-pressure area", [("A low is a region of low pressure.",
                                                         _src("Low-pressure area")), own]),
        "write-2": _section("s2", "Extratropical cyclone", [own, rain]),
        "write-3": _section("s3", "Rainforest", [rain, ("Rainforests hold half the species.", _src("Rainforest"))]),
    }
    report = coordinate(bp, outputs, lang="en", corpora=["c"])
    assert [s.title for s in report.sections] == ["Low-pressure area", "Rainforest"]
    assert any(lim.task_id == "write-2" and lim.reason.startswith(
        "The section on Extratropical cyclone was left out: its own article's sentences are already quoted")
        for lim in report.limitations)
    kept = [s.text for p in report.sections[1].paragraphs for s in p.sentences]
    assert rain[0] in kept  # not taken by the section left out
    # a section whose sentences write its name stands, whatever their sources
    outputs["write-2"] = _section("s2", "Extratropical cyclone", [
        ("Extratropical cyclones bring rain to Europe.", _src("Europe"))])
    assert "Extratropical cyclone" in [s.title for s in coordinate(bp, outputs, lang="en", corpora=["c"]).sections]
    # the only body section stands, on its heading or not: a report is never lost to this rule
    alone = compile_blueprint("r", "Hurricanes", ["A"])
    _done(alone)
    report = coordinate(alone, {"write-1": _section("s1", "Extratropical cyclone", [rain])}, lang="en",
                        corpora=["c"])
    assert [s.title for s in report.sections] == ["Extratropical cyclone"]


def test_nothing_written_is_a_run_error():
    bp = compile_blueprint("r", "Energy", ["A"])
    with pytest.raises(RunError, match="no section"):
        coordinate(bp, {}, lang="en", corpora=["c"])


@pytest.mark.parametrize("a, b", [
    ("https://en.wikipedia.org/wiki/Wind_power", "HTTPS://EN.wikipedia.org/wiki/Wind_power/"),
    ("https://en.wikipedia.org/wiki/%C3%89nergie", "https://en.wikipedia.org/wiki/Énergie#History"),
    ("http://x.org:80/a", "http://x.org/a"),
])
def test_normalise_url(a, b):
    assert normalize_url(a) == normalize_url(b)


def test_a_section_left_with_no_sentence_of_its_own_is_named_in_the_limitations():
    bp = compile_blueprint("r", "Energy", ["A", "B"])
    _done(bp)
    outputs = {
        "write-1": _section("s1", "A", [("A is one kind of energy.", _src("A"))]),
        "write-2": _section("s2", "B", [("A is one kind of energy.", _src("A"))]),  # all of it already quoted
    }
    report = coordinate(bp, outputs, lang="en", corpora=["c"])
    assert [s.title for s in report.sections] == ["A"]
    assert any(lim.task_id == "write-2" and "The section on B was left out" in lim.reason
               for lim in report.limitations)


def test_a_chart_without_data_is_listed_but_not_counted_at_the_top():
    """Six sections without a chart are no "6 parts of the plan could not be completed"."""
    from reportgen.render.markdown import render_markdown

    from factories import sample_report

    minor = Limitation(task_id="chart-2", status_code=605, reason="Chart numbers: no comparable data", minor=True)
    report = sample_report(limitations=[minor])
    assert report.counted_limitations == []
    text = render_markdown(report).text
    assert "no comparable data" in text  # listed at the end
    assert "could not be completed" not in text  # not counted at the top
    both = sample_report(limitations=[minor, Limitation(task_id="research-1", status_code=604, reason="timed out")])
    assert "**Limitations:** 1 part of the plan could not be completed" in render_markdown(both).text


def test_a_chart_task_without_data_is_a_minor_limitation():
    blueprint = compile_blueprint("r", "Tea", ["Camellia"], subject="Tea")
    chart = next(t for t in blueprint.tasks if t.kind == "chart")
    chart.status, chart.status_codes, chart.reason = TaskStatus.FAILED, [605], "no comparable numbers"
    for task in blueprint.tasks:
        if task is not chart:
            task.status = TaskStatus.DONE
    from reportgen.coordinate import _limitations

    (lim,) = _limitations(blueprint)
    assert lim.task_id == chart.id and lim.minor
    assert lim.reason.startswith("No chart for the section on Camellia")  # plainly, not the agent's details
    assert _limitations(blueprint, "fr")[0].reason.startswith("Pas de graphique pour la section Camellia")
    chart.status_codes = [604]  # a chart tool that timed out is a part of the plan not done
    assert not _limitations(blueprint)[0].minor


def test_charts_not_drawn_are_one_limitation_naming_every_section():
    """Five sections without a chart are one line of the Limitations list, not five."""
    from reportgen.coordinate import _limitations
    from reportgen.render.markdown import render_markdown

    from factories import sample_report

    blueprint = compile_blueprint("r", "Tea", ["Camellia", "Matcha", "Oolong"], subject="Tea")
    for task in blueprint.tasks:
        task.status = TaskStatus.DONE
    charts = [t for t in blueprint.tasks if t.kind == "chart"]
    for chart in charts:
        chart.status, chart.status_codes, chart.reason = TaskStatus.FAILED, [605], "no comparable numbers"
    conclusion = blueprint.task("conclusion")
    conclusion.status, conclusion.status_codes, conclusion.reason = TaskStatus.FAILED, [605], "nothing unquoted"
    together, last = _limitations(blueprint)
    assert together.task_ids == [c.id for c in charts] and together.task_id == charts[0].id
    assert together.minor and together.status_code == 605
    assert together.reason.startswith("No chart for the sections on Camellia, Matcha, and Oolong: their sources")
    assert last.task_id == "conclusion" and last.task_ids == ["conclusion"]
    assert _limitations(blueprint, "fr")[0].reason.startswith(
        "Pas de graphique pour les sections Camellia, Matcha et Oolong : leurs sources")
    assert "Camellia, Matcha y Oolong" in _limitations(blueprint, "es")[0].reason
    text = render_markdown(sample_report(limitations=[together])).text
    assert f"**{', '.join(c.id for c in charts)}** (605): No chart for the sections on" in text
    charts[1].status_codes = [604]  # a chart tool that timed out keeps its own line, counted at the top
    lims = _limitations(blueprint)
    assert [lim.task_ids for lim in lims] == [[charts[0].id, charts[2].id], [charts[1].id], ["conclusion"]]
    assert lims[0].reason.startswith("No chart for the sections on Camellia and Oolong")


def test_a_limitation_has_one_list_of_tasks():
    """``task_id`` is the first of ``task_ids``; a report.json written before ``task_ids`` still loads."""
    old = Limitation.model_validate({"task_id": "chart-1", "status_code": 605, "reason": "r"})
    assert old.task_ids == ["chart-1"]
    assert Limitation(task_ids=["chart-1", "chart-2"], reason="r").task_id == "chart-1"
    assert Limitation(reason="run-wide").task_ids == []
    with pytest.raises(ValueError, match="not the first"):
        Limitation(task_id="chart-2", task_ids=["chart-1"], reason="r")


def test_an_introduction_or_conclusion_the_sources_hold_no_sentence_for_is_a_minor_limitation():
    """Most encyclopedia subjects are quoted whole by the body: the report says so at the end, not at the top."""
    from reportgen.coordinate import _limitations

    blueprint = compile_blueprint("r", "Tea", ["Camellia"], subject="Tea")
    for task in blueprint.tasks:
        task.status = TaskStatus.DONE
    conclusion = blueprint.task("conclusion")
    conclusion.status, conclusion.status_codes = TaskStatus.FAILED, [605, 605]
    conclusion.reason = "the notes hold no usable sentence for 'Conclusion'"
    (lim,) = _limitations(blueprint)
    assert lim.task_id == "conclusion" and lim.minor
    assert lim.reason == "No conclusion: the sources hold no sentence on Tea that the report does not already quote"
    assert _limitations(blueprint, "es")[0].reason.startswith("Sin conclusión: las fuentes no dan ninguna frase")
    conclusion.status_codes = [604]  # a writer that crashed is a part of the plan not done
    assert not _limitations(blueprint)[0].minor
    conclusion.status = TaskStatus.DONE
    introduction = blueprint.task("introduction")  # two subjects' own sections may say all there is
    introduction.status, introduction.status_codes = TaskStatus.FAILED, [605]
    (lim,) = _limitations(blueprint, "fr")
    assert lim.minor and lim.reason.startswith("Pas d'introduction : les sources ne donnent aucune phrase sur « Tea »")


def test_a_heading_drops_the_encyclopedias_lowercase_qualifier_unless_two_would_read_alike():
    from reportgen.coordinate import _heading

    titles = ["Hotspot (geology)", "Eastern Front (World War II)", "Mercury (planet)", "Mercury (element)"]
    assert _heading("Hotspot (geology)", titles) == "Hotspot"
    assert _heading("Eastern Front (World War II)", titles) == "Eastern Front (World War II)"
    assert _heading("Mercury (planet)", titles) == "Mercury (planet)"  # two Mercury sections stay apart
    assert _heading("Lava", titles) == "Lava"


def test_a_spare_written_twice_stands_in_for_one_repeat_only():
    """A conclusion had printed "The Roman Republic had previously conquered most of these territories …"
    twice in a row: two of its sentences were repeats, and its spares held that sentence twice (from two
    passages of one article); the second repeat took the spare's copy."""
    bp = compile_blueprint("r", "Rome", ["A"])
    _done(bp)
    said = [("Rome was founded on seven hills.", _src("R")), ("Rome grew into an empire.", _src("R"))]
    spare = ("The republic conquered most of these territories.", _src("Republic"))
    outputs = {
        "introduction": _section("introduction", "Introduction", said, "introduction"),
        "write-1": _section("s1", "A", [("A is a province of Rome.", _src("A"))]),
        "conclusion": _section("conclusion", "Conclusion", said, "conclusion", alternates=[spare, spare]),
    }
    report = coordinate(bp, outputs, lang="en", corpora=["test corpus"])
    texts = [s.text for sec in report.sections for p in sec.paragraphs for s in p.sentences]
    assert texts.count(spare[0]) == 1 and len(texts) == len(set(texts))


def test_a_conclusion_whose_every_sentence_another_part_quoted_first_is_said_to_be_missing():
    """An "Elephant" report had ended without a conclusion and without a word on it: the writer's conclusion
    held only sentences the introduction had quoted too, and the dedupe left nothing of it."""
    bp = compile_blueprint("r", "Tea", ["Camellia"], subject="Tea")
    _done(bp)
    said = [("Tea is an aromatic beverage.", _src("Tea"))]
    outputs = {
        "introduction": _section("introduction", "Introduction", said, "introduction"),
        "write-1": _section("s1", "Camellia", [("Camellia sinensis is the tea plant.", _src("Camellia"))]),
        "conclusion": _section("conclusion", "Conclusion", said, "conclusion"),
    }
    report = coordinate(bp, outputs, lang="en", corpora=["test corpus"])
    assert [s.role for s in report.sections] == ["introduction", "body"]
    (lim,) = [lim for lim in report.limitations if lim.task_id == "conclusion"]
    assert lim.minor
    assert lim.reason == "No conclusion: the sources hold no sentence on Tea that the report does not already quote"


def test_a_sentence_nearly_the_same_as_one_quoted_is_a_repeat():
    """*Elephant*'s "Three living species are currently recognised: …" and *Proboscidea*'s "Three living species
    of elephant are currently recognised: …" hold the same content words: a reader had found the report printing
    both (``coordinate._repeated``, the rule the bench counts repeats by)."""
    from reportgen.coordinate import repeated_sentences

    bp = compile_blueprint("r", "Elephants", ["A"])
    _done(bp)
    one = ("Three living species are currently recognised: the African bush elephant, the African forest "
           "elephant, and the Asian elephant.")
    other = ("Three living species of elephant are currently recognised: the African bush elephant, the African "
             "forest elephant, and the Asian elephant.")
    outputs = {
        "introduction": _section("introduction", "Introduction", [(one, _src("Elephant"))], "introduction"),
        "write-1": _section("s1", "A", [(other, _src("Proboscidea")),
                                        ("Proboscideans have trunks.", _src("Proboscidea"))]),
    }
    report = coordinate(bp, outputs, lang="en", corpora=["c"])
    texts = [s.text for sec in report.sections for p in sec.paragraphs for s in p.sentences]
    assert texts == [one, "Proboscideans have trunks."]
    written = coordinate(bp, outputs, lang="en", corpora=["c"], model="fake")  # a model words its own sentences
    assert len([s for sec in written.sections for p in sec.paragraphs for s in p.sentences]) == 3
    assert repeated_sentences([one, other]) == 1
    assert repeated_sentences([one, "Three living species of whale are recognised in the Atlantic Ocean."]) == 0


def _report_on(topic, sentences, lang="en", model=None, aspects=None):
    # the aspects and subject as plan_extractive reads them (resolved against no corpus here)
    request = read_request(topic, lang)
    bp = compile_blueprint("r", topic, ["A"], lang, subject=request.title or request.subject,
                           held=request.subject)
    bp.aspects = list(request.aspects if aspects is None else aspects)
    _done(bp)
    outputs = {"write-1": _section("s1", "A", [(t, _src(f"S{i}")) for i, t in enumerate(sentences)])}
    return coordinate(bp, outputs, lang=lang, corpora=["test corpus"], model=model)


def test_a_question_no_quoted_sentence_answers_is_said_at_the_top():
    # the kind: a report on stars that never says why they twinkle had read as an answer
    report = _report_on("Why do stars twinkle?", ["A star is a luminous spheroid of plasma.",
                                                  "The nearest star to Earth is the Sun."])
    assert "No sentence quoted here answers 'Why do stars twinkle?'" in report.mode_note
    assert "'stars'" in report.mode_note
    assert report.mode_note.index("No sentence") < report.mode_note.index("extractive")
    answered = _report_on("Why do stars twinkle?", ["Stars twinkle because the air bends their light.",
                                                    "The nearest star to Earth is the Sun."])
    assert "No sentence" not in answered.mode_note
    # a question's aspects are one question: one written is an answer, the verb left unwritten is not named
    seeing = _report_on("How does the human eye see color?", ["Color is the visual perception of light by the eye."],
                        aspects=["see", "color"])  # as the planner resolves it: subject "human eye"
    assert "No sentence" not in seeing.mode_note
    # a word made from the one asked ("eruption" for "erupt") writes it
    erupting = _report_on("Why do volcanoes erupt?", ["A volcanic eruption sends ash into the sky."])
    assert "No sentence" not in erupting.mode_note
    # an aspect written only as one item of a list is named, not written of ("Why do cats purr?" was read as
    # answered by "Cat communication includes meowing, purring, trilling, hissing …")
    listing = _report_on("Why do cats purr?", ["Cat communication includes meowing, purring, trilling, hissing, "
                                               "growling and scent marking."])
    assert "No sentence quoted here answers 'Why do cats purr?'" in listing.mode_note
    purring = _report_on("Why do cats purr?", ["Cats purr when they are content, and also when hurt."])
    assert "No sentence" not in purring.mode_note


def test_aspects_no_quoted_sentence_writes_are_named_at_the_top():
    topic = ("Write a comprehensive report on electric vehicle (EV) adoption rates and the infrastructure "
             "challenges shaping the future of transportation.")
    report = _report_on(topic, ["An electric vehicle is propelled by electric motors.",
                                "The field can be divided into infrastructure, vehicles, and operations.",
                                "Transportation moves people and goods."])
    note = report.mode_note
    assert "“adoption rates”" in note and "“infrastructure challenges”" in note
    assert "“future of transportation”" in note and "which the request asks about" in note
    # more than half of an aspect's terms in one sentence write it: "COVID-19 pandemic" for "COVID-19 crisis"
    covid = _report_on("Write a detailed report on healthcare supply chains, drawing lessons from the COVID-19 crisis",
                       ["The global COVID-19 pandemic began in 2019.", "A supply chain links suppliers to users."])
    assert "No sentence" not in covid.mode_note
    # a history asked for is told by the sections' order, not by the word
    assert "No sentence" not in _report_on("The history of the bicycle", ["The bicycle has two wheels."]).mode_note
    # a model writes its own words: its report is not read for them
    assert "No sentence" not in _report_on("Why do stars twinkle?", ["Stars are far."], model="m").mode_note


@pytest.mark.parametrize(("lang", "topic", "words"), [
    ("fr", "Pourquoi les étoiles scintillent-elles ?", "Aucune phrase citée ici ne répond"),
    ("es", "¿Por qué titilan las estrellas?", "Ninguna frase citada aquí responde"),
])
def test_the_unanswered_note_is_in_the_reports_language(lang, topic, words):
    report = _report_on(topic, ["Une étoile est une boule de plasma." if lang == "fr"
                                else "Una estrella es una esfera de plasma."], lang=lang)
    assert words in report.mode_note


def test_a_cause_said_without_the_word_and_a_british_spelling_write_the_aspect():
    """A reader found the note false twice: "triggered … the worldwide Great Depression" says what caused it
    without "cause", and "the striking change in colour of the leaves" writes "change color"."""
    caused = _report_on("What caused the Great Depression?", [
        "The crash triggered a rapid erosion of confidence that cascaded into the worldwide Great Depression."])
    assert "No sentence" not in caused.mode_note
    unsaid = _report_on("What caused the Great Depression?", ["The Great Depression was a severe downturn."])
    assert "No sentence quoted here answers 'What caused the Great Depression?'" in unsaid.mode_note
    # what the subject causes is no cause of it: "causes" as a word does not answer (a reader's migraine report)
    effects = _report_on("What causes migraines?", ["Migraine is a neurological disorder that causes headaches."])
    assert "No sentence quoted here answers 'What causes migraines?'" in effects.mode_note
    # a marker of cause must be in a sentence on the subject
    elsewhere = _report_on("What causes migraines?", ["Migraine is a neurological disorder.",
                                                      "Floods are often caused by heavy rain."])
    assert "No sentence quoted here answers" in elsewhere.mode_note
    # "occurs when" says what causes it (a reader found the greenhouse effect noted as unanswered)
    occurs = _report_on("What causes the greenhouse effect?", [
        "The greenhouse effect occurs when heat-trapping gases in a planet's atmosphere prevent it losing heat."])
    assert "No sentence" not in occurs.mode_note
    colour = _report_on("Why do leaves change color in autumn?", [
        "Autumn is marked by the striking change in colour of the leaves of deciduous trees."])
    assert "No sentence" not in colour.mode_note


def test_one_word_asked_of_a_name_is_written_by_a_sentence_naming_it():
    """A reader's "The climate of Peru" quoted Bolivia's "a wide range of climates" and no sentence on Peru's
    climate, and said nothing of it: the word asked of a name is written of it by a sentence naming it, or going
    on from one with a pronoun."""
    # as the planner resolves "The climate of Peru": the subject *Peru*, the aspect "climate"
    elsewhere = _report_on("Peru", ["Peru is a country in South America.", "Bolivia has a wide range of climates."],
                           aspects=["climate"])
    assert "No sentence quoted here writes of “climate” as of 'Peru'" in elsewhere.mode_note, elsewhere.mode_note
    # written of nothing at all, it is unwritten; written of other things, it is written apart from the name (a
    # reader found "No sentence … writes of 'deforestation'" false above a section on deforestation at large)
    nowhere = _report_on("Peru", ["Peru is a country in South America."], aspects=["climate"])
    assert "No sentence quoted here writes of “climate”, which the request asks about" in nowhere.mode_note
    assert "as of 'Peru'" not in nowhere.mode_note
    assert "which the request asks about" not in elsewhere.mode_note
    # the pronoun goes on from the sentence's own subject, not from a place it names: "It" is Machu Picchu
    citadel = _report_on("Peru", ["Machu Picchu is an Inca citadel in southern Peru.",
                                  "It is situated above a valley with a subtropical mountain climate."],
                         aspects=["climate"])
    assert "writes of “climate” as of 'Peru'" in citadel.mode_note, citadel.mode_note
    named = _report_on("Peru", ["Peru has a tropical climate in the east."], aspects=["climate"])
    assert "No sentence" not in named.mode_note
    going_on = _report_on("Peru", ["Peru is a country.", "Its climate is dry on the coast."],
                          aspects=["climate"])
    assert "No sentence" not in going_on.mode_note
    # a subject capitalised only where it opens the request is no name: "Coal power: pollution, jobs and costs"
    # quoted "to lower energy costs" beside the coal (a second reader found the note false)
    coal = _report_on("Coal power", ["Coal power plants burn coal.", "Gas turbines help to lower energy costs."],
                      aspects=["costs"])
    assert "No sentence" not in coal.mode_note


def test_a_section_titled_by_the_subject_and_what_is_asked_answers_the_question():
    """"Why did the Titanic sink?" quoted *Sinking of the Titanic* ("… when she struck an iceberg") and said no
    sentence answered it (a reader's find): the article titled by the subject and a word made from what is asked
    is the answer's own text."""
    request = read_request("Why did the Titanic sink?")
    sentences = [("RMS Titanic sank in the North Atlantic Ocean on 15 April 1912.", _src("Sinking of the Titanic")),
                 ("Titanic was on her maiden voyage when she struck an iceberg.", _src("Sinking of the Titanic"))]

    def note(title: str) -> str:
        bp = compile_blueprint("r", request.text, [title], "en", subject=request.title or request.subject,
                               held="Titanic")
        bp.aspects = ["sink"]
        _done(bp)
        return coordinate(bp, {"write-1": _section("s1", title, sentences)}, lang="en", corpora=["c"]).mode_note

    assert "No sentence" not in note("Sinking of the Titanic")
    assert "No sentence quoted here answers" in note("RMS Titanic")  # a section on the ship says nothing of why


def test_a_question_asking_where_is_answered_by_a_sentence_placing_its_subject():
    """A reader found "Where do tigers live?" noted as unanswered while it quoted "The tiger is native to Asia":
    a marker of place in a sentence on the subject answers where, without the question's verb."""
    placed = _report_on("Where do tigers live?", ["The tiger is a large cat native to Asia."])
    assert "No sentence" not in placed.mode_note
    unplaced = _report_on("Where do tigers live?", ["The tiger is a large cat with stripes."])
    assert "No sentence quoted here answers 'Where do tigers live?'" in unplaced.mode_note
    elsewhere = _report_on("Where do tigers live?", ["The tiger is a large cat.", "Lions are found in Africa."])
    assert "No sentence quoted here answers" in elsewhere.mode_note
    # a superlative written for another answers it: "the biggest ocean" is "the largest"
    largest = _report_on("What is the biggest ocean?", ["The Pacific Ocean is the largest and deepest ocean."])
    assert "No sentence" not in largest.mode_note


def test_a_comparison_no_quoted_sentence_makes_is_said_at_the_top():
    """Both comparisons of a reader's twelve requests compared nothing, unsaid: a sentence writing both subjects,
    not only as items of one list, sets them side by side; without one, the note says each is given alone."""
    apart = ["Cotton is a soft, fluffy staple fibre that grows around the seeds of cotton plants.",
             "Wool is the textile fibre obtained from sheep.",
             "Scarves can be made from materials including wool, linen, silk, and cotton."]  # a list compares nothing
    report = _report_on("Compare cotton and wool", apart)
    assert "No sentence quoted here compares “cotton” and “wool”" in report.mode_note
    # one subject a list item is no comparison either ("which includes the alligators and caimans")
    listed_one = _report_on("crocodiles vs alligators", [
        "The term crocodile is sometimes used loosely for the order, which includes the alligators, caimans and "
        "gharials."])
    assert "No sentence quoted here compares" in listed_one.mode_note
    together = _report_on("Compare cotton and wool", [*apart, "Wool is warmer than cotton when it is wet."])
    assert "No sentence quoted here compares" not in together.mode_note
    # two subjects the request does not ask to compare: no such note
    alone = _report_on("Malaria and tuberculosis", ["Malaria is a disease."])
    assert "No sentence quoted here compares" not in alone.mode_note


def test_the_note_names_only_the_texts_the_report_cites_among_those_it_draws_on():
    """The note above "Rivers of India" had said the report draws on *Kolkata*, which no sentence of it quotes."""
    bp = compile_blueprint("r", "Rivers of India", ["Ganges", "Godavari River"])
    _done(bp)
    bp.note = ("The corpora hold no article on 'Rivers of India'; this report draws on the texts that mention it: "
               "Ganges, Kolkata, Godavari River.")
    bp.note_titles = ["Ganges", "Kolkata", "Godavari River"]
    outputs = {"write-1": _section("s1", "Ganges", [("The Ganges is a river of India.", _src("Ganges"))]),
               "write-2": _section("s2", "Godavari River", [("The Godavari is a river of India.",
                                                             _src("Godavari River"))])}
    report = coordinate(bp, outputs, lang="en", corpora=["c"])
    assert "draws on the texts that mention it: Ganges, Godavari River." in report.mode_note
    # quoted, it is named
    outputs["write-2"] = _section("s2", "Godavari River", [("The Godavari is a river of India.",
                                                            _src("Godavari River")),
                                                           ("Kolkata lies on the Hooghly river.", _src("Kolkata"))])
    report = coordinate(bp, outputs, lang="en", corpora=["c"])
    assert "draws on the texts that mention it: Ganges, Kolkata, Godavari River." in report.mode_note


def test_one_articles_chart_is_drawn_in_that_articles_own_section():
    """ "Rivers of France" had drawn *Toulouse: number of people* under *Lyon*, and left its section *Toulouse*,
    which drew the same chart, without it."""
    bp = compile_blueprint("r", "Energy", ["A", "G", "B"])
    _done(bp)
    outputs = {"write-1": _section("s1", "A", [("A is a kind.", _src("A"))], chart=CHART),
               "write-2": _section("s2", "G", [("G is geothermal.", _src("G"))], chart=CHART),
               "write-3": _section("s3", "B", [("B is another kind.", _src("B"))], chart=CHART)}
    report = coordinate(bp, outputs, lang="en", corpora=["c"])
    assert [(f.section_id, f.caption) for f in report.figures] == [("s2", "Countries")]
    # without its own section's chart, it stays where it was first drawn
    outputs["write-2"] = _section("s2", "G", [("G is geothermal.", _src("G"))])
    report = coordinate(bp, outputs, lang="en", corpora=["c"])
    assert [f.section_id for f in report.figures] == ["s1"]
