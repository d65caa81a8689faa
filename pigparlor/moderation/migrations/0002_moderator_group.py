"""The Moderator group, with exactly the permissions of ``permissions.PERMISSIONS``
(written out here: a migration must not change when the code does)."""
from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderator"
PERMISSIONS = (
    "view_liveroom", "view_report", "view_chatline", "view_modaction", "view_ban", "view_chattimeout",
    "close_table", "kick_seat", "remove_chat", "timeout_player", "ban_player", "void_ratings", "resolve_report",
)


def create_group(apps, schema_editor):
    # Permissions are normally made after all migrations ran; the group needs them now.
    config = apps.get_app_config("moderation")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    found = list(Permission.objects.filter(content_type__app_label="moderation", codename__in=PERMISSIONS))
    assert len(found) == len(PERMISSIONS), sorted(set(PERMISSIONS) - {each.codename for each in found})
    group.permissions.set(found)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
