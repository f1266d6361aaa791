"""Every page a phone reaches, on a 360 × 740 phone (issue 14.3, 14.4).

The world is the permission matrix's (tests/site/test_permissions.py,
seeded by tests/e2e/matrix_world.py) behind one real server. Every GET row
whose cell is 200 for a phone's actor (anonymous, a player's private link,
a referee) and that answers with an HTML page is opened as that actor, and:

- nothing is wider than the screen: the page does not scroll sideways
  (`scrollWidth ≤ clientWidth`), no visible element reaches past the
  screen's right edge, not even inside a box that scrolls by itself (that
  is how a series' Σ column hid), no table is wider than the box it
  stands in, and no field's hint is cut off;
- the same in large print (the cookie of the "Große Schrift" switch);
- axe-core finds nothing serious or critical (its color-contrast rule is
  WCAG AA), and the browser logs no error;
- every tap target is 44 × 44 px, or at least 24 × 24 px and a circle of
  44 px around its centre touches no other target and no other small
  target's circle: WCAG 2.5.8's spacing rule with the 44 px of WCAG 2.5.5
  in place of 24. A checkbox or radio button counts with its label; a link
  inside running text is exempt, as in WCAG, and so is what a tap does
  nothing to (the projector's links: `pointer-events: none`).

The organizer's pages (his own and the public ones, with his navigation)
are opened at 360 px as well (nothing too wide, axe, no error), and at
1366 px (nothing too wide, and no word of the navigation wraps). All
problems of all pages come as one readable failure per check.
UPDATE_DOC_IMAGES=1 also writes a screenshot of every page to
test-artifacts/phone-pages/, and the handbook's phone pictures of the demo
championship to docs/img/."""

import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.e2e.a11y import Audit
from tests.e2e.matrix_world import ORGANIZER, PHONE_ACTORS
from tests.support import servers as support
from tests.support.browser import ARTIFACTS, resize, skip_without_chromium

pytestmark = [pytest.mark.e2e, pytest.mark.slow(minutes=2)]

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 900}
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
SHOTS = ARTIFACTS / "phone-pages"
UPDATE_DOC_IMAGES = bool(os.environ.get("UPDATE_DOC_IMAGES"))
# The handbook's phone pictures, of the demo championship (as `make run`
# shows it): file name, page, large print, what to scroll to the top (the
# standings' state, as the picture always showed it). The referee's
# entry page is added by the test (a table still without a result).
DEMO = "/t/rm-2026"
DOC_PICTURES = [
    ("phone-tournament", f"{DEMO}/", False, None),
    ("phone-where", f"{DEMO}/wo-sitze-ich/?q=1", False, None),
    ("phone-standings", f"{DEMO}/tabelle/", False, None),
    ("phone-standings-large", f"{DEMO}/tabelle/", True, ".standings-state"),
    ("phone-series-results", f"{DEMO}/serie/1/ergebnisse/", False, None),
]

# Django's own admin, not the site's pages (its index stands for it in the
# matrix, an organizer's only).
DJANGOS = ("/admin/",)

# --- What the browser measures ------------------------------------------------

# An element named for a failure message: tag, id or first class, its text.
DESCRIBE = """
const describe = (el) => {
  let name = el.tagName.toLowerCase();
  if (el.id) name += "#" + el.id;
  else if (el.classList.length) name += "." + el.classList[0];
  const text = (el.getAttribute("aria-label") || el.innerText || el.value
    || el.getAttribute("name") || "").trim().replace(/\\s+/g, " ");
  return text ? `${name} "${text.slice(0, 40)}"` : name;
};
"""

