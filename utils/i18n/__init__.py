"""The Chinese edition: translations kept as gettext PO files, built into notebooks/zh and lessons/zh.

One source of truth. The English notebooks and lessons are the originals; each translation file
(translations/zh/notebooks/<stem>.po, translations/zh/lessons/<stem>.po) records, for every English
markdown cell or lesson block, the English text it translated (`msgid`) and the Chinese (`msgstr`).
When the English changes, `sync` marks the entry fuzzy (gettext's word for "stale") and keeps the
previous English beside it, so the translator sees what changed. `build` writes the Chinese
notebooks (code cells copied unchanged from the English ones) and lessons; `status` lists what is
missing or stale. Command line: `python -m utils.i18n --help`.
"""

from utils.i18n.catalog import Status, status_of, sync_catalog, translate
from utils.i18n.layout import LANG, Source, find_source, sources

__all__ = ["LANG", "Source", "find_source", "Status", "sources", "status_of", "sync_catalog", "translate"]
