"""Every page kind, as a volunteer meets it: on a 360 px phone and a
1366 px laptop, in German and in English, in normal and in large print,
axe-core finds no violation at all; and no page scrolls sideways
(`scrollWidth == clientWidth`), nor has a table wider than its box, on the
phone in large print, with the browser's text at 200 % (a default font size
of 32 px) on the laptop, or at 200 % zoom (683 CSS px at twice the pixels).

A page kind is a view of the permission matrix's GET rows that answers
with an HTML page (tests/e2e/matrix_world.py behind one real server, as
test_phone_pages.py opens it): once, as the actor who normally opens it (a
phone's actor where one may, else the organizer). One browser, one tab per
way of looking and per session, reused for every page; axe's laptop looks
at the page its phone look loaded, made wider."""

import pytest

from tests.e2e.a11y import EVERY, Audit
from tests.e2e.test_phone_pages import LAPTOP, PHONE, Site, _file_name, _pages
from tests.support import servers as support
from tests.support.browser import ARTIFACTS, resize, skip_without_chromium

pytestmark = [pytest.mark.e2e, pytest.mark.slow(minutes=3)]

SHOTS = ARTIFACTS / "every-page-kind"
ZOOM = {"width": 683, "height": 450}
# Text at 200 %: the browser's default font size, as a person sets it.
LARGE_TEXT = {"standard": 32, "fixed": 26}

SCROLLS_SIDEWAYS = """() => {
  const root = document.documentElement;
  const name = (el) => el.tagName.toLowerCase()
    + (el.id ? "#" + el.id : el.classList.length ? "." + el.classList[0] : "");
  // A table wider than its box scrolls inside it: its last columns (the
  // player list's check-in) are off the screen all the same.
  for (const table of document.querySelectorAll("table")) {
    const box = table.getBoundingClientRect();
    const room = table.parentElement.getBoundingClientRect();
    if (box.width && box.right > room.right + 0.5
        && table.checkVisibility({ visibilityProperty: true })) {
      const over = Math.round(box.right - room.right);
      return `${name(table)}: ${over} px wider than its box`;
    }
  }
  if (root.scrollWidth <= root.clientWidth) return null;
  const width = root.clientWidth;
  const past = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (past.some((p) => p.contains(el))) continue;
    const box = el.getBoundingClientRect();
    if (!box.width || box.right <= width + 0.5) continue;
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    past.push(el);
  }
  return `${root.scrollWidth} px wide (screen ${width} px): `
    + past.slice(0, 4).map((el) =>
      `${name(el)} to ${Math.round(el.getBoundingClientRect().right)} px`).join(", ");
}"""


@pytest.fixture(scope="module")
def matrix(tmp_path_factory):
    skip_without_chromium()  # before the seeding, which takes seconds
    env = support.server_env(tmp_path_factory.mktemp("page-kinds"), DEBUG="1")
    world = support.run_seed(env, "tests.e2e.matrix_world")
    port = support.free_port()
    process = support.start_server(env, port)
    try:
        support.wait_until_up(port, process)
        yield _pages(port, world)
    finally:
        support.stop(process)


def _kinds(site: Site):
    """One page per view of the matrix (its rows may name a view several
    times, for what else they check): a phone's where a phone may open it,
    else the organizer's."""
    kinds = {}
    for page in (*site.phone, *site.organizer):
        kinds.setdefault(page.row.split("-GET")[0], page)
    return list(kinds.values())


