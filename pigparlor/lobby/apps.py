from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "pigparlor.lobby"
    label = "lobby"

    def ready(self):
        from pigparlor.lobby.listing import on_listing_changed
        from pigparlor.tables.signals import table_listing_changed

        table_listing_changed.connect(on_listing_changed, dispatch_uid="lobby-listing")
