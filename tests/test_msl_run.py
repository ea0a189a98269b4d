"""Every compute sample's MSL, executed on the CPU through the Metal shim and
compared with its NumPy reference (tests/support/references.py, the same as the WGSL
and PTX runs) — the Linux stand-in for the seed's 金属运行 test.

The runner translates to MSL, builds the kernels with clang++ against
tests/support/metal_shim (one OS thread per invocation, real threadgroup barriers and
threadgroup memory, 32-lane SIMD-groups) and dispatches them.
"""

from __future__ import annotations


import numpy as np
import pytest

from support.references import REFERENCES, SAMPLES
from zhuose.compiler.backends import Options, translate
from zhuose.compiler.workspace import Workspace
from support.metal_shim.host import msl_compute_samples, msl_run  # noqa: E402
from support.metal_shim.runner import SAMPLER_SLOTS, TEXTURE_SLOTS, Kernel, Runner, require_clang  # noqa: E402

WS = Workspace(SAMPLES)
COMPUTE = msl_compute_samples(WS)


@pytest.fixture(autouse=True)
def clang():
    require_clang(pytest)


@pytest.fixture(scope="module")
def runner(tmp_path_factory) -> Runner:
    require_clang(pytest)
    kernels = []
    for name, path in COMPUTE.items():
        result = translate(WS, path, "msl")
        kernels += [Kernel(f"{name}/{e.item}", result.text, e) for e in result.entries if e.stage == "计算"]
    return Runner(kernels, tmp_path_factory.mktemp("metal_cpu"))


def test_every_compute_sample_has_a_reference():
    assert len(COMPUTE) >= 20, sorted(COMPUTE)
    assert [name for name in COMPUTE if name not in REFERENCES] == []


#: a comparison sampler's function as the shim's sampler numbers it (metal_stdlib's `sampler::compare`)
COMPARE_CODES = {name: k + 1 for k, name in enumerate(
    "never less equal less-equal greater not-equal greater-equal always".split())}


def bind_textures(prepared, textures) -> None:
    """The references' textures and samplers, as the CPU runtime's slots: a
    texture is its width, height, layers (depth, array size or faces), 0 and
    its texels: rgba16float widened to float, integer texels as they are, depths
    (…, h, w, 1) as float; a sampler is 1 for a linear filter and its comparison function."""
    for group, binding, resource in textures:
        slot = group * 16 + binding
        if isinstance(resource, dict):
            linear = resource.get("mag_filter") == "linear"
            compare = COMPARE_CODES.get(resource.get("compare"), 0)
            prepared.buffers[SAMPLER_SLOTS + slot] = np.array([linear, compare], np.uint32).tobytes()
        else:
            texels = np.asarray(resource)
            layers, height, width = ((1, 1) + texels.shape[:-1])[-3:]
            header = np.array([width, height, layers, 0], np.uint32).tobytes()
            if texels.dtype.kind not in "iu":      # colour as rgba16float; one channel is depth, kept as float
                texels = texels.astype(np.float16 if texels.shape[-1] != 1 else np.float32).astype(np.float32)
            prepared.buffers[TEXTURE_SLOTS + slot] = header + texels.tobytes()


@pytest.mark.parametrize("name", sorted(COMPUTE))
def test_runs_like_numpy(name, runner):
    REFERENCES[name](msl_run(WS, lambda key, d: runner.dispatch(key, d.groups, d.buffers), bind_textures))


