from django.apps import AppConfig


class PwaConfig(AppConfig):
    name = "pigparlor.pwa"
    label = "pwa"
    verbose_name = "Installable app shell"
