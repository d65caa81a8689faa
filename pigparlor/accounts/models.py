"""A player's profile: what other players see besides the username."""
from django.conf import settings
from django.db import models


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(
        max_length=40, blank=True,
        help_text="Shown at the tables instead of your username. Leave empty to use your username.")

    def __str__(self):
        return f"profile of {self.user}"


def display_name(user) -> str:
    """The name a player goes by at the tables: their display name, else their username."""
    profile = Profile.objects.filter(user=user).only("display_name").first()
    return (profile.display_name if profile else "") or user.get_username()


class NameSkeleton(models.Model):
    """The skeleton of one of a user's names (username or display name), kept by
    ``pigparlor.accounts.names.remember`` so a new name is compared with every
    player's names in one indexed query. One row per distinct skeleton per user."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="name_skeletons")
    skeleton = models.TextField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "skeleton"], name="one_row_per_name_skeleton")]

    def __str__(self):
        return f"{self.skeleton!r} of {self.user}"


class Guest(models.Model):
    """A visitor playing before signing up: a real user (so every door — seats, sockets,
    ``act`` — works unchanged), logged in through the session, with this row saying it is
    a guest (``pigparlor.accounts.guests``). Signing up turns the same user into a full
    account and deletes this row; a guest nobody has played as for a while is deleted."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="guest")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    # A keyed hash of the address (its /64 network for IPv6) the guest was made from, for the
    # per-address limit; the address itself is not kept.
    address = models.CharField(max_length=64, db_index=True)

    def __str__(self):
        return f"guest {self.user}"
