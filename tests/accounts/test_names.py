"""Names that cannot deceive (issue 9 item 10): sign-up usernames and display
names are NFKC-normalised and refused when invisible, bidi-flipping, mixed-script
homoglyphs, reserved, a bot's, or confusable with another player's name."""
import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse

from pigparlor.accounts import names
from pigparlor.accounts.models import NameSkeleton, Profile
from tests.support.tables import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_sign_up_rate_limit():
    """allauth counts sign-ups per address in the cache; these tests sign up many times."""
    cache.clear()


@pytest.fixture
def players(django_user_model):
    """alice; bea, who plays as "Captain Pig"; a user named "ape"; carl, who renames himself."""
    alice = django_user_model.objects.create_user("alice", password=PASSWORD)
    bea = django_user_model.objects.create_user("bea", password=PASSWORD)
    Profile.objects.create(user=bea, display_name="Captain Pig")
    django_user_model.objects.create_user("ape", password=PASSWORD)
    carl = django_user_model.objects.create_user("carl", password=PASSWORD)
    return {"alice": alice, "bea": bea, "carl": carl}


def sign_up(client, username):
    return client.post(reverse("account_signup"), {"username": username, "password1": PASSWORD, "password2": PASSWORD})


def rename(client, user, name):
    client.force_login(user)
    return client.post(reverse("accounts:profile"), {"display_name": name})


REFUSED_EVERYWHERE = [
    "\u200b\u200b",              # only zero-width spaces
    "\u3164",                    # the Hangul filler: a "letter" that shows nothing
    "\u2800\u2800",              # braille blanks
    "Ana\u202eevil",             # a right-to-left override flips the page text after it
    "\u202dAna",                 # a left-to-right override
    "A\u200dna",                 # a zero-width joiner
    "Ana\u2066",                 # a bidi isolate left open
    "Ana\x07",                   # a control character
    "...",                       # no letter or digit
    "Sensible bot 2",            # what the tables call a bot
    "Random bot 1",
    "Stand-in bot 3",
    "sensiblebot",
    "Bot",
    "admin",
    "Admin 2",
    "ADMIN",
    "\u0430dmin",                # Cyrillic а + "dmin"
    "Moderator Bob",
    "Pig Parlor",
    "pigparlor",
    "staff",
    "System",
    "You",
    "Empty seat",
    "\u0430lice",                # Cyrillic а + "lice": alice's homoglyph
    "ALICE",
    "\uff41\uff4c\uff49\uff43\uff45",  # fullwidth "alice": NFKC makes it alice
    "\u0430\u0440\u0435",        # all-Cyrillic "аре", whole-script homoglyph of the user "ape"
    "a1ice",                     # a digit one for an l
    "bea",                       # another player's username
    "Captain Pig",               # another player's display name
    "captain  PIG",
    "C\u0430ptain Pig",          # its homoglyph
]


@pytest.mark.parametrize("name", REFUSED_EVERYWHERE, ids=ascii)
def test_a_deceptive_display_name_is_refused(client, players, name):
    response = rename(client, players["carl"], name)
    assert response.status_code == 200 and response.context["form"].errors["display_name"]
    assert not Profile.objects.filter(user=players["carl"]).exclude(display_name="").exists()


@pytest.mark.parametrize("name", [name for name in REFUSED_EVERYWHERE if " " not in name.strip()], ids=ascii)
def test_a_deceptive_username_is_refused_at_sign_up(client, players, name):
    before = get_user_model().objects.count()
    response = sign_up(client, name)
    assert response.status_code == 200 and response.context["form"].errors["username"]
    assert get_user_model().objects.count() == before


@pytest.mark.parametrize("name", ["Ana the Pig", "José García", "山田たろう", "Dmitry Дмитрий", "Talbot", "Ana 🐷",
                                  "Robot Rosie", "Kim 김", "Σίσυφος", "Thank you", "alice"], ids=ascii)
def test_honest_display_names_are_kept(client, players, name):
    """Including alice's own username as her display name."""
    response = rename(client, players["alice"], name)
    assert response.status_code == 302, response.context["form"].errors
    assert Profile.objects.get(user=players["alice"]).display_name == name


@pytest.mark.parametrize("name", ["josé", "山田", "ivan", "Иван", "ana_99", "pig3a1b2c"], ids=ascii)
def test_honest_usernames_sign_up(client, players, name):
    assert sign_up(client, name).status_code == 302
    assert get_user_model().objects.filter(username=name).exists()


def test_names_are_stored_nfkc_normalised(client, players):
    assert sign_up(client, "\uff50\uff49\uff47\uff47\uff59").status_code == 302  # fullwidth "piggy"
    piggy = get_user_model().objects.get(username="piggy")
    assert rename(client, piggy, "\uff30iggy \u2163").status_code == 302  # fullwidth P, roman numeral four
    assert Profile.objects.get(user=piggy).display_name == "Piggy IV"


def test_a_name_of_only_spaces_is_refused_but_empty_means_the_username(client, players):
    response = rename(client, players["alice"], "\u3000 \u2003")
    assert "only spaces" in str(response.context["form"].errors["display_name"])
    assert rename(client, players["alice"], "").status_code == 302
    assert Profile.objects.get(user=players["alice"]).display_name == ""


def test_a_freed_display_name_may_be_taken_and_the_skeletons_follow_every_change(client, players):
    bea, alice = players["bea"], players["alice"]
    assert set(NameSkeleton.objects.filter(user=bea).values_list("skeleton", flat=True)) == {
        names.skeleton("bea"), names.skeleton("Captain Pig")}
    assert rename(client, bea, "Bea the Boar").status_code == 302
    assert names.skeleton("Captain Pig") not in NameSkeleton.objects.values_list("skeleton", flat=True)
    assert rename(client, alice, "Captain Pig").status_code == 302
    assert rename(client, bea, "captain pig").status_code == 200


def test_the_skeleton_folds_case_width_and_homoglyphs():
    assert names.skeleton("\u0410NA") == names.skeleton("ana") == names.skeleton("\uff21na")
    assert names.skeleton("b0b") == names.skeleton("bob")
    assert names.skeleton("PIG") == names.skeleton("pig") and names.skeleton("Ivan") == names.skeleton("lvan")
    assert names.skeleton("ana") != names.skeleton("anna")


def test_the_migration_records_the_names_of_existing_players(players):
    from importlib import import_module

    from django.apps import apps

    NameSkeleton.objects.all().delete()
    import_module("pigparlor.accounts.migrations.0002_name_skeletons").skeletons_of_existing_names(apps, None)
    assert set(NameSkeleton.objects.filter(user=players["bea"]).values_list("skeleton", flat=True)) == {
        names.skeleton("bea"), names.skeleton("Captain Pig")}
    assert NameSkeleton.objects.count() == 5
