"""A newcomer's account in a real browser: sign up, log out, log in, change password, API tokens."""
import pytest

from tests.support.browser import PASSWORD, sign_up

pytestmark = pytest.mark.browser


def test_sign_up_log_out_log_in_and_change_password(live_site, page):
    name = sign_up(page, live_site)
    assert page.locator(".site-nav").get_by_text(name).is_visible()

    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(f"{live_site}/")
    assert page.get_by_role("link", name="Log in").is_visible()

    page.get_by_role("link", name="Log in").click()
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_site}/")

    page.goto(f"{live_site}/profile/")
    page.get_by_role("link", name="Change password").click()
    page.fill("input[name=oldpassword]", PASSWORD)
    page.fill("input[name=password1]", "brand-new-mud-bath-7")
    page.fill("input[name=password2]", "brand-new-mud-bath-7")
    page.click("main button[type=submit]")
    page.get_by_role("button", name="Log out").click()
    page.goto(f"{live_site}/accounts/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", "brand-new-mud-bath-7")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_site}/")
    assert page.locator(".site-nav").get_by_text(name).is_visible()


def test_wrong_password_shows_an_error(live_site, page):
    name = sign_up(page, live_site)
    page.get_by_role("button", name="Log out").click()
    page.goto(f"{live_site}/accounts/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", "not-my-password")
    page.click("main button[type=submit]")
    assert page.locator(".errorlist").is_visible()


def test_profile_creates_and_revokes_api_tokens(live_site, page):
    sign_up(page, live_site)
    page.goto(f"{live_site}/profile/")
    page.get_by_role("button", name="Create a token").click()
    token = page.locator("#new-token").inner_text().strip()
    assert token.startswith("pp_") and len(token) > 30

    page.goto(f"{live_site}/profile/")
    assert token not in page.content()
    assert page.locator(".token-list li").count() == 1
    page.locator(".token-list").get_by_role("button", name="Revoke").first.click()
    assert page.get_by_text("Token revoked.").is_visible()
    assert page.locator(".token-list li").count() == 0
