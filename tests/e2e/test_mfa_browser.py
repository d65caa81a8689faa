"""Two-factor sign-in in Chromium: a player sets up an authenticator app from the profile (the
QR code shows under the Content Security Policy), is handed recovery codes, logs out, and logs
back in with a password and a code from the app. Each of its pages passes axe-core (no serious or
critical violation), as every page a player meets does (test_accessibility_browser.py)."""
import pytest
from playwright.sync_api import expect

from tests.e2e.test_accessibility_browser import axe_source, violations  # noqa: F401 (axe_source: a fixture)
from tests.support.browser import PASSWORD, sign_up
from tests.support.mfa import totp_code

pytestmark = pytest.mark.browser


def test_enrol_an_authenticator_app_then_sign_in_with_a_code(live_site, page, csp_violations, axe_source):  # noqa: F811
    name = sign_up(page, live_site)
    page.goto(f"{live_site}/profile/")
    page.get_by_role("link", name="Two-factor sign-in").click()
    page.wait_for_url(f"{live_site}/accounts/2fa/")
    assert violations(page, axe_source) == []
    page.locator("main").get_by_role("link", name="Activate").click()  # the site's page (templates/mfa/index.html)
    # Setting it up asks for the password again first.
    page.wait_for_url("**/accounts/reauthenticate/**")
    assert violations(page, axe_source) == []
    page.fill("input[name=password]", PASSWORD)
    page.locator("main").get_by_role("button", name="Confirm").click()
    page.wait_for_url(f"{live_site}/accounts/2fa/totp/activate/")
    qr = page.locator(".mfa-qr svg")
    expect(qr).to_be_visible()
    assert qr.bounding_box()["width"] > 100, "the QR code is big enough to scan"
    assert violations(page, axe_source) == []
    secret = page.locator("#authenticator_secret").inner_text().strip()
    page.fill("input[name=code]", totp_code(secret))
    page.locator("main").get_by_role("button", name="Activate").click()
    page.wait_for_url(f"{live_site}/accounts/2fa/recovery-codes/")
    expect(page.locator("#recovery_codes")).to_be_visible()
    assert violations(page, axe_source) == []

    page.locator(".site-nav__logout button").click()
    page.wait_for_url(f"{live_site}/")
    page.goto(f"{live_site}/accounts/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(f"{live_site}/accounts/2fa/authenticate/")
    assert violations(page, axe_source) == []
    expect(page.locator(".site-nav--account")).not_to_contain_text(name)  # not signed in on the password alone
    page.fill("input[name=code]", totp_code(secret, 1))  # the next step's code: the first one is spent
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{live_site}/")
    expect(page.locator(".site-nav--account")).to_contain_text(name)
    assert csp_violations == []
