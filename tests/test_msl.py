"""The MSL back end (seed 着九): every sample's golden 名。金属, each golden
type-checked by clang++ against the Metal shim (tests/support/metal_shim), the shim's
own strictness, the rejections and reports of 着九, and `着色器 金属`."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from zhuose.compiler.backends import translate
from zhuose.compiler.backends.msl import builtin_spelling, fragments
from zhuose.compiler.backends.msl.builtins import BUILTINS, Template
from zhuose.compiler.backends.msl.writer import HEADER
from zhuose.compiler.workspace import Workspace
from support.metal_shim.runner import check, require_clang, unknown_attributes  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
WS = Workspace(ROOT)


@pytest.fixture
def clang():
    require_clang(pytest)


#: Samples that WGSL expresses and MSL does not, with the reason (seed 着九).
NOT_IN_MSL = {"阴影": "金属的片元函数不能单独返回「片元深度」：把它放进返回的结构",
              "子组整矩阵片": "金属目标没有整数子组矩阵片（着十二）：用到它的内核只能译成 PTX"}


def _name(path: Path) -> str:
    return str(path.relative_to(SAMPLES)).replace("。着色器。豫", "")


def _golden(path: Path) -> Path:
    return path.with_name(path.name.replace("。着色器。豫", "。金属"))


CLEAN = [p for p in sorted(SAMPLES.rglob("*。着色器。豫"))
         if not [d for d in WS.diagnostics(p) if d.severity == "错误"]]


def test_samples_are_there():
    assert len(CLEAN) >= 30


@pytest.mark.parametrize("path", CLEAN, ids=_name)
def test_golden(path):
    result = translate(WS, path, "msl")
    if _name(path) in NOT_IN_MSL:
        assert result.text is None and not _golden(path).exists()
        assert {d.message for d in result.diagnostics} == {NOT_IN_MSL[_name(path)]}
        return
    assert result.diagnostics == []
    assert _golden(path).is_file(), f"缺少期望的 MSL：{_golden(path)}"
    assert result.text == _golden(path).read_text(encoding="utf-8")


def test_entries_have_the_wgsl_names():
    """One reserved-word table: an entry's function is named alike in both targets."""
    for path in CLEAN:
        msl = translate(WS, path, "msl")
        if msl.text is not None:
            wgsl = translate(WS, path, "wgsl")
            assert [(e.item, e.function, e.stage) for e in msl.entries] == \
                   [(e.item, e.function, e.stage) for e in wgsl.entries]


@pytest.mark.usefixtures("clang")
def test_goldens_type_check_against_the_shim():
    goldens = {_name(p): _golden(p).read_text(encoding="utf-8") for p in CLEAN if _golden(p).is_file()}
    assert len(goldens) >= 30
    assert check(goldens) == {}
    assert {name: unknown_attributes(text) for name, text in goldens.items() if unknown_attributes(text)} == {}


# ---------------------------------------------------------------- the shim is strict

PRELUDE = "#include <metal_stdlib>\nusing namespace metal;\n"

