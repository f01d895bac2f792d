"""The site's view of notebook 01's widget: every model's surprisals, precomputed, drawn as SVG bars in the browser.

On the static site there is no kernel to redraw the matplotlib figure, so the widget ships each model's
bits for the shown text in `payload`; the model picker's index is linked to `index` in the browser (jslink), and
static/surprisal_bars.js draws the bars. In JupyterLab the view hides itself and the kernel figure is shown.
"""

from __future__ import annotations

import anywidget
import traitlets

from utils.i18n.text import mark
from utils.widgets.view_text import view_module, view_text

MESSAGES = (mark("{model}: surprisal of each token given the ones before"), mark("surprisal (bits)"),
            mark("{count} predictions · total {total:.1f} bits · {mean:.2f} bits/token · perplexity {perplexity:.1f}"))


def surprisal_payload(symbols: list[str], scores: dict[str, list[float]], ymax: float) -> dict:
    """What the browser view needs: token labels, the models in picker order with their bits per token, the bits axis."""
    return {"models": list(scores), "symbols": list(symbols), "scores": {name: [float(b) for b in bits] for name, bits in scores.items()},
            "ymax": float(ymax)}


class SurprisalView(anywidget.AnyWidget):
    """SVG bars of the precomputed surprisals of the model at `index` of the picker (site only)."""

    _esm = view_module("surprisal_bars.js")
    payload = traitlets.Dict().tag(sync=True)
    index = traitlets.Int(0).tag(sync=True)  # the model picker's index (jslink)
    view_text = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(view_text=view_text(MESSAGES), **kwargs)
        self.add_class("lm-site-view")