WIDER_THAN_THE_SCREEN = (
    "() => {"
    + DESCRIBE
    + """
  const root = document.documentElement;
  const width = root.clientWidth;
  const found = [];
  if (root.scrollWidth > width) {
    found.push(`the page is ${root.scrollWidth} px wide (screen ${width} px)`);
  }
  // Layout boxes, not what a scrolling box shows: a table cut off inside a
  // box that scrolls by itself still reaches past the edge.
  const past = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (past.some((p) => p.contains(el))) continue;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || box.right <= width + 0.5) continue;
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    past.push(el);
    found.push(`${describe(el)} reaches ${Math.round(box.right)} px`);
  }
  // A table wider than its box: cut off, or lying under the next card (as
  // a series' tables on a laptop did).
  for (const table of document.querySelectorAll("table")) {
    const box = table.getBoundingClientRect();
    const room = table.parentElement.getBoundingClientRect();
    if (box.width && box.right > room.right + 0.5
        && table.checkVisibility({ visibilityProperty: true })) {
      const over = Math.round(box.right - room.right);
      found.push(`${describe(table)}: ${over} px wider than its box`);
    }
  }
  // A field's hint cut off ("Name oder Nr" of "Name oder Nr."): its text
  // against the room inside the field (a search field keeps 1 em for its
  // clear button).
  const ruler = document.createElement("span");
  ruler.style.cssText = "position: absolute; visibility: hidden; white-space: pre";
  document.body.append(ruler);
  for (const field of document.querySelectorAll("input[placeholder]")) {
    if (field.value || !field.checkVisibility({ visibilityProperty: true })) continue;
    const style = getComputedStyle(field);
    ruler.style.font = style.font;
    ruler.textContent = field.placeholder;
    const clear = field.type === "search" ? parseFloat(style.fontSize) : 0;
    const room = field.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight) - clear;
    const needs = Math.round(ruler.getBoundingClientRect().width);
    if (needs > room) {
      const hint = `the hint "${field.placeholder}"`;
      found.push(`${hint} is cut: ${needs} px in ${Math.round(room)}`);
    }
  }
  ruler.remove();
  return found;
}"""
)

TARGETS = (
    "a[href], button, input:not([type=hidden]), select, textarea, summary, "
    "[role=button]"
)

SMALL_TAP_TARGETS = (
    "([selector, size, least]) => {"
    + DESCRIBE
    + """
  const targets = [];
  const union = (a, b) => {
    const left = Math.min(a.left, b.left), top = Math.min(a.top, b.top);
    const right = Math.max(a.right, b.right), bottom = Math.max(a.bottom, b.bottom);
    return { left, top, right, bottom, width: right - left, height: bottom - top };
  };
  // A link in running text: inline, in a block that has words of its own.
  const inText = (el) => {
    if (el.tagName !== "A" || getComputedStyle(el).display !== "inline") return false;
    let block = el.parentElement;
    while (block && getComputedStyle(block).display.startsWith("inline")) {
      block = block.parentElement;
    }
    if (!block) return false;
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const owner = node.parentElement.closest(selector);
      if ((!owner || !block.contains(owner)) && /[\\p{L}\\p{N}]/u.test(node.data)) {
        return true;
      }
    }
    return false;
  };
  for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    // Not a target where a tap does nothing (the projector's links).
    if (getComputedStyle(el).pointerEvents === "none") continue;
    let box = el.getBoundingClientRect();
    if (!box.width || !box.height || box.right <= 0 || box.bottom + scrollY <= 0) {
      continue;  // hidden, or kept off the screen (the skip link)
    }
    if (inText(el)) continue;
    const isChoice = el.matches("input[type=checkbox], input[type=radio]");
    for (const label of isChoice ? el.labels : []) {
      box = union(box, label.getBoundingClientRect());
    }
    targets.push({
      el, box, cx: (box.left + box.right) / 2, cy: (box.top + box.bottom) / 2,
      small: box.width < size || box.height < size,
      labels: isChoice ? [...el.labels] : [],
    });
  }
  const related = (a, b) => a.el.contains(b.el) || b.el.contains(a.el)
    || a.labels.some((l) => l.contains(b.el)) || b.labels.some((l) => l.contains(a.el));
  // The distance from a point to a box (0 inside it).
  const reach = (x, y, box) => Math.hypot(
    Math.max(box.left - x, 0, x - box.right), Math.max(box.top - y, 0, y - box.bottom));
  const found = [];
  const px = (box) => `${Math.round(box.width)}×${Math.round(box.height)} px`;
  for (const t of targets) {
    if (!t.small) continue;
    if (t.box.width < least || t.box.height < least) {
      found.push(`${describe(t.el)}: ${px(t.box)}`);
      continue;
    }
    const near = targets.find((u) => u !== t && !related(t, u) && (
      reach(t.cx, t.cy, u.box) < size / 2
      || (u.small && Math.hypot(t.cx - u.cx, t.cy - u.cy) < size)));
    if (near) {
      found.push(`${describe(t.el)}: ${px(t.box)}, ${describe(near.el)} too near`);
    }
  }
  return found;
}"""
)

