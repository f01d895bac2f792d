"""The precision policy (utils.device), its emulation on the CPU (utils.emulate_precision) and check_same."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest
import torch
import torch.nn.functional as F

from utils.device import (BF16_BITS, PRECISION_TIERS, TF32_BITS, apply_precision_policy, emulate_tier, get_device,
                          precision_tier, product_precision, training_autocast_dtype)
from utils.emulate_precision import ReducedPrecisionProducts, active_emulation, round_mantissa
from utils.emulate_rnn import run_recurrent_kernel
from utils.precision_check import NotSameComputation, check_same, tolerance_for


# ---- rounding -------------------------------------------------------------------------------------------------

def test_tf32_rounding_keeps_ten_bits_to_nearest_even():
    one = 1.0
    ulp = 2.0 ** -10  # TF32's spacing just above 1
    x = torch.tensor([one + ulp / 2, one + 3 * ulp / 2, one + ulp / 2 + 2.0 ** -20, -(one + 3 * ulp / 2), one + ulp])
    want = torch.tensor([one, one + 2 * ulp, one + ulp, -(one + 2 * ulp), one + ulp])  # ties go to the even mantissa
    assert torch.equal(round_mantissa(x, TF32_BITS), want)
    big = torch.randn(100_000) * 1e3
    relative = ((round_mantissa(big, TF32_BITS) - big) / big).abs().max()
    assert 2.0 ** -12 < relative <= 2.0 ** -11  # half a unit in the 10th bit, reached on 100k draws


def test_rounding_keeps_specials_and_overflows_to_infinity():
    x = torch.tensor([float("inf"), -float("inf"), float("nan"), 0.0, -0.0, torch.finfo(torch.float32).max])
    out = round_mantissa(x, TF32_BITS)
    assert out[0] == float("inf") and out[1] == -float("inf") and torch.isnan(out[2]) and out[3] == 0
    assert torch.signbit(out[4]) and out[5] == float("inf")  # the largest float rounds up past the top


def test_seven_bits_is_bf16_and_bad_requests_are_refused():
    x = torch.randn(10_000)
    assert torch.equal(round_mantissa(x, BF16_BITS), x.to(torch.bfloat16).float())
    assert torch.equal(round_mantissa(x, 23), x)
    with pytest.raises(ValueError, match="0 to 23 bits"):
        round_mantissa(x, 24)
    with pytest.raises(TypeError, match="float32"):
        round_mantissa(x.double(), 10)


# ---- the emulation ---------------------------------------------------------------------------------------------

A, B = torch.randn(3, 5, generator=torch.Generator().manual_seed(1)), torch.randn(5, 4, generator=torch.Generator().manual_seed(2))
PRODUCTS = {  # every spelling of a product the mode must catch, and the product of rounded factors it must equal
    "@": (lambda a, b: a @ b, lambda a, b: a @ b),
    "torch.matmul": (torch.matmul, torch.matmul),
    "Tensor.matmul": (lambda a, b: a.matmul(b), torch.matmul),
    "__rmatmul__": (lambda a, b: b.__rmatmul__(a), torch.matmul),
    "torch.mm(input=, mat2=)": (lambda a, b: torch.mm(input=a, mat2=b), torch.mm),
    "Tensor.mm": (lambda a, b: a.mm(b), torch.mm),
    "bmm": (lambda a, b: torch.bmm(a[None], b[None])[0], torch.mm),
    "addmm": (lambda a, b: torch.addmm(torch.ones(4) / 3, a, b), lambda a, b: torch.ones(4) / 3 + a @ b),
    "baddbmm": (lambda a, b: torch.baddbmm(torch.zeros(1, 3, 4), a[None], b[None])[0], torch.mm),
    "einsum": (lambda a, b: torch.einsum("ij,jk->ik", a, b), torch.mm),
    "einsum (list)": (lambda a, b: torch.einsum("ij,jk->ik", [a, b]), torch.mm),
    "tensordot": (lambda a, b: torch.tensordot(a, b, dims=1), torch.mm),
    "linear": (lambda a, b: F.linear(a, b.T, torch.ones(4) / 3), lambda a, b: a @ b + torch.ones(4) / 3),
    "nn.Linear": (lambda a, b: _linear(b)(a), lambda a, b: a @ b),
    "sdpa": (lambda a, b: F.scaled_dot_product_attention(a[None], a[None], b.T[None, :3])[0],
             lambda a, b: torch.softmax(a @ a.T / 5 ** 0.5, -1) @ b.T[:3]),
}


def _linear(weight_t: torch.Tensor) -> torch.nn.Linear:
    layer = torch.nn.Linear(weight_t.shape[0], weight_t.shape[1], bias=False)
    with torch.no_grad():
        layer.weight.copy_(weight_t.T)
    return layer


@pytest.mark.parametrize("name", list(PRODUCTS))
def test_every_spelling_of_a_product_has_its_factors_rounded(name):
    call, reference = PRODUCTS[name]
    with ReducedPrecisionProducts({"cublas": BF16_BITS}, name="test"):
        got = call(A, B)
    want = reference(round_mantissa(A, BF16_BITS), round_mantissa(B, BF16_BITS))
    assert torch.allclose(got, want, atol=1e-6)
    assert not torch.allclose(got, reference(A, B), atol=1e-4)  # and the rounding made a difference


def test_families_are_rounded_separately_and_non_products_not_at_all():
    x, w = torch.randn(2, 3, 16), torch.randn(4, 3, 5)
    with ReducedPrecisionProducts({"cudnn": TF32_BITS}, name="cudnn only"):
        assert torch.equal(A @ B, torch.matmul(A, B))  # cuBLAS family untouched
        assert torch.equal(torch.exp(A), A.exp()) and torch.equal(A + 1, A.add(1))
        got = F.conv1d(x, w)
    assert torch.allclose(got, F.conv1d(round_mantissa(x, TF32_BITS), round_mantissa(w, TF32_BITS)), atol=1e-6)
    assert not torch.equal(got, F.conv1d(x, w))
    with pytest.raises(ValueError, match="unknown product families"):
        ReducedPrecisionProducts({"tensor cores": 10}, name="bad")


def test_gradients_pass_through_the_rounding():
    weight = torch.randn(5, 4, requires_grad=True)
    with ReducedPrecisionProducts({"cublas": BF16_BITS}, name="test"):
        (A @ weight).sum().backward()
    assert torch.allclose(weight.grad, round_mantissa(A, BF16_BITS).sum(0)[:, None].expand(5, 4))


@pytest.mark.parametrize("module", [
    torch.nn.RNN(6, 8), torch.nn.RNN(6, 8, nonlinearity="relu", num_layers=2, batch_first=True),
    torch.nn.GRU(6, 8, bidirectional=True), torch.nn.GRU(6, 8, bias=False, batch_first=True),
    torch.nn.LSTM(6, 8, num_layers=2, bidirectional=True, batch_first=True)], ids=lambda m: repr(m))
def test_recurrent_kernels_written_out_equal_torchs(module):
    x = torch.randn(7, 3, 6)
    want = module(x)
    calls = []

    class Unrolled(ReducedPrecisionProducts):  # the written-out loop, rounding nothing
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kind = {torch.rnn_tanh: "rnn_tanh", torch.rnn_relu: "rnn_relu", torch.gru: "gru", torch.lstm: "lstm"}.get(func)
            if kind is None:
                return func(*args, **(kwargs or {}))
            calls.append(kind)
            return run_recurrent_kernel(kind, args, lambda t: t)

    with Unrolled({}, name="unrolled"):
        got = module(x)
    assert calls, "the module's kernel was not intercepted"
    for g, w in zip(torch.utils._pytree.tree_leaves(got), torch.utils._pytree.tree_leaves(want)):
        assert torch.allclose(g, w, atol=1e-6)


def test_a_tf32_rnn_differs_from_its_float32_self_by_tf32_rounding():
    rnn, x = torch.nn.RNN(16, 32, batch_first=True).requires_grad_(False), torch.randn(4, 20, 16)
    with emulate_tier("tf32"):
        emulated, _ = rnn(x)
    plain, _ = rnn(x)
    worst = float((emulated - plain).abs().max())
    assert 1e-5 < worst < 8 * 2.0 ** -11  # far above float32's rounding, within a few TF32 roundings of values <= 1


def test_packed_sequences_are_refused_with_a_way_out():
    rnn = torch.nn.GRU(3, 4)
    packed = torch.nn.utils.rnn.pack_padded_sequence(torch.randn(5, 2, 3), [5, 3])
    with emulate_tier("tf32"), pytest.raises(NotImplementedError, match="unset LM_PRECISION"):
        rnn(packed)


def test_the_emulation_covers_the_thread_that_entered_it_only():
    seen = {}
    with emulate_tier("bf16"):
        seen["main"] = active_emulation() is not None and torch.equal(A @ B, round_mantissa(A, 7) @ round_mantissa(B, 7))
        worker = threading.Thread(target=lambda: seen.update(other=active_emulation() is None and torch.equal(A @ B, torch.mm(A, B))))
        worker.start()
        worker.join()
    assert seen == {"main": True, "other": True} and active_emulation() is None


# ---- the policy ------------------------------------------------------------------------------------------------

def test_the_tiers_are_the_cuda_policy_and_a_harsher_bf16(monkeypatch):
    from utils import device

    assert PRECISION_TIERS["tf32"] == {"cublas": 10 if device.CUDA_MATMUL_TF32 else 23, "cudnn": 10 if device.CUDNN_TF32 else 23}
    assert PRECISION_TIERS["bf16"] == {"cublas": 7, "cudnn": 7}
    for value, tier in (("", None), ("float32", None), (" TF32 ", "tf32"), ("bf16", "bf16")):
        monkeypatch.setenv("LM_PRECISION", value)
        assert precision_tier() == tier
    monkeypatch.setenv("LM_PRECISION", "fp8")
    with pytest.raises(ValueError, match=r"LM_PRECISION='fp8' is not a precision tier: use one of tf32, bf16"):
        precision_tier()


def test_a_cuda_device_comes_with_the_policys_switches(monkeypatch):
    from utils import device

    saved = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32, torch.backends.cudnn.benchmark
    try:
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32, torch.backends.cudnn.benchmark = (
            not device.CUDA_MATMUL_TF32, not device.CUDNN_TF32, not device.CUDNN_BENCHMARK)
        apply_precision_policy("cpu")  # nothing to set on a CPU
        assert torch.backends.cudnn.allow_tf32 is not device.CUDNN_TF32
        monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
        assert get_device("cuda") == torch.device("cuda")
        assert (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32, torch.backends.cudnn.benchmark) == (
            device.CUDA_MATMUL_TF32, device.CUDNN_TF32, device.CUDNN_BENCHMARK)
    finally:
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32, torch.backends.cudnn.benchmark = saved


def test_product_precision_says_what_and_why(monkeypatch):
    assert (product_precision("cpu").name, product_precision("cpu").reason) == ("float32", "float32 on cpu")
    assert product_precision("cpu", torch.bfloat16).mantissa_bits == 7
    with torch.autocast("cpu", dtype=torch.bfloat16):
        assert product_precision("cpu").reason == "bfloat16 autocast on cpu"
    with emulate_tier("tf32"):
        inside = product_precision("cpu")
    assert inside.name == "TF32" and inside.reason == "LM_PRECISION=tf32: the CPU rounds the factors of cudnn products to 10 mantissa bits"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: (9, 0))  # an H100/H200
    monkeypatch.setattr(torch.backends.cudnn, "allow_tf32", True)
    on_gpu = product_precision("cuda")
    assert on_gpu.name == "TF32" and "torch.backends.cudnn.allow_tf32" in on_gpu.reason
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: (7, 5))  # a T4: no TF32 units
    assert product_precision("cuda").name == "float32"


def test_training_runs_under_bf16_autocast_in_the_tier():
    from utils.interface import LanguageModel
    from utils.training import TrainConfig, train

    cpu = torch.device("cpu")
    assert training_autocast_dtype(cpu) is None and training_autocast_dtype(cpu, cpu_bf16=True) is torch.bfloat16
    seen = []

    class Watched(LanguageModel):  # a bigram table that notes whether its loss ran under autocast
        def __init__(self):
            super().__init__()
            self.vocab_size, self.table = 5, torch.nn.Linear(5, 5)

        def forward(self, idx):
            return self.table(F.one_hot(idx, 5).float())

        def loss(self, x, y):
            seen.append(torch.is_autocast_enabled("cpu"))
            return super().loss(x, y)

    model = Watched()
    batches = lambda: (torch.randint(0, 5, (2, 4)), torch.randint(0, 5, (2, 4)))  # noqa: E731
    train(model, batches, TrainConfig(steps=2, progress=False))
    with emulate_tier("tf32"):
        assert training_autocast_dtype(cpu) is torch.bfloat16
        train(model, batches, TrainConfig(steps=2, progress=False))
    assert seen == [False, False, True, True]


def test_lm_precision_enters_the_tier_when_utils_is_imported():
    code = ("import utils, torch\nfrom utils.emulate_precision import active_emulation\n"
            "print(active_emulation().name, utils.device.product_precision('cpu').name)")
    env = {**os.environ, "LM_PRECISION": "bf16"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert run.stdout.split() == ["bf16", "bf16"], run.stderr
    env["LM_PRECISION"] = "tf64"
    run = subprocess.run([sys.executable, "-c", "import utils"], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode != 0 and "LM_PRECISION='tf64' is not a precision tier" in run.stderr


# ---- check_same ------------------------------------------------------------------------------------------------

def test_check_same_passes_one_computation_done_two_ways_and_returns_the_gap():
    x, w = torch.randn(8, 64), torch.randn(64, 32)
    by_rows = torch.stack([row @ w for row in x])
    gap = check_same(by_rows, x @ w, "rows one by one and the whole product")
    assert 0 <= gap < 1e-4
    assert check_same(2.0, 2.0, "two numbers") == 0.0


def test_check_same_fails_on_a_real_difference_and_says_where_and_why():
    x, w, b = torch.randn(4, 60, 128), torch.randn(128, 65) / 11, torch.randn(65) / 10
    with pytest.raises(NotSameComputation) as failure:
        check_same(x @ w, x @ w + b, "the layer without its bias and the layer")
    message = str(failure.value)
    assert message.startswith("the layer without its bias and the layer disagree: the largest difference is ")
    assert "at index (" in message and "float32 on cpu: 128 x 2^-24 x scale" in message
    worst = float(b.abs().max())
    assert f"{worst:.3g}" in message
    with pytest.raises(NotSameComputation, match="shapes"):
        check_same(torch.zeros(2, 3), torch.zeros(3, 2), "transposed")
    with pytest.raises(NotSameComputation, match="NaN or infinity"):
        check_same(torch.tensor([1.0, float("nan")]), torch.tensor([1.0, 2.0]), "a NaN")
    with pytest.raises(TypeError, match="expected a tensor or a number"):
        check_same("1.0", 1.0, "a string")


def test_check_same_allows_the_tiers_rounding_and_no_more():
    rnn, x = torch.nn.RNN(16, 32, batch_first=True), torch.randn(4, 20, 16)
    plain, _ = rnn(x)
    with emulate_tier("tf32"):
        emulated, _ = rnn(x)
        check_same(emulated, plain, "nn.RNN in TF32 and in float32")  # the TF32 tolerance holds it
        with pytest.raises(NotSameComputation, match=r"TF32 products \(LM_PRECISION=tf32"):
            check_same(emulated, plain * 1.01, "a 1% error")
    with pytest.raises(NotSameComputation, match="float32 on cpu"):
        check_same(emulated, plain, "nn.RNN in TF32, judged at float32")  # outside the tier: float32's tolerance


def test_the_tolerance_grows_with_the_products_rounding_and_the_scale():
    float32, tf32, bf16 = (product_precision("cpu"), product_precision("cpu"), product_precision("cpu", torch.bfloat16))
    with emulate_tier("tf32"):
        tf32 = product_precision("cpu")
    values = [tolerance_for(p, 1.0).value for p in (float32, tf32, bf16)]
    assert values[0] < 1e-5 < values[1] < values[2] < 0.05
    assert tolerance_for(tf32, 4.0).value == pytest.approx(4 * values[1])
    with pytest.raises(ValueError, match="scale"):
        tolerance_for(tf32, float("nan"))
    small = torch.randn(100) * 1e-3  # say, a small difference of terms of size 1, each rounded at that size
    with pytest.raises(NotSameComputation):
        check_same(small + 1e-7, small, "terms of size 1, judged at the result's size")
    assert check_same(small + 1e-7, small, "terms of size 1", scale=1.0) < 2e-7


def test_check_same_speaks_the_notebooks_language(monkeypatch):
    monkeypatch.setenv("LM_LANG", "zh")
    with pytest.raises(NotSameComputation) as failure:
        check_same(torch.ones(3), torch.zeros(3), "两种算法")
    message = str(failure.value)
    assert message.startswith("两种算法 不一致：最大差值为 1") and "cpu 上的 float32：128 x 2^-24 x 量级" in message
