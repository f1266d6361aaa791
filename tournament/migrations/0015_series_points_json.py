"""EntryTotal.series_points from a comma-joined string ("26,0,14") to a
JSON list ([26, 0, 14]), and back: the text is rewritten as JSON while the
column is still text, then the column changes its type (PostgreSQL casts
the text to jsonb). Backwards the column becomes text again and its JSON
is joined by commas."""

import json

from django.db import migrations, models


def _rewrite(apps, convert):
    EntryTotal = apps.get_model("tournament", "EntryTotal")
    changed = []
    for total in EntryTotal.objects.only("pk", "series_points").iterator():
        total.series_points = convert(total.series_points or "")
        changed.append(total)
    EntryTotal.objects.bulk_update(changed, ["series_points"], batch_size=500)


def joined_to_json(apps, schema_editor):
    _rewrite(
        apps,
        lambda text: json.dumps([int(p) for p in text.split(",") if p.strip()]),
    )


def json_to_joined(apps, schema_editor):
    _rewrite(apps, lambda text: ",".join(map(str, json.loads(text or "[]"))))


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0014_withdrawal_after_game"),
    ]

    operations = [
        migrations.RunPython(joined_to_json, json_to_joined),
        migrations.AlterField(
            model_name="entrytotal",
            name="series_points",
            field=models.JSONField(default=list, verbose_name="Punkte je Serie"),
        ),
    ]
