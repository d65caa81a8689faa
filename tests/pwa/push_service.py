"""A push service on 127.0.0.1 for the tests: what FCM or Mozilla's autopush do, minus the phone.

It takes Web Push requests (RFC 8030) at ``/push/<name>``, checks the VAPID
signature (RFC 8292: an ES256 JWT whose key must be the site's, for this
origin, not expired, with a contact), decrypts the body with the
subscription's private key and auth secret (RFC 8291, ``aes128gcm``, with
``http_ece``), and keeps what a phone would show. A name can be told to
answer another status (410: "this subscription is gone").
"""
from __future__ import annotations

import base64
import json
import os
import queue
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser's subscription: what it sends the site, and the secrets it keeps."""
    name: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    @property
    def info(self) -> dict:
        point = self.private_key.public_key().public_bytes(serialization.Encoding.X962,
                                                           serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}}


@dataclass
class Delivery:
    device: str
    claims: dict
    headers: dict
    message: dict  # the decrypted payload


class PushService:
    def __init__(self, site_public_key: str):
        self.site_public_key = site_public_key
        self.devices: dict[str, Device] = {}
        self.answers: dict[str, int] = {}
        self.received: queue.Queue[Delivery] = queue.Queue()
        self.refused: list[str] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                name = self.path.removeprefix("/push/")
                try:
                    delivery = service.check(name, dict(self.headers), body)
                except AssertionError as refusal:
                    service.refused.append(f"{name}: {refusal}")
                    self.send_response(400)
                else:
                    status = service.answers.get(name, 201)
                    if status < 300:
                        service.received.put(delivery)
                    self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def device(self, name: str) -> Device:
        device = Device(name, f"{self.origin}/push/{name}", ec.generate_private_key(ec.SECP256R1()), os.urandom(16))
        self.devices[name] = device
        return device

    def check(self, name: str, headers: dict, body: bytes) -> Delivery:
        headers = {key.lower(): value for key, value in headers.items()}
        device = self.devices.get(name)
        assert device is not None, "no such subscription"
        claims = self.check_vapid(headers.get("authorization", ""))
        assert headers.get("content-encoding") == "aes128gcm", headers.get("content-encoding")
        assert int(headers.get("ttl", "-1")) >= 0, "TTL is required"
        plain = http_ece.decrypt(body, private_key=device.private_key, auth_secret=device.auth, version="aes128gcm")
        return Delivery(name, claims, headers, json.loads(plain))

    def check_vapid(self, authorization: str) -> dict:
        scheme, _, rest = authorization.partition(" ")
        assert scheme == "vapid", f"not a VAPID authorization: {authorization[:20]!r}"
        params = dict(part.strip().split("=", 1) for part in rest.split(","))
        assert params["k"] == self.site_public_key, "signed with another key than the site's"
        header_b64, claims_b64, signature_b64 = params["t"].split(".")
        header = json.loads(unb64url(header_b64))
        assert header["alg"] == "ES256", header
        signature = unb64url(signature_b64)
        assert len(signature) == 64
        public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(params["k"]))
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        try:
            public_key.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise AssertionError("the VAPID signature does not verify") from None
        claims = json.loads(unb64url(claims_b64))
        assert claims["aud"] == self.origin, claims
        assert claims["exp"] > time.time(), "expired"
        assert claims["sub"].startswith(("mailto:", "https:")), claims
        return claims

    def next(self, timeout: float = 10) -> Delivery:
        return self.received.get(timeout=timeout)

    def nothing_received(self) -> bool:
        return self.received.empty()
