"""Accessibility checks for the browser tests: axe-core and the keyboard.

axe-core is vendored under static/vendor/axe/ for these tests only; no page
of the site loads it. It is added to the page under test as a script from
the site's own origin, so the strict CSP (no inline script) stays in force
while axe looks at the page."""

import time

SERIOUS = ("serious", "critical")
EVERY = ("minor", "moderate", "serious", "critical")
AXE_URL = "/static/vendor/axe/axe.min.js"

RUN_AXE = """async (impacts) => {
  const result = await window.axe.run(document, { resultTypes: ["violations"] });
  return result.violations
    .filter((v) => impacts.includes(v.impact))
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({
        target: n.target.join(" "),
        html: n.html.slice(0, 160),
        summary: n.failureSummary,
      })),
      more: Math.max(0, v.nodes.length - 5),
    }));
}"""


class Audit:
    """Runs axe on pages and remembers their violations of the given impacts
    (serious and critical unless told) per page, and any CSP refusal the
    browser reported, for one readable failure at the end of the test."""

    def __init__(self, base_url: str, impacts: tuple[str, ...] = SERIOUS) -> None:
        self.base_url = base_url
        self.impacts = impacts
        self.found: dict[str, list[dict]] = {}
        self.csp: list[str] = []
        self.pages: list[str] = []
        self.seconds = 0.0  # spent in axe

    def watch(self, page) -> None:
        """Note every CSP refusal on this page (inline script or style)."""

        def on_console(message) -> None:
            if "Content Security Policy" in message.text:
                self.csp.append(f"{page.url}: {message.text}")

        page.on("console", on_console)

    def check(self, page, name: str) -> None:
        started = time.monotonic()
        if not page.evaluate("() => typeof window.axe !== 'undefined'"):
            page.add_script_tag(url=self.base_url + AXE_URL)
        violations = page.evaluate(RUN_AXE, list(self.impacts))
        self.pages.append(name)
        self.seconds += time.monotonic() - started
        if violations:
            self.found[f"{name} ({page.url})"] = violations

    def report(self) -> str:
        lines = []
        for where, violations in self.found.items():
            lines.append(f"\n{where}:")
            for v in violations:
                lines.append(f"  [{v['impact']}] {v['id']}: {v['help']}")
                for node in v["nodes"]:
                    lines.append(f"      {node['target']}  {node['html']}")
                    summary = " ".join(node["summary"].split())
                    lines.append(f"        → {summary}")
                if v["more"]:
                    lines.append(f"      … and {v['more']} more")
        if self.csp:
            lines.append("\nContent Security Policy refusals:")
            lines.extend(f"  {line}" for line in self.csp)
        return "\n".join(lines)

    def assert_clean(self) -> None:
        assert not self.found and not self.csp, (
            f"accessibility problems (axe: {'/'.join(self.impacts)}):" + self.report()
        )


def tab_to(page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focused element matches `selector`."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(
            "(s) => !!document.activeElement && document.activeElement.matches(s)",
            selector,
        ):
            return
    focused = page.evaluate("() => document.activeElement?.outerHTML.slice(0, 120)")
    raise AssertionError(
        f"{limit} × Tab never reached {selector}; focus is on {focused}"
    )
