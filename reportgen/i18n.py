"""Words the report itself prints, per report language (en, es, fr).

Headings and fixed sentences only; source text is never translated.
"""

from __future__ import annotations

import functools

__all__ = [
    "CHART_WORDS", "LABELS", "chart_word", "counted", "detect_language", "detect_language_with_confidence", "join_list",
    "labels",
]

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "aim_overview": "Find overview passages on {topic}",
        "aim_research": "Find passages on {theme} (section {n})",
        "aim_chart": "Chart numbers the sources give on {theme}",
        "aim_write": "Write the section on {theme}",
        "named_as": "This report reads {asked!r} as {named}, the title the corpora hold it under.",
        "little": "The corpora hold little on {subject!r}: this report has {count} sections, from {titles}. For "
                  "a fuller report, add your own documents or configure a model.",
        "little_one": "The corpora hold little on {subject!r}: this report has one section, from {titles}. For a "
                      "fuller report, add your own documents or configure a model.",
        "few": "It has {count} sections, from {titles}. For a fuller report, add your own documents or configure "
               "a model.",
        "few_one": "It has one section, from {titles}. For a fuller report, add your own documents or configure a "
                   "model.",
        "thin": "The corpora hold no text on {subject!r} as such; this report draws on the closest they hold: "
                "{titles}.",
        "mentioned": "The corpora hold no article on {subject!r}; this report draws on the texts that mention it: "
                     "{titles}.",
        "senses": "This report reads {subject!r} as {chosen}; the corpora also hold {others}: ask for one by its "
                  "name for a report on it.",
        "quoted": "“{text}”",
        "not_compared": "No sentence quoted here compares {subjects} (a list naming both compares nothing): the "
                        "sections give what the sources hold on each.",
        "unanswered": "No sentence quoted here answers {asked!r}: this report gives what the sources hold on "
                      "{subject!r}.",
        "unwritten": "No sentence quoted here writes of {aspects}, which the request asks about: this report gives "
                     "what the sources hold on {subject!r}.",
        "written_apart": "No sentence quoted here writes of {aspects} as of {subject!r}: the sections give what "
                         "the sources hold on each apart.",
        "senses_other": "The corpora also hold {others}: ask for one by its name for a report on it.",
        "aim_introduction": "Write the introduction from the overview and the finished sections",
        "aim_conclusion": "Write the conclusion from the overview and the finished sections",
        "corpus_wiki": "Wikipedia's vital-article summaries (English, offline copy, CC BY-SA 4.0)",
        "corpus_local": "the documents in the folder {name!r}",
        "corpus_web": "web pages found with ddgs and fetched for this report",
        "report": "Report",
        "incomplete": "parts of the plan could not be completed as planned",
        "incomplete_one": "part of the plan could not be completed as planned",
        "no_chart": "No chart for the section on {title}: its sources print no two comparable numbers and too few "
                    "dated events",
        "no_charts": "No chart for the sections on {titles}: their sources print no two comparable numbers and too "
                     "few dated events",
        "no_introduction": "No introduction: the sources hold no sentence on {title} that the sections do not "
                           "quote",
        "no_conclusion": "No conclusion: the sources hold no sentence on {title} that the report does not already "
                         "quote",
        "section_left_out": (
            "The section on {title} was left out: every sentence it found is already quoted earlier in the report"
        ),
        "section_unwritten": "The section on {title} was left out: its sources hold no sentence on it the report "
                             "could quote",
        "done_without": "Done without it: {tasks}",
        "section_off_heading": (
            "The section on {title} was left out: its own article's sentences are already quoted earlier in the "
            "report, and the others it found are not on {title}"
        ),
        "reason": "Reason",
        "contents": "Contents",
        "introduction": "Introduction",
        "conclusion": "Conclusion",
        "references": "References",
        "limitations": "Limitations",
        "figure": "Figure",
        "key_dates": "Key dates: {subject}",
        "key_dates_related": "Key dates: {subject} and related subjects",
        "source": "Source",
        "sources": "Sources",
        "accessed": "accessed",
        "page": "page",
        "of": "of",
        "task": "task",
        "code": "code",
        "mode_extractive": (
            "Written in extractive mode: no language model was used. Every sentence "
            "below is quoted from a source listed under References, from {corpora}; "
            "charts show only numbers printed in those sources."
        ),
        "recap": "This report covered {sections}.",
        "mode_model": (
            "Written by a language model ({model}) from {corpora}. Every citation "
            "points to a source retrieved for this report; charts show only numbers "
            "found in their cited sources."
        ),
        "title": "{topic}",
    },
    "fr": {
        "aim_overview": "Trouver des passages de synthèse sur {topic}",
        "aim_research": "Trouver des passages sur {theme} (section {n})",
        "aim_chart": "Représenter les nombres que les sources donnent sur {theme}",
        "aim_write": "Rédiger la section sur {theme}",
        "named_as": "Ce rapport lit « {asked} » comme {named}, le titre sous lequel les corpus le traitent.",
        "little": "Les corpus contiennent peu de chose sur « {subject} » : ce rapport a {count} sections, tirées "
                  "de {titles}. Pour un rapport plus complet, ajoutez vos propres documents ou configurez un modèle.",
        "little_one": "Les corpus contiennent peu de chose sur « {subject} » : ce rapport a une section, tirée de "
                      "{titles}. Pour un rapport plus complet, ajoutez vos propres documents ou configurez un modèle.",
        "few": "Il a {count} sections, tirées de {titles}. Pour un rapport plus complet, ajoutez vos propres "
               "documents ou configurez un modèle.",
        "few_one": "Il a une section, tirée de {titles}. Pour un rapport plus complet, ajoutez vos propres "
                   "documents ou configurez un modèle.",
        "thin": "Les corpus ne contiennent aucun texte sur « {subject} » en tant que tel ; ce rapport s'appuie "
                "sur ce qu'ils contiennent de plus proche : {titles}.",
        "mentioned": "Les corpus ne contiennent aucun article sur « {subject} » ; ce rapport s'appuie sur les "
                     "textes qui le mentionnent : {titles}.",
        "senses": "Ce rapport prend « {subject} » au sens de {chosen} ; les corpus contiennent aussi {others} : "
                  "demandez-en un par son nom pour un rapport sur lui.",
        "quoted": "« {text} »",
        "not_compared": "Aucune phrase citée ici ne compare {subjects} (une liste qui les nomme ne compare rien) : "
                        "les sections donnent ce que les sources contiennent sur chacun.",
        "unanswered": "Aucune phrase citée ici ne répond à « {asked} » : ce rapport donne ce que les sources "
                      "contiennent sur « {subject} ».",
        "unwritten": "Aucune phrase citée ici ne parle de {aspects}, que la demande évoque : ce rapport donne ce "
                     "que les sources contiennent sur « {subject} ».",
        "written_apart": "Aucune phrase citée ici ne parle de {aspects} à propos de « {subject} » : les sections "
                         "donnent ce que les sources contiennent sur chacun séparément.",
        "senses_other": "Les corpus contiennent aussi {others} : demandez-en un par son nom pour un rapport sur lui.",
        "aim_introduction": "Rédiger l'introduction à partir de la synthèse et des sections",
        "aim_conclusion": "Rédiger la conclusion à partir de la synthèse et des sections",
        "corpus_wiki": "les résumés des articles essentiels de Wikipédia (français, copie hors ligne, CC BY-SA 4.0)",
        "corpus_local": "les documents du dossier {name!r}",
        "corpus_web": "des pages web trouvées avec ddgs et consultées pour ce rapport",
        "report": "Rapport",
        "incomplete": "parties du plan n'ont pas pu être réalisées comme prévu",
        "incomplete_one": "partie du plan n'a pas pu être réalisée comme prévu",
        "no_chart": "Pas de graphique pour la section {title} : ses sources ne donnent pas deux nombres comparables "
                    "ni assez d'événements datés",
        "no_charts": "Pas de graphique pour les sections {titles} : leurs sources ne donnent pas deux nombres "
                     "comparables ni assez d'événements datés",
        "no_introduction": "Pas d'introduction : les sources ne donnent aucune phrase sur « {title} » que les "
                           "sections ne citent pas",
        "no_conclusion": "Pas de conclusion : les sources ne donnent aucune phrase sur « {title} » que le rapport ne "
                         "cite pas déjà",
        "section_left_out": (
            "La section sur {title} a été omise : chaque phrase trouvée est déjà citée plus haut dans le rapport"
        ),
        "section_unwritten": "La section sur {title} a été omise : ses sources ne contiennent aucune phrase sur "
                             "elle que le rapport puisse citer",
        "done_without": "Fait sans elle : {tasks}",
        "section_off_heading": (
            "La section sur {title} a été omise : les phrases de son propre article sont déjà citées plus haut dans "
            "le rapport, et les autres ne portent pas sur {title}"
        ),
        "reason": "Raison",
        "contents": "Sommaire",
        "introduction": "Introduction",
        "conclusion": "Conclusion",
        "references": "Références",
        "limitations": "Limites",
        "figure": "Figure",
        "key_dates": "Dates clés : {subject}",
        "key_dates_related": "Dates clés : {subject} et sujets voisins",
        "source": "Source",
        "sources": "Sources",
        "accessed": "consulté le",
        "page": "page",
        "of": "sur",
        "task": "tâche",
        "code": "code",
        "mode_extractive": (
            "Rédigé en mode extractif : aucun modèle de langue n'a été utilisé. Chaque "
            "phrase ci-dessous est citée d'une source listée dans les Références "
            "({corpora}) ; les graphiques ne montrent que des nombres imprimés dans ces sources."
        ),
        "recap": "Ce rapport a traité : {sections}.",
        "mode_model": (
            "Rédigé par un modèle de langue ({model}) à partir de {corpora}. Chaque "
            "citation renvoie à une source consultée pour ce rapport ; les graphiques "
            "ne montrent que des nombres trouvés dans leurs sources citées."
        ),
        "title": "{topic}",
    },
    "es": {
        "aim_overview": "Buscar pasajes generales sobre {topic}",
        "aim_research": "Buscar pasajes sobre {theme} (sección {n})",
        "aim_chart": "Graficar los números que dan las fuentes sobre {theme}",
        "aim_write": "Redactar la sección sobre {theme}",
        "named_as": "Este informe lee «{asked}» como {named}, el título bajo el que lo tratan los corpus.",
        "little": "Los corpus contienen poco sobre «{subject}»: este informe tiene {count} secciones, tomadas de "
                  "{titles}. Para un informe más completo, añada sus propios documentos o configure un modelo.",
        "little_one": "Los corpus contienen poco sobre «{subject}»: este informe tiene una sección, tomada de "
                      "{titles}. Para un informe más completo, añada sus propios documentos o configure un modelo.",
        "few": "Tiene {count} secciones, tomadas de {titles}. Para un informe más completo, añada sus propios "
               "documentos o configure un modelo.",
        "few_one": "Tiene una sección, tomada de {titles}. Para un informe más completo, añada sus propios "
                   "documentos o configure un modelo.",
        "thin": "Los corpus no contienen ningún texto sobre «{subject}» como tal; este informe se basa en lo "
                "más cercano que contienen: {titles}.",
        "mentioned": "Los corpus no contienen ningún artículo sobre «{subject}»; este informe se basa en los "
                     "textos que lo mencionan: {titles}.",
        "senses": "Este informe toma «{subject}» en el sentido de {chosen}; los corpus también contienen {others}: "
                  "pida uno por su nombre para un informe sobre él.",
        "quoted": "«{text}»",
        "not_compared": "Ninguna frase citada aquí compara {subjects} (una lista que los nombra no compara "
                        "nada): las secciones dan lo que las fuentes contienen sobre cada uno.",
        "unanswered": "Ninguna frase citada aquí responde a «{asked}»: este informe da lo que las fuentes "
                      "contienen sobre «{subject}».",
        "unwritten": "Ninguna frase citada aquí habla de {aspects}, por lo que pregunta la solicitud: este informe "
                     "da lo que las fuentes contienen sobre «{subject}».",
        "written_apart": "Ninguna frase citada aquí habla de {aspects} a propósito de «{subject}»: las secciones "
                         "dan lo que las fuentes contienen sobre cada uno por separado.",
        "senses_other": "Los corpus también contienen {others}: pida uno por su nombre para un informe sobre él.",
        "aim_introduction": "Redactar la introducción a partir del panorama y las secciones",
        "aim_conclusion": "Redactar la conclusión a partir del panorama y las secciones",
        "corpus_wiki": (
            "los resúmenes de los artículos esenciales de Wikipedia (español, copia sin conexión, CC BY-SA 4.0)"
        ),
        "corpus_local": "los documentos de la carpeta {name!r}",
        "corpus_web": "páginas web halladas con ddgs y consultadas para este informe",
        "report": "Informe",
        "incomplete": "partes del plan no pudieron completarse como estaba previsto",
        "incomplete_one": "parte del plan no pudo completarse como estaba previsto",
        "no_chart": "Sin gráfico para la sección {title}: sus fuentes no dan dos cifras comparables ni bastantes "
                    "hechos fechados",
        "no_charts": "Sin gráfico para las secciones {titles}: sus fuentes no dan dos cifras comparables ni "
                     "bastantes hechos fechados",
        "no_introduction": "Sin introducción: las fuentes no dan ninguna frase sobre «{title}» que las "
                           "secciones no citen",
        "no_conclusion": "Sin conclusión: las fuentes no dan ninguna frase sobre «{title}» que el informe no cite ya",
        "section_left_out": (
            "La sección sobre {title} se omitió: cada frase encontrada ya se cita antes en el informe"
        ),
        "section_unwritten": "La sección sobre {title} se omitió: sus fuentes no contienen ninguna frase sobre "
                             "ella que el informe pueda citar",
        "done_without": "Hecho sin ella: {tasks}",
        "section_off_heading": (
            "La sección sobre {title} se omitió: las frases de su propio artículo ya se citan antes en el informe, "
            "y las demás no tratan de {title}"
        ),
        "reason": "Motivo",
        "contents": "Índice",
        "introduction": "Introducción",
        "conclusion": "Conclusión",
        "references": "Referencias",
        "limitations": "Limitaciones",
        "figure": "Figura",
        "key_dates": "Fechas clave: {subject}",
        "key_dates_related": "Fechas clave: {subject} y temas afines",
        "source": "Fuente",
        "sources": "Fuentes",
        "accessed": "consultado el",
        "page": "página",
        "of": "de",
        "task": "tarea",
        "code": "código",
        "mode_extractive": (
            "Redactado en modo extractivo: no se usó ningún modelo de lenguaje. Cada frase "
            "se cita de una fuente listada en las Referencias, tomada de {corpora}; los "
            "gráficos solo muestran números impresos en esas fuentes."
        ),
        "recap": "Este informe trató: {sections}.",
        "mode_model": (
            "Redactado por un modelo de lenguaje ({model}) a partir de {corpora}. Cada "
            "cita remite a una fuente consultada para este informe; los gráficos solo "
            "muestran números hallados en sus fuentes citadas."
        ),
        "title": "{topic}",
    },
}


