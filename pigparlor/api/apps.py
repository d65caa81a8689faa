from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "pigparlor.api"
    label = "api"
    verbose_name = "JSON API"
