"""Builds Patch code for the second red team's mutants of 09/10 (tests/mutants/m09_redteam2.py, m10_redteam2.py)."""


def src_patch(module: str, qualname: str, replacements, rebind: str | None = None) -> str:
    """Code that re-defines module.qualname from its own source with `replacements` [(old, new)] applied.

    Asserts every `old` occurs exactly once (an inactive mutant fails loudly before the target).
    Only for plain functions or methods without zero-argument super(). `rebind`: a notebook name to rebind.
    """
    return f"""
import inspect as _mi, textwrap as _mt, importlib as _mil
_mm = _mil.import_module({module!r})
_mparts = {qualname!r}.split('.')
_mowner = _mm
for _mp in _mparts[:-1]:
    _mowner = getattr(_mowner, _mp)
_mobj = getattr(_mowner, _mparts[-1])
_msrc = _mt.dedent(_mi.getsource(_mobj))
for _mold, _mnew in {list(replacements)!r}:
    assert _msrc.count(_mold) == 1, 'MUTANT INACTIVE: ' + _mold
    _msrc = _msrc.replace(_mold, _mnew)
_mname = _mparts[-1]
_mprev = _mm.__dict__.get(_mname, None)
exec(compile(_msrc, '<mutant {qualname}>', 'exec'), _mm.__dict__)
_mnewobj = _mm.__dict__[_mname]
if _mprev is None:
    del _mm.__dict__[_mname]
else:
    _mm.__dict__[_mname] = _mprev
setattr(_mowner, _mname, _mnewobj)
print('MUTANT ACTIVE: {module}.{qualname}')
""" + (f"{rebind} = _mnewobj\n" if rebind else "")
