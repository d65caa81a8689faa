from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "pigparlor.accounts"
    label = "accounts"
    verbose_name = "Player accounts"

    def ready(self):
        from django.conf import settings
        from django.db.models.signals import post_save

        from pigparlor.accounts import signals
        from pigparlor.accounts.models import Profile

        post_save.connect(signals.user_saved, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts-user-names")
        post_save.connect(signals.profile_saved, sender=Profile, dispatch_uid="accounts-profile-names")
