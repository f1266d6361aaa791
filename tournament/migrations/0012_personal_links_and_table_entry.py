# Personal links for players (a token per entry, on the player card), entry
# at the table (the tournament's setting, who of the table entered and
# confirmed a version, the players' answers) and the player named in the
# audit trail.

import secrets

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import tournament.models.core


def fill_link_tokens(apps, schema_editor):
    Entry = apps.get_model("tournament", "Entry")
    for entry in Entry.objects.filter(link_token__isnull=True).only("pk"):
        entry.link_token = secrets.token_urlsafe(24)
        entry.save(update_fields=["link_token"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0011_submission_keys"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ResultAnswer",
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
                (
                    "answer",
                    models.CharField(
                        choices=[("agree", "Stimmt"), ("disagree", "Stimmt nicht")],
                        max_length=10,
                        verbose_name="Antwort",
                    ),
                ),
                (
                    "reason",
                    models.CharField(blank=True, max_length=300, verbose_name="Grund"),
                ),
                ("answered_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "verbose_name": "Antwort am Tisch",
                "verbose_name_plural": "Antworten am Tisch",
                "ordering": ["version", "answered_at", "id"],
            },
        ),
        migrations.AddField(
            model_name="auditevent",
            name="player",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="tournament.entry",
                verbose_name="Spieler",
            ),
        ),
        # Every existing entry gets a token of its own: added empty, filled
        # one by one, then unique (a callable default would give all rows
        # the same value).
        migrations.AddField(
            model_name="entry",
            name="link_token",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(fill_link_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="entry",
            name="link_token",
            field=models.CharField(
                default=tournament.models.core.new_link_token,
                editable=False,
                max_length=64,
                unique=True,
                verbose_name="Persönlicher Link",
            ),
        ),
        migrations.AddField(
            model_name="resultversion",
            name="decided_by_player",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="tournament.entry",
            ),
        ),
        migrations.AddField(
            model_name="resultversion",
            name="entered_by_player",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="tournament.entry",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="table_entry",
            field=models.CharField(
                choices=[
                    ("off", "aus: nur Schiedsrichter geben ein"),
                    ("one", "ein anderer Spieler des Tisches bestätigt"),
                    ("all", "alle anderen Spieler des Tisches bestätigen"),
                ],
                default="off",
                help_text="Die Spieler geben das Ergebnis ihres Tisches über ihren persönlichen Link auf dem Handy ein; ein anderer (oder jeder andere) Spieler des Tisches bestätigt es. Schiedsrichter können weiter eingeben, bestätigen und korrigieren.",
                max_length=3,
                verbose_name="Eingabe am Tisch",
            ),
        ),
        migrations.AddConstraint(
            model_name="resultversion",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("entered_by__isnull", True),
                    ("entered_by_player__isnull", True),
                    _connector="OR",
                ),
                name="result_entered_by_one",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("table_entry__in", ["off", "one", "all"])),
                name="tournament_table_entry_valid",
            ),
        ),
        migrations.AddField(
            model_name="resultanswer",
            name="entry",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="tournament.entry",
                verbose_name="Spieler",
            ),
        ),
        migrations.AddField(
            model_name="resultanswer",
            name="version",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="answers",
                to="tournament.resultversion",
            ),
        ),
        migrations.AddConstraint(
            model_name="resultanswer",
            constraint=models.UniqueConstraint(
                fields=("version", "entry"), name="result_answer_once"
            ),
        ),
        migrations.AddConstraint(
            model_name="resultanswer",
            constraint=models.CheckConstraint(
                condition=models.Q(("answer__in", ["agree", "disagree"])),
                name="result_answer_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="resultanswer",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("answer", "agree"),
                    models.Q(("reason", ""), _negated=True),
                    _connector="OR",
                ),
                name="result_answer_disagree_has_reason",
            ),
        ),
    ]
