"""Issue 9 item 11: weak passwords are refused wherever a password is set."""
import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse

pytestmark = pytest.mark.django_db
GOOD = "truffle-hunting-season-7"
WEAK = {
    "all digits": "2024061512",
    "the username": "piglet-farmer",
    "eight spaces": " " * 8,
    "twelve spaces": " " * 12,
    "a common one": "password123",
    "too short": "oink9",
}


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """allauth limits sign-ups per address (20 a minute) in the cache, which outlives a test."""
    cache.clear()


@pytest.mark.parametrize("weak", WEAK.values(), ids=WEAK.keys())
def test_signup_refuses_a_weak_password(client, weak):
    response = client.post(reverse("account_signup"), {"username": "piglet-farmer", "password1": weak,
                                                       "password2": weak})
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not get_user_model().objects.filter(username="piglet-farmer").exists()


def test_signup_takes_a_good_password(client):
    response = client.post(reverse("account_signup"), {"username": "piglet-farmer", "password1": GOOD,
                                                       "password2": GOOD})
    assert response.status_code == 302


@pytest.mark.parametrize("weak", WEAK.values(), ids=WEAK.keys())
def test_password_change_refuses_a_weak_password(client, django_user_model, weak):
    user = django_user_model.objects.create_user("piglet-farmer", password=GOOD)
    client.force_login(user)
    response = client.post(reverse("account_change_password"), {"oldpassword": GOOD, "password1": weak,
                                                                "password2": weak})
    assert response.status_code == 200 and response.context["form"].errors
    user.refresh_from_db()
    assert user.check_password(GOOD)


def test_the_only_spaces_message_is_clear(client):
    response = client.post(reverse("account_signup"), {"username": "piglet-farmer", "password1": " " * 10,
                                                       "password2": " " * 10})
    assert "This password is only spaces." in response.content.decode()
