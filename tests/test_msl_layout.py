"""MSL lays out every struct that lives in a buffer as WGSL lays it out
(docs/后端.md): the data `着色器 运行` uploads follows WGSL's layout
(compiler/layout.py), so a Metal kernel must find each field at
the same offset.

clang++ compiles every sample's translation, and programs with 3-vector, f16,
nested, array and matrix fields, against the Metal shim (tests/support/metal_shim)
with a main that prints sizeof, alignof and offsetof of each struct; the figures
of every struct a storage or uniform buffer holds (nested ones and array
elements included) are compared with WGSL's.  A kernel then reads particles
with 「三维浮」 fields uploaded in WGSL's layout and writes particles and values
derived from them, compared with NumPy.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from support.metal_shim.host import prepare, results
from support.metal_shim.runner import CLANG, FLAGS, SHIM, Kernel, Runner, as_cpp, require_clang
from zhuose.compiler import ir
from zhuose.compiler.backends import translate
from zhuose.compiler.backends.names import target_name
from zhuose.compiler.backends.targets import MSL
from zhuose.compiler.layout import size_align
from zhuose.compiler.types import TCon, TRecord, TTuple, resolve
from zhuose.compiler.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"

HEAD = "寻观「点染」之「点染本」之书。\n"


def _buffer(name: str, inner: str, binding: int, access: str = "读写") -> str:
    return (f"「{name}」乃「存储缓冲」于{inner}也。\n"
            f"「{name}」者「绑定」于（「组值」【「组」者「零」也，「号」者「{'零一二三四五六七八九'[binding]}」也，"
            f"「访问」者「{access}」也】）也。\n")


def _uniform(name: str, inner: str, binding: int) -> str:
    return (f"「{name}」乃「均匀缓冲」于{inner}也。\n"
            f"「{name}」者「均匀绑定」于（「组值」【「组」者「零」也，「号」者「{'零一二三四五六七八九'[binding]}」也】）也。\n")


#: Structs the samples do not hold in buffers: 3-vectors of every scalar, f16,
#: nesting, arrays of structs and of vectors, matrices, a uniform buffer.
LAYOUTS = HEAD + """
「粒子」即「组类」【「位置」乃「三维浮」也，「质量」乃「浮三二」也，「速度」乃「三维浮」也，「寿命」乃「浮三二」也】也。
「半粒」即「组类」【「甲」乃「浮十六」也，「位」乃「三维半」也，「乙」乃「浮十六」也，「丙」乃「二维半」也，「丁」乃「三维半」也】也。
「整点」即「组类」【「号」乃「三维整」也，「计」乃「无三二」也，「向」乃「三维无」也】也。
「内」即「组类」【「法线」乃「三维浮」也】也。
「外」即「组类」【「标」乃「浮三二」也，「里」乃「内」也，「尾」乃「浮三二」也，「群」乃「定长数组」于「内」于「三」也，「末」乃「浮十六」也】也。
「阵」即「组类」【「k」乃「浮三二」也，「m3」乃「三阶浮」也，「m2」乃「二阶浮」也，「c」乃「三维浮」也，
　「m23」乃（「三维浮」与「三维浮」）也，「h33」乃（「三维半」与「三维半」与「三维半」）也，
　「v」乃「定长数组」于「三维浮」于「四」也，「e」乃「浮三二」也】也。
「匀」即「组类」【「光」乃「三维浮」也，「强」乃「浮三二」也，「色」乃「三维浮」也】也。
「独」即「组类」【「向」乃「三维浮」也，「长」乃「浮三二」也】也。
""" + "".join([
    _buffer("甲缓", "（「数组」于「粒子」）", 0),
    _buffer("乙缓", "（「数组」于「半粒」）", 1),
    _buffer("丙缓", "（「数组」于「整点」）", 2),
    _buffer("丁缓", "（「数组」于「外」）", 3),
    _buffer("戊缓", "「阵」", 4),
    _uniform("匀缓", "「匀」", 5),
]) + """
「量」乃化「独」为「浮三二」者也。
「量」者得「d」而（「d」中「向」）中「零」乘「d」中「长」也。
"""

#: A struct held only in a nested array of a buffer's struct, and one in a workgroup variable.
NESTED = HEAD + """
「点」即「组类」【「p」乃「三维浮」也】也。
「线」即「组类」【「端」乃「定长数组」于「点」于「二」也，「宽」乃「浮三二」也】也。
「网」即「组类」【「n」乃「无三二」也，「线」乃「定长数组」于「线」于「四」也】也。
""" + _buffer("网缓", "（「数组」于「网」）", 0, "只读")

PROGRAMS = {"布局": LAYOUTS, "嵌套": NESTED}
#: structs of PROGRAMS no buffer holds (their 3-vectors stay Metal's float3)
NOT_IN_BUFFERS = {("布局", "独")}


@dataclass
class Struct:
    """One struct of a translation: WGSL's figures, the MSL names, whether a buffer holds it."""

    source: str
    name: str
    msl: str
    fields: list[tuple[str, str]]       # (source field, MSL member)
    wgsl: tuple[int, int, list[int]]    # size, alignment, offsets
    in_buffer: bool