#: Everything the back end writes, and more of Metal, in one function the shim must accept.
VALID = PRELUDE + textwrap.dedent("""
    struct S { float3 p; uint n; };
    constant float4x4 identity = float4x4(1.0f);
    kernel void k(uint3 gid [[thread_position_in_grid]], device float4* out [[buffer(0)]],
                  const device S* s [[buffer(1)]], device atomic_uint* count [[buffer(2)]],
                  constant uint* lengths [[buffer(30)]], texture2d<float> t [[texture(0)]],
                  depth2d<float> d [[texture(1)]], sampler smp [[sampler(0)]]) {
      threadgroup array<float, 64> tile;
      const auto v = float4(s[gid.x].p, 1.0f) * 2.0f + float4(0.5h == 0.5h ? 1.0f : 0.0f);
      const float2 sw = v.xy;
      float4 w = v;
      w.xyz = float3(sw, 3.0f);
      const float2 zw = v.zw;
      tile[gid.x % 64u] = dot(w, identity * v) + length(zw) + determinant(float2x2(sw, sw));
      threadgroup_barrier(mem_flags::mem_threadgroup);
      const half2 h = half2(float2(as_type<half2>(lengths[0])));
      const auto packed = as_type<uint>(half2(float2(h) * 2.0f));
      (void)(atomic_fetch_add_explicit(&count[0], packed, memory_order_relaxed));
      const uint2 size = uint2(t.get_width(), t.get_height());
      out[gid.x] = t.sample(smp, float2(0.5f), level(0.0f)) + t.read(size - uint2(1u), uint(0))
                 + float4(d.sample_compare(smp, float2(0.5f), 0.25f)) + float4(simd_sum(tile[0]));
      out[0] = select(v, w, v < w) + float4(uint4(popcount(gid.x), reverse_bits(1u), 0u, 0u))
             + float4(int4(sign(-1.0f)) >> int4(1)) + clamp(v, 0.0f, 1.0f) + fmod(v, v) + rsqrt(v);
    }
    fragment float4 f(float4 p [[position]]) {
      if (p.x < 0.0f) { discard_fragment(); }
      return dfdx(p) + dfdy(p);
    }
    kernel void matrices(device float* out [[buffer(0)]], const device half* h [[buffer(1)]]) {
      threadgroup array<half, 64> tile;
      simdgroup_half8x8 a, b(1.0h);
      simdgroup_float8x8 c = make_filled_simdgroup_matrix<float, 8, 8>(0.5f), d;
      simdgroup_load(a, &tile[0]);
      simdgroup_load(b, h + 8, 16, ulong2(8, 0), true);
      simdgroup_multiply_accumulate(d, a, b, c);
      simdgroup_multiply_accumulate(c, a, b, c);
      simdgroup_multiply(d, a, b);
      simdgroup_store(d, out, 16u, ulong2(0, 8));
      simdgroup_store(c, out);
    }
""")

#: Real mistakes the shim must reject (Metal rejects them too).
MISTAKES = {
    "未声明的名字": "float f(float x) { return x + y; }",
    "float4 赋给 float": "float f(float4 v) { float x = v; return x; }",
    "float4 返回为 float": "float f(float4 v) { return v * 2.0f; }",
    "实参太少": "float f(float x) { return clamp(x, 0.0f); }",
    "实参太多": "float f(float x) { return sqrt(x, x); }",
    "原子操作缺内存序": "void f(device atomic_uint* a) { atomic_fetch_add_explicit(&a[0], 1u); }",
    "向量类型混用": "float4 f(float4 a, int4 b) { return a + b; }",
    "向量宽度混用": "float4 f(float4 a, float3 b) { return a * b; }",
    "分量个数不对": "float4 f(float x) { return float4(x, x, x); }",
    "向量不隐式转换": "uint2 f(int2 v) { uint2 u = v; return u; }",
    "as_type 大小不同": "uint f(half h) { return as_type<uint>(h); }",
    "sign 只收浮点": "int f(int x) { return sign(x); }",
    "没有的分量": "float f(float2 v) { return v.z; }",
    "没有的成员函数": "float4 f(texture2d<float> t) { return t.fetch(uint2(0u)); }",
    "矩阵乘的形状": "float3 f(float4x4 m, float3 v) { return m * v; }",
    "半精度不隐式收窄": "half f(float x) { half h = x; return h; }",
    "矩阵片从别的类型载入": "void f(threadgroup float* p) { simdgroup_half8x8 m; simdgroup_load(m, p, 8); }",
    "矩阵片存进只读缓冲": "void f(const device float* p, simdgroup_float8x8 m) { simdgroup_store(m, p, 8); }",
    "矩阵片只有 8×8": "void f() { simdgroup_matrix<float, 16, 16> m; }",
    "矩阵片乘加的结果须是变量": "void f(simdgroup_half8x8 a, simdgroup_float8x8 c) "
                       "{ simdgroup_multiply_accumulate(make_filled_simdgroup_matrix<float, 8, 8>(0.0f), a, a, c); }",
    "矩阵片没有元素下标": "float f(simdgroup_float8x8 m) { return m[0][0]; }",
    "填满矩阵片须写出类型": "void f() { simdgroup_float8x8 m = make_filled_simdgroup_matrix(1.0f); }",
    "矩阵片不是普通矩阵": "void f(simdgroup_float8x8 a, float4x4 b) { a = b; }",
}


