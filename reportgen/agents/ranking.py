"""Term matching and sentence ranking shared by the planner and the agents (extractive mode)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable

from reportgen.sources.models import Passage
from reportgen.sources.text import bare_title, fold, has_cjk, singular, split_sentences, stopwords, tokenize

__all__ = [
    "LIST_ITEMS", "LIST_ITEM_WORDS", "MENTION_PREFIX", "OPENING_PHRASE", "RankedSentence", "a_name", "about",
    "another_thing", "common_terms", "compared_only", "compounded_only", "compounds", "head_noun", "listed",
    "mentions", "named_after", "named_with_a_part", "of_its_own_kind", "phrase_at", "unnamed", "names_subject",
    "quotable", "rank_sentences", "stem", "subject_parts", "terms", "unnamed_for", "written_subjects",
    "with_antecedents", "without_names", "writes_phrase",
]

#: Shortest and longest sentence quoted, in characters: shorter ones are
#: usually headings or fragments, longer ones run-ons from badly split text.
MIN_SENTENCE_CHARS = 25
MAX_SENTENCE_CHARS = 600

#: Sentences about the source itself ("This article deals only with ..."),
#: which make no sense quoted in a report, and what is left of a cross-reference once its link is gone ("For a
#: discussion of the role of drainage practices in agriculture.", a reader found it under *Agriculture*). "The
#: following" is the source's own text only before what it introduces (a colon a few words on, "is", "are"): "in
#: July of the following year" is a time, and had left the one sentence of *Atahualpa* out of its own section.
_META = re.compile(r"\b(this article|cet article|este art[ií]culo)\b"
                   r"|\bthe following(?=(?:\s+[\w-]+){0,3}\s*:|\s*[.:]|\s+(?:is|are)\b)"
                   r"|^for\s+(?:a\s+|an\s+|further\s+|more\s+)?(?:discussion|information|details|overview|treatment)"
                   r"\s+(?:of|on|about)\b", re.IGNORECASE)
#: Openers that point back to a sentence the quote would not carry ("It is
#: ...", "In contrast, ...", "His total reign is the longest ...", whose king only the sentence before names):
#: such a sentence is quoted only after the one before it.
_ANAPHORIC = {
    "en": ("it ", "its ", "this ", "these ", "those ", "they ", "their ", "he ", "she ", "his ", "her ",
           "in contrast", "however",
           "moreover", "also ", "such ", "there ",
           # connectives that carry on from the sentence before: "Thereby, the machine produces …"
           "thereby", "thus", "therefore", "hence", "consequently", "furthermore", "in addition,", "as a result,",
           "nevertheless", "nonetheless", "accordingly", "likewise", "similarly,", "otherwise,", "instead,",
           "conversely", "in turn,", "by contrast", "on the other hand",
           # an example of what the sentence before said: "For instance, cold fronts can bring bands of …"
           "for instance", "for example",
           # what the sentence before did: "In doing so, the water goes through different phases …"
           "in doing so", "by doing so", "in so doing"),
    "fr": ("il ", "elle ", "ils ", "elles ", "cette ", "ces ", "ce ", "cela ", "son ", "sa ", "ses ", "leur ",
           "leurs ", "en revanche", "cependant", "séchée",
           "ainsi,", "donc", "de plus", "par ailleurs", "toutefois", "néanmoins", "en outre", "par conséquent",
           "de même,", "inversement", "à l'inverse", "à l’inverse", "en contrepartie",
           "avec lui ", "avec elle ", "avec eux ", "chez lui ", "chez elle ", "pour lui ", "pour elle ", "selon lui ",
           "selon elle ", "en lui ", "en elle ", "sur lui ", "sur elle "),
    "es": ("él ", "ella ", "ellos ", "ellas ", "esta ", "este ", "estos ", "estas ", "su ", "sus ", "sin embargo",
           "en cambio",
           "así,", "por lo tanto", "además,", "no obstante", "asimismo", "por consiguiente", "por ello",
           "por el contrario", "a la inversa",
           # Spanish drops the subject a sentence shares with the one before: "Está ubicado en la región oeste
           # del país …" (California), "Fue la primera acción encubierta …", "Comunica el mar Caribe con el golfo
           # de México." stood alone in a report on Mexico's economy (a reader's find); the verbs such summaries
           # open on. Not the impersonal "se" ("Se cree que …")
           "es ", "está ", "fue ", "era ", "son ", "están ", "fueron ", "eran ", "tiene ", "tienen ", "tuvo ",
           "cuenta con ", "posee ", "limita ", "comunica ", "nació ", "murió ", "ocupa ", "abarca ", "alberga ",
           "forma parte ", "se encuentra ", "se ubica ", "se sitúa ", "se localiza ", "se extiende ", "ha sido ",
           "recibe ", "representa ", "constituye ",
           # a preposition on a pronoun: "En él nacen los glaciares de Hubbard y Logan." (of *Monte Logan*) had
           # been the whole introduction of "¿Cómo se forman los glaciares?"
           "en él ", "en ella ", "en ellos ", "en ellas ", "con él ", "con ella ", "por él ", "por ella ",
           "para él ", "para ella ", "de él ", "sobre él ", "sobre ella "),
}


#: A pronoun after an opening phrase points back as well: "In 1770, he married Marie Antoinette",
#: "Later, it became a province of the Achaemenid Empire", "Like Saturn's largest moon, Titan, it is larger"
#: (English: up to two opening phrases), "Among the most influential figures in jazz, his career spanned …"
#: (an opening phrase of up to 100 characters: "One of the Germanic successor states to the Western Roman Empire,
#: it was originally created by the settlement of the Visigoths", 64, had stood alone in a report on the Roman
#: Empire, the kingdom named only the sentence before; 60 until stop 29).
#: A bracketed group may stand in the phrase: "A member of the People's Action Party (PAP), his authoritarian
#: governance …" (a reader found it under a section on the tiger).
#: An impersonal "it" or "il" points nowhere: "In 2019, it was estimated that …", "En France, il existe …",
#: "En 2020, il n'y a pas de vaccin". English: up to four comma-ended parts before the pronoun, an opening phrase
#: may hold a list ("Associated with musical genres including Afropop, jazz, and world music, she was an advocate
#: against apartheid", a reader found it under *Jazz*).
_ANAPHORIC_AFTER = {
    "en": re.compile(r"^(?:(?:[^,;:()]|(?<=\d),(?=\d{3})|\([^()]{0,40}\)){1,100},\s+){1,4}(?:he|she|they|his|her|its|"
                     r"their|these|those|"
                     r"it(?!\s+(?:is|was|has\s+been|had\s+been|will\s+be)\s+"
                     r"(?:estimated|thought|believed|said|known|reported|claimed|expected|"
                     r"possible|likely|clear|common|necessary|important)))\b", re.IGNORECASE),
    "fr": re.compile(r"^(?:[^,;:()]{1,100},\s+){1,3}"
                     r"(?:ces|elle|ils|elles|il(?!\s+(?:(?:n')?y\s+(?:a|avait|eut)|existe|faut|"
                     r"est\s+(?:possible|probable|"
                     r"nécessaire|clair)|semble)))\b", re.IGNORECASE),
    "es": re.compile(r"^(?:[^,;:()]{1,100},\s+){1,3}(?:él|ella|ellos|ellas|estos|estas|esos|esas)\b", re.IGNORECASE),
}


#: An opening phrase that ends on a pronoun points back through it: "According to them, the literature …",
#: "Despite this, …", "Selon eux, …", "Por ello, …"; so does one holding a possessive: "After her death, Egypt
#: became a province of the Roman Empire" (Cleopatra's, named only before).
#: An English opening phrase with no comma, then "he", "she" or "they": "During World War II he served in the
#: navy", "In 1770 he moved to Vienna" point back as the comma's form does (:data:`_ANAPHORIC_AFTER`); a reader
#: found such a sentence under a section it said nothing of. No relative word in the phrase ("In places where
#: they nest" is no opening phrase of that kind).
#: So does an opening phrase on a demonstrative or a possessive: "In these tissues the absorbed glucose …", "By that
#: time, …", "To its west it is connected to the Atlantic Ocean" (a reader found it under *Istanbul*),
#: "Durante estos 35 años, México experimentó …" (a reader found it closing a report on Mexico's economy, the
#: years named only before), "Pendant cette période, …".
#: "Among his best-known works are the songs …", "In Japan it is known simply as pops" (a reader's finds under
#: *George Gershwin* and *Japan*): the same after "among", "with", "despite", "like", "unlike", "besides",
#: "through" or "of", and with "it" when it is no impersonal "it" ("In mathematics it is common to write …").
_ANAPHORIC_UNMARKED = re.compile(
    r"^(?:in|on|at|during|after|before|from|until|by|following|since|upon|throughout|under|around|within|to|"
    r"among|with|despite|like|unlike|besides|through|of)\s"
    r"(?:(?:this|these|those|that|such|its|their|his|her)\s|"
    r"(?:(?!\b(?:where|which|that|who|whom|when|if|whose)\b)[^,;:()]){1,80}?\s(?:he|she|they|"
    r"it(?!\s+(?:is|was|has\s+been|had\s+been|will\s+be)\s+(?:\w+\s+)?(?:that|to|whether|if)\b))\s)",
    re.IGNORECASE)
#: A noun the encyclopedia refers back to its article's subject by, opening a sentence as its subject or possessor:
#: "The country's western border is formed by the Yellow Sea" (Korea, under *Japan*), "The sea was the location
#: for the Battle of the Coral Sea", "The group drew on the music of 1950s rock and roll", "In the composer's time
#: clavier referred to …" (a reader's finds). Not when a name or "of" follows ("The band Queen", "The city of
#: Paris"): the phrase names its own. English only.
_REFERRING = re.compile(
    r"^(?:(?:in|at|by|on|during|after|before|under|for)\s+)?the\s+"
    r"(?:country|city|town|village|state|region|province|island|nation|empire|kingdom|republic|capital|sea|lake|"
    r"river|mountain|company|firm|band|group|team|club|party|film|movie|novel|book|album|song|painting|poem|play|"
    r"opera|symphony|building|church|cathedral|temple|ship|composer|author|artist|writer|poet|painter|singer|"
    r"king|queen|emperor|empress|president|dynasty|treaty|festival)"
    r"(?:(?:'s|’s)\s|\s+(?:is|was|were|are|has|had|became|remains|remained|drew|lies|lay|covers|consists|"
    r"contains|includes|included|began|ended)\b)", re.IGNORECASE)
#: The words an opening phrase starts on, by language: a preposition or a conjunction of time or manner. A
#: possessive or a demonstrative before a comma points back only in such a phrase ("After her death, …"); in a
#: main clause it is the clause's own ("Wolfgang Amadeus Mozart completed his Symphony No. 41 in C major, K. 551,
#: …" had been left out, and the symphony's section with it).
_OPENING_WORD = {
    "en": r"(?:after|before|during|in|on|at|for|with|by|from|since|until|upon|following|despite|through|"
          r"throughout|under|within|among|as|when|while|to|like|unlike|besides|beyond|over|without|into|toward|"
          r"towards|against|according|because)\b",
    "fr": r"(?:après|avant|pendant|durant|dans|en|à|au|aux|sur|sous|par|pour|avec|depuis|dès|lors|selon|malgré|"
          r"vers|entre|contre|sans|comme|quand|lorsque|de|du|chez)\b",
    "es": r"(?:después|antes|durante|en|a|al|sobre|bajo|por|para|con|desde|hasta|según|tras|entre|contra|sin|"
          r"como|cuando|de|del|ante|hacia)\b",
}
_ANAPHORIC_OPENING = {
    "en": re.compile(r"^(?:[^,;:()]{0,60}\b(?:them|it|this|these|those|him|her|that)\s*|" + _OPENING_WORD["en"]
                     + r"[^,;:()]{0,60}\b(?:his|her|its|their)\s[^,;:()]{1,40}),", re.IGNORECASE),
    "fr": re.compile(r"^(?:[^,;:()]{0,60}\b(?:eux|elles?|lui|cela|ceci|celui-ci|celle-ci)\s*|" + _OPENING_WORD["fr"]
                     + r"[^,;:()]{0,60}\b(?:cette|ces|cet)\s[^,;:()]{1,40}),", re.IGNORECASE),
    "es": re.compile(r"^(?:[^,;:()]{0,60}\b(?:ellos|ellas|él|ella|ello|esto|eso)\s*|" + _OPENING_WORD["es"]
                     + r"[^,;:()]{0,60}\b(?:este|esta|estos|estas|ese|esa|esos|esas|aquel|aquella|aquellos|"
                     r"aquellas)\s[^,;:()]{1,40}),", re.IGNORECASE),
}


#: A number or quantifier before "such" points back to what the sentence before named: "Three such wars took place"
#: (of the Punic Wars, named only before; a reader found it under *Carthage*), "Many such cases …". Not "such as"
#: ("Examples such as rice …" names its own). English only.
_SUCH = re.compile(r"^(?:[a-z0-9]+\s+){1,2}such\s+(?!as\b)", re.IGNORECASE)


#: A sentence opening on one more of a kind points back to the ones named before: "A third isotope, tritium, is
#: produced in fission", "Another name for the cello is …", "Un troisième isotope, le tritium 3H, …" (a reader found
#: it in a section on fission, the first two isotopes named only in *Hydrogène*), "Otra especie …"; so do the
#: others of a kind: "Other types, such as elementary or secondary school buses …, are free" and "Other reasons
#: include maternal health …" (a reader found both under "Education in Finland", their kind named only before).
_SEQUEL = {
    "en": re.compile(r"^(?:another|other(?!\s+than\b)|(?:a|an)\s+(?:second|third|fourth|fifth|sixth|further))\s",
                     re.IGNORECASE),
    "fr": re.compile(r"^(?:(?:un|une)\s+(?:autre|deuxième|second|seconde|troisième|quatrième|cinquième|sixième)|"
                     r"d['’]autres)\s", re.IGNORECASE),
    "es": re.compile(r"^(?:otr[oa]s?|(?:un|una)\s+(?:segund[oa]|tercer[oa]?|cuart[oa]|quint[oa]|sext[oa]))\s",
                     re.IGNORECASE),
}


#: What stands for a thing named before, in English: a quantifier alone ("Many are brightly coloured", "Most of these
#: species eat …", "Both are named for him"), a demonstrative after "of" or "among" ("The males of these species
#: tend to have …", a reader found it under *Feather* with no species named), or before a rank in the first clause
#: ("A member of this family is also called a felid", alone under *Felidae* in "Why do cats purr?"), and "the
#: word", "the term" or "the name" whose word the sentence does not give ("In the sense of "flowing water", the
#: word may also be applied …", of *Flood*, opened an introduction on tides). A quantifier of "this" or "that" ("Most
#: of this pressure results from …", a reader found it alone under *Heart*), and a possessive inside the noun phrase
#: the sentence opens on ("The mass of its central supermassive black hole is …", before its galaxy was named).
_STANDS_FOR = re.compile(
    r"^(?:(?:many|most|some|several|all|few|both|each|others)\s+(?:of\s+(?:them|these|those|which)\b|"
    r"(?:are|were|have|had|can)\b)"
    r"|(?:many|most|much|some|all|part|half|none|one|each|any)\s+of\s+(?:this|that)\s"
    r"|(?:the|a|an|one|most|much|part|some|many)\s+(?:[a-z-]+\s+){1,3}?of\s+(?:its|their|his|her)\s"
    r"|[^,;:()]{0,60}\b(?:of|among)\s+(?:these|those)\b(?!\s+(?:who|which|that|whose|where|with|in|of)\b)"
    r"|[^,;:()]{0,80}\b(?:of|among|in)\s+(?:this|these|those)\s+(?:family|families|genus|genera|group|groups|"
    r"species|order|orders|subfamily|class|kinds?|types?)\b"
    r"|(?:[^,;:()]{1,100},\s+)?the\s+(?:word|term|name)\s+(?:is|was|may|can|has|had|comes|came|derives|derived|"
    r"originally|first|also|itself|refers|referred|became|now|then|later|contrasts|means|meant|denotes|describes|"
    r"applies|covers|includes)\b)", re.IGNORECASE)


#: A time the sentence before gave: "Printing by pressing an inked image onto paper appeared later that century"
#: (a reader found it under *Johannes Gutenberg*, the century given in another section), "… declare war on
#: Japan the next day", "la même année", "ese mismo año". Not when the sentence gives a date or a century before it
#: ("… in January 2005 … and verified later that year"), nor "the same year as …" (a comparison).
_THAT_TIME = {
    "en": re.compile(r"\b(?:that|the\s+same|the\s+following|the\s+next|the\s+previous|the\s+preceding)\s+"
                     r"(?:year|century|decade|month|day|week|season|era)\b(?!\s+(?:as|than)\b)", re.IGNORECASE),
    "fr": re.compile(r"\b(?:la\s+même\s+(?:année|époque)|cette\s+(?:année-là|époque)|l['’]année\s+suivante|"
                     r"le\s+lendemain|ce\s+siècle)\b(?!\s+(?:que|d['’]|du|de)\b)", re.IGNORECASE),
    "es": re.compile(r"\b(?:ese\s+(?:mismo\s+)?año|el\s+mismo\s+año|al\s+año\s+siguiente|esa\s+época|"
                     r"ese\s+siglo|al\s+día\s+siguiente)\b(?!\s+(?:que|de)\b)", re.IGNORECASE),
}
#: A date or century before such a time: the sentence gives it itself.
_A_DATE = re.compile(r"\d|\b(?:century|centuries|siècles?|siglos?)\b", re.IGNORECASE)


def _at_a_time_before(sentence: str, lang: str) -> bool:
    """Whether a sentence dates itself by a time only the sentence before gives (:data:`_THAT_TIME`)."""
    found = _THAT_TIME.get(lang, _THAT_TIME["en"]).search(sentence)
    return found is not None and not _A_DATE.search(sentence[:found.start()])


#: What the offline encyclopedia's plain text leaves of a formula: two word joiners (U+2060) with nothing
#: between them ("the transformation is applied to it: [U+2060 U+2060].", "It is denoted [U+2060 U+2060] or
#: [U+2060 U+2060]"); 45 such in the English edition. The sentence says nothing without it.
_LOST_FORMULA = re.compile("\u2060\\s*\u2060")


#: The French pronoun "y" (there, in it) in the first clause points back to the place or thing the sentence before
#: named: "La production d'électricité y est assurée par …" (of a country named only before; a reader found it in a
#: section on fission), "On y trouve des dunes", "Le fleuve s'y jette". Not the impersonal "il y a", nor "y
#: compris" (including), nor the Spanish "y" of a name ("Ramón y Cajal": a capital follows).
_THERE_FR = re.compile(r"^(?![^,;:()]*\b(?i:il)\s+(?:n')?y\s)[^,;:()]{0,80}?(?:\s|\b[nsjmt]')y\s+(?!compris\b)"
                       r"[a-zéèêàâîôûç]")


#: A first clause whose verb takes a pronoun as its object points back through it: "CNN labelled it one of the
#: Seven Natural Wonders", "The Queensland National Trust named it a state icon", "Rapid urbanization has made it
#: the country's primate city" (irregular past forms are listed) (what "it" is, the sentence
#: never says). Not "made it possible to fly" or "found it hard to say": an "it" that stands for the clause
#: to come. English only (French and Spanish put the pronoun before the verb, "l'a inscrit", "lo nombró").
_ANAPHORIC_OBJECT = {
    "en": re.compile(r"^[^,;:()]{1,60}?\b(?:[a-z]+(?:ed|s)|made|found|kept|left|held|took|gave|brought|saw|put|set|"
                     r"won|lost|built|sold|bought)\s+(?:it|them|him)\b(?![^,;:()]*\b(?:to|that)\b)"),
}


#: A sentence opening on what belongs to an unnamed thing points back to it (bridging): "Risk factors include
#: diet, obesity, smoking …", quoted from *Colorectal cancer* into a section on obesity, read as obesity's;
#: "Symptoms include fever", "Treatment involves rest". The thing is named only in the sentences before. So do
#: examples of it: "Los ejemplos incluyen sal, mostaza, pimienta, …" (of condiments, named before), which a reader
#: found alone in a report on olive oil; "Examples include …", "Les exemples incluent …".
_BRIDGING = {
    "en": re.compile(r"^(?:(?:the\s+)?(?:common|early|typical|main|usual|other|most\s+common|notable)\s+)?"
                     r"(?:symptoms|signs|risk\s+factors|causes|complications|treatments?|diagnosis|prevention|"
                     r"side\s+effects|examples)\s+(?:include|includes|are|is|may|can|involves?|consists?|usually|"
                     r"often)\b",
                     re.IGNORECASE),
    "fr": re.compile(r"^(?:les|le)\s+(?:symptômes|signes|facteurs\s+de\s+risque|causes|complications|"
                     r"traitements?|diagnostic|exemples)\s+(?:comprennent|incluent|sont|est|peuvent|peut|consiste|"
                     r"repose)\b",
                     re.IGNORECASE),
    "es": re.compile(r"^(?:(?:los|el|las|la)\s+)?(?:síntomas|signos|factores\s+de\s+riesgo|causas|complicaciones|"
                     r"tratamientos?|diagnóstico|ejemplos)\s+(?:incluyen|son|es|pueden|puede|consiste)\b",
                     re.IGNORECASE),
}


#: A sentence opening on "the" and one common noun, then its verb or a comma, speaks of its article's subject by
#: its kind ("The bacterium is a worldwide problem", "The rash is sometimes itchy", "The revolution was
#: characterized by …", "The book, first printed in 1543 CE in Nuremberg, …" of Copernicus's work): away from the
#: sentence before, it reads as about whatever the section is on (:func:`names_another`).
_DEFINITE = {
    # also after an opening phrase: "As of 2020, the city had a population of 1.46 million", of *Kyoto*, stood
    # under a section on Osaka (a reader's find)
    "en": re.compile(r"^(?:[^,;:()]{1,60},\s+)?[Tt]he\s+([a-z]+)(?:\s+(?:is|was|are|were|has|had|have|became|remains|"
                     r"remained|can|may|"
                     r"bears?|consists?|lies|lay|grows?|grew|"
                     # a past tense or a verb of what a thing says or holds: "The revolution concluded the collapse
                     # …", "The theory holds that mitochondria …" (a reader found both quoted away from their thing)
                     r"[a-z]+ed|holds|states|suggests|proposes|describes|explains|includes|contains|refers|covers|"
                     r"involves|uses|requires|provides|produces|continues|began|begins|led|took|gave|made|went|"
                     r"came|saw|won|lost|left)\b|\s*,)"),
    "fr": re.compile(r"^(?:[Ll]es?|[Ll]a)\s+([a-zéèêàâîôûç]+)\s+(?:est|était|sont|étaient|a|avait|ont|peut|devient|"
                     r"devint|reste)\b"),
    "es": re.compile(r"^(?:[Ee]l|[Ll]os|[Ll]as?)\s+([a-záéíóúñ]+)\s+(?:es|era|son|eran|fue|fueron|ha|había|tiene|puede|"
                     r"se)\b"),
}


def names_another(sentence: str, title: str, lang: str) -> bool:
    """Whether a sentence speaks of its article's subject by its kind alone (:data:`_DEFINITE`), the kind not
    being a word of the article's title: "The rash is sometimes itchy and is not as bright as that of measles",
    of *Rubella*, had stood under a section on measles. "The violin is …" in *Violin* names its subject.

    Args:
        sentence: A source sentence.
        title: Its article's title.
        lang: The language.

    Returns:
        True when the sentence is quoted only after the sentence before it.
    """
    found = _DEFINITE.get(lang, _DEFINITE["en"]).match(sentence)  # the title's terms are accent-folded: so is the
    return found is not None and stem(fold(found.group(1))) not in terms(title, lang)  # kind ("La photosynthèse")


#: A sentence opening on "the" and a common noun (:func:`by_its_kind`).
_THE_NOUN = {"en": re.compile(r"^[Tt]he\s+([a-z]+)\b"), "fr": re.compile(r"^(?:[Ll]es?|[Ll]a)\s+([a-zéèêàâîôûç]+)\b"),
             "es": re.compile(r"^(?:[Ee]l|[Ll]os|[Ll]as?)\s+([a-záéíóúñ]+)\b")}


#: An English sentence opening on "the" and its noun, past modifiers written with a number or a hyphen and a
#: bracket: "The 2,525-kilometre-long (1,569 mi) river rises …", "The city …".
_THE_MODIFIED_NOUN = re.compile(r"^[Tt]he\s+(?:[\d.,]+[\-‐][\w\-‐]+\s+|[a-z]+[\-‐][\w\-‐]+\s+|\([^)]*\)\s+)*"
                                r"([a-z]{4,})\b")


def by_its_kind(sentence: str, title: str, lang: str, opening: str = "") -> bool:
    """Whether a sentence speaks of its article's subject by a common noun of a title of several words, without
    writing the title: "The company sells automobiles … under the Ford brand", of *Ford Motor Company*. In that
    article's own section it is plain; quoted in another section it says no company (a reader found it under
    *Car*, its antecedent not quoted), so there it is quoted only after the sentence before it. So too, in English,
    a sentence opening on "the" and a noun its article's first sentence writes (``opening``), past modifiers: "The
    2,525-kilometre-long (1,569 mi) river rises in the western Himalayas" of *Ganges* ("The Ganges is a
    trans-boundary river of Asia") had opened the report on the rivers of India, the river never named.

    Args:
        sentence: A source sentence.
        title: Its article's title.
        lang: The language.
        opening: The first sentence of its passage ("" when it is that sentence or not known).

    Returns:
        True when the sentence names its subject only by the kind its title, or its first sentence, gives.
    """
    bare = bare_title(title)
    if writes_phrase(sentence, bare):
        return False
    if lang == "en" and opening:
        modified = _THE_MODIFIED_NOUN.match(sentence)
        word = stem(modified.group(1)) if modified else ""
        if word and word not in stopwords(lang) and word in terms(opening, lang) - terms(bare, lang):
            return True
    if len(terms(bare, lang)) < 2:
        return False
    found = _THE_NOUN.get(lang, _THE_NOUN["en"]).match(sentence)
    return found is not None and stem(fold(found.group(1))) in terms(bare, lang)


def quotable(sentence: str, position: int, lang: str) -> bool:
    """Whether a source sentence can stand alone in a report.

    Not a sentence about the source itself, nor one ending on a colon (the list it introduces is not
    quoted with it: "This concept is further refined as:"), and not one that starts by
    pointing back to an earlier sentence ("It is …", "In 1770, he …", "In 1770 he …", or "CNN labelled it …",
    :data:`_ANAPHORIC_OBJECT`, or "Symptoms include …", :data:`_BRIDGING`, or "A third isotope …",
    :data:`_SEQUEL`, or "Most of these species …", :data:`_STANDS_FOR`, or "later that century",
    :data:`_THAT_TIME`, or the French "y", :data:`_THERE_FR`), even when it opens its passage: a
    passage may be an article's second part ("It is the essence of …" opened
    the second passage of *Om*), and an article's own first sentence names
    its subject. ``position`` (the sentence's index in its passage) no longer matters.
    """
    del position
    if _META.search(sentence) or sentence.rstrip().endswith(":") or _LOST_FORMULA.search(sentence):
        return False  # about the source, or introducing a list the quote would not carry ("… refined as:"), or
        # writing a formula the encyclopedia's plain text lost ("It is denoted [U+2060 U+2060] or …")
    after = _ANAPHORIC_AFTER.get(lang, _ANAPHORIC_AFTER["en"])
    opening = _ANAPHORIC_OPENING.get(lang, _ANAPHORIC_OPENING["en"])
    pointing = _ANAPHORIC_OBJECT.get(lang)
    bridging = _BRIDGING.get(lang, _BRIDGING["en"])
    return (not sentence.lower().startswith(_ANAPHORIC.get(lang, _ANAPHORIC["en"])) and not after.match(sentence)
            and not opening.match(sentence) and not (pointing and pointing.match(sentence))
            and not bridging.match(sentence)
            and not (lang == "en" and (_ANAPHORIC_UNMARKED.match(sentence) or _SUCH.match(sentence)
                                       or _REFERRING.match(sentence)))
            and not _SEQUEL.get(lang, _SEQUEL["en"]).match(sentence)
            and not (lang == "en" and _STANDS_FOR.match(sentence)) and not _at_a_time_before(sentence, lang)
            and not (lang == "fr" and _THERE_FR.match(sentence)))


def stem(token: str) -> str:
    """A light plural-folding stem so "renewables" matches "renewable"."""
    if len(token) > 4 and token.endswith("ies"):
        return token[:-3] + "y"
    if len(token) > 5 and token.endswith("oes"):  # volcanoes, potatoes, heroes (but "shoes" is short)
        return token[:-2]
    if len(token) > 4 and token.endswith("es"):
        return token[:-1] if token[-3] in "aeiou" else token[:-2] if token[-3] in "sxz" else token[:-1]
    if len(token) > 3 and token.endswith("s") and not token.endswith("ss"):
        return token[:-1]
    return token


#: Letters of a keyword that must start a word for it to count as mentioned
#: ("hydroelectric" mentions "hydroelectricity"; "power" needs "power").
MENTION_PREFIX = 7


def mentions(words: set[str], keyword: str) -> bool:
    """Whether ``words`` (from :func:`terms`) mention ``keyword``: the word itself, or a word sharing its
    first :data:`MENTION_PREFIX` letters, or, for a keyword of that many letters ending in a silent "e",
    every letter but the "e" (English drops it before a suffix: "financial" mentions "finance",
    "migration" mentions "migrate"; the rule of the Porter stemmer's step 5a, Porter, 1980). A final "o" or
    "a" goes the same way and a final "y" reads as "i" ("volcanic" mentions "volcano", "economic" mentions
    "economy"; Porter's step 1c turns the "y" so); "factor" does not mention "factory".

    Args:
        words: Folded, stemmed terms of a text (:func:`terms`).
        keyword: One folded, stemmed term.

    Returns:
        ``True`` when a word of ``words`` mentions ``keyword``.
    """
    if keyword in words:
        return True
    if len(keyword) < MENTION_PREFIX:
        return False
    prefix = keyword[:-1] if keyword[-1] in "eoa" else keyword[:-1] + "i" if keyword[-1] == "y" else keyword
    return any(w.startswith(prefix[:MENTION_PREFIX]) for w in words)


#: Languages whose spelling writes the accents, so a word without them is another word: French "thé" is not
#: English "the", "pêche" (fishing) is not "péché" (sin). English writes "cafe" and "café" alike.
ACCENTED_SPELLING = frozenset({"fr", "es"})

_RAW_WORD = re.compile(r"[^\W\d_]+")


def writes_accents(text: str, phrase: str, lang: str) -> bool:
    """Whether ``text``, where it writes an accented word of ``phrase`` at all, writes it with its accents.

    The corpora's terms fold accents (:func:`~reportgen.sources.text.fold`), so the French encyclopedia's
    articles quoting English titles ("The Times", *John Knox*'s "The First Blast of the Trumpet") had named
    *Thé*, and *Péché* had been the core of "La pêche". A word is written when a word of ``text`` has its
    folded stem; it is written with its accents when one such word carries the accents up to the word's
    last accented letter. The first letter is compared folded: French drops the accent of a capital
    ("Etats-Unis"). A word accented on its first letter alone, and a text writing the word nowhere, pass.

    Args:
        text: A passage, its title included.
        phrase: The subject as the corpus titles it or as asked ("Thé", "pêche").
        lang: Language of the text; only :data:`ACCENTED_SPELLING`'s are checked.

    Returns:
        ``False`` when ``text`` writes an accented word of ``phrase`` only without its accents.
    """
    if lang not in ACCENTED_SPELLING or phrase.isascii():
        return True
    import unicodedata

    raw = [unicodedata.normalize("NFC", w.lower()) for w in _RAW_WORD.findall(text)]
    for word in (unicodedata.normalize("NFC", w.lower()) for w in _RAW_WORD.findall(phrase)):
        accented = [i for i, ch in enumerate(word) if fold(ch) != ch]
        if not accented or accented[-1] == 0:
            continue
        key, prefix = stem(fold(word)), word[1:accented[-1] + 1]
        written = [w for w in raw if stem(fold(w)) == key]
        if written and not any(w[1:].startswith(prefix) for w in written):
            return False
    return True


def about(text: str, keywords: list[str], lang: str) -> bool:
    """Whether ``text`` mentions every keyword (:func:`mentions` on its :func:`terms`).

    The plot agent's rule for what a chart may show: a "Solar power" chart must
    be about solar power, not about some other power (its numbers' sentences,
    with their source's title, and the timeline's dated sentences).

    Args:
        text: A sentence, usually prefixed with its source's title.
        keywords: The section's distinctive terms (folded, stemmed: :func:`terms`).
        lang: Language of the text.

    Returns:
        ``True`` when every keyword is mentioned (and when there are none).
    """
    words = terms(text, lang)
    return all(mentions(words, k) for k in keywords)


def terms(text: str, lang: str) -> set[str]:
    """Content terms of ``text``: folded, stemmed tokens that are not stopwords.

    Falls back to all tokens when every token is a stopword (a topic such as
    "The Who" must still match something).
    """
    tokens = tokenize(text)
    stop = stopwords(lang)
    # one-letter tokens are noise in alphabets, but a Han character or kana is a word
    kept = {stem(t) for t in tokens if t not in stop and (len(t) > 1 or has_cjk(t)) or t.isdigit()}
    return kept or {stem(t) for t in tokens}


#: Words that end an English noun phrase's head ("Rhapsody *in* Blue", "Battle *of* Hastings").
_HEAD_ENDS = frozenset("of in on at for from with by to into over under about against between".split())


_ROMAN = re.compile(r"^(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$")


def head_noun(name: str, lang: str) -> str:
    """The head noun of a title, folded: what kind of thing it names.

    English puts it last in the phrase before its first preposition ("Rhapsody in Blue" → "rhapsody",
    "2004 Indian Ocean earthquake" → "earthquake", "Battle of Hastings" → "battle"); French and Spanish
    first ("Guerra civil de Nigeria" → "guerra"). Stop words and numbers, Roman numerals too ("World War II" →
    "war"), are skipped.

    Args:
        name: A title or short noun phrase, any case.
        lang: Its language (``"en"``, ``"fr"``, ``"es"``; others read as English).

    Returns:
        The head word as :func:`~reportgen.sources.text.tokenize` gives it, ``""`` when there is none.
    """
    words = tokenize(name)
    if lang not in ("fr", "es"):
        cut = next((i for i, w in enumerate(words) if i and w in _HEAD_ENDS), len(words))
        words = words[:cut][::-1]
    stop = stopwords(lang)
    return next((w for w in words if w not in stop and not w.isdigit() and not _ROMAN.match(w)), "")


def named_after(name: str, keywords: Iterable[str], lang: str) -> bool:
    """Whether an article's name holds every keyword but is headed by another noun (:func:`head_noun`):
    "Rhapsody in Blue" and "Kind of Blue" are no events of the colour, "The Jazz Singer" is a film, not jazz.
    Such an article's name in a sentence does not name the subject; "1755 Lisbon earthquake" is one.

    Args:
        name: The article's name, without its bracketed qualifier.
        keywords: The subject's terms (:func:`terms`).
        lang: The language.

    Returns:
        True for a work or thing named with the subject's words.
    """
    wanted = set(keywords)
    return bool(wanted) and about(name, sorted(wanted), lang) and not terms(head_noun(name, lang), lang) & wanted


def another_thing(title: str, section: str, section_text: str, lang: str) -> bool:
    """Whether an article is on another thing than a section it might join: its name holds the section's
    words but is headed by another noun (:func:`named_after`: *Tiger shark* beside *Tiger*, *The Lion King*
    beside *Lion*), or writes a word the section's own article writes in small letters with a capital inside it
    (:func:`a_name`: *To the Lighthouse*, a novel, beside *Lighthouse*), and the section's own article never
    writes that name. *Snow leopard* is a leopard, and a name the section's article writes ("the Bengal tiger")
    is part of its subject. The section's own article is on its thing, however it writes its words: *Godavari
    River*, whose article says "The Godavari is India's second longest river", had been left out of its own
    section, which the report then dropped.

    Args:
        title: The article's title (its bracketed qualifier is ignored).
        section: The section's title.
        section_text: The section's own article's text ("" when it has none).
        lang: The language.

    Returns:
        True when the article names another thing with the section's words.
    """
    name = bare_title(title)
    if fold(name) == fold(bare_title(section)):
        return False  # the section's own article: "The Godavari is India's second longest river" writes "River" small
    keywords = terms(bare_title(section), lang)
    # or a name writing the section's word with a capital its article never gives it (a_name): *To the Lighthouse*,
    # a novel, had stood in the section on the lighthouse ("To the Lighthouse is a 1927 novel by Virginia Woolf")
    return (named_after(name, keywords, lang) or bool(section_text) and a_name(name, keywords,
                                                                                common_terms(section_text))) \
        and not writes_phrase(section_text, name)


#: A name closing on a one-letter designator, which :func:`terms` drops as noise: "Saturn V", "Vitamin C",
#: "World War I", "Hepatitis B", "Malcolm X".
_DESIGNATED = re.compile(r"^\S.*\s[A-Z]$")


def names_designated(text: str, section: str) -> bool:
    """Whether ``text`` may be on a section whose name closes on a one-letter designator (:data:`_DESIGNATED`):
    it writes the whole name (:func:`writes_phrase`). The section's terms hold the name's other words only
    (one-letter tokens are noise to :func:`terms`), so the moons of the planet Saturn and the Voyager probes had
    stood in the section on the *Saturn V* rocket of a report on the Apollo 11 moon landing. A section's name
    without a designator is never checked.

    Args:
        text: An article's title and text.
        section: The section's title (its bracketed qualifier is ignored).

    Returns:
        False when the section's name closes on a designator ``text`` does not write with it.
    """
    name = bare_title(section).strip()
    return not _DESIGNATED.match(name) or writes_phrase(text, name)


#: A word, as written (case kept), for :func:`common_terms` and :func:`without_names`.
_WRITTEN_WORD = re.compile(r"[^\W_]+")
#: What ends a sentence before the next word, which may then start with a capital.
_SENTENCE_END = re.compile(r"[.!?:;\"“”«»(]\s*$")


def common_terms(text: str) -> set[str]:
    """The terms ``text`` writes mostly in lower case (folded, :func:`stem`): how its language writes a common
    noun.

    In English, French and Spanish a common noun starts with a capital only at a sentence's start or inside
    a name; a subject its own article writes "the lion" is a common noun, one it writes "Mercury" or "the
    Internet" more often than "internet" is a name. (German capitalises every noun: it has no such terms,
    and nothing is blanked.)

    Args:
        text: The subject's own article.

    Returns:
        The stems of the words written in lower case more often than with a capital inside a sentence.
    """
    balance: dict[str, int] = {}
    for match in _WRITTEN_WORD.finditer(text):
        word, key = match.group(), stem(fold(match.group()))
        if word[:1].islower():
            balance[key] = balance.get(key, 0) + 1
        elif not _initial(text, match.start()):
            balance[key] = balance.get(key, 0) - 1
    return {term for term, count in balance.items() if count > 0}


def _initial(text: str, start: int) -> bool:
    """Whether the word at ``start`` opens a sentence (or a quote, or a bracket) of ``text``."""
    return not text[:start].strip() or bool(_SENTENCE_END.search(text[:start]))


def without_names(text: str, keywords: Iterable[str], common: set[str]) -> str:
    """``text`` with each keyword the subject writes in lower case (``common``) blanked where a capital
    starts it inside a sentence: there it is part of a name, "the Golden Lion", "Richard Cœur de Lion",
    "the Lionheart", not the animal.

    Args:
        text: A sentence.
        keywords: The subject's terms (:func:`terms`).
        common: :func:`common_terms` of the subject's own article.

    Returns:
        The sentence with those words blanked (the others kept, so offsets in it stay meaningful).
    """
    wanted = [k for k in keywords if k in common]
    if not wanted:
        return text

    def blank(match: re.Match[str]) -> str:
        word = match.group()
        named = word[:1].isupper() and not _initial(text, match.start())
        if named and any(mentions({stem(fold(word))}, k) for k in wanted):
            return " " * len(word)
        return word

    return _WRITTEN_WORD.sub(blank, text)


def a_name(title: str, keywords: Iterable[str], common: set[str]) -> bool:
    """Whether a title writes a keyword the subject's article writes in lower case with a capital inside it
    (:func:`without_names`): the name of a character, a work or an award ("Mickey Mouse", "The Lion King",
    "Golden Lion"), not the subject. Titles are in sentence case: only their first word is capitalised as such,
    so a title opening on such a keyword and capitalising a later word is a name too: "Solar System" in a
    report on solar power, which had a section on the planets.

    Args:
        title: An article's title (its bracketed qualifier is ignored).
        keywords: The subject's terms (:func:`terms`).
        common: :func:`common_terms` of the subject's own article.

    Returns:
        True when the title is such a name.
    """
    name = bare_title(title)
    if without_names(name, keywords, common) != name:
        return True
    words = _WRITTEN_WORD.findall(name)
    return (len(words) > 1 and any(w[:1].isupper() for w in words[1:])
            and any(mentions({stem(fold(words[0]))}, k) for k in keywords if k in common))


def unnamed(text: str, name: str, keywords: Iterable[str], lang: str, part: bool = False) -> str:
    """``text`` without the name of an article named with the subject's words but headed by another noun
    (:func:`named_after`): "the Spring and Autumn period" does not write spring, the season; with ``part``,
    nor with one word of a subject of several (:func:`named_with_a_part`): "coral snakes" write no coral reef.

    Args:
        text: Any text.
        name: The article's name, without its bracketed qualifier.
        keywords: The subject's terms (:func:`terms`).
        lang: The language.
        part: Blank a name with one word of the subject too (:func:`named_with_a_part`; the planner's
            ``by_modifier_alone``).

    Returns:
        ``text`` with each occurrence of ``name`` blanked, or ``text`` itself when the name is the subject's.
    """
    if not name or not (named_after(name, keywords, lang) or part and named_with_a_part(name, keywords, lang)):
        return text
    return re.sub(re.escape(name), " ", text, flags=re.IGNORECASE)


def named_with_a_part(name: str, keywords: Iterable[str], lang: str) -> bool:
    """Whether an article's name holds a word of a subject of several words, headed by a noun of none of them:
    *Coral snake* is named with the word of "coral reefs" but is a snake (a reader found it a section of a report
    on coral reefs, its text writing "coral" only in "coral snakes"); *Solar System* is no solar power."""
    wanted = set(keywords)
    held = terms(name, lang)
    return len(wanted) > 1 and bool(held & wanted) and not held >= wanted \
        and not terms(head_noun(name, lang), lang) & wanted


def unnamed_for(text: str, name: str, subjects: Iterable[str], lang: str) -> str:
    """``text`` without an article's name named after any one of ``subjects``, each judged alone
    (:func:`unnamed`): *Tiger shark* is named with the tiger's word, though not with "lions and tigers".

    Args:
        text: Any text.
        name: The article's name, without its bracketed qualifier.
        subjects: The subjects, each a phrase ("lions", "tigers").
        lang: The language.

    Returns:
        ``text`` with the name blanked where it is named after a subject.

    A subject written with a regnal number from II on is another bearer of the name, blanked too, unless the
    subject has a number of its own: *Napoleon III* and his prefect *Georges-Eugène Haussmann* had been sections
    of "Who was Napoleon Bonaparte" (a reader's find); "Napoleon I" is he.
    """
    for subject in subjects:
        text = unnamed(text, name, terms(subject, lang), lang)
        if subject.strip() and not _REGNAL_END.search(subject):
            words = r"\s+".join(re.escape(w) for w in subject.split())
            text = re.sub(rf"\b{words}\s+{_REGNAL}\b", lambda m: " " * len(m.group()), text, flags=re.IGNORECASE)
    return text


#: A regnal number from II to XX, as a name bearer's ("Napoleon III", "Louis XIV"); "I" is left, the first bearer
#: being often the one meant ("Napoleon I").
_REGNAL = r"(?-i:XX|XIX|XVIII|XVII|XVI|XV|XIV|XIII|XII|XI|X|IX|VIII|VII|VI|V|IV|III|II)(?!\w)"
#: A subject closing on a Roman numeral of its own ("Louis XIV", "World War II").
_REGNAL_END = re.compile(r"\s[IVX]+$")


def writes_phrase(text: str, phrase: str) -> bool:
    """Whether ``text`` writes ``phrase``: its words side by side, in order, in any inflection
    (:func:`stem`: "heat pump" writes "Heat pumps"; "power lines ... destroy vehicles" does not
    write "electric vehicle").

    Args:
        text: Any text.
        phrase: A phrase of one or more words.

    Returns:
        True when the stems of ``phrase``'s tokens occur contiguously among ``text``'s.
    """
    return phrase_at(text, phrase) is not None


def phrase_at(text: str, phrase: str) -> int | None:
    """Where ``text`` first writes ``phrase`` (:func:`writes_phrase`).

    Args:
        text: Any text.
        phrase: A phrase of one or more words.

    Returns:
        The index, among ``text``'s tokens, of the first word of the phrase's first occurrence; ``None``
        when ``text`` does not write it.
    """
    wanted = [stem(t) for t in tokenize(phrase)]
    if not wanted:
        return None
    have = [stem(t) for t in tokenize(text)]
    n = len(wanted)
    return next((i for i in range(len(have) - n + 1) if have[i] == wanted[0] and have[i:i + n] == wanted), None)


#: Words that make what follows them a measure of comparison: "larger than the planet Mercury".
_THAN = frozenset({"than", "que"})
#: Verbs that liken a thing to what follows them: "dark stripes … which resemble a tiger's pattern" (the
#: tiger shark's name), "se asemeja a", "ressemble à".
_RESEMBLE = frozenset({"resemble", "resembles", "resembled", "resembling", "ressemble", "ressemblent",
                       "ressemblant", "asemeja", "asemejan", "semeja", "semejan"})
#: A word made an adjective of likeness: "vertical "tiger-like" stripes" (read as "resembling tiger").
_LIKE = re.compile(r"\b(\w+)-like\b", re.IGNORECASE)
#: A size given by a thing of that size: "The size of a small dog, the Tasmanian devil …" (a reader found *Tasmanian
#: devil* a section of "Dogs"), "de la taille d'un chat", "del tamaño de un perro" (read as "resembling").
_SIZE_OF = re.compile(r"\b(?:the\s+size\s+of|de\s+la\s+taille\s+d['’]|del\s+tamaño\s+de)"
                      r"(?=\s*(?:an?|une?|una?)\b|\s*(?-i:[A-ZÀ-Ý]))", re.IGNORECASE)
#: Words allowed between a comparison word and the subject ("than *the planet* Mercury").
COMPARISON_GAP = 2
#: What ends a clause: a comparison does not reach past it.
_CLAUSE = re.compile(r"[,;:.!?()\[\]]")


def compared_only(text: str, subject: str) -> bool:
    """Whether ``text`` writes ``subject`` only as the measure of a comparison.

    "Ganymede … is larger than the planet Mercury" and "Callisto is nearly as
    large as the planet Mercury" set another thing beside the subject: a text
    whose every mention is such is about that other thing (three moons had
    made a report on Mercury). A comparison is "than" (French and Spanish
    "que": "plus grand que", "más grande que"), the second "as" of "as
    large as" ("known as" and "como" name a thing: they are no comparison), or a verb that likens
    ("stripes which resemble a tiger's pattern": :data:`_RESEMBLE`; "tiger-like stripes"; "the size of a small
    dog", :data:`_SIZE_OF`), at most
    :data:`COMPARISON_GAP` words before the subject in the same clause ("prices rise faster than wages,
    inflation lowers …" is no comparison of inflation; :func:`writes_phrase`'s matching, any inflection).
    The other mentions in a sentence that holds a comparison explain it ("Titan is only 40% as massive
    as Mercury, because Mercury is mainly iron and rock"): they count as the comparison's.

    Args:
        text: A document's title and text.
        subject: The subject as the planner read it.

    Returns:
        True when ``text`` writes the subject and only in sentences that compare something with it; False
        when a sentence writes it without a comparison, or it is never written.
    """
    wanted = [stem(t) for t in tokenize(subject)]
    n = len(wanted)
    if not n:
        return False
    named = False
    for sentence in split_sentences(text):
        mentions = compared = 0
        for clause in _CLAUSE.split(sentence):  # a comparison never reaches past a comma: "faster than wages, x"
            # "tiger-like stripes" liken to a tiger, "the size of a small dog" to a dog
            words = tokenize(_SIZE_OF.sub(" resembling ", _LIKE.sub(r"resembling \1", clause)))
            have = [stem(t) for t in words]
            for i in range(len(have) - n + 1):
                if have[i:i + n] != wanted:
                    continue
                mentions += 1
                compared += any(words[j] in _THAN or words[j] in _RESEMBLE
                                or words[j] == "as" and j >= 2 and words[j - 2] == "as"
                                and words[j - 1] != "well"  # "as well as eastern Australia" joins, compares nothing
                                for j in range(max(0, i - COMPARISON_GAP - 1), i))
        if mentions and not compared:  # written outside a comparison
            return False
        named = named or bool(mentions)
    return named


#: Where a person was born, died or is buried, up to the clause's end: "né le 13 décembre 1553 à Pau et mort
#: assassiné le 14 mai 1610 à Paris", "born in 1832 in Dijon", "murió en Madrid" (:func:`without_life_places`).
_LIFE_PLACES = {
    "en": re.compile(r"\b(?:born|died|buried)\b[^,;]*", re.IGNORECASE),
    "fr": re.compile(r"\b(?:née?s?|morte?s?|décédée?s?|inhumée?s?)\b[^,;]*", re.IGNORECASE),
    "es": re.compile(r"\b(?:nacid[oa]s?|naci[óo]|muri[óo]|fallecid[oa]s?|falleci[óo]|enterrad[oa]s?)\b[^,;]*",
                     re.IGNORECASE),
}


#: A preposition of place before a capitalised name, inside such a clause ("in Paris", "à Pau", "en Madrid").
_AT_A_PLACE = re.compile(r"\b(?:in|at|near|à|au|en|près\s+de|cerca\s+de)\s+[A-ZÀ-Ý]")


def without_life_places(text: str, lang: str) -> str:
    """``text`` without the clauses giving where a person was born, died or lies (:data:`_LIFE_PLACES`, naming a
    place: :data:`_AT_A_PLACE`): a city named only there is no theme of the sentence; "died in the 2004 Indian
    Ocean earthquake" stays, the event's toll. *Henri IV*, *Louis XVI*, *Marcello Mastroianni* and *Eugène
    Ionesco*, each "mort … à Paris", had filled a section on Paris in a report on the Eiffel Tower (a reader's
    find), and their dates its timeline.

    Args:
        text: Any text.
        lang: Its language; one without such clauses listed keeps the text whole.

    Returns:
        The text with those clauses removed.
    """
    pattern = _LIFE_PLACES.get(lang)
    if pattern is None:
        return text
    # only a clause naming a place: "died in the 2004 Indian Ocean earthquake" is the event's toll, on the event
    return pattern.sub(lambda m: " " if _AT_A_PLACE.search(m.group(0)) else m.group(0), text)


#: Fewest texts writing a one-word subject in one compound for it to be a set phrase on other things ("umbrella
#: term": *Jade*, *Textile*, *Gnosticism*, *Transgender*), which a text writing the subject only so is not on
#: (:func:`set_phrases`, :func:`in_set_phrases_only`).
IDIOM_DOCUMENTS = 3


def set_phrases(texts: Iterable[str], subject: str, lang: str) -> set[str]:
    """The compounds (by their head's stem, :func:`compounds`) at least :data:`IDIOM_DOCUMENTS` of ``texts`` write
    a one-word subject in: set phrases on other things ("umbrella term").

    Args:
        texts: The candidate texts, one per document.
        subject: The subject; one of several words gives none.
        lang: Their language.

    Returns:
        The heads' stems (``{"term"}``).
    """
    written = Counter(head for text in texts for head in compounds(text, subject, lang) if head)
    return {head for head, n in written.items() if n >= IDIOM_DOCUMENTS}


def in_set_phrases_only(text: str, subject: str, lang: str, phrases: set[str]) -> bool:
    """Whether ``text`` writes a one-word subject, and only in the set phrases ``phrases`` (:func:`set_phrases`):
    "Jade is an umbrella term for two different types of decorative rocks" is not on the umbrella (a reader
    found *Jade* the one section of "Umbrella", and the sentence closing it).

    Args:
        text: Any text.
        subject: The subject.
        lang: Its language.
        phrases: The set phrases, by their heads' stems.

    Returns:
        True when every mention of the subject is in one of them.
    """
    found = compounds(text, subject, lang)
    return bool(phrases) and bool(found) and found <= phrases


def compounds(text: str, subject: str, lang: str) -> set[str]:
    """The words a one-word subject is written before, in compounds, and whether it is ever written alone.

    Args:
        text: Any text.
        subject: A subject of one word.
        lang: The text's language (its stop words end no compound: "umbrella *is*").

    Returns:
        The stems of the words that follow the subject's ("umbrella term" → ``{"term"}``), with ``""``
        for each mention written alone (before punctuation, a stop word or the end) or inflected: a
        compound's first noun is written as the subject is ("crane fly"; "cranes form pairs" is a verb), and
        a word in "-ed" after it is a verb ("urbanization occurred").
    """
    tokens = tokenize(subject)
    if len(tokens) != 1:
        return set()
    # a compound's first noun is in the singular whatever the subject's number: "Elephants" is written so in
    # "elephant shrews" (it had read as a mention alone, and Shrew and Bird stood in a report on "Elephants")
    base, wanted = (tokenize(singular(tokens[0], lang)) or tokens)[0], stem(tokens[0])
    stop = stopwords(lang)
    found: set[str] = set()
    for clause in _CLAUSE.split(text):
        words = tokenize(clause)
        for i, word in enumerate(words):
            if stem(word) == wanted:
                after = words[i + 1] if i + 1 < len(words) else ""
                alone = word != base or not after or after in stop or after.isdigit() or after.endswith("ed")
                found.add("" if alone else stem(after))
    return found


def neighbours(text: str, word: str, lang: str, *, after: bool) -> set[str]:
    """The words a word is written beside, in compounds: the one after it (``after``) or before it, and
    whether it is ever written without one.

    Args:
        text: Any text.
        word: One word.
        lang: The text's language (a stop word, a number or punctuation is no compound's other word).
        after: Read the word after (an English modifier's noun) rather than the word before (an English
            noun's modifier).

    Returns:
        The stems of those words ("subject matter", read before "matter", → ``{"subject"}``), with ``""`` for
        each mention without one.
    """
    wanted, stop = stem(word), stopwords(lang)
    found: set[str] = set()
    for clause in _CLAUSE.split(text):
        tokens = tokenize(clause)
        for i, token in enumerate(tokens):
            if stem(token) == wanted:
                j = i + 1 if after else i - 1
                other = tokens[j] if 0 <= j < len(tokens) else ""
                found.add("" if not other or other in stop or other.isdigit() else stem(other))
    return found


#: An opening adverbial phrase set off by a comma ("In 1990, ...", "During the war, ...", "En 1990, ...",
#: "Durante el siglo XX, ..."): a preposition, a time adverb or a number first. Read past to find a sentence's
#: topic (the writer's conclusions), and no item of a list ("In the Pleistocene, elephants and mammoths roamed").
OPENING_PHRASE = re.compile(
    r"^(?:\d|(?:in|on|at|by|during|after|before|since|from|until|under|over|among|today|later|earlier|en|dans|"
    r"pendant|depuis|après|avant|lors|durante|desde|tras|después|antes|hacia|hoy)\b)[^,;:()]{0,60},\s+",
    re.IGNORECASE)


#: Fewest items of an enumeration whose one item is a passing mention (:func:`listed`): three, as in "coffee, tea,
#: and hot chocolate" (*Drink*, in a report on chocolate) and "the head of a human, the body of a lion, and the wings
#: of an eagle" (*Sphinx*, in one on lions). Four until stop 29, which kept both.
LIST_ITEMS = 3
#: Most content words (:func:`terms`) of such an item: "wild water buffalo".
LIST_ITEM_WORDS = 3
_CLASS_ITEM = re.compile(r"^\s*(?:other|autres?|otros?|otras?)\b", re.IGNORECASE)
_CONJUNCTION = r"(?:and|or|et|ou|y|o)"
#: The words that open an enumeration inside its first item ("Natural predators of adult African buffaloes include
#: lions, …"): the item is what follows them.
_LEAD_IN = re.compile(r"^.*\b(?:includ(?:e|es|ed|ing)|such as|notamment|comme|dont|incluy(?:e|en|endo)|como)\s+",
                      re.IGNORECASE)


def _items(clause: str) -> list[str]:
    """The items of an enumeration: the clause's pieces between commas, the last one split at its first
    conjunction ("…, swamp deer, tiger and fishing cat"), each without its opening conjunction ("…, and hot
    chocolate")."""
    pieces = [re.sub(rf"^{_CONJUNCTION}\s+", "", p.strip(), flags=re.IGNORECASE) for p in clause.split(",")]
    pieces[-1:] = re.split(rf"\s+{_CONJUNCTION}\s+", pieces[-1], maxsplit=1, flags=re.IGNORECASE)
    return [p for p in pieces if p.strip(" .")]


#: "Of" in the encyclopedia's languages: after the subject heading a list's first item, it says what the list is of.
_OF = frozenset({"of", "de", "du", "des", "del"})


def listed(sentence: str, subject: str, lang: str = "en") -> bool:
    """Whether a sentence writes the subject only as one short item of an enumeration of at least
    :data:`LIST_ITEMS` ("This habitat hosts populations of the Indian rhinoceros, Asian elephant, wild water
    buffalo, swamp deer, tiger and fishing cat": one animal among six, in a text on a park). Items are the pieces
    between commas (:func:`_items`); an item after the subject's opening with a pronoun is a clause, so the
    sentence holds no enumeration ("In its edible form, common table salt, it is commonly used as a condiment";
    not "tectonic plates, which interact to produce mountain ranges, volcanoes, and earthquakes"). An item holding
    the subject begins after the words that open the list ("Natural predators of adult African buffaloes include
    lions, …"; where those words hold the subject, it is not an item: "riding a bicycle or other … vehicles such
    as balance bikes, unicycles, …"), and is short when it holds at most :data:`LIST_ITEM_WORDS` content words
    ("the body of a lion": two; "Nearly half of these species are crabs", four, is a clause) and at most one after
    the subject ("inflation wiped out savings" is a clause). The subject heading the first item before "of" is
    what the list is of, no item ("The economies of China, Japan, South Korea, and Taiwan are among the world's
    largest": a report asked about Japan's economy had said no sentence writes of it). An item naming the list's
    kind is none ("Penicillin,
    streptomycin, tetracycline and other antibiotics").

    Args:
        sentence: A sentence.
        subject: The subject.
        lang: The sentence's language (its content words).

    Returns:
        True when every clause writing the subject writes it so.
    """
    from reportgen.charts.numbers import _PRONOUNS  # the timeline's and the number reader's (imported late: a cycle)

    clauses = [c for c in re.split(r"[;:()]", sentence) if writes_phrase(c, subject)]
    if not clauses:
        return False
    for clause in clauses:
        items = _items(OPENING_PHRASE.sub("", clause.strip(), count=1))
        first = next((n for n, i in enumerate(items) if writes_phrase(i, subject)), len(items))
        if len(items) < LIST_ITEMS or any(i.split()[0].casefold() in _PRONOUNS for i in items[first + 1:]):
            return False  # "…, common table salt, it is commonly used …": an apposition
        if first == 0 and next(iter(_after(items[0], subject)), "").casefold() in _OF:
            return False  # "The economies of China, Japan, South Korea, and Taiwan are …": what the list is of
        holding = [_LEAD_IN.sub("", i) for i in items if writes_phrase(i, subject)]
        if not holding or any(not writes_phrase(i, subject) or len(terms(i, lang)) > LIST_ITEM_WORDS
                              or _CLASS_ITEM.match(i) or len(terms(" ".join(_after(i, subject)), lang)) > 1
                              for i in holding):
            return False  # "… and other antibiotics": the list is of the subject's kind
    return True


def _after(item: str, subject: str) -> list[str]:
    """The words of an item after the subject it writes: a clause goes on past its subject ("prices doubled and
    inflation wiped out savings"), a noun phrase at most by one word ("chocolat chaud", "lion-baiting")."""
    at = phrase_at(item, subject)
    return tokenize(item)[at + len(tokenize(subject)):] if at is not None else []


#: Fewest different compounds headed by other words in which a text writes the subject for it to be on the
#: subject's field (:func:`compounded_only`): one thing named after the subject repeats one compound ("elephant
#: shrews"); a chess champion's article writes four ("chess grandmaster", "chess prodigy", …).
DOMAIN_COMPOUNDS = 3


def compounded_only(text: str, subject: str, core: str, lang: str) -> bool:
    """Whether ``text`` writes a one-word subject only as the first word of a compound the core never writes.

    "Gnosticism is an umbrella term", "Crane flies are insects", "a coffee table": each names another
    thing, headed by the word after the subject's (the term, the fly, the table), not the subject; the
    subject's own texts (``core``) never write those compounds. A compound the core writes ("bass guitar"
    in a core on the instrument), or a mention written alone anywhere in the text, is the subject's.
    Without parts of speech a verb after the bare word reads as a compound's head ("Tea contains …"): a
    text on the subject writes it more than once and some time alone, so only a passing mention is lost.
    A text writing the subject in :data:`DOMAIN_COMPOUNDS` different compounds or more is on the subject's
    field, not on one thing named after it: *Bobby Fischer*'s "chess grandmaster", "chess prodigy", "chess
    championship" and "World Chess Champion".

    Args:
        text: A candidate document's text.
        subject: The subject (only one word is tested; longer subjects give ``False``).
        core: The subject's core texts, joined.
        lang: The language.

    Returns:
        True when every mention is in such a compound.
    """
    found = compounds(text, subject, lang)
    return (bool(found) and "" not in found and len(found) < DOMAIN_COMPOUNDS
            and not found & compounds(core, subject, lang))


def of_its_own_kind(text: str, title: str, subject: str, core: str, lang: str) -> bool:
    """Whether ``text`` writes a one-word subject only in compounds its core never writes
    (:func:`compounded_only`) headed by a word of its own article's ``title``: a thing of the article's own
    kind named after the subject ("elephant shrews" in *Shrew*, "the bass trumpet" in *Trumpet*). A compound
    headed by another word may still be the subject's ("the tea plant" in *Theaceae*, "an American jazz
    pianist" in *Duke Ellington*). The planner's rule for candidates and the introduction's for sentences.

    Args:
        text: A candidate document's text, or one of its sentences.
        title: Its article's title.
        subject: The subject.
        core: The subject's core texts, joined.
        lang: The language.

    Returns:
        True when every mention is such a compound.
    """
    return compounded_only(text, subject, core, lang) and compounds(text, subject, lang) <= terms(bare_title(title),
                                                                                                     lang)


#: Words before a name that make a part or a period of the same thing, not another: "the Western Roman Empire",
#: "Ancient Egypt", "Upper Egypt", "the Summer Olympic Games", "the Second Industrial Revolution"
#: (:func:`in_longer_names_only`).
_PART_QUALIFIERS = frozenset("western eastern northern southern ancient early late later old greater upper lower "
                             "summer winter first second third "
                             "central classical medieval modern imperial".split())


def in_longer_names_only(text: str, subject: str) -> bool:
    """Whether ``text`` writes a capitalised subject of several words only inside a longer name that opens on
    another capitalised word: "Leopold ruled the Holy Roman Empire until his death in 1705" is on the Holy Roman
    Empire, not the Roman Empire (a reader found it in a report on why the Roman Empire fell). A part or a period
    of the same thing is not another (:data:`_PART_QUALIFIERS`: "the Western Roman Empire"), nor is an article
    before the name ("The Roman Empire").

    Args:
        text: Any text.
        subject: The subject as the planner read it; one of one word or written in lower case gives ``False``.

    Returns:
        True when every mention of the subject is inside such a longer name.
    """
    if len(subject.split()) < 2 or not subject[:1].isupper():
        return False
    found = list(re.finditer(rf"(?:(?<![\w-])([A-Z][\w'’-]*)\s+)?{re.escape(subject)}(?![\w-])", text))
    return bool(found) and all(
        m.group(1) is not None and m.group(1).lower() not in _PART_QUALIFIERS
        and m.group(1) not in ("The", "A", "An") for m in found)


def names_subject(text: str, subject: str) -> bool:
    """Whether ``text`` writes the subject, or one of two subjects joined by "and"
    (:func:`writes_phrase`): "mental health" is named by "a regulated mental health profession", not by
    "sexual and reproductive health". The ``naming`` measure of ``make bench-quality`` is the same rule.

    Args:
        text: Any text.
        subject: The subject as the planner read it (:attr:`~reportgen.blueprint.request.Request.subject`).

    Returns:
        True when ``text`` writes the whole subject or one of its parts.
    """
    return written_subjects(text, subject) > 0


#: Fewest mentions a one-word subject's own texts write inside sentences, all with a capital, for it to be a proper
#: name there (:func:`proper_word`): "the Moon" (4 in its article), "the Sun" (2), "Earth" (8).
PROPER_MENTIONS = 2


def _word_tokens(text: str) -> list[str]:
    return re.findall(r"[^\W\d_]+", text)


def proper_word(subject: str, core: str) -> bool:
    """Whether a one-word subject is a proper name in its own texts: they write it inside their sentences at least
    :data:`PROPER_MENTIONS` times, always with a capital, and never as part of a longer name ("the Moon", "the
    Sun", "Earth"; not "coffee", nor "jazz" in "New Orleans Jazz"). Its word with a small letter is then another
    thing: "Callisto is the second-largest moon of Jupiter" is no sentence on the Moon (:func:`writes_proper`).

    Args:
        subject: The subject as the planner read it; subjects of several words give ``False``.
        core: The subject's own texts, joined.

    Returns:
        True when the subject is a proper name in ``core``.
    """
    words = _word_tokens(subject)
    if len(words) != 1:
        return False
    wanted = stem(fold(words[0]))
    capital = small = 0
    for sentence in split_sentences(core):
        tokens = _word_tokens(sentence)
        for i, token in enumerate(tokens[1:], start=1):
            if stem(fold(token)) != wanted:
                continue
            if token[:1].islower():
                small += 1
            elif not (i > 1 and tokens[i - 1][:1].isupper()) and not (
                    i + 1 < len(tokens) and tokens[i + 1][:1].isupper()):
                capital += 1
    return capital >= PROPER_MENTIONS and small == 0


def never_small(word: str, text: str) -> bool:
    """Whether ``text`` writes ``word`` (any inflection, :func:`stem`) and never with a small letter: *Antarctica*'s
    article always capitalises "Antarctica", *King*'s writes "king" (a weaker test than :func:`proper_word`, which
    counts mentions inside sentences and apart from longer names: "Greater Tokyo Area" still writes Tokyo).

    Args:
        word: One word.
        text: Any text.

    Returns:
        True when ``text`` writes the word, every time with a capital.
    """
    wanted = stem(fold(word))
    written = [token for token in _word_tokens(text) if stem(fold(token)) == wanted]
    return bool(written) and not any(token[:1].islower() for token in written)


def writes_proper(text: str, subject: str) -> bool:
    """Whether ``text`` writes a one-word subject with its capital, as the name it is (:func:`proper_word`).

    Args:
        text: Any text.
        subject: The subject, one word.

    Returns:
        True when some mention of the subject's word in ``text`` starts with a capital.
    """
    wanted = stem(fold(subject.strip()))
    return any(token[:1].isupper() and stem(fold(token)) == wanted for token in _word_tokens(text))


def subject_parts(subject: str) -> list[str]:
    """The subjects joined by "and" in ``subject``, as the planner joins two subjects ("lions and tigers");
    one subject is its own only part.

    Args:
        subject: The subject as the planner read it.

    Returns:
        The parts, in order, none empty.
    """
    return [p for p in re.split(r"\s+and\s+", subject) if p.strip()]


def written_subjects(text: str, subject: str) -> int:
    """How many of the subjects joined by "and" in ``subject`` ``text`` writes (:func:`names_subject`);
    all of them when it writes the whole phrase ("Wind and solar power")."""
    parts = subject_parts(subject)
    if writes_phrase(text, subject):
        return len(parts) or 1
    return sum(writes_phrase(text, part) for part in parts) if len(parts) > 1 else 0


@dataclass(frozen=True)
class RankedSentence:
    """A source sentence with its score.

    Attributes:
        text: The sentence, verbatim.
        source: ``{"source_id", "title", "url", "corpus"}`` of its passage.
        position: Index of the sentence within its passage (0 = first).
        score: Relevance, higher is better.
        after: For a sentence that points back ("It is ...", "However, ..."),
            the sentence before it in its passage, which must be quoted with it
            (see :func:`with_antecedents`); ``None`` otherwise.
    """

    text: str
    source: dict[str, str]
    position: int
    score: float
    after: str | None = None


def _key(text: str) -> str:
    return " ".join(tokenize(text))


def rank_sentences(
    passages: Iterable[Passage],
    *,
    focus: str,
    topic: str,
    lang: str,
    exclude: Iterable[str] = (),
    keywords: Iterable[str] = (),
    companions: Iterable[str] = (),
) -> list[RankedSentence]:
    """Rank the sentences of ``passages`` for a section about ``focus``.

    Score = 3 x keywords matched + 2 x focus terms matched + 1 x topic terms
    matched + 2 when the passage's title holds every focus term (the
    subject's own article) + 1 for the first sentence of a passage
    (encyclopedia summaries open with a definition) + 1/(1 + passage rank).
    A sentence must match at least one focus or topic term, unless it opens a
    passage whose title matches the focus, or it follows a kept sentence of a
    passage whose title holds every keyword (the section's own article reads
    on). A sentence that points back to the one before it ("It is ...") is
    kept only right after a kept sentence of its passage, scored just below
    it and marked with ``after``; when ``keywords`` are given it
    must mention *every* one of them, or come from a passage whose title
    does, so a section on "Solar power" never quotes a sentence that is only
    about power.

    Args:
        passages: Research notes, best first.
        focus: What the section is about (its title).
        topic: The report topic.
        lang: Language for stopwords and sentence splitting.
        exclude: Sentences that must not be proposed (already used elsewhere).
        keywords: The section's distinctive terms (see
            :func:`reportgen.blueprint.planner.section_keywords`).
        companions: Titles of documents the section combines with its own
            (:func:`reportgen.blueprint.planner.companion_themes`): their
            sentences need not hold the keywords, but they do not read on
            as the own article does — a companion's sentence is quoted when
            it opens the passage, names the focus or the topic, or follows
            such a sentence pointing back to it.

    Returns:
        Distinct sentences, best first.
    """
    focus_terms, topic_terms = terms(focus, lang), terms(topic, lang)
    key_terms = {stem(k) for k in keywords}
    seen = {_key(t) for t in exclude}
    joined = set(companions)
    out: list[RankedSentence] = []
    for rank, passage in enumerate(passages):
        title_terms = terms(passage.title, lang)
        companion = passage.title in joined
        title_match = bool(focus_terms & title_terms) or companion
        title_keyword = bool(key_terms) and all(mentions(title_terms, k) for k in key_terms)
        source: dict[str, Any] = {
            "source_id": passage.source_id, "title": passage.title,
            "url": passage.url, "corpus": passage.corpus,
        }
        previous: RankedSentence | None = None  # the kept sentence just before this one in the passage
        split = split_sentences(passage.text, lang)
        opening = split[0] if split else ""
        for position, sentence in enumerate(split):
            sentence = sentence.strip()
            follows, previous = previous, None
            if follows is not None and follows.position != position - 1:
                follows = None
            if not (MIN_SENTENCE_CHARS <= len(sentence) <= MAX_SENTENCE_CHARS) or _META.search(sentence):
                continue
            if sentence.endswith(":"):  # introduces a list the quote would not carry, even after its antecedent
                continue
            continuation = not quotable(sentence, position, lang) or names_another(sentence, passage.title, lang) \
                or (passage.title != focus and by_its_kind(sentence, passage.title, lang,
                                                           opening if position else ""))
            if continuation and follows is None:
                continue
            key = _key(sentence)
            if not key or key in seen:
                continue
            words = terms(sentence, lang)
            # a hyphenated name holding a keyword is another thing ("Indre-et-Loire" for the Loire)
            named = without_other_hyphenated_names(sentence, key_terms, lang)
            held = words if named == sentence else terms(named, lang)
            kw = sum(mentions(held, k) for k in key_terms)
            f, t = len(focus_terms & words), len(topic_terms & words)
            reads_on = follows is not None and (title_keyword or (not key_terms and title_match and not companion))
            if not (f or t or (position == 0 and title_match) or reads_on or (continuation and companion)):
                continue
            if key_terms and not (kw == len(key_terms) or title_keyword or companion):
                continue
            seen.add(key)
            if continuation and follows is not None:
                ranked = RankedSentence(sentence, source, position, follows.score - 0.01, after=follows.text)
            else:
                own = 2.0 if focus_terms <= title_terms else 0.0
                score = 3.0 * kw + 2.0 * f + t + own + (1.0 if position == 0 else 0.0) + 1.0 / (1 + rank)
                if follows is not None and reads_on:
                    score = min(score, follows.score - 0.01)  # the own article reads on, in its order
                ranked = RankedSentence(sentence, source, position, score)
            out.append(ranked)
            previous = ranked
    out.sort(key=lambda s: -s.score)
    return out


#: A name of capitalised words joined by hyphens, with any small words between: "Indre-et-Loire",
#: "Loire-Atlantique", "Marie-Antoine", "Saône-et-Loire".
_HYPHENATED_NAME = re.compile(r"(?<![\w\-])[A-ZÀ-Ý][\w'’]*(?:-[\w'’]+)+(?![\w\-])")


def without_other_hyphenated_names(sentence: str, key_terms: set[str], lang: str) -> str:
    """``sentence`` without the hyphenated names (:data:`_HYPHENATED_NAME`) holding a capitalised word that is no
    keyword: a department, a region or a person named with a section's word is another thing. *Loire*, a section of
    "Les châteaux de la Loire", had quoted five biographies for "Indre-et-Loire", "Saône-et-Loire" and
    "Loire-Atlantique", and *Marie Antoinette* the chef "Marie-Antoine Carême" ("antoine" shares "antoinette"'s
    first seven letters, :func:`mentions`). A name all of whose capitalised words are keywords is the section's own
    ("États-Unis"), and a combining form ending in "o" joins its thing to another ("Franco-Prussian",
    "Sino-Japanese", "Austro-Hungarian"): the compound is still on it. A word deriving from a keyword is one
    ("Prussian" for "prussia"); one cut short of it is not ("Antoine" for "antoinette").

    Args:
        sentence: A sentence.
        key_terms: The section's keywords (folded, stemmed: :func:`terms`).
        lang: Its language.

    Returns:
        The sentence with those names blanked out.
    """
    def other(m: re.Match[str]) -> str:
        capitals = [w for w in m.group(0).split("-") if w[:1].isupper() and not re.fullmatch(r"[^\W\d_]+o", w)]
        return " " if any(not all(any(mentions({t}, k) and len(t) >= len(k) for k in key_terms)  # "Prussian"
                                      for t in terms(w, lang)) for w in capitals) else m.group(0)

    return _HYPHENATED_NAME.sub(other, sentence) if key_terms and "-" in sentence else sentence


def with_antecedents(chosen: Iterable[RankedSentence]) -> list[RankedSentence]:
    """``chosen`` without the sentences whose ``after`` sentence is not chosen too.

    A sentence that opens with "It" or "However" means nothing without the one
    before it; dropping it is the only safe choice when that one is not quoted
    (repeatedly: a chain loses everything after its first missing link).

    Args:
        chosen: Sentences picked for one section, in any order.

    Returns:
        The sentences that stand, in the same order.
    """
    kept = list(chosen)
    while True:
        texts = {s.text for s in kept}
        standing = [s for s in kept if s.after is None or s.after in texts]
        if len(standing) == len(kept):
            return standing
        kept = standing