WRAPPED_NAVIGATION = (
    "() => {"
    + DESCRIBE
    + """
  const found = [];
  for (const el of document.querySelectorAll(
      ".site-header a, .site-header button, .site-header summary")) {
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    // A text's boxes, one per line it stands on.
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const lines = new Set([...range.getClientRects()]
        .filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) {
        found.push(`${describe(el)} on ${lines.size} lines`);
        break;
      }
    }
  }
  return found;
}"""
)


# --- The server and the pages -------------------------------------------------


@dataclass(frozen=True)
class Page:
    """A row of the matrix as one actor (or several with the same cookies)
    opens it."""

    row: str
    actors: tuple[str, ...]
    path: str
    session: str | None

    @property
    def name(self) -> str:
        return f"{self.row} [{', '.join(self.actors)}]"


@dataclass
class Site:
    base: str
    cookie: str  # the session cookie's name
    phone: list[Page]
    organizer: list[Page]
    not_pages: list[str]  # 200 rows that answer with JSON, a file, a fragment


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    skip_without_chromium()  # before the seeding, which takes seconds
    env = support.server_env(tmp_path_factory.mktemp("phone-pages"), DEBUG="1")
    world = support.run_seed(env, "tests.e2e.matrix_world")
    port = support.free_port()
    process = support.start_server(env, port)
    try:
        support.wait_until_up(port, process)
        yield _pages(port, world)
    finally:
        support.stop(process)


def _pages(port: int, world: dict) -> Site:
    """The matrix's 200 cells as pages to open: phones' and the organizer's,
    once per path and cookie (the player's link is anonymous but for its
    own table), HTML documents only."""
    phone: dict[tuple[str, str | None], Page] = {}
    organizer: list[Page] = []
    not_pages: list[str] = []
    for row in world["rows"]:
        for actor in (*PHONE_ACTORS, ORGANIZER):
            if row["codes"][actor] != "200" or row["paths"][actor] in DJANGOS:
                continue
            session = world["sessions"].get(actor)
            page = Page(row["id"], (actor,), row["paths"][actor], session)
            headers = {"Cookie": f"{world['cookie']}={session}"} if session else {}
            status, message, body = support.request(port, "GET", page.path, "", headers)
            assert status == 200, f"{page.name}: {status}, the matrix says 200"
            document = message.get_content_type() == "text/html" and (
                body.lstrip()[:15].lower() == b"<!doctype html>"
            )
            if not document:
                not_pages.append(page.name)
            elif actor == ORGANIZER:
                organizer.append(page)
            elif (key := (page.path, session)) in phone:
                seen = phone[key]
                phone[key] = Page(seen.row, (*seen.actors, actor), seen.path, session)
            else:
                phone[key] = page
    return Site(
        f"http://127.0.0.1:{port}",
        world["cookie"],
        list(phone.values()),
        organizer,
        not_pages,
    )


# --- One visit of every page, the tests below judge it ------------------------


@dataclass(repr=False)  # pytest would print it all with every failure
class Survey:
    """What the visits found, per page opened ("where")."""

    audit: Audit  # axe's findings and CSP refusals
    pages: list[str] = field(default_factory=list)
    wide: dict[str, list[str]] = field(default_factory=dict)
    taps: dict[str, list[str]] = field(default_factory=dict)
    wrapped: dict[str, list[str]] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def note(self, found: dict[str, list[str]], where: str, problems: list[str]):
        if problems:
            found[where] = problems