@pytest.mark.usefixtures("clang")
def test_shim_accepts_what_metal_accepts():
    assert check({"valid": VALID}) == {}


@pytest.mark.usefixtures("clang")
def test_shim_rejects_real_mistakes():
    problems = check({name: PRELUDE + body for name, body in MISTAKES.items()})
    assert sorted(problems) == sorted(MISTAKES)


def test_attribute_spelling_is_checked():
    assert unknown_attributes("float4 p [[postion]]; uint i [[thread_position_in_grid]];") == ["postion"]


# ---------------------------------------------------------------- translating small programs

HEAD = "寻观「点染」之「点染本」之书。\n"


def msl_of(tmp_path: Path, body: str):
    path = tmp_path / "例。着色器。豫"
    path.write_text(HEAD + textwrap.dedent(body).lstrip("\n"), encoding="utf-8")
    ws = Workspace(tmp_path)
    errors = [d for d in ws.check(path).diagnostics if d.severity == "错误"]   # the checker's; validation may refuse
    assert errors == [], [d.message for d in errors]
    return ws, translate(ws, path, "msl")


def messages(ws, result) -> list[str]:
    assert result.text is None
    return [d.format(ws.source(d.path), Path(d.path).name) for d in result.diagnostics]


def storage(name: str, group: int, binding: int, element="「无三二」", access="读写") -> str:
    cn = "零一二三四五六七八九"
    number = lambda n: "".join(cn[int(c)] for c in str(n))  # noqa: E731
    return (f"「{name}」乃「存储缓冲」于（「数组」于{element}）也。\n"
            f"「{name}」者「绑定」于（「组值」【「组」者「{number(group)}」也，「号」者「{number(binding)}」也，"
            f"「访问」者「{access}」也】）也。\n")


KERNEL = """「核」乃化「全局调用号」为「有」者也。
「核」者得「号」而「写数组」于「甲」于（「号」中「零」）于（{value}）也。
「核入口」乃「计算入口」也。
「核入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「六四」也】）也。
"""


def test_array_lengths_come_from_buffer_30(tmp_path):
    ws, result = msl_of(tmp_path, storage("甲", 0, 0) + storage("乙", 1, 3, access="只读")
                        + KERNEL.format(value="「数组长度」于「乙」"))
    assert "constant uint* 数组长度 [[buffer(30)]]" in result.text
    assert "if (号.x < 数组长度[0]) 甲[号.x] = 数组长度[19];" in result.text   # 甲's count: its bounds check
    assert "乙" not in result.text.split("kernel")[1], "只量长度的缓冲不作参数"
    (entry,) = result.entries
    assert entry.host_details() == "数组长度缓冲=30：0=甲，19=乙"


def test_slot_30_taken_when_lengths_are_needed(tmp_path):
    ws, result = msl_of(tmp_path, storage("甲", 1, 14) + KERNEL.format(value="「数组长度」于「甲」"))
    assert messages(ws, result) == [
        "例。着色器。豫:5:1: 在「核」中：「数组长度」要用缓冲序号 30，它已绑定给别的缓冲（组 1 号 14）：换一个绑定号"]


@pytest.mark.parametrize("group, binding, message", [
    (2, 0, "金属目标只能用组 0 与组 1（序号＝组号×16＋绑定号，一个函数最多 31 个缓冲），这里是组 2"),
    (0, 16, "金属目标的绑定号须小于 16（序号＝组号×16＋绑定号），这里是 16"),
    (1, 15, "金属的缓冲序号至多 30，组 1 号 15 得 31：换一个绑定号"),
])
def test_buffer_slots_metal_cannot_bind(tmp_path, group, binding, message):
    ws, result = msl_of(tmp_path, storage("甲", group, binding) + KERNEL.format(value="「新无三二」于「一」"))
    assert messages(ws, result) == [f"例。着色器。豫:3:1: 在「甲」中：{message}"]


