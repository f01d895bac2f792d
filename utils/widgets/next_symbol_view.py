"""The site's view of notebook 02's widget: the next-symbol bars at every n, precomputed, drawn as SVG in the browser.

On the static site there is no kernel to redraw the matplotlib figure, so the widget ships, for the shown prefix and
smoothing, the most likely next symbols and their probabilities at each order n in `payload`; the n slider's value is
linked to `n` in the browser (jslink) and static/next_symbol_bars.js draws the bars. The smoothing, its strength, the
prefix and a new sample still need the kernel. In JupyterLab the view hides itself and the kernel figure is shown.
"""

from __future__ import annotations

import anywidget
import traitlets

from utils.i18n.text import mark
from utils.widgets.view_text import view_module, view_text

MESSAGES = (mark("n = {n}, {smoothing}: next symbol after {context!r}"), mark("p(next | prefix)"),
            mark("top {count} symbols hold {share:.0%} of the probability"))


def next_symbol_payload(smoothing: str, prefix: str, orders: dict[int, tuple[list[str], list[float]]]) -> dict:
    """What the browser view needs: the smoothing, the prefix, and for each n its top symbols and their probabilities."""
    return {"smoothing": smoothing, "prefix": prefix,
            "orders": {str(n): {"symbols": list(symbols), "probs": [float(p) for p in probs],
                                "context": prefix[-(n - 1):] if n > 1 else ""}
                       for n, (symbols, probs) in orders.items()}}


class NextSymbolView(anywidget.AnyWidget):
    """SVG bars of the precomputed next-symbol distribution at order `n` (site only)."""

    _esm = view_module("next_symbol_bars.js")
    payload = traitlets.Dict().tag(sync=True)
    n = traitlets.Int(1).tag(sync=True)  # the n slider's value (jslink)
    view_text = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(view_text=view_text(MESSAGES), **kwargs)
        self.add_class("lm-site-view")
