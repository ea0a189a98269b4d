"""Inverse trigonometric functions as branch-free f32 instruction sequences.

PTX has no asin, acos, atan or atan2 instruction (seed 着十 lists them as a
limitation).  Each function here is written once against a small *machine*:
correctly rounded f32 operations (add, mul, fma, div), the two hardware
approximations rcp_approx (within 1 ulp, PTX ISA) and rsqrt_approx (relative
error within 2^−22.9), comparisons that give a mask, and select.  The PTX
writer's machine emits `add.rn.f32`, `fma.rn.f32`, `div.rn.f32`,
`rcp.approx.ftz.f32`, `rsqrt.approx.ftz.f32`, `setp`, `selp`; the accuracy
tests run the very same sequence in NumPy float32, with each approximation
giving in turn every f32 its bound allows, so the operation order that is
measured is the order that runs on the GPU.

Approach (the classic argument reductions, our own polynomials):

* atan: |x| > 1 is folded to t = 1/|x| with atan(x) = π/2 − atan(t); on
  [0, 1] atan(t) = t + t·s·P(s), s = t², P of degree 8.  t is the approximate
  reciprocal: the fold is at least π/4 while atan(t) ≤ t, so t's error
  shrinks in the result (1.61 ulp at most over every 211th f32 above 1; a correctly rounded division costs
  some hundred SASS instructions with its slow path, the reciprocal one).
* asin, acos: for |x| ≤ 1/2, asin(x) = x + x·z·P(z), z = x²; beyond,
  asin(x) = π/2 − 2·asin(√z) with z = (1 − |x|)/2 (exact).  √z is the
  approximate reciprocal square root times z, refined by one Newton step
  (`sqrt_refined`, as nvcc's asinf): every f32 in [1/2, 1] is within 1.82 ulp
  (asin; acos 1.34), and WGSL allows these functions thousands of ulp
  (inherited from atan2).
* atan2: atan of min/max of the magnitudes, then the octant and quadrant
  identities; NaN in either argument gives NaN.

π/2 and π are split into a high f32 part and the f32 of the remainder.  The
coefficients are relative-error minimax fits (Lawson iteration on Chebyshev
nodes) rounded to f32; tests/test_ptx_math.py checks every sequence to within
2 ulp of the float64 result over the whole domain.
"""

from __future__ import annotations

PIO2_HI, PIO2_LO = 1.5707963705062866, -4.371138828673793e-08
PI_HI, PI_LO = 3.1415927410125732, -8.742277657347586e-08

#: atan(t) = t + t·s·P(s), s = t², t ∈ [0, 1]; P's coefficients, constant term first
ATAN_P = (-0.33333298563957214, 0.19998548924922943, -0.14264242351055145, 0.10952185839414597,
          -0.0840345099568367, 0.05795760080218315, -0.03117785044014454, 0.010914608836174011,
          -0.0017936222720891237)
#: asin(x) = x + x·z·P(z), z = x², x ∈ [0, 1/2]
ASIN_P = (0.16666659712791443, 0.07500503957271576, 0.04451695457100868, 0.03180772438645363,
          0.014438586309552193, 0.037516478449106216)


def horner(m, coeffs, s):
    """P(s) by Horner's rule with fused multiply-adds."""
    acc = m.const(coeffs[-1])
    for c in reversed(coeffs[:-1]):
        acc = m.fma(acc, s, m.const(c))
    return acc


def atan_unit(m, t):
    """atan(t) for t ∈ [0, 1]."""
    s = m.mul(t, t)
    return m.fma(m.mul(t, s), horner(m, ATAN_P, s), t)


def atan(m, x):
    ax = m.abs(x)
    big = m.gt(ax, m.const(1.0))
    t = m.select(big, m.rcp_approx(ax), ax)
    a = atan_unit(m, t)
    folded = m.add(m.sub(m.const(PIO2_HI), a), m.const(PIO2_LO))
    return m.copysign(m.select(big, folded, a), x)


