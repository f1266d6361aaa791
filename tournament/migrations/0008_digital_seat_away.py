# A seat whose phone is gone: when it was last seen, and whether a bot plays
# for it only until it comes back.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0007_tournament_slug_lower_case"),
    ]

    operations = [
        migrations.AddField(
            model_name="digitalseat",
            name="away",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="digitalseat",
            name="seen_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name="digitalseat",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("away", False),
                    models.Q(("bot", ""), _negated=True),
                    _connector="OR",
                ),
                name="digital_seat_away_has_bot",
            ),
        ),
    ]
