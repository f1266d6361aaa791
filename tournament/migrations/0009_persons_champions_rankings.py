# Persons across tournaments (every player belongs to one; filled by 0010),
# champions imported from a workbook, season rankings, the championship
# mark and the Marienheide preset of a tournament, how a series was seated.

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0008_digital_seat_away"),
    ]

    operations = [
        migrations.CreateModel(
            name="PastChampion",
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
                ("year", models.PositiveSmallIntegerField(verbose_name="Jahr")),
                ("name", models.CharField(max_length=201, verbose_name="Name")),
                (
                    "club",
                    models.CharField(blank=True, max_length=150, verbose_name="Verein"),
                ),
                (
                    "points",
                    models.PositiveIntegerField(
                        blank=True, null=True, verbose_name="Punkte"
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "verbose_name": "Meister (importiert)",
                "verbose_name_plural": "Meister (importiert)",
                "ordering": ["-year", "name"],
            },
        ),
        migrations.CreateModel(
            name="Person",
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
                    "first_name",
                    models.CharField(max_length=100, verbose_name="Vorname"),
                ),
                (
                    "last_name",
                    models.CharField(max_length=100, verbose_name="Nachname"),
                ),
                (
                    "club",
                    models.CharField(blank=True, max_length=150, verbose_name="Verein"),
                ),
                (
                    "key",
                    models.CharField(db_index=True, editable=False, max_length=210),
                ),
                (
                    "loose",
                    models.CharField(db_index=True, editable=False, max_length=210),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "verbose_name": "Person",
                "verbose_name_plural": "Personen",
                "ordering": ["last_name", "first_name", "id"],
            },
        ),
        migrations.CreateModel(
            name="Ranking",
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
                ("name", models.CharField(max_length=200, verbose_name="Name")),
                (
                    "slug",
                    models.SlugField(
                        max_length=80,
                        unique=True,
                        validators=[
                            django.core.validators.RegexValidator(
                                "^[-a-z0-9_]+\\Z",
                                "Bitte nur Kleinbuchstaben, Ziffern und Bindestriche (z. B. rm-2026).",
                                code="invalid",
                            )
                        ],
                        verbose_name="Kurzname",
                    ),
                ),
                (
                    "method",
                    models.CharField(
                        choices=[
                            ("places", "Punkte nach Platz"),
                            ("points", "Turnierpunkte"),
                        ],
                        default="places",
                        max_length=10,
                        verbose_name="Wertung nach",
                    ),
                ),
                (
                    "place_points",
                    models.CharField(
                        blank=True,
                        default="25,20,16,13,11,10,9,8,7,6,5,4,3,2,1",
                        help_text="Platz 1, 2, 3 … durch Komma getrennt; wer dahinter landet, bekommt 0.",
                        max_length=500,
                        validators=[
                            django.core.validators.RegexValidator(
                                "^\\d{1,4}(,\\d{1,4}){0,99}\\Z",
                                "Bitte Punkte pro Platz als Zahlen mit Komma, z. B. 25,20,16,13.",
                                code="invalid",
                            )
                        ],
                        verbose_name="Punkte pro Platz",
                    ),
                ),
                (
                    "best_of",
                    models.PositiveSmallIntegerField(
                        blank=True,
                        help_text="Z. B. 4: von sechs Turnieren zählen die vier besten, zwei werden gestrichen. Leer lassen: alle Ergebnisse zählen.",
                        null=True,
                        verbose_name="Es zählen die besten … Ergebnisse",
                    ),
                ),
                ("version", models.PositiveIntegerField(default=0)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
            ],
            options={
                "verbose_name": "Wertung",
                "verbose_name_plural": "Wertungen",
                "ordering": ["-created_at", "name"],
            },
        ),
        migrations.RemoveConstraint(
            model_name="tournament",
            name="tournament_rule_preset_valid",
        ),
        migrations.AddField(
            model_name="player",
            name="person_review",
            field=models.BooleanField(default=False, verbose_name="Person prüfen"),
        ),
        migrations.AddField(
            model_name="series",
            name="mode",
            field=models.CharField(
                choices=[("lot", "ausgelost"), ("standings", "nach Tabelle gesetzt")],
                default="lot",
                max_length=10,
                verbose_name="Setzung",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="is_championship",
            field=models.BooleanField(
                default=False,
                help_text="Der Sieger steht in der Liste der Meister (einmal pro Jahr, z. B. die Rheinland-Meisterschaft).",
                verbose_name="Meisterschaft",
            ),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="rule_preset",
            field=models.CharField(
                choices=[
                    ("championship", "Rheinland-Meisterschaft"),
                    ("schroem", "Schröm (Wipperfürth)"),
                    ("siwwe_stroem", "Siwwe Ström / Sibbeschröm"),
                    ("marienheide", "Marienheide"),
                ],
                default="championship",
                max_length=20,
                verbose_name="Regelwerk",
            ),
        ),
        migrations.AddConstraint(
            model_name="series",
            constraint=models.CheckConstraint(
                condition=models.Q(("mode__in", ["lot", "standings"])),
                name="series_mode_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "rule_preset__in",
                        ["championship", "schroem", "siwwe_stroem", "marienheide"],
                    )
                ),
                name="tournament_rule_preset_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="person",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("first_name", ""), _negated=True),
                    models.Q(("last_name", ""), _negated=True),
                ),
                name="person_name_required",
            ),
        ),
        migrations.AddField(
            model_name="pastchampion",
            name="person",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="past_titles",
                to="tournament.person",
                verbose_name="Person",
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="person",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="players",
                to="tournament.person",
                verbose_name="Person",
            ),
        ),
        migrations.AddField(
            model_name="ranking",
            name="tournaments",
            field=models.ManyToManyField(
                blank=True,
                related_name="rankings",
                to="tournament.tournament",
                verbose_name="Turniere",
            ),
        ),
        migrations.AddConstraint(
            model_name="pastchampion",
            constraint=models.UniqueConstraint(
                fields=("year", "name"), name="past_champion_unique_per_year"
            ),
        ),
        migrations.AddConstraint(
            model_name="pastchampion",
            constraint=models.CheckConstraint(
                condition=models.Q(("year__gte", 1900), ("year__lte", 2200)),
                name="past_champion_year_range",
            ),
        ),
        migrations.AddConstraint(
            model_name="pastchampion",
            constraint=models.CheckConstraint(
                condition=models.Q(("name", ""), _negated=True),
                name="past_champion_name_required",
            ),
        ),
        migrations.AddConstraint(
            model_name="ranking",
            constraint=models.CheckConstraint(
                condition=models.Q(("method__in", ["places", "points"])),
                name="ranking_method_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="ranking",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("best_of__isnull", True), ("best_of__gte", 1), _connector="OR"
                ),
                name="ranking_best_of_positive",
            ),
        ),
        migrations.AddConstraint(
            model_name="ranking",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("method", "places"), _negated=True),
                    models.Q(("place_points", ""), _negated=True),
                    _connector="OR",
                ),
                name="ranking_places_need_points",
            ),
        ),
        migrations.AddConstraint(
            model_name="ranking",
            constraint=models.CheckConstraint(
                condition=models.Q(("name", ""), _negated=True),
                name="ranking_name_required",
            ),
        ),
    ]
