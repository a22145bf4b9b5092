"""The final coordination layer: task outputs → the :class:`~reportgen.report.Report`.

* sections in reading order: introduction, body sections, conclusion;
* no sentence used twice: a repeat is replaced by its section's next spare;
* citations numbered ``[n]`` in order of first use, references deduplicated
  by normalised URL, and only sources actually cited become references;
* figures numbered in reading order, each with caption and source line; a
  chart all of whose numbers earlier figures already show is left out (the
  same numbers, or some of them, charted again tell the reader nothing new:
  a Sahara report had drawn the areas of Tunisia and Algeria three times);
* at most one timeline per report (:func:`_kept_timeline`): the one with
  the most events, the first in reading order on a tie; the other sections'
  timelines are dropped (their text stays). Quantity charts are unaffected;
* the tables the data agent read from the user's files, numbered, each
  shown once with its citation (``Report.tables``);
* a Limitations entry for every task that failed, was skipped or ran degraded,
  and for every document that could not be read.
"""

from __future__ import annotations

from typing import Any, Iterable

from reportgen.acp.codes import StatusCode
from reportgen.blueprint.model import Blueprint, TaskStatus
from reportgen.blueprint.planner import unanswered_note
from reportgen.errors import RunError
from reportgen.i18n import join_list, labels
from reportgen.report import Figure, Limitation, Paragraph, Reference, Report, Section, Sentence, Table
from reportgen.sources.text import bare_title, stopwords, tokenize

__all__ = ["coordinate"]


class _References:
    """Numbers sources in order of first citation, one number per normalised URL."""

    def __init__(self) -> None:
        # sources.fetch loads httpx and lxml: imported by the coordination stage, not at start-up (issue 15)
        from reportgen.sources.fetch import normalize_url

        self.normalize_url = normalize_url
        self.by_url: dict[str, Reference] = {}

    def cite(self, source: dict[str, Any]) -> int:
        key = self.normalize_url(source["url"])
        ref = self.by_url.get(key)
        if ref is None:
            ref = Reference(
                id=len(self.by_url) + 1, title=source["title"], url=source["url"],
                source_id=source["source_id"], corpus=source["corpus"],
            )
            self.by_url[key] = ref
        return ref.id

    def all(self) -> list[Reference]:
        return sorted(self.by_url.values(), key=lambda r: r.id)


def _charts_by_section(order: list[Any], outputs: dict[str, dict[str, Any]]) -> dict[str, set[tuple[str, str]]]:
    """The numbers each body section's own chart shows, by the section's title: ``{title: {(source_id, raw)}}``."""
    owned: dict[str, set[tuple[str, str]]] = {}
    for task in order:
        raw = outputs.get(task.id, {}).get("section") or {}
        chart = raw.get("chart")
        if task.kind == "write" and chart:
            owned[str(raw.get("title", ""))] = {(p["source_id"], p["raw"]) for p in chart["spec"]["points"]}
    return owned


def _owned_elsewhere(chart: dict[str, Any], title: str, shown: set[tuple[str, str]],
                     owned: dict[str, set[tuple[str, str]]]) -> bool:
    """Whether a chart all of whose numbers are one article's belongs to another section: the one that article is
    the own article of, whose chart shows them all too. "Rivers of France" had drawn *Toulouse: number of people*
    under *Lyon* (Toulouse's sentence names Lyon), and its section *Toulouse*, which drew the same chart after it,
    had been left without (a chart all of whose numbers an earlier figure shows is left out).

    Args:
        chart: A section's chart output (``spec``, ``sources``).
        title: That section's title.
        shown: Its numbers, ``{(source_id, raw)}``.
        owned: The numbers each body section's chart shows, by title (:func:`_charts_by_section`).

    Returns:
        True when the chart is to be drawn in that other section instead.
    """
    sources = {p["source_id"] for p in chart["spec"]["points"]}
    if len(sources) != 1:
        return False
    (source,) = sources
    article = next((str(ref.get("title", "")) for ref in chart.get("sources") or [] if ref.get("source_id") == source),
                   "")
    return bool(article) and article != title and shown <= owned.get(article, set())


