# Written by hand: the table of Django's database cache (settings.CACHES), where
# allauth counts sign-ups and the other limits it keeps, shared by every process.

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0003_name_skeletons_again'),
    ]

    operations = [
        migrations.RunPython(create_cache_table, migrations.RunPython.noop),
    ]
