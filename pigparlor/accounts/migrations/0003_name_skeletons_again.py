# Written by hand: the skeletons changed (letter pairs that read as one letter,
# "vv" as "w" and "rn" as "m"), so every stored one is made again.

from importlib import import_module

from django.db import migrations


def skeletons_again(apps, schema_editor):
    """Every user's skeletons, made afresh with the current ``names.skeleton``."""
    apps.get_model("accounts", "NameSkeleton").objects.all().delete()
    import_module("pigparlor.accounts.migrations.0002_name_skeletons").skeletons_of_existing_names(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0002_name_skeletons'),
    ]

    operations = [
        migrations.RunPython(skeletons_again, migrations.RunPython.noop),
    ]
