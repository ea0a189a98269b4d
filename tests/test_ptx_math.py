"""Accuracy of the PTX back end's instruction sequences (beyond seed 着十):
asin, acos, atan, atan2 and f16 smoothstep.

The sequences in mathseq.py are written once against a machine of correctly
rounded f32 operations and two hardware approximations.  Here they run on a
NumPy float32 machine with the same operation order (fma emulated exactly),
the approximations giving in turn each f32 their PTX ISA bounds allow
(`slack`), and the results are compared with float64 references: every
sequence must be within 2 ulp of f32 (f16 for the half-precision smoothstep)
over its whole domain, sampled per binade."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from support.ptx_emulator import fma32
from zhuose.compiler.backends.ptx import mathseq

MAX_ULP = 2.0


#: how far from the correctly rounded result a hardware approximation may land, in f32 steps: each
#: test runs every slack, the approximation taking it wherever its bound allows (`NumpyMachine._within`)
SLACKS = (-2, -1, 0, 1, 2)


class NumpyMachine:
    """mathseq's machine in float32 NumPy: IEEE operations round exactly as
    PTX's .rn instructions do; max/min ignore NaN like PTX's max.f32.  The
    approximations give the correctly rounded result moved `slack` f32 steps
    where that is still inside their PTX ISA bound."""

    def __init__(self, slack: int = 0) -> None:
        self.slack = slack

    def _within(self, exact: np.ndarray, inside) -> np.ndarray:
        """The f32 `slack` steps from exact's rounding, where `inside(candidate)` allows it."""
        rounded = exact.astype(np.float32)
        finite = np.isfinite(rounded) & (rounded != 0)
        moved = (np.abs(rounded).view(np.uint32).astype(np.int64) + self.slack).astype(np.uint32).view(np.float32)
        moved = np.copysign(moved, rounded)
        with np.errstate(all="ignore"):
            return np.where(finite & inside(moved), moved, rounded).astype(np.float32)

    def rcp_approx(self, a):
        """rcp.approx.ftz.f32: within 1 ulp of 1/a; a subnormal result is flushed to 0."""
        with np.errstate(all="ignore"):
            exact = 1.0 / np.float32(a).astype(np.float64)
            r = self._within(exact, lambda c: np.abs(c - exact) <= np.spacing(np.abs(exact).astype(np.float32)))
        return np.where(np.abs(r) < np.float32(2.0 ** -126), np.copysign(np.float32(0), r), r).astype(np.float32)

    def rsqrt_approx(self, a):
        """rsqrt.approx.ftz.f32: relative error within 2^−22.9 of 1/√a."""
        with np.errstate(all="ignore"):
            exact = 1.0 / np.sqrt(np.float32(a).astype(np.float64))
            return self._within(exact, lambda c: np.abs(c / exact - 1) <= 2.0 ** -22.9)

    def const(self, v):
        return np.float32(v)

    def add(self, a, b):
        return np.float32(a) + np.float32(b)

    def sub(self, a, b):
        return np.float32(a) - np.float32(b)

    def mul(self, a, b):
        return np.float32(a) * np.float32(b)

    def div(self, a, b):
        return np.float32(a) / np.float32(b)

    def fma(self, a, b, c):
        return fma32(a, b, c)

    def abs(self, a):
        return np.abs(a)

    def neg(self, a):
        return -a

    def max(self, a, b):
        return np.fmax(a, b).astype(np.float32)

    def min(self, a, b):
        return np.fmin(a, b).astype(np.float32)

    def gt(self, a, b):
        return a > b

    def le(self, a, b):
        return a <= b

    def eq(self, a, b):
        return a == b

    def both(self, p, q):
        return p & q

    def select(self, mask, a, b):
        return np.where(mask, a, b).astype(np.float32)

    def copysign(self, magnitude, sign):
        return np.copysign(magnitude, sign).astype(np.float32)

    def sign_bit(self, a):
        return np.signbit(a)

    def either_nan(self, a, b):
        return np.isnan(a) | np.isnan(b)


M = NumpyMachine()


def ulp_error(got, exact, dtype=np.float32):
    """|got − exact| in units of the last place of `dtype` at the exact value."""
    ulp = np.spacing(np.abs(exact.astype(dtype))).astype(np.float64)
    return np.abs(got.astype(np.float64) - exact) / ulp


def per_binade(low_exp: int, high_exp: int, per: int, seed: int) -> np.ndarray:
    """`per` random f32 values in every binade [2^e, 2^(e+1)), both signs, with each binade's ends."""
    rng = np.random.default_rng(seed)
    out = []
    for e in range(low_exp, high_exp):
        with np.errstate(over="ignore"):   # 2^128 is the infinity's bit pattern: the last binade's end
            lo, hi = np.float32(2.0 ** e).view(np.uint32), np.float32(2.0 ** (e + 1)).view(np.uint32)
        out.append(rng.integers(lo, hi, per, dtype=np.uint32).view(np.float32))
        out.append(np.array([lo, hi - 1], np.uint32).view(np.float32))
    x = np.concatenate(out)
    return np.concatenate([x, -x])


