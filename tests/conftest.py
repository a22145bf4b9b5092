"""Shared test fixtures.

Following simonw/llm's ``tests/conftest.py``: every test gets its own data
dir and an environment without ``REPORTGEN_*`` variables, and the cached
settings are rebuilt around it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from reportgen.config import get_settings

#: Fixture modules shared by the suite: the fixture website, the scripted
#: OpenAI-compatible server, and the API test kit.
pytest_plugins = ["fakeweb", "fakellm", "api_kit"]


@pytest.fixture(autouse=True)
def reportgen_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """Point ``REPORTGEN_HOME`` at a fresh temp dir, drop other ``REPORTGEN_*`` variables,
    turn plugin autoload off (``REPORTGEN_PLUGINS=""``; a test that wants a plugin names it)
    and allow the ASGI test client's ``Host: testserver``."""
    home = tmp_path_factory.mktemp("reportgen-home")
    for key in list(os.environ):
        if key.startswith("REPORTGEN_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("REPORTGEN_HOME", str(home))
    monkeypatch.setenv("REPORTGEN_PLUGINS", "")  # plugin autoload is off under tests
    # httpx's ASGI client calls the app "testserver"; the loopback names stay allowed.
    monkeypatch.setenv("REPORTGEN_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
    get_settings.cache_clear()
    yield home
    get_settings.cache_clear()