class Looks:
    """One tab per session for one way of looking at the pages."""

    def __init__(
        self, browser, site, audit, *, viewport, language, large, scale=1, text=None
    ):
        self.browser, self.site, self.audit = browser, site, audit
        self.options = dict(viewport=viewport, device_scale_factor=scale)
        self.language, self.large, self.text = language, large, text
        self.tabs: dict[str | None, object] = {}
        self.cdp: dict[str | None, object] = {}

    def tab(self, session):
        if session not in self.tabs:
            context = self.browser.new_context(**self.options, locale="de-DE")
            cookies = [{"name": "django_language", "value": self.language}]
            if session:
                cookies.append({"name": self.site.cookie, "value": session})
            if self.large:
                cookies.append({"name": "large_print", "value": "1"})
            context.add_cookies([{**c, "url": self.site.base} for c in cookies])
            page = context.new_page()
            page.set_default_timeout(15_000)
            self.audit.watch(page)  # CSP refusals
            if self.text:
                self.cdp[session] = context.new_cdp_session(page)
                self.cdp[session].send("Page.setFontSizes", {"fontSizes": self.text})
            self.tabs[session] = (context, page)
        return self.tabs[session][1]

    def open(self, page):
        tab = self.tab(page.session)
        response = tab.goto(self.site.base + page.path, wait_until="load")
        assert response and response.status == 200, f"{page.name}: {response}"
        return tab

    def shot(self, tab, page, name: str) -> None:
        """A screenshot as a test artifact. Chromium forgets the text size
        while it draws a whole page: with 200 % text only the screen is
        drawn, and the size is set again."""
        SHOTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(SHOTS / f"{name}.png"), full_page=not self.text)
        if self.text:
            self.cdp[page.session].send("Page.setFontSizes", {"fontSizes": self.text})

    def close(self):
        for context, _page in self.tabs.values():
            context.close()


def test_every_page_kind_is_accessible_and_never_scrolls_sideways(browser, matrix):
    site = matrix
    kinds = _kinds(site)
    audit = Audit(site.base, impacts=EVERY)
    sideways: dict[str, str] = {}
    # Axe: 360 and 1366 px, German and English, normal and large print. A
    # page is loaded once per language and print size: the server sends the
    # same page to every width, and the laptop's is the phone's made wider.
    for language in ("de", "en"):
        for large in (False, True):
            way = Looks(
                browser, site, audit, viewport=PHONE, language=language, large=large
            )
            try:
                for page in kinds:
                    opened = way.open(page)
                    for viewport in (PHONE, LAPTOP):
                        if viewport is LAPTOP:
                            resize(opened, LAPTOP)
                        where = f"{page.name} at {viewport['width']} px, {language}"
                        where += ", large print" * large
                        audit.check(opened, where)
                        if viewport is PHONE and large:
                            found = opened.evaluate(SCROLLS_SIDEWAYS)
                            if found:
                                sideways[where] = found
                                way.shot(opened, page, _file_name(where))
                    opened.set_viewport_size(PHONE)
            finally:
                way.close()
    # The sideways checks alone: 200 % text and 200 % zoom at 1366 px.
    for label, options in (
        ("1366 px, text 200 %", {"viewport": LAPTOP, "text": LARGE_TEXT}),
        ("1366 px, zoom 200 %", {"viewport": ZOOM, "scale": 2}),
    ):
        way = Looks(browser, site, audit, language="de", large=False, **options)
        try:
            for page in kinds:
                where = f"{page.name} at {label}"
                opened = way.open(page)
                if "text" in options:
                    size = opened.evaluate(
                        "parseFloat(getComputedStyle(document.body).fontSize)"
                    )
                    assert size >= 28, f"{where}: the text is {size} px, not 200 %"
                found = opened.evaluate(SCROLLS_SIDEWAYS)
                if found:
                    sideways[where] = found
                    way.shot(opened, page, _file_name(where))
        finally:
            way.close()

    print(
        f"\naxe: {len(audit.pages)} runs on {len(kinds)} page kinds, "
        f"{len(audit.found)} with violations, "
        f"{audit.seconds:.0f} s in axe; pages scrolling sideways: {len(sideways)}"
    )
    assert not sideways, "pages that scroll sideways:" + "".join(
        f"\n{where}: {found}" for where, found in sideways.items()
    )
    audit.assert_clean()
