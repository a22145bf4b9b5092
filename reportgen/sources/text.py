"""Plain-text helpers shared by the corpora, the index, the planner and the writer.

Everything here is pure, dependency-free and fast on large inputs (a 5 MB
single-line document goes through every function in well under a second):

- :func:`clean_text` makes any decoded text safe to store: no control
  characters, no ANSI escape sequences, NFC, tidy whitespace.
- :func:`split_sentences` is a rule-based splitter for English, Spanish and
  French (abbreviations, initials, decimals, CJK full stops). It needs no model
  download, unlike nltk's punkt.
- :func:`chunk_text` cuts a document into passages of at most ``max_chars`` on
  sentence boundaries, falling back to hard splits.
- :func:`tokenize` and :func:`fold` give lowercased, accent-folded word tokens
  that match what SQLite FTS5's ``unicode61 remove_diacritics 2`` tokenizer
  indexes.
- :func:`stopwords` returns a modest per-language stopword set.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Any

__all__ = [
    "CJK_RE",
    "american",
    "bare_title",
    "chunk_text",
    "clean_text",
    "fold",
    "has_cjk",
    "plural",
    "singular",
    "split_sentences",
    "stopwords",
    "tokenize",
]

# --------------------------------------------------------------------------- word forms


@cache
def _inflections() -> Any:
    import inflect

    return inflect.engine()


def singular(phrase: str, lang: str) -> str:
    """``phrase`` with its last word in the singular, by the ``inflect`` library's English rules:
    "leaves" → "leaf", "Wolves" → "Wolf", "mice" → "mouse" (plurals the light stem of
    :func:`reportgen.agents.ranking.stem` does not fold). Its rules slip on some singular words
    ("physics" → "physic"): a caller keeps the singular only where the corpus confirms it.

    French and Spanish put every word of a noun phrase in the plural ("énergies renouvelables", "redes
    sociales"): each word of four letters or more loses its plural ending, by the regular rules of their
    grammars (French "-s", "-x"; Spanish "-es" after a consonant, else "-s"). No library of the project's
    inflects them; the corpus confirms or refuses the result as above.

    Args:
        phrase: Words, the last one a noun.
        lang: Their language; English (``en``), French (``fr``) and Spanish (``es``) are inflected.

    Returns:
        The phrase in the singular, or the phrase itself (another language, a word already singular).
    """
    if lang in ("fr", "es"):
        return " ".join(_romance_singular(word, lang) for word in phrase.split())
    return _last_word(phrase, lang, lambda word: _inflections().singular_noun(word))


def _romance_singular(word: str, lang: str) -> str:
    """One French or Spanish word without its regular plural ending (:func:`singular`)."""
    if len(word) < 4 or not word.isalpha():
        return word
    if lang == "es" and word.lower().endswith("es") and word[-3].lower() not in "aeiouáéíóú":
        return word[:-2]
    if word.lower().endswith("s") or lang == "fr" and word.lower().endswith("x"):
        return word[:-1]
    return word


def gerund(verb: str, lang: str) -> str:
    """The ``-ing`` form of an English verb, by the ``inflect`` library: "swim" → "swimming", "ski" → "skiing"
    ("tips for learning to swim as an adult" asks about swimming).

    Args:
        verb: One verb, as typed.
        lang: Its language; only English (``en``) is inflected.

    Returns:
        The gerund, or ``verb`` itself in another language.
    """
    return str(_inflections().present_participle(verb)) if lang == "en" and verb.isalpha() else verb


def american(word: str, lang: str) -> str:
    """An English word in its American spelling, by the ``breame`` library's British-American list:
    "colour" → "color", "centre" → "center", "organisation" → "organization". A request typed one way
    asks for what a source spelled the other way writes ("Why do leaves change color?" beside "the striking
    change in colour of the leaves").

    Args:
        word: One word, lower case (a term of :func:`reportgen.agents.ranking.terms`).
        lang: Its language; only English (``en``) is respelled.

    Returns:
        The American spelling, or the word itself (another language, a word spelled alike).
    """
    if lang != "en":
        return word
    from breame.spelling import get_american_spelling

    return str(get_american_spelling(word))


def plural(phrase: str, lang: str) -> str:
    """``phrase`` with its last word in the plural, by the ``inflect`` library's English rules ("leaf" →
    "leaves"): the form a text writes where :func:`singular`'s word is many. Another language, or a word
    not alphabetic, is returned as is.

    Args:
        phrase: Words, the last one a noun in the singular.
        lang: Their language; only English (``en``) is inflected.
    """
    return _last_word(phrase, lang, lambda word: _inflections().plural_noun(word))


def _last_word(phrase: str, lang: str, inflect: Callable[[str], Any]) -> str:
    """``phrase`` with its last word inflected by ``inflect`` (``inflect``'s engine returns ``False`` for a
    word it leaves as is), in English only."""
    words = phrase.split()
    if lang != "en" or not words or not words[-1].isalpha():
        return phrase
    word = inflect(words[-1])
    return " ".join([*words[:-1], word]) if word else phrase


# --------------------------------------------------------------------------- cleaning

#: ANSI/VT100 escape sequences: CSI (``ESC [ ... final``), OSC (``ESC ] ... BEL``)
#: and two-byte escapes. Removed whole so ``ESC[31m`` leaves nothing behind.
_ANSI_RE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC
    r"|\x1b[@-Z\\-_]"  # two-byte escape
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
#: C0 controls except tab/newline/CR, DEL, C1 controls, lone surrogates,
#: non-characters and the BOM / zero-width no-break space.
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufeff\ufffe\uffff]")
#: Vertical tab and form feed are line separators in practice.
_LINE_SEP_RE = re.compile(r"\r\n?|[\x0b\x0c\x85\u2028\u2029]")
#: Horizontal whitespace, including no-break and typographic spaces.
_HSPACE_RE = re.compile(r"[^\S\n]+")
_BLANK_LINES_RE = re.compile(r"\n{3,}")


def clean_text(s: str) -> str:
    """Make decoded text safe and tidy to store and quote.

    Removes ANSI escape sequences, C0/C1 control characters (NUL, BEL, ESC, ...),
    lone surrogates and BOMs; normalises to NFC; turns every run of horizontal
    whitespace (tabs, no-break spaces) into one space; keeps single newlines,
    collapses three or more into a paragraph break; strips each line.

    Args:
        s: Any text.

    Returns:
        The cleaned text; ``""`` when nothing printable remains.
    """
    if not s:
        return ""
    s = _LINE_SEP_RE.sub("\n", s)
    s = _ANSI_RE.sub("", s)
    s = _CONTROL_RE.sub("", s)
    s = unicodedata.normalize("NFC", s)
    s = _HSPACE_RE.sub(" ", s)
    s = "\n".join(line.strip() for line in s.split("\n"))
    s = _BLANK_LINES_RE.sub("\n\n", s)
    return s.strip()


# --------------------------------------------------------------------------- tokens

#: Scripts written without spaces between words (Han, kana) plus Hangul.
#: SQLite's unicode61 tokenizer treats a whole run of them as one token.
CJK_RE = re.compile(
    "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
    "\U00020000-\U0002fa1f]"
)
_HAN_KANA = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
_HAN_KANA_RE = re.compile(f"[{_HAN_KANA}]")
#: One Han/kana character, or a run of other letters and digits.
_MIXED_WORD_RE = re.compile(f"[{_HAN_KANA}]|[^\\W_{_HAN_KANA}]+")
#: Combining diacritical marks (the block FTS5's ``remove_diacritics`` folds).
_DIACRITICS_RE = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_WORD_RE = re.compile(r"[^\W_]+")


_QUALIFIER = re.compile(r"^(?P<name>.+?)\s+\((?P<qualifier>[^()A-Z\d]+)\)$")


def bare_title(title: str) -> str:
    """An encyclopedia title without its lowercase qualifier: "Hotspot (geology)" → "Hotspot",
    "Mercury (planet)" → "Mercury"; a qualifier with a capital or a digit is part of the name
    ("Eastern Front (World War II)" stays whole).

    Args:
        title: An article's title.

    Returns:
        The title without the qualifier, or the title itself.
    """
    m = _QUALIFIER.match(title.strip())
    return m.group("name") if m else title


#: A title and its bracketed qualifier, of any letters: "Western Front (World War II)", "Mercury (planet)".
_ANY_QUALIFIER = re.compile(r"^(?P<name>.+?)\s+\((?P<qualifier>[^()]+)\)$")


def namesakes(title: str, other: str) -> bool:
    """Whether two encyclopedia titles name two things of one name, told apart by their bracketed qualifiers:
    "Western Front (World War II)" and "Western Front (World War I)", "Mercury (element)" and "Mercury (planet)".
    The encyclopedia gives a name a qualifier only to tell its senses apart (Wikipedia's article-title policy,
    *Disambiguation*), so the two are never one thing. A title without a qualifier is no namesake: "Mercury" may
    be either.

    Args:
        title: An article's title.
        other: Another title (a section's, a chart's subject).

    Returns:
        True when both carry a qualifier, their names are the same (folded) and their qualifiers differ.
    """
    a, b = _ANY_QUALIFIER.match(title.strip()), _ANY_QUALIFIER.match(other.strip())
    return (a is not None and b is not None and fold(a.group("name")) == fold(b.group("name"))
            and fold(a.group("qualifier")) != fold(b.group("qualifier")))


def has_cjk(text: str) -> bool:
    """Tell whether ``text`` holds any Han, kana or Hangul character."""
    return CJK_RE.search(text) is not None


def fold(text: str) -> str:
    """Lowercase and strip diacritics (``"Énergie"`` -> ``"energie"``).

    Compatibility forms are unified too (NFKD: ligatures, full-width letters).
    Only combining diacritical marks are dropped, so vowel signs of Indic
    scripts survive.

    Args:
        text: Any text.

    Returns:
        The folded text, NFC.
    """
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return unicodedata.normalize("NFC", _DIACRITICS_RE.sub("", decomposed))


def tokenize(text: str) -> list[str]:
    """Split text into lowercased, accent-folded word tokens.

    A token is a run of letters and digits (``_`` and punctuation split
    words, so ``"l'énergie"`` gives ``["l", "energie"]``). Han characters and
    kana, written without spaces, become one token per character; Hangul words
    stay whole.

    Args:
        text: Any text.

    Returns:
        Tokens in text order, repeats kept.
    """
    tokens: list[str] = []
    for word in _WORD_RE.findall(fold(text)):
        if _HAN_KANA_RE.search(word):
            tokens.extend(_MIXED_WORD_RE.findall(word))
        else:
            tokens.append(word)
    return tokens


_STOPWORDS_RAW: dict[str, str] = {
    "en": """
        a about above after again against all also am an and any are as at be because been
        before being below between both but by can could did do does doing down during each
        few for from further had has have having he her here hers herself him himself his how
        i if in into is it its itself just me more most my myself no nor not of off on once
        only or other our ours ourselves out over own same she should so some such than that
        the their theirs them themselves then there these they this those through to too under
        until up very was we were what when where which while who whom why will with would you
        your yours yourself yourselves s t don isn aren wasn weren doesn didn won
    """,
    "es": """
        a al algo algunas algunos ante antes como con contra cual cuando de del desde donde
        durante e el ella ellas ellos en entre era eran es esa esas ese eso esos esta estaba
        estado estan estar este esto estos fue fueron ha han hasta hay la las le les lo los mas
        me mi mis muy nada ni no nos nosotros o os otra otras otro otros para pero poco por
        porque que quien se sea ser si sin sobre son su sus tambien te tiene tienen todo todos
        tu tus u un una unas uno unos y ya yo él más qué sí también está están
    """,
    "fr": """
        a au aux avec ce ces cette c d dans de des du elle elles en est et été être eu il ils
        j je l la le les leur leurs lui m ma mais me mes moi mon n ne nos notre nous on ont ou
        où par pas pour plus qu que qui s sa sans se ses si son sont sur t ta te tes toi ton tu
        un une vos votre vous y à ça était sont ont cet comme ainsi
    """,
}

_STOPWORDS: dict[str, frozenset[str]] = {
    lang: frozenset(fold(word) for word in raw.split()) for lang, raw in _STOPWORDS_RAW.items()
}


def stopwords(lang: str) -> frozenset[str]:
    """Return the stopword set of a language, accent-folded like :func:`tokenize`.

    Args:
        lang: ``"en"``, ``"es"`` or ``"fr"``; any other value (``""`` for an
            unknown language) gives the union of the three.

    Returns:
        A frozen set of folded tokens.
    """
    found = _STOPWORDS.get(lang)
    if found is not None:
        return found
    return _STOPWORDS_ALL


_STOPWORDS_ALL = frozenset().union(*_STOPWORDS.values())

# --------------------------------------------------------------------------- sentences

_COMMON_ABBREVIATIONS = """
    al approx art ca cf ch chap dept dr ed eds est fig figs gen inc jr ltd max min mr mrs ms
    mt no nos nr op opp p pp prof sr st vol vols vs
"""
_ABBREVIATIONS: dict[str, frozenset[str]] = {
    "en": frozenset(
        (
            _COMMON_ABBREVIATIONS
            + """ capt col corp co gov lt sen rep sgt ft ave blvd rd jan feb mar apr jun jul aug
            sep sept oct nov dec mon tue wed thu fri sat sun"""
        ).split()
    ),
    "es": frozenset(
        (
            _COMMON_ABBREVIATIONS
            + """ sra srta dra d dña ud uds pág págs núm aprox av avda cía ee uu cap lic
            ing arq excmo ilmo"""
        ).split()
    ),
    "fr": frozenset(
        (
            _COMMON_ABBREVIATIONS
            + """ m mm mme mmes mlle mlles pr ste av apr env chap éd coll réf cie boul"""
        ).split()
    ),
}
_ABBREVIATIONS_ALL = frozenset().union(*_ABBREVIATIONS.values())
#: Abbreviations that end a sentence unless a number follows ("No. 5", "p. 12").
_NUMERIC_ABBREVIATIONS = frozenset(
    "no nos nr núm op opp p pp vol vols art fig figs ch chap cap pág págs".split()
)
#: English months' and days' abbreviations end a sentence unless a number follows too ("Oct. 12, 1492", but "… light
#: energy from the Sun. A leaf …" is two sentences: a reader found them one). Not in French, whose "apr. J.-C." is
#: "après".
_DATE_ABBREVIATIONS = frozenset("jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun".split())
#: Words that open a sentence and never follow an initial inside a name: after "Leo I." or "World War I.", "In 454,
#: Aetius was assassinated" is a new sentence (a reader found the two quoted as one), while "J. R. R. Tolkien",
#: "John F. Kennedy" and "Robert M. La Follette" go on.
_SENTENCE_OPENERS = frozenset(
    "in the a an he she it they this these those his her its their after during when on at by from as however "
    "since under while although there following despite en el los las il elle ils après durante tras dans "
    "pendant".split()
)

_TERMINATOR_RE = re.compile(r"[.!?…。！？]+(?:[ \u00a0\u202f]?[\"'”’»)\]])*")
_CJK_STOP = frozenset("。！？")
_NEXT_RE = re.compile(r"\s+[\"'“‘«¿¡(\[]*\s*(\w)")
_PREV_WORD_RE = re.compile(r"[\w.\-']*$")
_NEXT_WORD_RE = re.compile(r"[^\W\d_]+")
_ACRONYM_RE = re.compile(r"(?:[^\W\d_]{1,3}\.)+[^\W\d_]{1,3}")
_PARAGRAPH_RE = re.compile(r"\n\s*\n")


def split_sentences(text: str, lang: str = "en") -> list[str]:
    """Split text into sentences with rules that suit English, Spanish and French.

    A sentence ends at ``.``, ``!``, ``?`` or ``…`` (with any closing quotes or
    brackets) followed by whitespace and an upper-case letter or a digit, and
    always at ``。！？`` and at blank lines. A line break ends a sentence unless
    the next line starts in lower case (hard-wrapped prose). A full stop does
    not end a sentence after a known abbreviation (``Dr.``, ``Sra.``, ``Mme.``),
    an initial (``J. R. R. Tolkien``), a dotted acronym (``U.S.``, ``e.g.``) or
    inside a number (``2.5``); but an English month's or day's abbreviation
    ends one unless a number follows (``the Sun. A leaf``, not ``Oct. 12``),
    and so does a capital letter before a word that opens sentences
    (:data:`_SENTENCE_OPENERS`: ``Pope Leo I. In 454``).

    Args:
        text: Plain text (see :func:`clean_text`).
        lang: ``"en"``, ``"es"`` or ``"fr"``; other values use all three
            abbreviation lists.

    Returns:
        Non-empty, stripped sentences in text order.
    """
    abbreviations = _ABBREVIATIONS.get(lang, _ABBREVIATIONS_ALL)
    numeric = _NUMERIC_ABBREVIATIONS | _DATE_ABBREVIATIONS if lang == "en" else _NUMERIC_ABBREVIATIONS
    sentences: list[str] = []
    for paragraph in _PARAGRAPH_RE.split(text):
        for block in _join_wrapped_lines(paragraph):
            sentences.extend(_split_block(block, abbreviations, numeric))
    return sentences


def _join_wrapped_lines(paragraph: str) -> list[str]:
    blocks: list[str] = []
    for line in paragraph.split("\n"):
        line = line.strip()
        if not line:
            continue
        if blocks and line[0].islower():
            blocks[-1] = f"{blocks[-1]} {line}"
        else:
            blocks.append(line)
    return blocks


def _split_block(block: str, abbreviations: frozenset[str], numeric: frozenset[str] = _NUMERIC_ABBREVIATIONS
                 ) -> list[str]:
    out: list[str] = []
    start = 0
    for match in _TERMINATOR_RE.finditer(block):
        end = match.end()
        if not _CJK_STOP.isdisjoint(match.group()):
            out.append(block[start:end])
            start = end
            continue
        nxt = _NEXT_RE.match(block, end)
        if nxt is None:
            continue  # no whitespace follows (2.5, e.g.x) or end of block
        first = nxt.group(1)
        if not (first.isupper() or first.isdigit() or CJK_RE.match(first)):
            continue
        if match.group()[0] == "." and len(match.group().rstrip("\"'”’»)] \u00a0\u202f")) == 1:
            window = block[max(start, match.start() - 40) : match.start()]
            prev = _PREV_WORD_RE.search(window).group().strip(".-'")  # type: ignore[union-attr]
            low = prev.lower()
            before = block[max(0, match.start() - len(prev) - 1) : match.start() - len(prev)]
            # a unit after a number ("500 g."), not the "a." of "44 a. C." before another initial
            unit = prev.islower() and re.search(r"\d[ \u00a0\u202f]?$", block[max(0, match.start() - 3):
                                                                       match.start() - len(prev)]) \
                and not re.match(r"\w\.", block[nxt.start(1):nxt.start(1) + 2])
            opener = _NEXT_WORD_RE.match(block, nxt.start(1))
            if len(prev) == 1 and prev.isalpha() and before != "°" and not unit and not (
                    prev.isupper() and opener is not None and opener.group().lower() in _SENTENCE_OPENERS
                    and block[opener.end():opener.end() + 1] != "."):  # "E. T. A. Hoffmann": an initial
                continue  # initial or single-letter abbreviation ("5 °C." and "500 g." end a sentence)
            if _ACRONYM_RE.fullmatch(prev):
                continue  # dotted acronym: U.S., e.g., a.m.
            if low in abbreviations and (low not in numeric or first.isdigit()):
                continue
        out.append(block[start:end])
        start = end
    out.append(block[start:])
    return [s.strip() for s in out if s.strip()]


# --------------------------------------------------------------------------- chunks


def chunk_text(text: str, max_chars: int = 1000, lang: str = "en") -> list[str]:
    """Cut text into passages of at most ``max_chars`` on sentence boundaries.

    Sentences are packed greedily, paragraphs kept apart by a blank line (so
    a heading is never glued to the sentence after it); a sentence longer than ``max_chars`` (a
    5 MB single line, a table dump) is cut at the last space before the limit,
    or exactly at the limit when there is none.

    Args:
        text: Plain text.
        max_chars: Largest passage, in characters (>= 50).
        lang: Language for :func:`split_sentences`.

    Returns:
        Non-empty passages in text order; ``[]`` for blank text.
    """
    max_chars = max(50, max_chars)
    chunks: list[str] = []
    current = ""
    for paragraph in _PARAGRAPH_RE.split(text):
        joint = "\n\n"  # a heading stays its own paragraph, never glued to the next sentence
        for sentence in split_sentences(paragraph, lang):
            for piece in _hard_split(sentence, max_chars):
                if not current:
                    current = piece
                elif len(current) + len(joint) + len(piece) <= max_chars:
                    current = f"{current}{joint}{piece}"
                else:
                    chunks.append(current)
                    current = piece
                joint = " "
    if current:
        chunks.append(current)
    return chunks


def _hard_split(sentence: str, max_chars: int) -> list[str]:
    if len(sentence) <= max_chars:
        return [sentence]
    pieces: list[str] = []
    pos = 0
    n = len(sentence)
    while n - pos > max_chars:
        cut = sentence.rfind(" ", pos + max_chars // 2, pos + max_chars + 1)
        if cut <= pos:
            cut = pos + max_chars
        piece = sentence[pos:cut].strip()
        if piece:
            pieces.append(piece)
        pos = cut
    tail = sentence[pos:].strip()
    if tail:
        pieces.append(tail)
    return pieces
