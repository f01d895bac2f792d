"""utils.exercise_cases: seeded cases, the smallest failing case reported with the expected and the received value."""

from __future__ import annotations

import math

import pytest
import torch

from utils.exercise_cases import (
    CaseFailed,
    build_cases,
    case,
    check_on_cases,
    compare_on_cases,
    first_difference,
    greedy_cases,
    greedy_margins,
    sample_grid,
    seeded_tensor,
    text_prompts,
    tie_free,
)
from utils.transformer import TransformerConfig, TransformerLM


def _square(x: int) -> int:
    return x * x


def test_sample_grid_is_seeded_distinct_and_starts_at_the_smallest_corner() -> None:
    grid = sample_grid(3, 10, n_heads=range(2, 17), T=range(1, 65))
    assert [c.kwargs for c in grid] == [c.kwargs for c in sample_grid(3, 10, n_heads=range(2, 17), T=range(1, 65))]
    assert grid[0].kwargs == {"n_heads": 2, "T": 1}
    assert len({tuple(c.kwargs.values()) for c in grid}) == 10
    assert all(2 <= c.kwargs["n_heads"] <= 16 and 1 <= c.kwargs["T"] <= 64 for c in grid)
    assert [c.kwargs for c in sample_grid(4, 10, n_heads=range(2, 17), T=range(1, 65))] != [c.kwargs for c in grid]


def test_sample_grid_gives_every_combination_when_there_are_few() -> None:
    grid = sample_grid(0, 50, a=(1, 2), b=("x", "y", "z"))
    assert sorted(tuple(c.kwargs.values()) for c in grid) == [(a, b) for a in (1, 2) for b in ("x", "y", "z")]


@pytest.mark.parametrize("axes", [{}, {"a": []}])
def test_sample_grid_refuses_empty_axes(axes: dict) -> None:
    with pytest.raises(ValueError, match="at least one axis"):
        sample_grid(0, 5, **axes)


def test_build_cases_keeps_the_sizes_as_label_order_and_context() -> None:
    sizes = sample_grid(1, 6, T=range(1, 9), d=(2, 4))
    built = build_cases(sizes, lambda T, d, seed: {"x": seeded_tensor((T, d), seed)})
    assert [c.label for c in built] == [c.label for c in sizes]
    assert [c.size for c in built] == [c.size for c in sizes]
    assert all(c.kwargs["x"].shape == (c.context["T"], c.context["d"]) for c in built)
    again = build_cases(sizes, lambda T, d, seed: {"x": seeded_tensor((T, d), seed)})
    assert all(torch.equal(a.kwargs["x"], b.kwargs["x"]) for a, b in zip(built, again))


def test_tie_free_rows_have_gaps() -> None:
    table = tie_free((5, 3, 40), seed=2, gap=0.05)
    assert table.shape == (5, 3, 40)
    ordered = table.reshape(-1, 40).sort(dim=-1).values
    assert float((ordered[:, 1:] - ordered[:, :-1]).min()) >= 0.05
    assert torch.equal(table, tie_free((5, 3, 40), seed=2, gap=0.05))


def test_first_difference_names_the_entry_shape_and_type() -> None:
    assert first_difference(torch.ones(3), torch.ones(3)) is None
    assert "index (1,): expected 1, received 5" in first_difference(torch.ones(3), torch.tensor([1.0, 5.0, 1.0]))
    assert "expected shape (3,), received shape (4,)" in first_difference(torch.ones(3), torch.ones(4))
    assert "received a list" in first_difference(torch.ones(3), [1.0, 1.0, 1.0])
    assert "received nan" in first_difference(torch.ones(2), torch.tensor([1.0, math.nan]))
    assert "position 2" in first_difference([1, 2, 3], [1, 2, 4])
    assert "expected 3 values, received 2" in first_difference([1, 2, 3], [1, 2])
    assert first_difference(0.5, 0.5 + 1e-9) is None
    assert first_difference(7, 7.0) is not None, "an int is asked for, a float is not the same answer"


def test_compare_reports_the_smallest_failing_case() -> None:
    wrong = lambda x: x * x if x < 5 else x * x + 1  # noqa: E731 - right on the small cases only
    cases = [case(x=x) for x in (9, 2, 7, 5, 1)]
    with pytest.raises(CaseFailed) as failed:
        compare_on_cases(wrong, _square, cases, "square")
    message = str(failed.value)
    assert message.startswith("square(x=5): expected 25, received 26")
    assert "the smallest failing case of 5; 2 smaller cases passed" in message
    assert compare_on_cases(_square, _square, cases, "square") == 5


def test_compare_reports_what_the_function_raised() -> None:
    def broken(x: int) -> int:
        raise ValueError(f"cannot do {x}")

    with pytest.raises(CaseFailed, match=r"square\(x=1\) raised ValueError: cannot do 1"):
        compare_on_cases(broken, _square, [case(x=3), case(x=1)], "square")


