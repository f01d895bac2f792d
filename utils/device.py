"""Device selection, seeding and the precision policy (which device computes at which precision; the CPU tier)."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

import numpy as np
import torch

DEVICE_ENV_VAR = "LM_DEVICE"
_VALID = ("cpu", "cuda", "mps")


def _mps_available() -> bool:
    backend = getattr(torch.backends, "mps", None)
    return bool(backend is not None and backend.is_available())


def get_device(prefer: str | None = None) -> torch.device:
    """Return the device to use: `prefer`, else $LM_DEVICE, else CUDA, then MPS, then CPU.

    A CUDA device comes with the precision policy applied (apply_precision_policy: TF32 and cuDNN switches).
    """
    choice = prefer if prefer is not None else os.environ.get(DEVICE_ENV_VAR, "").strip()
    if choice:
        kind = choice.split(":")[0].lower()
        if kind not in _VALID:
            raise ValueError(
                f"unknown device {choice!r}: use one of {', '.join(_VALID)} "
                f"(or unset ${DEVICE_ENV_VAR} to choose automatically)"
            )
        if kind == "cuda" and not torch.cuda.is_available():
            raise ValueError(f"device {choice!r} requested but CUDA is not available here; use 'cpu'")
        if kind == "mps" and not _mps_available():
            raise ValueError(f"device {choice!r} requested but Apple MPS is not available here; use 'cpu'")
        apply_precision_policy(choice)
        return torch.device(choice)
    if torch.cuda.is_available():
        apply_precision_policy("cuda")
        return torch.device("cuda")
    if _mps_available():
        return torch.device("mps")
    return torch.device("cpu")


def set_seed(seed: int) -> torch.Generator:
    """Seed python, numpy and torch (all devices); return a CPU generator seeded the same way."""
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)
    return torch.Generator().manual_seed(seed)


# ---------------------------------------------------------------------------------------------------------------
# The precision policy: at what precision each kind of work runs on each device, stated here and nowhere else.
#
# Training (utils.training.train): bf16 autocast on CUDA GPUs that support it (bf16 keeps float32's exponent range,
# so no loss scaling); float32 on the CPU and Apple MPS, unless TrainConfig.cpu_bf16 or the CPU tier below asks for it.
# Everything else (evaluation, generation, the notebooks' written-out computations) runs in float32, where on CUDA:
#   cuBLAS products (matmul, linear, attention): TF32 OFF (PyTorch's default). The course's float32 passes are small
#       and launch-bound, so TF32 would buy little, and off keeps them as exact as on a CPU. (Untimed: no GPU run
#       has compared the two yet.)
#   cuDNN products (convolutions, the nn.RNN/nn.GRU/nn.LSTM kernels): TF32 ON (PyTorch's default): 10 mantissa bits,
#       so an RNN's output differs from the same recurrence written out with matmuls by about 1e-4, not 1e-7.
#   cuDNN benchmark mode OFF: the same algorithm on every run, so reruns give the same numbers.
# get_device() applies this policy whenever it returns a CUDA device (apply_precision_policy). Whatever the switches
# say at the time of a comparison, product_precision() reads them, and utils.precision_check.check_same compares at
# that precision: the one helper the notebooks' "ours equals the package's" checks use.
#
# The CPU tier ($LM_PRECISION): a CPU that computes as the GPU does, for tests.
#   LM_PRECISION=tf32  the CUDA policy above: the cuDNN family of products (conv, RNN kernels) with inputs rounded to
#                      TF32's 10 mantissa bits (the cuBLAS family too, were CUDA_MATMUL_TF32 True), and training
#                      under bf16 autocast on the CPU (the path CUDA takes).
#   LM_PRECISION=bf16  harsher than any GPU under this policy: every float32 product (both families) with inputs
#                      rounded to bf16's 7 bits, and training under bf16 autocast: what float32 code would see if it
#                      ran under autocast, a margin over TF32.
# utils reads it when first imported (a notebook's first `import utils...`) and enters the emulation
# (utils.emulate_precision.ReducedPrecisionProducts) on the importing thread, which in a Jupyter kernel is the one that
# runs the cells; it stays on for the life of the process. Other threads (a DataLoader's workers) are not covered.
# The tests run a named subset of the notebooks under LM_PRECISION=tf32 (tests/test_precision_tier.py).
# ---------------------------------------------------------------------------------------------------------------

PRECISION_ENV_VAR = "LM_PRECISION"
FLOAT32_BITS, TF32_BITS, BF16_BITS, FLOAT16_BITS = 23, 10, 7, 10  # stored mantissa bits
TRAIN_AUTOCAST_DTYPE = torch.bfloat16  # training's autocast on CUDA (and in the CPU tier)
CUDA_MATMUL_TF32 = False  # torch.backends.cuda.matmul.allow_tf32: cuBLAS products in TF32
CUDNN_TF32 = True  # torch.backends.cudnn.allow_tf32: cuDNN's convolutions and recurrent kernels in TF32
CUDNN_BENCHMARK = False  # torch.backends.cudnn.benchmark: autotuned (run-dependent) algorithms
PRECISION_TIERS = {  # $LM_PRECISION -> mantissa bits per family of products (utils.emulate_precision.FAMILIES)
    "tf32": {"cublas": TF32_BITS if CUDA_MATMUL_TF32 else FLOAT32_BITS, "cudnn": TF32_BITS if CUDNN_TF32 else FLOAT32_BITS},
    "bf16": {"cublas": BF16_BITS, "cudnn": BF16_BITS},
}
_PRECISION_NAMES = {FLOAT32_BITS: "float32", TF32_BITS: "TF32", BF16_BITS: "bf16"}


@dataclass(frozen=True)
class ProductPrecision:
    """The precision of float32 matrix products: the mantissa bits kept from their inputs, and why."""

    name: str  # "float32", "TF32", "bf16", "float16"
    mantissa_bits: int  # stored bits of the factors' mantissas (float32 23, TF32 and float16 10, bf16 7)
    reason: str  # where it comes from, for messages

    @property
    def unit_roundoff(self) -> float:
        """Half a unit in the last place, relative: the largest relative error of rounding a factor to nearest."""
        return 2.0 ** -(self.mantissa_bits + 1)


def apply_precision_policy(device: torch.device | str) -> None:
    """Set torch's TF32 and cuDNN switches to the course's policy (above) when `device` is a CUDA device."""
    if torch.device(device).type != "cuda":
        return
    torch.backends.cuda.matmul.allow_tf32 = CUDA_MATMUL_TF32
    torch.backends.cudnn.allow_tf32 = CUDNN_TF32
    torch.backends.cudnn.benchmark = CUDNN_BENCHMARK


def precision_tier() -> str | None:
    """The CPU tier asked for by $LM_PRECISION ("tf32" or "bf16"), or None when it is unset, empty or "float32"."""
    choice = os.environ.get(PRECISION_ENV_VAR, "").strip().lower()
    if choice in ("", "float32", "fp32"):
        return None
    if choice not in PRECISION_TIERS:
        raise ValueError(f"${PRECISION_ENV_VAR}={choice!r} is not a precision tier: use one of "
                         f"{', '.join(PRECISION_TIERS)} (or unset it for plain float32)")
    return choice


def emulate_tier(tier: str):
    """A context manager in which this thread computes as `tier` of the CPU tier says (rounded products, bf16 training)."""
    from utils.emulate_precision import ReducedPrecisionProducts

    if tier not in PRECISION_TIERS:
        raise ValueError(f"unknown precision tier {tier!r}: use one of {', '.join(PRECISION_TIERS)}")
    return ReducedPrecisionProducts(PRECISION_TIERS[tier], name=tier)


def _emulated_tier():
    """The CPU tier this thread is inside, else None."""
    from utils.emulate_precision import active_emulation

    return active_emulation()


def training_autocast_dtype(device: torch.device, cpu_bf16: bool = False) -> torch.dtype | None:
    """The autocast dtype of training on `device` under the policy: bf16 on CUDA GPUs that support it, else None.

    On the CPU: bf16 when `cpu_bf16` (TrainConfig.cpu_bf16) or when this thread is in the CPU tier (the path CUDA takes).
    """
    if device.type == "cuda" and torch.cuda.is_available() and torch.cuda.is_bf16_supported():
        return TRAIN_AUTOCAST_DTYPE
    if device.type == "cpu" and (cpu_bf16 or _emulated_tier() is not None):
        return TRAIN_AUTOCAST_DTYPE
    return None


def _cuda_tf32_reason(device: torch.device) -> str | None:
    """Which of torch's switches let float32 products run in TF32 on `device` now, or None (none, or no TF32 units)."""
    if not torch.cuda.is_available() or torch.cuda.get_device_capability(device)[0] < 8:  # TF32 units: Ampere on
        return None
    switches = [name for name, on in (("torch.backends.cuda.matmul.allow_tf32 (cuBLAS: matmul, linear, attention)",
                                       torch.backends.cuda.matmul.allow_tf32),
                                      ("torch.backends.cudnn.allow_tf32 (cuDNN: conv, RNN kernels)",
                                       torch.backends.cudnn.allow_tf32)) if on]
    return " and ".join(switches) or None


