"""Decisions (rated or a repeat) recorded per player; each event's games count;
the rules version (bots now play at fixed, measured ratings: a new rule).

- ``RatingEvent.games``: the player's rated games after each existing event,
  counted from the events (a void takes one game from the voided table's players).
- ``RatingRules``: version 2 on a site without ratings; version 1 where ratings
  exist, so the next ``serve`` start (or ``manage.py ratings --rebuild``) rebuilds
  them under the new rules, which ``manage.py ratings --check`` then confirms.
"""
from collections import defaultdict

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def games_after_each_event(apps, schema_editor):
    RatingEvent = apps.get_model("ratings", "RatingEvent")
    played = set(RatingEvent.objects.filter(reason="table").values_list("user_id", "table_id"))
    games = defaultdict(int)
    changed = []
    for event in RatingEvent.objects.order_by("pk").iterator():
        key = (event.user_id, event.game)
        if event.reason == "table":
            games[key] += 1
        elif event.reason == "void" and (event.user_id, event.table_id) in played:
            games[key] -= 1
        event.games = games[key]
        changed.append(event)
    RatingEvent.objects.bulk_update(changed, ["games"], batch_size=500)


def rules_version(apps, schema_editor):
    RatingRules = apps.get_model("ratings", "RatingRules")
    RatingEvent = apps.get_model("ratings", "RatingEvent")
    RatingRules.objects.create(pk=1, version=1 if RatingEvent.objects.exists() else 2)


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0001_initial'),
        ('tables', '0008_action_state_digest'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='RatingRules',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('version', models.PositiveSmallIntegerField()),
                ('changed_at', models.DateTimeField(auto_now=True)),
            ],
        ),
        migrations.RemoveConstraint(
            model_name='ratingevent',
            name='one_table_event_per_player',
        ),
        migrations.AddField(
            model_name='ratingevent',
            name='games',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AlterField(
            model_name='ratingevent',
            name='reason',
            field=models.CharField(choices=[('table', 'Rated table'), ('repeat', 'Not rated: a repeat'), ('void', 'Table voided'), ('rules', 'Rating rules changed')], default='table', max_length=10),
        ),
        migrations.AlterField(
            model_name='ratingevent',
            name='table',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='rating_events', to='tables.table'),
        ),
        migrations.AddConstraint(
            model_name='ratingevent',
            constraint=models.UniqueConstraint(condition=models.Q(('reason__in', ['table', 'repeat'])), fields=('table', 'user'), name='one_decision_per_table_and_player'),
        ),
        migrations.RunPython(games_after_each_event, migrations.RunPython.noop),
        migrations.RunPython(rules_version, migrations.RunPython.noop),
    ]
