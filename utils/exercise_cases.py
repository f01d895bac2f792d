"""Hidden tests that sample: a student's function checked on many generated cases, the smallest failure reported.

A hidden test cell stays short:

    from utils.exercise_cases import build_cases, compare_on_cases, sample_grid, seeded_tensor
    _sizes = sample_grid(2, 16, T=range(1, 65), d=range(2, 65, 2))
    _cases = build_cases(_sizes, lambda T, d, seed: {"x": seeded_tensor((T, d), seed)})
    compare_on_cases(my_rope, _reference, _cases, "my_rope")

`sample_grid` draws sizes (head counts, lengths, widths) with a seeded generator, the smallest corner
always among them, and `build_cases` turns each into the function's arguments (seeded tensors);
`compare_on_cases` computes the reference's answer to every case first, then calls the student's
function on each case from the smallest to the largest and stops at the first that differs, saying
which case it was (by its sizes) and the expected against the received value. `check_on_cases` does
the same with a judge instead of a reference (open-ended exercises: "any bias that keeps each head
local"). Random inputs come from seeded generators (`seeded_tensor`, `tie_free` for tables whose
entries never tie, `text_prompts` for prompts cut from a corpus) and `greedy_cases` keeps the prompts
on which a trained model's greedy choices are decisive, so every grade is the same on every run.
Functions are called with the case's arguments in order, positionally (a student who renamed a
parameter is still graded), and every tensor is cloned before each call: a function that writes into
its arguments changes nothing for the next call. Messages go through `tr()` (the student's language).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from utils.checks import CheckFailed
from utils.i18n.text import tr

SHOWN_ENTRIES = 8  # a value with more entries is shown by its shape and its first difference


class CaseFailed(CheckFailed):
    """The student's function failed one generated case; the message names the case and what differed."""


@dataclass(frozen=True)
class Case:
    """One call: its arguments by name, a size (smaller cases run first) and how the case is shown in a message."""

    kwargs: dict[str, Any]  # the arguments by name, in the order of the function's parameters
    size: float
    label: str
    context: dict[str, Any] = field(default_factory=dict)  # what a judge needs besides the arguments


def _size_of(value: Any) -> float:
    """How big an argument is: a number's value, a tensor's or a list's number of entries, else 0."""
    if isinstance(value, bool):
        return 0.0
    if isinstance(value, (int, float)):
        return abs(float(value))
    if isinstance(value, torch.Tensor):
        return float(value.numel())
    if isinstance(value, (list, tuple)):
        return float(len(value))
    return 0.0


def _label_of(value: Any) -> str:
    """A short description of an argument: a tensor by its shape, a long list by its length."""
    if isinstance(value, torch.Tensor):
        return tr("a tensor of shape {shape}", shape=tuple(value.shape))
    if isinstance(value, (list, tuple)) and len(value) > SHOWN_ENTRIES:
        return tr("{count} values", count=len(value))
    if isinstance(value, torch.nn.Module):
        return type(value).__name__
    return repr(value)


def case(label: str | None = None, size: float | None = None, context: Mapping[str, Any] | None = None,
         **kwargs: Any) -> Case:
    """A Case of these arguments (in this order); its size and label are derived from them unless given."""
    if size is None:
        size = sum(_size_of(value) for value in kwargs.values())
    if label is None:
        label = ", ".join(f"{name}={_label_of(value)}" for name, value in kwargs.items())
    return Case(dict(kwargs), float(size), label, dict(context or {}))


def sample_grid(seed: int, count: int, **axes: Iterable[Any]) -> list[Case]:
    """Up to `count` distinct combinations of the axes' values, drawn with a seeded generator; the first is the
    combination of every axis's first value, the rest follow in drawing order (sizes: `case`)."""
    values = {name: list(axis) for name, axis in axes.items()}
    empty = [name for name, axis in values.items() if not axis]
    if not values or empty or count < 1:
        raise ValueError(f"sample_grid needs at least one axis, no empty axis and count >= 1; got axes "
                         f"{sorted(values)}, empty {empty}, count {count}")
    total = math.prod(len(axis) for axis in values.values())
    rng = random.Random(seed)
    chosen = [tuple(axis[0] for axis in values.values())]
    attempts = 0
    while len(chosen) < min(count, total) and attempts < 100 * count:
        attempts += 1
        combination = tuple(rng.choice(axis) for axis in values.values())
        if combination not in chosen:
            chosen.append(combination)
    return [case(**dict(zip(values, combination))) for combination in chosen]


