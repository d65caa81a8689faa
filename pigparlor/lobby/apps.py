from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "pigparlor.lobby"
    label = "lobby"