def _exact_f32(q: Fraction) -> np.float32:
    """The f32 nearest to a rational (ties to even), by integer arithmetic."""
    if q == 0:
        return np.float32(0)
    sign, q = (-1 if q < 0 else 1), abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    e = max(e - 24, -149)
    while q / Fraction(2) ** e >= 2 ** 24:
        e += 1
    scaled = q / Fraction(2) ** e
    n, rest = divmod(scaled.numerator, scaled.denominator)
    if 2 * rest > scaled.denominator or (2 * rest == scaled.denominator and n % 2):
        n += 1
    return np.float32(sign * n * 2.0 ** e)


def test_fma_emulation_is_correctly_rounded():
    rng = np.random.default_rng(5)
    a = rng.standard_normal(3000).astype(np.float32)
    b = rng.standard_normal(3000).astype(np.float32)
    c = (rng.standard_normal(3000) * rng.choice([1e-8, 1, 1e4], 3000)).astype(np.float32)
    c[:500] = -(a[:500].astype(np.float64) * b[:500]).astype(np.float32)    # heavy cancellation
    got = fma32(a, b, c)
    for x, y, z, g in zip(a.tolist(), b.tolist(), c.tolist(), got.tolist()):
        want = _exact_f32(Fraction(x) * Fraction(y) + Fraction(z))
        assert np.float32(g) == want, (x, y, z)


def _check(name, got, exact, where):
    errors = ulp_error(got, exact)
    worst = int(np.nanargmax(errors))
    assert not np.isnan(errors).any(), f"{name}: NaN at {where[np.isnan(errors)][:5]}"
    assert errors[worst] <= MAX_ULP, f"{name}({where[worst]!r}) is {errors[worst]:.2f} ulp off"
    return float(errors[worst])


@pytest.mark.parametrize("slack", SLACKS)
@pytest.mark.parametrize("name, fn, reference", [("asin", mathseq.asin, np.arcsin),
                                                 ("acos", mathseq.acos, np.arccos),
                                                 ("atan", mathseq.atan, np.arctan)])
def test_one_argument_sequences_within_2_ulp(name, fn, reference, slack):
    if name == "atan":
        x = per_binade(-149, 128, 3000, 1)
    else:
        x = per_binade(-149, 0, 3000, 2)
        x = np.concatenate([x, np.float32([1, -1, 0.5, -0.5, 0, -0.0])])
    with np.errstate(all="ignore"):
        got = fn(NumpyMachine(slack), x)
    worst = _check(name, got, reference(x.astype(np.float64)), x)
    print(f"{name}: at most {worst:.3f} ulp over {len(x)} values")


@pytest.mark.parametrize("slack", SLACKS)
def test_one_argument_sequences_dense_near_the_seams_and_in_the_far_range(slack):
    """Every f32 around the reductions' seams: ±1/2 (asin, acos) and ±1 (atan); every third f32 in
    [1/2, 1] (asin, acos), where √z and its approximation carry the result."""
    around = lambda v, n: (np.float32(v).view(np.uint32) + np.arange(-n, n, dtype=np.int64)).astype(
        np.uint32).view(np.float32)
    half, one = around(0.5, 200_000), around(1.0, 200_000)
    far = np.arange(np.float32(0.5).view(np.uint32), np.float32(1).view(np.uint32) + 1, 3,
                    dtype=np.uint32).view(np.float32)
    m = NumpyMachine(slack)
    for name, fn, reference, x in [("asin", mathseq.asin, np.arcsin, half), ("acos", mathseq.acos, np.arccos, half),
                                   ("acos", mathseq.acos, np.arccos, -half), ("atan", mathseq.atan, np.arctan, one),
                                   ("asin", mathseq.asin, np.arcsin, far), ("acos", mathseq.acos, np.arccos, far),
                                   ("acos", mathseq.acos, np.arccos, -far)]:
        x = x[np.abs(x) <= 1] if name != "atan" else x
        _check(name, fn(m, x), reference(x.astype(np.float64)), x)


@pytest.mark.parametrize("slack", SLACKS)
def test_the_refined_square_root_is_within_an_ulp(slack):
    """sqrt_refined over [0, 1/2] (the z of asin's far range) and its ends."""
    z = np.concatenate([per_binade(-60, -1, 20_000, 6), np.float32([0, 0.5, 0.25])])
    z = z[z >= 0]
    with np.errstate(all="ignore"):
        got = mathseq.sqrt_refined(NumpyMachine(slack), z)
    assert got[z == 0].tolist() == [0.0]
    assert ulp_error(got, np.sqrt(z.astype(np.float64))).max() <= 1.0