def build_cases(sizes: Sequence[Case], make: Callable[..., dict[str, Any]], seed: int = 0) -> list[Case]:
    """Cases whose arguments `make(seed=..., **sizes)` builds (tensors from seeds), shown and ordered by their sizes.

    The k-th case's `make` gets seed `seed + k`; the sizes stay in the case's context for a judge.
    """
    return [Case(make(seed=seed + k, **current.kwargs), current.size, current.label,
                 {**current.context, **current.kwargs}) for k, current in enumerate(sizes)]


def seeded_tensor(shape: Sequence[int], seed: int, scale: float = 1.0) -> torch.Tensor:
    """Standard normal float32 values of this shape, times `scale`, from a generator seeded `seed`."""
    generator = torch.Generator().manual_seed(seed)
    return scale * torch.randn(*shape, generator=generator)  # shape


def tie_free(shape: Sequence[int], seed: int, gap: float = 0.1) -> torch.Tensor:
    """Random float32 values of this shape whose entries along the last axis differ pairwise by at least `gap`.

    Each row is a random permutation of 0, 2 gap, 4 gap, ... plus noise below `gap`, shifted by a random
    offset: an argmax, a top-k or a beam over it has one right answer, whatever the rounding.
    """
    if not shape or shape[-1] < 1 or gap <= 0:
        raise ValueError(f"tie_free needs a shape with a last axis of at least 1 and gap > 0, got {tuple(shape)}, {gap}")
    generator = torch.Generator().manual_seed(seed)
    rows, width = math.prod(shape[:-1]), shape[-1]
    ranks = torch.stack([torch.randperm(width, generator=generator) for _ in range(rows)])  # (rows, width)
    noise = 0.9 * gap * torch.rand(rows, width, generator=generator)  # (rows, width): below the gap
    offset = 3.0 * torch.randn(rows, 1, generator=generator)  # (rows, 1)
    return (2 * gap * ranks + noise + offset).reshape(*shape)  # shape


def text_prompts(tokens: torch.Tensor, seed: int, count: int, lengths: Sequence[int]) -> list[list[int]]:
    """`count` prompts cut from a 1-D tensor of token ids (a corpus split) at seeded places, lengths drawn from `lengths`."""
    if not isinstance(tokens, torch.Tensor) or tokens.dim() != 1:
        raise ValueError("text_prompts needs a 1-D tensor of token ids, such as dataset.val of a text corpus")
    lengths = list(lengths)
    if not lengths or min(lengths) < 1 or max(lengths) >= tokens.numel():
        raise ValueError(f"prompt lengths must lie between 1 and {tokens.numel() - 1}, got {lengths}")
    rng = random.Random(seed)
    prompts = []
    for _ in range(count):
        length = rng.choice(lengths)
        start = rng.randrange(0, tokens.numel() - length)
        prompts.append(tokens[start : start + length].tolist())
    return prompts


@torch.no_grad()
def greedy_margins(model: Any, prompt: Sequence[int], continuation: Sequence[int]) -> torch.Tensor:
    """For each token of `continuation`: its logit minus the best other logit, after prompt + the tokens before it.

    One full forward pass over prompt + continuation (no generation): a positive margin at every step means
    the continuation is the greedy one, and a margin well above float32 rounding means it is decisively so.
    """
    ids = torch.tensor([list(prompt) + list(continuation)])  # (1, P + N)
    logits = model(ids)[0, len(prompt) - 1 : -1].double()  # (N, V): the logits each new token was chosen from
    chosen = torch.tensor(list(continuation))  # (N,)
    picked = logits.gather(1, chosen[:, None])[:, 0]  # (N,)
    others = logits.scatter(1, chosen[:, None], -math.inf).max(dim=1).values  # (N,)
    return picked - others  # (N,)


def greedy_cases(model: Any, prompts: Sequence[Sequence[int]], n_new: int, reference: Callable[..., list[int]],
                 margin: float = 1e-3, show: Callable[[Sequence[int]], str] | None = None) -> list[Case]:
    """Cases (model, prompt, n_new) of the prompts whose reference continuation is decisively greedy (`greedy_margins`
    above `margin` at every step), so that no rounding can make a right answer look wrong; labelled with `show`.

    Each case keeps the reference's continuation as context["expected"] (`compare_on_cases` with reference None).
    """
    cases = []
    for prompt in prompts:
        continuation = reference(model, list(prompt), n_new)
        if len(continuation) == n_new and float(greedy_margins(model, prompt, continuation).min()) > margin:
            label = tr("prompt {prompt}, n_new={n_new}", prompt=show(prompt) if show else list(prompt), n_new=n_new)
            cases.append(case(label=label, size=len(prompt) + n_new, context={"expected": continuation}, model=model,
                              prompt=list(prompt), n_new=n_new))
    if not cases:
        raise ValueError("no prompt has a decisive greedy continuation: give more prompts or a smaller margin")
    return cases


