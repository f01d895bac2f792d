"""Chinese in every figure: the CJK font requirements.txt installs, registered with matplotlib at `import utils`.

The font is Noto Sans CJK (Regular, SIL Open Font License 1.1) from the pip package
`noto-cjk-sans-otc`: one OpenType collection whose faces are the SC, TC, HK, JP and KR variants
of the same design; the course uses its Simplified Chinese face, "Noto Sans CJK SC". The file is
byte-identical to Debian's fonts-noto-cjk NotoSansCJK-Regular.ttc (version 2.004), so a pip
install and Debian's package draw alike. matplotlib (>= 3.10) registers every face of the
collection.

The family is appended to rcParams["font.family"] (after "sans-serif"), so matplotlib's font
fallback draws Latin letters, digits and the minus sign in DejaVu Sans as before and every
Chinese character in the CJK face: a Chinese title never draws as boxes. Without the package
(a set-up that skipped requirements.txt) the first CJK font the system has is used instead.
"""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path

CJK_PACKAGE = "noto_cjk_sans_otc"  # pip: noto-cjk-sans-otc (requirements.txt)
CJK_FILE = "NotoSansCJK-Regular.ttc"
CJK_FAMILY = "Noto Sans CJK SC"  # the collection's Simplified Chinese face

# System fonts with CJK glyphs, used only when the package is missing: Linux (Noto / Source Han,
# WenQuanYi, AR PL), macOS (PingFang, Hiragino, Heiti), Windows (Microsoft YaHei, SimHei, DengXian).
SYSTEM_CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "Source Han Sans CN", "PingFang SC",
                    "Hiragino Sans GB", "Heiti SC", "STHeiti", "Microsoft YaHei", "DengXian", "SimHei",
                    "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "Noto Sans CJK JP", "Noto Serif CJK SC",
                    "AR PL UMing CN", "AR PL UKai CN")
INSTALL_HINT = "pip install -r requirements.txt (it installs noto-cjk-sans-otc)"


def packaged_cjk_font() -> Path | None:
    """The font file of the pip package, or None when the package is not installed."""
    spec = importlib.util.find_spec(CJK_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / CJK_FILE
    return path if path.is_file() else None


def _registered(path: Path) -> bool:
    """True when matplotlib's font list already holds a face of `path`."""
    from matplotlib import font_manager

    return any(Path(entry.fname) == path for entry in font_manager.fontManager.ttflist)


def cjk_font() -> str | None:
    """The CJK family figures fall back to: the packaged face if registered, else the first system one, else None."""
    from matplotlib import font_manager

    available = {entry.name for entry in font_manager.fontManager.ttflist}
    path = packaged_cjk_font()
    if path is not None and _registered(path):
        faces = {entry.name for entry in font_manager.fontManager.ttflist if Path(entry.fname) == path}
        # matplotlib < 3.10 registers only a collection's first face (the JP one): it draws Chinese too
        return CJK_FAMILY if CJK_FAMILY in faces else sorted(faces)[0]
    return next((family for family in SYSTEM_CJK_FONTS if family in available), None)


def register_cjk_font() -> str | None:
    """Register the packaged font with matplotlib and append a CJK family to the font fallback; return it.

    Safe to call again (use_lecture_style does, after rcParams were reset). Returns None, with a
    warning naming the fix, when neither the package nor a system CJK font is there.
    """
    import matplotlib as mpl
    from matplotlib import font_manager

    path = packaged_cjk_font()
    if path is not None and not _registered(path):
        font_manager.fontManager.addfont(path)
    family = cjk_font()
    if family is None:
        warnings.warn(f"no CJK font found: Chinese text in figures will draw as boxes; {INSTALL_HINT}", stacklevel=2)
        return None
    families = list(mpl.rcParams["font.family"])
    if family not in families:
        mpl.rcParams["font.family"] = [*families, family]
    return family
