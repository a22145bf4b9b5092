"""Packaging: every package is listed, and a wheel works outside the checkout.

``pyproject.toml`` maps the top-level ``templates/`` and ``agents/`` folders to
``reportgen.builtin_templates`` and ``reportgen.builtin_agents`` (setuptools
``package-dir``), which needs an explicit ``packages`` list; the first test
keeps that list complete. The second builds the wheel, installs it into a
fresh virtualenv and writes a report from a folder outside the checkout, so a
path computed relative to the source tree fails here and not on a user's
machine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]

#: What the build reads never includes these (and copying .venv would be huge).
_NOT_SOURCE = shutil.ignore_patterns(
    ".venv", ".git", "build", "dist", "outputs", "*.egg-info", "__pycache__", "*.pyc", ".pytest_cache",
)


def _package_folders() -> set[str]:
    """Dotted names of the folders under ``reportgen/`` that Python imports as packages.

    A folder with ``__init__.py`` is a package; so is one holding modules but
    no ``__init__.py`` (an implicit namespace package, which an explicit
    ``packages`` list would silently leave out of the wheel).
    """
    found = set()
    for init in (REPO / "reportgen").rglob("*.py"):
        folder = init.parent
        if "__pycache__" not in folder.parts:
            found.add(".".join(folder.relative_to(REPO).parts))
    return found


def test_every_package_is_listed():
    listed = set(SETUPTOOLS["packages"])
    missing = _package_folders() - listed
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {sorted(missing)}"
    mapped = SETUPTOOLS["package-dir"]
    assert mapped == {"reportgen.builtin_templates": "templates", "reportgen.builtin_agents": "agents"}
    for name in listed:  # and nothing listed is stale
        folder = REPO / mapped[name] if name in mapped else REPO.joinpath(*name.split("."))
        assert folder.is_dir(), f"{name} is listed but {folder} does not exist"
    for name in mapped:
        assert SETUPTOOLS["package-data"][name] == ["**/*"], name


def _run(*args: str | Path, **kwargs) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result


@pytest.mark.slow
def test_wheel_outside_checkout(tmp_path):
    if int(version("setuptools").split(".")[0]) < 77:  # the build runs without isolation, in this environment
        pytest.fail(f"setuptools {version('setuptools')} cannot build license = \"MIT\" (PEP 639): "
                    "pip install 'setuptools>=77' into the project's virtualenv")

    # Build from a copy, so the shared checkout gets no build/ folder (whose
    # stale files a later build would package).
    source = tmp_path / "source"
    shutil.copytree(REPO, source, ignore=_NOT_SOURCE)
    wheels = tmp_path / "wheels"
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "-q", "-w", wheels, source)
    (wheel,) = wheels.glob("reportgen-*.whl")

    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    _run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q", wheel)
    # The dependencies come from this project's virtualenv: a plain path line.
    # .pth files in a directory added that way are not processed, so the
    # editable reportgen installed there stays invisible.
    purelib = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip()
    ours = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    (Path(purelib) / "_project_deps.pth").write_text("".join(f"{p}\n" for p in ours), encoding="utf-8")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env |= {"REPORTGEN_HOME": str(tmp_path / "home"), "REPORTGEN_OUT_DIR": str(tmp_path / "out")}

    where = _run(python, "-c", "import reportgen, reportgen.resources as r; "
                 "print(reportgen.__file__); print(r.templates_path())", cwd=elsewhere, env=env).stdout.split()
    for path in where:
        assert Path(path).is_relative_to(venv), where
        assert not Path(path).is_relative_to(REPO), where

    _run(venv / "bin" / "reportgen", "report", "Wind power", "--sections", "2", "-q",
         cwd=elsewhere, env=env, timeout=900)
    (folder,) = (tmp_path / "out").iterdir()
    for name in ("report.html", "report.pdf"):
        assert (folder / name).stat().st_size > 0, name
    assert not (elsewhere / "outputs").exists()
