"""Personal API tokens: stored hashed, revocable, and the api_token command."""
import hashlib

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from pigparlor.api.models import ApiToken
from pigparlor.api.tokens import bearer, create_token, revoke_token, user_for_token
from tests.support.tables import make_user

pytestmark = pytest.mark.django_db


def test_a_token_is_stored_only_as_its_digest():
    ana = make_user("ana")
    raw = create_token(ana, name="my bot")
    stored = ApiToken.objects.get(user=ana)
    assert raw.startswith("pp_") and len(raw) > 40
    assert stored.digest == hashlib.sha256(raw.encode()).hexdigest() and raw not in stored.digest
    assert stored.prefix == raw[:10] and stored.name == "my bot"
    assert user_for_token(raw) == ana
    assert ApiToken.objects.get(user=ana).last_used_at is not None


def test_wrong_missing_and_revoked_tokens_are_nobody():
    ana, ben = make_user("ana"), make_user("ben")
    raw = create_token(ana)
    token_id = ApiToken.objects.get(user=ana).pk
    assert user_for_token(None) is None and user_for_token("") is None and user_for_token(raw + "x") is None
    assert not revoke_token(ben, token_id)  # only the owner revokes
    assert user_for_token(raw) == ana
    assert revoke_token(ana, token_id)
    assert user_for_token(raw) is None


def test_an_inactive_user_has_no_token_access():
    ana = make_user("ana")
    raw = create_token(ana)
    ana.is_active = False
    ana.save()
    assert user_for_token(raw) is None


def test_bearer_header_parsing():
    assert bearer("Bearer pp_abc") == "pp_abc" and bearer("bearer  pp_abc ") == "pp_abc"
    assert bearer("Basic xyz") is None and bearer(None) is None and bearer("") is None


def test_api_token_command_prints_a_fresh_token_and_creates_with_flag(capsys):
    call_command("api_token", "robot", "--create")
    raw = capsys.readouterr().out.strip()
    robot = get_user_model().objects.get(username="robot")
    assert user_for_token(raw) == robot and not robot.has_usable_password()
    call_command("api_token", "robot")
    second = capsys.readouterr().out.strip()
    assert second != raw and user_for_token(second) == robot
    with pytest.raises(CommandError):
        call_command("api_token", "nobody")