def _cited_only(blueprint: Blueprint, refs: _References) -> str:
    """The planner's note with only the texts the report cites among those it says the report draws on
    (:attr:`~reportgen.blueprint.model.Blueprint.note_titles`): the note above "Rivers of India" had named
    *Kolkata*, which no sentence or figure of it quotes. The note stays as written when the report cites none
    of them."""
    listed = ", ".join(blueprint.note_titles)
    cited = {ref.title for ref in refs.all()}
    kept = [title for title in blueprint.note_titles if title in cited]
    if not listed or not kept or listed not in blueprint.note:
        return blueprint.note
    return blueprint.note.replace(listed, ", ".join(kept), 1)


def _key(text: str) -> str:
    return " ".join(tokenize(text))


#: Least share of content words two sentences hold in common (of all either holds: Jaccard) for one to repeat
#: the other, each holding at least :data:`REPEAT_WORDS` of them. Two articles often open on the same fact in
#: nearly the same words: "Three living species are currently recognised: the African bush elephant, …" (*Elephant*)
#: and "Three living species of elephant are currently recognised: …" (*Proboscidea*) hold the same content words,
#: and a reader had found the report printing both.
REPEAT_SHARE = 0.8
#: Fewest content words of a sentence judged a repeat by :data:`REPEAT_SHARE` (shorter ones must match whole).
REPEAT_WORDS = 6


def repeated_sentences(texts: Iterable[str], lang: str = "en") -> int:
    """How many of ``texts`` repeat an earlier one (:func:`_repeated`, the rule the report's sentences are
    deduplicated by; ``make bench-quality`` counts them).

    Args:
        texts: Sentences in reading order.
        lang: Their language (its stop words are not content words).

    Returns:
        The count of repeats, in ``[0, len(texts))``.
    """
    used: set[str] = set()
    count = 0
    for text in texts:
        if _repeated(text, used, lang):
            count += 1
        used.add(_key(text))
    return count


def _repeated(text: str, used: set[str], lang: str, near: bool = True) -> bool:
    """Whether a sentence repeats one already quoted (``used``: their :func:`_key`): the same words, or (``near``)
    nearly the same content words (:data:`REPEAT_SHARE`)."""
    key = _key(text)
    if key in used:
        return True
    if not near:
        return False
    stop = stopwords(lang)
    words = set(key.split()) - stop
    if len(words) < REPEAT_WORDS:
        return False
    for other in used:
        theirs = set(other.split()) - stop
        if len(theirs) >= REPEAT_WORDS and len(words & theirs) >= REPEAT_SHARE * len(words | theirs):
            return True
    return False


def _dedupe(raw: dict[str, Any], used: set[str], lang: str = "en", near: bool = True) -> list[dict[str, Any]]:
    """The section's sentences with repeated ones replaced by unused spares (or dropped).

    ``near``: a sentence nearly the same as one quoted is a repeat too (:func:`_repeated`): sentences quoted
    from sources, where two articles print one fact in nearly the same words. A model's own sentences are
    repeats only word for word (``False``): it words each section itself.

    Every writer brain produces the same sentence shape (``{"text",
    "sources", "paragraph"}``, :func:`reportgen.agents.model_common.section_output`),
    so one rule holds for all: no cited sentence appears twice in a report. The sentences of the same
    source that point back to a repeat (:func:`~reportgen.agents.ranking.quotable`: "It is the most popular
    board game in China", after *Xiangqi*'s first sentence went to an earlier section) go with it.
    """
    from reportgen.agents.ranking import quotable

    spares = [s for s in raw.get("alternates", []) if not _repeated(s["text"], used, lang, near)]
    out = []
    orphaned = ""  # the source whose sentence was a repeat: its next sentences that point back go too
    for sentence in raw["sentences"]:
        source = sentence["sources"][0]["source_id"] if sentence["sources"] else ""
        if orphaned and source == orphaned and not quotable(sentence["text"], 1, lang):
            continue
        orphaned = ""
        if sentence["sources"] and _repeated(sentence["text"], used, lang, near):
            orphaned = source
            # the first spare not used by now: a spare written twice (two passages of one article) stands in
            # for one repeat only
            sentence = next((s for s in spares if not _repeated(s["text"], used, lang, near)), None)
            if sentence is None:
                continue
            spares.remove(sentence)
        if sentence["sources"]:
            used.add(_key(sentence["text"]))
        out.append(sentence)
    return out


