"""Where finished reports' files live: the outputs folder (default), or S3-compatible object storage.

``REPORTGEN_STORAGE_URL`` unset: the files stay in ``REPORTGEN_OUT_DIR``, which
every API replica and worker must share (one machine, or a shared volume).
``REPORTGEN_STORAGE_URL=s3://bucket/prefix``: a worker uploads every file of a
completed report to ``s3://bucket/prefix/<report-id>/<file>`` before the job
is recorded completed; an API replica that lacks a file downloads it into its
own outputs folder (a cache) the first time it serves it. Any
S3-compatible server works (``REPORTGEN_STORAGE_ENDPOINT_URL``: MinIO, Ceph,
moto...); credentials come from boto3's usual chain (``AWS_ACCESS_KEY_ID``,
``AWS_SECRET_ACCESS_KEY``, a profile, an instance role).

The outputs folder is still where a report is written while it runs
(``messages.jsonl``, ``blueprint.json``), so a job that moves to a worker on
another machine writes a new ``messages.jsonl`` there; its events stay
complete in the database.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from reportgen.config import Settings

__all__ = ["LocalStorage", "S3Storage", "open_storage"]

logger = logging.getLogger(__name__)


class LocalStorage:
    """The shared outputs folder is the store: nothing to copy."""

    def publish(self, report_id: str, folder: Path) -> None:
        """Nothing to do: the files already are where every replica reads them."""

    def fetch(self, report_id: str, folder: Path, names: list[str]) -> None:
        """Nothing to do (a missing file is reported missing by the caller)."""

    def delete(self, report_id: str) -> None:
        """Nothing to do: the caller removes the folder."""


class S3Storage:
    """Report files in an S3 bucket under ``prefix/<report-id>/``.

    Args:
        url: ``s3://bucket`` or ``s3://bucket/prefix``.
        endpoint_url: The S3-compatible server (``None``: AWS).
        client: A boto3 S3 client to use instead of building one (tests).

    Raises:
        ValueError: ``url`` names no bucket.
    """

    def __init__(self, url: str, endpoint_url: str | None = None, *, client: Any = None) -> None:
        parsed = urlparse(url)
        if parsed.scheme != "s3" or not parsed.netloc:
            raise ValueError(f"REPORTGEN_STORAGE_URL must be s3://bucket[/prefix], not {url!r}")
        self.bucket = parsed.netloc
        self.prefix = parsed.path.strip("/")
        if client is None:
            import boto3

            client = boto3.client("s3", endpoint_url=endpoint_url)
        self.client = client

    def _key(self, report_id: str, name: str) -> str:
        return "/".join(part for part in (self.prefix, report_id, name) if part)

    def publish(self, report_id: str, folder: Path) -> None:
        """Upload every file of the report folder (boto3's managed, multipart-capable upload).

        Raises:
            botocore.exceptions.BotoCoreError, botocore.exceptions.ClientError: The upload failed.
        """
        for path in sorted(folder.iterdir()):
            if path.is_file():
                self.client.upload_file(str(path), self.bucket, self._key(report_id, path.name))

    def fetch(self, report_id: str, folder: Path, names: list[str]) -> None:
        """Download the files of ``names`` this replica lacks into ``folder`` (a missing object is skipped)."""
        from botocore.exceptions import ClientError

        for name in names:
            target = folder / name
            if target.is_file():
                continue
            folder.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f".{name}.part")
            try:
                self.client.download_file(self.bucket, self._key(report_id, name), str(partial))
            except ClientError as exc:
                partial.unlink(missing_ok=True)
                logger.debug("%s of %s is not in the bucket (%s)", name, report_id, exc)
                continue
            partial.replace(target)  # never a half-downloaded file under the real name

    def delete(self, report_id: str) -> None:
        """Delete every object of the report."""
        listing = self.client.list_objects_v2(Bucket=self.bucket, Prefix=self._key(report_id, "") + "/")
        keys = [{"Key": item["Key"]} for item in listing.get("Contents", [])]
        if keys:
            self.client.delete_objects(Bucket=self.bucket, Delete={"Objects": keys})


def open_storage(settings: Settings) -> LocalStorage | S3Storage:
    """The report file store ``settings`` name (``storage_url``, ``storage_endpoint_url``).

    Raises:
        ValueError: ``storage_url`` is not an ``s3://bucket`` URL.
    """
    if not settings.storage_url:
        return LocalStorage()
    return S3Storage(settings.storage_url, settings.storage_endpoint_url)