def test_samplers_only_in_group_0(tmp_path):
    ws, result = msl_of(tmp_path, storage("甲", 0, 0) + textwrap.dedent("""
        「样」乃「采样器」也。
        「样」者「采样器绑定」于（「组值」【「组」者「一」也，「号」者「零」也】）也。
        """).lstrip("\n") + KERNEL.format(value="「新无三二」于「一」"))
    assert messages(ws, result) == ["例。着色器。豫:5:1: 在「样」中：金属的采样器序号只到 15：采样器与比较采样器只能放在组 0"]


def test_entry_functions_cannot_be_called(tmp_path):
    ws, result = msl_of(tmp_path, storage("甲", 0, 0) + KERNEL.format(value="「新无三二」于「一」") + textwrap.dedent("""
        「别」乃化「全局调用号」为「有」者也。
        「别」者得「号」而「核」于「号」也。
        """).lstrip("\n"))
    assert messages(ws, result) == ["例。着色器。豫:9:10: 在「别」中：「核」是入口函数，不能再调用：把函数体提成另一个函数，两处都调用它"]


# ---------------------------------------------------------------- subgroup matrices (seed 着十二)


def test_every_fragment_builtin_has_its_prelude_function():
    called = {b.prelude for b in BUILTINS.values() if isinstance(b, Template) and b.prelude is not None}
    assert called == set(fragments.FUNCTIONS) | set(fragments.TENSOR_FUNCTIONS)
    assert len(called) == 13 + 3
    assert builtin_spelling("张量片乘加") == "yy_张量片乘加(甲, 乙, 丙, 丁, &戊[0], 己)"
    assert builtin_spelling("矩阵片乘加") == "yy_矩阵片乘加(甲, 乙, 丙)"
    assert builtin_spelling("载入矩阵片乙") == "yy_载入矩阵片乙(&甲[0], 乙, 丙)"
    assert builtin_spelling("载矩阵片甲自存储") == "yy_载矩阵片甲自存储(reinterpret_cast<const device half*>(甲), 乙, 丙)"


def test_the_prelude_only_where_fragments_are_used():
    for path in CLEAN:
        if not _golden(path).is_file():
            continue
        text, source = _golden(path).read_text(encoding="utf-8"), path.read_text(encoding="utf-8")
        assert ("struct yy_片累 {" in text) == ("矩阵片" in source), _name(path)
        assert ("#include <metal_tensor>" in text) == ("yy_张量片累" in text) == ("张量片" in source), _name(path)


@pytest.mark.usefixtures("clang")
def test_prelude_has_every_function_and_type_checks(tmp_path):
    """All thirteen builtins in one function, with a fragment parameter, result and cell; user
    names that the prelude wants push its names aside."""
    ws, result = msl_of(tmp_path, storage("字", 0, 0, access="只读") + storage("出", 0, 1, "「浮三二」") + """
        「半共」乃「工作组变量」于（「定长数组」于「浮十六」于「二五六」）也。
        「半共」者「工作组共享」于「元」也。
        「单共」乃「工作组变量」于（「定长数组」于「浮三二」于「二五六」）也。
        「单共」者「工作组共享」于「元」也。
        「yy_片累」乃化「无三二」为「无三二」者也。
        「yy_片累」者得「x」而「x」也。
        「乘」乃化「子组矩阵片甲」又化「子组矩阵片乙」又化「子组矩阵片累」为「子组矩阵片累」者也。
        「乘」者得「a」又得「b」又得「c」而「矩阵片乘加」于「a」于「b」于「c」也。
        「核」乃化「局部调用序」为「有」者也。
        「核」者得「序」而
        　令「起」为「yy_片累」于（「新无三二」于「零」）而
        　令「步」为「新无三二」于「一六」而
        　令「格」为「新格」于（「满矩阵片累」于（「新浮三二」于「零」））而
        　「写格」于「格」于（「乘」于（「载入矩阵片甲」于「半共」于「起」于「步」）于（「载入矩阵片乙」于「半共」于「起」于「步」）
        　　于（「载入矩阵片累」于「单共」于「起」于「步」））；
        　「写格」于「格」于（「乘」于（「载矩阵片甲前八行」于「半共」于「起」于「步」）于（「载矩阵片乙自转置存储」于「字」于「起」于「步」）
        　　于（「载入矩阵片累前八行」于「单共」于「起」于「步」））；
        　「写格」于「格」于（「乘」于（「载矩阵片甲自存储」于「字」于「起」于「步」）于（「载矩阵片乙自存储」于「字」于「起」于「步」）
        　　于（「读格」于「格」））；
        　「存矩阵片累」于「单共」于「起」于「步」于（「读格」于「格」）；
        　「存矩阵片累前八行」于「单共」于「起」于「步」于（「读格」于「格」）；
        　「存矩阵片累到存储」于「出」于「起」于「步」于（「读格」于「格」）
        也。
        「核入口」乃「计算入口」也。
        「核入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「三二」也】）也。
        """)
    assert result.diagnostics == []
    text = result.text
    assert text.startswith(HEADER + "\n\nstruct yy_片甲 {\n  simdgroup_half8x8 m[2][2];\n};")
    assert "struct yy_片累_2 {" in text and "uint yy_片累(uint x) {" in text
    assert "yy_片累_2 乘(yy_片甲 a, yy_片乙 b, yy_片累_2 c) {" in text
    assert "yy_片累_2 格 = yy_满矩阵片累(0.0f);" in text
    defined = re.findall(r"^inline \S+ yy_(\w+)\(", text, re.M)
    assert defined == list(fragments.FUNCTIONS)
    assert check({"all": text}) == {}