class Tab:
    """One browser page per kind of visitor, reused for every page it opens;
    console errors and uncaught exceptions are kept per page opened."""

    def __init__(
        self,
        browser,
        site: Site,
        survey: Survey,
        viewport,
        *,
        session,
        large=False,
        scale=1,
    ):
        self.context = browser.new_context(
            viewport=viewport, device_scale_factor=scale, locale="de-DE"
        )
        cookies = []
        if session:
            cookies.append({"name": site.cookie, "value": session})
        if large:
            cookies.append({"name": "large_print", "value": "1"})
        self.context.add_cookies([{**c, "url": site.base} for c in cookies])
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.site, self.survey, self.where = site, survey, ""
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: survey.errors[self.where].append(str(e)))
        survey.audit.watch(self.page)

    def _console(self, message) -> None:
        if message.type == "error":
            self.survey.errors[self.where].append(message.text)

    def open(self, page: Page, where: str):
        self.where = where
        self.survey.pages.append(where)
        response = self.page.goto(self.site.base + page.path, wait_until="load")
        assert response and response.status == 200, f"{where}: {response}"
        return self.page

    def shot(self, name: str, *, full_page=True, folder=SHOTS, top=None) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        if top:
            self.page.locator(top).evaluate("(el) => el.scrollIntoView()")
        else:
            self.page.evaluate("window.scrollTo(0, 0)")
        self.page.screenshot(path=str(folder / f"{name}.png"), full_page=full_page)

    def close(self) -> None:
        self.context.close()


def _file_name(where: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in where).strip("-")


@pytest.fixture(scope="module")
def survey(browser, site):
    survey = Survey(Audit(site.base))
    by_session: dict[str | None, list[Page]] = defaultdict(list)
    for page in site.phone:
        by_session[page.session].append(page)

    for session, pages in by_session.items():
        for large in (False, True):
            tab = Tab(browser, site, survey, PHONE, session=session, large=large)
            try:
                for page in pages:
                    where = f"{page.name} at 360 px" + (", large print" * large)
                    opened = tab.open(page, where)
                    wide = opened.evaluate(WIDER_THAN_THE_SCREEN)
                    survey.note(survey.wide, where, wide)
                    if not large:
                        survey.audit.check(opened, where)
                        taps = opened.evaluate(SMALL_TAP_TARGETS, [TARGETS, 44, 24])
                        survey.note(survey.taps, where, taps)
                    if wide or UPDATE_DOC_IMAGES:
                        tab.shot(_file_name(where))
            finally:
                tab.close()

    session = site.organizer[0].session if site.organizer else None
    # axe has seen the public and the referees' pages already: as the
    # organizer only their navigation differs, and it is on his own pages.
    seen = {page.row for page in site.phone}
    # The laptop's page is the phone's made wider: the server sends one
    # page to every width.
    tab = Tab(browser, site, survey, PHONE, session=session)
    try:
        for page in site.organizer:
            opened = tab.open(page, f"{page.name} at 360 px")
            for viewport in (PHONE, LAPTOP):
                where = tab.where = f"{page.name} at {viewport['width']} px"
                if viewport is PHONE:
                    if page.row not in seen:
                        survey.audit.check(opened, where)
                else:
                    survey.pages.append(where)
                    resize(opened, LAPTOP)
                    wrapped = opened.evaluate(WRAPPED_NAVIGATION)
                    survey.note(survey.wrapped, where, wrapped)
                survey.note(survey.wide, where, opened.evaluate(WIDER_THAN_THE_SCREEN))
                if where in survey.wide or UPDATE_DOC_IMAGES:
                    tab.shot(_file_name(where))
            opened.set_viewport_size(PHONE)
    finally:
        tab.close()

    return survey


