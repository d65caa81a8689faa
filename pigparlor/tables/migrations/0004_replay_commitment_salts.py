"""Provable shuffles (issue 16): the seed's commitment and the seats' salts."""
import hashlib

from django.db import migrations, models


def commit_existing(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.filter(commitment="").only("pk", "seed").iterator():
        table.commitment = hashlib.sha256(str(int(table.seed)).encode("ascii")).hexdigest()
        table.save(update_fields=["commitment"])


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0003_table_rated"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="commitment",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="table",
            name="salts",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(commit_existing, migrations.RunPython.noop),
    ]
