from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "pigparlor.accounts"
    label = "accounts"
    verbose_name = "Player accounts"

    def ready(self):
        from django.conf import settings
        from django.db.models.signals import post_save

        from pigparlor.accounts import guests, signals
        from pigparlor.accounts.models import Profile
        from pigparlor.tables.signals import clock_tick, seat_wanted

        post_save.connect(signals.user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts-user-names")
        post_save.connect(signals.profile_saved, sender=Profile, dispatch_uid="accounts-profile-names")
        # Guests sit only at casual tables with a bot, and at a few at a time; stale ones expire.
        seat_wanted.connect(guests.refuse_seat, dispatch_uid="accounts-guest-seats")
        clock_tick.connect(guests.on_clock_tick, dispatch_uid="accounts-guest-expiry")
