"""The built-in plugin: reportgen's own agents, brains, search backends, exporters and chart kinds.

It registers through the same hooks as any third-party plugin
(:mod:`reportgen.plugins`), so nothing in the core lists agents, search
modes or export formats by hand.
"""

from __future__ import annotations

from typing import Any

from reportgen.plugins import hookimpl

__all__ = ["register_agents", "register_brains", "register_chart_kinds", "register_exporters",
           "register_search_backends"]


@hookimpl
def register_agents(register: Any) -> None:
    """The top-level ``agents/`` folder (``reportgen.builtin_agents`` in the wheel)."""
    from reportgen.resources import agents_root

    register(agents_root())


@hookimpl
def register_brains(register: Any) -> None:
    """The extractive and model brains of the browser, plot and writer agents, and the data and MCP brains."""
    from reportgen.agents.browser import BrowserBrain
    from reportgen.agents.data import DataBrain
    from reportgen.agents.mcp_tool import McpToolBrain
    from reportgen.agents.model_browser import ModelBrowserBrain
    from reportgen.agents.model_plot import ModelPlotBrain
    from reportgen.agents.model_writer import ModelWriterBrain
    from reportgen.agents.plot import PlotBrain
    from reportgen.agents.writer import WriterBrain

    register("browser.extractive", BrowserBrain)
    register("browser.model", ModelBrowserBrain)
    register("plot.extractive", PlotBrain)
    register("plot.model", ModelPlotBrain)
    register("writer.extractive", WriterBrain)
    register("writer.model", ModelWriterBrain)
    register("data.tables", DataBrain)
    register("mcp.tool", McpToolBrain)


@hookimpl
def register_search_backends(register: Any) -> None:
    """``offline`` (the encyclopedia and your folders), ``web`` (ddgs + fetch) and ``auto`` (web, else offline)."""
    from reportgen.sources.web import open_search

    for mode in ("offline", "web", "auto"):
        register(
            mode,
            lambda offline, settings, web, _mode=mode: open_search(_mode, offline, web=web, settings=settings),
        )


@hookimpl
def register_exporters(register: Any) -> None:
    """The Markdown (with ``figures/``) and Word exports."""
    from reportgen.render.exporters import DOCX, MARKDOWN

    register(MARKDOWN)
    register(DOCX)


@hookimpl
def register_chart_kinds(register: Any) -> None:
    """Bar and line charts (matplotlib, SVG; imported when first drawn)."""

    def draw_bar(ax: Any, spec: Any) -> None:
        from reportgen.charts import draw

        draw.draw_bar(ax, spec)

    def draw_line(ax: Any, spec: Any) -> None:
        from reportgen.charts import draw

        draw.draw_line(ax, spec)

    register("bar", draw_bar)
    register("line", draw_line)
