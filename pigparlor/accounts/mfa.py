"""Two-factor sign-in: allauth's MFA (an authenticator app's codes, recovery codes), with two
things of our own.

A wrong code is a failed log-in for django-axes (pigparlor/accounts/throttle.py), counted
for the player's name from that address and for the address, like a wrong password: the
fifth in a row locks that name from that address for the cool-off (the "too many failed
log-ins" page, 429), and a locked name's codes are not even looked at. allauth's own limit on
codes rides on its "login_failed" limit, which is off (settings: it counted per name from
anywhere, so anyone could lock a player out).

Staff and moderators (moderators are staff: pigparlor/moderation/permissions.py) need an
authenticator before the admin, and with it moderation, lets them in: without one, every admin
page sends them to set one up. The admin's own log-in page is allauth's (pigparlor/urls.py), so
nobody reaches the admin without the second factor.
"""
from __future__ import annotations

from allauth.core import context
from allauth.mfa.adapter import DefaultMFAAdapter
from allauth.mfa.base import forms as mfa_forms
from allauth.mfa.models import Authenticator
from allauth.mfa.utils import is_mfa_enabled
from axes.handlers.proxy import AxesProxyHandler
from django import forms
from django.contrib import messages
from django.contrib.auth.signals import user_login_failed
from django.shortcuts import redirect
from django.urls import reverse

LOCKED = "Too many failed log-ins: sign-in is paused for a while. Try again later."
NEEDED = "Staff and moderators set up two-factor sign-in before using the admin: add an authenticator app here."


class ThrottledCode:
    """A second-factor form whose failures axes counts and whose lock it honours."""

    user: object

    def clean_code(self) -> str:
        request = context.request
        credentials = {"username": self.user.get_username()}  # type: ignore[attr-defined]
        if AxesProxyHandler.is_locked(request, credentials):
            # AxesMiddleware answers with the locked-out page (429) instead of this form.
            request.axes_locked_out = True
            request.axes_credentials = credentials
            raise forms.ValidationError(LOCKED)
        try:
            return super().clean_code()  # type: ignore[misc]
        except forms.ValidationError:
            user_login_failed.send(sender=__name__, credentials=credentials, request=request)
            raise


class AuthenticateForm(ThrottledCode, mfa_forms.AuthenticateForm):
    pass


class ReauthenticateForm(ThrottledCode, mfa_forms.ReauthenticateForm):
    pass


def has_second_factor(user) -> bool:
    return is_mfa_enabled(user, [Authenticator.Type.TOTP, Authenticator.Type.WEBAUTHN])


class StaffNeedTwoFactor:
    """Sends staff without an authenticator from any admin page to set one up."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (user is not None and user.is_authenticated and (user.is_staff or user.is_superuser)
                and request.path.startswith(reverse("admin:index"))
                and request.path != reverse("admin:logout") and not has_second_factor(user)):
            messages.warning(request, NEEDED)
            return redirect("mfa_activate_totp")
        return self.get_response(request)


class MFAAdapter(DefaultMFAAdapter):
    def build_totp_svg(self, url: str) -> str:
        """The QR code as an ``<svg>`` element to put in the page (no XML declaration)."""
        svg = super().build_totp_svg(url)
        return svg[svg.index("<svg"):]