#: Semantics C++ would get wrong if the translation were naive; one invocation
#: writes 出[0..7] (expected values beside each line) and counts in 桶.
SEMANTICS = """寻观「点染」之「点染本」之书。
「出」乃「存储缓冲」于（「数组」于「无三二」）也。
「出」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「桶」乃「存储缓冲」于（「数组」于（「原子」于「无三二」））也。
「桶」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「读写」也】）也。
「写」乃化「无三二」又化「无三二」为「有」者也。
「写」者得「i」又得「v」而「写数组」于「出」于「i」于「v」也。
「加一」乃化「无三二」为「无三二」者也。
「加一」者得「k」而「原子加」于「桶」于「k」于（「新无三二」于「一」）也。
「核」乃化「全局调用号」为「有」者也。
「核」者得「号」而
　令「格」为「新格」于（「新无三二」于「五」）而
　令「先写后读」为得「旧」而（「写格」于「格」于（「旧」加（「新无三二」于「一」））；「旧」）而
　「写」于（「新无三二」于「零」）于（「先写后读」于（「读格」于「格」））；
　「写」于（「新无三二」于「一」）于（（「加一」于（「新无三二」于「零」））减（「加一」于（「新无三二」于「零」）））；
　令「标」为「新格」于（「新无三二」于「零」）而
　（若「阴」且（「写格」于「标」于（「新无三二」于「一」）；「阳」）则「元」）；
　「写」于（「新无三二」于「二」）于（「读格」于「标」）；
　「写」于（「新无三二」于「三」）于（「选择」于（「加一」于（「新无三二」于「一」））于（「加一」于（「新无三二」于「一」））于「阳」）；
　令「换」为得「a」又得「b」又得「n」而
　　若「n」等于（「新无三二」于「零」）则「a」否则「换」于「b」于「a」于（「n」减（「新无三二」于「一」））
　而
　「写」于（「新无三二」于「四」）于（「换」于（「新无三二」于「一」）于（「新无三二」于「二」）于（「新无三二」于「三」））；
　「写」于（「新无三二」于「五」）于（「位转换」以「无三二」于（「符号」于（负（「新整三二」于「七」））））；
　「写」于（「新无三二」于「六」）于（「位转换」以「无三二」于（（负（「新整三二」于「七」））余（「新整三二」于「三」）））；
　令「移」为（负（「新整三二」于「八」）与「新整三二」于「八」）右移（「新无三二」于「一」与「新无三二」于「二」）而
　「写」于（「新无三二」于「七」）于（「位转换」以「无三二」于（「移」中「零」加「移」中「一」））
也。
「核入口」乃「计算入口」也。
「核入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「一」也】）也。
"""


def test_semantics_cpp_would_change(tmp_path):
    source = tmp_path / "语义。着色器。豫"
    source.write_text(SEMANTICS, encoding="utf-8")
    ws = Workspace(tmp_path)
    result = translate(ws, source, "msl")
    assert result.text is not None, [d.message for d in result.diagnostics]
    (entry,) = result.entries
    runner = Runner([Kernel("语义", result.text, entry)], tmp_path)
    counts = np.zeros(32, np.uint32)
    counts[:2] = 8, 2                                   # the lengths buffer: element counts for the bounds checks
    out = runner.dispatch("语义", (1, 1, 1), {0: bytes(32), 1: bytes(8), 30: counts.tobytes()})
    minus = lambda n: (1 << 32) - n  # noqa: E731
    assert np.frombuffer(out[0], np.uint32).tolist() == [
        5,          # an inlined parameter keeps the cell's old value
        minus(1),   # operands left to right: 0 − 1
        0,          # 阴 且 …: the right side never runs
        1,          # 选择 runs both arguments and takes the second
        2,          # a tail call that swaps its parameters three times
        minus(1),   # sign of −7
        minus(1),   # −7 余 3 truncates towards zero
        minus(4) + 2,  # arithmetic shifts of a signed vector: −8 >> 1, 8 >> 2
    ]
    assert np.frombuffer(out[1], np.uint32).tolist() == [2, 2]


#: u32(x), i32(x) and vec2<u32>(x, −x) of one f32 per invocation.
CONVERSIONS = """寻观「点染」之「点染本」之书。
「入」乃「存储缓冲」于（「数组」于「浮三二」）也。
「入」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「只读」也】）也。
「出」乃「存储缓冲」于（「数组」于「四维无」）也。
「出」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「读写」也】）也。
「核」乃化「全局调用号」为「有」者也。
「核」者得「号」而
　令「x」为「读数组」于「入」于（「号」中「零」）而
　令「对」为「转换」以「二维无」于（「x」与负「x」）而
　「写数组」于「出」于（「号」中「零」）于
　　（「转换」以「无三二」于「x」与「位转换」以「无三二」于（「新整三二」于「x」）与「对」中「零」与「对」中「一」）
也。
「核入口」乃「计算入口」也。
「核入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「八」也】）也。
"""


def test_float_to_integer_conversions_clamp_like_wgsl(tmp_path):
    """C++ leaves an out-of-range float → int undefined; WGSL clamps to the
    integers both types hold: [0, 4294967040] and [−2147483648, 2147483520]."""
    source = tmp_path / "转换。着色器。豫"
    source.write_text(CONVERSIONS, encoding="utf-8")
    result = translate(Workspace(tmp_path), source, "msl")
    (entry,) = result.entries
    x = np.array([-5.7, 2.5, 5e9, -3e9, 1e30, -1e30, 3e9, 7.0], np.float32)
    counts = np.zeros(32, np.uint32)
    counts[:2] = 8, 8                                   # the lengths buffer: element counts for the bounds checks
    out = Runner([Kernel("转换", result.text, entry)], tmp_path).dispatch(
        "转换", (1, 1, 1), {0: x.tobytes(), 1: bytes(128), 30: counts.tobytes()})
    wide = x.astype(np.float64)
    as_u32 = lambda v: np.trunc(np.clip(v, 0, 4294967040.0)).astype(np.uint32)  # noqa: E731
    as_i32 = np.trunc(np.clip(wide, -2147483648.0, 2147483520.0)).astype(np.int32).view(np.uint32)
    expected = np.stack([as_u32(wide), as_i32, as_u32(wide), as_u32(-wide)], axis=1)
    np.testing.assert_array_equal(np.frombuffer(out[1], np.uint32).reshape(8, 4), expected)


