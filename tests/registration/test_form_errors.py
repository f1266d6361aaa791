"""A failed registration says what went wrong where the keyboard and the
screen reader find it: a summary that takes the focus (static/js/app.js),
with a link to each invalid field's input, and each invalid input
described by its own error beside its help (the site's form renderer,
tournament.core.forms.DescribedBoundField)."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def tag(page: str, pattern: str) -> dict[str, str]:
    found = re.search(rf"<{pattern}[^>]*>", page)
    assert found, pattern
    return dict(re.findall(r'([\w-]+)="([^"]*)"', found[0]))


def test_a_failed_registration_describes_each_field_by_its_error(
    client, organizer, tournament
):
    client.force_login(organizer)
    url = reverse("tournament:entry_create", kwargs={"slug": tournament.slug})
    page = client.post(
        url, {"start_number": "x", "first_name": "", "last_name": "Kreuser"}
    ).content.decode()
    summary = tag(page, r"div [^>]*data-error-summary")
    assert summary["tabindex"] == "-1" and summary["role"] == "alert"
    assert '<a href="#id_start_number">Startnummer</a>' in page
    assert '<a href="#id_first_name">Vorname</a>' in page
    # The number: its help and its error; the first name: its error.
    number = tag(page, r'input type="number" name="start_number"')
    assert number["aria-invalid"] == "true"
    assert (
        number["aria-describedby"] == "id_start_number_helptext id_start_number_error"
    )
    first = tag(page, r'input type="text" name="first_name"')
    assert first["aria-invalid"] == "true"
    assert first["aria-describedby"] == "id_first_name_error"
    assert re.search(r'<ul class="errorlist" id="id_first_name_error">', page)
    # A valid field is neither.
    last = tag(page, r'input type="text" name="last_name"')
    assert "aria-invalid" not in last and "aria-describedby" not in last
