"""Two-factor sign-in in tests: an authenticator app's codes, and enrolling a user directly."""
from __future__ import annotations

import time

from allauth.mfa.totp.internal.auth import TOTP, format_hotp_value, generate_totp_secret, hotp_value


def totp_code(secret: str, steps_ahead: int = 0) -> str:
    """The code an authenticator app shows now (``steps_ahead`` 30-second steps later: the
    site takes one step either way, and a code once used is refused for its step)."""
    return format_hotp_value(hotp_value(secret, int(time.time()) // 30 + steps_ahead))


def enrol(user) -> str:
    """Give ``user`` an authenticator app, as the setup page would; returns its secret."""
    secret = generate_totp_secret()
    TOTP.activate(user, secret)
    return secret


def enrol_on_site(site, username: str) -> str:
    """Give ``username`` on a live site (``live_site``) an authenticator app; returns its secret."""
    secret = generate_totp_secret()
    site.manage("shell", "-c", "from django.contrib.auth import get_user_model; "
                "from allauth.mfa.totp.internal.auth import TOTP; "
                f"TOTP.activate(get_user_model().objects.get(username={username!r}), {secret!r})")
    return secret
