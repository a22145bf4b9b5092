"""The writer agent with a model: section prose with ``[S1]`` markers that must resolve.

The model writes paragraphs from the notes, citing passages by label. Every
marker must name a passage retrieved for this task; a marker naming anything
else — an invented source — is 607, and the section is written again with the
error attached, never published. A paragraph without any marker is refused
the same way, and so is a sentence that repeats the instructions (small
models echo "Write in the language with code 'en'..."). The introduction and
conclusion are written last, from the finished sections, citing the fetched
passages those sections cite (carried in each section's ``passages``), never
the sections' own prose under a source's label.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BaseModel, Field

from reportgen.acp import StatusCode
from reportgen.agents.model_common import (
    FEEDBACK_INPUT,
    attempt_deadline,
    cited_labels,
    echoes,
    fit_passages,
    label_sources,
    section_output,
    source_ref,
    sources_block,
    strip_markers,
)
from reportgen.agents.runtime import Brain, RunContext, require_notes
from reportgen.blueprint.model import Task
from reportgen.errors import AgentError
from reportgen.render.labels import render_labels
from reportgen.sources.models import Passage
from reportgen.sources.text import split_sentences

__all__ = ["ModelWriterBrain", "SectionDraft"]


#: Most paragraphs of one answer, and the longest paragraph, in characters (schema bounds).
MAX_PARAGRAPHS = 4
MAX_PARAGRAPH_CHARS = 1500


class SectionDraft(BaseModel):
    """A section's text: paragraphs whose sentences carry ``[S1]`` markers."""

    paragraphs: list[Annotated[str, Field(max_length=MAX_PARAGRAPH_CHARS)]] = Field(
        min_length=1, max_length=MAX_PARAGRAPHS, description="Paragraphs; cite passages as [S1] or [S1, S2].")


