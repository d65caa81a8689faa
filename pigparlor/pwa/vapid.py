"""The site's VAPID key pair (RFC 8292), which signs every push it sends.

``PIGPARLOR_VAPID_PRIVATE_KEY`` (the raw 32-byte P-256 private key, base64url)
when set; otherwise a key made on first use and kept in the data directory,
the way the secret key is (pigparlor/secret_key.py). Browsers subscribe with
the public key, so changing the key strands every subscription: keep it.
"""
from __future__ import annotations

import base64
from functools import lru_cache

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid

from pigparlor import secret_key


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_private_key() -> str:
    number = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    return b64url(number.to_bytes(32, "big"))


@lru_cache(maxsize=1)
def private_key() -> str:
    return settings.PIGPARLOR_VAPID_PRIVATE_KEY or secret_key.load_or_create(
        settings.DATA_DIR / "vapid_private_key", make=new_private_key)


def signer() -> Vapid:
    return Vapid.from_raw(private_key().encode())


@lru_cache(maxsize=1)
def public_key() -> str:
    """The application server key browsers subscribe with: the uncompressed point, base64url."""
    point = signer().public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(point)
