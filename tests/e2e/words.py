"""Words split across two lines ("Hilde|gard"), as a reader sees them: a
word whose letters the browser laid out on more than one line. A hyphen
or a dash is a place to break, not part of a word."""

SPLIT_WORDS = """(selector) => {
  const split = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      const word = /[^\\s\\-\\u2010-\\u2015]+/g;
      let found;
      while ((found = word.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, found.index);
        range.setEnd(node, found.index + found[0].length);
        const lines = new Set(
          [...range.getClientRects()].filter((r) => r.width > 0)
            .map((r) => Math.round(r.top))
        );
        if (lines.size > 1) split.push(found[0]);
      }
    }
  }
  return split;
}"""


def split_words(page, selector: str) -> list[str]:
    """The words inside `selector` that the page splits across lines."""
    return page.evaluate(SPLIT_WORDS, selector)
