"""Plan review on the command line (``reportgen report TOPIC --review``).

The run stops after planning (:class:`~reportgen.review.ReviewRequired`); the
command shows the plan as an outline and asks: **a**\\ pprove, **e**\\ dit the
sections in ``$VISUAL`` / ``$EDITOR`` (a JSON document: reorder, remove,
rename, add a section without an ``id``, edit the questions), type
**g**\\ uidance for the planner, or **q**\\ uit (the run keeps waiting; run the
same command again to review it). An edit that is not a valid plan is
explained and the editor opens again on what was written.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

from pydantic import ValidationError

from reportgen.review import Plan, PlanError, ReviewAnswer, ReviewRequired, apply_answer, outline, plan_view

__all__ = ["ask_review"]

_HELP = "[a]pprove, [e]dit in $EDITOR, [g]uidance for the planner, [q]uit (the plan keeps waiting)"


def _editor() -> list[str]:
    return shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi")


def _edit(text: str) -> str:
    with tempfile.TemporaryDirectory(prefix="reportgen-plan-") as folder:
        path = Path(folder) / "plan.json"
        path.write_text(text, encoding="utf-8")
        subprocess.run([*_editor(), str(path)], check=False)
        return path.read_text(encoding="utf-8")


def _ask(prompt: str) -> str:
    """Prompt on stderr (stdout stays the command's result), read one line of stdin."""
    sys.stderr.write(prompt)
    sys.stderr.flush()
    line = sys.stdin.readline()
    return line if line else "q"


def ask_review(
    pending: ReviewRequired,
    agents: Any,
    *,
    ask: Callable[[str], str] = _ask,
    say: Callable[[str], None] = lambda text: print(text, file=sys.stderr),
) -> dict[str, Any] | None:
    """Show the proposed plan and get the user's answer.

    Args:
        pending: The run waiting for review (its report id and proposed blueprint).
        agents: Agent kinds by name (``Registry.kinds()``), to check an edit.
        ask: Reads one answer line (default: prompt on stderr, read stdin; end of input quits).
        say: Shows a message (default: stderr).

    Returns:
        The checked answer as :func:`~reportgen.run.generate_report` takes it
        (``review_answer``), or ``None`` when the user quits.
    """
    say(outline(pending.blueprint))
    while True:
        choice = ask(f"\n{_HELP}: ").strip().lower()[:1]
        if choice == "q" or choice == "":
            return None
        if choice == "a":
            answer = ReviewAnswer(action="approve", client="cli")
        elif choice == "g":
            text = ask("guidance: ").strip()
            if not text:
                continue
            try:
                answer = ReviewAnswer(action="guidance", guidance=text, client="cli")
            except ValidationError as exc:
                say(f"that guidance cannot be used: {exc.errors()[0]['msg']}")
                continue
        elif choice == "e":
            found = _edited(pending, agents, say)
            if found is None:
                continue
            return found
        else:
            continue
        plan, applied = apply_answer(pending.blueprint, answer, agents)
        return {**applied.model_dump(mode="json"), "run_blueprint": plan}


def _edited(pending: ReviewRequired, agents: Any, say: Callable[[str], None]) -> dict[str, Any] | None:
    view = plan_view(pending.blueprint)
    text = json.dumps({"sections": [{k: s[k] for k in ("id", "title", "questions")} for s in view["sections"]]},
                      indent=2, ensure_ascii=False) + "\n"
    while True:
        text = _edit(text)
        try:
            plan = Plan.model_validate(json.loads(text))
            answer = ReviewAnswer(action="edit", plan=plan, client="cli")
            run_plan, applied = apply_answer(pending.blueprint, answer, agents)
        except json.JSONDecodeError as exc:
            say(f"the plan is not valid JSON (line {exc.lineno}: {exc.msg}); the editor opens again")
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            say(f"the plan is not valid ({where}: {str(first['msg']).removeprefix('Value error, ')}); "
                "the editor opens again")
        except PlanError as exc:
            say(f"the plan cannot run: {exc}; the editor opens again")
        else:
            say("changes: " + "; ".join(applied.changes or ["none"]))
            return {**applied.model_dump(mode="json"), "run_blueprint": run_plan}