#: The words of chart titles and axes (:mod:`reportgen.charts.spec`) in the report's language, by their English
#: form (folded to lower case): the quantities the units name, the kinds the words around a number give
#: (:mod:`reportgen.charts.numbers`), and the phrases that join them (``{what}`` is filled in).
CHART_WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "share": "part", "energy": "énergie", "power": "puissance", "length": "longueur", "area": "superficie",
        "volume": "volume", "mass": "masse", "temperature": "température", "amount": "montant",
        "speed": "vitesse", "voltage": "tension", "frequency": "fréquence", "concentration": "concentration",
        "level": "niveau", "magnitude": "magnitude", "duration": "durée",
        "time before present": "temps avant le présent",
        "per year": "par an", "per day": "par jour", "per hour": "par heure", "per second": "par seconde",
        "per person": "par personne",
        "population": "population", "deaths": "morts", "capacity": "capacité", "production": "production",
        "consumption": "consommation", "emissions": "émissions", "distance": "distance", "period": "période",
        "wavelength": "longueur d'onde", "melting point": "point de fusion", "boiling point": "point d'ébullition",
        "density": "densité", "pressure": "pression", "revenue": "chiffre d'affaires", "cost": "coût",
        "gdp": "PIB", "value": "valeur", "employees": "employés", "speakers": "locuteurs", "members": "membres",
        "visitors": "visiteurs", "students": "étudiants", "users": "utilisateurs", "reserves": "réserves",
        "lifespan": "durée de vie", "width": "largeur", "depth": "profondeur", "height": "hauteur",
        "depth below sea level": "profondeur sous le niveau de la mer",
        "thickness": "épaisseur", "diameter": "diamètre", "radius": "rayon",
        "number of {what}": "nombre de {what}", "share of {what}": "part de {what}",
        "{what} and others": "{what} et autres", "{what} by year": "{what} par année", "year": "année",
        "{what}: {rest}": "{what} : {rest}",
    },
    "es": {
        "share": "proporción", "energy": "energía", "power": "potencia", "length": "longitud", "area": "superficie",
        "volume": "volumen", "mass": "masa", "temperature": "temperatura", "amount": "importe",
        "speed": "velocidad", "voltage": "tensión", "frequency": "frecuencia", "concentration": "concentración",
        "level": "nivel", "magnitude": "magnitud", "duration": "duración",
        "time before present": "tiempo antes del presente",
        "per year": "por año", "per day": "por día", "per hour": "por hora", "per second": "por segundo",
        "per person": "por persona",
        "population": "población", "deaths": "muertes", "capacity": "capacidad", "production": "producción",
        "consumption": "consumo", "emissions": "emisiones", "distance": "distancia", "period": "período",
        "wavelength": "longitud de onda", "melting point": "punto de fusión", "boiling point": "punto de ebullición",
        "density": "densidad", "pressure": "presión", "revenue": "ingresos", "cost": "costo", "gdp": "PIB",
        "value": "valor", "employees": "empleados", "speakers": "hablantes", "members": "miembros",
        "visitors": "visitantes", "students": "estudiantes", "users": "usuarios", "reserves": "reservas",
        "lifespan": "esperanza de vida", "width": "anchura", "depth": "profundidad", "height": "altura",
        "depth below sea level": "profundidad bajo el nivel del mar",
        "thickness": "espesor", "diameter": "diámetro", "radius": "radio",
        "number of {what}": "número de {what}", "share of {what}": "proporción de {what}",
        "{what} and others": "{what} y otros", "{what} by year": "{what} por año", "year": "año",
    },
}


