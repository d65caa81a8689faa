"""The profile page's view of personal API tokens; storage and hashing live in pigparlor.api."""
from pigparlor.api.models import ApiToken
from pigparlor.api.tokens import create_token, revoke_token


def list_tokens(user):
    return list(ApiToken.objects.filter(user=user).order_by("-pk"))


def create(user) -> str:
    return create_token(user)


def revoke(user, token_id: int) -> bool:
    return bool(revoke_token(user, token_id))
