"""The fixed words a rendered report prints, per report language.

:mod:`reportgen.i18n` holds the words coordination writes (en, es, fr). The
renderer needs a few more (tables, the appendix, task outcomes) and must
print *something* right for reports in languages the encyclopedia does not
ship but a model may write (Chinese, Arabic, ...): a report in Arabic with an
English "page 1 of 9" footer looks broken. :func:`render_labels` merges, in
order of precedence: :mod:`reportgen.i18n`'s words for the language, this
module's words for it, and English.
"""

from __future__ import annotations

from typing import Any

from reportgen import i18n
from reportgen.i18n import counted

__all__ = ["RENDER_LABELS", "counted", "limitations_legend", "limitations_notice", "render_labels"]

#: Words only the renderer prints, and whole label sets for languages
#: :mod:`reportgen.i18n` does not cover. English is complete; every other
#: language may leave keys out (English fills them).
RENDER_LABELS: dict[str, dict[str, str]] = {
    "en": {
        "table": "Table",
        "tables": "Tables",
        "figures": "Figures",
        "appendix": "Appendix: how this report was made",
        "appendix_intro": (
            "The report was planned as an execution blueprint: a graph of tasks, each run "
            "by one agent. {total} tasks: {counts}."
        ),
        "appendix_graph": "The execution blueprint; arrows point from a task to the tasks that use its output.",
        "appendix_timeline": "Timeline of the agents' work, in seconds from the first task's start.",
        "appendix_figure": "Figure A",
        "appendix_not_run": "{n} tasks did not run and have no bar.",
        "appendix_not_run_one": "1 task did not run and has no bar.",
        "done": "done",
        "failed": "failed",
        "found_nothing": "found nothing to use",
        "skipped": "skipped",
        "degraded": "degraded",
        "not_run": "not run",
        "empty_table": "(no rows)",
        "footnotes": "Notes",
        "list_separator": ", ",
        # the ACP status codes' meanings (../shared/DESIGN.md, "Status codes"), read after the code
        "limitations_legend": ("The tasks named are those of the execution blueprint in the appendix; the "
                               "codes are ACP status codes: {codes}."),
        "status_601": "when required inputs were missing",
        "status_602": "when the step's details were wrong or incomplete",
        "status_603": "when a parameter was misused",
        "status_604": "when a tool call failed",
        "status_605": "when the sources lacked what the task needed",
        "status_606": "when a task it depends on lacked what it needed",
        "status_607": "when the result was irrelevant or wrong for its aim",
    },
    "fr": {
        "table": "Tableau",
        "tables": "Tableaux",
        "figures": "Figures",
        "appendix": "Annexe : comment ce rapport a été fait",
        "appendix_intro": (
            "Le rapport a été planifié comme un plan d'exécution : un graphe de tâches, "
            "chacune menée par un agent. {total} tâches : {counts}."
        ),
        "appendix_graph": "Le plan d'exécution ; les flèches vont d'une tâche aux tâches qui utilisent son résultat.",
        "appendix_timeline": "Chronologie du travail des agents, en secondes depuis le début de la première tâche.",
        "appendix_figure": "Figure A",
        "appendix_not_run": "{n} tâches n'ont pas été exécutées et n'ont pas de barre.",
        "appendix_not_run_one": "1 tâche n'a pas été exécutée et n'a pas de barre.",
        "done": "faites",
        "done_one": "faite",
        "failed": "échouées",
        "found_nothing": "sans matière",
        "failed_one": "échouée",
        "skipped": "sautées",
        "skipped_one": "sautée",
        "degraded": "dégradées",
        "degraded_one": "dégradée",
        "not_run": "non exécutées",
        "not_run_one": "non exécutée",
        "empty_table": "(aucune ligne)",
        "footnotes": "Notes",
        "limitations_legend": ("Les tâches nommées sont celles du plan d'exécution en annexe ; les codes sont "
                               "des codes de statut ACP : {codes}."),
        "status_601": "quand des entrées requises manquaient",
        "status_602": "quand les détails de l'étape étaient faux ou incomplets",
        "status_603": "quand un paramètre était mal employé",
        "status_604": "quand un appel d'outil a échoué",
        "status_605": "quand les sources ne contenaient pas ce dont la tâche avait besoin",
        "status_606": "quand une tâche dont elle dépend manquait de ce qu'il lui fallait",
        "status_607": "quand le résultat était hors sujet ou faux",
    },
    "es": {
        "table": "Tabla",
        "tables": "Tablas",
        "figures": "Figuras",
        "appendix": "Apéndice: cómo se hizo este informe",
        "appendix_intro": (
            "El informe se planificó como un plan de ejecución: un grafo de tareas, cada "
            "una a cargo de un agente. {total} tareas: {counts}."
        ),
        "appendix_graph": "El plan de ejecución; las flechas van de una tarea a las tareas que usan su resultado.",
        "appendix_timeline": "Cronología del trabajo de los agentes, en segundos desde el inicio de la primera tarea.",
        "appendix_figure": "Figura A",
        "appendix_not_run": "{n} tareas no se ejecutaron y no tienen barra.",
        "appendix_not_run_one": "1 tarea no se ejecutó y no tiene barra.",
        "done": "hechas",
        "done_one": "hecha",
        "failed": "fallidas",
        "found_nothing": "sin material",
        "failed_one": "fallida",
        "skipped": "omitidas",
        "skipped_one": "omitida",
        "degraded": "degradadas",
        "degraded_one": "degradada",
        "not_run": "no ejecutadas",
        "not_run_one": "no ejecutada",
        "empty_table": "(sin filas)",
        "footnotes": "Notas",
        "limitations_legend": ("Las tareas nombradas son las del plan de ejecución del anexo; los códigos son "
                               "códigos de estado ACP: {codes}."),
        "status_601": "cuando faltaban entradas obligatorias",
        "status_602": "cuando los detalles del paso eran erróneos o incompletos",
        "status_603": "cuando un parámetro se usó mal",
        "status_604": "cuando falló una llamada a una herramienta",
        "status_605": "cuando las fuentes no contenían lo que la tarea necesitaba",
        "status_606": "cuando a una tarea de la que depende le faltaba lo que necesitaba",
        "status_607": "cuando el resultado era irrelevante o erróneo para su fin",
    },
    "zh": {
        "report": "报告",
        "incomplete": "项计划未能按计划完成",
        "incomplete_one": "项计划未能按计划完成",
        "reason": "原因",
        "contents": "目录",
        "introduction": "引言",
        "conclusion": "结论",
        "references": "参考文献",
        "limitations": "局限",
        "figure": "图",
        "figures": "图",
        "source": "来源",
        "sources": "来源",
        "accessed": "访问于",
        "page": "页",
        "of": "共",
        "page_of": "第 {page} 页，共 {pages} 页",
        "task": "任务",
        "code": "代码",
        "table": "表",
        "tables": "表",
        "appendix": "附录：本报告的生成过程",
        "appendix_intro": (
            "本报告按执行蓝图规划：一个由任务组成的图，每个任务由一个智能体执行。"
            "共 {total} 个任务：{counts}。"
        ),
        "appendix_graph": "执行蓝图；箭头从一个任务指向使用其输出的任务。",
        "appendix_timeline": "智能体工作时间线（自第一个任务开始起的秒数）。",
        "appendix_figure": "图 A",
        "appendix_not_run": "{n} 个任务未运行，没有条形。",
        "done": "完成",
        "failed": "失败",
        "found_nothing": "无可用内容",
        "skipped": "跳过",
        "degraded": "降级",
        "not_run": "未运行",
        "empty_table": "（无数据行）",
        "footnotes": "注释",
        "list_separator": "、",
    },
    "ja": {
        "report": "レポート",
        "contents": "目次",
        "references": "参考文献",
        "limitations": "制限事項",
        "figure": "図",
        "table": "表",
        "source": "出典",
        "sources": "出典",
        "accessed": "閲覧日",
        "reason": "理由",
        "task": "タスク",
        "code": "コード",
        "page": "ページ",
        "of": "/",
        "page_of": "{page} / {pages}",
        "appendix": "付録：このレポートの作成過程",
        "list_separator": "、",
    },
    "ar": {
        "report": "تقرير",
        "incomplete": "أجزاء من الخطة لم تكتمل كما هو مخطط",
        "incomplete_one": "جزء من الخطة لم يكتمل كما هو مخطط",
        "reason": "السبب",
        "contents": "المحتويات",
        "introduction": "مقدمة",
        "conclusion": "خاتمة",
        "references": "المراجع",
        "limitations": "القيود",
        "figure": "الشكل",
        "figures": "الأشكال",
        "source": "المصدر",
        "sources": "المصادر",
        "accessed": "تاريخ الاطلاع",
        "page": "صفحة",
        "of": "من",
        "task": "المهمة",
        "code": "الرمز",
        "table": "الجدول",
        "tables": "الجداول",
        "appendix": "ملحق: كيف أُعدّ هذا التقرير",
        "appendix_intro": (
            "خُطّط التقرير في صورة مخطط تنفيذ: رسم بياني من المهام، ينفّذ كلًّا منها وكيل واحد. "
            "عدد المهام {total}: {counts}."
        ),
        "appendix_graph": "مخطط التنفيذ؛ تشير الأسهم من المهمة إلى المهام التي تستخدم ناتجها.",
        "appendix_timeline": "الجدول الزمني لعمل الوكلاء، بالثواني منذ بدء المهمة الأولى.",
        "appendix_figure": "الشكل م",
        "appendix_not_run": "{n} من المهام لم تُنفَّذ وليس لها شريط.",
        "done": "منجزة",
        "failed": "فاشلة",
        "found_nothing": "بلا مادة",
        "skipped": "متخطاة",
        "degraded": "منقوصة",
        "not_run": "لم تُنفَّذ",
        "empty_table": "(لا صفوف)",
        "footnotes": "حواشٍ",
        "list_separator": "، ",
    },
    "he": {
        "report": "דוח",
        "contents": "תוכן העניינים",
        "references": "מקורות",
        "limitations": "מגבלות",
        "figure": "איור",
        "table": "טבלה",
        "source": "מקור",
        "sources": "מקורות",
        "accessed": "נצפה ב־",
        "reason": "סיבה",
        "task": "משימה",
        "code": "קוד",
        "page": "עמוד",
        "of": "מתוך",
        "appendix": "נספח: כיצד נעשה הדוח",
    },
}


