from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "pigparlor.accounts"
    label = "accounts"
    verbose_name = "Player accounts"
