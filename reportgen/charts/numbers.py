"""Numbers found in source text: the only values a chart may plot.

:func:`extract_facts` scans passages sentence by sentence with regular
expressions (no model) and returns one :class:`NumericFact` per quantity it
can name: the value, the exact substring it was read from (``raw``), a
normalised unit, a short label of what was measured, a year when the same
clause gives one, and the sentence it came from. The plot agent's rule — *a
chart never shows a number that is not in a cited source* — rests on
``raw`` being a verbatim substring of ``sentence``, and ``sentence`` of the
passage text.

What is deliberately **not** a fact (better no chart than a wrong one):

* years and dates (``1901``, ``in 2023``, ``30 March 1949``, ``1960s``,
  ``500 BC``);
* ordinals (``20th century``, ``1er``, ``2e``, ``1.º``);
* numbers inside names and identifiers (``Voyager 2``, ``COVID-19``,
  ``CO2``, ``helium-4``, ``Type 1``, ``group 18``), compound adjectives
  (``a 69-year career``), scientific notation (``7×10−30``);
* numbers with no unit or counted noun (nothing honest to put on an axis);
* a bare four-digit number from 1000 to 2100 not followed by a measurement
  unit ("in 1877 fossils", "a 1952 novella"): read as a year;
* a bracketed conversion right after a quantity ("40 miles (64 km)");
* the whole a sentence opens on to divide ("Of the estimated 70–85 million
  deaths attributed to the war, around 30 million occurred on the Eastern
  Front"): it is the whole's, which the sentence does not name as its subject;
* the ends of a span of a class written "from … to …" with no year ("from
  six-metre (20 ft) inflatable dive boats … to 300-metre (1,000 ft) oil
  tankers"): the bounds of a class's sizes, not two things' own figures.

Units and context: a rate after the unit becomes part of it (``"117 GW added
each year"`` → ``"GW/year"``); a percentage records the whole it is a share
of (``base``); a length records what it measures (``measure``: "long",
"wide", "deep", ...); a hedge before the number is kept (``qualifier``);
the words around the number give its ``kind`` ("installed capacity" →
``capacity``, "home to" → ``population``, :func:`quantity_kind`), which decides
whether numbers of different articles may share a chart.
Labels come from the clause's subject, cut at its verb (a small lexicon of
verbs per language plus an English "-s/-ed before a number" rule), with
leading conjunctions, determiners and adverbs stripped; "it"/"the dam"
become the passage title; "X and Y ... 27% and 5%, respectively" pairs them
up; a number in brackets takes the noun before it ("methane (95%)").

Known limit: a source that lost its superscripts ("104 eV" for 10⁴ eV) is
read as written — the value is faithful to the text, not to the truth.

Ranges (``25 to 35 percent``, ``30–60 species``, ``entre 50 000 et 70 000
morts``) are kept as **one** fact: ``value`` is the lower bound, ``high`` the
upper one, and ``raw`` spans the whole range as written.

Number formats follow the passage language: English ``4,210.5``; in
decimal-comma languages (fr, es, de, it, pt, ...) ``4 210`` / ``4.210`` are
thousands and ``2,5`` is a decimal, while ``16.7`` (not exactly three digits
after the point, as Spanish Wikipedia often writes it) stays a decimal. Multipliers
(``million``, ``milliards``, ``millones``, ``mil millones``, ...) scale
``value``; ``raw`` keeps the words as written. Values stay in the unit the
source wrote (``22,500 MW`` is never converted to GW), so nothing plotted is
a derived number.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from pydantic import BaseModel

from reportgen.sources.models import Passage
from reportgen.sources.text import split_sentences

__all__ = [
    "NumericFact",
    "PrintedValue",
    "extract_facts",
    "normalise_unit",
    "parse_number",
    "printed_quantities",
    "generic_label",
    "printed_values",
    "printed_years",
    "quantity_kind",
    "same_unit",
]


class NumericFact(BaseModel):
    """One quantity read from a sentence of a source.

    Attributes:
        value: The number, multipliers applied (``"4.6 billion years"`` →
            ``4.6e9``), in the unit written in the source.
        high: Upper bound when the source gives a range (``"25 to 35
            percent"`` → ``value=25, high=35``), else ``None``.
        raw: The exact substring of ``sentence`` the value was read from
            (``"4,210 TWh"``, ``"15%"``, ``"26 countries"``).
        unit: Normalised unit: ``"%"``, ``"TWh"``, ``"GW"``, ``"km"``,
            ``"°C"``, ``"USD"``, ``"countries"``, ``"people"``, ``"years"``,
            ``"years ago"``, or the counted noun as written (``"extant
            species"``). A rate adds a suffix: ``"GW/year"``.
        label: Short plain-text label of what was measured, from the
            sentence's subject (``"Geothermal heating"``); the passage title
            when the sentence only says "it".
        year: A year given in the same clause (``"4,210 TWh in 2023"`` →
            2023), else ``None``.
        sentence: The whole sentence, verbatim from the passage text.
        source_id: Id of the source document.
        title: Title of the source document.
        url: Citable URL of the source document.
        qualifier: Hedge written before the number (``"almost"``,
            ``"more than"``), lower-cased; ``""`` when none.
        base: For percentages, the whole it is a share of when the sentence
            says (``"15% of the world's electricity"`` → ``"world's
            electricity"``), lower-cased; else ``""``.
        measure: The dimension a length-like value measures when the sentence
            says (``"277 miles (446 km) long"`` → ``"length"``; also
            ``"width"``, ``"depth"``, ``"height"``, ``"diameter"``, ...),
            else ``""``. Two lengths with different measures are not
            comparable.
        opening: The first sentence of the passage the fact was read from
            (what its article says it is: "The Guri Dam is a hydroelectric
            dam in Venezuela"); ``""`` when not known.
        kind: What kind of quantity the value is, read from the words around
            it (:func:`quantity_kind`): ``"capacity"``, ``"population"``,
            ``"production"``, ``"distance"``, ``"area"``, ... ; ``""`` when
            the words do not say. Numbers of different articles are charted
            together only when their kinds are the same and not ``""``.
    """

    value: float
    high: float | None = None
    raw: str
    unit: str
    label: str
    year: int | None = None
    sentence: str
    source_id: str
    title: str
    url: str
    qualifier: str = ""
    base: str = ""
    measure: str = ""
    kind: str = ""
    opening: str = ""


# --------------------------------------------------------------------------
# Language data
# --------------------------------------------------------------------------

_SPACES = " \u00a0\u202f\u2009"
_WORD = r"[^\W\d_][^\W\d_'’\-]*(?:['’\-][^\W\d_]+)*"

_MONTHS = frozenset(
    """january february march april may june july august september october
    november december jan feb mar apr jun jul aug sep sept oct nov dec
    janvier février fevrier mars avril mai juin juillet août aout septembre
    octobre novembre décembre decembre enero febrero marzo abril mayo junio
    julio agosto septiembre setiembre octubre noviembre diciembre""".split()
)

_MULTIPLIERS: dict[str, float] = {
    "thousand": 1e3,
    "thousands": 1e3,
    "million": 1e6,
    "millions": 1e6,
    "billion": 1e9,
    "billions": 1e9,
    "trillion": 1e12,
    "trillions": 1e12,
    "milliard": 1e9,
    "milliards": 1e9,
    "millón": 1e6,
    "millon": 1e6,
    "millones": 1e6,
    "mil millones": 1e9,
    "billón": 1e12,
    "billones": 1e12,
    "mil": 1e3,
}
#: Languages whose "billion" is 10**12 (the long scale).
_LONG_SCALE = frozenset({"fr", "es", "de", "it", "pt", "nl"})
#: Languages writing "2,5" for two and a half.
_DECIMAL_COMMA = frozenset(
    {"fr", "es", "de", "it", "pt", "nl", "ru", "pl", "cs", "sv", "da", "nb", "fi", "tr"}
)

# (pattern, canonical unit). Abbreviations are case-sensitive and may touch the
# number ("15%", "10km"); words are case-insensitive and follow a space.
_ABBREVIATIONS: list[tuple[str, str]] = [
    (r"%", "%"),
    (r"‰", "‰"),
    (r"TWh", "TWh"), (r"GWh", "GWh"), (r"MWh", "MWh"), (r"kWh", "kWh"),
    (r"TW", "TW"), (r"GW", "GW"), (r"MW", "MW"), (r"kW", "kW"),
    (r"km²|km2", "km²"), (r"km/h", "km/h"), (r"km", "km"), (r"mph", "mph"),
    (r"m/s", "m/s"), (r"m²|m2", "m²"), (r"m³|m3", "m³"),
    (r"cm", "cm"), (r"mm", "mm"), (r"µm|μm", "µm"), (r"nm", "nm"), (r"m", "m"),
    (r"ft²|ft2|sq\s?ft", "sq ft"), (r"ft", "ft"), (r"mi", "mi"), (r"ha", "ha"),
    (r"kg", "kg"), (r"Mt", "Mt"), (r"Gt", "Gt"),
    (r"°\s?C", "°C"), (r"°\s?F", "°F"), (r"K", "K"),
    (r"TeV", "TeV"), (r"GeV", "GeV"), (r"MeV", "MeV"), (r"keV", "keV"), (r"eV", "eV"),
    (r"GJ", "GJ"), (r"MJ", "MJ"), (r"kJ", "kJ"), (r"J", "J"),
    (r"kV", "kV"), (r"V", "V"), (r"GHz", "GHz"), (r"MHz", "MHz"), (r"kHz", "kHz"),
    (r"Hz", "Hz"), (r"AU", "AU"), (r"ppm", "ppm"), (r"ppb", "ppb"), (r"dB", "dB"),
    (r"USD", "USD"), (r"EUR", "EUR"), (r"GBP", "GBP"), (r"€", "EUR"),
    (r"W", "W"), (r"g", "g"),
]
_WORD_UNITS: list[tuple[str, str]] = [
    (r"per\s?cent|percent|pour\s?cent|por\s+ciento|por\s+cien|pourcents?", "%"),
    (r"terawatt[\s-]hours?|térawattheures?|teravatios[\s-]hora", "TWh"),
    (r"gigawatt[\s-]hours?|gigawattheures?|gigavatios[\s-]hora", "GWh"),
    (r"megawatt[\s-]hours?|mégawattheures?|megavatios[\s-]hora", "MWh"),
    (r"kilowatt[\s-]hours?|kilowattheures?|kilovatios[\s-]hora", "kWh"),
    (r"terawatts?|térawatts?|teravatios?", "TW"),
    (r"gigawatts?|gigavatios?", "GW"),
    (r"megawatts?|mégawatts?|megavatios?", "MW"),
    (r"kilowatts?|kilovatios?", "kW"),
    (
        r"square\s+kilomet(?:re|er)s?|kilomètres?\s+carrés|kilómetros?\s+cuadrados?",
        "km²",
    ),
    (r"square\s+miles?", "sq mi"),
    (r"kilomet(?:re|er)s?|kilomètres?|kilómetros?", "km"),
    (r"centimet(?:re|er)s?|centimètres?|centímetros?", "cm"),
    (r"millimet(?:re|er)s?|millimètres?|milímetros?", "mm"),
    (r"micromet(?:re|er)s?|micromètres?|micrómetros?", "µm"),
    (r"nanomet(?:re|er)s?|nanomètres?|nanómetros?", "nm"),
    (r"met(?:re|er)s|mètres|metros", "m"),
    (r"miles", "mi"),
    (r"square\s+feet", "sq ft"),
    (r"feet|foot", "ft"),
    (r"hectares?|hectáreas?", "ha"),
    (r"metric\s+tons|tonnes|tons|toneladas", "t"),
    (r"kilogram(?:me)?s|kilogramos", "kg"),
    (r"grams|grammes|gramos", "g"),
    (r"degrees\s+celsius|degrés\s+celsius|grados\s+celsius|degrees\s+centigrade", "°C"),
    (r"degrees\s+fahrenheit|degrés\s+fahrenheit|grados\s+fahrenheit", "°F"),
    (r"kelvins?", "K"),
    (r"light[\s-]years?|années[\s-]lumière|años[\s-]luz", "ly"),
    (r"astronomical\s+units?|unités\s+astronomiques", "AU"),
    (r"electronvolts?|électronvolts?", "eV"),
    (r"volts?|voltios?", "V"),
    (r"joules?|julios?", "J"),
    (r"hertz", "Hz"),
    (r"(?:us\s+)?dollars?(?:\s+américains)?|dólares(?:\s+estadounidenses)?", "USD"),
    (r"euros?", "EUR"),
]

# Counted nouns with a canonical name across languages.
_NOUN_UNITS: dict[str, str] = {
    **dict.fromkeys(["countries", "country", "nations", "pays", "países", "país"], "countries"),
    **dict.fromkeys(
        [
            "people", "persons", "inhabitants", "residents", "individuals",
            "habitants", "personnes", "personas", "habitantes",
        ],
        "people",
    ),
    **dict.fromkeys(["years", "year", "ans", "années", "años", "año"], "years"),
}

_IRREGULAR_PLURALS = frozenset(
    """people children men women feet teeth mice geese data phenomena criteria
    genera bacteria media personnel staff cattle police""".split()
)

_STOP = frozenset(
    """a an the of in on at to for from by with without about as than then that
    this these those which who whom whose where when while whereas and or but nor
    so yet if because since until after before during into onto over under
    between among per via around across through within is are was were be been
    being has have had do does did will would can could may might must shall
    should its their his her our your my it they he she we you i not no only
    also both each every all some any more most less least such other same own
    very too just about almost nearly approximately roughly ago respectively
    le la les l un une des du de d au aux en et ou mais dont qui que quoi où par
    pour sur sous dans avec sans entre vers chez est sont était étaient a ont
    ce cet cette ces son sa ses leur leurs plus moins environ près soit
    el los las lo unos unas del y o pero que quien donde por para sobre con sin
    entre hacia desde hasta es son era eran fue fueron ha han su sus más menos
    cerca unos alrededor casi autre autres otro otros otra otras other others""".split()
)

_PREPOSITIONS = frozenset(
    """in on at to for from by with without about as after before during since
    until into over under between among through within across around beyond
    despite following according unlike like near toward towards upon via
    en à a au aux dans sur sous par pour avec sans entre vers depuis après avant
    pendant selon chez de du des desde hasta hacia tras durante según con sin
    sobre bajo ante para por""".split()
)

_CONJUNCTIONS = frozenset(
    """and or but nor so yet while whereas although though however thus
    therefore hence if et ou mais donc or ni tandis alors que si y e o u pero
    sino aunque mientras""".split()
)

_RELATIVES = frozenset("which who whom whose that where qui que dont où donde quien cual".split())
#: A segment giving another name of what the sentence opens on ("Association football, *commonly known as
#: football or soccer*, is a team sport played between two teams of 11 players"; "…, *or more simply football or
#: footy*, is …"; French "aussi appelé", Spanish "también llamado"): no subject of its own. A chart had labelled
#: its bars "Commonly known as football or soccer" and "More simply footy or just football".
_RENAMING = re.compile(
    r"^(?:(?:or|ou|o)\s+)?(?:(?:more\s+)?simply\b|(?:(?:commonly|also|often|officially|formerly|usually|sometimes|"
    r"popularly|aussi|également|communément|souvent|officiellement|simplement|también|comúnmente|oficialmente|"
    r"simplemente)\s+)?(?:known\s+as|called|named|nicknamed|termed|dit|"
    r"(?:appel|nomm|surnomm|connu|llamad|conocid|denominad)\w*)\b)",
    re.IGNORECASE,
)


def _renaming(segment_text: str) -> bool:
    """Whether a segment only gives another name of the sentence's subject (:data:`_RENAMING`): a naming verb,
    after an adverb of naming or not, or "(or) (more) simply"."""
    return _RENAMING.match(segment_text.strip()) is not None

_PRONOUNS = frozenset(
    """it its they them he she this these those that there here which
    il elle ils elles on ce cela ceci celle celui celles ceux
    eux lui él ella ellos ellas esto esta este estos estas eso esa ese""".split()
)

_DETERMINERS = frozenset(
    """the a an its their his her this these those that our
    le la les l' l’ un une des du son sa ses leur leurs ce cet cette ces
    el la los las un una unos unas su sus este esta estos estas""".split()
)

_ADVERBS = frozenset(
    """now currently presently today still also already only just even
    typically generally usually mostly mainly largely primarily chiefly
    roughly approximately about nearly almost around some over
    actuellement aujourd'hui aujourd’hui aussi encore déjà environ bien
    actualmente hoy también ya aproximadamente""".split()
)

_QUALIFIER_RE = re.compile(
    r"(?:^|[\s(])(?P<q>just\s+over|just\s+under|more\s+than|less\s+than|fewer\s+than|"
    r"at\s+least|at\s+most|up\s+to|almost|nearly|about|around|approximately|roughly|"
    r"over|under|some|circa|c\.|ca\.|"
    r"plus\s+de|moins\s+de|près\s+de|environ|presque|quelque|jusqu['’]à|"
    r"más\s+de|menos\s+de|cerca\s+de|alrededor\s+de|aproximadamente|casi|unos|unas|hasta)"
    r"\s+$",
    re.IGNORECASE,
)

#: The same hedges at the end of a text, without eating the character before.
_QUALIFIER_TAIL_RE = re.compile(
    _QUALIFIER_RE.pattern.replace("(?:^|[\\s(])", "(?:^|(?<=[\\s(]))"), re.IGNORECASE
)

_ID_NOUNS = frozenset(
    """group type class number no no. phase stage level version chapter article
    section page route flight line platform volume vol vol. episode season act
    part figure table grade category gate channel model mark series pier
    groupe numéro chapitre grupo número capítulo tipo clase""".split()
)

_FUNCTION_CAPITALS = frozenset(w.capitalize() for w in _STOP | _PREPOSITIONS | _ADVERBS) | {
    "Over", "Under", "About", "Some", "Around", "Nearly", "Almost", "Roughly",
    "Approximately", "Only", "Just", "More", "Less", "Fewer", "Up", "Between",
    "From", "By", "Since", "Until", "As", "With", "Of", "In", "At", "To", "For",
    "Environ", "Près", "Plus", "Moins", "Selon", "Avec", "Sur", "Entre", "Depuis",
    "En", "Casi", "Más", "Menos", "Unos", "Unas", "Cerca", "Alrededor", "Hasta",
    "Desde", "Con", "Según", "Aproximadamente", "Hacia",
}

_VERBS: dict[str, frozenset[str]] = {
    "en": frozenset(
        """is are was were be been has have had will would can could may might
        must shall should does do did supplies supply supplied provides provide
        provided produces produce produced generates generate generated accounts
        account accounted makes make made represents represent represented
        contains contain contained uses use used reached reaches reach rose
        rises fell falls grew grows increased increases decreased decreases
        declined declines stood stands totals totaled totalled comprises
        comprise comprised covers cover covered employs employ employed exceeds
        exceed exceeded holds hold held consumes consume consumed emits emit
        emitted contributes contribute contributed amounts amount amounted ranks
        ranked lies lie lay became becomes become remains remain remained
        includes include included hosts hosted spans spanned measures measured
        weighs weighed weigh numbered serves served sold sells sell recorded
        killed kills kill affects affected dominates dominate dominated occupies
        occupied reaching gets got achieved achieves generating producing
        supplying providing require requires required needs needed began
        begun begins started starts ended ends occurred occurs occur happened
        took takes came comes went goes found finds formed forms lasted lasts
        lived lives died dies won wins lost loses built builds""".split()
    ),
    "fr": frozenset(
        """est sont était étaient a ont avait avaient fut furent sera seront
        représente représentent représentait produit produisent produisait
        fournit fournissent fournissait compte comptent comptait atteint
        atteignent atteignait dépasse dépassent génère génèrent contient
        utilise utilisent comprend comprennent regroupe regroupent fit fait
        font vend vendu possède couvre mesure pèse totalise emploie accueille
        abrite se s' s’ constitue constituent assure assurent aurait auraient
        serait seraient vit vivait vécut compterait""".split()
    ),
    "es": frozenset(
        """es son era eran fue fueron será serán ha han había habían tiene
        tienen tenía representa representan representaba produce producen
        produjo genera generan generó suministra cuenta cuentan contaba alcanza
        alcanzó alcanzan supera superan superó contiene utiliza utilizan usa
        usan se comprende vendió vendieron posee abarca abarcaba mide pesa
        aporta aportan constituye constituyen ocupa""".split()
    ),
}

_PARTICIPLE: dict[str, re.Pattern[str]] = {
    "en": re.compile(r"^(?:[a-z]+ing|[a-z]+ed|known|set|held|seen|given|taken)$"),
    "fr": re.compile(r"^[a-zà-ÿ]+(?:é|ée|és|ées|u|ue|us|ues|ant)$"),
    "es": re.compile(r"^[a-záéíóúñ]+(?:ado|ada|ados|adas|ido|ida|idos|idas|ando|iendo)$"),
}

_RATES: list[tuple[str, str]] = [
    (
        r"per\s+year|a\s+year|each\s+year|every\s+year|annually|per\s+annum|/\s?yr|/\s?year|"
        r"par\s+an|par\s+année|chaque\s+année|annuellement|al\s+año|por\s+año|cada\s+año|"
        r"anuales|anual|anualmente",
        "/year",
    ),
    (r"per\s+day|a\s+day|each\s+day|every\s+day|par\s+jour|al\s+día|por\s+día|diarios", "/day"),
    (r"per\s+hour|an\s+hour|/\s?h\b|par\s+heure|por\s+hora", "/h"),
    (r"per\s+second|a\s+second|/\s?s\b|par\s+seconde|por\s+segundo", "/s"),
    (r"per\s+capita|par\s+habitant|per\s+person|por\s+habitante|per\s+inhabitant", "/person"),
]
_RATE_RE = re.compile(
    r"^[\s,]*(?:of\s+\w+\s+|d['’]\w+\s+|de\s+\w+\s+)?(?:[a-z]+ed\s+)?(?:"
    + "|".join(f"(?P<r{i}>{p})" for i, (p, _) in enumerate(_RATES))
    + r")(?![^\W\d_])",
    re.IGNORECASE,
)

_YEAR_RE = re.compile(r"(?<![\d.,\w\-])(1[0-9]{3}|20[0-9]{2})(?![\d\w]|[.,]\d|-[^\W\d_])")
_YEAR_AFTER_RE = re.compile(
    r"^[\s,]*(?:in|en|during|durante|as\s+of|by|para|pour|\(|en\s+el\s+año|in\s+the\s+year)"
    r"\s*(1[0-9]{3}|20[0-9]{2})(?!\d)",
    re.IGNORECASE,
)
_ERA_RE = re.compile(r"^\s*(?:(?:BCE|BC|AD|CE|bce|bc)(?!\w)|B\.\s?C\.(?:\s?E\.)?|A\.\s?D\.|C\.\s?E\.|"
                     r"av\.\s*J\.|apr\.\s*J\.|a\.\s*C\.|d\.\s*C\.|a\.C\.|d\.C\.)")


@dataclass(frozen=True)
class _Lang:
    code: str
    body: str  # the number pattern without context guards
    number: re.Pattern[str]
    decimal_comma: bool
    long_scale: bool
    verbs: frozenset[str]


@lru_cache(maxsize=16)
def _lang(lang: str) -> _Lang:
    code = (lang or "en").split("-")[0].split("_")[0].lower() or "en"
    decimal_comma = code in _DECIMAL_COMMA
    if decimal_comma:
        sp = f"[{_SPACES}]"
        body = (
            rf"\d{{1,3}}(?:{sp}\d{{3}})+(?:,\d+)?"
            r"|\d{1,3}(?:\.\d{3})+(?:,\d+)?"
            r"|\d+(?:[.,]\d+)?"
        )
    else:
        body = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
    number = re.compile(rf"(?<![\w.,])(?:{body})(?![.,]?\d)")
    return _Lang(
        code=code,
        body=body,
        number=number,
        decimal_comma=decimal_comma,
        long_scale=code in _LONG_SCALE,
        verbs=_VERBS.get(code, _VERBS["en"]),
    )


def _parse_number(text: str, lang: _Lang) -> float:
    s = re.sub(f"[{_SPACES}]", "", text)
    if lang.decimal_comma:
        if re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?", s):
            s = s.replace(".", "")
        s = s.replace(",", ".")
    else:
        s = s.replace(",", "")
    return float(s)


#: Longest text :func:`parse_number` reads, in characters: a longer cell is
#: not one number a person wrote.
_MAX_NUMBER_CHARS = 64


def parse_number(text: str, lang: str = "en") -> float | None:
    """Read ``text`` as exactly one number written the way ``lang`` writes numbers.

    The same reader :func:`extract_facts` uses, for a whole string such as a
    table cell: English ``"1,136"`` is 1136, French ``"2,5"`` is 2.5,
    ``"1 200"`` (space, no-break or thin space) is 1200 in every language.
    A leading ``-``, ``+`` or ``"−"`` (U+2212) sets the sign and one trailing
    ``%`` is allowed (``"12.5 %"`` → 12.5, the percentage as written).

    Args:
        text: The candidate, e.g. a cell as printed; surrounding whitespace
            is ignored.
        lang: BCP 47 language of the text (``"en"``, ``"fr"``, ``"es-ES"``);
            decides whether ``","`` is a decimal mark.

    Returns:
        The value, or ``None`` when ``text`` is not one finite number (words,
        units, ranges, ``"inf"``, ``"NaN"``, scientific notation, empty, or
        longer than 64 characters).
    """
    profile = _lang(lang)
    s = (text or "").strip(_SPACES + "\t\r\n")
    if len(s) > _MAX_NUMBER_CHARS:
        return None
    sign = 1.0
    if s[:1] in ("-", "+", "\u2212"):
        sign = -1.0 if s[0] != "+" else 1.0
        s = s[1:]
    if s.endswith("%"):
        s = s[:-1].rstrip(_SPACES)
    mark = "," if profile.decimal_comma else r"\."
    spaced = rf"\d{{1,3}}(?:[{_SPACES}]\d{{3}})+(?:{mark}\d+)?"
    if not (re.fullmatch(profile.body, s) or re.fullmatch(spaced, s)):
        return None
    value = _parse_number(s, profile)
    return sign * value if math.isfinite(value) else None


# --------------------------------------------------------------------------
# Sentences and clause segments
# --------------------------------------------------------------------------

def printed_values(text: str, lang: str = "en") -> list[tuple[str, float]]:
    """Every number printed in ``text``, read the way :func:`extract_facts` reads it.

    The one quantity reader of both brains: a chart value a model proposes is
    accepted only if this reads the same value from its cited source, so the
    extractive and model checks never disagree. Locale-aware separators
    (English ``"1,136"`` is 1136; French ``"2,5"`` is 2.5), a leading ``-`` or
    ``"−"`` keeps its sign, and a multiplier word gives a second reading
    (``"2,5 milliards"`` is 2.5 and 2.5e9; long-scale ``billion`` where the
    language uses it).

    Args:
        text: Any text (a sentence, a table row).
        lang: BCP 47 language of the text.

    Returns:
        ``(raw, value)`` pairs in reading order, ``raw`` being the text as
        printed (sign and multiplier word included when applied).
    """
    return [(q.raw, q.value) for q in printed_quantities(text, lang)]


@dataclass(frozen=True)
class PrintedValue:
    """One reading of a number printed in a text (see :func:`printed_quantities`).

    Attributes:
        raw: The text as printed (sign and multiplier word included when applied).
        value: The value read.
        unit: The normalised unit printed beside it (``"GW"``, ``"%"``,
            ``"°C"``, ``"USD"``, a counted noun), or ``None``.
        year_like: A bare four-digit integer from 1000 to 2100 with no unit
            beside it: a year, not a quantity.
    """

    raw: str
    value: float
    unit: str | None
    year_like: bool


def printed_quantities(text: str, lang: str = "en") -> list[PrintedValue]:
    """Every number printed in ``text`` with the unit printed beside it.

    The one reading of printed numbers (:func:`printed_values` is its
    ``(raw, value)`` view): locale separators, signs and multiplier words; the
    unit is read by the same rules as
    :func:`extract_facts` (abbreviations, unit words, a currency sign before
    the number, a counted noun after it). The first number of a range is
    read with the multiplier and unit printed after its last too, as
    :func:`extract_facts` reads it: "70–85 million deaths" prints 70 million
    deaths (the World War I report's chart had been refused by the verifier).

    Args:
        text: Any text (a sentence, a table row).
        lang: BCP 47 language of the text.

    Returns:
        The readings in reading order.
    """
    profile = _lang(lang)
    out: list[PrintedValue] = []
    for m in profile.number.finditer(text):
        start, end = m.span()
        try:
            value = _parse_number(m.group(0), profile)
        except ValueError:
            continue
        if not math.isfinite(value):
            continue
        signed = start > 0 and text[start - 1] in "−-" and (start < 2 or text[start - 2] in " (  ")
        if signed:
            value, start = -value, start - 1
        currency = _CURRENCY_BEFORE_RE.search(text[:start])
        unit, mult, _ = _read_unit(text, end, value, profile)
        if unit is None and currency:
            unit = _CURRENCY_UNITS.get(currency.group("c").strip(), currency.group("c").strip())
        year_like = not signed and unit is None and _is_year_number(m.group(0))
        out.append(PrintedValue(text[start:end], value, unit, year_like))
        second = _read_range(text, end, start, profile)
        if second is not None:  # "70–85 million deaths": the range's multiplier and unit are its first number's too
            range_unit, range_mult, range_end = _read_unit(text, second[1], value, profile)
            if range_mult != 1.0 or unit is None and range_unit is not None:
                out.append(PrintedValue(text[start:range_end].rstrip(), value * range_mult, range_unit, False))
        mm = _MULT_RE.match(text[end:])
        if mm:
            word = re.sub(r"\s+", " ", mm.group("m").lower())
            factor = _MULTIPLIERS.get(word)
            if word in {"billion", "billions"} and profile.long_scale:
                factor = 1e12
            if factor is not None and not (word == "mil" and profile.code != "es"):
                out.append(PrintedValue(text[start: end + mm.end("m")], value * factor, unit, False))
    return out


#: Era words after a number: those that count backwards make the year negative.
_BEFORE_ERA_RE = re.compile(r"^\s*(?:(?:BCE|BC|bce|bc)(?!\w)|B\.\s?C\.(?:\s?E\.)?|av\.\s*J\.|a\.\s*C\.|a\.C\.)")
#: A number of 1-4 digits that an era word may follow ("500 BC", "79 AD", "52 av. J.-C.").
_ERA_YEAR_RE = re.compile(r"(?<![\d.,\w\-])(\d{1,4})(?![\d\w]|[.,]\d)")
#: The start of a range whose end is BC: "1800 - 1500 BCE", "3000 to 2500 BC" (the start is BC too).
_BC_RANGE_RE = re.compile(
    r"(?<![\d.,\w\-])(\d{1,4})(?:\s*(?:[-–—]|to|or|à|au|ou|a|al|o|y|and|et)\s*"  # "2040 to 1782 or 1700 BC"
    # a day and a month may stand before the next year: "from 26 March 1185 to 15 April 1154 BC" (the Egypt
    # report's timeline had put Ramesses III in AD 1185, a reader's find)
    r"(?:\d{1,2}\s+[^\W\d_]+\s+)?\d{1,4})+\s?"
    r"(?=BCE|BC|bce|bc|B\.\s?C\.|av\.\s*J\.|a\.\s*C\.|a\.C\.)"
)
#: "AD 79": the era word before the number.
_AD_BEFORE_RE = re.compile(r"(?<![\w.])(?:AD|A\.D\.)\s?(\d{1,4})(?![\d\w]|[.,]\d)")
#: Words after which a four-digit number with a counted noun is still a year ("In 1877 fossils were found").
_TIME_BEFORE_RE = re.compile(
    r"(?:\b(?:in|since|by|until|during|from|en|depuis|dès|durant|desde|hasta|durante|año|year)\s+)$",
    re.IGNORECASE,
)
_DECADE_BEFORE_RE = re.compile(r"(?:années|años|decade|década|décennie)\s+$", re.IGNORECASE)
#: Capitalised words before a year that do not make it a name ("Circa 1500", "Early 1928", "March 1949").
_TIME_CAPITALS = frozenset("circa dès early late mid año hacia vers fin début".split())


def _year_named(text: str, start: int) -> bool:
    """Whether the number at ``start`` is part of a name or identifier, not a year
    (:func:`_identifier_like`, but a month or a time word before it is not a name)."""
    prev = re.search(r"([^\W\d_]+)\.?\s$", text[:start])
    if prev and (prev.group(1).lower() in _MONTHS or prev.group(1).lower() in _TIME_CAPITALS):
        return False
    return _identifier_like(text, start)


def printed_years(text: str, lang: str = "en") -> list[tuple[str, int, int]]:
    """Every year printed in ``text`` as a standalone token, in reading order.

    The one year reader of the timeline chart and of its check
    (:mod:`reportgen.charts.timeline`, :mod:`reportgen.agents.verify`):

    * a four-digit number from 1000 to 2099 (the pattern :func:`extract_facts`
      uses to date a quantity) with no digit, letter, decimal part or hyphenated
      word glued to it ("1960s", "mid-1990s", "COVID-19", "1928.5" are not
      years), not after an identifier noun or a capitalised name ("Windows
      2000", "ISBN 1234", "group 1990"), not a decade ("les années 1920") and
      with no measurement unit after it ("2000 km"); a counted noun after it
      ("1500 people") makes it a quantity unless a time word comes before
      ("In 1877 fossils were found");
    * a number of 1 to 4 digits followed by an era word: "500 BC",
      "3000 BCE", "52 av. J.-C." and "44 a. C." are negative (historical
      numbering: 500 BC is -500, there is no year 0), "79 AD" and "AD 79"
      positive;
    * "1939–1945" gives both years; the caller takes the first as the start;
      the start of a range ending BC is BC, written as the whole range
      ("1800 - 1500 BCE": ``("1800 - 1500 BCE", -1800)`` then ``("1500 BCE", -1500)``).

    Args:
        text: Any text (a sentence).
        lang: BCP 47 language of the text (how a unit or counted noun after
            the number is read).

    Returns:
        ``(raw, year, start)`` triples: ``raw`` the year as written (era word
        included: ``"500 BC"``), always ``text[start:start + len(raw)]``.
    """
    profile = _lang(lang)
    found: dict[int, tuple[str, int, int]] = {}
    for m in _ERA_YEAR_RE.finditer(text):
        era = _ERA_RE.match(text[m.end():])
        if era is None or _year_named(text, m.start()):
            continue
        value = int(m.group(1))
        if value == 0:
            continue
        tail = re.match(r"-?C\.", text[m.end() + era.end():])  # "av. J.-C."
        raw = (m.group(1) + text[m.end(): m.end() + era.end() + (tail.end() if tail else 0)]).rstrip()
        negative = _BEFORE_ERA_RE.match(text[m.end():]) is not None
        found[m.start()] = (raw, -value if negative else value, m.start())
    for m in _BC_RANGE_RE.finditer(text):
        era = _ERA_RE.match(text[m.end():])
        if era and int(m.group(1)) > 0 and not _year_named(text, m.start()):  # raw: the whole range, era included
            found[m.start()] = (text[m.start(): m.end() + era.end()].rstrip(), -int(m.group(1)), m.start())
    for m in _AD_BEFORE_RE.finditer(text):
        if int(m.group(1)) > 0 and m.start(1) not in found:
            found[m.start()] = (m.group(0), int(m.group(1)), m.start())
    for m in _YEAR_RE.finditer(text):
        start, end = m.span(1)
        if start in found or any(s <= start < s + len(r) for r, _, s in found.values()):
            continue
        before = text[:start]
        if _year_named(text, start) or _DECADE_BEFORE_RE.search(before):
            continue
        rest = text[end:]
        if _match_unit(rest):
            continue  # "2000 km"
        if _counted_noun(rest, profile, float(m.group(1))) and not _TIME_BEFORE_RE.search(before):
            continue  # "1500 people"
        found[start] = (m.group(1), int(m.group(1)), start)
    return [found[k] for k in sorted(found)]


def normalise_unit(unit: str) -> str:
    """A unit as :func:`printed_quantities` names it: ``"gigawatts"`` is ``"GW"``,
    ``"per cent"`` is ``"%"``; an unknown unit is returned trimmed."""
    cleaned = " ".join(unit.split())
    found = _match_unit(" " + cleaned) or _match_unit(cleaned)
    if found and found[1] >= len(cleaned) - 1:
        return found[0]
    currency = _CURRENCY_UNITS.get(cleaned)
    return currency or cleaned


def same_unit(proposed: str, printed: str) -> bool:
    """Whether a proposed unit names the unit printed beside a number.

    Both are normalised (:func:`normalise_unit`) and compared without case;
    a proposed unit may carry a multiplier or a qualifier around the printed
    one (``"million people"`` for ``"people"``, ``"GW of capacity"`` for ``"GW"``).
    """
    a, b = normalise_unit(proposed), normalise_unit(printed)
    if a == b or a.casefold() == b.casefold():
        return a == b or b not in {"MW", "mW", "Mm", "mm"}  # case is the unit for these
    words = re.findall(r"[^\W\d_]+|%|°[CF]", a)
    return b in words or b.casefold() in {w.casefold() for w in words} and len(b) > 2


def _sentences(text: str, lang: str = "en") -> list[tuple[int, int]]:
    """``(start, end)`` spans in ``text`` of its sentences as :func:`~reportgen.sources.text.split_sentences` cuts
    them, the project's one sentence splitter (this module had its own, which cut "The Symphony No. 5 in C minor,
    Op. 67, is a symphony …" at "Op.", and a timeline had quoted "67, is a symphony composed by Ludwig van
    Beethoven"). A sentence the splitter joined across a line break is found with any whitespace between its words.

    Args:
        text: A passage's text.
        lang: Its language (the splitter's abbreviations).

    Returns:
        The spans, in order, each a sentence as ``text`` writes it.
    """
    spans: list[tuple[int, int]] = []
    pos = 0
    for sentence in split_sentences(text, lang):
        found = re.compile(r"\s+".join(re.escape(word) for word in sentence.split())).search(text, pos)
        if found is not None:
            spans.append(found.span())
            pos = found.end()
    return spans


_SEGMENT_SPLIT = re.compile(
    r"\s*;\s*|\s*:\s+|\s+[—–]\s+|—|,(?!\d)\s*"
    r"|\s+(?=(?:while|whereas|tandis\s+que|alors\s+que|mientras(?:\s+que)?)\s)",
    re.IGNORECASE,
)


@dataclass
class _Segment:
    start: int
    end: int
    text: str
    verb_index: int | None  # index in words of the finite verb, if any
    words: list[tuple[int, int, str]]  # (start, end, word) relative to sentence
    subject: str  # raw subject text ("" when none)
    kind: str  # "clause", "np", "prep", "relative", "verbal"


def _words(text: str, offset: int) -> list[tuple[int, int, str]]:
    return [
        (offset + m.start(), offset + m.end(), m.group(0))
        for m in re.finditer(r"[\w'’\-]+|\([^)]*\)|\S", text)
    ]


def _is_verb(words: list[tuple[int, int, str]], i: int, lang: _Lang) -> bool:
    w = words[i][2]
    low = w.lower()
    if low in lang.verbs:
        return True
    if lang.code != "en" or i == 0:
        return False
    if not re.fullmatch(r"[a-z]+(?:s|ed)", w) or re.search(r"(?:ss|us|is|ics)$", w):
        return False
    prev = words[i - 1][2].lower()
    if prev in _DETERMINERS or prev in _PREPOSITIONS or re.match(r"\d", prev):
        return False  # "the used", "of thousands", "23 times"
    if i + 1 >= len(words):
        return False
    nxt = words[i + 1][2]
    nlow = nxt.lower()
    if re.match(r"[\d$€£]", nxt) or nlow in _DETERMINERS or nlow in _ADVERBS or nlow.endswith("ly"):
        return True  # "Hydropower supplies 15%", "The ocean contains the ..."
    return w.endswith("ed") and nlow in _PREPOSITIONS  # "was generated in", "installed in"



def _segments(sentence: str, lang: _Lang) -> list[_Segment]:
    cuts = [0]
    for m in _SEGMENT_SPLIT.finditer(sentence):
        if _inside_parens(sentence, m.start()):
            continue
        cuts.extend([m.start(), m.end()])
    cuts.append(len(sentence))
    segments: list[_Segment] = []
    for s, e in zip(cuts[::2], cuts[1::2], strict=True):
        if e <= s:
            continue
        text = sentence[s:e]
        words = _words(text, s)
        segments.append(_analyse(sentence, s, e, words, lang))
    return segments


def _inside_parens(text: str, pos: int) -> bool:
    return text.count("(", 0, pos) > text.count(")", 0, pos)


def _analyse(sentence: str, s: int, e: int, words: list[tuple[int, int, str]], lang: _Lang) -> _Segment:
    # Drop leading conjunctions ("while", "and", "but").
    i0 = 0
    while i0 < len(words) and words[i0][2].lower() in _CONJUNCTIONS | {"que"}:
        i0 += 1
    words = words[i0:]
    text = sentence[s:e]
    if not words:
        return _Segment(s, e, text, None, words, "", "np")
    first = words[0][2].lower()
    if first in _RELATIVES:
        return _Segment(s, e, text, None, words, "", "relative")
    verb_index = None
    for i in range(len(words)):
        if re.match(r"\d", words[i][2]):
            # A number before any verb: the number is in the subject.
            if verb_index is None and any(_is_verb(words, j, lang) for j in range(i + 1, len(words))):
                continue
        if _is_verb(words, i, lang):
            verb_index = i
            break
    participle = _PARTICIPLE.get(lang.code, _PARTICIPLE["en"])
    if first in _PREPOSITIONS or participle.match(words[0][2]):
        # "As of 2024", "After the monsoons of 2020", "contributing 68% of ...",
        # "survenu le 1er novembre 1755"
        return _Segment(s, e, text, verb_index, words, "", "prep")
    if verb_index is None:
        return _Segment(s, e, text, None, words, "", "np")
    if verb_index == 0:
        return _Segment(s, e, text, 0, words, "", "verbal")
    subject = sentence[words[0][0] : words[verb_index - 1][1]]
    return _Segment(s, e, text, verb_index, words, subject, "clause")


# --------------------------------------------------------------------------
# Labels
# --------------------------------------------------------------------------


def _clean_label(text: str, title: str) -> str:
    text = re.sub(r"\s*\([^)]*\)", "", text)
    text = re.sub(r"[\"“”«»„]", "", text)
    text = re.sub(r"\s+", " ", text).strip(" ,;:.-–—'’")
    words = text.split(" ")
    # Leading conjunctions, adverbs, intro words.
    while words and (
        words[0].lower() in _CONJUNCTIONS
        or words[0].lower() in _ADVERBS
        or words[0].lower() in _RELATIVES
    ):
        words = words[1:]
    det = ""
    while words and (words[0].lower() in _DETERMINERS or re.fullmatch(r"[lLdD]['’]\w*", words[0])):
        if re.fullmatch(r"[lLdD]['’]\w+", words[0]):
            det = words[0][:2]
            words[0] = words[0][2:]
            break
        det = words[0]
        words = words[1:]
    for i, w in enumerate(words):
        if re.match(r"[−\-]?\d", w):  # "the town 40 miles" → "the town"
            words = words[:i]
            break
    while words and (words[-1].lower() in _ADVERBS or re.fullmatch(r"[a-z]+ly", words[-1])):
        words = words[:-1]
    while words and words[-1].lower() in _STOP:
        words = words[:-1]
    if not words or re.sub(r"^[dlqjs]['’]", "", words[0].lower()) in _PRONOUNS:
        return title  # "it", "they", "il débute": the article's own subject
    if det and len(words) == 1 and words[0][:1].islower():
        # "the dam", "the gas": an anaphora of the article's subject.
        return title
    if len(words) > 8:
        words = words[:8] + ["…"]
    label = " ".join(words)
    return label[:1].upper() + label[1:]


def _parenthetical_label(sentence: str, start: int) -> str | None:
    """Label of a number in brackets: ``"primarily methane (95%)"`` → ``"methane"``."""
    before = _QUALIFIER_TAIL_RE.sub("", sentence[:start])
    m = re.search(r"([\w'’\- ]{1,60})\(\s*$", before)
    if not m:
        return None
    words = m.group(1).strip().split()
    # Keep what follows the last preposition: "villes d'Hiroshima" → "Hiroshima".
    for i in range(len(words) - 1, -1, -1):
        w = words[i].lower()
        if w in _PREPOSITIONS or (w in _STOP and w not in _DETERMINERS):
            words = words[i + 1 :]
            break
        if re.fullmatch(r"[dl]['’]\w+", w):
            words = [words[i][2:], *words[i + 1 :]]
            break
    words = [w for w in words if not re.fullmatch(r"[a-z]+ly", w)][-3:]
    return " ".join(words) or None


_AGENT_RE = re.compile(
    r"\b(?:by|par|por)\s+(?:the\s+|le\s+|la\s+|l['’]|el\s+)?"
    r"((?:[A-ZÀ-Ý][\w'’\-]*)(?:\s+(?:[A-ZÀ-Ý][\w'’\-]*|de|of|del|du))*)"
)


def _label_for(
    sentence: str,
    segments: list[_Segment],
    seg_index: int,
    start: int,
    end: int,
    title: str,
    lang: _Lang,
    measured: bool = False,
) -> str:
    paren = _parenthetical_label(sentence, start)
    if paren:
        return _clean_label(paren, title)
    seg = segments[seg_index]
    if seg.kind == "clause":
        assert seg.verb_index is not None  # _segment gives every clause its verb
        subj_end = seg.words[seg.verb_index - 1][1] if seg.verb_index else seg.start
        if start >= subj_end:
            return _clean_label(seg.subject, title)
        if measured:
            # a length inside the subject measures it: "The 2,525-kilometre-long (1,569 mi) river rises …" is the
            # river's (the article's), not the predicate's "western Himalayas"
            rest = re.sub(r"^[\-‐‑][^\W\d_]+(?:[\-‐‑][^\W\d_]+)*", "", sentence[end:subj_end])
            return _clean_label(f"{sentence[seg.start:start]} {rest}", title)
        # The number is inside the subject ("26 countries use ..."): the
        # predicate names what was counted.
        after = [
            w[2]
            for w in seg.words[seg.verb_index + 1 :]
            if not re.match(r"\d", w[2]) and w[2].lower() not in lang.verbs
        ]
        while after and after[0].lower() in _PREPOSITIONS:
            after = after[1:]
        pred = _clean_label(" ".join(after[:6]), title)
        return pred if lang.code == "en" and len(pred.split()) >= 2 else title
    agent = _AGENT_RE.search(sentence, end, seg.end)
    if agent:
        return _clean_label(agent.group(1), title)
    if seg.kind == "verbal":
        # "As of 2024, hundreds of large turbines, in wind farms, were
        # generating ...": the subject is the nearest noun phrase, unless that
        # phrase only continues an earlier clause ("found in the Atlantic,
        # Pacific, and Indian Oceans, and can be found ...").
        noun_phrase = None
        for prev in reversed(segments[:seg_index]):
            if _renaming(prev.text):
                continue  # "Association football, commonly known as football or soccer, is …": the first name
            if prev.kind == "np" and noun_phrase is None:
                noun_phrase = prev
            elif prev.kind == "clause":
                return _clean_label(prev.subject, title)
            elif prev.kind not in {"prep", "np"}:
                break
        if noun_phrase is not None:
            return _clean_label(noun_phrase.text, title)
    for prev in reversed(segments[:seg_index]):
        if prev.kind == "clause":
            return _clean_label(prev.subject, title)
    return title


def _respectively(sentence: str, segments: list[_Segment], facts: list[_Found], title: str) -> None:
    """ "X and Y contribute 27% and 5%, respectively" → 27% is X's, 5% is Y's."""
    if not re.search(r"\brespecti(?:vely|vement|vamente)\b", sentence, re.IGNORECASE):
        return
    for idx, seg in enumerate(segments):
        if seg.kind != "clause":
            continue
        mine = [f for f in facts if f.segment == idx]
        subject = re.sub(r"\s*\([^)]*\)", "", seg.subject)
        parts = [p for p in re.split(r",\s*|\s+(?:and|et|y)\s+", subject) if p.strip()]
        if len(mine) >= 2 and len(parts) == len(mine):
            for fact, part in zip(mine, parts, strict=True):
                fact.label = _clean_label(part, title)


# --------------------------------------------------------------------------
# Scanning one sentence
# --------------------------------------------------------------------------


def _alternation(pairs: list[tuple[str, str]]) -> str:
    return "|".join(f"(?P<u{i}>{p})" for i, (p, _) in enumerate(pairs))


_ABBR_RE = re.compile(
    r"^(?:[\u00a0\u202f\u2009 ]?)(?:" + _alternation(_ABBREVIATIONS) + r")(?![^\W\d_]|\d)"
)
_WORD_UNIT_RE = re.compile(
    r"^[\u00a0\u202f\u2009 ]+(?:" + _alternation(_WORD_UNITS) + r")(?![^\W\d_])", re.IGNORECASE
)
_MULT_RE = re.compile(
    r"^[\u00a0\u202f\u2009 ]+(?P<m>mil\s+millones|thousands?|millions?|billions?|trillions?|"
    r"milliards?|millón|millon|millones|billón|billones|mil)(?![^\W\d_])"
    r"(?P<of>\s+(?:de|of)\s+|\s+d['’])?",
    re.IGNORECASE,
)
_CURRENCY_BEFORE_RE = re.compile(r"(?P<c>US\$|A\$|C\$|\$|€|£|¥|USD\s|EUR\s|GBP\s)\s?$")
_CURRENCY_UNITS = {
    "US$": "USD", "$": "USD", "A$": "AUD", "C$": "CAD", "€": "EUR", "£": "GBP", "¥": "JPY",
}


def _match_unit(rest: str) -> tuple[str, int] | None:
    m = _ABBR_RE.match(rest)
    if m:
        for i, (_, unit) in enumerate(_ABBREVIATIONS):
            if m.group(f"u{i}") is not None:
                per = re.match(r"/([^\W\d_]+[²³23]?)", rest[m.end() :])
                if per and unit not in {"km/h", "m/s"}:
                    # "30 kg/m2", "17 kJ/mol": a compound unit, kept as written.
                    return f"{unit}/{per.group(1)}", m.end() + per.end()
                return unit, m.end()
    m = _WORD_UNIT_RE.match(rest)
    if m:
        for i, (_, unit) in enumerate(_WORD_UNITS):
            if m.group(f"u{i}") is not None:
                return unit, m.end()
    return None


def _is_plural(word: str) -> bool:
    low = word.lower()
    if low in _IRREGULAR_PLURALS:
        return True
    return bool(re.search(r"(?:[^su]s|x)$", low)) or low.endswith(("ies", "ses"))


_NEXT_WORD_RE = re.compile(rf"[{_SPACES}]+({_WORD})")


def _counted_noun(rest: str, lang: _Lang, value: float) -> tuple[str, int] | None:
    """The counted noun after a number: ``" extant species, including"`` → ``"extant species"``."""
    taken: list[str] = []
    end = 0
    while m := _NEXT_WORD_RE.match(rest, end):
        word = re.sub(r"^[dD]['’]", "", m.group(1))  # "d'habitants"
        low = word.lower()
        if (
            not word[:1].islower()
            or low in _STOP
            or low in _PRONOUNS
            or low in lang.verbs
            or low in _PREPOSITIONS
        ):
            break
        nxt = _NEXT_WORD_RE.match(rest, m.end())
        if nxt and nxt.group(1).lower() in _DETERMINERS | {"that", "how", "what", "whether", "que"}:
            break  # "4 indicates that ...": a verb, not a counted noun
        taken.append(word)
        end = m.end()
        if _is_plural(word) or low in _NOUN_UNITS:
            ago = re.match(r"\s+(?:ago|before\s+present)\b", rest[end:])
            noun = " ".join(taken)
            canonical = _NOUN_UNITS.get(low, noun.lower())
            if ago and canonical == "years":
                return "years ago", end + ago.end()
            return canonical, end
        if len(taken) >= 3:
            break
    if value == 1 and len(taken) == 1:  # "1 country"
        return _NOUN_UNITS.get(taken[0].lower(), taken[0].lower()), end
    return None


def _date_like(sentence: str, start: int, end: int) -> bool:
    before = sentence[:start]
    m = re.search(r"([^\W\d_]+)\.?\s+$", before)
    if m and m.group(1).lower() in _MONTHS:
        return True
    after = sentence[end:]
    m = re.match(r"(?:\s*(?:,|and|et|y|au|al|to|-|–)\s*\d{1,2})*,?\s*(?:de\s+)?([^\W\d_]+)", after)
    if m and m.group(1).lower() in _MONTHS:
        return True
    return bool(re.match(r"\s*[:h]\s?\d{2}\b", after))


def _identifier_like(sentence: str, start: int) -> bool:
    before = sentence[:start]
    if re.search(r"[^\W\d_][\-‐‑]$", before):  # COVID-19, helium-4, mid-2061
        return True
    if re.search(r"[×x^⋅·/]\s?$", before) or re.search(r"\d\s?[−\-]$", before):
        return True  # 7×10−30, 1/2
    if before.endswith("#") or re.search(r"\bn[°ºo]\.?\s?$", before, re.IGNORECASE):
        return True
    m = re.search(r"(\S+)\s$", before)
    if m:
        prev = m.group(1)
        if prev.lower().rstrip(".") in _ID_NOUNS or prev.lower() in _ID_NOUNS:
            return True
        if re.fullmatch(r"[A-Z][\w\-]*", prev) and prev not in _FUNCTION_CAPITALS:
            # "Voyager 2", "Type 1", "HR 5171" — unless "Hydropower 15%"-style
            # (a capitalised word directly before a quantity with a unit is
            # still a name in running text; we accept losing such facts).
            return True
    return False


_MEASURE_WORDS: dict[str, str] = {
    **dict.fromkeys(
        "long length lengths longueur longitud largo stretches stretch extends runs flows".split(),
        "length",
    ),
    **dict.fromkeys("wide width widths across large largeur ancho anchura".split(), "width"),
    **dict.fromkeys("deep depth depths profondeur profundo profunda profundidad".split(), "depth"),
    **dict.fromkeys(
        "high tall height heights elevation altitude haut hauteur altura alto alta altitud".split(),
        "height",
    ),
    **dict.fromkeys("thick thickness épaisseur espesor grosor".split(), "thickness"),
    **dict.fromkeys("diameter diamètre diámetro".split(), "diameter"),
    **dict.fromkeys("radius rayon radio".split(), "radius"),
}
_MEASURE_AFTER_RE = re.compile(
    r"^[\s\-‐‑]*(?:\([^)]*\)\s*)?(?:in\s+|de\s+|d['’]|of\s+)?([^\W\d_]+)", re.IGNORECASE
)
_MEASURE_BEFORE_RE = re.compile(
    r"([^\W\d_]+)\s+(?:of|for|de|d['’]|to)?\s*(?:[^\W\d_]+\s+){0,2}$", re.IGNORECASE
)


#: A dimension the clause is on, its subject: "Its height was most recently measured in 2020 through a joint survey
#: … as 8,848.86 m" (the Everest report's height chart had left Everest out, its height read as no dimension).
_MEASURE_SUBJECT_RE = re.compile(
    r"\b(?:its|their|the|his|her|sa|son|su|sus|la|le|el)\s+([^\W\d_]+)\s+(?:is|was|are|were|has|had|reaches|"
    r"reached|est|était|es|era|fue|alcanza)\b", re.IGNORECASE)


def _measure(sentence: str, start: int, end: int) -> str:
    """The dimension a value measures: "18 miles (29 km) wide" → "width"; "Its height was … measured … as
    8,848.86 m" → "height" (:data:`_MEASURE_SUBJECT_RE`): the subject of the number's clause, when it names no
    other dimension."""
    after = _MEASURE_AFTER_RE.match(sentence[end : end + 40])
    if after and after.group(1).lower() in _MEASURE_WORDS:
        return _MEASURE_WORDS[after.group(1).lower()]
    before = _MEASURE_BEFORE_RE.search(sentence[max(0, start - 40) : start])
    if before and before.group(1).lower() in _MEASURE_WORDS:
        return _MEASURE_WORDS[before.group(1).lower()]
    clause = re.split(r"[,;:()]", sentence[:start])[-1]
    dimensions = {_MEASURE_WORDS[w] for w in re.findall(r"[^\W\d_]+", clause.lower()) if w in _MEASURE_WORDS}
    subject = any(m.group(1).lower() in _MEASURE_WORDS for m in _MEASURE_SUBJECT_RE.finditer(clause))
    return dimensions.pop() if subject and len(dimensions) == 1 else ""


def _kinds(spec: dict[str, str]) -> dict[str, str]:
    return {word: kind for kind, words in spec.items() for word in words.split()}


#: Words that say what kind of quantity a number is, by kind (English, French,
#: Spanish word forms, lower case). Chosen for the quantities the encyclopedia
#: summaries state across articles (``make bench-quality`` corpus check): two
#: numbers of different articles share a chart only when these words give both
#: the same kind, so "killed 150,000 people" (deaths) never meets "home to
#: 3 million people" (population). Words that say nothing definite ("every",
#: "about", "total") are deliberately absent.
_KIND_WORDS: dict[str, str] = _kinds({
    "population": "population populations inhabitants inhabitant residents populous inhabited home "
                  "habitants población habitantes poblada peuplée",
    "deaths": "deaths death died die dies killed kill killing kills dead fatalities casualties victims "
              "morts mort muertos muertes fallecidos",
    "capacity": "capacity capacities installed nameplate capacité capacidad instalada installée",
    "production": "production produced produces produce producing output outputs generation generated "
                  "generates generating harvest harvested producción produjo produit produite",
    "consumption": "consumption consumed consumes consommation consumo consumida",
    "emissions": "emissions emitted emits emit émissions emisiones",
    "distance": "distance distances distant away distancia",
    "period": "period periods période período",
    "wavelength": "wavelength wavelengths",
    "area": "area areas covers covering covered superficie surface",
    "speed": "speed speeds velocity vitesse velocidad",
    "temperature": "temperature temperatures température températures temperatura temperaturas",
    "melting point": "melting melts melt fusion fusión",
    "boiling point": "boiling boils boil ébullition ebullición",
    "mass": "mass weighs weight weighing masse masa peso",
    "density": "density densité densidad",
    "pressure": "pressure pression presión",
    "revenue": "revenue revenues sales turnover income earnings ingresos",
    "cost": "cost costs costing price priced spent spending budget investment invested coût costo",
    "gdp": "gdp pib",
    "value": "worth valued valuation capitalization capitalisation",
    "employees": "employees employs employed workers staff workforce employés empleados",
    "speakers": "speakers speak spoken locuteurs hablantes",
    "members": "members membership membres miembros",
    "visitors": "visitors tourists visited visiteurs visitantes",
    "students": "students enrolled étudiants estudiantes",
    "users": "users subscribers usuarios utilisateurs",
    "reserves": "reserves réserves reservas",
    "lifespan": "lifespan lifetime longevity",
})

#: Counted nouns that are no kind on their own ("26 countries" may be members,
#: users or producers; "12 years" an age, a term or a period).
_VAGUE_COUNTS = frozenset(
    {"people", "countries", "years", "years ago", "days", "hours", "minutes", "seconds", "months", "weeks"}
)
#: Units whose quantity has one kind whatever the words around it.
_AREA_UNITS = frozenset({"km²", "m²", "sq mi", "sq ft", "ha"})
#: Kinds that only units of their dimension can have ("surface" names an area
#: only beside km², "hot" a temperature only beside °C).
_KIND_UNITS: dict[str, frozenset[str]] = {
    "area": frozenset({"km²", "m²", "sq mi", "sq ft", "ha", "acres"}),
    **dict.fromkeys(["temperature", "melting point", "boiling point"], frozenset({"°C", "°F", "K"})),
    "speed": frozenset({"km/h", "mph", "m/s", "knots"}),
}
#: Kinds that count people or things: never the kind of a time or a physical quantity.
_COUNT_KINDS = frozenset(
    {"population", "deaths", "employees", "speakers", "members", "visitors", "students", "users"}
)
#: Every unit the readers normalise to (not a counted noun).
_PHYSICAL_UNITS = frozenset(c for _, c in (*_ABBREVIATIONS, *_WORD_UNITS))
#: Units of time, for the onset of a disease's symptoms.
_TIME_UNITS = frozenset({"hours", "days", "weeks", "months", "years"})
_SYMPTOMS_RE = re.compile(r"\bsymptoms?\b|\bsíntomas?\b|\bsymptômes?\b", re.IGNORECASE)
_AFTER_RE = re.compile(r"\s*(?:after|following|of|después\s+de|tras|après)\b(?!\s+(?:which|the\s+first\s+symptoms))",
                       re.IGNORECASE)
#: Units of length, whose kind may also be a measure word ("diameter", "tall").
_LENGTH_UNITS = frozenset({"km", "m", "cm", "mm", "µm", "nm", "mi", "ft", "ly", "AU"})
#: A height stated against the sea ("5,642 m above sea level", "au-dessus du niveau de la mer").
_SEA_LEVEL_RE = re.compile(
    r"\s*above\s+(?:mean\s+)?sea\s+level|\s*au-dessus\s+du\s+niveau\s+de\s+la\s+mer"
    r"|\s*sobre\s+el\s+nivel\s+del\s+mar", re.IGNORECASE)
#: A depth stated against the sea ("62 metres below sea level"): a height below zero, no length to set beside
#: a height above it (a chart had set Vänern's surface, 44 m above, beside its lowest point, 62 m below).
_BELOW_SEA_LEVEL_RE = re.compile(
    r"\s*below\s+(?:mean\s+)?sea\s+level|\s*au-dessous\s+du\s+niveau\s+de\s+la\s+mer"
    r"|\s*(?:por\s+)?debajo\s+del\s+nivel\s+del\s+mar", re.IGNORECASE)
#: "of" in the languages read: "1.2 million tonnes *of* rice produced" keeps reading.
_OF_WORDS = frozenset({"of", "de", "du", "des", "del", "d"})
#: Words read before and after a number when looking for its kind.
_KIND_BEFORE = 6
_KIND_AFTER = 4
_KIND_WORD_RE = re.compile(r"[^\W\d_]+", re.UNICODE)


#: Words of a label that name no entity, only what is measured or how
#: ("Symptoms", "Installed capacity", "Mean diameter"): such a label stands for
#: the article's own subject.
_GENERIC_LABEL_WORDS = frozenset(
    """symptoms symptom signs onset mean average total estimated maximum minimum typical current annual
    overall approximate""".split()
)


def generic_label(label: str) -> bool:
    """Whether a fact's label names only the quantity, not an entity ("Installed capacity",
    "Symptoms", "Mean diameter"): the number is then about its article's subject.

    Args:
        label: A :class:`NumericFact` label.

    Returns:
        ``True`` when every word of it is a kind word (:data:`_KIND_WORDS`), a
        measure word or a generic word (:data:`_GENERIC_LABEL_WORDS`).
    """
    words = [w.lower() for w in _KIND_WORD_RE.findall(label)]
    return bool(words) and all(w in _KIND_WORDS or w in _MEASURE_WORDS or w in _GENERIC_LABEL_WORDS for w in words)


def quantity_kind(sentence: str, start: int, end: int, unit: str, measure: str = "") -> str:
    """The kind of quantity the number at ``sentence[start:end]`` is, from the words around it.

    Read, nearest first: the words of the quantity itself ("25 million
    *inhabitants*"), up to 6 words before it in its clause ("installed
    *capacity* of 22,500 MW"; a clause ends at ``;``, brackets, a dash or
    another number, and at a comma unless the comma sits right before the
    number: "its mean *diameter*, 6,779 km"), then up to 4 words after it
    ("1.2 million tonnes of rice *produced*"); the first word of
    :data:`_KIND_WORDS` gives the kind, when the unit can have it (an area
    only beside an area unit, a temperature beside a temperature unit, a count
    of people never beside a time or a physical unit). A time after
    "symptoms ... begin" and before "after" is the ``"onset of symptoms"``
    ("Symptoms typically begin 3 to 14 days after infection"). Else the length measure
    (``"height"``, ``"diameter"``), ``"area"`` for an area unit, or the counted
    noun itself for a specific count (``"species"``, ``"islands"``; not
    ``people``, ``countries`` or time spans, which say nothing of their kind).

    Args:
        sentence: The sentence.
        start: Where the quantity's text starts.
        end: Where it ends (after its unit).
        unit: Its normalised unit.
        measure: Its length measure (:class:`NumericFact` ``measure``), or ``""``.

    Returns:
        The kind, or ``""`` when the words do not say.
    """
    own = [w.lower() for w in _KIND_WORD_RE.findall(sentence[start:end])]
    before_text = sentence[max(0, start - 200): start]
    cut = max((before_text.rfind(c) for c in ";()[]—–:"), default=-1)
    comma = before_text.rfind(",")
    if comma > cut and before_text[comma + 1:].strip():
        cut = comma
    digit = max((m.end() for m in re.finditer(r"\d", before_text)), default=-1)
    before_text = before_text[max(cut, digit) + 1:]
    before = [w.lower() for w in _KIND_WORD_RE.findall(before_text)][-_KIND_BEFORE:]
    after_text = re.sub(r"^\s*\([^()]*\)", " ", sentence[end: end + 120])  # "5,642 m (18,510 ft) above"
    if unit in _LENGTH_UNITS and _SEA_LEVEL_RE.match(after_text):
        return "height"  # "rising 5,642 m above sea level"
    if unit in _LENGTH_UNITS and _BELOW_SEA_LEVEL_RE.match(after_text):
        return "depth below sea level"  # "the lowest point … is 62 metres (203 ft) below sea level"
    after_text = re.split(r"[,;:()\[\]—–.\d]", after_text, maxsplit=1)[0]
    after: list[str] = []
    for word in _KIND_WORD_RE.findall(after_text)[:_KIND_AFTER]:
        if word.lower() in _PREPOSITIONS - _OF_WORDS:
            break  # "every 164.8 years *at* an orbital distance": another quantity's words
        after.append(word.lower())
    if re.match(r"\s*(?:per|par|por|/)\s", sentence[end:end + 6], re.IGNORECASE) and "/" not in unit:
        return ""  # "25.5 inhabitants per square kilometre": a rate the unit does not say
    if unit in _TIME_UNITS and _SYMPTOMS_RE.search(before_text) and _AFTER_RE.match(sentence[end:end + 30]):
        return "onset of symptoms"  # "Symptoms typically begin 3 to 14 days after infection"
    lengthy = unit in _LENGTH_UNITS
    for word in [*own, *reversed(before), *after]:
        kind = _KIND_WORDS.get(word)
        if kind is not None and unit not in _KIND_UNITS.get(kind, {unit}):
            continue  # "2,889 km below Earth's *surface*": a depth, not an area
        if kind in _COUNT_KINDS and (unit in _TIME_UNITS or unit in _PHYSICAL_UNITS):
            continue  # "*death* occurs 6 to 16 days after": a time, not a death toll
        if kind is not None:
            return kind
        if lengthy and word in _MEASURE_WORDS:
            return _MEASURE_WORDS[word]
    if measure:
        return measure
    if unit in _AREA_UNITS:
        return "area"
    physical = _PHYSICAL_UNITS | set(_CURRENCY_UNITS.values())
    if unit not in physical and unit not in _VAGUE_COUNTS and "/" not in unit and not unit.endswith(" ago"):
        return unit  # a specific counted noun: "species", "islands"
    return ""


@dataclass
class _Found:
    """A quantity being read, before its label and year are known."""

    value: float
    high: float | None
    raw: str
    unit: str
    start: int  # span of ``raw`` in the sentence
    end: int
    qualifier: str = ""
    base: str = ""
    measure: str = ""
    kind: str = ""
    opening: str = ""
    segment: int = 0
    label: str = ""
    year: int | None = None


def _is_year_number(text: str) -> bool:
    return re.fullmatch(r"\d{4}", text) is not None and 1000 <= int(text) <= 2100


#: The bound a class of things is drawn by, written before its number: "peaks exceeding elevations of 7,200
#: metres", "one of the two cities in the Amazon rainforest with a population of over 1 million", "des villes de
#: plus de", "países con más de". The number is no quantity of the thing the sentence is on: a chart had drawn the
#: Himalayas 7,200 metres high and Manaus, which its sentence before gives 2,279,686 people, 1 million.
_CLASS_BOUND_RE = re.compile(
    rf"(?P<noun>{_WORD})\s+"
    r"(?:(?:in|on|of|at|across|within|from|around|along|dans|en|sur|del?)\s+[^,;:()]{0,40}?\s+)?"
    r"(?:(?:exceeding|surpassing|topping|dépassant|superando|que\s+superan|qui\s+dépassent)\s+"
    r"|(?:with|having|avec|con|de)\s+(?:(?:a|an|the|une?|una?)\s+)?(?:[^\W\d_]+\s+){0,2}?(?:(?:of|de)\s+)?"
    r"(?:over|above|more\s+than|under|below|less\s+than|fewer\s+than|at\s+least|plus\s+de|moins\s+de|"
    r"más\s+de|menos\s+de)\s+)"
    r"(?:[^\W\d_]+\s+of\s+|[^\W\d_]+\s+de\s+)?$",
    re.IGNORECASE,
)


def _a_class_bound(before: str) -> bool:
    """Whether the text before a number ends on the bound of a class of things (:data:`_CLASS_BOUND_RE`), its
    noun a plural."""
    tail = before[-160:]
    return any(m is not None and _is_plural(m.group("noun"))
               for m in (_CLASS_BOUND_RE.match(tail, w.start()) for w in re.finditer(_WORD, tail)))


#: A sentence opening on the whole it divides, up to the number: "Of the estimated 70–85 million deaths attributed
#: to the war, around 30 million occurred on the Eastern Front", "De los 50 estados, …", "Sur les 577 députés, …",
#: "Parmi les 300 espèces, …". A possessive ("Of its 1.2 million inhabitants, 40% …") is the subject's own and is
#: no such whole. The World War I report had charted the Second World War's deaths as the Eastern Front's.
_PARTITIVE_WHOLE_RE = re.compile(
    r"^\W*(?:of|out\s+of|among|de|sur|parmi)\s+(?:the|los|las|les)\s+"
    r"(?:(?:estimated|approximately|roughly|some|about|around|nearly|almost|over|more\s+than|total|"
    r"estimados?|estimadas?|unos|unas|aproximadamente|quelque|environ|plus\s+de|más\s+de)\s+){0,2}"
    r"(?:US\$|\$|€|£)?(?:\d[\d.,]*\s?(?:[–—\-]|to|a|à)\s?)?$",
    re.IGNORECASE,
)

#: The two ends of a span written "from … to …" (Spanish "desde … hasta …"), up to a number: a word or two and an
#: opening bracket may stand between ("from six-metre (20 ft) …", "to 300-metre (1,000 ft) …").
_SPAN_FROM_RE = re.compile(r"\b(?:from|desde)\s+(?:\S+\s+){0,2}\(?$", re.IGNORECASE)
_SPAN_TO_RE = re.compile(r"\b(?:to|hasta)\s+(?:\S+\s+){0,2}\(?$", re.IGNORECASE)


def _span_ends(sentence: str, found: list[_Found]) -> set[int]:
    """Indexes in ``found`` of the ends of a yearless "from … to …" span (module docstring), in any units: "from
    six-metre (20 ft) … to 300-metre (1,000 ft) …" reads 20 ft and 300 m."""
    ends: set[int] = set()
    for i, low in enumerate(found):
        if low.year is not None or not _SPAN_FROM_RE.search(sentence[max(0, low.start - 40) : low.start]):
            continue
        for j in range(i + 1, len(found)):
            high = found[j]
            if high.year is None and _SPAN_TO_RE.search(
                sentence[max(low.end, high.start - 40) : high.start]
            ):
                ends.update({i, j})
    return ends


#: A unit of length joined to its number by a hyphen, in the singular a compound adjective writes it in: "The
#: 2,525-kilometre-long (1,569 mi) river", "the 828-metre-tall tower", "a 30-mile-wide bay".
_HYPHENATED_UNIT_RE = re.compile(
    r"^[\-‐‑](?:(?P<km>kilomet(?:re|er)|km)|(?P<m>met(?:re|er)|m)|(?P<mi>mile|mi)|(?P<ft>foot|ft))(?![^\W\d_])",
    re.IGNORECASE,
)


def _hyphenated_unit(rest: str) -> tuple[str, int] | None:
    """The unit of length ``rest`` (the text after a number) opens on, joined by a hyphen
    (:data:`_HYPHENATED_UNIT_RE`), and where it ends; ``None`` for any other text. A unit of time or a count so
    joined is no quantity of the thing ("a 69-year career", "a 16-member council")."""
    m = _HYPHENATED_UNIT_RE.match(rest)
    return (next(k for k, v in m.groupdict().items() if v is not None), m.end()) if m else None


def _not_a_quantity(sentence: str, start: int, end: int) -> bool:
    """Whether the number at ``[start, end)`` is an ordinal, a date, a name or notation."""
    after = sentence[end:]
    if re.match(r"[^\W\d_]", after) and not _ABBR_RE.match(after):
        return True  # glued letters: "20th", "1er", "2e", "1960s" (but "15%", "10km" pass)
    if re.match(r"\.[ºª°]|[ºª]|[\-‐‑][^\W\d_]", after) and not _hyphenated_unit(after):
        return True  # "1.º", "2ª", "a 69-year career" (but "a 2,525-kilometre-long river" is a length)
    if re.match(r"[\u2060\u200b]?/\s?\d|\s?[×x^]\s?\d", after):
        return True  # "3/4", "12/05/2023", "7×10"
    if _ERA_RE.match(after):
        return True  # "500 BC"
    return _identifier_like(sentence, start) or _date_like(sentence, start, end)


def _read_range(sentence: str, pos: int, raw_start: int, lang: _Lang) -> tuple[str, int] | None:
    """The upper bound of a range starting at ``pos``: ``" to 35"``, ``"–60"``."""
    rm = re.match(
        r"(?P<sep>\s?[–—]\s?|-|\s+(?:to|à|a|au|al|y|and|et|hasta)\s+)"
        r"(?:US\$|A\$|C\$|\$|€|£|¥)?"
        rf"(?P<n>[−\-]?(?:{lang.body}))(?![.,]?\d)",
        sentence[pos:],
    )
    if not rm:
        return None
    if rm.group("sep").strip().lower() in {"and", "et", "y"} and not re.search(
        r"\b(?:between|entre)\s+(?:\S+\s+)?$", sentence[:raw_start], re.IGNORECASE
    ):
        return None  # "27% and 5%" is two facts; "between 27 and 35" is a range
    end = pos + rm.end()
    if re.match(r"[^\W\d_]", sentence[end:]) and not _ABBR_RE.match(sentence[end:]):
        return None
    return rm.group("n"), end


def _read_unit(sentence: str, pos: int, value: float, lang: _Lang) -> tuple[str | None, float, int]:
    """Multiplier and unit after a number: ``(unit, multiplier, end of raw)``."""
    rest = sentence[pos:]
    mm = _MULT_RE.match(rest)
    if mm:
        word = re.sub(r"\s+", " ", mm.group("m").lower())
        if word == "mil" and lang.code != "es":
            mm = None
    if not mm:
        um = _hyphenated_unit(rest) or _match_unit(rest)  # "a 2,525-kilometre-long river"
        if um:
            return um[0], 1.0, pos + um[1]
        cn = _counted_noun(rest, lang, value)
        return (cn[0], 1.0, pos + cn[1]) if cn else (None, 1.0, pos)
    mult = _MULTIPLIERS[word]
    if word in {"billion", "billions"} and lang.long_scale:
        mult = 1e12
    # "3,9 millions de kilomètres carrés", "4 millions d'habitants"
    pad = " " if mm.group("of") else ""
    after = pad + sentence[pos + mm.end() :]
    found = _match_unit(after) or _counted_noun(after, lang, 2.0)
    if found:
        return found[0], mult, pos + mm.end() + found[1] - len(pad)
    return None, mult, pos + mm.end("m")


def _read_base(sentence: str, end: int) -> str:
    """The whole a percentage is a share of: ``"% of the world's electricity"``."""
    bm = re.match(
        r"^\s+(?:of|de|du|des|del)\s+(?:(?:the|la|le|les|el|los|las)\s+|l['’])?"
        r"((?:[\w'’\-]+\s?){1,4})",
        sentence[end:],
        re.IGNORECASE,
    )
    words: list[str] = []
    for w in bm.group(1).split() if bm else []:
        if w.lower() in _STOP or w.lower() in _PREPOSITIONS or re.match(r"\d", w):
            break
        words.append(w)
    return " ".join(words).lower()


#: An earthquake's magnitude before its number: "a Mw 9.2–9.3 earthquake", "a magnitude of 7.7", "magnitud de 8,8"
#: (the symbol is part of what is printed; the word is not). A magnitude has no unit after it, and its symbol
#: reads as a name's capital ("Voyager 2"): without this it was no quantity, and the earthquakes of a report on
#: earthquakes had no chart.
_MAGNITUDE_BEFORE_RE = re.compile(
    r"(?:(?P<sym>\b(?:M[ws]|ML)\s?)|(?i:\b(?:magnitude|magnitud)(?:\s+(?:of|de))?"
    r"(?:\s+(?:about|around|approximately|roughly|some|environ|aproximadamente))?\s+))$"
)
#: ... or after it: "measured 7.7 on the Richter scale".
_MAGNITUDE_AFTER_RE = re.compile(r"^\s+on\s+the\s+(?:Richter|moment\s+magnitude)\s+scale", re.IGNORECASE)


def _read_quantity(sentence: str, m: re.Match[str], found: list[_Found], lang: _Lang) -> _Found | None:
    """Read the quantity whose number ``m`` matched, or ``None`` if it is not one."""
    start, end = m.span()
    magnitude = _MAGNITUDE_BEFORE_RE.search(sentence[:start])
    if magnitude and (re.match(r"[^\W\d_]", sentence[end:]) or _date_like(sentence, start, end)):
        return None
    if not magnitude and _not_a_quantity(sentence, start, end):
        return None
    # A conversion in brackets right after another quantity ("40 miles
    # (64 km)") restates that quantity: not a fact of its own.
    if found and re.fullmatch(r"(?:[\-‐‑][^\W\d_]+)?\s*\(\s*", sentence[found[-1].end : start]):
        return None
    value = _parse_number(m.group(0), lang)
    raw_start = start
    if start > 0 and sentence[start - 1] in "−-" and (start < 2 or sentence[start - 2] in " (\u00a0"):
        value, raw_start = -value, start - 1
    currency = None
    cm = _CURRENCY_BEFORE_RE.search(sentence[:raw_start])
    if cm:  # "$4.5 billion", "US$ 3"
        currency = _CURRENCY_UNITS.get(cm.group("c").strip(), cm.group("c").strip())
        raw_start = cm.start()
    pos = end
    pm = re.match(r"\s?±\s?\d+(?:[.,]\d+)?", sentence[pos:])  # "95±20"
    if pm:
        pos += pm.end()

    high: float | None = None
    second = _read_range(sentence, pos, raw_start, lang)
    if second is not None:
        text, second_end = second
        if _is_year_number(m.group(0)) and _is_year_number(text):
            return None  # "from 1368 to 1398"
        if not _is_year_number(m.group(0)):  # "in 2009 to 35.5 tonnes" is no range
            upper = _parse_number(text.lstrip("−-"), lang) * (-1 if text[:1] in "−-" else 1)
            value, high = min(value, upper), max(value, upper)
            pos = second_end

    unit, mult, unit_end = _read_unit(sentence, pos, value, lang)
    if currency and unit in (None, "USD", "EUR", "GBP"):
        unit = unit or currency
    if unit is None and (magnitude or _MAGNITUDE_AFTER_RE.match(sentence[pos:])):
        unit = "magnitude"
        if magnitude and magnitude.group("sym"):
            raw_start = magnitude.start()  # "Mw 9.2–9.3", as printed
    if unit is None:
        return None  # nothing honest to put on an axis
    if high is None and mult == 1.0 and _is_year_number(m.group(0)) and not _match_unit(sentence[pos:]):
        return None  # "in 1877 fossils", "a 1952 novella": a year, not a count
    if unit == "years" and re.search(
        r"(?:il\s+y\s+a|hace)\s+(?:\S+\s+){0,2}$", sentence[:raw_start], re.IGNORECASE
    ):
        unit = "years ago"
    rate = _RATE_RE.match(sentence[unit_end : unit_end + 40])
    if rate and unit not in {"%", "years", "years ago"}:
        unit += next(sfx for i, (_, sfx) in enumerate(_RATES) if rate.group(f"r{i}") is not None)
    if _a_class_bound(sentence[:raw_start]):
        return None  # "More than 100 peaks exceeding elevations of 7,200 metres": a class's bound
    if _PARTITIVE_WHOLE_RE.match(sentence[:raw_start]):
        return None  # "Of the estimated 70–85 million deaths attributed to the war, …": the whole it divides
    q = _QUALIFIER_RE.search(sentence[:raw_start])
    return _Found(
        value=value * mult,
        high=high * mult if high is not None else None,
        raw=sentence[raw_start:unit_end].rstrip(),
        unit=unit,
        start=raw_start,
        end=unit_end,
        qualifier=re.sub(r"\s+", " ", q.group("q").lower()) if q else "",
        base=_read_base(sentence, unit_end) if unit in {"%", "‰"} else "",
        measure=(measure := _measure(sentence, raw_start, unit_end)),
        kind=quantity_kind(sentence, raw_start, unit_end, unit, measure),
    )


def _scan_sentence(sentence: str, passage: Passage, lang: _Lang) -> list[NumericFact]:
    found: list[_Found] = []
    for m in lang.number.finditer(sentence):
        if found and m.start() < found[-1].end:
            continue  # inside the previous quantity ("25 to 35 percent")
        quantity = _read_quantity(sentence, m, found, lang)
        if quantity is not None:
            found.append(quantity)
    if not found:
        return []
    segments = _segments(sentence, lang)
    for fact in found:
        fact.segment = next(
            (i for i, seg in enumerate(segments) if seg.start <= fact.start <= seg.end),
            len(segments) - 1,
        )
        fact.label = _label_for(
            sentence, segments, fact.segment, fact.start, fact.end, passage.title, lang,
            measured=fact.unit in _LENGTH_UNITS,
        )
        # an earthquake's magnitude is of its event, not a figure of a year: "a Mw 7.6 earthquake hit Tangshan in
        # 1976" and "a Mw 9.1 earthquake struck Sumatra in 2004" compare though 28 years apart
        fact.year = _year_for(sentence, segments, fact, found) if fact.unit != "magnitude" else None
    _respectively(sentence, segments, found, passage.title)
    spans = _span_ends(sentence, found)
    found = [f for i, f in enumerate(found) if i not in spans]
    return [
        NumericFact(
            value=f.value,
            high=f.high,
            raw=f.raw,
            unit=f.unit,
            label=f.label,
            year=f.year,
            sentence=sentence,
            source_id=passage.source_id,
            title=passage.title,
            url=passage.url,
            qualifier=f.qualifier,
            base=f.base,
            measure=f.measure,
            kind=f.kind,
        )
        for f in found
        if math.isfinite(f.value) and f.raw in sentence
    ]


def _year_for(sentence: str, segments: list[_Segment], fact: _Found, found: list[_Found]) -> int | None:
    """A year the same clause gives for ``fact`` ("4,210 TWh in 2023")."""
    m = _YEAR_AFTER_RE.match(sentence[fact.end : fact.end + 30])
    if m:
        return int(m.group(1))
    taken = [(f.start, f.end) for f in found]

    def years_in(a: int, b: int) -> list[tuple[int, int]]:
        out = []
        for ym in _YEAR_RE.finditer(sentence, a, b):
            if any(s <= ym.start() < e for s, e in taken):
                continue
            if re.search(r"(?:années|años|decade|década|décennie)\s+$", sentence[: ym.start()]):
                continue  # "les années 1920": a decade, not a year
            out.append((ym.start(), int(ym.group(1))))
        return out

    seg = segments[fact.segment]
    ys = years_in(seg.start, seg.end)
    if ys:
        return min(ys, key=lambda y: abs(y[0] - fact.start))[1]
    # An introductory phrase right before the clause ("After the monsoons of
    # 2020, the dam produced ..."), or at the head of the sentence ("As of
    # 2024, ...").
    idx = fact.segment
    if idx > 0 and segments[idx - 1].kind == "prep" and seg.kind in {"clause", "np"}:
        ys = years_in(segments[idx - 1].start, segments[idx - 1].end)
        if ys:
            return ys[-1][1]
    if segments and segments[0].kind == "prep" and idx > 0:
        ys = years_in(segments[0].start, segments[0].end)
        if ys and len(segments[0].words) <= 6:
            return ys[-1][1]
    return None


def extract_facts(passages: list[Passage], lang: str = "en") -> list[NumericFact]:
    """Find the quantities stated in passages.

    Each sentence of each passage is scanned for numbers with a unit or a
    counted noun; years, dates, ordinals and identifiers are skipped (see the
    module docstring for the full list and the range/multiplier rules).

    Args:
        passages: Passages in ranking order (best first); facts come back in
            the same order, then in reading order within a passage.
        lang: BCP-47 tag of the passages' language (``"en"``, ``"fr"``,
            ``"es-ES"``); decides whether ``","`` is a decimal mark and whether
            ``"billion"`` means 10**9 or 10**12.

    Returns:
        The facts, without duplicates (the same sentence in two overlapping
        passages of one source yields its facts once). Every fact's ``raw`` is
        a substring of its ``sentence``, and its ``sentence`` a substring of
        the passage text.
    """
    profile = _lang(lang)
    facts: list[NumericFact] = []
    seen: set[tuple[str, str, str, float]] = set()
    for passage in passages:
        text = passage.text or ""
        spans = _sentences(text, profile.code)
        opening = text[spans[0][0]:spans[0][1]] if spans else ""
        for s, e in spans:
            sentence = text[s:e]
            if not re.search(r"\d", sentence):
                continue
            for fact in _scan_sentence(sentence, passage, profile):
                key = (fact.source_id, fact.sentence, fact.raw, fact.value)
                if key in seen:
                    continue
                seen.add(key)
                fact.opening = opening
                facts.append(fact)
    return facts