def _off_heading(title: str, sentences: list[dict[str, Any]]) -> bool:
    """Whether an extractive body section is left with nothing on its heading: no sentence of its own article
    (the source titled ``title``, the theme the planner chose) and none writing its name. A section on
    *Extratropical cyclone* whose own sentences an earlier section quoted was left with its companion's
    sentences on tropical rainforests.

    Args:
        title: The section's title (its article's, with any bracketed qualifier).
        sentences: Its sentences after :func:`_dedupe`.
    """
    from reportgen.agents.ranking import writes_phrase

    name = bare_title(title)
    return not any(src.get("title") == title for s in sentences for src in s["sources"]) \
        and not any(writes_phrase(s["text"], name) for s in sentences)


def _paragraphs(sentences: list[dict[str, Any]], refs: _References) -> list[Paragraph]:
    """Paragraphs as the writer made them (``paragraph``), else one per run of one source."""
    paragraphs: list[Paragraph] = []
    run: list[Sentence] = []
    last: Any = "<start>"
    for s in sentences:
        cited = s["sources"]
        key = s["paragraph"] if s.get("paragraph") is not None else (cited[0]["source_id"] if cited else None)
        if run and key != last:
            paragraphs.append(Paragraph.from_sentences(run))
            run = []
        run.append(Sentence(text=s["text"], citations=list(dict.fromkeys(refs.cite(c) for c in cited))))
        last = key
    if run:
        paragraphs.append(Paragraph.from_sentences(run))
    return paragraphs


def _heading(title: str, titles: list[str]) -> str:
    """A section's heading: its article's title without the encyclopedia's lowercase qualifier ("Hotspot
    (geology)" reads "Hotspot", "Ganymede (moon)" "Ganymede"), unless two sections would then read alike.
    A qualifier with a capital or a digit is part of the name ("Eastern Front (World War II)").

    Args:
        title: The section's title (its article's).
        titles: Every body section's title, to keep headings distinct.

    Returns:
        The heading.
    """
    name = bare_title(title)
    if name == title:
        return title
    return title if any(t != title and bare_title(t) == name for t in titles) else name


def _limitations(blueprint: Blueprint, lang: str = "en") -> list[Limitation]:
    """One entry per failed or skipped task; degraded dependents are named in it, and a chart without data
    or an introduction or conclusion without an unquoted sentence (all 605) is
    :attr:`~reportgen.report.Limitation.minor`."""
    out = []
    for task in blueprint.tasks:
        if task.status not in (TaskStatus.FAILED, TaskStatus.SKIPPED):
            continue
        code = next((c for c in reversed(task.status_codes) if c != 200), None)
        degraded = [
            t.aim[:1].lower() + t.aim[1:]
            for t in blueprint.dependents(task.id)
            if t.degraded and t.status is TaskStatus.DONE
        ]
        words = labels(lang)
        reason = f"{task.aim}: {task.reason}"
        if task.kind == "write" and code == StatusCode.INCOMPLETE_INFORMATION and "title" in task.inputs:
            # a section its sources hold no quotable sentence for, said in the report's language (the agent's
            # words are logged): a Spanish report had read "the notes hold no usable sentence for 'Ramsés II'"
            reason = words["section_unwritten"].format(title=task.inputs["title"].value)
        if degraded:
            reason += ". " + words["done_without"].format(tasks="; ".join(degraded))
        # a chart the sources hold no data for leaves its section whole, and so does an introduction or a
        # conclusion the sources hold no sentence on the subject for that the body does not quote already:
        # listed, not counted at the top
        minor = blueprint.found_nothing(task)
        if "subject" in task.inputs and (minor or task.kind == "chart" and code == StatusCode.INCOMPLETE_INFORMATION):
            # said plainly, in the report's language (the details are logged); also a chart of a section that was
            # not written: a Spanish report had read "the sources hold too little comparable data … (gave up after
            # the 'broaden' strategy too)"
            reason = words[f"no_{task.kind}"].format(title=task.inputs["subject"].value)
        out.append(Limitation(task_id=task.id, status_code=code, reason=reason, minor=minor))
    return _charts_together(blueprint, out, lang)


def _charts_together(blueprint: Blueprint, limitations: list[Limitation], lang: str) -> list[Limitation]:
    """The minor notes of charts not drawn as one note naming every section, where the first of them stood
    ("No chart for the sections on A, B and C: …" rather than a line per chart, which filled the
    Limitations list of a report that lacked nothing but charts)."""
    tasks = {task.id: task for task in blueprint.tasks}
    charts = [lim for lim in limitations
              if lim.minor and lim.task_id in tasks and tasks[lim.task_id].kind == "chart"
              and "subject" in tasks[lim.task_id].inputs]
    if len(charts) < 2:
        return limitations
    titles = join_list([str(tasks[lim.task_id].inputs["subject"].value) for lim in charts], lang)
    together = Limitation(task_ids=[lim.task_id for lim in charts], status_code=charts[0].status_code,
                          reason=labels(lang)["no_charts"].format(titles=titles), minor=True)
    first = limitations.index(charts[0])
    rest = [lim for lim in limitations if all(lim is not chart for chart in charts)]
    return rest[:first] + [together] + rest[first:]