def render_labels(lang: str) -> dict[str, str]:
    """Every label the templates use, in ``lang`` where known, else English.

    Args:
        lang: A primary language subtag (``"en"``, ``"zh"``, ``"ar"``).

    Returns:
        A new dict (callers may not share it): English renderer words and
        :data:`reportgen.i18n.LABELS` ``["en"]``, overlaid with this module's
        words for ``lang``, overlaid with :mod:`reportgen.i18n`'s.
    """
    merged = dict(i18n.LABELS["en"])
    merged.update(RENDER_LABELS["en"])
    merged.update(RENDER_LABELS.get(lang, {}))
    if lang in i18n.LABELS:
        merged.update(i18n.LABELS[lang])
    if "page_of" not in RENDER_LABELS.get(lang, {}):
        # "page {page} of {pages}" from the two words every label set has.
        merged["page_of"] = f"{merged['page']} {{page}} {merged['of']} {{pages}}"
    return merged


def limitations_notice(report: Any, labels: dict[str, str]) -> str:
    """The count the note at the top of a report gives: "6 parts of the plan could not be completed as
    planned", in the singular for one; ``""`` when nothing counts.

    Args:
        report: The :class:`~reportgen.report.Report` (its ``counted_limitations``: a chart without data
            is not counted).
        labels: The report language's labels (:func:`render_labels`).

    Returns:
        The count and its words, without the "Limitations" label.
    """
    n = len(report.counted_limitations)
    return f"{n} {counted(labels, 'incomplete', n)}" if n else ""


def limitations_legend(report: Any, labels: dict[str, str]) -> str:
    """The line under the Limitations heading that says what its task ids and status codes are: "The tasks
    named are those of the execution blueprint in the appendix; the codes are ACP status codes: 605 when the
    sources lacked what the task needed." (the same words under the PDF's table and the Markdown's list).
    Only the codes the report's limitations carry are
    explained (their meanings: ``../shared/DESIGN.md``, "Status codes"). A reader had taken "chart-1 (605)"
    for an alarm nothing explained.

    Args:
        report: The :class:`~reportgen.report.Report`.
        labels: The report language's labels (:func:`render_labels`).

    Returns:
        The line; ``""`` when no limitation carries a status code, or in a language this module has no
        words for it in (English, French, Spanish have).
    """
    lang = str(report.lang).split("-")[0].lower()
    if "limitations_legend" not in RENDER_LABELS.get(lang, {}):
        return ""  # written in English inside a report in another language, it would read as broken
    codes = sorted({item.status_code for item in report.limitations if item.status_code is not None})
    meanings = [f"{code} {labels[f'status_{code}']}" for code in codes if f"status_{code}" in labels]
    if not meanings:
        return ""
    return labels["limitations_legend"].format(codes=i18n.join_list(meanings, lang))
