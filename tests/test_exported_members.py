"""The public surface: ``__all__`` complete and sorted (httpx's habit)."""

import importlib

import pytest

import reportgen

PACKAGES = ["reportgen", "reportgen.acp", "reportgen.sources", "reportgen.render", "reportgen.charts"]


@pytest.mark.parametrize("name", PACKAGES)
def test_all_is_sorted_and_resolves(name):
    module = importlib.import_module(name)
    assert module.__all__ == sorted(module.__all__)
    for member in module.__all__:
        assert hasattr(module, member), f"{name}.{member}"


def test_top_level_exports_every_public_name():
    public = {n for n in dir(reportgen) if not n.startswith("_")}
    modules = {n for n in public if type(getattr(reportgen, n)).__name__ == "module"}
    assert public - modules == set(reportgen.__all__) - {"__version__"}