def _report(found: dict[str, list[str]]) -> str:
    return "".join(
        f"\n{where}:" + "".join(f"\n  {line}" for line in lines)
        for where, lines in found.items()
    )


# --- The checks -----------------------------------------------------------------


def test_every_phone_page_of_the_matrix_is_opened(site, survey):
    rows = {page.row for page in site.phone}
    # The pages a player, a spectator and a referee live on, by name: a
    # change of the matrix or its world cannot drop them unnoticed.
    assert {
        "home-GET",
        "detail-GET",
        "where-GET",
        "standings-GET",
        "series_results-GET",
        "player-GET",
        "projector-GET",
        "practice-GET",
        "digital_play-GET",
        "results-GET",
        "table_result-GET",
        "digital_watch-GET",
        "login-GET",
    } <= rows, f"opened {sorted(rows)}; not HTML pages: {site.not_pages}"
    assert any("link" in page.actors and "/d/" in page.path for page in site.phone)
    assert len(survey.pages) >= 2 * len(site.phone) + 2 * len(site.organizer)


def test_nothing_is_wider_than_the_screen_or_its_box(survey):
    assert not survey.wide, "too wide (the width is in each page's name):" + _report(
        survey.wide
    )


def test_no_serious_accessibility_problem(survey):
    survey.audit.assert_clean()


def test_no_page_logs_an_error(survey):
    errors = {where: lines for where, lines in survey.errors.items() if lines}
    assert not errors, "errors in the browser's console:" + _report(errors)


def test_tap_targets_on_phone_pages_are_44_px_or_spaced(survey):
    assert not survey.taps, (
        "tap targets under 44 × 44 px without 44 px of room around their "
        "centre (or under 24 px):" + _report(survey.taps)
    )


def test_no_word_of_the_organizers_navigation_wraps_at_1366_px(survey):
    assert not survey.wrapped, "navigation wrapped at 1366 px:" + _report(
        survey.wrapped
    )


# --- The handbook's pictures ------------------------------------------------------


@pytest.fixture
def demo_server(tmp_path):
    if not UPDATE_DOC_IMAGES:
        pytest.skip("UPDATE_DOC_IMAGES=1 draws the handbook's phone pictures")
    skip_without_chromium()
    env = support.server_env(tmp_path, DEBUG="1")
    yield from support.serve_after(env, ["demo", "--complete", "3"])


def test_the_readmes_phone_pictures(browser, demo_server):
    """The top of each page as a phone of twice the pixels shows it, and
    the whole page at 1366 px beside it in test-artifacts/phone-pages/."""
    base = f"http://127.0.0.1:{demo_server}"
    _, cookies = support.http_sign_in(demo_server, "referee", "referee-demo")
    referee = cookies.split("sessionid=")[1]
    pictures = [(*picture, None) for picture in DOC_PICTURES]
    survey = Survey(Audit(base))
    site = Site(base, "sessionid", [], [], [])
    tab = Tab(browser, site, survey, PHONE, session=referee)
    try:
        tab.page.goto(f"{base}{DEMO}/eingabe/")
        missing = tab.page.locator("a.chip-missing").first.get_attribute("href")
        pictures.append(("phone-result-entry", missing, False, None, referee))
    finally:
        tab.close()
    for name, path, large, top, session in pictures:
        page = Page(name, ("demo",), path, session)
        for viewport, scale in ((PHONE, 2), (LAPTOP, 1)):
            tab = Tab(
                browser,
                site,
                survey,
                viewport,
                session=session,
                large=large,
                scale=scale,
            )
            try:
                tab.open(page, name)
                if tab.page.locator(".live-status").count():
                    tab.page.wait_for_selector(".live-status[data-live-state='live']")
                if viewport is PHONE:
                    tab.shot(name, full_page=False, folder=DOCS_IMG, top=top)
                else:
                    tab.shot(f"readme-{name}-1366")
            finally:
                tab.close()
    errors = {where: lines for where, lines in survey.errors.items() if lines}
    assert not errors, _report(errors)
