"""``{% moderate_player player %}``: on a player's public profile, for a moderator
only, small forms to time the player out or ban them (or lift a ban). They post to
the admin's action views (``actions``), which refuse anyone else with a quiet 403."""
from django import template
from django.utils import timezone

from pigparlor.moderation.models import Ban, ChatTimeout
from pigparlor.moderation.permissions import is_moderator
from pigparlor.moderation.services import TIMEOUT_MINUTES

register = template.Library()


@register.inclusion_tag("moderation/_moderate_player.html", takes_context=True)
def moderate_player(context, player):
    viewer = context.get("user")
    request = context.get("request")
    if player is None or not is_moderator(viewer) or viewer.pk == player.pk:
        return {"shown": False}
    return {
        "shown": True, "player": player, "csrf_token": context.get("csrf_token"),
        "back": request.get_full_path() if request is not None else "",
        "may_time_out": is_moderator(viewer, "timeout_player"), "may_ban": is_moderator(viewer, "ban_player"),
        "banned": Ban.objects.filter(user=player, lifted_at__isnull=True).exists(),
        "timeout": ChatTimeout.objects.filter(user=player, until__gt=timezone.now()).order_by("-until").first(),
        "minutes": list(TIMEOUT_MINUTES.items()),
    }