def _tables(blueprint: Blueprint, outputs: dict[str, dict[str, Any]], sections: list[Section],
            refs: _References) -> list[Table]:
    """The tables the data agent read, each shown once, in the section it was read for.

    A data task's ``series`` carries its ``table`` and the other ``tables`` on
    the report's topic (every column, the rows as printed, checked row by row
    against the file by the series verifier); a table read for a section that
    was not written goes to the first body section. Reference numbers are given after the sections' own, so the text
    keeps its citation order.
    """
    written = {s.id for s in sections}
    first_body = next(s.id for s in sections if s.role == "body")
    shown: set[str] = set()
    out: list[Table] = []
    order = {s.id: i for i, s in enumerate(sections)}
    found = []
    for task in blueprint.tasks:
        series = outputs.get(task.id, {}).get("series")
        if not isinstance(series, dict):
            continue
        section = task.section if task.section in written else first_body
        for table in [series.get("table"), *(series.get("tables") or [])]:
            if table:
                found.append((order[section], section, table))
    for _, section, table in sorted(found, key=lambda item: item[0]):
        key = table["source"]["source_id"]
        if key in shown:
            continue
        shown.add(key)
        caption = table["caption"]
        if table.get("total_rows", len(table["rows"])) > len(table["rows"]):
            caption += f" ({len(table['rows'])} of {table['total_rows']} rows)"
        number = len(out) + 1
        out.append(Table(id=f"tbl-{number}", number=number, section_id=section, caption=caption,
                         header=table["header"], rows=table["rows"], citations=[refs.cite(table["source"])]))
    return out


def _kept_timeline(order: list[Any], outputs: dict[str, dict[str, Any]]) -> str | None:
    """The id of the one task whose timeline the report shows, or ``None`` when no section has one.

    A timeline is the chart of a section whose sources give dates but no
    comparable numbers (:func:`reportgen.charts.propose_timeline`); several
    would repeat one kind of figure down the report, and sections of one
    subject share its dates. The one with the most events is kept; on a
    tie, the first in reading order.
    """
    best: tuple[int, str] | None = None
    for task in order:
        chart = (outputs.get(task.id, {}).get("section") or {}).get("chart")
        if chart and chart["spec"]["kind"] == "timeline":
            events = len(chart["spec"]["points"])
            if best is None or events > best[0]:
                best = (events, task.id)
    return best[1] if best else None


def _title(subject: str) -> str:
    return subject[:1].upper() + subject[1:]


