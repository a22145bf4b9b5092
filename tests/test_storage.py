"""Report files in S3-compatible object storage (``REPORTGEN_STORAGE_URL``), against moto's server on 127.0.0.1."""

from __future__ import annotations

import shutil

import boto3
import pytest
from moto.server import ThreadedMotoServer
from pydantic import ValidationError

from reportgen.cluster import free_port
from reportgen.config import Settings
from reportgen.storage import LocalStorage, S3Storage, open_storage

from api_kit import TOPIC, client, make_app


@pytest.fixture(scope="module")
def s3_endpoint():
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


@pytest.fixture
def bucket(s3_endpoint, monkeypatch):
    for key, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                       "AWS_DEFAULT_REGION": "us-east-1"}.items():
        monkeypatch.setenv(key, value)
    s3 = boto3.client("s3", endpoint_url=s3_endpoint)
    s3.create_bucket(Bucket="reports")
    yield s3
    for item in s3.list_objects_v2(Bucket="reports").get("Contents", []):
        s3.delete_object(Bucket="reports", Key=item["Key"])
    s3.delete_bucket(Bucket="reports")
    s3.close()


async def test_a_replica_without_the_files_serves_them_from_the_bucket(tmp_path, s3_endpoint, bucket):
    app = make_app(tmp_path, storage_url="s3://reports/team-a", storage_endpoint_url=s3_endpoint)
    async with client(app) as http:
        job = (await http.post("/reports", json={"topic": TOPIC, "sections": 2})).json()
        await http.get(f"/reports/{job['id']}/events")  # ends when the job does
        assert (await http.get(f"/reports/{job['id']}")).json()["status"] == "completed"
        keys = {item["Key"] for item in bucket.list_objects_v2(Bucket="reports")["Contents"]}
        assert {f"team-a/{job['id']}/report.pdf", f"team-a/{job['id']}/messages.jsonl"} <= keys
        local = tmp_path / "out" / job["id"]
        pdf = (local / "report.pdf").read_bytes()
        shutil.rmtree(local)  # as on another replica, which never had the folder
        served = await http.get(f"/reports/{job['id']}/report.pdf")
        assert served.status_code == 200 and served.content == pdf
        assert (await http.get(f"/reports/{job['id']}/report.docx")).status_code == 200
        assert not list(local.glob(".*.part"))  # downloads land under their name only when whole
        assert (await http.delete(f"/reports/{job['id']}")).status_code == 204
    assert "Contents" not in bucket.list_objects_v2(Bucket="reports", Prefix=f"team-a/{job['id']}/")


def test_no_storage_url_means_the_shared_outputs_folder():
    assert isinstance(open_storage(Settings()), LocalStorage)


@pytest.mark.parametrize("url", ["s3://", "https://bucket/x", "s3:/bucket"])
def test_a_storage_url_that_names_no_bucket_is_refused(url):
    with pytest.raises(ValidationError, match="storage_url"):
        Settings(storage_url=url)
    with pytest.raises(ValueError, match="s3://bucket"):
        S3Storage(url, client=object())