def _asin_parts(m, x):
    """(|x| ≤ 1/2, asin(|x|) for the small case, s, q): beyond 1/2,
    asin(s) ≈ s + q with s = √((1 − |x|)/2) rounded and q = s·z·P(z)."""
    ax = m.abs(x)
    small = m.le(ax, m.const(0.5))
    z_small = m.mul(ax, ax)
    z_big = m.mul(m.sub(m.const(1.0), ax), m.const(0.5))
    z = m.select(small, z_small, z_big)
    p = horner(m, ASIN_P, z)
    near = m.fma(m.mul(ax, z), p, ax)
    s = sqrt_refined(m, z_big)
    return small, near, s, m.mul(m.mul(s, z), p)


def sqrt_refined(m, z):
    """√z as s·(1 + e), s = z·r, r the approximate 1/√z, e = 1/2 − s·r/2 (one
    Newton step); 0 at z = 0, where r is ∞ (z < 0 or NaN gives NaN)."""
    r = m.rsqrt_approx(z)
    s = m.mul(z, r)
    e = m.fma(m.neg(s), m.mul(r, m.const(0.5)), m.const(0.5))
    return m.select(m.eq(z, m.const(0.0)), m.const(0.0), m.fma(s, e, s))


def _twice_asin_from(m, hi, lo, s, q):
    """hi + lo − 2·(s + q), summed so that the large terms cancel first."""
    return m.sub(m.const(hi), m.mul(m.const(2.0), m.add(s, m.sub(q, m.const(lo / 2)))))


def asin(m, x):
    small, near, s, q = _asin_parts(m, x)
    far = _twice_asin_from(m, PIO2_HI, PIO2_LO, s, q)
    return m.copysign(m.select(small, near, far), x)


def acos(m, x):
    small, near, s, q = _asin_parts(m, x)
    centre = m.sub(m.const(PIO2_HI), m.sub(m.copysign(near, x), m.const(PIO2_LO)))
    positive = m.mul(m.const(2.0), m.add(s, q))
    negative = _twice_asin_from(m, PI_HI, PI_LO, s, q)
    far = m.select(m.sign_bit(x), negative, positive)
    return m.select(small, centre, far)


def atan2(m, y, x):
    ax, ay = m.abs(x), m.abs(y)
    steep = m.gt(ay, ax)
    big, small = m.select(steep, ay, ax), m.select(steep, ax, ay)
    ratio = m.div(small, big)
    both_infinite = m.both(m.eq(ax, m.const(float("inf"))), m.eq(ay, m.const(float("inf"))))
    ratio = m.select(m.eq(big, m.const(0.0)), m.const(0.0), ratio)
    ratio = m.select(both_infinite, m.const(1.0), ratio)
    a = atan_unit(m, ratio)
    a = m.select(steep, m.add(m.sub(m.const(PIO2_HI), a), m.const(PIO2_LO)), a)
    a = m.select(m.sign_bit(x), m.add(m.sub(m.const(PI_HI), a), m.const(PI_LO)), a)
    signed = m.copysign(a, y)
    return m.select(m.either_nan(x, y), m.add(x, y), signed)


def smoothstep(m, low, high, x):
    """WGSL: t = clamp((x − low) / (high − low), 0, 1); t·t·(3 − 2t).  For f16
    the whole sequence runs in f32 and rounds once at the end."""
    t = m.div(m.sub(x, low), m.sub(high, low))
    t = m.min(m.max(t, m.const(0.0)), m.const(1.0))
    return m.mul(m.mul(t, t), m.fma(m.const(-2.0), t, m.const(3.0)))


#: builtin name → (sequence, number of f32 arguments)
SEQUENCES = {"反正弦": (asin, 1), "反余弦": (acos, 1), "反正切": (atan, 1), "反正切二": (atan2, 2)}
