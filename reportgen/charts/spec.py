"""Chart specifications: which found numbers may share one chart, and how.

A :class:`ChartSpec` is the plot agent's output: a chart kind, labels and the
points to draw, each point carrying the sentence it was read from. The model
validates the invariants the renderer and the report rely on; in particular a
point's ``raw`` text must be a substring of its ``quote``, so a chart never
shows a number that is not in a cited source.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable

from pydantic import BaseModel, Field, model_validator

from reportgen.agents.ranking import head_noun, mentions, stem, terms
from reportgen.charts.numbers import NumericFact, generic_label
from reportgen.i18n import chart_word
from reportgen.sources.text import fold

__all__ = [
    "MAX_SPREAD", "SHARED_VALUE_SOURCES", "YEAR_WINDOW", "ChartPoint", "ChartSpec", "caption", "comparable_key",
    "entity", "propose_chart",
]

#: Most bars drawn in one chart; more would not be readable at 6.4 in wide.
MAX_BARS = 12
#: Largest ratio of the biggest to the smallest value of a chart that combines
#: different sentences: three orders of magnitude. Beyond it the small bars
#: vanish, and the values are rarely the same kind of thing ("3 people" beside
#: "158 million people").
MAX_SPREAD = 1000.0
#: Most years between two dated values of different sentences charted as one
#: bar series (a 1990 population beside a 2024 one is no comparison).
YEAR_WINDOW = 10
#: Wholes too generic to make two articles' percentages comparable: "15% of
#: people" (who develop a fever) and "1% of people" (who develop encephalitis);
#: "the population" that is Muslim and the one that lives in cities.
_GENERIC_WHOLES = frozenset(
    """people population cases total patients individuals adults children infections persons men women
    respondents those all population""".split()
)
#: Sources printing the very same value from which it is nobody's own number
#: (every constellation article says "one of the 88 modern constellations").
SHARED_VALUE_SOURCES = 3
#: Units whose values may be negative in a chart that combines sentences
#: (temperatures); any other negative value there is left out.
_SIGNED_UNITS = frozenset({"°C", "°F"})

# Quantity names of the physical units extract_facts normalises to. A unit not
# listed here is a counted noun ("countries", "extant species").
_QUANTITIES: dict[str, str] = {
    "%": "Share",
    "‰": "Share",
    **dict.fromkeys(["TWh", "GWh", "MWh", "kWh", "Wh", "GJ", "MJ", "kJ", "J"], "Energy"),
    **dict.fromkeys(["eV", "keV", "MeV", "GeV", "TeV"], "Energy"),
    **dict.fromkeys(["TW", "GW", "MW", "kW", "W"], "Power"),
    **dict.fromkeys(["km", "m", "cm", "mm", "µm", "nm", "mi", "ft", "ly", "AU"], "Length"),
    **dict.fromkeys(["km²", "m²", "sq mi", "sq ft", "ha"], "Area"),
    "m³": "Volume",
    **dict.fromkeys(["t", "kg", "g", "Mt", "Gt"], "Mass"),
    **dict.fromkeys(["°C", "°F", "K"], "Temperature"),
    **dict.fromkeys(["USD", "EUR", "GBP", "JPY", "AUD", "CAD"], "Amount"),
    **dict.fromkeys(["km/h", "mph", "m/s"], "Speed"),
    **dict.fromkeys(["V", "kV"], "Voltage"),
    **dict.fromkeys(["Hz", "kHz", "MHz", "GHz"], "Frequency"),
    **dict.fromkeys(["ppm", "ppb"], "Concentration"),
    "dB": "Level",
    "magnitude": "Magnitude",  # an earthquake's (charts.numbers: "a Mw 9.2–9.3 earthquake")
    "years": "Duration",
    "years ago": "Time before present",
}
_RATE_WORDS = {"/year": "per year", "/day": "per day", "/h": "per hour", "/s": "per second",
               "/person": "per person"}

#: Units never charted: a ratio "23 times as abundant as X" is relative to a
#: reference that changes from fact to fact.
_UNCHARTABLE = frozenset({"times", "fois", "veces"})
_SHARE_UNITS = frozenset({"%", "‰"})

_TOKEN_STOP = frozenset(
    """the and for with from that this into over under than then also are was
    were has have had its their about between among which while les des pour
    dans avec sur par une los las del para con por una""".split()
)


class ChartPoint(BaseModel):
    """One plotted value and where it comes from.

    Attributes:
        label: Category label (bar) or the year as text (line).
        value: The value, in ``unit`` (the lower bound of a range).
        high: Upper bound when the source gives a range, else ``None``.
        raw: The value as written in the source (``"4,210 TWh"``); drawn as
            the value label, and always a substring of ``quote``.
        unit: Normalised unit, equal to the chart's ``unit``.
        year: Year the source gives for the value, else ``None``.
        source_id: Corpus-level id of the source.
        url: Citable URL of the source.
        title: Title of the source.
        quote: The sentence the value was read from, verbatim.
    """

    label: str = Field(min_length=1)
    value: float
    high: float | None = None
    raw: str = Field(min_length=1)
    unit: str
    year: int | None = None
    source_id: str
    url: str
    title: str
    quote: str

    @model_validator(mode="after")
    def _check(self) -> "ChartPoint":
        if not math.isfinite(self.value):
            raise ValueError(f"value of {self.label!r} is not finite")
        if self.high is not None and (not math.isfinite(self.high) or self.high < self.value):
            raise ValueError(f"range of {self.label!r} is not a finite low ≤ high")
        if self.raw not in self.quote:
            raise ValueError(f"raw text {self.raw!r} is not in the quoted sentence")
        return self


class ChartSpec(BaseModel):
    """A chart to draw: kind, labels and sourced points.

    Attributes:
        kind: ``"bar"`` (categories), ``"line"`` (one quantity over years),
            ``"timeline"`` (dated events, :mod:`reportgen.charts.timeline`:
            each point's value is its year, ``raw`` the year as written, the
            label what happened), or a kind a plugin registered
            (``register_chart_kinds``).
        title: Plain-text chart title.
        x_label: X axis label (``"Year"`` for lines; ``""`` for bars, whose
            category labels speak for themselves).
        y_label: Y axis label naming the unit (``"Share of world's
            electricity (%)"``, ``"Number of countries"``).
        unit: The unit shared by every point.
        points: At least two points; bars in source order, lines by year.

    Raises:
        pydantic.ValidationError: Fewer than two points, mixed units,
            duplicate labels, non-finite values, a ``raw`` text absent from
            its quote, or a line or timeline whose points lack distinct
            ascending years.
    """

    kind: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,31}$")
    title: str = Field(min_length=1)
    x_label: str = ""
    y_label: str
    unit: str
    points: list[ChartPoint]

    @model_validator(mode="after")
    def _check(self) -> "ChartSpec":
        if len(self.points) < 2:
            raise ValueError("a chart needs at least two points")
        units = {p.unit for p in self.points}
        if units != {self.unit}:
            raise ValueError(f"points mix units {sorted(units)}; chart unit is {self.unit!r}")
        labels = [p.label.casefold() for p in self.points]
        if len(set(labels)) != len(labels):
            raise ValueError("duplicate point labels")
        if self.kind in ("line", "timeline"):
            years = [p.year for p in self.points]
            if any(y is None for y in years):
                raise ValueError(f"every point of a {self.kind} chart needs a year")
            if years != sorted(set(years)):  # type: ignore[type-var]
                raise ValueError(f"{self.kind} chart years must be distinct and ascending")
        return self


# --------------------------------------------------------------------------
# Grouping
# --------------------------------------------------------------------------


def _tokens(text: str) -> set[str]:
    return {
        t
        for t in re.findall(r"[^\W\d_]{3,}", text.casefold())
        if t not in _TOKEN_STOP
    }


def _overlap(subject: set[str], tokens: set[str]) -> bool:
    for a in subject:
        for b in tokens:
            if a == b:
                return True
            short, long_ = (a, b) if len(a) <= len(b) else (b, a)
            if len(short) >= 5 and long_.startswith(short):
                return True
    return False


def _relevant(fact: NumericFact, subject: set[str]) -> bool:
    # The sentence, not the label: a label may be the source title standing
    # in for "it", which would make every fact of an article look relevant.
    return bool(subject) and _overlap(subject, _tokens(fact.sentence))


def _quantity(unit: str, base: str = "", lang: str = "en") -> tuple[str, bool]:
    """Return ``(quantity name, is_counted_noun)`` for a unit, in ``lang`` (:func:`reportgen.i18n.chart_word`)."""
    head, rate = unit, ""
    for suffix, words in _RATE_WORDS.items():
        if unit.endswith(suffix) and unit not in _QUANTITIES:
            head, rate = unit[: -len(suffix)], f" {chart_word(words, lang)}"
            break
    name = _QUANTITIES.get(head)
    if name is None:
        return chart_word("Number of {what}", lang, what=f"{head}{rate}"), True
    if name == "Share" and base:
        return chart_word("Share of {what}", lang, what=base) + rate, False
    return f"{chart_word(name, lang)}{rate}", False



def _point(fact: NumericFact, label: str) -> ChartPoint:
    return ChartPoint(
        label=label,
        value=fact.value,
        high=fact.high,
        raw=fact.raw,
        unit=fact.unit,
        year=fact.year,
        source_id=fact.source_id,
        url=fact.url,
        title=fact.title,
        quote=fact.sentence,
    )


def _common_base(facts: list[NumericFact]) -> str:
    """The whole every fact is a share of, when all of them say the same one."""
    bases = {f.base for f in facts}
    return bases.pop() if len(bases) == 1 else ""


def _names(unit: str, base: str, kind: str, lang: str = "en") -> tuple[str, str]:
    """``(quantity name, y-axis label)`` of a chart in ``lang``; the kind, when known, names the quantity."""
    name, counted = _quantity(unit, base, lang)
    if kind and kind != unit and not kind.startswith("share of"):
        said = chart_word(kind, lang)
        said = said[:1].upper() + said[1:]
        return said, f"{said} ({unit})"
    return name, (name if counted else f"{name} ({unit})")


def _line(facts: list[NumericFact], kind: str = "", lang: str = "en") -> ChartSpec | None:
    by_year: dict[int, NumericFact] = {}
    for f in facts:
        if f.year is not None and f.year not in by_year:
            by_year[f.year] = f
    if len(by_year) < 2:
        return None
    ordered = [by_year[y] for y in sorted(by_year)]
    unit = ordered[0].unit
    base = _common_base(ordered)
    name, y_label = _names(unit, base, kind, lang)
    label = ordered[0].label
    return ChartSpec(
        kind="line",
        title=chart_word("{what}: {rest}", lang, what=label, rest=f"{name[:1].lower()}{name[1:]}"),
        x_label=chart_word("Year", lang),
        y_label=y_label,
        unit=unit,
        points=[_point(f, str(f.year)) for f in ordered],
    )


def _bar(facts: list[NumericFact], context: str, kind: str = "", lang: str = "en") -> ChartSpec | None:
    counts: dict[str, int] = defaultdict(int)
    for f in facts:
        counts[f.label.casefold()] += 1
    years = {f.year for f in facts if f.year is not None}
    points: list[ChartPoint] = []
    used: set[str] = set()
    chosen: list[NumericFact] = []
    for f in facts:
        label = f.label
        if counts[label.casefold()] > 1 or len(years) > 1:
            if f.year is not None:
                label = f"{label} ({f.year})"
            elif counts[label.casefold()] > 1:
                continue  # same label, nothing to tell the values apart
        if label.casefold() in used:
            continue
        used.add(label.casefold())
        points.append(_point(f, label))
        chosen.append(f)
        if len(points) == MAX_BARS:
            break
    if len(points) < 2:
        return None
    unit = chosen[0].unit
    base = _common_base(chosen)
    name, y_label = _names(unit, base, kind, lang)
    if context:
        title = chart_word("{what}: {rest}", lang, what=context, rest=f"{name[:1].lower()}{name[1:]}")
    else:  # several articles' numbers: what is compared, and the compared
        shown = [p.label for p in points]
        compared = (", ".join(shown) if len(shown) <= 3
                    else chart_word("{what} and others", lang, what=", ".join(shown[:3])))
        title = chart_word("{what}: {rest}", lang, what=name, rest=compared)
    if len(years) == 1 and all(f.year is not None for f in chosen):
        title += f", {next(iter(years))}"
    return ChartSpec(
        kind="bar",
        title=title,
        x_label="",
        y_label=y_label,
        unit=unit,
        points=points,
    )


def _specs(facts: list[NumericFact], subject: str, kind: str = "", lang: str = "en") -> list[ChartSpec]:
    """Every chart one comparable group of facts can make (bar and/or lines)."""
    specs: list[ChartSpec] = []
    by_label: dict[str, list[NumericFact]] = defaultdict(list)
    for f in facts:
        by_label[f.label.casefold()].append(f)
    for same in by_label.values():
        line = _line(same, kind, lang)
        if line is not None:
            specs.append(line)
    if len(by_label) > 1:
        titles = {f.title for f in facts}
        # numbers of several articles are compared with each other: the section's name would say
        # "Earth: height" over the heights of Mount Fuji and Kilimanjaro
        context = next(iter(titles)) if len(titles) == 1 else ""
        bar = _bar(facts, context, kind, lang)
        if bar is not None:
            specs.append(bar)
    return specs


def comparable_key(fact: NumericFact) -> tuple[str, str, str] | None:
    """What facts of different sentences must share to be charted together, or ``None`` if nothing can.

    The unit, the length measure and the *kind* of quantity
    (:func:`~reportgen.charts.numbers.quantity_kind`: the words around the
    number, "capacity", "population", "area"); a percentage's kind is the whole
    it is a share of (``base``), so "15% of the world's electricity" meets
    only other shares of the world's electricity; a count names what it
    counts when written after it (:func:`_counted_of`: "16 species of birds"
    is no count of bees' species). A fact whose kind the words
    do not say, or a share of an unnamed or generic whole ("15% of people"
    develop one thing, "1% of people" another: :data:`_GENERIC_WHOLES`), is
    charted only beside the numbers of its own sentence.

    Args:
        fact: A fact from :func:`~reportgen.charts.numbers.extract_facts`.

    Returns:
        ``(unit, measure, kind)``, or ``None``.
    """
    if fact.unit in _SHARE_UNITS:
        specific = fact.base and not set(fact.base.split()) & _GENERIC_WHOLES
        return (fact.unit, fact.measure, f"share of {fact.base}") if specific else None
    if not fact.kind:
        return None
    counted = _counted_of(fact)  # "16 species of birds" counts birds: no count of bees' species
    return (fact.unit, fact.measure, f"{fact.kind} of {counted}" if counted else fact.kind)


#: What a counted noun counts, written after it: "16 species *of birds*", "250 species *in the genus Bombus*",
#: "7–12 species *of honey bees*" (English, French and Spanish).
_COUNTED_OF = re.compile(r"^\s+(?:of|in|among|de|des|du|dans|en|del)\s+(?:(?:the|a|an|la|le|les|el|los|las)\s+)?"
                         r"(?P<what>[^\W\d_]+(?:\s+[^\W\d_]+){0,2})")
#: Words that end what a counted noun counts ("16 species of birds *in* the order Piciformes").
_COUNTED_END = frozenset("in of on at from with by to and or that which worldwide de des du en et y o del que "
                         "had has have is are was were been be will would can could may might "
                         "est sont ont fut était es son fue fueron era".split())


def _counted_of(fact: NumericFact) -> str:
    """The head of what a counted noun (a unit :func:`_quantity` names as one) counts, written right after the
    number's raw text, or ``""``: "16 species of birds" is "bird"'s (a honeyguide's family beside the honey bees'
    "7–12 species of honey bees" had made "Number of species: Western honey bee, Honeyguide" in two reports on
    bees), "250 species in the genus Bombus" "bombus"'s.

    Args:
        fact: A fact whose unit is a counted noun.

    Returns:
        The last word of what it counts, stemmed, or ``""`` (a measure's unit, nothing written after it, or what
        its own article is on: "65 species of Pteropus" in *Pteropus*, "7–12 species of honey bees" in *Western
        honey bee*).
    """
    if not _quantity(fact.unit)[1]:
        return ""
    at = fact.sentence.find(fact.raw)
    found = _COUNTED_OF.match(fact.sentence[at + len(fact.raw):]) if at >= 0 else None
    if not found:
        return ""
    words = found.group("what").split()
    words = words[:next((i for i, w in enumerate(words) if i and w.lower() in _COUNTED_END), len(words))]
    what = stem(fold(words[-1]))
    # what its own article is of counts its own ("65 species of Pteropus" in *Pteropus*): as if nothing were written
    return "" if mentions(_tokens(_article_name(fact)), what) else what


def _covers(a: set[str], b: set[str]) -> bool:
    """Every token of ``a`` is one of ``b`` (or shares its first five letters)."""
    return bool(a) and all(_overlap({t}, b) for t in a)


def entity(fact: NumericFact) -> str:
    """The bar label of a fact in a chart that combines articles: what the number is about.

    The article's title (its bracketed disambiguation dropped: "Callisto
    (moon)" → "Callisto") when the sentence's subject is the article itself
    (the label and the title name the same thing: "Alcoholic beverages" in
    *Alcoholic beverage*), else the noun phrase the number is about ("Caloris
    Planitia" in *Mercury (planet)*).

    Args:
        fact: The fact.

    Returns:
        The label, never empty.
    """
    return _article_name(fact) if _about_article(fact) else fact.label


def _article_name(fact: NumericFact) -> str:
    return re.sub(r"\s*\([^)]*\)\s*$", "", fact.title).strip() or fact.title or fact.label


def _about_article(fact: NumericFact) -> bool:
    """The fact's sentence is about its article's own subject: its label names the article,
    names only the quantity ("Symptoms", :func:`~reportgen.charts.numbers.generic_label`),
    or is the article's own ("*Its installed capacity* is 14,000 MW")."""
    label, name = _tokens(fact.label), _tokens(_article_name(fact))
    if not label or _covers(label, name) or _covers(name, label) or generic_label(fact.label):
        return True
    return re.search(rf"\b(?:its|their|sa|son|ses|leur|leurs|su|sus)\s+{re.escape(fact.label)}", fact.sentence,
                     re.IGNORECASE) is not None


def _holds_subject(spec: ChartSpec, group: list[NumericFact], subject: str) -> bool:
    """A chart of several articles' numbers is a chart of the subject.

    It is when one bar is the subject's own (its label, or the name of the article it was read from, and the
    subject name each other, bracketed qualifiers aside: "Mercury" for *Mercury (planet)*, not "Crane" for
    *Crane fly*), when the quantity is the subject ("temperature": Titan's and Mars's; every word of it, so
    the numbers of islands of Denmark and the Bahamas are no chart of the Faroe Islands), or when every bar's
    article says in its opening sentence that it is a thing of the subject's head noun
    (:func:`~reportgen.agents.ranking.head_noun` in English word order, since charts are not told the
    language: "The Guri Dam is a hydroelectric dam" in a section on
    hydroelectricity; "Jupiter is the fifth planet" beside *Mercury (planet)*). Otherwise it compares other
    things: the species of megabats and of maples in a section on *Pteropus*, the diameters of Callisto and
    Mars in a section on the Moon, crane and black fly species under *Crane fly* (all found reading reports
    of issue 11). One article's numbers always pass.

    Args:
        spec: The chart.
        group: The facts the chart was drawn from (each point's quote and raw among them).
        subject: The section's subject (any script).

    Returns:
        Whether the chart may stand for the subject.
    """
    named = _tokens(re.sub(r"\s*\([^)]*\)\s*$", "", subject)) or _tokens(subject)
    if len({p.source_id for p in spec.points}) < 2 or not named:
        return True
    facts = [f for p in spec.points for f in group if f.raw == p.raw and f.sentence == p.quote]
    for f in facts:
        for name in (_tokens(f.label), _tokens(_article_name(f))):
            if _covers(named, name) and _covers(name, named):
                return True
        if f.kind and _covers(named, _tokens(f.kind)):  # "islands" is no chart of the Faroe Islands
            return True
    head = stem(head_noun(subject, "en"))
    return bool(facts) and bool(head) and all(mentions(terms(f.opening or f.sentence, "en"), head) for f in facts)


def _comparable_run(facts: list[NumericFact]) -> list[NumericFact]:
    """The facts, in rank order, that stay comparable with every one kept before them.

    Left out: a value printed in :data:`SHARED_VALUE_SOURCES` or more of the
    sources (a number every article repeats is not theirs), a negative or
    zero value (but for temperatures), a value more than :data:`MAX_SPREAD`
    times larger or smaller than one kept, and a dated value more than
    :data:`YEAR_WINDOW` years from the first dated one. Values that are all
    equal give nothing to compare (empty result).
    """
    sources: dict[float, set[str]] = defaultdict(set)
    for f in facts:
        sources[f.value].add(f.source_id)
    kept: list[NumericFact] = []
    for f in facts:
        if len(sources[f.value]) >= SHARED_VALUE_SOURCES:
            continue  # "one of the 88 modern constellations" in every constellation: no one's own number
        signed = f.unit in _SIGNED_UNITS
        if not signed and f.value <= 0:
            continue
        if not signed and any(max(f.value, k.value) > MAX_SPREAD * min(f.value, k.value) for k in kept):
            continue
        dated = next((k.year for k in kept if k.year is not None), None)
        if f.year is not None and dated is not None and abs(f.year - dated) > YEAR_WINDOW:
            continue
        kept.append(f)
    return kept if len({f.value for f in kept}) > 1 else []  # all equal: nothing to compare


#: Kinds of place an article's opening sentence defines its thing as (:func:`~reportgen.blueprint.planner.defined_kind`,
#: folded and stemmed), in English, French and Spanish, by class: places of different classes are not compared (a
#: reader found "Length: Ganges, Godavari River, Patna", a city's length among rivers'); a capital and a town are
#: both settlements.
PLACE_KINDS: dict[str, str] = {
    **dict.fromkeys("river fleuve riviere rio".split(), "watercourse"),
    **dict.fromkeys("city town village municipality commune capital capitale ville ciudad pueblo municipio".split(),
                    "settlement"),
    **dict.fromkeys("country nation pay pai".split(), "country"),
    **dict.fromkeys("state province region county etat estado provincia".split(), "division"),
    **dict.fromkeys("island ile isla".split(), "island"),
    **dict.fromkeys("lake lac lago".split(), "lake"),
    **dict.fromkeys("sea ocean mer mar oceano".split(), "sea"),
    **dict.fromkeys("mountain volcano montagne volcan montana".split(), "mountain"),
    **dict.fromkeys("desert desierto".split(), "desert"),
}


def _place_kind(fact: NumericFact, lang: str) -> str:
    """The class of place ``fact``'s article opens by defining its thing as (:data:`PLACE_KINDS`), or ``""``."""
    from reportgen.blueprint.planner import defined_kind  # the planner imports this package

    return PLACE_KINDS.get(defined_kind(fact.opening, lang), "") if fact.opening else ""


def _of_one_place_kind(group: list[NumericFact], lang: str) -> list[NumericFact]:
    """``group`` without the facts of articles on places of another kind than the best-ranked one whose kind is
    known (:func:`_place_kind`); facts of unknown kind stay."""
    kinds = [_place_kind(f, lang) for f in group]
    first = next((k for k in kinds if k), "")
    return [f for f, k in zip(group, kinds, strict=True) if not k or k == first]


def propose_chart(facts: list[NumericFact], subject: str, related: Iterable[NumericFact] = (), lang: str = "en"
                  ) -> ChartSpec | None:
    """Choose the best honest chart the facts allow, or none.

    Comparability rule — facts may share a chart only when they have the
    **same unit** (rates such as ``"GW/year"`` are units of their own;
    values are never converted, so ``MW`` and ``GW`` never meet) and the
    **same measure** (a length "long" is not a width "wide"), **and** either:

    1. they come from the **same sentence** (the author put them side by
       side) and the words there do not give them different kinds ("a
       diameter of 4,821 km ... at a distance of 1.883 million km");
       percentages in it must not name different wholes ("15% of
       electricity ... 30% of heat"); or
    2. they are the **same kind of quantity** (:func:`comparable_key`: the
       words around each number say "capacity", "population", "area"...;
       a share names the same whole), each is about the subject (a token of
       ``subject``, or a 5+ letter prefix of one, occurs in its sentence) or
       is one of ``related`` (numbers of passages the caller found related
       to the subject), and the values are of a similar magnitude
       and time (:func:`_comparable_run`: within :data:`MAX_SPREAD` of each
       other, dated within :data:`YEAR_WINDOW` years, no negative value but
       for temperatures). Numbers of several articles must each be about
       their own article or name the subject in their label ("Callisto is
       4,821 km across" in *Callisto*, not a crater's size in *Mercury*),
       and one of the bars must be the subject's own (:func:`_holds_subject`); articles on places of
       different kinds (:data:`PLACE_KINDS`: a city and a river) are not compared.
       This is how the installed capacity of several
       dams, or the populations of several cities, read from their own
       articles, make one chart, each bar cited to its own source and
       labelled by what it is about (:func:`entity`).

    Same unit alone is not enough: two sentences, even of one article, often
    give the same unit for different things (a river's length and its
    navigable stretch; people killed and people living), which the corpus
    check of the English Wikipedia summaries showed to be the common case.
    Ratios (unit ``"times"``) are never charted.

    Within a group, facts with one label and at least two distinct years make
    a ``line`` chart (x = year, ascending; the first fact per year is kept);
    otherwise a ``bar`` chart with one bar per distinct label (years appended
    when they differ; a label that repeats without a year to tell its values
    apart is dropped; at most :data:`MAX_BARS` bars, in source order).

    Candidates are ranked by: any fact relevant to the subject, then
    same-sentence over combined, then number of points, then share of
    relevant facts, then earliest fact (callers pass facts in search-rank
    order).

    Args:
        facts: Facts from :func:`~reportgen.charts.numbers.extract_facts`,
            best-ranked source first.
        subject: The section or report topic (free text, any script).
        related: Facts of passages related to the subject that may join a
            chart of several articles' numbers (rule 2) though their sentence
            does not name the subject; never charted on their own (default none).
        lang: The report language: the title's and axes' words are in it (:func:`reportgen.i18n.chart_word`;
            "Largeur : Mer Caspienne, …" in French, not "Width").

    Returns:
        The chart spec, or ``None`` when no group has two comparable points
        (the plot agent reports ACP 605 INCOMPLETE_INFORMATION then).
    """
    subject_tokens = _tokens(subject)

    def chartable(f: NumericFact) -> bool:
        return f.unit not in _UNCHARTABLE and math.isfinite(f.value) and (f.high is None or math.isfinite(f.high))

    facts = [f for f in facts if chartable(f)]
    joining = [f for f in facts if _relevant(f, subject_tokens)]
    seen = {(f.source_id, f.sentence, f.raw) for f in joining}
    for f in related:
        if chartable(f) and (f.source_id, f.sentence, f.raw) not in seen:
            seen.add((f.source_id, f.sentence, f.raw))
            joining.append(f)
    order = {id(f): i for i, f in enumerate([*facts, *joining])}

    by_sentence: dict[tuple[str, str, str, str], list[NumericFact]] = defaultdict(list)
    by_kind: dict[tuple[str, str, str], list[NumericFact]] = defaultdict(list)
    for f in facts:
        by_sentence[(f.source_id, f.sentence, f.unit, f.measure)].append(f)
    for f in joining:
        key = comparable_key(f)
        if key is not None:
            by_kind[key].append(f)
    groups: list[tuple[int, str, list[NumericFact]]] = []
    for group in by_sentence.values():
        kinds = {f.kind for f in group if f.kind}
        if len(kinds) > 1:  # the words give different kinds: one group per kind
            groups += [(1, "", [f for f in group if f.kind == kind]) for kind in kinds]
            continue
        bases = {f.base for f in group if f.base}
        if group[0].unit in _SHARE_UNITS and len(bases) > 1:
            for base in bases:  # different wholes: one group per whole
                groups.append((1, "", [f for f in group if f.base == base]))
        else:
            groups.append((1, "", group))
    for key, group in by_kind.items():
        if len({f.source_id for f in group}) > 1:  # across articles: each about its article or the subject,
            # and of one kind of place (a city's length is not compared with rivers')
            group = _of_one_place_kind([f for f in group if _about_article(f) or _overlap(subject_tokens,
                                                                                           _tokens(f.label))], lang)
        run = _comparable_run(group)
        labelled = [f.model_copy(update={"label": entity(f)}) for f in run]
        order.update({id(c): order[id(f)] for c, f in zip(labelled, run, strict=True)})
        groups.append((0, key[2], labelled))

    best: tuple[tuple, ChartSpec] | None = None
    for tier, kind, group in groups:
        if len(group) < 2:
            continue
        for spec in _specs(group, subject, kind, lang):
            if tier == 0 and not _holds_subject(spec, group, subject):
                continue  # other things' numbers side by side, none of them the subject's
            used = [
                f
                for f in group
                if any(p.raw == f.raw and p.quote == f.sentence for p in spec.points)
            ]
            relevant = sum(_relevant(f, subject_tokens) for f in used)
            score = (
                relevant > 0,
                tier,
                len(spec.points),
                relevant / max(len(used), 1),
                -min(order[id(f)] for f in used),
            )
            if best is None or score > best[0]:
                best = (score, spec)
    return best[1] if best else None


def caption(spec: ChartSpec, lang: str = "en") -> str:
    """A plain-text caption for a chart.

    Args:
        spec: The chart.
        lang: The report language (``"by year"`` in it, :func:`reportgen.i18n.chart_word`).

    Returns:
        The title, ``"by year"`` for line charts, and the unit in brackets
        unless the title already names it (counted nouns such as
        "countries"): ``"Geothermal power: number of countries"``,
        ``"Hydropower: energy by year (TWh)"``. A timeline's caption is its
        title and the span of its years as the sources write them
        (``"Key dates: Penicillin, 1928–1945"``, ``"..., 500 BC–1453"``).
    """
    text = spec.title
    if spec.kind == "timeline":
        return f"{text}, {_year_text(spec.points[0])}–{_year_text(spec.points[-1])}"
    if spec.kind == "line":
        text = chart_word("{what} by year", lang, what=text)
    if spec.unit.casefold() not in text.casefold():
        text += f" ({spec.unit})"
    return text


_ERA_END_RE = re.compile(r"(BCE|BC|bce|bc|B\.\s?C\.(?:\s?E\.)?|av\.\s*J\.-?C\.|a\.\s*C\.|a\.C\.)\s*$")


def _year_text(point: ChartPoint) -> str:
    """A timeline point's year as its source writes it, one year even when the source gives a range
    ("753–509 BC" is 753 BC in a caption, so the span does not read "753–509 BC–1590")."""
    if len(re.findall(r"\d+", point.raw)) < 2:
        return point.raw
    if point.value < 0:
        era = _ERA_END_RE.search(point.raw)
        return f"{-int(point.value)} {era.group(1) if era else 'BC'}"
    return str(int(point.value))