def test_arguments_are_positional_and_cloned_and_the_reference_answers_first() -> None:
    calls = []

    def reference(values: torch.Tensor) -> torch.Tensor:
        calls.append("reference")
        return values * 2

    def student(renamed: torch.Tensor) -> torch.Tensor:  # another parameter name: still graded
        calls.append("student")
        renamed.mul_(2)  # writes into its argument
        return renamed

    shared = torch.ones(3)
    with pytest.raises(CaseFailed, match=r"it changed its argument `values` in place"):  # a defect, unless allowed:
        compare_on_cases(student, reference, [case(values=shared), case(values=shared)], "double")
    calls.clear()
    assert compare_on_cases(student, reference, [case(values=shared), case(values=shared)], "double",
                            may_change=["values"]) == 2
    assert calls == ["reference", "reference", "student", "student"]
    assert torch.equal(shared, torch.ones(3)), "the case's own tensor is never handed out"


def test_check_on_cases_reports_the_judges_reason_and_a_judge_that_cannot_read_the_answer() -> None:
    judge = lambda current, out: None if out % 2 == 0 else f"{out} is odd"  # noqa: E731
    with pytest.raises(CaseFailed, match=r"double\(n=3\): 7 is odd"):
        check_on_cases(lambda n: 2 * n + (n == 3), [case(n=n) for n in (1, 3, 8)], "double", judge)
    with pytest.raises(CaseFailed, match=r"the result cannot be checked \(TypeError"):
        check_on_cases(lambda n: "text", [case(n=1)], "double", judge)


def test_text_prompts_are_seeded_slices() -> None:
    tokens = torch.arange(100)
    prompts = text_prompts(tokens, seed=1, count=6, lengths=range(2, 9))
    assert prompts == text_prompts(tokens, seed=1, count=6, lengths=range(2, 9))
    assert all(2 <= len(p) <= 8 and p == list(range(p[0], p[0] + len(p))) for p in prompts)
    with pytest.raises(ValueError, match="1-D tensor"):
        text_prompts([1, 2, 3], seed=0, count=1, lengths=[1])


@torch.no_grad()
def _greedy(model, prompt: list[int], n: int) -> list[int]:
    ids = list(prompt)
    for _ in range(n):
        ids.append(int(model(torch.tensor([ids]))[0, -1].argmax()))
    return ids[len(prompt):]


def test_greedy_margins_and_cases_on_a_small_transformer() -> None:
    torch.manual_seed(0)
    model = TransformerLM(TransformerConfig(11, context_length=32, n_layer=1, n_head=2, d_model=16, positional="rotary")).eval()
    prompt = [1, 2, 3]
    continuation = _greedy(model, prompt, 6)
    margins = greedy_margins(model, prompt, continuation)
    assert margins.shape == (6,) and bool((margins >= 0).all()), "the greedy tokens are the argmax at every step"
    other = list(continuation)
    other[2] = (other[2] + 1) % 11
    assert float(greedy_margins(model, prompt, other)[2]) < 0
    cases = greedy_cases(model, [prompt, [4, 5]], 6, _greedy, margin=0.0)
    assert [c.kwargs["prompt"] for c in cases] == [prompt, [4, 5]]
    assert cases[0].context["expected"] == continuation
    assert compare_on_cases(_greedy, None, cases, "greedy") == 2
    with pytest.raises(ValueError, match="no prompt has a decisive"):
        greedy_cases(model, [prompt], 6, _greedy, margin=1e9)


class _Agreeable(torch.Tensor):
    """A tensor subclass that says yes to every comparison (a bypass a judge must not fall for)."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func in (torch.isclose, torch.allclose, torch.equal):
            return True if func is not torch.isclose else torch.ones_like(args[0], dtype=torch.bool)
        return super().__torch_function__(func, types, args, kwargs or {})


def test_a_tensor_subclass_or_a_list_subclass_is_not_an_answer() -> None:
    liar = lambda T: torch.zeros(T).as_subclass(_Agreeable)  # noqa: E731
    with pytest.raises(CaseFailed, match="return a plain torch.Tensor, not a _Agreeable"):
        compare_on_cases(liar, torch.ones, [case(T=3)], "ones")
    with pytest.raises(CaseFailed, match="return a plain torch.Tensor"):
        check_on_cases(lambda T: (torch.ones(T), liar(T)), [case(T=2)], "pair", lambda current, out: None)

    class Fake(list):
        pass

    assert "received a Fake" in first_difference([1, 2], Fake([1, 2]))


def test_an_answer_that_changes_its_inputs_in_place_fails_unless_allowed():
    from utils.exercise_cases import CaseFailed, case, compare_on_cases

    cases = [case(f"x of {n}", size=n, x=torch.arange(float(n)), scale=torch.tensor(2.0)) for n in (1, 3, 5)]
    double = lambda x, scale: x * scale  # noqa: E731
    assert compare_on_cases(double, double, cases, "double") == 3
    with pytest.raises(CaseFailed, match=r"double\(x of 3\): it changed its argument `x` in place"):
        compare_on_cases(lambda x, scale: x.mul_(scale), double, cases, "double")
    with pytest.raises(CaseFailed, match=r"changed its argument `scale` in place"):
        compare_on_cases(lambda x, scale: x * scale.add_(1.0) - x, double, cases, "double")  # right values, scale changed
    assert compare_on_cases(lambda x, scale: x.mul_(scale), double, cases, "double", may_change=["x"]) == 3
    # an input holding NaN that the answer leaves alone is not "changed" (NaN is not equal to itself)
    with_nan = [case("nan", size=1, x=torch.tensor([float("nan"), 1.0]))]
    assert compare_on_cases(torch.nan_to_num, torch.nan_to_num, with_nan, "nan_to_num") == 1