class ModelWriterBrain(Brain):
    """Writes sections with the writer model; the code checks every citation marker.

    Inputs like the extractive writer's (``notes``, ``claims``, ``chart``,
    ``title``, ``section_id``; ``section_1`` .. for the introduction and
    conclusion). Outputs ``section`` with sentences ``{"text", "sources",
    "paragraph"}``.
    """

    provides = ("compose",)

    def build_request(self, task: Task, inputs: dict[str, Any], strategy: str, ctx: RunContext) -> dict[str, Any]:
        notes = require_notes(inputs) + list(inputs.get("extra_notes") or [])  # tables, MCP tools
        numbered = [(int(k[8:]), v) for k, v in inputs.items() if re.fullmatch(r"section_\d+", k)]
        return {
            "kind": task.kind, "notes": notes, "claims": list(inputs.get("claims") or []),
            "title": inputs.get("title") or "", "section_id": inputs.get("section_id") or task.section or task.id,
            "chart": inputs.get("chart"), "task_id": task.id, "feedback": inputs.get(FEEDBACK_INPUT) or "",
            "sections": [v for _, v in sorted(numbered, key=lambda kv: kv[0]) if v],
        }

    def call(self, params: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
        assert self.spec is not None, "a model brain is made from its agent's spec (it holds the prompts)"
        deadline = attempt_deadline(ctx)
        assert ctx.llm is not None, "model brains are bound only when a model is configured"
        passages = [Passage.model_validate(p) for p in params["notes"]]
        for section in params["sections"]:  # the fetched passages the finished sections cite
            passages += [Passage.model_validate(p) for p in section.get("passages") or []]
        labelled = label_sources(fit_passages(_unique(passages), ctx.llm.prompt_chars))
        words = render_labels(ctx.lang)
        kind = params["kind"]
        chart_caption = params["chart"]["caption"] if params["chart"] else ""
        if kind == "write":
            title, role = params["title"], "body"
            claims = [c["claim"] for c in params["claims"]]
            ask = self.spec.prompt("section", title=title, topic=ctx.topic, claims=claims,
                                   chart_caption=chart_caption, sources=sources_block(labelled),
                                   max_paragraphs=MAX_PARAGRAPHS)
            told = self.spec.prompt("section", title=title, topic=ctx.topic, claims=[], chart_caption="",
                                    sources="", max_paragraphs=MAX_PARAGRAPHS)
        else:
            title, role = words[kind], kind
            done = [{"title": s["title"], "text": " ".join(x["text"] for x in s.get("sentences", []))}
                    for s in params["sections"]]
            ask = self.spec.prompt("summary", kind=kind, topic=ctx.topic, sections=done,
                                   sources=sources_block(labelled))
            told = self.spec.prompt("summary", kind=kind, topic=ctx.topic, sections=[], sources="")
        system = self.spec.prompt("system", lang=ctx.lang, feedback=params["feedback"])
        told = "\n".join([self.spec.prompt("system", lang=ctx.lang, feedback=""), params["feedback"], told])
        draft = ctx.llm.structured(self.spec.role or "writer", SectionDraft, [("system", system), ("human", ask)],
                                   task_id=params["task_id"], deadline=deadline)
        return {"draft": draft, "labelled": labelled, "passages": list(labelled.values()), "title": title,
                "role": role, "instructions": told}

    def check_response(self, task: Task, params: dict[str, Any], raw: Any, ctx: RunContext) -> dict[str, Any]:
        draft: SectionDraft = raw["draft"]
        labelled: dict[str, Passage] = raw["labelled"]
        sentences: list[dict[str, Any]] = []
        for n, paragraph in enumerate(p for p in draft.paragraphs if p.strip()):
            cited = cited_labels(paragraph)
            unknown = [c for c in cited if c not in labelled]
            if unknown:
                raise AgentError(StatusCode.WRONG_INFORMATION,
                                 f"citation markers {unknown} name sources that were not retrieved "
                                 f"(known: {', '.join(labelled) or 'none'})",
                                 "rewrite the section citing only the listed passages")
            if not cited:
                raise AgentError(StatusCode.WRONG_INFORMATION, f"paragraph {n + 1} cites no source",
                                 "rewrite the section with a marker on every fact")
            pending: list[str] = []
            start = len(sentences)
            # "Fact. [S1]" -> "Fact [S1]." so a marker after the full stop stays with its sentence
            paragraph = re.sub(r"([.!?。])\s*(\[S\d+(?:\s*,\s*S\d+)*\])", r" \2\1", paragraph)
            for sentence in split_sentences(paragraph, ctx.lang):
                marks = cited_labels(sentence)
                text = strip_markers(sentence)
                if not text:
                    continue
                if echoes(text, raw.get("instructions", "")):
                    raise AgentError(StatusCode.WRONG_INFORMATION,
                                     f"a sentence repeats the instructions instead of the passages: {text[:80]!r}",
                                     "write from the passages; never repeat the instructions")
                pending.append(text)
                if marks:  # a sentence without a marker shares the next marker of its paragraph
                    sources = [source_ref(labelled[m]) for m in marks]
                    sentences += [{"text": t, "sources": sources, "paragraph": n} for t in pending]
                    pending = []
            if pending:  # trailing unmarked sentences share the paragraph's last marker
                last = sentences[-1]["sources"] if len(sentences) > start else [source_ref(labelled[cited[-1]])]
                sentences += [{"text": t, "sources": last, "paragraph": n} for t in pending]
        if not sentences:
            raise AgentError(StatusCode.INCOMPLETE_INFORMATION, "the model wrote nothing", "ask again")
        cited_ids = {src["source_id"] for s in sentences for src in s["sources"]}
        used = [p.model_dump(mode="json") for p in labelled.values() if p.source_id in cited_ids]
        return {"section": section_output(params["section_id"], raw["title"], raw["role"], sentences,
                                          params["chart"], passages=used)}


def _unique(passages: list[Passage]) -> list[Passage]:
    seen, out = set(), []
    for p in passages:
        if (p.source_id, p.text) not in seen:
            seen.add((p.source_id, p.text))
            out.append(p)
    return out