def test_special_values():
    with np.errstate(all="ignore"):
        assert np.isnan(mathseq.asin(M, np.float32([np.nan, 1.5, -2]))).all()
        assert np.isnan(mathseq.acos(M, np.float32([np.nan, 1.0000001, -3]))).all()
        at = mathseq.atan(M, np.float32([np.inf, -np.inf, np.nan, -0.0]))
    assert at[0] == np.float32(np.pi / 2) and at[1] == -np.float32(np.pi / 2) and np.isnan(at[2])
    assert at[3] == 0 and np.signbit(at[3])
    with np.errstate(all="ignore"):
        ends = mathseq.asin(M, np.float32([1])), mathseq.acos(M, np.float32([-1, 1]))
    assert ends[0][0] == np.float32(np.pi / 2)
    assert ends[1][0] == np.float32(np.pi) and ends[1][1] == 0


def test_atan2_within_2_ulp():
    rng = np.random.default_rng(3)
    magnitudes = per_binade(-149, 128, 60, 4)
    y = rng.choice(magnitudes, 400_000)
    x = rng.choice(magnitudes, 400_000)
    near = rng.standard_normal(200_000).astype(np.float32)        # ratios close to 1 and to the axes
    y = np.concatenate([y, near, near * np.float32(1.0000001), np.float32([0, -0.0, 1, -1, 0, 0, -0.0])])
    x = np.concatenate([x, rng.standard_normal(200_000).astype(np.float32), near,
                        np.float32([1, 1, 0, 0, -1, -0.0, -0.0])])
    with np.errstate(all="ignore"):
        got = mathseq.atan2(M, y, x)
    worst = _check("atan2", got, np.arctan2(y.astype(np.float64), x.astype(np.float64)), np.stack([y, x], 1))
    print(f"atan2: at most {worst:.3f} ulp over {len(x)} pairs")


def test_atan2_infinities_zeros_and_nan():
    inf = np.float32(np.inf)
    y = np.float32([inf, inf, -inf, 1, -1, 0, -0.0, 0, np.nan, 1])
    x = np.float32([inf, -inf, inf, inf, -inf, -0.0, -0.0, 0, 1, np.nan])
    with np.errstate(all="ignore"):
        got = mathseq.atan2(M, y, x)
        want = np.arctan2(y.astype(np.float64), x.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(got, want)
    assert (np.signbit(got) == np.signbit(want)).all()


def _smoothstep64(low, high, x):
    t = np.clip((x - low) / (high - low), 0, 1)
    return t * t * (3 - 2 * t)


def test_f16_smoothstep_within_2_ulp_of_f16():
    """The f16 smoothstep runs mathseq.smoothstep in f32 and rounds once."""
    halves = np.arange(0, 0x7C00, dtype=np.uint16).view(np.float16)     # every finite non-negative f16
    halves = np.concatenate([halves, -halves])
    rng = np.random.default_rng(7)
    low = rng.choice(halves, 300_000)
    high = rng.choice(halves, 300_000)
    low, high = np.minimum(low, high), np.maximum(low, high)
    keep = high > low
    low, high = low[keep], high[keep]
    half = len(low) // 2
    inside = low[half:].astype(np.float64) + (high[half:].astype(np.float64) - low[half:]) * rng.uniform(0, 1, len(low) - half)
    x = np.concatenate([rng.choice(halves, half), inside.astype(np.float16)])
    with np.errstate(all="ignore"):
        got = mathseq.smoothstep(M, low.astype(np.float32), high.astype(np.float32), x.astype(np.float32))
        got = got.astype(np.float16)
        exact = _smoothstep64(low.astype(np.float64), high.astype(np.float64), x.astype(np.float64))
    finite = np.isfinite(exact)
    errors = ulp_error(got[finite], exact[finite], np.float16)
    worst = int(np.argmax(errors))
    assert errors[worst] <= MAX_ULP, (low[finite][worst], high[finite][worst], x[finite][worst])
    print(f"f16 smoothstep: at most {errors[worst]:.3f} ulp of f16 over {finite.sum()} triples")


def test_f32_smoothstep_matches_the_wgsl_formula():
    rng = np.random.default_rng(8)
    low = rng.uniform(-10, 0, 100_000).astype(np.float32)
    high = rng.uniform(0.001, 10, 100_000).astype(np.float32)
    x = rng.uniform(-12, 12, 100_000).astype(np.float32)
    got = mathseq.smoothstep(M, low, high, x)
    exact = _smoothstep64(low.astype(np.float64), high.astype(np.float64), x.astype(np.float64))
    assert (np.abs(got - exact) <= 4e-7).all()
