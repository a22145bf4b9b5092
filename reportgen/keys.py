"""Users and their API keys: ``reportgen keys create|list|revoke``, checked on every request.

A user is a name; a key is a random secret given to that user once, when it
is created, and stored only as its SHA-256 digest. A user holds at most one
live key (revoke it to issue another); revoking keeps the user's reports,
which a new key of the same name sees again. An *admin* sees and touches every
user's reports; a user only their own.

Why SHA-256 and no slow KDF: a key is 32 random bytes (256 bits, the size the
Python ``secrets`` documentation recommends for tokens), so it cannot be
guessed; a slow, salted KDF (PBKDF2, scrypt, Argon2) defends *low-entropy*
secrets such as passwords against offline guessing (NIST SP 800-63B §5.1.1.2
asks it of memorized secrets, not of random tokens). A plain digest of a
high-entropy token is what django-rest-knox stores too ("only stored in a
secure hash form", its README); it also lets a request's key be found by an
indexed lookup rather than by trying every stored hash.

The keys live in the service database (``Settings.jobs_db``, beside the
jobs) in a table of their own, ``api_keys``. :class:`KeyStore` is the one
place that reads and writes it, so another backend (Postgres) replaces this
class and nothing else.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from reportgen.errors import InputError

__all__ = ["ApiKey", "KEY_PREFIX", "KeyStore", "NAME_PATTERN", "key_digest"]

#: A user name: lower-case letters, digits, ``.``, ``_`` and ``-``, 1..64 characters.
NAME_PATTERN = r"^[a-z0-9][a-z0-9._-]{0,63}$"

#: Every key starts so (secret scanners and people can tell what it is).
KEY_PREFIX = "rgk_"

#: Random bytes in a key (256 bits; Python ``secrets`` docs: 32 bytes is enough for tokens).
KEY_BYTES = 32

_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS api_keys (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        digest TEXT NOT NULL UNIQUE,
        hint TEXT NOT NULL,
        admin INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        revoked_at TEXT
    )
    """,
    # One live key per name; revoked ones stay as a record.
    "CREATE UNIQUE INDEX IF NOT EXISTS api_keys_live_name ON api_keys (name) WHERE revoked_at IS NULL",
)


def key_digest(key: str) -> str:
    """The stored form of ``key``: its SHA-256, in hex.

    Args:
        key: A presented key (any text; lone surrogates are kept, not refused).

    Returns:
        64 hex digits.
    """
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class ApiKey:
    """One user's key as stored (never the key itself).

    Attributes:
        name: The user.
        admin: Whether the user sees every user's reports.
        hint: The key's first characters (``rgk_ab12``), to tell keys apart in ``keys list``.
        created_at: When it was created (UTC).
        revoked_at: When it was revoked, or ``None`` while it works.
    """

    name: str
    admin: bool
    hint: str
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def client(self) -> str:
        """The identity the user's jobs, caps and rate limits are recorded under: ``"user:<name>"``."""
        return f"user:{self.name}"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class KeyStore:
    """The users' keys in the service's SQLite database, safe to share between threads.

    Args:
        path: The database file (``Settings.jobs_db``); the table is created when absent.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        self._db.row_factory = sqlite3.Row
        with self._lock, self._db:
            for statement in _SCHEMA:
                self._db.execute(statement)

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._db.close()

    def create(self, name: str, *, admin: bool = False) -> str:
        """Create a key for user ``name``.

        Args:
            name: The user (:data:`NAME_PATTERN`).
            admin: Whether the user sees and touches every user's reports.

        Returns:
            The key (``rgk_`` and 43 URL-safe characters); it is not stored
            and cannot be shown again.

        Raises:
            InputError: The name is not valid, or the user already holds a live key.
        """
        if not isinstance(name, str) or not re.fullmatch(NAME_PATTERN, name):
            raise InputError(f"user name {name!r}: use 1 to 64 lower-case letters, digits, '.', '_' or '-', "
                             "starting with a letter or digit")
        key = KEY_PREFIX + secrets.token_urlsafe(KEY_BYTES)
        try:
            with self._lock, self._db:
                self._db.execute(
                    "INSERT INTO api_keys (name, digest, hint, admin, created_at) VALUES (?, ?, ?, ?, ?)",
                    (name, key_digest(key), key[: len(KEY_PREFIX) + 4], int(admin), _now()),
                )
        except sqlite3.IntegrityError:
            raise InputError(f"user {name!r} already has a key; revoke it first "
                             f"(reportgen keys revoke {name})") from None
        return key

    def lookup(self, key: str) -> ApiKey | None:
        """The live key ``key`` is, or ``None`` (unknown or revoked).

        Args:
            key: The key a request presented.
        """
        with self._lock:
            row = self._db.execute(
                "SELECT * FROM api_keys WHERE digest = ? AND revoked_at IS NULL", (key_digest(key),)
            ).fetchone()
        return _key(row) if row is not None else None

    def has_keys(self) -> bool:
        """Whether any live key exists (then every request must carry a key)."""
        with self._lock:
            return self._db.execute("SELECT 1 FROM api_keys WHERE revoked_at IS NULL LIMIT 1").fetchone() is not None

    def list(self, *, revoked: bool = False) -> list[ApiKey]:
        """The keys by user name; with ``revoked``, revoked ones too (newest last)."""
        where = "" if revoked else "WHERE revoked_at IS NULL"
        with self._lock:
            rows = self._db.execute(f"SELECT * FROM api_keys {where} ORDER BY name, id").fetchall()
        return [_key(r) for r in rows]

    def revoke(self, name: str) -> bool:
        """Revoke user ``name``'s live key; ``False`` when it had none. The user's reports stay."""
        with self._lock, self._db:
            return self._db.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL", (_now(), name)
            ).rowcount > 0


def _key(row: sqlite3.Row) -> ApiKey:
    return ApiKey(
        name=row["name"], admin=bool(row["admin"]), hint=row["hint"],
        created_at=datetime.fromisoformat(row["created_at"]),
        revoked_at=datetime.fromisoformat(row["revoked_at"]) if row["revoked_at"] else None,
    )