def _clone(value: Any) -> Any:
    """A copy of tensors (and of lists and tuples of them); anything else as it is."""
    if isinstance(value, torch.Tensor):
        return value.clone()
    if isinstance(value, list):
        return [_clone(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_clone(item) for item in value)
    return value


def _number(value: Any) -> str:
    """A number shown briefly."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _show(value: Any, show: Callable[[Any], str] | None) -> str:
    """A value as a message shows it: `show` if given, small tensors and lists in full, big ones by their shape."""
    if show is not None:
        return show(value)
    if isinstance(value, torch.Tensor):
        if value.numel() <= SHOWN_ENTRIES:
            return str([_number(v) for v in value.detach().flatten().tolist()]).replace("'", "") + \
                tr(" (shape {shape})", shape=tuple(value.shape))
        return tr("a tensor of shape {shape}", shape=tuple(value.shape))
    if isinstance(value, (list, tuple)) and len(value) > SHOWN_ENTRIES:
        return str(list(value[:SHOWN_ENTRIES]))[:-1] + ", ...]"
    return repr(value)


def first_difference(expected: Any, received: Any, atol: float = 1e-5, rtol: float = 1e-5,
                     show: Callable[[Any], str] | None = None) -> str | None:
    """Why `received` is not `expected` (None when it is): its type, its shape, or its first entry that differs."""
    if isinstance(expected, torch.Tensor):
        if type(received) is not torch.Tensor:  # a subclass could answer comparisons as it likes
            return tr("expected a tensor of shape {shape}, received a {kind}", shape=tuple(expected.shape),
                      kind=type(received).__name__)
        if tuple(received.shape) != tuple(expected.shape):
            return tr("expected shape {expected}, received shape {received}", expected=tuple(expected.shape),
                      received=tuple(received.shape))
        want, got = expected.detach().double().cpu(), received.detach().double().cpu()
        bad = ~torch.isclose(got, want, atol=atol, rtol=rtol)  # NaN is never close
        if not bool(bad.any()):
            return None
        index = tuple(int(i) for i in bad.nonzero()[0])
        where = tr("at index {index}: expected {expected}, received {received}", index=index,
                   expected=_number(float(want[index])), received=_number(float(got[index])))
        if expected.numel() <= SHOWN_ENTRIES:
            return where + tr("; expected {expected}, received {received}", expected=_show(expected, show),
                              received=_show(received, show))
        return where + tr(" ({count} of {total} entries differ)", count=int(bad.sum()), total=bad.numel())
    if isinstance(expected, (list, tuple)):
        if type(received) not in (list, tuple):  # a subclass could iterate as it likes
            return tr("expected a {kind} of {count} values, received a {received}", kind=type(expected).__name__,
                      count=len(expected), received=type(received).__name__)
        for position, (want_item, got_item) in enumerate(zip(expected, received)):
            reason = first_difference(want_item, got_item, atol, rtol)
            if reason is not None:
                return tr("first difference at position {position} ({reason}); expected {expected}, received "
                          "{received}", position=position, reason=reason, expected=_show(expected, show),
                          received=_show(received, show))
        if len(received) != len(expected):
            return tr("expected {count} values, received {received}: expected {expected_values}, received "
                      "{received_values}", count=len(expected), received=len(received),
                      expected_values=_show(expected, show), received_values=_show(received, show))
        return None
    if isinstance(expected, float):
        if isinstance(received, (int, float)) and not isinstance(received, bool) and \
                math.isclose(float(received), float(expected), abs_tol=atol, rel_tol=rtol):
            return None
    elif type(received) is type(expected) and received == expected:
        return None
    return tr("expected {expected}, received {received}", expected=_show(expected, show), received=_show(received, show))


def _foreign_tensor(output: Any) -> str | None:
    """Why `output` (or a tensor in a tuple or list of it) is not a plain torch.Tensor, None when it is or holds none.

    A subclass of torch.Tensor can answer every comparison and reduction a judge makes as it likes.
    """
    if isinstance(output, torch.Tensor) and type(output) is not torch.Tensor:
        return tr("return a plain torch.Tensor, not a {kind}", kind=type(output).__name__)
    if type(output) in (list, tuple):
        return next((reason for item in output if (reason := _foreign_tensor(item)) is not None), None)
    return None


def _same(before: Any, after: Any) -> bool:
    """Whether the tensors in `after` (alone or in lists and tuples) still equal their copies in `before`, NaN included."""
    if isinstance(before, torch.Tensor):
        return (isinstance(after, torch.Tensor) and before.shape == after.shape and before.dtype == after.dtype
                and bool(torch.equal(before, after) or torch.allclose(before, after, rtol=0.0, atol=0.0, equal_nan=True)))
    if isinstance(before, (list, tuple)):
        return isinstance(after, (list, tuple)) and len(before) == len(after) and all(map(_same, before, after))
    return True  # not a tensor: nothing copied to compare with


def _changed_argument(names: Sequence[str], before: Sequence[Any], after: Sequence[Any]) -> str | None:
    """The name of the first argument whose tensors differ from their copy taken before the call, None when none does."""
    return next((name for name, old, new in zip(names, before, after) if not _same(old, new)), None)


def check_on_cases(function: Callable[..., Any], cases: Iterable[Case], name: str,
                   judge: Callable[[Case, Any], str | None], may_change: Sequence[str] = ()) -> int:
    """Call `function` on every case, smallest first; CaseFailed at the first case `judge` finds fault with (its reason),
    on which `function` raises, or whose tensor arguments it changed in place (except those named in `may_change`).
    Returns the number of cases run.

    The message names the case by its label, not the kinds of cases: in a hidden-test block the grader cuts from the
    feedback any text of the block that the student cannot see, so say what the cases vary in the part's name
    (`utils.grading.parts.part`) or in the visible part of the cell.
    """
    ordered = sorted(cases, key=lambda c: c.size)
    if not ordered:
        raise ValueError("check_on_cases needs at least one case")
    for count, current in enumerate(ordered, start=1):
        arguments = _clone(list(current.kwargs.values()))
        untouched = _clone(arguments)  # to tell whether the call changed its arguments in place
        try:
            output = function(*arguments)
        except Exception as error:  # noqa: BLE001 - any failure of the student's code is reported, with the case
            raise CaseFailed(tr("{name}({case}) raised {error}: {detail} (the smallest failing case of {total})",
                                name=name, case=current.label, error=type(error).__name__, detail=error,
                                total=len(ordered))) from error
        checked = [key for key in current.kwargs if key not in may_change]
        changed = _changed_argument(checked, [untouched[i] for i, key in enumerate(current.kwargs) if key in checked],
                                    [arguments[i] for i, key in enumerate(current.kwargs) if key in checked])
        try:
            reason = (tr("it changed its argument `{argument}` in place: leave the inputs as they were and return a new "
                         "tensor", argument=changed) if changed is not None else None) \
                or _foreign_tensor(output) or judge(current, output)
        except Exception as error:  # noqa: BLE001 - an answer the judge cannot even read is a failed case
            reason = tr("the result cannot be checked ({error}: {detail})", error=type(error).__name__, detail=error)
        if reason is not None:
            raise CaseFailed(tr("{name}({case}): {reason} (the smallest failing case of {total}; {passed} smaller "
                                "cases passed)", name=name, case=current.label, reason=reason, total=len(ordered),
                                passed=count - 1))
    return len(ordered)


def compare_on_cases(student: Callable[..., Any], reference: Callable[..., Any] | None, cases: Iterable[Case],
                     name: str, atol: float = 1e-5, rtol: float = 1e-5,
                     show: Callable[[Any], str] | None = None, may_change: Sequence[str] = ()) -> int:
    """The student's function must give what the reference gives on every case (within atol/rtol for numbers):
    the reference answers every case first (None: each case's context["expected"]), then `check_on_cases` runs
    the student's. Returns the cases run."""
    ordered = sorted(cases, key=lambda c: c.size)
    if reference is None and any("expected" not in current.context for current in ordered):
        raise ValueError("compare_on_cases without a reference needs context['expected'] in every case")
    expected = [current.context["expected"] if reference is None else reference(*_clone(list(current.kwargs.values())))
                for current in ordered]  # every answer before the student's code runs once
    answers = {id(current): want for current, want in zip(ordered, expected)}
    return check_on_cases(student, ordered, name,
                          lambda current, output: first_difference(answers[id(current)], output, atol, rtol, show),
                          may_change)


__all__ = [
    "Case", "CaseFailed", "case", "sample_grid", "build_cases", "seeded_tensor", "tie_free", "text_prompts",
    "greedy_margins", "greedy_cases", "first_difference", "check_on_cases", "compare_on_cases",
]
