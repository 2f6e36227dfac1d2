"""``https://`` endpoints end to end: ``logicforge run`` against a real TLS server on 127.0.0.1
with a certificate made for the test, trusted through ``SSL_CERT_FILE``; the same server is
refused when the certificate is not trusted (verification is on)."""

from __future__ import annotations

import datetime
import ipaddress
import json
import os
import ssl
import subprocess
import sys
from pathlib import Path

import pytest

import logicforge as lf
from logicforge.runner.store import write_jsonl
from tests.fakeserver import FakeServer, reply_for


def _certificate(d: Path) -> tuple[Path, Path]:
    """A self-signed certificate for IP 127.0.0.1 and its key, as PEM files."""
    pytest.importorskip("cryptography")
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "logicforge test server")])
    now = datetime.datetime.now(datetime.UTC)
    ip = x509.IPAddress(ipaddress.ip_address("127.0.0.1"))
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([ip]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_pem, key_pem = d / "cert.pem", d / "key.pem"
    cert_pem.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_pem.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_pem, key_pem


def _run(tmp_path: Path, url: str, records: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("SSL_CERT_FILE", "SSL_CERT_DIR")}
    return subprocess.run(
        [sys.executable, "-m", "logicforge", "run", "--items", str(tmp_path / "items.jsonl"),
         "--model", f"openai-compatible:{url}:m;api_key_env=LF_TLS_TEST_KEY;max_retries=0",
         "--records", str(tmp_path / records), "--no-cache", "--quiet"],
        env=clean | {"LF_TLS_TEST_KEY": "sk-test-123"} | env,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_a_run_over_https_verifies_the_server_and_sends_the_key(tmp_path) -> None:
    cert, key = _certificate(tmp_path)
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(cert, key)
    items = lf.render(lf.generate("ksat/random", {"n_vars": 5, "alpha": 3.0}, count=4, seed=2))
    write_jsonl(tmp_path / "items.jsonl", items)
    with FakeServer(tls=ctx) as srv:
        assert srv.base_url.startswith("https://127.0.0.1:")
        ok = _run(tmp_path, srv.base_url, "ok.jsonl", SSL_CERT_FILE=str(cert))
        assert ok.returncode == 0, ok.stderr
        seen = srv.requests
        assert seen == len(items) and set(srv.auth_headers) == {"Bearer sk-test-123"}
        refused = _run(tmp_path, srv.base_url, "refused.jsonl")
    recs = [json.loads(x) for x in (tmp_path / "ok.jsonl").read_text().splitlines()]
    assert [r["error"] for r in recs] == [None] * len(items)
    by_id = {it.item_id: it for it in items}
    for r in recs:  # each reply is the server's own for that prompt, parsed
        want = json.loads(reply_for(by_id[r["item_id"]].messages[-1].content))["answer"]
        assert r["answer"]["label"] == want
    # not trusted: no request reaches the handler; the model stops after its first failures,
    # saying the certificate is not trusted, and what it recorded are errors that say why
    assert srv.requests == seen
    assert refused.returncode == 2, refused.stderr
    assert "certificate is not trusted" in refused.stderr and "SSL_CERT_FILE" in refused.stderr
    bad = [json.loads(x) for x in (tmp_path / "refused.jsonl").read_text().splitlines()]
    assert all("certificate" in (r["error"] or "").lower() for r in bad)
