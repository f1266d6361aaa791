# Submissions applied under a client's idempotency key, at most once each,
# with their first answer for a repeat (a phone on bad Wi-Fi sends again
# when the answer is lost).

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0010_persons_from_players"),
    ]

    operations = [
        migrations.CreateModel(
            name="SubmissionKey",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True,
                        primary_key=True,
                        serialize=False,
                        verbose_name="ID",
                    ),
                ),
                ("key", models.UUIDField(verbose_name="Schlüssel")),
                ("actor", models.CharField(max_length=80, verbose_name="Absender")),
                ("path", models.CharField(max_length=255, verbose_name="Adresse")),
                ("fingerprint", models.CharField(max_length=64)),
                (
                    "status",
                    models.PositiveSmallIntegerField(
                        default=0, verbose_name="Antwortstatus"
                    ),
                ),
                ("location", models.CharField(blank=True, max_length=500)),
                ("content_type", models.CharField(blank=True, max_length=100)),
                ("body", models.BinaryField(blank=True, default=b"")),
                ("messages", models.JSONField(blank=True, default=list)),
                (
                    "created_at",
                    models.DateTimeField(
                        default=django.utils.timezone.now, verbose_name="angenommen"
                    ),
                ),
            ],
            options={
                "verbose_name": "Übermittlung",
                "verbose_name_plural": "Übermittlungen",
                "indexes": [
                    models.Index(fields=["created_at"], name="submission_key_age")
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("actor", "path", "key"), name="submission_key_once"
                    )
                ],
            },
        ),
    ]
