"""Reading a request the way people type it: the subject, the aspects asked for, two subjects, questions.

People write "Write a comprehensive report on electric vehicle (EV) adoption
rates and the infrastructure challenges shaping the future of transportation."
or "Why do volcanoes erupt?", not encyclopedia titles. :func:`read_request`
separates the instruction from what it is about:

* the instruction ("Write a comprehensive and well-researched report on",
  "Prepare a briefing on", "Rédige un rapport sur", "Escribe un informe
  sobre") is dropped;
* a question keeps its subject ("Why do volcanoes erupt?" → ``volcanoes``,
  aspect ``erupt``; "What causes inflation?" → ``inflation``, aspect ``causes``);
* framing words ("the rise of", "the history and future of") go;
* what follows "and how", "and its", ", drawing lessons from" or a comma
  becomes an *aspect*: a candidate section, searched with the subject;
* a short "A and B" is two subjects ("Malaria and tuberculosis"; "Wind and
  solar power" → ``wind power``, ``solar power``), and so are "Compare A and
  B", "A versus B" and "the difference between A and B";
* how one subject bears on another is two subjects ("the impact of social
  media on teenage mental health", "How does climate change affect coffee
  production?"), and "the role of X in Y" is Y with the aspect X;
* a modifier naming what drives the subject ("AI-driven automation") is an
  aspect too;
* a lead-in ("Can you explain", "I need a report about", "Tell me about")
  goes, and what remains is read again ("Explain how vaccines work" is the
  question "how do vaccines work");
* a question whose verb follows its subject ("How does the immune system
  fight viruses?") cannot be cut without knowing the words: its shorter
  readings are kept as :attr:`Request.alternatives`, and the planner takes
  the first one the corpora hold an article on
  (:func:`reportgen.blueprint.planner.resolve_subject`).

Control and format characters are removed by :func:`reportgen.config.clean_topic`
before any of this. The rules are patterns of English, French and Spanish,
the languages the offline encyclopedia ships; any other text is taken whole.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from reportgen.agents.ranking import stem, terms
from reportgen.sources.text import fold, gerund

__all__ = ["DEFAULT_SECTIONS", "LONG_SECTIONS", "SHORT_SECTIONS", "Request", "asks_why", "is_aspect", "is_cause",
           "read_request", "section_count", "strip_article"]

#: Words of an instruction asking for length or brevity ("Write a comprehensive report on ..."): they set
#: :attr:`Request.depth`, and with the other adjectives of :data:`_ADJ` they are part of the instruction.
_LONG_WORDS = (r"comprehensive|detailed|thorough|in[- ]depth|exhaustive|extensive|well[- ]researched|full|complete|"
               r"complet|complète|détaillée?|detaillee?|approfondie?|exhaustif|exhaustive|completo|completa|"
               r"detallad[oa]|exhaustiv[oa]|extens[oa]")
_SHORT_WORDS = r"short|brief|concise|quick|court|courte|bref|brève|breve|corto|corta|conciso|concisa"
_ADJ = (rf"(?:{_LONG_WORDS}|{_SHORT_WORDS}|balanced|critical|technical|executive|clear|simple|clair|claire|"
        r"simples?|synthétique|claro|clara|sencill[oa]|general|générale?)")
_DOC = (r"(?:report|briefing|brief|overview|analysis|summary|paper|study|article|essay|review|primer|explainer|"
        r"rapport|synthèse|synthese|étude|etude|note|informe|resumen|estudio|análisis|analisis)")
#: The verbs may carry their pronoun, hyphened in French ("Fais-moi un rapport sur …") and joined in Spanish
#: ("Hazme un informe sobre …"); those requests had been read whole as their subject.
_VERB = (r"(?:write|prepare|produce|create|draft|compile|give|make|generate|provide|put\s+together|"
         r"(?:rédige[rz]?|redige[rz]?|écri[sr]e?z?|ecri[sr]e?z?|écrivez|ecrivez|prépare[rz]?|prepare[rz]?|fais|"
         r"faites|donne[rz]?)(?:-(?:moi|nous))?|"
         r"escribe|escribir|escr[íi]be(?:me|nos)|redacta|redactar|red[áa]cta(?:me|nos)|prepara|preparar|"
         r"prep[áa]ra(?:me|nos)|haz(?:me|nos)?|elabora|elab[óo]ra(?:me|nos)|d[áa](?:me|nos))")
#: A word of an instruction that is not a preposition, an article or a document noun.
_PLAIN_WORD = (r"(?!(?:of|on|about|for|in|into|to|the|a|an|regarding|covering|de|du|des|sur|sobre|en|el|la|le|les|"
               r"acerca)\b)"
               rf"(?!{_DOC}\b)(?:[^\W\d_][\w'’-]*|\d+[-–][^\W\d_]+)")  # "a 5-page report"
#: Who the report is for: "for a general audience", "for policy makers", "pour le grand public".
_AUDIENCE = (r"(?:for|pour|para)\s+(?:a\s+|an\s+|the\s+|le\s+|les\s+|la\s+|el\s+|los\s+|un\s+|my\s+|our\s+|"
             r"mi\s+|mis\s+|nuestro\s+|mon\s+|ma\s+|mes\s+|notre\s+)?"
             r"(?:[\w-]+\s+){0,2}(?:(?:audience|reader|policy\s*maker|decision[- ]maker|student|colleague|client|"
             r"customer|beginner|executive|kid|manager|investor|engineer|teacher|expert|layman|non-?specialist|"
             r"team|class|board|company|school\s+project|project|homework|assignment|presentation)s?|school|boss|"
             r"bosses|children|child|laymen|lay\s+people|public|"
             r"equipo|jefe|clase|colegas|empresa|équipe|patron|classe|collègues|entreprise|grand\s+public|"
             r"público|lectores|décideurs|élèves|étudiants|estudiantes)(?:\s+(?:meeting|review|call|réunion|"
             r"reunión))?")
_INSTRUCTION = re.compile(
    rf"^(?:(?:please|s'il (?:te|vous) pla[iî]t|por favor)[,\s]+)?(?:{_VERB}\s+(?:me\s+|us\s+|moi\s+|nous\s+)?|"
    # "(I need) a report about ...", "Rapport sur ...": no verb, but an article or the document itself
    # "Summary of the Cold War", "Overview of renewable energy" (had kept "Summary of the" as an aspect)
    rf"(?=(?:a|an|un|une|el|una)\s|{_DOC}\s+(?:{_ADJ}(?:\s+(?:and|et|y)\s+|\s+))*(?:on|about|of|sur|sobre|de)\s))"
    rf"(?:(?:a|an|the|un|une|le|la|el|una)\s+)?(?:{_ADJ}(?:\s*,\s*|\s+(?:and|but|et|mais|y|pero)\s+|\s+))*"
    # any other adjectives: "a thorough, well-sourced and balanced report" (never a preposition: "a summary of
    # the Mueller report on ..." asks for a summary of that report)
    rf"(?:{_PLAIN_WORD}(?:\s*,\s*|\s+(?:and|or|but|et|ou|y|o)\s+|\s+)){{0,4}}"
    rf"{_DOC}\s+"
    rf"(?:{_ADJ}(?:\s*,\s*|\s+(?:and|et|y)\s+|\s+))*"  # after the noun: "un rapport clair et détaillé sur"
    rf"(?:{_AUDIENCE}\s+)?"  # "a report for policy makers on ..."
    # "a report comparing nuclear and solar energy costs": the comparison is read as "Compare …" is
    rf"(?:(?:on|about|of|into|regarding|covering|sur|à propos de|de|du|des|sobre|acerca de|de la|del)\s+|"
    rf"(?=(?:comparing|contrasting)\s))",
    re.IGNORECASE,
)
#: Body sections of a report whose request does not say how long it should be. Six, not five: over
#: the ``make bench-quality`` requests five sections of the offline encyclopedia's summaries (about
#: 75 words each at the median) made a median body of 909 words, six 1,023 (issue 11 asks 1,000).
DEFAULT_SECTIONS = 6
#: Body sections of a report asked to be comprehensive, detailed, in-depth... (the Agent Context
#: Protocols paper's requests; its reports run past 30 pages). A planner gives fewer when the
#: corpora hold fewer themes on the subject.
LONG_SECTIONS = 8
#: Body sections of a report asked to be short, brief or concise.
SHORT_SECTIONS = 3
_LONG = re.compile(rf"\b(?:{_LONG_WORDS})\b", re.IGNORECASE)
_SHORT = re.compile(rf"\b(?:{_SHORT_WORDS})\b", re.IGNORECASE)
#: Lead-ins before the request proper: "Can you please", "I need", "Tell me about", "Explain".
_LEAD_IN = re.compile(
    r"^(?:(?:please|kindly)[,\s]+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
    r"(?:(?:i|we)(?:\s+(?:really|also))?\s*(?:need|want|would\s+like|['’]d\s+like|am\s+looking\s+for|"
    r"['’]m\s+looking\s+for|am\s+interested\s+in|['’]m\s+interested\s+in)\s+(?:you\s+to\s+)?(?:to\s+)?|"
    r"help\s+me\s+(?:to\s+)?(?:understand\s+)?|let['’]?s\s+|"
    # "Need a report on the water cycle for my class" (had kept "Need a report on the for my class" as an aspect);
    # "Need for Speed" stays a name
    rf"need\s+(?=(?:a|an)\s+(?:[\w-]+\s+){{0,3}}{_DOC}\b))?"
    r"(?:(?:explain|describe|discuss|summari[sz]e|analy[sz]e|research|investigate|outline|cover|explore|"
    r"tell\s+(?:me|us)\s+(?:(?:everything|all|more|something|a\s+bit|a\s+little)\s+)?(?:about|of|on)|"
    r"what\s+do\s+you\s+know\s+about|learn\s+(?:more\s+)?about|know\s+(?:more\s+)?about|"
    r"understand|read\s+about|"
    # "Can you write something about the Silk Road?" (had kept "write something about the" as an aspect), "Give me
    # some info on …", "Need info on hurricanes …" (had been the subject "Need info")
    r"write\s+(?:me\s+|us\s+)?(?:something|a\s+(?:bit|little|few\s+(?:words|lines))|some\s+(?:words|lines|notes))\s+"
    r"(?:about|on)|(?:give\s+(?:me|us)\s+|need\s+)?(?:some\s+|more\s+|any\s+)?(?:info|information|details|"
    r"background)\s+(?:about|on|regarding))(?:\s+(?:to\s+)?(?:me|us))?\s+)?"
    # "Everything you need to know about vaccines", "What's the deal with inflation?", "A beginner's guide to
    # photosynthesis", "ELI5 quantum computing", "Top 10 facts about sharks": a way of asking, no subject
    r"(?:what\s+are\s+(?:some\s+)?(?:fun\s+|interesting\s+|key\s+|amazing\s+)?facts\s+(?:about|on)\s+|"
    r"(?:it|this|the\s+report)\s+(?:should|must|needs?\s+to|has\s+to|will)\s+(?:cover|be\s+about|discuss|explain|"
    r"describe|focus\s+on)\s+|the\s+(?:topic|subject)\s+is\s+|"
    r"(?:everything|all)\s+(?:you|i|we|one)\s+(?:need|needs|should|must|ought)\s+(?:to\s+)?know\s+"
    r"(?:about|on)\s+|what\s+is\s+the\s+(?:deal|story|thing)\s+with\s+|everything\s+about\s+|"
    r"(?:(?:a|an|the)\s+)?(?:(?:beginner['’]?s['’]?|quick|short|simple|complete|brief|basic|practical|gentle)\s+)?"
    r"(?:guide|introduction|intro|primer)\s+(?:to|on)\s+(?:the\s+basics\s+of\s+)?|"
    r"eli5\s*:?\s+|(?:the\s+)?(?:top\s+\d+\s+|\d+\s+|some\s+)?(?:fun\s+|interesting\s+|key\s+|amazing\s+)?"
    r"facts\s+(?:about|on)\s+)?",
    re.IGNORECASE,
)
#: A way of asking after the subject: "black holes explained", "Machine learning basics", "sharks pls", "Explain
#: relativity like I'm five", "quantum physics for dummies" (English).
_TRAILING_ASKING = re.compile(
    r"(?:\s*[-–—:]\s*|\s+)(?:explained|basics|101|for\s+(?:dummies|beginners|kids)|in\s+a\s+nutshell|"
    r"in\s+(?:simple|plain|layman['’]?s['’]?)\s+(?:terms|words|english)|simply|"
    r"(?:like|as\s+if)\s+(?:i['’]?m|i\s+am|to\s+a)\s+(?:five|5|a\s+child|a\s+kid)(?:[\s-]+years?[\s-]+old)?|"
    r"(?:to|for)\s+(?:a|an|my)\s+\d+[\s-]+years?[\s-]+olds?|"  # "Explain the greenhouse effect to a 10 year old"
    r"pl[sz]|please|thanks|thank\s+you|,?\s*(?:can|could|would)\s+you\s+help(?:\s+me)?(?:\s+with\s+(?:it|that))?)\s*$",
    re.IGNORECASE,
)
#: "What's", "How's", "Where's": the auxiliary written out, so the question forms read it.
_CONTRACTED = re.compile(r"^(what|who|where|which)(?:['’]s|s)\b|^(how|when|why)['’]s\b", re.IGNORECASE)
#: "What happened at Chernobyl?", "What happened to the dinosaurs?": the subject is what follows.
_HAPPENED = re.compile(r"^what\s+happened\s+(?:at|in|to|on|during|with)\s+(?P<subject>.+)$", re.IGNORECASE)
#: "Is it safe to eat raw eggs?": the subject is what the verb takes, the adjective its aspect.
_IS_IT = re.compile(r"^(?:is|are|was)\s+it\s+(?P<aspect>[^\W\d_]+)\s+to\s+[^\W\d_]+\s+(?P<subject>.+)$",
                    re.IGNORECASE)
#: A list of aspects in brackets closing a request: "Report on coffee (history, production, health)".
_BRACKETED_ASPECTS = re.compile(r"\s*\((?P<aspects>[^()]*(?:,|\band\b)[^()]*)\)\s*$", re.IGNORECASE)
#: Advice asked on a doing: "Tips for learning a new language", "Ways to reduce plastic waste", "Best practices
#: for password security", "The best way to learn piano": the thing done is the subject, the doing its aspect.
_ADVICE = re.compile(
    r"^(?:(?:the|some|\d+|top\s+\d+)\s+)?(?:(?:best|simple|easy|practical|effective|good|great|proven|useful)\s+)?"
    # "way" only before "to": "The Way of Kings" is a title
    r"(?:tips|ways|way(?=\s+to\b)|tricks|advice|steps|strategies|ideas|practices|guidelines|methods|"
    r"dos\s+and\s+don['’]?ts)\s+"
    r"(?:to\s+(?P<verb>[^\W\d_]+)|for\s+(?P<doing>[^\W\d_]+ing)(?:\s+(?:how\s+)?to\s+(?P<learnt>[^\W\d_]+))?|"
    r"for|on|of)\s+(?:(?:an?|the|your|my|our|new)\s+)*(?P<subject>.+)$",
    re.IGNORECASE,
)
#: The French and Spanish forms of :data:`_ADVICE` and :data:`_HAPPENED`: "Conseils pour apprendre l'anglais",
#: "Consejos para aprender inglés", "Que s'est-il passé à Tchernobyl ?", "¿Qué pasó en Chernóbil?".
_ADVICE_FR_ES = re.compile(
    r"^(?:(?:des|quelques|los|unos|algunos)\s+)?(?:conseils|astuces|façons|moyens|consejos|trucos|formas|maneras)\s+"
    r"(?:pour|para|de)\s+(?P<verb>[^\W\d_]+)\s+(?:le\s+|la\s+|les\s+|l['’]|el\s+|los\s+|las\s+|du\s+|des\s+|un\s+|"
    r"une\s+|una?\s+)?(?P<subject>.+)$", re.IGNORECASE)
_HAPPENED_FR_ES = re.compile(
    r"^(?:que\s+s['’]est-il\s+passé|qu['’]est-il\s+arrivé|qu[ée]\s+pas[óo]|qu[ée]\s+ocurri[óo]|qu[ée]\s+sucedi[óo])\s+"
    r"(?:à\s+la\s+|à\s+l['’]|au\s+|aux\s+|à\s+|en\s+|dans\s+|con\s+|a\s+)?(?P<subject>.+)$", re.IGNORECASE)
#: A maker's works asked for: "Famous paintings by Van Gogh", "the major works of Tolstoy" (English): the maker, a
#: name in capitals, is the subject and the works its aspect.
_WORKS = (r"paintings|works|books|novels|songs|albums|films|movies|plays|poems|inventions|discoveries|speeches|"
          r"sculptures|symphonies|operas|theories|writings|compositions")
_WORKS_BY = re.compile(  # "of" only after a word saying which works: "Songs of Innocence" is a title
    rf"^(?i:(?:the\s+)?(?:(?:(?:most\s+)?famous|best|greatest|major|main|notable|key|best-known|important)\s+"
    rf"(?P<aspect>{_WORKS})\s+(?:by|of)|(?P<works>{_WORKS})\s+by)\s+)(?P<subject>[A-Z].*)$")
#: A ranking asked for: "Top 5 largest deserts in the world", "The 10 tallest buildings", "the most spoken languages"
#: (English): the things ranked are the subject, the superlative its aspect, written in small letters ("The Most
#: Dangerous Game" is a title).
_SUPERLATIVE = (r"(?:largest|biggest|smallest|longest|shortest|tallest|highest|deepest|oldest|fastest|hottest|"
                r"coldest|richest|poorest|deadliest|heaviest|(?:most|least)\s+[a-z]+)")
_RANKED = re.compile(
    rf"^(?i:the\s+)?(?i:(?:top\s+)?(?:\d+|ten|five|three)\s+|top\s+)?(?P<aspect>{_SUPERLATIVE})\s+"
    r"(?P<subject>[^\W\d_].*?)(?i:\s+(?:in|on|of)\s+(?:the\s+)?(?:world|earth|planet|history))?$")
#: The measure a ranking is by: "countries by area", "rivers by length".
_RANKED_BY = re.compile(r"\s+by\s+(?P<measure>[a-z]+(?:\s+[a-z]+)?)$")
#: A yes-no question typed without its mark: "is chocolate good for you" (had been the subject "is chocolate good").
_UNMARKED_QUESTION = re.compile(r"^(?:is|are|was|were|do|does|did|can|could|should)\s+(?!(?:and|or|&)\s)"
                                r"\S+(?:\s+\S+)+$", re.IGNORECASE)


def _unmarked_question(body: str, lang: str) -> bool:
    """Whether an English request without a question mark is a yes-no question (:data:`_UNMARKED_QUESTION`): a word
    after its auxiliary is in small letters, so a title in capitals stays one ("Are You Experienced", "Is This It")."""
    return lang == "en" and bool(_UNMARKED_QUESTION.match(body)) \
        and any(w[:1].islower() for w in body.split()[1:] if w.casefold() not in _TAIL_FUNCTION)


#: A gerund that only says how the report goes: "Understanding inflation", "Exploring the deep sea".
_GERUND_LEAD = re.compile(r"^(?:understanding|exploring|explaining|introducing|demystifying|discovering|"
                          r"examining|investigating|unpacking|decoding)\s+(?:the\s+)?(?=\S)", re.IGNORECASE)
#: "Marie Curie's life and work", "Napoleon's legacy": the possessor is the subject (English).
_POSSESSED = re.compile(
    r"^(?P<subject>.+?)['’]s?\s+(?P<aspects>(?:life|biography|legacy|work|works|career|achievements|discoveries|"
    r"inventions|influence|impact|history|reign|death|early\s+life)(?:\s*(?:,|and|&)\s*(?:life|biography|legacy|"
    r"work|works|career|achievements|discoveries|inventions|influence|impact|history|reign|death|"
    r"early\s+life))*)$",
    re.IGNORECASE,
)
#: French and Spanish lead-ins: "J'ai besoin d'un rapport sur …", "Necesito un informe sobre …".
_LEAD_IN_FR_ES = re.compile(
    r"^(?:(?:s['’]il\s+(?:te|vous)\s+pla[iî]t|por\s+favor)[,\s]+)?"
    r"(?:j['’]ai\s+besoin\s+d['’]|je\s+(?:voudrais|veux|souhaite|cherche)\s+|j['’]aimerais\s+|"
    r"(?:pourriez-vous|pouvez-vous|peux-tu)\s+(?:me\s+)?|"
    r"necesito\s+|quiero\s+|quisiera\s+|busco\s+|me\s+gustar[íi]a\s+(?:tener\s+)?|(?:puedes|podr[íi]as)\s+(?:hacerme\s+)?|"
    # "Háblame de …", "Cuéntame sobre …", "Explícame …", "Parle-moi de …", "Dis-moi tout sur …", "Explique-moi …"
    r"(?:h[áa]blame|h[áa]blenos|cu[ée]ntame|cu[ée]ntanos)\s+(?:de|sobre|acerca\s+de)\s+|expl[íi]ca(?:me|nos)\s+|"
    r"(?:parle|parlez)-(?:moi|nous)\s+(?:de\s+|d['’])|(?:dis|dites)-(?:moi|nous)\s+(?:tout\s+)?(?:sur|de)\s+|"
    r"(?:explique|expliquez|d[ée]cri[st]|d[ée]crivez)-(?:moi|nous)\s+)?"
    # "Tout savoir sur les requins", "Todo sobre los tiburones", "Introduction à …", "Guía para principiantes
    # sobre …": ways of asking, as the English lead-ins
    r"(?:tout\s+(?:savoir\s+)?sur\s+|todo\s+(?:lo\s+que\s+(?:hay\s+que|necesitas|debes)\s+saber\s+)?"
    r"(?:sobre|de|acerca\s+de)\s+|(?:une\s+|una\s+)?(?:introduction|introducci[óo]n|initiation)\s+"
    r"(?:à\s+|aux\s+|au\s+|a\s+|al\s+)|(?:un\s+|una\s+)?(?:guide|gu[íi]a)\s+(?:pour\s+(?:les\s+)?d[ée]butants\s+|"
    r"para\s+principiantes\s+)?(?:sur|de|du|des|sobre|del)\s+)?",
    re.IGNORECASE,
)
#: A request that rambles before it says what it wants: "So my boss asked me to put together something about
#: bees, like …" is about what follows "something about" (only for requests of more than ten words).
_BURIED = re.compile(r"^.{0,160}?\b(?:something|anything|stuff|a\s+(?:few\s+)?(?:notes|page|pages|slides?|report|"
                     r"briefing|summary|overview|presentation|paper|essay|deck|(?:school\s+|class\s+|university\s+|"
                     r"college\s+|research\s+|group\s+)?(?:project|assignment|homework|talk|speech)))\s+"
                     r"(?:about|on|regarding|covering)\s+",
                     re.IGNORECASE)
#: "Compare A and B", "A versus B", "the difference between A and B": two subjects.
_COMPARE = re.compile(
    r"^(?:(?:compare|comparing|contrast|contrasting|a\s+comparison\s+of|comparison\s+of)\s+(?P<a>.+?)\s+(?:and|with|to|"
    r"versus|vs\.?|against)\s+(?P<b>.+)|(?:the\s+)?differences?\s+between\s+(?P<c>.+?)\s+and\s+(?P<d>.+)|"
    r"(?P<e>.+?)\s+(?:versus|vs\.?)\s+(?P<f>.+)|"
    r"(?P<g>.+?)\s+and\s+(?P<h>.+?)\s+(?:compared|contrasted|side\s+by\s+side))$",
    re.IGNORECASE,
)
#: Auxiliaries are not aspects ("What are black holes?" asks about black holes).
_AUXILIARIES = {"is", "are", "was", "were", "do", "does", "did", "can", "could", "will", "would", "has", "have",
                "had", "should", "may", "might", "be", "a", "ont", "est", "sont", "ha", "han", "es", "son", "fut"}
#: Verbs that ask how a thing is, not about a part of it ("How does the heart work?" asks about the heart:
#: an aspect "work" drew "Work (human activity)" into the report; "How do typhoons form?" searched
#: "form" with the subject and drew Starfish).
_EMPTY_VERBS = {"work", "function", "operate", "happen", "exist", "mean", "matter", "look", "make", "do", "get", "form",
                "become", "fonctionne", "fonctionnent", "forme", "forment", "funciona", "funcionan", "forma", "faire",
                "hacer",
                "forman"}


def is_aspect(words: str) -> bool:
    """Whether the words a question asks about are an aspect of its subject: not empty, not an
    auxiliary ("are"), not a verb that only asks how ("work", "make")."""
    return bool(words.strip()) and words.strip().casefold() not in _AUXILIARIES | _EMPTY_VERBS
_QUESTION = re.compile(
    r"^(?:why|how|what|which|when|where|who|pourquoi|comment|qu['’]est-ce qu[e']|quel(?:le)?s?|"
    r"por\s*qu[ée]|c[óo]mo|qu[ée]|cu[áa]l(?:es)?)\b",
    re.IGNORECASE,
)
#: "What are the symptoms of diabetes?", "What is the capital of Australia?": what is asked of the subject; the
#: whole is :attr:`Request.framed`, the subject again when an article is titled so ("What is the theory of
#: relativity?"). Not the words other rules read ("the role of women in …", "the impact of … on …").
_WHAT_OF = re.compile(
    r"^(?:what|which)\s+(?:are|is|were|was)\s+(?:the\s+)?(?:main\s+|key\s+|most\s+common\s+|common\s+)?"
    r"(?!(?:role|roles|impacts?|effects?|influences?|consequences?|relationship|link)\b)"
    r"(?P<aspect>[^\W\d_]+)\s+of\s+(?P<subject>.+)$", re.IGNORECASE)
#: "Why do volcanoes erupt", "How do nuclear power plants work", "What causes inflation".
_QUESTION_FORMS = [
    _WHAT_OF,
    # "What makes the Mona Lisa famous?": the subject, and what it is made (had been the aspect "What makes the
    # famous")
    re.compile(r"^(?i:what\s+(?:makes|made|make)\s+(?:the\s+)?)(?P<subject>[A-Z].*?)\s+(?P<aspect>[a-z]+)$"),
    # "How to grow tomatoes": the thing the verb takes is the subject, the verb its aspect
    re.compile(r"^how\s+to\s+(?P<aspect>[^\W\d_]+)\s+(?:an?\s+|the\s+|your\s+|my\s+)?(?P<subject>.+)$",
               re.IGNORECASE),
    # "Where is Machu Picchu?", "Where is the Amazon rainforest?": after a copula, only a participle in small
    # letters closing the question is asked of the subject ("When was the Eiffel Tower built?"); the rest is the
    # subject whole (it had been "Machu", asked of its "Picchu")
    re.compile(r"^(?i:(?:where|when)\s+(?:is|are|was|were)\s+(?:the\s+|an?\s+)?)(?P<subject>.+?)"
               r"(?:\s+(?P<aspect>[a-z]+(?:ed|en)|born|built|made|held|fought|found|won|lost|sold|set|begun|located|"
               r"situated))?$"),
    re.compile(r"^(?:why|how|when|where)\s+(?:do|does|did|is|are|was|were|can|could|will|would|has|have|had)\s+"
               r"(?P<subject>.+?)\s+(?P<aspect>\w+)$", re.IGNORECASE),
    re.compile(r"^(?:what|who|which)\s+(?P<aspect>causes|caused|drives|affects|determines|is|are|was|were|"
               r"invented|discovered|founded|built|created|designed|developed|wrote|painted|composed|ruled|"
               r"started|ended|won|killed)\s+"
               r"(?:an?\s+|the\s+)?(?P<subject>.+)$", re.IGNORECASE),
    # "Is Pluto a planet?": what it is asked to be follows an article (it had been "Pluto a")
    re.compile(r"^(?:is|are|was|were)\s+(?:an?\s+|the\s+)?(?P<subject>.+?)\s+(?:an?|the)\s+(?P<aspect>.+)$",
               re.IGNORECASE),
    re.compile(r"^(?:is|are|was|were)\s+(?:an?\s+|the\s+)?(?P<subject>.+?)\s+(?P<aspect>\w+)$", re.IGNORECASE),
    # "What rights do citizens have?", "Which languages do Brazilians speak?": the thing asked of the subject
    re.compile(r"^(?:what|which)\s+(?P<aspect>[^\W\d_]+)\s+(?:do|does|did|can|could|will|would|should)\s+"
               r"(?P<subject>.+?)\s+[^\W\d_]+$", re.IGNORECASE),
    # "Which planets have rings?": the kind asked among, and what they have
    re.compile(r"^(?:what|which)\s+(?P<subject>[^\W\d_]+)\s+(?:have|has|had)\s+(?P<aspect>.+)$", re.IGNORECASE),
    # "What do bees eat?", "Can dogs see colours?", "Do cats purr?": the verb may follow the subject (alternatives)
    re.compile(r"^(?:(?:what|who|whom)\s+)?(?:do|does|did|can|could|will|would|should)\s+(?P<subject>.+?)\s+"
               r"(?P<aspect>\w+)$", re.IGNORECASE),
    re.compile(r"^(?:what|which)\s+(?P<aspect>\w+)\s+(?:of|in|for)\s+(?P<subject>.+)$", re.IGNORECASE),

    # "Pourquoi le ciel est-il bleu ?": what follows the pronoun is asked about, else the verb ("Pourquoi les
    # volcans explosent-ils ?")
    re.compile(r"^(?:pourquoi|comment)\s+(?P<subject>.+?)\s+(?P<aspect>\w+)[- ](?:t[- ])?(?:il|elle|ils|elles)"
               r"(?:\s+(?P<rest>.+?))?\s*$", re.IGNORECASE),
    # "¿Por qué el cielo es azul?": the subject, then what it is
    re.compile(r"^(?:por\s*qu[ée]|c[óo]mo)\s+(?:el|la|los|las)\s+(?P<subject>.+?)\s+(?:es|son|est[áa]|est[áa]n)\s+"
               r"(?P<aspect>\w+)$", re.IGNORECASE),
    # "¿Cómo funcionan las vacunas?", "¿Por qué se extinguieron los dinosaurios?", "Comment fonctionnent les
    # vaccins ?", "Comment se forment les ouragans ?": the verb first, then the subject with its article
    # (an indefinite article too: "Comment fonctionne un moteur électrique ?" had been read as a subject whole)
    re.compile(r"^(?:por\s*qu[ée]|c[óo]mo)\s+(?:se\s+)?(?P<aspect>\w+)\s+(?:(?:el|la|los|las|un|una|unos|unas)\s+)?"
               r"(?P<subject>.+)$", re.IGNORECASE),
    re.compile(r"^(?:pourquoi|comment)\s+(?:se\s+|s['’])?(?P<aspect>\w+)\s+(?:les\s+|le\s+|la\s+|l['’]|du\s+|"
               r"des\s+|un\s+|une\s+|de\s+la\s+|de\s+l['’]|d['’])"
               r"(?P<subject>.+)$", re.IGNORECASE),
    # "Quelles sont les causes de la Révolution française ?", "¿Cuáles son las causas de la Revolución?"
    re.compile(r"^(?:quel(?:le)?s?|cu[áa]l(?:es)?)\s+(?:est|sont|es|son)\s+(?:les|le|la|l['’]|el|los|las)\s*"
               r"(?P<aspect>\w+)\s+(?:de\s+la|de\s+los|de\s+las|de\s+l['’]|du|des|del|de|d['’])\s*(?P<subject>.+)$",
               re.IGNORECASE),
    # "Qu'est-ce que la photosynthèse ?", "¿Qué es la fotosíntesis?": the subject alone; in the past too ("¿Qué
    # fue la Guerra Fría?" had been the subject "Qué fue la Guerra Fría", a reader's find; "Qu'était la …")
    re.compile(r"^(?:qu['’]est-ce\s+qu(?:e\s+|['’])|qu['’](?:était|étaient)\s+|"
               r"qu[ée]\s+(?:es|son|fue|fueron|era|eran)\s+)(?P<subject>.+?)(?P<aspect>)$", re.IGNORECASE),
]
#: "How smart are octopuses?", "How fast do cheetahs run?", "How many moons does Jupiter have?": a measure the
#: question asks of its subject, before the auxiliary.
_HOW_MEASURE = re.compile(
    r"^how\s+(?P<measure>(?:many|much)\s+[^\W\d_][\w-]*|(?!(?:do|does|did|is|are|was|were|can|could|will|would|"
    r"should|to)\b)[^\W\d_][\w-]*)\s+(?P<aux>is|are|was|were|do|does|did|can|could|will|would|should)\s+"
    r"(?P<rest>.+)$", re.IGNORECASE)
#: "How many people live in China?", "How many species live in the Amazon?": a count of things doing something in
#: a place asks it of the place (English).
_HOW_MANY_IN = re.compile(r"^how\s+(?:many|much)\s+(?P<noun>[^\W\d_]+)\s+(?!(?:is|are|was|were|do|does|did|can|"
                          r"could|will|would|should|has|have|had)\b)(?P<verb>[^\W\d_]+)\s+(?:in|on|at|inside|within)\s+"
                          r"(?P<subject>.+)$", re.IGNORECASE)
#: Who a count of people is: their number is a population.
_INHABITANTS = frozenset({"people", "inhabitants", "residents", "persons", "humans"})
#: The quantity an adjective of measure asks for ("How old is the universe?" asks its age); an adjective not
#: here is its own aspect ("How dangerous are sharks?": *dangerous*).
_MEASURES = {"big": "size", "large": "size", "small": "size", "tiny": "size", "tall": "height", "high": "height",
             "deep": "depth", "old": "age", "fast": "speed", "quick": "speed", "hot": "temperature",
             "cold": "temperature", "warm": "temperature", "heavy": "weight", "far": "distance", "long": "length",
             "wide": "width", "strong": "strength", "smart": "intelligence", "intelligent": "intelligence",
             "clever": "intelligence", "bright": "brightness", "safe": "safety", "expensive": "cost",
             "efficient": "efficiency", "effective": "effectiveness", "common": "prevalence", "loud": "loudness",
             "powerful": "power", "venomous": "venom", "poisonous": "venom"}
#: "Is coffee bad for you?": a question on the subject's effect on health, asked of people.
_FOR_YOU = re.compile(r"\s+(?:for|to)\s+(?:you|us|me|people|humans|kids|children|your\s+health|our\s+health|"
                      r"human\s+health|health|the\s+body)$", re.IGNORECASE)
#: Who a question asks about when it asks about what people do: "Why do we dream?", "Why do people yawn?" are
#: on the verb (dreams, yawning), not on "we".
#: The weather's "it" is one of them: "Why does it rain?" is on rain (it had been the subject "it").
_PEOPLE = frozenset("we i you they people humans someone anyone one it nous on vous ils nosotros ustedes ellos "
                    "gente".split()) | {"human beings", "la gente", "les gens"}
#: Framing words before the subject: "the rise of DeFi", "the history and future of nuclear energy".
#: Words that only stress a framing word ("the *main* causes of", "the *key* benefits of"): no aspect.
_EMPHASIS = r"(?:main|key|major|primary|principal|chief|underlying|root|real|biggest|most\s+important)"
_FRAMING = re.compile(
    r"^(?:(?:l['’]|la\s+|les\s+|le\s+|el\s+|los\s+|las\s+)?(?:histoire|évolution|avenir|historia|evolución|futuro|"
    r"or[íi]gen(?:es)?|origines?|causes|causas|raisons|razones|vie|vida|biographie|biograf[íi]a|"
    r"avantages\s+et\s+inconvénients|ventajas\s+y\s+desventajas|pros\s+y\s+contras|avantages|ventajas|"
    r"bienfaits|beneficios|risques|riesgos|importance|importancia)"  # "beneficios del café" had been the subject
    r"\s+(?:del|de\s+los|de\s+las|de\s+la|de\s+l['’]|des|du|de|d['’])\s*)|"
    rf"^(?:the\s+|an?\s+)?(?:{_EMPHASIS}\s+|different\s+|various\s+)?"
    r"(?:(?:rise\s+and\s+fall|rise|history|future|state|role|impact|evolution|growth|development|economics|"
    r"science|life|biography|story|legacy|timeline|overview|types|kinds|"
    r"politics|basics|fundamentals|shift|transition|causes|effects?|impacts|benefits|risks|challenges|prospects|"
    r"pros|cons|advantages|disadvantages|uses|applications|influence|consequences?|origins|reasons|importance|"
    r"significance)"
    r"(?:\s*(?:,|and|&)\s*(?:the\s+)?)?)+\s+(?:of|in|from)\s+",
    re.IGNORECASE,
)
#: A framing word a qualifier narrows, before the subject: "the health effects of coffee", "the economic
#: impact of the Olympic Games", "the environmental impact of tourism". The qualified framing word is an
#: aspect of the subject ("health effects"); the request had been read as one subject, "health effects of
#: coffee", that no passage writes. English only; the qualifier is one word, not an article or a number.
_QUALIFIED_FRAMING = re.compile(
    rf"^(?:the\s+)?(?P<aspect>(?!(?:the|a|an|its|their|{_EMPHASIS}|\d+)\s)[a-z][\w-]*\s+"
    r"(?:effects?|impacts?|benefits|risks|consequences|costs|uses|applications|role|influence|implications|"
    r"aspects|dimensions))\s+(?:of|in|from)\s+",
    re.IGNORECASE,
)
#: Framing words that ask what causes the subject: kept as its aspect ("the causes of the French Revolution").
_CAUSE_WORDS = re.compile(r"\b(?:causes?|caused|origins?|origines?|or[íi]gen(?:es)?|causas?|reasons?|raisons?|"
                          r"raz[óo]n(?:es)?)\b", re.IGNORECASE)
#: Framing words that ask for the subject's history: kept as its aspect ("the history of Japan" is planned on the
#: corpus's *History of Japan* when it holds one, :func:`reportgen.blueprint.planner.resolve_subject`).
_HISTORY_WORDS = re.compile(r"\b(?:history|histoire|historia)\b", re.IGNORECASE)
#: "The impact of X on Y", "the role of X in Y", "l'effet de X sur Y", "el impacto de X en Y": a report on
#: how one subject bears on another is on both (each searched, a text on both first).
_RELATION = re.compile(
    r"^(?:the\s+)?(?:impacts?|effects?|influences?|consequences?)\s+of\s+(?P<a>.+)\s+(?:on|upon)\s+(?P<b>.+)$|"
    r"^(?:(?:l['’]|les?\s+)?(?:impacts?|effets?|influences?|conséquences?)\s+(?:des?|du|de\s+la|de\s+l['’]|d['’])"
    r"\s*(?P<c>.+?)\s+sur\s+(?P<d>.+))$|"
    r"^(?:(?:el|los|la|las)\s+)?(?:impactos?|efectos?|influencias?|consecuencias?)\s+(?:de|del|de\s+la|de\s+los)"
    r"\s+(?P<e>.+?)\s+(?:en|sobre)\s+(?P<f>.+)$",
    re.IGNORECASE,
)
#: "The role of women in the French Revolution", "le rôle des femmes dans la Révolution", "el papel de la mujer en
#: la Revolución": a report on the second, with the first as its aspect.
_ROLE = re.compile(
    r"^(?:the\s+)?role\s+of\s+(?P<a>.+?)\s+in\s+(?P<b>.+)$|"
    r"^(?:le\s+)?rôle\s+(?:des?|du|de\s+la|de\s+l['’]|d['’])\s*(?P<c>.+?)\s+dans\s+(?P<d>.+)$|"
    r"^(?:el\s+)?papel\s+(?:de|del|de\s+la|de\s+los|de\s+las)\s+(?P<e>.+?)\s+en\s+(?P<f>.+)$",
    re.IGNORECASE,
)
#: "What role did women play in World War II?", "What part does the Moon play in tides?": :data:`_ROLE` asked.
_ROLE_QUESTION = re.compile(
    r"^what\s+(?:role|roles|part)\s+(?:did|does|do|has|have|had|will|can|could|would|might|may)\s+(?P<played>.+?)\s+"
    r"(?:play|played|playing)\s+in\s+(?P<whole>.+)$", re.IGNORECASE)
#: "How does X affect Y?", "In what ways do X shape Y?": a question on how one subject bears on another.
_RELATION_QUESTION = re.compile(
    r"^(?:how|in\s+what\s+ways?|to\s+what\s+extent)\s+(?:do|does|did|can|could|will|would|might|may|is|are)\s+"
    r"(?P<a>.+)\s+(?:affect(?:ing)?|influenc(?:e|ing)|impact(?:ing)?|shap(?:e|ing)|chang(?:e|ing)|alter(?:ing)?|"
    r"harm(?:ing)?|threaten(?:ing)?|benefit(?:ing)?|hurt(?:ing)?|drive|driving|transform(?:ing)?)\s+(?:on\s+|upon\s+)?"
    r"(?!(?:in|from|at|with|by|to|for|of|during|under|over|into|through|across|around|after|before)\b)(?P<b>.+)$",
    re.IGNORECASE,
)
#: A modifier saying what drives the subject: "AI-driven automation", "AI-powered diagnosis" (not the
#: established compounds of "-based": "evidence-based medicine", "plant-based diets").
_DRIVER = re.compile(r"^([^\W_][\w.]*)-(?:driven|powered|enabled|assisted)\s+\S", re.IGNORECASE)
_TRAILING_AUDIENCE = re.compile(rf"\s+{_AUDIENCE}$", re.IGNORECASE)
#: The same audience when the user's own ("for my class", "pour ma classe", "para mi clase"): read without an
#: instruction too.
_OWN_AUDIENCE = re.compile(
    rf"\s+(?=(?:for|pour|para)\s+(?:my|our|mi|mis|nuestro|nuestra|mon|ma|mes|notre)\s){_AUDIENCE}$", re.IGNORECASE)
#: Where the aspects start: "X and how it ...", "X, drawing lessons from ...", "X and its ...".
_SPLIT = (r"\s*(?:[{marks}]\s*(?:and\s+)?|\s+and\s+(?=how\b|why\b|what\b|its\b|their\b|the\b|proposing\b)|"
          r"\s+(?:et|y)\s+(?=ses\b|son\b|sa\b|leurs?\b|sus?\b|comment\b|pourquoi\b|c[óo]mo\b|por\s+qu[ée]\b)|"
          r"\s+(?=drawing\b|proposing\b|including\b|focusing\b|with\s+a\s+focus\b|shaping\b|influencing\b)|"
          # "… water scarcity in the Middle East and possible solutions"
          r"\s+and\s+(?=(?:possible|potential|proposed|likely)\s+(?:solutions|remedies|responses|fixes|outcomes)\b))")
_ASPECT_SPLIT = re.compile(_SPLIT.format(marks=",:;"), re.IGNORECASE)
#: Without an instruction a colon is part of a title ("Star Wars: The Empire Strikes Back").
_ASPECT_SPLIT_NO_COLON = re.compile(_SPLIT.format(marks=","), re.IGNORECASE)
_ASPECT_WORD = (r"(?:origins?|causes?|consequences?|effects?|impacts?|history|future|legacy|overview|background|"
                r"significance|timeline|facts|key\s+facts|challenges|benefits|risks|costs|trends|prospects|"
                r"applications|uses|types|examples|basics|lessons|origines|conséquences|causas|consecuencias|"
                r"pros|cons|solutions|advantages|disadvantages|"
                r"historia|histoire|avenir|futuro)")
#: Aspects listed in small letters before "of" their subject: "the history, culture and economy of Brazil" (English).
_ASPECT_ITEM = r"(?:the\s+)?[a-z]+(?:\s+[a-z]+)?"
_ASPECTS_OF = re.compile(rf"^(?P<aspects>{_ASPECT_ITEM}(?:\s*,\s*{_ASPECT_ITEM})*\s*,?\s+(?:and|&)\s+{_ASPECT_ITEM})"
                         r"\s+of\s+(?P<subject>.+)$")
#: A title whose colon is followed only by aspect words ("The Cold War: Origins and Consequences").
_AND = r"\s*(?:,|\band\b|&|\bet\b|\by\b)\s*"
_TITLE_ASPECTS = re.compile(rf"^(?P<subject>[^:]+?)\s*:\s*(?:an?\s+|the\s+)?"
                            rf"(?P<aspects>{_ASPECT_WORD}(?:{_AND}{_ASPECT_WORD})*)\s*$", re.IGNORECASE)
#: Nouns that name an aspect of a subject rather than the subject ("adoption rates", "costs").
_ASPECT_NOUNS = (r"(?:rates?|adoption|costs?|prices?|trends?|challenges?|risks?|benefits?|impacts?|effects?|"
                 r"causes?|origins?|consequences?|history|anatomy|physiology|functions?|structure|behaviou?r|"
                 r"habitat|diet|symptoms|treatment|pros|cons|advantages|disadvantages|drawbacks|limitations|"
                 # what a place is asked: "Australia economy and geography" (had been two subjects, "Australia
                 # economy" and the science of geography, a reader's find)
                 r"economy|geography|culture|climate|politics|demographics|population|wildlife|government|"
                 # and in French and Spanish, opening their request: "Économie du Japon", "Economía de México"
                 r"[ée]conomie|g[ée]ographie|climat|politique|d[ée]mographie|faune|flore|gouvernement|"
                 r"econom[íi]a|geograf[íi]a|cultura|clima|pol[íi]tica|demograf[íi]a|poblaci[óo]n|fauna|flora|"
                 r"gobierno)")
# "World War I causes": the war, and its causes; "Electric cars pros and cons" (had been two subjects,
# "Electric cars pros" and "cons")
#: Function words a subject never ends on: "Why do leaves change colour in autumn?" with "autumn" an aspect.
#: Not "a": "Vitamin A", "Hepatitis A".
_DANGLING = re.compile(r"(?:\s+(?:in|on|at|of|for|to|from|with|the|during|de|du|des|en|dans|del|el|la|le|les|"
                       r"con|por|para))+$", re.IGNORECASE)
#: How two subjects are joined in a title, where it is not English.
_TITLE_AND = {"fr": "et", "es": "y"}
_ARTICLE = re.compile(r"^(?:(?:the|a|an|le|la|les|el|los|las|un|une)\s+|l['’])", re.IGNORECASE)
#: Markup is not a subject: "<script>alert(1)</script>" asks about nothing.
_MARKUP = re.compile(r"<[^<>]{0,200}>|&[a-z]+;|&#\d+;")
#: A setting a subject closes on ("olive oil *for health*", "aceite de oliva *para la salud*", "café *en la
#: salud*"): the subject before it is a shorter reading, tried when no article is titled by the whole
#: (:attr:`Request.alternatives`), and the setting is then an aspect.
_TRAILING_SETTING = re.compile(
    r"^(?P<subject>.+?)\s+(?:for|in|on|at|as|among|para|pour|en|sur|dans|chez|entre|como|comme)\s+"
    r"(?:the\s+|an?\s+|la\s+|le\s+|les\s+|el\s+|los\s+|las\s+|un\s+|une\s+|una\s+|l['’])?"
    r"(?P<setting>[^\W\d_][\w'’-]*(?:\s+[\w'’-]+)?)$",
    re.IGNORECASE,
)
#: Prepositions and articles before a setting, which no aspect keeps ("for health" → "health").
SETTING_LEAD = re.compile(
    r"^(?:['’]s?\s+)?"  # what a possessor owns: "Isaac Newton's contributions to science" → "contributions to science"
    r"(?:(?:for|in|on|at|as|by|about|with|from|of|to|among|para|pour|en|sur|dans|chez|entre|como|comme)\s+)?(?:the\s+|an?\s+|la\s+|le\s+|"
    r"les\s+|el\s+|los\s+|las\s+|un\s+|une\s+|una?\s+|l['’])?", re.IGNORECASE)
#: A preposition a question may end on ("Where do hurricanes come from?"), never an aspect.
_PREPOSITIONS = frozenset("from to of in on at for with about into".split())
#: Verbs that, with "from", ask where a thing comes from (its origins, a word of cause: :func:`asks_why`).
_ORIGIN_VERBS = frozenset("come comes came originate originates originated arise arises arose".split())
#: A subject, then a question on it after a colon or a dash: "Chess vs Go: which game is harder?", "Nuclear
#: power: is it safe?", "Té o café: ¿cuál es más sano?". The head is what is asked about; the question's words
#: are aspects (it had been read as one subject, "Chess which game is harder" and "Go: which game is harder").
_HEADED_QUESTION = re.compile(
    r"^(?P<head>[^:?¿.…]{2,100}?)\s*(?::|\s[-–—]\s|\.{2,}|…|\?+)\s*¿?\s*(?P<tail>(?:which|what|who|why|how|is|are|was|were|"
    r"does|do|did|can|could|should|will|would|lequel|laquelle|lesquels|lesquelles|quel(?:le)?s?|pourquoi|"
    r"comment|est-ce|cu[áa]l(?:es)?|qu[ée]|por\s*qu[ée]|c[óo]mo|es|son)\b.*)$",
    re.IGNORECASE,
)
#: "Which is bigger, the Sun or Jupiter?": the two compared, the adjective asked (it had been the subject "bigger").
_WHICH_OF_TWO = re.compile(r"^(?:which|who)\s+(?:is|are|was|were)\s+(?P<aspect>[^\W\d_]+(?:\s+[^\W\d_]+)?)\s*,\s*"
                           r"(?P<a>.+?)\s+or\s+(?P<b>.+)$", re.IGNORECASE)
#: A comparison, then "which …" with no mark between: "coffee vs energy drinks which is better for studying".
_COMPARED_WHICH = re.compile(r"^(?P<head>.+?\s(?:vs\.?|versus|or|ou|o)\s.+?)\s+"
                             r"(?P<tail>(?:which|who|lequel|laquelle|cu[áa]l(?:es)?)\b.*)$", re.IGNORECASE)
#: A year closing a phrase: "the fall of the berlin wall 1989", "… in 1989" (an aspect; a short name keeps
#: it: "Euro 2024", "Blade Runner 2049").
_TRAILING_YEAR = re.compile(r"\s+(?:in\s+|en\s+)?(?P<year>1\d{3}|20\d{2})$", re.IGNORECASE)
#: A request taken back and said again: "¿Cómo funcionan los terremotos? no wait - cómo funcionan los glaciares"
#: is on glaciers.
_CORRECTED = re.compile(r"^.+?[,.?!;–—-]\s*(?:no\s+wait|wait\s+no|i\s+mean|or\s+rather|no,?\s+espera|quiero\s+decir|"
                        r"mejor\s+dicho|non,?\s+attends|je\s+veux\s+dire|ou\s+plutôt)\b\s*[-–—,:]?\s*"
                        r"(?P<rest>\S.*)$", re.IGNORECASE)
#: Sentences after the request that only say how to write it: "… and his legacy. Please include a timeline."
_TRAILING_INSTRUCTION = re.compile(
    r"(?<=[.!?])\s+(?:please\s+|also\s+|and\s+)?(?:include|add|make\s+sure|focus|use|keep|mention|cite|"
    r"format|limit|avoid|don['’]?t)\b.*$", re.IGNORECASE)
#: A sentence that says what the user is doing, before the one that asks: "I'm writing a school essay and need
#: some background. Please give me an overview of the Apollo 11 moon landing in 1969." asks for the landing.
_CONTEXT_SENTENCE = re.compile(
    r"^(?:(?:i|we)(?:['’]m|\s+am|['’]re|\s+are|\s+have|['’]ve)\s+[^.!?]*|(?:hi|hello|hey)\b[^.!?]*|"
    # "I need a report for my class." says what is wanted, not on what
    r"(?:i|we)\s+(?:need|want|would\s+like|['’]d\s+like)\s+(?:a|an)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:report|essay|paper|summary|overview|presentation|project|briefing)(?:\s+for\s+(?:(?!\b(?:on|about)\b)"
    r"[^.!?])*)?|"
    r"(?:je|nous)\s+[^.!?]*|(?:estoy|estamos|tengo)\s+[^.!?]*)[.!]\s+(?=\S)", re.IGNORECASE)
#: A sentence after the request saying what it should cover: "I need a report on volcanoes. It should cover
#: eruptions." (aspects of the subject the first sentence names).
_COVER_SENTENCE = re.compile(
    r"(?<=[.!?])\s+(?:it|this|the\s+report)\s+(?:should|must|needs?\s+to|has\s+to|will)\s+(?:cover|discuss|include|"
    r"explain|describe|focus\s+on)\s+(?P<aspects>[^.!?]+)[.!?]?\s*$", re.IGNORECASE)
#: Words closing a list that add nothing: "paintings, inventions, etc".
_LIST_END = re.compile(r"^(?:etc\.?|and\s+(?:more|so\s+on|others)|et\s+cetera|…|\.{3})$", re.IGNORECASE)
#: Words of a question after a subject that name nothing of it: question words, auxiliaries, pronouns,
#: articles and degree words ("which *is more* dangerous": dangerous).
_TAIL_FUNCTION = frozenset(
    "which what who whom why how is are was were do does did can could should will would it its they them one "
    "ones the a an of to than more most less actually really even still ever "
    "lequel laquelle lesquels lesquelles quel quelle quels quelles "
    "pourquoi comment est sont le la les plus moins cuál cual cuáles cuales qué que por porqué cómo como es "
    "son el lo los las más menos".split())
#: Which of two: "Tea or coffee: which is healthier?" compares them.
_WHICH = re.compile(r"^(?:which|lequel|laquelle|lesquels|lesquelles|cu[áa]l(?:es)?)\b", re.IGNORECASE)
_TRAILING_AUX = re.compile(r"\s+(?:is|are|was|were|has|have|will|can)$", re.IGNORECASE)
#: A pronoun closing an aspect stands for the subject: "… and what causes it?" asks its causes.
_TRAILING_OBJECT = re.compile(r"\s+(?:it|them|him|her)$", re.IGNORECASE)
#: An acronym in brackets holds a capital ("(EV)", "(DeFi)"); "Mercury (element)" names an article's sense.
_ACRONYM = re.compile(r"\s*\((?=[^)]*[A-Z])([A-Za-z0-9&.\-]{2,10})\)")
#: Dates in brackets are no part of a title: "World War II (1939-1945)".
_DATES = re.compile(r"\s*\(\s*(?:c\.\s*)?\d[\d\s\-–—/,.]*(?:BC|AD|BCE|CE)?\s*\)", re.IGNORECASE)
_ASPECT_LEAD = re.compile(r"^(?:and\s+|et\s+|y\s+)?(?:how|why|what|its|their|his|her|the|ses|son|sa|leurs?|sus?|"
                          r"comment|pourquoi|c[óo]mo|drawing|proposing|including|focusing on|"
                          r"with a focus on|shaping|influencing)\s+(?:it\s+|they\s+|lessons\s+from\s+)?"
                          # a second question's auxiliary and pronoun: "… and why is it important?", "… and how
                          # does it work?" (had kept the aspects "is it important", "does it work")
                          r"(?:(?:is|are|was|were|do|does|did|can|could|has|have|had)\s+(?:it|they|she|he|we|you)\s+)?"
                          # "its influence on workforce productivity": the productivity is the aspect
                          r"(?:(?:influences?|impacts?|effects?)\s+(?:on|upon)\s+(?:the\s+)?)?",
                          re.IGNORECASE)


@dataclass
class Request:
    """What a request asks for.

    Attributes:
        text: The request as typed (cleaned).
        subjects: What the report is about, one or two subjects (``["electric vehicle"]``).
        aspects: What it asks about the subject, each a candidate section
            (``["adoption rates", "infrastructure challenges shaping the future of transportation"]``).
        question: Whether the request was a question.
        acronyms: Acronyms given in brackets (``EV``, ``DeFi``), searched too.
        depth: ``"long"`` when the instruction asks for a comprehensive,
            detailed, in-depth... report, ``"short"`` for a short, brief or
            concise one, else ``""`` (only the instruction's words count:
            "A Brief History of Time" is a subject); see :func:`section_count`.
        alternatives: Shorter readings of a one-subject question whose verb
            may follow the subject, longest first ("immune system" for "How
            does the immune system fight viruses?", subject "immune system
            fight"); see :func:`reportgen.blueprint.planner.resolve_subject`.
        asked: The subject as asked, when the planner took the part of it
            the corpora hold an article on because they hold no passage on
            the whole ("building resilient healthcare supply chains" →
            "Health care"); the report says so at the top. ``""`` otherwise.
        title: The subject as the request wrote it, when the planner read a
            part of it ("Buddhism in Japan" is planned as *Buddhism* with the
            aspect *Japan*): the report's title. ``""`` otherwise.
        named_as: Each subject the corpora name otherwise, as the request wrote it, and the title it is
            planned as (``{"Soccer": "Association football"}``): the report says so at the top.
        framed: The whole phrase a qualified framing word was read off ("health effects of smoking
            tobacco" for subject "smoking tobacco", aspect "health effects"): the subject again when the
            corpora title an article so (:func:`reportgen.blueprint.planner.resolve_subject`). ``""`` otherwise.
        compared: Whether the request asks to compare its two subjects ("Compare A and B", "A versus B", "the
            difference between A and B"), not only to cover both ("Malaria and tuberculosis").
        borne_on: The second subject when the request asks how the first bears on it ("the body" of "Effects
            of caffeine on the body", "teenagers" of "How does social media affect teenagers?"): an aspect of
            the first when it is one word no article is titled by
            (:func:`reportgen.blueprint.planner.resolve_subject`). ``""`` otherwise.
    """

    text: str
    subjects: list[str] = field(default_factory=list)
    aspects: list[str] = field(default_factory=list)
    question: bool = False
    acronyms: list[str] = field(default_factory=list)
    alternatives: list[str] = field(default_factory=list)
    depth: str = ""
    asked: str = ""
    title: str = ""
    named_as: dict[str, str] = field(default_factory=dict)
    framed: str = ""
    compared: bool = False
    borne_on: str = ""

    @property
    def subject(self) -> str:
        """The subjects as one phrase ("malaria and tuberculosis")."""
        return " and ".join(self.subjects)


def strip_article(text: str) -> str:
    """``text`` without a leading article ("the Amazon" → "Amazon", "l'agriculture" → "agriculture")."""
    return _tidy(_ARTICLE.sub("", _tidy(text)))


def _tidy(text: str) -> str:
    return " ".join(text.strip(" \t.,;:!?¿¡\"'“”«»").split())


def _split_aspects(text: str, colon: bool = True) -> tuple[str, list[str]]:
    parts = [p for p in (_ASPECT_SPLIT if colon else _ASPECT_SPLIT_NO_COLON).split(text) if p and p.strip()]
    if not parts:  # "???", "<b></b>": nothing to split
        return text, []
    head, rest = parts[0], parts[1:]
    aspects = []
    for part in rest:
        part = _tidy(_TRAILING_OBJECT.sub("", _TRAILING_AUX.sub("", _ASPECT_LEAD.sub("", _tidy(part)))))
        # "adoption rates and the infrastructure challenges" are two aspects
        aspects += [strip_article(a) for a in re.split(r"\s+(?:and|et|y)\s+(?:the\s+)?", part) if a.strip()]
    return head, [a for a in aspects if len(a) > 2 and is_aspect(a)]  # "and why they matter": no aspect "matter"


def _tail_aspects(tail: str) -> list[str]:
    """What a question after a subject asks of it: "which game is harder" → ``["harder"]``, "is it safe" →
    ``["safe"]``, "which make better pets" → ``["make better pets"]``.

    Args:
        tail: The question after the colon or dash, tidied.

    Returns:
        At most one aspect of one to three words; none when the question names nothing but its form.
    """
    words = tail.split()
    auxiliary = next((i for i, w in enumerate(words[:3]) if w.casefold() in _AUXILIARIES), None)
    words = words[auxiliary + 1:] if auxiliary is not None else words[1:]
    kept = [w for w in words if w.casefold() not in _TAIL_FUNCTION]
    aspect = _tidy(" ".join(kept))
    return [aspect] if 0 < len(kept) <= 3 and is_aspect(aspect) else []


def _head_aspects(head: str) -> tuple[str, list[str]]:
    """ "electric vehicle adoption rates" → ``electric vehicle`` + aspect ``adoption rates``.

    Trailing aspect nouns are split off only when at least two words of
    subject remain, an article not counted ("interest rates" and "The greenhouse effect" stay whole; the latter
    had been a report on greenhouses).
    """
    words = strip_article(head).split()
    tail: list[str] = []
    aspects: list[str] = []
    while len(words) > 2 and aspect_noun(words[-1]):
        tail.insert(0, words.pop())
        if len(words) > 2 and words[-1].casefold() in {"and", "&"} and aspect_noun(words[-2]):
            aspects.insert(0, " ".join(tail))  # "causes and effects"
            tail = []
            words.pop()
            if len(words) == 2:  # a list of aspects reads to its first, past the two-word floor: "diabetes
                aspects.insert(0, words.pop())  # symptoms and treatment" (had been "diabetes symptoms and")
    aspects = ([" ".join(tail)] if tail else []) + aspects
    if words and words[-1].casefold() in {"and", "&"}:  # "weather and climate" is two subjects, not "weather and"
        return head, []
    return (" ".join(words), aspects) if aspects else (head, [])


#: Aspect nouns that close a subject only in small letters: "Space exploration history and future" (had been two
#: subjects, the second "future": *Past*, *Causality (physics)*); "Back to the Future" is a title.
_SMALL_ASPECT_NOUNS = re.compile(r"future|legacy|prospects|outlook")


def aspect_noun(word: str) -> bool:
    """Whether a subject's last word is an aspect of it (:data:`_ASPECT_NOUNS`, :data:`_SMALL_ASPECT_NOUNS`)."""
    return bool(re.fullmatch(_ASPECT_NOUNS, word, re.IGNORECASE) or _SMALL_ASPECT_NOUNS.fullmatch(word))


#: A preposition opening the setting two subjects share ("Cats and dogs *as* pets", "Malaria and tuberculosis
#: *in* Africa"); "of" is not one, for "Causes and effects of inflation" are two subjects.
_SHARED_SETTING = re.compile(r"\s+(?:as|for|in|among|across|during|under|pour|dans|comme|para|como|en)\s+",
                             re.IGNORECASE)


def _two_subjects(subject: str, limit: int = 6) -> tuple[list[str], str]:
    """ "Malaria and tuberculosis" → both; "Wind and solar power" → "wind power", "solar power".

    Only for subjects of at most ``limit`` words, the setting aside (a long phrase with "and" is one subject).
    A setting the second subject closes on is shared by both and is no part of either: "Cats and dogs as pets" compares
    cats and dogs, with pets an aspect (it had been read as "Cats as pets" and "dogs as pets", which no
    article writes, and ended in "found no sources").

    Returns:
        ``(subjects, shared setting or "")``.
    """
    m = re.fullmatch(r"(.+?)\s+(?:and|&|et|y|e)\s+(.+)", subject, re.IGNORECASE)
    if not m:
        return [subject], ""
    a, b = _tidy(m.group(1)), _tidy(m.group(2))
    setting = _SHARED_SETTING.search(b)
    b, shared = (_tidy(b[:setting.start()]), strip_article(_tidy(b[setting.end():]))) if setting else (b, "")
    if len(f"{a} {b}".split()) > limit:
        return [subject], ""
    if _ARTICLE.match(b):  # "les abeilles et la pollinisation": a noun phrase of its own shares no head noun
        return [strip_article(a), strip_article(b)], shared
    a_words, b_words = a.split(), b.split()
    if len(a_words) == 1 and len(b_words) >= 2 and stem(fold(a)) != stem(fold(b_words[0])):
        # "wind and solar power": the head noun is shared (not in "antibiotics and antibiotic resistance")
        return [f"{a} {' '.join(b_words[1:])}", b], shared
    return [a, b], shared


def read_request(text: str, lang: str = "en") -> Request:
    """Read what a request is about.

    Args:
        text: The request as the user typed it (already through
            :func:`~reportgen.config.clean_topic`).
        lang: The request's language (``en``, ``fr``, ``es`` patterns; any
            other is taken whole).

    Returns:
        The subjects and aspects; the subject is the whole text when no
        pattern applies (a plain title such as "Solar power").
    """
    raw = _tidy(text)
    # symbols name nothing: "sharks 🦈", "★ Solar power ★"
    body = _tidy(_MARKUP.sub(" ", "".join(" " if unicodedata.category(c) == "So" else c for c in raw)))
    body = _tidy(_TRAILING_INSTRUCTION.sub("", body)) or body  # "Please include a timeline."
    body = _tidy(_CONTEXT_SENTENCE.sub("", body, count=1)) or body  # "I'm writing a school essay. Please give …"
    covered = _COVER_SENTENCE.search(body)
    covers: list[str] = []  # "… It should cover eruptions.": aspects
    if covered:
        covers = [strip_article(_tidy(a)) for a in re.split(_AND, covered.group("aspects")) if _tidy(a)]
        body = _tidy(body[:covered.start()])
    corrected = _CORRECTED.match(body)
    if corrected:  # "… no wait - cómo funcionan los glaciares": what is said last is asked
        body = _tidy(corrected.group("rest"))
        if body[:1].islower():
            body = body[:1].upper() + body[1:]
    if lang == "en":  # "What's the difference …": the auxiliary written out, for the lead-ins and questions
        body = _CONTRACTED.sub(lambda m: f"{m.group(1) or m.group(2)} is", body)  # "whats" too
    lead = _LEAD_IN.sub("", body) if lang == "en" else _LEAD_IN_FR_ES.sub("", body) if lang in ("fr", "es") else body
    led_in = lead != body  # a lead-in was read: "I need information about volcanoes for my homework"
    raw_lead = False
    if lead == body and not _INSTRUCTION.match(body) and len(body.split()) > 10:
        buried = _BURIED.match(body)  # "So my boss asked me to put together something about bees, …"
        if buried:
            body = lead = body[buried.end():]
            raw_lead = True
    instruction = _INSTRUCTION.match(lead if lead.strip() else body)
    said = instruction.group(0) if instruction else ""
    nouns = list(re.finditer(rf"\b{_DOC}\b", said, re.IGNORECASE))
    if nouns:  # the document asked for is no adjective: "a brief on tea" is not a short report
        said = said[:nouns[-1].start()] + said[nouns[-1].end():]
    depth = "long" if _LONG.search(said) else "short" if _SHORT.search(said) else ""
    body = _tidy(_INSTRUCTION.sub("", lead if lead.strip() else body))
    aspects: list[str] = [*covers]
    asking = False  # a question read here whatever its marks ("Is it safe to eat raw eggs")
    year = _TRAILING_YEAR.search(body)
    if year and (len(body.split()) >= 4 or body[:year.start()].split()[-1].islower()
                 or year.group(0).strip().lower().startswith(("in ", "en "))):
        aspects.append(year.group("year"))  # "the fall of the berlin wall 1989"
        body = _tidy(body[:year.start()])
    if lang in ("fr", "es"):  # "Conseils pour apprendre l'anglais", "¿Qué pasó en Chernóbil?"
        advice = _ADVICE_FR_ES.match(body)
        happened = _HAPPENED_FR_ES.match(body)
        if advice:
            body = _tidy(advice.group("subject"))
            aspects.append(advice.group("verb"))
        elif happened:
            body, asking = _tidy(happened.group("subject")), True
    if lang == "en":
        while _TRAILING_ASKING.search(body) and _tidy(_TRAILING_ASKING.sub("", body)):
            body = _tidy(_TRAILING_ASKING.sub("", body))  # "black holes explained", "photosynthesis explained simply"
        bracketed = _BRACKETED_ASPECTS.search(body)
        if bracketed and bracketed.start() > 0:  # "coffee (history, production, health)"
            aspects += [_tidy(a) for a in re.split(_AND, bracketed.group("aspects")) if _tidy(a)]
            body = _tidy(body[:bracketed.start()])
        happened = _HAPPENED.match(body) or _IS_IT.match(body)
        if happened:  # "What happened at Chernobyl?", "Is it safe to eat raw eggs?" (aspect: safe)
            body, asking = _tidy(happened.group("subject")), True
            aspects += [happened.group("aspect")] if "aspect" in happened.groupdict() else []
        advice = _ADVICE.match(body)
        if advice:  # "Tips for learning a new language": language, and learning it
            body = _tidy(advice.group("subject"))
            aspects += [v for v in (advice.group("verb"), advice.group("doing")) if v]
            if advice.group("learnt") and re.match(r"^(?:as|at|in|on|for|with|when|while|after|before)\b", body,
                                                  re.IGNORECASE):
                # "tips for learning to swim as an adult": swimming, as an adult (had been "as an adult")
                aspects.append(strip_article(SETTING_LEAD.sub("", body)))
                body = gerund(advice.group("learnt"), lang)
        body = _GERUND_LEAD.sub("", body) if len(body.split()) > 1 else body  # "Understanding inflation"
        possessed = _POSSESSED.match(strip_article(body))
        if possessed:  # "Marie Curie's life and work"
            body = _tidy(possessed.group("subject"))
            aspects += [_tidy(a) for a in re.split(_AND, possessed.group("aspects")) if _tidy(a)]
    wrote = body  # what was asked for, the instruction gone: the report's title when more than its subject
    if lang == "en":  # read after the title is taken: "Poems by Emily Dickinson" is titled as asked
        ranked = _RANKED.match(body)
        if ranked:  # "Top 5 largest deserts in the world": deserts, and their size (had found no sources)
            body, measure_by = _tidy(ranked.group("subject")), _RANKED_BY.search(_tidy(ranked.group("subject")))
            if measure_by:  # "top 10 largest countries by area": countries, their area
                body = _tidy(body[:measure_by.start()])
                aspects.append(measure_by.group("measure"))
            aspects.insert(len(aspects) - bool(measure_by), ranked.group("aspect").lower())
        made_by = _WORKS_BY.match(body)
        if made_by:  # "Famous paintings by Van Gogh": Van Gogh, and his paintings (had found no sources)
            body = _tidy(made_by.group("subject"))
            aspects.append((made_by.group("aspect") or made_by.group("works")).lower())
    counted = _HOW_MANY_IN.match(body) if lang == "en" else None
    if counted:  # "How many people live in China?" (had been the subject "many people live"): China's population
        noun, verb = counted.group("noun"), counted.group("verb").casefold()
        aspects.append("population" if noun.casefold() in _INHABITANTS and verb in {"live", "lived", "living"}
                       else noun if verb in {"live", "lived", "exist", "existed"} else verb)  # "died": the deaths
        body = f"what is {counted.group('subject')}"
    measure = _HOW_MEASURE.match(body) if lang == "en" and not counted else None
    if measure:  # "How smart are octopuses?" asks the octopus's intelligence; "How fast do cheetahs run?" their speed
        words = measure.group("measure").split()
        copula = measure.group("aux").casefold() in {"is", "are", "was", "were"}
        # "How long do elephants live?" asks no length, "How much does a car cost?" no "much"
        if len(words) > 1 or words[0].casefold() not in {"much", "many", "often", "soon"} and (
                copula or words[0].casefold() != "long"):
            aspects.append(words[-1] if len(words) > 1 else _MEASURES.get(words[0].casefold(), words[0]))
        if copula:  # "How old is the universe": all that follows is the subject; "How many planets are in the
            # solar system?" is on the solar system (it had been the subject "in the solar system")
            rest = re.sub(r"^(?:in|on|at|inside|within)\s+", "", measure.group("rest"), flags=re.IGNORECASE) \
                if len(words) > 1 else measure.group("rest")
            body = f"what is {rest}"
        else:
            body = f"how {measure.group('aux')} {measure.group('rest')}"
    elif _QUESTION.match(body) and re.match(r"^how\s+(?!(?:do|does|did|is|are|was|were|can|could|will|would|"
                                            r"has|have|had|to)\b)\w+", body, re.IGNORECASE):
        body = re.sub(r"^how\s+", "how do ", body, flags=re.IGNORECASE)  # "explain how vaccines work"
    of_two = _WHICH_OF_TWO.match(body) if lang == "en" else None
    if of_two:  # "Which is bigger, the Sun or Jupiter?": "the Sun vs Jupiter", asked how big
        body = f"{of_two.group('a')} vs {_tidy(of_two.group('b'))}"
        aspects.append(of_two.group("aspect"))
    role_asked = _ROLE_QUESTION.match(body) if lang == "en" else None
    if role_asked:  # "What role did women play in World War II?": the role of women in it (had been "women play")
        body = f"the role of {role_asked.group('played')} in {role_asked.group('whole')}"
    health = _FOR_YOU.search(body) if lang == "en" and re.match(r"^(?:is|are|was|were)\s", body, re.I) else None
    if health:  # "Is coffee bad for you?": coffee, and what it does to health
        body = body[:health.start()]
        aspects.append("health")
    # typed as one question ("antibiotics: how they were discovered, why resistance develops" lists aspects)
    typed_question = text.rstrip().endswith(("?", "？"))
    # one question after its subject, typed with its mark or with one inside ("black holes?? how do they form")
    headed = None if measure else (_HEADED_QUESTION.match(body) if typed_question or "?" in body else None) \
        or _COMPARED_WHICH.match(body)
    if headed and not _QUESTION.match(headed.group("head")) and not re.search(r"[,;]", headed.group("tail")):
        tail = _tidy(headed.group("tail"))  # "Chess vs Go: which game is harder?"
        body = _tidy(headed.group("head"))
        aspects += _tail_aspects(tail)
        either = re.fullmatch(r"(.+?)\s+(?:or|ou|o)\s+(.+)", body, re.IGNORECASE)
        if either and _WHICH.match(tail):  # "Tea or coffee: which is healthier?" compares the two
            body = f"{either.group(1)} vs {either.group(2)}"
    question = text.rstrip().endswith(("?", "？")) or bool(_QUESTION.match(body)) or bool(measure) or bool(headed) \
        or asking or _unmarked_question(body, lang)
    alternatives: list[str] = []
    asked_of = ""  # "symptoms of diabetes": the whole a question asked of its subject (_WHAT_OF)
    subject = _tidy(body)
    related = _RELATION_QUESTION.match(subject) if question else None
    second = ""  # the subject another bears on ("coffee production", "teenage mental health")
    if related:  # "How does climate change affect coffee production?": both subjects
        subject, second = _tidy(related.group("a")), _tidy(related.group("b"))
    elif question:
        for form in _QUESTION_FORMS:
            m = form.match(subject)
            if m:
                if form is _WHAT_OF:  # "the theory of relativity" may be an article's title
                    asked_of = strip_article(f"{m.group('aspect')} of {_tidy(m.group('subject'))}")
                # "Why does the Moon have phases?": the possessing verb is no word of the subject (it had been
                # "Moon have", which no sentence writes)
                subject = _TRAILING_AUX.sub("", _tidy(m.group("subject"))) or _tidy(m.group("subject"))
                aspects = [_tidy(m.groupdict().get("rest") or m.group("aspect") or ""), *aspects]
                said = subject.casefold()
                if aspects[0] and any(said == p or said.startswith(f"{p} ") for p in _PEOPLE):
                    # "Why do we dream?" is on dreams, "Why do we have seasons?" on seasons (not "we have"), "Why
                    # do we have leap years?" on leap years (had been "years"), "Why do people believe in ghosts?"
                    # on ghosts: what follows the people's verb
                    said_words = subject.split()
                    subject = SETTING_LEAD.sub("", " ".join([*said_words[2:], aspects[0]])) or aspects[0]
                    aspects = []
                    break
                words = subject.split()
                if aspects[0].casefold() in _PREPOSITIONS and len(words) > 1:
                    # "Where do hurricanes come from?": the verb before the preposition is asked, and coming
                    # from somewhere is an origin
                    verb = words[-1]
                    subject = " ".join(words[:-1])
                    aspects[0] = "origins" if verb.casefold() in _ORIGIN_VERBS and \
                        aspects[0].casefold() == "from" else verb
                # "Why are sharks important to the ocean ecosystem?": after a copula too, the subject may be
                # the first words only
                if re.match(r"^(?:(?:why|how|when|where|what|who|whom)\s+)?(?:do|does|did|can|could|will|would|"
                            r"should)\b|^(?:why|how)\s+(?:is|are|was|were|has|have|had)\b", body, re.I):
                    words = strip_article(subject).split()  # the verb may follow the subject
                    alternatives = [" ".join(words[:n]) for n in range(len(words) - 1, 0, -1)]
                break
    ranked_asked = _RANKED.match(strip_article(subject)) if lang == "en" and question else None
    if ranked_asked:  # "What is the tallest mountain in the world?": mountains, the tallest asked
        subject = ranked_asked.group("subject")
        aspects.insert(0, ranked_asked.group("aspect").lower())
        alternatives = []
    aspects = [a for a in aspects if is_aspect(a)]
    compared = _COMPARE.match(strip_article(subject))
    if compared:
        a, b = (_tidy(x) for x in compared.groups() if x)
        of_both = re.match(r"^(?:the\s+)?(?P<aspect>[^\W\d_]+)\s+of\s+(?P<a>.+)$", a, re.IGNORECASE)
        if of_both and " of " not in b:  # "Compare the economies of France and Germany": both, and their economies
            a = of_both.group("a")
            aspects.append(of_both.group("aspect"))
        subject = f"{strip_article(a)} and {strip_article(b)}"
    asked = bool(said) or raw_lead or lead != body  # an instruction or a lead-in was read: audience and colon are its
    if asked or led_in:  # (a colon after a lead-in stays a title's: "Tell me about Mission: Impossible")
        subject = _TRAILING_AUDIENCE.sub("", subject)  # "(a report on) antibiotics for a general audience"
    else:  # an audience of the user's own closes no title: "Greek philosophers for my class" (had the aspect
        subject = _OWN_AUDIENCE.sub("", subject)  # "my class")
    acronyms = _ACRONYM.findall(f"{subject} {second}")
    subject = _DATES.sub("", _ACRONYM.sub("", subject))
    titled = _TITLE_ASPECTS.match(subject) if not asked else None
    if titled:  # "The Cold War: Origins and Consequences": the words after the colon only name aspects
        subject = titled.group("subject")
        aspects += [a for a in re.split(_AND, titled.group("aspects")) if a]
    # "Star Wars: The Empire Strikes Back" is a title; "Coffee - history, production and health effects" and
    # "Nuclear energy: pros and cons" list aspects in lower case after the colon or dash
    after = re.match(r"^[^:–—]+?(?::|\s[-–—])\s*(\w)", subject)
    listed_after = after is not None and after.group(1).islower()  # "Les requins : biologie et comportement"
    if listed_after:
        subject = re.sub(r"\s[-–—]\s", ": ", subject, count=1)
    listed_of = _ASPECTS_OF.match(strip_article(subject)) \
        if lang == "en" and not second and not _FRAMING.match(_tidy(subject)) else None  # "the history and future of"
    if listed_of:  # "the history, culture and economy of Brazil": Brazil, and the three (had been "history")
        subject = listed_of.group("subject")
        aspects += [strip_article(a) for a in re.split(_AND, listed_of.group("aspects")) if strip_article(a)]
    subject, more = _split_aspects(subject, colon=asked or listed_after)
    aspects += more
    relation = _RELATION.match(strip_article(subject)) if not (compared or second) else None
    if relation:  # "the impact of social media on teenage mental health": two subjects, however long
        subject, second = (_tidy(x) for x in relation.groups() if x)
    role = _ROLE.match(strip_article(subject)) if not (compared or second) else None
    if role:  # "the role of women in the French Revolution": the revolution, with women as an aspect
        played, subject = (_tidy(x) for x in role.groups() if x)
        aspects.insert(0, strip_article(played))
    if second:
        second, more = _split_aspects(_DATES.sub("", _ACRONYM.sub("", second)), colon=asked)
        aspects += more
        second = strip_article(second)
    qualified = _QUALIFIED_FRAMING.match(_tidy(subject)) if lang == "en" and not second else None
    framed = ""
    if qualified and len(_tidy(subject)) > qualified.end():  # "the health effects of coffee": coffee
        framed = strip_article(_tidy(subject))
        aspects.insert(0, qualified.group("aspect").lower())
        subject = _tidy(subject)[qualified.end():]
    framing = _FRAMING.match(_tidy(subject))
    cause = _CAUSE_WORDS.search(framing.group(0)) if framing else None
    if cause:  # "the causes of the French Revolution" asks why
        aspects.insert(0, cause.group(0).lower())
    told = _HISTORY_WORDS.search(framing.group(0)) if framing else None
    if told:  # "the history of the bicycle" asks for its history
        aspects.insert(0, told.group(0).lower())
    elif framing and not cause and not framed:  # "Fall of Constantinople" is an article's title: the subject again
        framed = strip_article(_tidy(subject))
    subject = _tidy(_FRAMING.sub("", _tidy(subject)))
    subject, head_aspects = _head_aspects(subject)
    aspects = head_aspects + aspects
    driver = _DRIVER.match(subject)
    if driver:  # "AI-driven automation" keeps its subject, with AI an aspect of it
        aspects.insert(0, driver.group(1))
    subject = strip_article(_DANGLING.sub("", subject)) or raw  # "leaves change colour in" ends on no preposition
    if second:
        subjects = [subject, second]
    else:
        subjects, shared = _two_subjects(subject) if not compared else _two_subjects(subject, limit=12)
        if shared and len(subjects) == 2:
            aspects.insert(0, shared)
    aspects = [a for a in dict.fromkeys(aspects) if a.casefold() not in {s.casefold() for s in subjects}
               and not _LIST_END.match(a)  # "etc"
               and not all(w.casefold() in _TAIL_FUNCTION for w in a.split())]  # "are they"
    # two subjects are titled in the request's language ("Abeilles et pollinisation"); the subject phrase
    # itself joins them with "and" for every rule that reads it (names_subject)
    title = f" {_TITLE_AND[lang]} ".join(subjects) if len(subjects) == 2 and lang in _TITLE_AND else ""
    # "Explain how vaccines work" asks, but is no question to title
    title = _asked_title(_TRAILING_AUDIENCE.sub("", wrote) if asked or led_in else _OWN_AUDIENCE.sub("", wrote),
                         subjects, typed_question,
                         lang) or title
    setting = _TRAILING_SETTING.match(subjects[0]) \
        if len(subjects) == 1 and (question or asked or framing or len(subjects[0].split()) > 3) else None
    if setting and not alternatives:  # "the benefits of olive oil for health": olive oil, when the whole is no title
        alternatives = [setting.group("subject")]
    owned = re.match(r"^(?P<subject>.+?)\s+(?:your|my|our|their)\s+[^\W\d_]+(?:\s+[^\W\d_]+)?$", subjects[0],
                     re.IGNORECASE) if len(subjects) == 1 else None
    if owned and not alternatives:  # "homeschooling your kids": homeschooling, when the whole is no title
        alternatives = [owned.group("subject")]
    # "Isaac Newton's contributions to science", "Japan's economy" (both had found no sources): the possessor,
    # what it owns its aspect, when the whole is no title ("Newton's laws of motion", "Alzheimer's disease")
    possessor = re.match(r"^(?P<subject>[^'’]+?)['’]s?\s+[a-z][\w-]*(?:\s+[\w-]+){0,3}$", subjects[0]) \
        if len(subjects) == 1 and lang == "en" else None
    if possessor and not alternatives:
        alternatives = [possessor.group("subject")]
    return Request(text=raw, subjects=subjects, aspects=aspects[:6], question=question, acronyms=acronyms,
                   alternatives=alternatives if len(subjects) == 1 else [], depth=depth, title=title,
                   framed=(framed or asked_of) if len(subjects) == 1 else "",
                   compared=bool(compared) and len(subjects) == 2,
                   borne_on=second if len(subjects) == 2 and second else "")


#: Most characters of a title written as the request asked (:func:`_asked_title`); a longer request is
#: titled by its subject (a title of two lines at most on an A4 title page).
TITLE_CHARS = 90


#: A question asking why or how, in the three languages: it asks for more than its subject.
_ASKS_WHY = re.compile(r"^(?:why|how|pourquoi|comment|por\s+qu[ée]|c[óo]mo)\b", re.IGNORECASE)


def _asked_title(wrote: str, subjects: list[str], question: bool, lang: str) -> str:
    """The report's title as the request asked, when it asks for more than its subject: "Why do leaves
    change color in autumn?" (it had been titled "Leaves change color"), "The history of the printing
    press" (had been "Printing press"), "¿Cómo funcionan las vacunas?". ``""`` when the request is its
    subject, or longer than :data:`TITLE_CHARS`.

    Args:
        wrote: The request without its instruction or lead-in, tidied (:func:`_tidy`).
        subjects: The subjects read from it.
        question: Whether it was typed as a question (its marks are put back, as the language writes them).
        lang: Its language.

    Returns:
        The title, or ``""``.
    """
    if not wrote or len(wrote) > TITLE_CHARS:
        return ""
    if terms(wrote, lang) <= terms(" ".join(subjects), lang) and not (question and _ASKS_WHY.match(wrote)):
        return ""  # "Why do we have seasons?" asks for more than "Seasons", though its other words are all common
    first = wrote.split()[0]
    # a name written with a capital inside keeps its small first letter: "iPhone", "eBay"
    title = wrote if any(c.isupper() for c in first[1:]) else wrote[:1].upper() + wrote[1:]
    if question:
        # a question after a subject keeps its own opening mark: "Té o café: ¿cuál es más sano?"
        title = (f"{title}?" if "¿" in title else f"¿{title}?") if lang == "es" else \
            f"{title} ?" if lang == "fr" else f"{title}?"
    return title


def asks_why(request: Request) -> bool:
    """Whether a request asks what causes its subject: a question, or a cause word among its aspects
    ("the causes of the French Revolution", "Les causes de la Révolution française").

    Args:
        request: The read request (:func:`read_request`).

    Returns:
        True when the planner should look for the causes its subject's texts give.
    """
    return request.question or any(is_cause(a) for a in request.aspects)


def is_cause(aspect: str) -> bool:
    """Whether an aspect asks what caused the subject: "causes", "caused" ("What caused the Great Depression?"),
    "origins", "reasons", and their French and Spanish forms.

    Args:
        aspect: One aspect of a read request (:attr:`Request.aspects`).

    Returns:
        True when the aspect is a word of cause.
    """
    return bool(_CAUSE_WORDS.search(aspect))


def section_count(requested: int | None, request: Request) -> int:
    """How many body sections to plan.

    Args:
        requested: The sections the user asked for (``--sections``, the API's
            ``sections``), 1..12, or ``None`` when they did not say.
        request: The read request (:func:`read_request`).

    Returns:
        ``requested`` when given; else :data:`LONG_SECTIONS` for a request
        asking for a comprehensive or detailed report, :data:`SHORT_SECTIONS`
        for a short one, :data:`DEFAULT_SECTIONS` otherwise. A planner may
        still give fewer when the corpora hold fewer themes.
    """
    if requested is not None:
        return requested
    return {"long": LONG_SECTIONS, "short": SHORT_SECTIONS}.get(request.depth, DEFAULT_SECTIONS)
