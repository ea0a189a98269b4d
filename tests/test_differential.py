"""Differential testing across the four executors (issue 13, item 5):
hypothesis-generated programs run on the reference interpreter
(compiler/interp/), on wgpu/lavapipe (WGSL), on the Metal CPU shim (MSL built
by clang++, tests/support/metal_shim) and on the PTX emulator (tests/support/ptx_emulator.py),
and all must agree:

- integer programs (「无三二」, 「整三二」): bit for bit;
- f32 programs: one operation per output, within the ulps of FLOAT_ULPS, the
  accuracy WGSL allows for that operation (exact for + − × and min/max/abs);
- workgroup-memory programs with barriers: bit for bit, never reported racy by
  the interpreter, and the same program with its barrier removed is reported;
- subgroup programs: each executor's result equals the interpreter's at that
  executor's subgroup width (the shim and the emulator: 32; lavapipe: read
  back from the kernel, 「子组大小」).

Each hypothesis example is a batch of expressions in one kernel, so clang++
builds once per example.  The examples per test come from the environment
variable ZHUOSE_DIFF_EXAMPLES (default 3: the whole file stays within about
a minute on CI); `ZHUOSE_DIFF_EXAMPLES=200 nice python -m pytest tests/test_differential.py`
runs longer locally.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
import pytest

from support.executors import interp, metal, run_all
from support.interp_runner import HEADER, buffer, entry, program

EXAMPLES = int(os.environ.get("ZHUOSE_DIFF_EXAMPLES", "3"))
N = 128           # invocations: two workgroups of 64
BATCH = 6         # expressions per kernel

#: WGSL's accuracy for f32 (§ Floating Point Accuracy), in ulps of the exact result.
FLOAT_ULPS = {"加": 0, "减": 0, "乘": 0, "最大": 0, "最小": 0, "绝对值": 0, "除": 2.5, "平方根": 2.5}


def _settings():
    from hypothesis import HealthCheck, Phase, settings
    local = "ZHUOSE_DIFF_EXAMPLES" in os.environ        # CI: fixed examples, no minutes-long shrinking
    return settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
                    derandomize=not local, phases=list(Phase) if local else [Phase.explicit, Phase.generate])


def _writes(expressions: list[str]) -> str:
    """「出」[序 + N·k] = expression k."""
    return "；\n".join(f"　「写数组」于「出」于（「序」加（「新无三二」于「{N * k}」））于{e}"
                      for k, e in enumerate(expressions))


def _source(element: str, expressions: list[str]) -> str:
    return HEADER + buffer("甲", "零", element, "只读") + buffer("乙", "一", element, "只读") + \
        buffer("出", "二", element) + f"""「算」乃化「全局调用号」为「有」者也。
