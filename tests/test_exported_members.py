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
    assert set(reportgen._EXPORTS) == set(reportgen.__all__) - {"__version__"}


def test_importing_the_package_is_light():
    import subprocess
    import sys

    code = "import sys, reportgen; print('langgraph' in sys.modules, 'weasyprint' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