def _wgsl(t: TRecord) -> tuple[int, int, list[int]]:
    """Size, alignment and field offsets by compiler/layout.py (WGSL §14.4)."""
    size, align = size_align(t)
    offsets, end = [], 0
    for _, ft in t.fields:
        field_size, field_align = size_align(ft)
        offsets.append((end + field_align - 1) // field_align * field_align)
        end = offsets[-1] + field_size
    return size, align, offsets


def _records(t, found: set[str]) -> None:
    """The names of the structs inside a type (nested, array elements)."""
    t = resolve(t)
    if isinstance(t, TRecord):
        if t.alias:
            found.add(t.alias)
        for _, ft in t.fields:
            _records(ft, found)
    elif isinstance(t, TTuple):
        for item in t.items:
            _records(item, found)
    elif isinstance(t, TCon):
        for a in t.args:
            if not isinstance(a, int):
                _records(a, found)


def _structs(ws: Workspace, path: Path, source: str, text: str) -> list[Struct]:
    checked = ws.check(path)
    modules = [ws.check(p).module for p in checked.module.imports] + [checked.module]
    held: set[str] = set()
    for module in modules:
        for d in module.decls:
            if isinstance(d, ir.Resource) and d.kind in ("storage", "uniform") and d.inner is not None:
                _records(d.inner, held)
    out = []
    for module in modules:
        for d in module.decls:
            if not isinstance(d, ir.Struct) or d.type is None or size_align(d.type) is None:
                continue
            msl = target_name(d.name, MSL.reserved)
            assert f"\nstruct {msl} {{" in text, f"{source}：MSL 里没有结构「{d.name}」"
            fields = [(f, target_name(f, MSL.reserved)) for f, _ in d.type.fields]
            out.append(Struct(source, d.name, msl, fields, _wgsl(d.type), d.name in held))
    return out


def _translations(tmp: Path) -> list[tuple[str, str, list[Struct]]]:
    """(name, MSL text, structs) of every sample that MSL writes, and of PROGRAMS."""
    found = []
    ws = Workspace(ROOT)
    for path in sorted(SAMPLES.rglob("*。着色器。豫")):
        if any(d.severity == "错误" for d in ws.diagnostics(path)):
            continue
        result = translate(ws, path, "msl")
        if result.text is not None:
            name = str(path.relative_to(SAMPLES)).replace("。着色器。豫", "")
            found.append((name, result.text, _structs(ws, path, name, result.text)))
    ws = Workspace(tmp)
    for name, source in PROGRAMS.items():
        path = tmp / f"{name}。着色器。豫"
        path.write_text(source, encoding="utf-8")
    for name in PROGRAMS:
        path = tmp / f"{name}。着色器。豫"
        result = translate(ws, path, "msl")
        assert result.text is not None, [d.message for d in result.diagnostics]
        found.append((name, result.text, _structs(ws, path, name, result.text)))
    return found


def _measure(tmp: Path, translations) -> dict[tuple[str, str], tuple[int, int, list[int]]]:
    """sizeof, alignof and every member's offsetof, as clang++ lays out the MSL
    against the Metal shim (one translation unit, each source in a namespace)."""
    parts, prints, keys = ['#include "metal_cpu.h"\n'], [], []     # the shim's headers, as runner.py includes them
    for i, (_, text, structs) in enumerate(translations):
        if not structs:
            continue
        (tmp / f"t{i}.metal").write_text(as_cpp(text), encoding="utf-8")
        parts.append(f'namespace yy_t{i} {{\n#include "t{i}.metal"\n}}\n')
        for s in structs:
            t = f"yy_t{i}::{s.msl}"
            offsets = "".join(f', (unsigned long)__builtin_offsetof({t}, {m})' for _, m in s.fields)
            prints.append(f'  __builtin_printf("{len(keys)} %lu %lu{" %lu" * len(s.fields)}\\n", '
                          f'(unsigned long)sizeof({t}), (unsigned long)alignof({t}){offsets});\n')
            keys.append((s.source, s.name))
    parts.append("int main() {\n" + "".join(prints) + "  return 0;\n}\n")
    main = tmp / "layout.cpp"
    main.write_text("".join(parts), encoding="utf-8")
    executable = tmp / "layout"
    # the kernels are compiled, never called: what they would call need not link
    done = subprocess.run([CLANG, *FLAGS, "-Wno-invalid-offsetof", "-I", str(SHIM), "-pthread", str(main), "-x", "none",
                           "-Wl,--unresolved-symbols=ignore-all", "-o", str(executable)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-6000:]
    printed = subprocess.run([str(executable)], capture_output=True, text=True, timeout=60, check=True).stdout
    measured = {}
    for line in printed.splitlines():
        index, size, align, *offsets = map(int, line.split())
        measured[keys[index]] = (size, align, offsets)
    return measured


@pytest.fixture(scope="module")
def laid_out(tmp_path_factory):
    require_clang(pytest)
    tmp = tmp_path_factory.mktemp("msl_layout")
    translations = _translations(tmp)
    structs = [s for _, _, found in translations for s in found]
    return structs, _measure(tmp, translations), {name: text for name, text, _ in translations}


def test_every_struct_in_a_buffer_has_wgsl_s_layout(laid_out):
    structs, measured, _ = laid_out
    compared = [s for s in structs if s.in_buffer]
    differ = {f"{s.source}/{s.name}": {"金属": measured[(s.source, s.name)], "WGSL": s.wgsl}
              for s in compared if measured[(s.source, s.name)] != s.wgsl}
    assert differ == {}
    assert len(compared) >= 15
    assert {(s.source, s.name) for s in structs if s.source in PROGRAMS and not s.in_buffer} == NOT_IN_BUFFERS
    # the samples' own buffer structs are compared too, not only the programs'
    assert len([s for s in compared if s.source not in PROGRAMS]) >= 6


def test_the_programs_cover_the_layouts_that_differ_from_metal_s_own(laid_out):
    """Each kind of member whose natural Metal layout is not WGSL's appears."""
    structs, measured, texts = laid_out
    layouts = texts["布局"]
    for member in ("alignas(16) packed_float3 位置;", "alignas(8) packed_half3 位;", "alignas(16) packed_int3 号;",
                   "alignas(16) packed_uint3 向;", "array<float3, 4> v;", "half3x3 h33;", "float2x3 m23;"):
        assert member in layouts
    assert measured[("布局", "粒子")] == (32, 16, [0, 12, 16, 28])
    assert measured[("布局", "半粒")] == (32, 8, [0, 8, 14, 16, 24])
    assert measured[("嵌套", "网")][0] == 16 + 4 * 48
    # a struct no buffer holds keeps Metal's float3 (it may be a stage's input or output)
    assert "struct 独 {\n  float3 向;\n  float 长;\n};" in layouts
    assert measured[("布局", "独")] == (32, 16, [0, 16])


#: Particles in WGSL's layout (位置 at 0, 质量 at 12, 速度 at 16, 寿命 at 28; 32 bytes),
#: stepped under a uniform 环境 (重力 at 0, 步长 at 12): new particles and derived values.
PARTICLES = HEAD + """
「粒子」即「组类」【「位置」乃「三维浮」也，「质量」乃「浮三二」也，「速度」乃「三维浮」也，「寿命」乃「浮三二」也】也。
「环境」即「组类」【「重力」乃「三维浮」也，「步长」乃「浮三二」也】也。
""" + "".join([
    _buffer("入", "（「数组」于「粒子」）", 0, "只读"),
    _buffer("出", "（「数组」于「粒子」）", 1),
    _buffer("量", "（「数组」于「四维浮」）", 2),
    _uniform("境", "「环境」", 3),
]) + """
「步进」乃化「全局调用号」为「有」者也。
「步进」者得「号」而
　令「序」为「号」中「零」而
　若「序」小于（「数组长度」于「入」）
　则（
　　令「p」为「读数组」于「入」于「序」而
　　令「e」为「读均匀」于「境」而
　　令「t」为「e」中「步长」而
　　令「速」为（「p」中「速度」）加（（「e」中「重力」）乘（「t」与「t」与「t」））而
　　令「位」为（「p」中「位置」）加（「速」乘（「t」与「t」与「t」））而
　　「写数组」于「出」于「序」于「组值」【「位置」者「位」也，「质量」者「p」中「质量」也，「速度」者「速」也，「寿命」者（「p」中「寿命」）减「t」也】；
　　「写数组」于「量」于「序」于
　　　（「点积」于（「p」中「速度」）于（「p」中「速度」）与（「p」中「位置」）中「一」与（「p」中「速度」）中「二」与（「p」中「质量」）乘（「p」中「寿命」））
　）
也。

「步进入口」乃「计算入口」也。
「步进入口」者「计算入口项」于「步进」于（「组值」【「工作组大小」者「六四」也】）也。
"""


def test_a_kernel_reads_and_writes_3_vector_fields_in_wgsl_s_layout(tmp_path):
    require_clang(pytest)
    path = tmp_path / "粒子。着色器。豫"
    path.write_text(PARTICLES, encoding="utf-8")
    ws = Workspace(tmp_path)
    n = 100
    rng = np.random.default_rng(11)
    given = rng.integers(-20, 20, (n, 8)).astype(np.float32)          # one row: a particle's 8 words
    environment = np.array([0.5, -9.75, 0.25, 0.125], np.float32)      # 重力 (3 words), 步长
    data = {"入": given, "出": np.zeros((n, 8), np.float32), "量": np.zeros((n, 4), np.float32), "境": environment}
    prepared = prepare(ws, path, "步进入口", data, 2)
    runner = Runner([Kernel("粒子", prepared.msl, prepared.entry)], tmp_path)
    out = results(prepared, runner.dispatch("粒子", prepared.groups, prepared.buffers))

    position, mass, velocity, life = given[:, 0:3], given[:, 3], given[:, 4:7], given[:, 7]
    gravity, dt = environment[:3], environment[3]
    new_velocity = velocity + gravity * dt
    expected = np.concatenate([position + new_velocity * dt, mass[:, None], new_velocity, (life - dt)[:, None]], axis=1)
    np.testing.assert_allclose(out["出"], expected, rtol=1e-6)
    derived = np.stack([(velocity * velocity).sum(axis=1), position[:, 1], velocity[:, 2], mass * life], axis=1)
    np.testing.assert_allclose(out["量"], derived, rtol=1e-6)
    assert re.search(r"alignas\(16\) packed_float3 速度;", prepared.msl)