@pytest.mark.usefixtures("clang")
def test_a_tensor_fragment_type_alone_brings_the_tensor_declarations(tmp_path):
    ws, result = msl_of(tmp_path, """
        「片」乃化「张量片累」为「浮三二」者也。
        「片」者得「x」而「新浮三二」于「一」也。
        """)
    assert result.text.startswith("#include <metal_stdlib>\n#include <metal_tensor>\n")
    assert "float 片(yy_张量片累 x) {" in result.text and "yy_满张量片累" not in result.text
    assert check({"片": result.text}) == {}


def test_integer_fragments_say_why_msl_lacks_them(tmp_path):
    ws, result = msl_of(tmp_path, """
        「片」乃化「子组整矩阵片累」为「浮三二」者也。
        「片」者得「x」而「新浮三二」于「一」也。
        """)
    (message,) = messages(ws, result)
    assert message == "例。着色器。豫:3:6: 在「片」中：金属目标没有整数子组矩阵片（着十二）：用到它的内核只能译成 PTX"


def test_scalar_widths_wgsl_lacks(tmp_path):
    ws, result = msl_of(tmp_path, """
        「短」乃化（「定长整数」于「一六」）为「定长整数」于「一六」者也。
        「短」者得「x」而「x」也。
        """)
    assert messages(ws, result) == [
        "例。着色器。豫:3:6: 在「短」中：金属目标没有「定长整数」于「一六」：标量只有「浮三二」「浮十六」「整三二」「无三二」（着三）"]


def test_one_struct_cannot_be_both_outputs(tmp_path):
    """A vertex output holds 裁剪位置, which no fragment may output: the checker
    says so before MSL's own rule (one struct, two kinds of attributes) is reached."""
    path = tmp_path / "例。着色器。豫"
    path.write_text(HEAD + textwrap.dedent("""
        「出」即「组类」【「位置」乃「裁剪位置」也，「色」乃「四维浮」也】也。
        「顶」乃化「顶点序号」为「出」者也。
        「顶」者得「序」而「组值」【「位置」者「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「一」也，
        　「色」者「新浮三二」于「一」与「新浮三二」于「一」与「新浮三二」于「一」与「新浮三二」于「一」也】也。
        「片」乃化「片元坐标」为「出」者也。
        「片」者得「p」而「组值」【「位置」者「p」也，「色」者「p」也】也。
        「顶入口」乃「顶点入口」也。
        「顶入口」者「顶点入口项」于「顶」也。
        「片入口」乃「片元入口」也。
        「片入口」者「片元入口项」于「片」也。
        """).lstrip("\n"), encoding="utf-8")
    ws = Workspace(tmp_path)
    (error,) = [d for d in ws.diagnostics(path) if d.severity == "错误"]
    assert error.definition == "片入口" and "「裁剪位置」，不能作片元入口的输出" in error.message


