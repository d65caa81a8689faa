from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "pigparlor.tables"
    label = "tables"
    verbose_name = "Tables"

    def ready(self):
        from pigparlor.tables import credentials

        credentials.connect()