#: Subgroup matrices (seed 着十二) as values: chosen by a 若 (an if statement, never `?:`),
#: kept in a cell, passed to and returned from a function.  出 gets four 16 × 16 blocks.
FRAGMENT_VALUES = """寻观「点染」之「点染本」之书。
「入」乃「存储缓冲」于（「数组」于「浮三二」）也。
「入」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「只读」也】）也。
「出」乃「存储缓冲」于（「数组」于「浮三二」）也。
「出」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「读写」也】）也。
「字」乃「存储缓冲」于（「数组」于「无三二」）也。
「字」者「绑定」于（「组值」【「组」者「零」也，「号」者「二」也，「访问」者「只读」也】）也。
「或三」乃化「子组矩阵片累」又化「爻」为「子组矩阵片累」者也。
「或三」者得「片」又得「留」而若「留」则「片」否则「满矩阵片累」于（「新浮三二」于「三」）也。
「核」乃化「局部调用序」为「有」者也。
「核」者得「序」而
　令「步」为「新无三二」于「一六」而
　令「零片」为「满矩阵片累」于（「新浮三二」于「零」）而
　令「一片」为「满矩阵片累」于（「新浮三二」于「一」）而
　令「真」为（「读数组」于「入」于（「新无三二」于「零」））大于（「新浮三二」于「零」）而
　令「选」为若「真」则「一片」否则「零片」而
　「存矩阵片累到存储」于「出」于（「新无三二」于「零」）于「步」于「选」；
　令「格」为「新格」于「零片」而
　（若「真」则「写格」于「格」于（「矩阵片乘加」于（「载矩阵片甲自存储」于「字」于（「新无三二」于「零」）于「步」）
　　于（「载矩阵片乙自存储」于「字」于（「新无三二」于「零」）于「步」）于（「读格」于「格」）））；
　「存矩阵片累到存储」于「出」于（「新无三二」于「二五六」）于「步」于（「读格」于「格」）；
　「存矩阵片累到存储」于「出」于（「新无三二」于「五一二」）于「步」于（「或三」于「一片」于「真」）；
　「存矩阵片累到存储」于「出」于（「新无三二」于「七六八」）于「步」于（「或三」于「一片」于（非「真」））
也。
「核入口」乃「计算入口」也。
「核入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「三二」也】）也。
"""


def test_fragments_are_values(tmp_path):
    source = tmp_path / "片值。着色器。豫"
    source.write_text(FRAGMENT_VALUES, encoding="utf-8")
    result = translate(Workspace(tmp_path), source, "msl", Options(bounds=False))   # no ?: of a bounds check
    assert result.text is not None, [d.message for d in result.diagnostics]
    assert "?" not in result.text, "子组矩阵片不经 ?: 选择"
    assert "yy_片累 若值;" in result.text and "yy_片累 格 = 零片;" in result.text
    assert "yy_片累 或三(yy_片累 片, bool 留) {" in result.text
    (entry,) = result.entries
    a = np.random.default_rng(7).standard_normal((16, 16)).astype(np.float16)
    words = np.ascontiguousarray(a).view(np.uint32).ravel()      # 甲 and 乙 alike: a · aᵀ
    out = Runner([Kernel("片值", result.text, entry)], tmp_path).dispatch(
        "片值", (1, 1, 1), {0: np.float32([1]).tobytes(), 1: bytes(4 * 1024), 2: words.tobytes()})
    got = np.frombuffer(out[1], np.float32).reshape(4, 16, 16)
    np.testing.assert_array_equal(got[0], np.ones((16, 16)))
    np.testing.assert_allclose(got[1], a.astype(np.float64) @ a.astype(np.float64).T, atol=1e-4)
    np.testing.assert_array_equal(got[2], np.ones((16, 16)))
    np.testing.assert_array_equal(got[3], np.full((16, 16), 3.0))