def chart_word(phrase: str, lang: str, **fill: str) -> str:
    """A chart's word or phrase in ``lang`` (:data:`CHART_WORDS`), capitalised as ``phrase`` is.

    Args:
        phrase: The English form ("Width", "per year", "Number of {what}").
        lang: The report language; English, or a language without a table, keeps ``phrase``.
        **fill: The phrase's fields (``what``).

    Returns:
        The phrase in ``lang``, its fields filled in.
    """
    said = CHART_WORDS.get(lang, {}).get(phrase.casefold(), phrase)
    if said is not phrase and phrase[:1].isupper():
        said = said[:1].upper() + said[1:]
    return said.format(**fill) if fill else said


def labels(lang: str) -> dict[str, str]:
    """The label set for ``lang``, English when the language has none."""
    return LABELS.get(lang, LABELS["en"])


def counted(labels: dict[str, str], name: str, n: int) -> str:
    """The label ``name`` for a count of ``n``: its ``<name>_one`` form for one, where the language has one
    ("1 faite", "3 faites"; "1 task did not run"), else the plain label (the plural).

    Args:
        labels: The report language's labels (:func:`labels`, or :func:`reportgen.render.labels.render_labels`).
        name: A label key ("done", "appendix_not_run").
        n: The count.

    Returns:
        The label, not yet formatted.
    """
    return labels.get(f"{name}_one", labels[name]) if n == 1 else labels[name]


