"""Report ids: short, unique, safe on every file system."""

import re

import pytest

from reportgen.run import new_report_id

SAFE = re.compile(r"^[a-z0-9][a-z0-9-]{0,38}$")


@pytest.mark.parametrize("topic, prefix", [
    ("Renewable energy", "renewable-energy-"),
    ("What are floating point numbers?", "floating-point-numbers-"),  # its subject: the question asks no more
    ("可再生能源", "report-"),
    ("Énergie renouvelable", "energie-renouvelable-"),
    ("../../etc/passwd", "etc-passwd-"),
    ("CON", "con-"),
    ("x" * 600, "x" * 32 + "-"),
    ("a b " * 150, "b-a-b-a-"),  # the article "a" goes, as from any subject
    # named after what was asked, not the instruction ("write-a-short-report-on-…" hid the subject)
    ("Write a short report on volcanoes", "volcanoes-"),
    ("Write a short report on the history of the telephone", "the-history-of-the-telephone-"),
    ("<script>alert(1)</script>", "alert-"),
])
def test_ids_are_safe(topic, prefix):
    rid = new_report_id(topic)
    assert SAFE.match(rid), rid
    assert rid.startswith(prefix)
    assert len(rid) <= 39


def test_ids_are_unique(tmp_path):
    ids = {new_report_id("Renewable energy", tmp_path) for _ in range(200)}
    assert len(ids) == 200


def test_existing_folder_is_avoided(tmp_path, monkeypatch):
    import reportgen.run as run

    tokens = iter(["aaaaaa", "bbbbbb"])
    monkeypatch.setattr(run.secrets, "token_hex", lambda n: next(tokens))
    (tmp_path / "topic-aaaaaa").mkdir()
    assert new_report_id("topic", tmp_path) == "topic-bbbbbb"
