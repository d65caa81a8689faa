"""``is_moderator`` in every template: whether the page's user may moderate, or may once they
have two-factor sign-in (asked once, when used: the site menu's "Moderate" link, which then
leads to setting it up)."""
from django.utils.functional import SimpleLazyObject

from pigparlor.moderation.permissions import in_moderator_role


def moderator(request) -> dict:
    return {"is_moderator": SimpleLazyObject(lambda: in_moderator_role(getattr(request, "user", None)))}