def join_list(items: list[str], lang: str) -> str:
    """``items`` as one phrase in ``lang``: "A, B, and C", "A, B et C", "A, B y C".

    Args:
        items: The phrases, in order (at least one).
        lang: ISO 639-1 code; a language Babel's CLDR data does not know reads as English.

    Returns:
        The phrase, by CLDR's list pattern for the language (Babel's :func:`babel.lists.format_list`).
    """
    from babel.core import UnknownLocaleError
    from babel.lists import format_list

    try:
        return format_list(items, locale=lang)
    except (UnknownLocaleError, ValueError):
        return format_list(items, locale="en")


def detect_language(text: str, among: tuple[str, ...] | None = None) -> str:
    """The language of ``text`` as an ISO 639-1 code, with ``py3langid``.

    Args:
        text: A topic or any text (short text works: "Énergie renouvelable" is
            ``fr``, "可再生能源" is ``zh``).
        among: Restrict the answer to these languages (e.g. the editions of
            the offline encyclopedia).

    Returns:
        The code; ``among[0]`` (or ``"en"``) when nothing can be told.
    """
    return detect_language_with_confidence(text, among)[0]


def detect_language_with_confidence(text: str, among: tuple[str, ...] | None = None) -> tuple[str, float]:
    """The language of ``text`` (see :func:`detect_language`) and py3langid's normalised probability of it.

    Returns:
        ``(code, probability in [0, 1])``; ``(among[0] or "en", 0.0)`` when nothing can be told.
    """
    if not any(ch.isalpha() for ch in text):
        return (among[0] if among else "en"), 0.0
    code, probability = _identifier(tuple(among or ())).classify(text)
    return str(code), float(probability)


@functools.lru_cache(maxsize=8)
def _identifier(among: tuple[str, ...]):  # noqa: ANN202 - py3langid's LanguageIdentifier
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    if among:
        identifier.set_languages(list(among))
    return identifier
