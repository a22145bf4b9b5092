"""Words the report itself prints, per report language (en, es, fr).

Headings and fixed sentences only; source text is never translated.
"""

from __future__ import annotations

__all__ = ["LABELS", "labels"]

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "report": "Report",
        "incomplete": "parts of the plan could not be completed as planned",
        "reason": "Reason",
        "contents": "Contents",
        "introduction": "Introduction",
        "conclusion": "Conclusion",
        "references": "References",
        "limitations": "Limitations",
        "figure": "Figure",
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
        "title": "{topic}",
    },
    "fr": {
        "report": "Rapport",
        "incomplete": "parties du plan n'ont pas pu être réalisées comme prévu",
        "reason": "Raison",
        "contents": "Sommaire",
        "introduction": "Introduction",
        "conclusion": "Conclusion",
        "references": "Références",
        "limitations": "Limites",
        "figure": "Figure",
        "source": "Source",
        "sources": "Sources",
        "accessed": "consulté le",
        "page": "page",
        "of": "sur",
        "task": "tâche",
        "code": "code",
        "mode_extractive": (
            "Rédigé en mode extractif : aucun modèle de langue n'a été utilisé. Chaque "
            "phrase ci-dessous est citée d'une source listée dans les Références, tirée de "
            "{corpora} ; les graphiques ne montrent que des nombres imprimés dans ces sources."
        ),
        "recap": "Ce rapport a traité : {sections}.",
        "title": "{topic}",
    },
    "es": {
        "report": "Informe",
        "incomplete": "partes del plan no pudieron completarse como estaba previsto",
        "reason": "Motivo",
        "contents": "Índice",
        "introduction": "Introducción",
        "conclusion": "Conclusión",
        "references": "Referencias",
        "limitations": "Limitaciones",
        "figure": "Figura",
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
        "title": "{topic}",
    },
}


def labels(lang: str) -> dict[str, str]:
    """The label set for ``lang``, English when the language has none."""
    return LABELS.get(lang, LABELS["en"])
