"""The LangGraph wiring, drawn as mermaid (snapshot of structure)."""

from reportgen.graph import build_report_graph, build_task_graph, mermaid


def test_mermaid_drawing_snapshot(snapshot):
    assert mermaid() == snapshot


def test_report_graph_reads_like_the_pipeline():
    g = build_report_graph().get_graph()
    edges = {(e.source, e.target) for e in g.edges}
    assert {("__start__", "plan"), ("plan", "review"), ("review", "dispatch"), ("review", "review"),
            ("dispatch", "coordinate"), ("coordinate", "render"), ("render", "__end__")} == edges


def test_task_graph_routes_errors_to_recovery():
    g = build_task_graph().get_graph()
    edges = {(e.source, e.target) for e in g.edges}
    for agent in ("browser", "plot", "writer"):
        assert ("__start__", agent) in edges
        assert (agent, "recovery") in edges      # error-code edge
        assert (agent, "__end__") in edges       # 200
        assert ("recovery", agent) in edges      # retry / reroute
    assert ("recovery", "__end__") in edges      # failed for good