「算」者得「号」而
　令「序」为「号」中「零」而
　令「a」为「读数组」于「甲」于「序」而
　令「b」为「读数组」于「乙」于「序」而
{_writes(expressions)}
也。
""" + entry("算")


# ---------------------------------------------------------------- integers

def integer_expressions(kind: str):
    """Random integer expressions over 「a」「b」 (「无三二」 or 「整三二」), as source text."""
    from hypothesis import strategies as st
    new = "「新无三二」" if kind == "u" else "「新整三二」"
    leaves = st.sampled_from(["「a」", "「b」"]) | st.integers(0, 40).map(lambda v: f"（{new}于「{v}」）")
    binary = ["加", "减", "乘", "左移", "右移", "异或", "按位与", "按位或", "除", "余"]
    calls = ["最大", "最小"]
    unary = ["按位非", "一位计数", "位反转"] + (["负", "绝对值", "符号"] if kind == "i" else [])

    def extend(inner):
        def infix(op, x, y):
            if op in ("左移", "右移"):              # masked: a constant WGSL shift by ≥ 32 is refused
                y = y if kind == "u" else f"（「位转换」以「无三二」于{y}）"
                y = f"（{y}按位与（「新无三二」于「31」））"
            if op in ("除", "余"):                   # never zero: division by zero is a fault here
                y = f"（{y}按位或（{new}于「1」））"
            return f"（{x}{op}{y}）"
        return (st.tuples(st.sampled_from(binary), inner, inner).map(lambda t: infix(*t))
                | st.tuples(st.sampled_from(calls), inner, inner).map(lambda t: f"（「{t[0]}」于{t[1]}于{t[2]}）")
                | st.tuples(st.sampled_from(unary), inner).map(lambda t: f"（「{t[0]}」于{t[1]}）")
                | st.tuples(inner, inner, inner, inner).map(
                    lambda t: f"（「选择」于{t[0]}于{t[1]}于（{t[2]}小于{t[3]}））"))
    return st.recursive(leaves, extend, max_leaves=8)


def integer_inputs(kind: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    dtype = np.uint32 if kind == "u" else np.int32
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    special = np.array([0, 1, 2, 31, 32, info.max, info.min, info.max - 1], np.int64).astype(dtype)
    a = np.concatenate([special, rng.integers(info.min, info.max, N - 8, dtype=np.int64).astype(dtype)])
    b = np.concatenate([special[::-1], rng.integers(info.min, info.max, N - 8, dtype=np.int64).astype(dtype)])
    return a, b


def assert_same_bits(outputs: dict[str, dict], name: str, context) -> None:
    reference = outputs["参照"][name]
    for executor, arrays in outputs.items():
        assert arrays[name].tobytes() == reference.tobytes(), (executor, context, reference, arrays[name])


@pytest.mark.parametrize("kind", ["u", "i"])
def test_random_integer_programs_agree_bit_for_bit_on_four_executors(kind):
    from hypothesis import given
    from hypothesis import strategies as st

    @_settings()
    @given(st.lists(integer_expressions(kind), min_size=BATCH, max_size=BATCH))
    def check(expressions):
        element = "「无三二」" if kind == "u" else "「整三二」"
        a, b = integer_inputs(kind, sum(map(len, expressions)))
        data = {"甲": a, "乙": b, "出": np.zeros(N * BATCH, a.dtype)}
        outputs = run_all(_source(element, expressions), "算入口", data)
        assert_same_bits(outputs, "出", expressions)
    check()


def test_msl_signed_overflow_wraps():
    """The disagreement the random programs found: max(b, b + 34) at b = 2³¹ − 2 (C++ signed
    overflow is undefined and clang folded it; the MSL writer now adds through uint)."""
    a, b = np.int32([0]), np.int32([2 ** 31 - 2])
    text = _source("「整三二」", ["（「最大」于「b」于（「b」加（「新整三二」于「34」）））"]).replace(
        "「工作组大小」者「六四」", "「工作组大小」者「一」")
    with tempfile.TemporaryDirectory() as folder:
        ws, path = program(Path(folder), "溢出", text)
        data = {"甲": a, "乙": b, "出": np.zeros(1, np.int32)}
        assert interp(ws, path, "算入口", data, 1)["出"].tolist() == [2 ** 31 - 2]
        assert metal(ws, path, "算入口", data, 1, Path(folder))["出"].tolist() == [2 ** 31 - 2]


# ---------------------------------------------------------------- floats

def float_operations():
    """One f32 operation per output, over 「a」「b」 and literals: (operation, source)."""
    from hypothesis import strategies as st
    operand = st.sampled_from(["「a」", "「b」", "（「新浮三二」于「1.5」）", "（负「a」）"])
    binary = st.tuples(st.sampled_from(["加", "减", "乘", "除"]), operand, operand).map(
        lambda t: (t[0], f"（{t[1]}{t[0]}{t[2]}）"))
    calls = st.tuples(st.sampled_from(["最大", "最小"]), operand, operand).map(
        lambda t: (t[0], f"（「{t[0]}」于{t[1]}于{t[2]}）"))
    unary = st.tuples(st.sampled_from(["绝对值", "平方根"]), operand).map(
        lambda t: (t[0], f"（「{t[0]}」于（「绝对值」于{t[1]}））" if t[0] == "平方根" else f"（「{t[0]}」于{t[1]}）"))
    return binary | calls | unary


def float_inputs(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Normal f32 values (WGSL may flush subnormals) whose quotients and
    products stay normal: magnitudes 2⁻²⁰ … 2²⁰, some special ones first."""
    rng = np.random.default_rng(seed)
    special = np.float32([0, -0.0, 1, -1, 1.5, 3, 0.1, 2 ** 20])
    def some():
        return (rng.choice([-1, 1], N - 8) * 2.0 ** rng.uniform(-20, 20, N - 8)).astype(np.float32)
    a, b = np.concatenate([special, some()]), np.concatenate([special[::-1], some()])
    b[b == 0] = np.float32(0.75)          # never a division by zero (WGSL: an indeterminate value)
    return a, b


