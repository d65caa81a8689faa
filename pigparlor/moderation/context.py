"""``is_moderator`` in every template: whether the page's user may moderate
(asked once, when used: the site menu's "Moderate" link)."""
from django.utils.functional import SimpleLazyObject

from pigparlor.moderation.permissions import is_moderator


def moderator(request) -> dict:
    return {"is_moderator": SimpleLazyObject(lambda: is_moderator(getattr(request, "user", None)))}