@pytest.mark.usefixtures("clang")
def test_names_metal_would_misread(tmp_path):
    """A function named like a Metal builtin is renamed (in both targets); a local
    named like a function it calls gets _2 (C++ scopes the name over its own initialiser)."""
    ws, result = msl_of(tmp_path, storage("甲", 0, 0) + """
        「max」乃化「无三二」为「无三二」者也。
        「max」者得「x」而「x」加（「新无三二」于「一」）也。
        「核」乃化「全局调用号」为「有」者也。
        「核」者得「号」而
        　令「max」为「max」于（「号」中「零」）而
        　「写数组」于「甲」于（「号」中「零」）于（「最大」于「max」于（「新无三二」于「三」））
        也。
        「核入口」乃「计算入口」也。
        「核入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「六四」也】）也。
        """)
    assert "uint 豫_max(uint x) {" in result.text
    assert "const auto 豫_max_2 = 豫_max(号.x);" in result.text
    assert "甲[号.x] = max(豫_max_2, 3u);" in result.text
    assert check({"names": result.text}) == {}


@pytest.mark.usefixtures("clang")
def test_operands_keep_their_order(tmp_path):
    """C++ leaves the order of operands open; WGSL evaluates left to right."""
    ws, result = msl_of(tmp_path, """
        「桶」乃「存储缓冲」于（「数组」于（「原子」于「无三二」））也。
        「桶」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
        「取两次」乃化「无三二」为「无三二」者也。
        「取两次」者得「i」而
        　（「原子加」于「桶」于「i」于（「新无三二」于「一」））减（「原子加」于「桶」于「i」于（「新无三二」于「一」））
        也。
        """)
    body = result.text.split("{", 1)[1]
    first, second = (body.index("const auto 值 = i < 数组长度[0] ? atomic_fetch_add_explicit"),
                     body.index("const auto 值_2 = i < 数组长度[0] ? atomic"))
    assert first < second < body.index("return 值 - 值_2;")
    assert check({"order": result.text}) == {}


@pytest.mark.usefixtures("clang")
def test_short_circuit_keeps_statements_behind_it(tmp_path):
    ws, result = msl_of(tmp_path, storage("甲", 0, 0) + """
        「查」乃化「无三二」为「爻」者也。
        「查」者得「i」而「i」小于（「新无三二」于「四」）且（令「v」为「读数组」于「甲」于「i」而「v」等于「i」）也。
        """)
    assert ("  if (i < 4u) {\n    const auto v = i < 数组长度[0] ? 甲[i] : uint{};\n    return v == i;\n"
            "  } else {\n    return false;\n  }") in result.text
    assert check({"and": result.text}) == {}


def test_interface_files_have_nothing_to_translate(tmp_path):
    path = tmp_path / "接口。着色器。接口。豫"
    path.write_text("「外」乃化「浮三二」而「浮三二」也。\n", encoding="utf-8")
    ws = Workspace(tmp_path)
    result = translate(ws, path, "msl")
    assert result.text is None and "没有可翻译的内容" in result.diagnostics[0].message


# ---------------------------------------------------------------- 着色器 金属


def _cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "zhuose.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def test_command_prints_msl_and_the_entry_table():
    done = _cli("金属", "samples/局部循环。着色器。豫")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (SAMPLES / "局部循环。金属").read_text(encoding="utf-8")
    assert done.stderr == "三角数入口\t三角数\t计算\n"  # exactly LANGUAGE.md §8's three columns
    detailed = _cli("金属", "samples/局部循环。着色器。豫", "--详细")
    assert detailed.stderr == "三角数入口\t三角数\t计算\t数组长度缓冲=30：0=结果\n"


