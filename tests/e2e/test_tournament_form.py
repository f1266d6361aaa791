"""A new tournament in a real browser (issue 14.19): the short name follows
the name while it is typed (lower case, umlauts spelt out), stays as the
organizer edits it, and every checkbox's label stands beside it and
toggles it."""

import pytest

from tests.support.browser import sign_in
from tests.support.factories import make_user
from tournament.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "neues-turnier"


def test_the_short_name_follows_the_name_until_typed_over(live_server, browser):
    make_user("orga", "organizer", password=PASSWORD)
    base = live_server.url
    context = browser.new_context(viewport={"width": 360, "height": 800})
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        sign_in(page, base, "orga", PASSWORD, "/verwaltung/turnier/neu/")
        name, slug = page.locator("#id_name"), page.locator("#id_slug")
        name.press_sequentially("RM Daun 2027")
        assert slug.input_value() == "rm-daun-2027"
        name.fill("")
        name.press_sequentially("Großes Öko-Turnier in Bürresheim, Café René!")
        assert slug.input_value() == "grosses-oeko-turnier-in-buerresheim-cafe-rene"
        # The organizer's own short name is kept while the name changes.
        slug.fill("oeko-2027")
        name.fill("Großes Öko-Turnier 2")
        assert slug.input_value() == "oeko-2027"
        # Emptied, it follows again.
        slug.fill("")
        name.fill("Großes Öko-Turnier 27")
        assert slug.input_value() == "grosses-oeko-turnier-27"
        # A checkbox's label is beside it and toggles it.
        box = page.locator("#id_show_provisional")
        label = page.locator("label[for=id_show_provisional]")
        assert label.locator("#id_show_provisional").count() == 1
        assert not box.is_checked()
        label.get_by_text("Unbestätigte Ergebnisse vorläufig zeigen").click()
        assert box.is_checked()
        box_at, label_at = box.bounding_box(), label.bounding_box()
        assert abs(box_at["y"] - label_at["y"]) < 12  # on the label's line
        # Saved under the short name it shows.
        name.fill("RM Daun 2027")
        page.locator("#id_date").fill("2027-03-06")
        page.get_by_role("button", name="Speichern").click()
        page.wait_for_url(f"{base}/t/rm-daun-2027/verwaltung/")
        assert Tournament.objects.get(slug="rm-daun-2027").show_provisional
    finally:
        context.close()


def test_an_existing_tournaments_short_name_does_not_follow(live_server, browser):
    make_user("orga", "organizer", password=PASSWORD)
    Tournament.objects.create(name="Alt", slug="alt-2026", date="2026-01-01")
    base = live_server.url
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        sign_in(page, base, "orga", PASSWORD, "/t/alt-2026/verwaltung/bearbeiten/")
        page.locator("#id_name").fill("Alt und Neu")
        assert page.locator("#id_slug").input_value() == "alt-2026"
    finally:
        context.close()


@pytest.mark.parametrize("width", [360, 1366])
def test_the_championship_flag_says_what_it_does_and_asks_about_a_second(
    live_server, browser, width
):
    from tests.support.browser import ARTIFACTS

    make_user("orga", "organizer", password=PASSWORD)
    Tournament.objects.create(
        name="Rheinland-Meisterschaft 2027",
        slug="rm-2027",
        date="2027-03-06",
        is_championship=True,
    )
    base = live_server.url
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.set_default_timeout(10_000)
    wide = "() => document.documentElement.scrollWidth - innerWidth"
    try:
        sign_in(page, base, "orga", PASSWORD, "/verwaltung/turnier/neu/")
        page.get_by_text("steht sein Sieger in der Liste der Meister").wait_for()
        page.locator("#id_name").fill("Rheinland-Meisterschaft 2027 (Nachholung)")
        page.locator("#id_date").fill("2027-11-06")
        page.locator("label[for=id_is_championship]").click()
        page.get_by_role("button", name="Speichern").click()
        page.get_by_text("2027 hat schon eine Meisterschaft").first.wait_for()
        assert page.evaluate(wide) <= 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator("#id_is_championship").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"championship-second-{width}.png"))
        page.locator("label[for=id_second_championship]").click()
        page.get_by_role("button", name="Speichern").click()
        page.wait_for_url(
            f"{base}/t/rheinland-meisterschaft-2027-nachholung/verwaltung/"
        )
        assert Tournament.objects.filter(is_championship=True).count() == 2
    finally:
        context.close()