def _autocast_now(device_type: str) -> torch.dtype | None:
    """The dtype autocast casts products to on `device_type` at this moment, or None when autocast is off there."""
    try:  # torch >= 2.4
        return torch.get_autocast_dtype(device_type) if torch.is_autocast_enabled(device_type) else None
    except (AttributeError, TypeError, RuntimeError):  # older torch: CPU and CUDA only
        if device_type == "cpu":
            return torch.get_autocast_cpu_dtype() if torch.is_autocast_cpu_enabled() else None
        if device_type == "cuda":
            return torch.get_autocast_gpu_dtype() if torch.is_autocast_enabled() else None
        return None


def product_precision(device: torch.device | str = "cpu", dtype: torch.dtype = torch.float32) -> ProductPrecision:
    """The lowest precision a matrix product of `dtype` tensors on `device` may run at here and now, and why.

    In order: tensors in bf16 or float16; autocast on for the device; the CPU tier ($LM_PRECISION) on this thread;
    TF32 switches on a CUDA GPU with TF32 units; else float32.
    """
    from utils.i18n.text import tr  # imported here: utils.i18n imports more than the device rules need

    device = torch.device(device)
    if dtype in (torch.bfloat16, torch.float16, torch.float64):
        bits = {torch.bfloat16: BF16_BITS, torch.float16: FLOAT16_BITS, torch.float64: 52}[dtype]
        name = str(dtype).removeprefix("torch.")
        return ProductPrecision(name, bits, tr("the tensors are {dtype}", dtype=name))
    low = _autocast_now(device.type)
    if low is not None:
        bits = BF16_BITS if low == torch.bfloat16 else FLOAT16_BITS
        name = str(low).removeprefix("torch.")
        return ProductPrecision(name, bits, tr("{dtype} autocast on {device}", dtype=name, device=device.type))
    tier = _emulated_tier()
    if tier is not None and tier.lowest_bits < FLOAT32_BITS:
        name = _PRECISION_NAMES.get(tier.lowest_bits, f"{tier.lowest_bits}-bit mantissa")
        families = " and ".join(f for f, bits in tier.bits.items() if bits == tier.lowest_bits)
        return ProductPrecision(name, tier.lowest_bits, tr(
            "{variable}={tier}: the CPU rounds the factors of {families} products to {bits} mantissa bits",
            variable=PRECISION_ENV_VAR, tier=tier.name, families=families, bits=tier.lowest_bits))
    if device.type == "cuda":
        switches = _cuda_tf32_reason(device)
        if switches:
            return ProductPrecision("TF32", TF32_BITS, tr("TF32 products on CUDA: {switches}", switches=switches))
    return ProductPrecision("float32", FLOAT32_BITS, tr("float32 on {device}", device=device.type))


def _start_tier_from_environment() -> None:
    """Enter $LM_PRECISION's tier on this thread for the rest of the process (see the policy above)."""
    tier = precision_tier()
    if tier is not None and _emulated_tier() is None:
        emulate_tier(tier).__enter__()  # never left: the kernel computes in the tier until it exits


_start_tier_from_environment()