def test_command_reports_what_msl_cannot_express():
    done = _cli("msl", "samples/阴影。着色器。豫")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "samples/阴影。着色器。豫:49:1: 在「写深度」中：金属的片元函数不能单独返回「片元深度」：把它放进返回的结构\n"


def test_command_misuse():
    assert _cli("金属", "samples/没有这个。着色器。豫").returncode == 2
    assert _cli("金属").returncode == 2


@pytest.mark.usefixtures("clang")
def test_comparison_sampling_in_a_fragment(tmp_path):
    """The 阴影 sample without its depth-only entry, which MSL cannot return alone."""
    source = (SAMPLES / "阴影。着色器。豫").read_text(encoding="utf-8")
    source = source[:source.index("「写深度」乃")] + source[source.index("「投影顶点」乃"):source.index("「深度片元」乃")]
    ws, result = msl_of(tmp_path, source.replace(HEAD, ""))
    assert "depth2d<float> 阴影图 [[texture(1)]]" in result.text
    assert "sampler 比较器 [[sampler(2)]]" in result.text
    assert "const auto 可见 = 阴影图.sample_compare(比较器, uv, 参照);" in result.text
    assert "float4 位置 [[position]];\n  float4 光源坐标 [[user(loc0)]];\n  float3 颜色 [[user(loc1)]];" in result.text
    assert check({"shadow": result.text}) == {}


def test_render_stages_have_no_workgroup_memory(tmp_path):
    ws, result = msl_of(tmp_path, """
        「共」乃「工作组变量」于「浮三二」也。
        「共」者「工作组共享」于「元」也。
        「片」乃化「片元坐标」为「片元颜色」者也。
        「片」者得「p」而（令「x」为「读共享」于「共」而「p」乘（「x」与「x」与「x」与「x」））也。
        「片入口」乃「片元入口」也。
        「片入口」者「片元入口项」于「片」也。
        """)
    # every target shares the stage rules (valid/stages.py): the message is at the use
    assert messages(ws, result) == ["例。着色器。豫:5:22: 在「片」中：工作组变量「共」只能用在计算入口里："
                                    "片元入口「片入口」经函数「片」用到了它"]


def test_stage_input_locations_must_differ(tmp_path):
    """Struct fields count from 0 and plain parameters after all of them (as in WGSL),
    so two struct parameters collide."""
    ws, result = msl_of(tmp_path, """
        「甲类」即「组类」【「a」乃「四维浮」也】也。
        「乙类」即「组类」【「b」乃「四维浮」也】也。
        「片」乃化「甲类」又化「乙类」为「片元颜色」者也。
        「片」者得「甲」又得「乙」而「甲」中「a」加「乙」中「b」也。
        「片入口」乃「片元入口」也。
        「片入口」者「片元入口项」于「片」也。
        """)
    assert messages(ws, result) == ["例。着色器。豫:5:1: 在「片」中：入口「片入口」的输入「甲_a」与「乙_b」位置相同"
                                    "（user(loc0)）：结构字段从 0 编号，其余参数排在它们之后"]


def test_integer_clamp_is_wgsls_min_of_max(tmp_path):
    """WGSL defines integer clamp as min(max(e, low), high) even when low > high;
    Metal's clamp leaves that case undefined, so integers are written out."""
    ws, result = msl_of(tmp_path, storage("甲", 0, 0) + KERNEL.format(
        value="「夹紧」于（「号」中「零」）于（「新无三二」于「九」）于（「新无三二」于「三」）"))
    assert "min(max(号.x, 9u), 3u)" in result.text and "clamp(" not in result.text
    _, floats = msl_of(tmp_path, storage("甲", 0, 0, "「浮三二」") + KERNEL.format(
        value="「夹紧」于（「新浮三二」于（「号」中「零」））于（「新浮三二」于「零」）于（「新浮三二」于「一」）"))
    assert "clamp(float(号.x), 0.0f, 1.0f)" in floats.text


def test_the_shims_swizzle_members_are_current():
    """The shim's vectors have every swizzle Metal has (tests/support/metal_shim/swizzles.py writes them)."""
    from support.metal_shim.swizzles import files
    for path, text in files().items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name} 过时：运行 python {path.parent}/swizzles.py"