def coordinate(
    blueprint: Blueprint,
    outputs: dict[str, dict[str, Any]],
    *,
    lang: str,
    corpora: list[str],
    extra_limitations: Iterable[Limitation] = (),
    model: str | None = None,
    usage: dict[str, Any] | None = None,
    brains: dict[str, dict[str, Any]] | None = None,
) -> Report:
    """Assemble the report from the finished tasks.

    Args:
        blueprint: The blueprint after dispatch (statuses and reasons set).
        outputs: ``{task_id: {output: value}}`` of the tasks that succeeded.
        lang: Report language.
        corpora: Display names of the corpora searched, for the mode note.
        extra_limitations: Run-wide limitations (e.g. unreadable documents).
        model: The models that wrote the report (``None``: extractive mode).
        usage: Token usage and cost, for model-written reports.
        brains: Which brain and model each agent used (``report.json``).

    Returns:
        The report, ready to render.

    Raises:
        RunError: No body section could be written.
    """
    words = labels(lang)
    writers = [t for t in blueprint.tasks if t.kind in ("introduction", "write", "conclusion")]
    order = (
        [t for t in writers if t.kind == "introduction"]
        + [t for t in writers if t.kind == "write"]
        + [t for t in writers if t.kind == "conclusion"]
    )
    timeline = _kept_timeline(order, outputs)
    refs, used, charted = _References(), set[str](), set[tuple[str, str]]()
    sections: list[Section] = []
    figures: list[Figure] = []
    left_out: list[Limitation] = []
    titles = [str((outputs.get(t.id, {}).get("section") or {}).get("title", "")) for t in order if t.kind == "write"]
    owned = _charts_by_section(order, outputs)
    for n, task in enumerate(order):
        raw = outputs.get(task.id, {}).get("section")
        if not raw:
            continue
        sentences = _dedupe(raw, used, lang, near=model is None)  # quoted sentences: near repeats too
        # the last body section left stands, on its heading or not: a report is never lost to this rule
        last = not any(s.role == "body" for s in sections) and not any(
            t.kind == "write" and outputs.get(t.id, {}).get("section") for t in order[n + 1:])
        if raw["role"] == "body" and model is None and sentences and not last \
                and _off_heading(raw["title"], sentences):
            for sentence in sentences:  # not quoted after all: free for a later section
                used.discard(_key(sentence["text"]))
            left_out.append(Limitation(task_id=task.id,
                                       reason=words["section_off_heading"].format(title=bare_title(raw["title"]))))
            continue
        if not any(s["sources"] for s in sentences) and not (raw["role"] == "conclusion" and sentences):
            if raw["role"] == "body":  # said, not dropped silently: its chart note still names the section
                reason = words["section_left_out"].format(title=raw["title"])
                left_out.append(Limitation(task_id=task.id, reason=reason))
            elif "subject" in task.inputs:  # every sentence another part quoted first: said as the 605 is
                # (an elephant report had ended without a conclusion and without a word on it)
                reason = words[f"no_{task.kind}"].format(title=task.inputs["subject"].value)
                left_out.append(Limitation(task_id=task.id, reason=reason, minor=True))
            continue  # a conclusion may be only its recap line
        section = Section(
            id=raw["id"], title=_heading(raw["title"], titles) if raw["role"] == "body" else raw["title"],
            role=raw["role"], paragraphs=_paragraphs(sentences, refs),
        )
        chart = raw.get("chart")
        if chart and chart["spec"]["kind"] == "timeline" and task.id != timeline:
            chart = None  # one timeline per report: the section keeps its text
        shown = {(p["source_id"], p["raw"]) for p in chart["spec"]["points"]} if chart else set()
        if chart and _owned_elsewhere(chart, raw["title"], shown, owned):
            chart = None  # one article's numbers go with that article's own section, which draws them too
        if chart and not shown <= charted:  # a number is charted once: a chart of none new is left out
            charted |= shown
            number = len(figures) + 1
            figures.append(
                Figure(
                    id=f"fig-{number}", number=number, section_id=section.id,
                    caption=chart["caption"], kind=chart["spec"]["kind"], svg=chart["svg"],
                    citations=[refs.cite(src) for src in chart["sources"]],
                    data=[
                        {"label": p["label"], "value": p["value"], "unit": chart["spec"]["unit"],
                         "raw": p["raw"], "source_id": p["source_id"], "quote": p["quote"]}
                        for p in chart["spec"]["points"]
                    ],
                )
            )
            section.figure_ids.append(figures[-1].id)
        sections.append(section)
    if not any(s.role == "body" for s in sections):
        raise RunError(f"no section of the report on {blueprint.topic!r} could be written")
    tables = _tables(blueprint, outputs, sections, refs)
    limitations = list(extra_limitations) + _limitations(blueprint, lang) + left_out
    corpora_text = ", ".join(corpora)
    # what the request asks about and no quoted sentence writes is said at the top (a model's sentences are
    # its own words, not the sources': only an extractive report is read so)
    unanswered = "" if model else unanswered_note(
        blueprint, [s.text for sec in sections for p in sec.paragraphs for s in p.sentences], lang)
    notes = " ".join(n for n in (_cited_only(blueprint, refs), unanswered) if n)
    return Report(
        id=blueprint.report_id,
        title=words["title"].format(topic=_title(blueprint.subject or blueprint.topic)),
        topic=blueprint.topic,
        lang=lang,
        mode="model" if model else "extractive",
        mode_note=(notes + " " if notes else "") + (
            words["mode_model"].format(model=model, corpora=corpora_text) if model
            else words["mode_extractive"].format(corpora=corpora_text)
        ),
        model=model,
        usage=usage,
        corpora=corpora,
        sections=sections,
        figures=figures,
        tables=tables,
        references=refs.all(),
        limitations=limitations,
        brains=dict(brains or {}),
    )