def ulps_apart(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Distance in ulps of f32 (the same on both sides of zero; +0 and −0 are 0 apart)."""
    def ordered(v):
        i = v.astype(np.float32).view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)
    return np.abs(ordered(x) - ordered(y))


def allowed(op: str) -> float:
    """How far (ulps) an executor may be from the interpreter, which rounds
    correctly (half an ulp from the exact result): WGSL's bound plus that half."""
    return FLOAT_ULPS[op] + 0.5 if FLOAT_ULPS[op] else 0


def test_ulps_apart():
    one = np.float32([1.0])
    assert ulps_apart(one, np.nextafter(one, np.float32(2))).tolist() == [1]
    assert ulps_apart(np.float32([-0.0]), np.float32([0.0])).tolist() == [0]
    assert ulps_apart(np.float32([-1e-45]), np.float32([1e-45])).tolist() == [2]


def test_random_float_operations_agree_within_wgsl_accuracy():
    from hypothesis import given
    from hypothesis import strategies as st

    @_settings()
    @given(st.lists(float_operations(), min_size=BATCH, max_size=BATCH))
    def check(operations):
        a, b = float_inputs(sum(len(s) for _, s in operations))
        data = {"甲": a, "乙": b, "出": np.zeros(N * BATCH, np.float32)}
        outputs = run_all(_source("「浮三二」", [s for _, s in operations]), "算入口", data)
        reference = outputs["参照"]["出"].reshape(BATCH, N)
        for k, (op, source) in enumerate(operations):
            for executor, arrays in outputs.items():
                got = arrays["出"].reshape(BATCH, N)[k]
                far = ulps_apart(got, reference[k]).max()
                assert far <= allowed(op), (executor, source, far, got, reference[k])
    check()


def test_the_interpreter_rounds_float_operations_correctly():
    """The interpreter is the reference: + − × ÷ √ correctly rounded (checked in float64)."""
    a, b = float_inputs(1)
    exact = {"加": a.astype(np.float64) + b, "减": a.astype(np.float64) - b, "乘": a.astype(np.float64) * b,
             "除": a.astype(np.float64) / b}
    text = _source("「浮三二」", [f"（「a」{op}「b」）" for op in exact] + ["（「平方根」于（「绝对值」于「a」））"])
    with tempfile.TemporaryDirectory() as folder:
        ws, path = program(Path(folder), "浮点", text)
        out = interp(ws, path, "算入口", {"甲": a, "乙": b, "出": np.zeros(N * 5, np.float32)}, 2)["出"]
    expected = np.concatenate([v.astype(np.float32) for v in exact.values()]
                              + [np.sqrt(np.abs(a.astype(np.float64))).astype(np.float32)])
    assert out.tobytes() == expected.tobytes()


# ---------------------------------------------------------------- workgroup memory and barriers

BARRIER = "　「工作组屏障」于「元」；\n"


def _shared_source(first: str, second: str, step: tuple[str, int], barrier: bool = True) -> str:
    """Each invocation writes 「共享」[局] = first, (barrier), reads 「共享」[(局 op k) & 63]
    as 「c」 and writes 「出」[序] = c + second: race-free with the barrier."""
    op, k = step
    return HEADER + buffer("甲", "零", "「无三二」", "只读") + buffer("乙", "一", "「无三二」", "只读") + \
        buffer("出", "二") + f"""「共享」乃「工作组变量」于（「定长数组」于「无三二」于「六四」）也。
「共享」者「工作组共享」于「元」也。
「调用」即「组类」【「号」乃「全局调用号」也，「局」乃「局部调用序」也】也。

「算」乃化「调用」为「有」者也。
「算」者得「调」而
　令「序」为「调」中「号」中「零」而
　令「局」为「调」中「局」而
　令「a」为「读数组」于「甲」于「序」而
　令「b」为「读数组」于「乙」于「序」而
　「写共享数组」于「共享」于「局」于{first}；
{BARRIER if barrier else ""}　令「c」为「读共享数组」于「共享」于（（「局」{op}（「新无三二」于「{k}」））按位与（「新无三二」于「63」））而
　「写数组」于「出」于「序」于（「c」加{second}）
也。
""" + entry("算")


def test_random_workgroup_programs_agree_and_only_the_one_without_its_barrier_races():
    from hypothesis import given
    from hypothesis import strategies as st
    from zhuose.compiler.interp import Fault

    steps = st.tuples(st.sampled_from(["异或", "加"]), st.integers(1, 63))

    @_settings()
    @given(integer_expressions("u"), integer_expressions("u"), steps)
    def check(first, second, step):
        a, b = integer_inputs("u", len(first) + len(second))
        data = {"甲": a, "乙": b, "出": np.zeros(N, np.uint32)}
        assert_same_bits(run_all(_shared_source(first, second, step), "算入口", data), "出", (first, second, step))
        with tempfile.TemporaryDirectory() as folder:
            ws, path = program(Path(folder), "无屏障", _shared_source(first, second, step, barrier=False))
            with pytest.raises(Fault, match="数据竞争：「共享」的第 .* 个元素"):
                interp(ws, path, "算入口", data, 2)
    check()


# ---------------------------------------------------------------- subgroups

SUBGROUP_OPERATIONS = ["子组求和", "子组最大", "子组最小", "子组按位异或", "子组按位或", "子组前缀和",
                       "子组排他前缀和", "子组广播首个"]


def _subgroup_source(operations: list[tuple[str, str]]) -> str:
    """「出」[序 + N·k] = subgroup operation k of its expression; 「宽」[序] = 「子组大小」."""
    def call(op, e):
        if op.startswith("异或洗牌"):
            return f"（「子组异或洗牌」于{e}于（「新无三二」于「{op[-1]}」））"
        return f"（「{op}」于{e}）"
    return HEADER + buffer("甲", "零", "「无三二」", "只读") + buffer("乙", "一", "「无三二」", "只读") + \
        buffer("出", "二") + buffer("宽", "三") + f"""「调用」即「组类」【「号」乃「全局调用号」也，「宽」乃「子组大小」也】也。

「算」乃化「调用」为「有」者也。
「算」者得「调」而
　令「序」为「调」中「号」中「零」而
　令「a」为「读数组」于「甲」于「序」而
　令「b」为「读数组」于「乙」于「序」而
　「写数组」于「宽」于「序」于（「调」中「宽」）；
{_writes([call(op, e) for op, e in operations])}
也。
""" + entry("算")


def test_random_subgroup_programs_agree_at_each_executors_width():
    """The shim and the emulator have 32 lanes, lavapipe reports its own: each
    executor's output equals the interpreter's at that width."""
    from hypothesis import given
    from hypothesis import strategies as st

    operation = st.tuples(st.sampled_from(SUBGROUP_OPERATIONS + ["异或洗牌1", "异或洗牌2"]),
                          integer_expressions("u"))

    @_settings()
    @given(st.lists(operation, min_size=BATCH, max_size=BATCH))
    def check(operations):
        a, b = integer_inputs("u", sum(len(e) for _, e in operations))
        data = {"甲": a, "乙": b, "出": np.zeros(N * BATCH, np.uint32), "宽": np.zeros(N, np.uint32)}
        text = _subgroup_source(operations)
        outputs = run_all(text, "算入口", data)
        with tempfile.TemporaryDirectory() as folder:
            ws, path = program(Path(folder), "子组", text)
            for executor, arrays in outputs.items():
                width = int(arrays["宽"][0])
                assert (arrays["宽"] == width).all() and (executor == "网页图算" or width == 32), executor
                expected = interp(ws, path, "算入口", data, 2, width)
                assert arrays["出"].tobytes() == expected["出"].tobytes(), (executor, width, operations)
    check()


# ---------------------------------------------------------------- effects inside operands

SLOTS = 4          # 「记」 slots per invocation: each invocation writes and reads only its own
EFFECT_EXAMPLES = int(os.environ.get("ZHUOSE_EFFECT_EXAMPLES", "50"))


def _slot(j: int) -> str:
    return f"（「基」加（「新无三二」于「{j}」））"


def effect_expressions():
    """Random 「无三二」 expressions whose operands need statements: writes and
    reads of the invocation's own 「记」 slots inside 若/且/或, sequences and
    令 in operand position, helpers (top-level and local) that write and
    return a constant, writes in both branches of 若, and local loops carrying
    two values whose trip count differs between invocations."""
    from hypothesis import strategies as st
    slot = st.integers(0, SLOTS - 1).map(_slot)
    leaves = (st.sampled_from(["「a」", "「b」", "「序」"])
              | st.integers(0, 9).map(lambda v: f"（「新无三二」于「{v}」）")
              | slot.map(lambda s: f"（「读数组」于「记」于{s}）")
              | slot.map(lambda s: f"（「取」于{s}）"))

    def extend(inner):
        condition = (st.tuples(inner, inner).map(lambda t: f"（{t[0]}小于{t[1]}）")
                     | st.tuples(slot, inner).map(lambda t: f"（「记真」于{t[0]}于{t[1]}）")
                     | st.tuples(slot, inner).map(lambda t: f"（「写数组」于「记」于{t[0]}于{t[1]}；「阳」）"))
        condition = (condition
                     | st.tuples(condition, st.sampled_from(["且", "或"]), condition).map(lambda t: f"（{t[0]}{t[1]}{t[2]}）")
                     | condition.map(lambda c: f"（非{c}）"))
        return (st.tuples(inner, st.sampled_from(["加", "减", "乘", "异或"]), inner).map(lambda t: f"（{t[0]}{t[1]}{t[2]}）")
                | st.tuples(st.sampled_from(["最大", "最小"]), inner, inner).map(lambda t: f"（「{t[0]}」于{t[1]}于{t[2]}）")
                | st.tuples(slot, inner, inner).map(lambda t: f"（「写数组」于「记」于{t[0]}于{t[1]}；{t[2]}）")
                | st.tuples(inner, slot, inner).map(lambda t: f"（{t[0]}加（「记下」于{t[1]}于{t[2]}））")
                | st.tuples(slot, inner, inner).map(lambda t: (
                    f"（令「记局」为得「i」又得「v」而（（「写数组」于「记」于「i」于「v」）；「v」）"
                    f"而（「记局」于{t[0]}于{t[1]}）加{t[2]}）"))
                | st.tuples(inner, inner).map(lambda t: f"（令「t」为{t[0]}而（「t」加{t[1]}））")
                | st.tuples(condition, inner, inner).map(lambda t: f"（若{t[0]}则{t[1]}否则{t[2]}）")
                | st.tuples(condition, slot, inner, slot, inner).map(lambda t: (
                    f"（若{t[0]}则（「写数组」于「记」于{t[1]}于{t[2]}；{t[2]}）"
                    f"否则（「写数组」于「记」于{t[3]}于{t[4]}；「序」））"))
                | st.tuples(inner, inner, st.integers(1, 3)).map(lambda t: (
                    f"（令「环」为得「k」又得「s」而 若「k」小于（「序」按位与（「新无三二」于「{t[2]}」））"
                    f"则「环」于（「k」加（「新无三二」于「1」））于（「s」加（{t[0]}异或「k」））否则「s」"
                    f"而「环」于（「新无三二」于「0」）于{t[1]}）")))
    return st.recursive(leaves, extend, max_leaves=10)


def _effect_source(expressions: list[str]) -> str:
    """「出」[序 + N·k] = expression k, each invocation's 「记」 slots 基 … 基 + 3 (基 = 序 × 4)."""
    writes = "；\n".join(f"　「写数组」于「出」于（「序」加（「新无三二」于「{N * k}」））于{e}"
                        for k, e in enumerate(expressions))
    return HEADER + buffer("甲", "零", "「无三二」", "只读") + buffer("记", "一") + buffer("出", "二") + f"""「记下」乃化「无三二」又化「无三二」为「无三二」者也。
「记下」者得「i」又得「v」而（「写数组」于「记」于「i」于「v」）；（「新无三二」于「零」）也。

「记真」乃化「无三二」又化「无三二」为「爻」者也。
「记真」者得「i」又得「v」而（「写数组」于「记」于「i」于「v」）；「阳」也。

「取」乃化「无三二」为「无三二」者也。
「取」者得「i」而「读数组」于「记」于「i」也。

「算」乃化「全局调用号」为「有」者也。
「算」者得「号」而
　令「序」为「号」中「零」而
　令「基」为「序」乘（「新无三二」于「{SLOTS}」）而
　令「a」为「读数组」于「甲」于「序」而
　令「b」为（「读数组」于「记」于「基」）异或（「新无三二」于「0x9E3779B9」）而
{writes}
也。
""" + entry("算")


def test_random_programs_with_effects_inside_operands_agree_on_four_executors():
    """Each example is a kernel of BATCH independent expressions, so a run of
    ZHUOSE_EFFECT_EXAMPLES examples checks BATCH times as many programs."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(_settings(), max_examples=EFFECT_EXAMPLES)
    @given(st.lists(effect_expressions(), min_size=BATCH, max_size=BATCH))
    def check(expressions):
        a, _ = integer_inputs("u", sum(map(len, expressions)))
        data = {"甲": a, "记": (a * np.uint32(3)).repeat(SLOTS), "出": np.zeros(N * BATCH, np.uint32)}
        outputs = run_all(_effect_source(expressions), "算入口", data)
        assert_same_bits(outputs, "出", expressions)
        assert_same_bits(outputs, "记", expressions)
    check()
