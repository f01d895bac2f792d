"""The course as a static site to read offline: `python -m utils.site build --out site/`.

Executes every notebook (full sizes; `--fast` for the test sizes), exports each to HTML with
its figures and the last state of its widgets (rendered by a vendored copy of
@jupyter-widgets/html-manager, formulas by a vendored MathJax; see vendor/README.md), and
writes an index page in course order. The pages load nothing from the network.
"""

from utils.site.build import Lesson, build_site, course_notebooks

__all__ = ["Lesson", "build_site", "course_notebooks"]
