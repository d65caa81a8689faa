from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "pigparlor.moderation"
    label = "moderation"
    verbose_name = "Moderation"

    def ready(self):
        from pigparlor.moderation.services import refuse_kicked_player
        from pigparlor.tables.signals import seat_wanted

        seat_wanted.connect(refuse_kicked_player, dispatch_uid="moderation-refuse-kicked")
