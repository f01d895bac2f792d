"""Controls that need a running kernel (a new text, a new prefix, a kernel-drawn figure's sliders).

They carry the CSS class NEEDS_KERNEL; the static site (utils/site, templates/course) disables every
element with it and writes a visible note beside it, while browser-side interactions stay live.
"""

from __future__ import annotations

NEEDS_KERNEL = "lm-needs-kernel"


def needs_kernel(*controls) -> None:
    """Mark ipywidgets controls as needing the kernel (the static site disables them, with a note)."""
    for control in controls:
        control.add_class(NEEDS_KERNEL)
