"""Every sample's PTX (seed 着十): equal to its golden 名。千手 (reviewed by
reading), ASCII only, and assembled by ptxas for sm_80 and sm_90 without an
error or a warning.  Samples with only vertex and fragment entries are an
error for 千手; the 千手 subcommand prints the PTX and the entry table."""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from support.references import SAMPLES, sample_name, translatable
from zhuose.compiler import ir
from zhuose.compiler.backends import translate
from zhuose.compiler.backends.ptx.mangle import ENTRY_PREFIX, mangle
from zhuose.cli.main import main
from zhuose.compiler.workspace import Workspace

WS = Workspace(SAMPLES)
PTXAS = shutil.which("ptxas")
ARCHES = ("sm_80", "sm_90")

#: samples whose compute entries use what the PTX target does not have yet, and why
UNSUPPORTED = {"纹素处理": "千手目标不支持「纹理尺寸」", "索贝尔": "千手目标不支持「纹理尺寸」",
               "纹理种类": "千手目标不支持「纹理尺寸」", "移植/曼德布罗": "千手目标不支持「纹理尺寸」",
               "纹理采样": "千手目标不支持「按梯度采样纹理」",
               "存储格式": "千手目标不支持「写纹素」", "纹理数组采样": "千手目标不支持「偏移按层采样张纹理」",
               "立方数组采样": "千手目标不支持「按层采样张纹理」", "多重采样读": "千手目标不支持「纹理尺寸」",
               "存储纹理种类": "千手目标不支持「纹理尺寸」",
               "张量片": "张量片只有金属（MSL）支持（着十三）"}


def _stages(path: Path) -> set[str]:
    return {d.stage for d in WS.check(path).module.decls if isinstance(d, ir.Entry)}


SOURCES = translatable(WS)
COMPUTE = [p for p in SOURCES if "计算" in _stages(p) and sample_name(p) not in UNSUPPORTED]
RENDER_ONLY = [p for p in SOURCES if _stages(p) and "计算" not in _stages(p)]


def golden(path: Path) -> Path:
    return path.with_name(path.name.replace("。着色器。豫", "。千手"))


def test_there_are_compute_samples():
    assert len(COMPUTE) >= 20, [sample_name(p) for p in COMPUTE]
    assert RENDER_ONLY


@pytest.mark.parametrize("path", COMPUTE, ids=sample_name)
def test_golden(path):
    result = translate(WS, path, "ptx")
    assert result.diagnostics == []
    assert golden(path).is_file(), f"缺少期望的 PTX：{golden(path)}"
    assert result.text == golden(path).read_text(encoding="utf-8")
    assert result.text.isascii()
    assert result.text.startswith(".version 7.0\n.target sm_80\n.address_size 64\n")   # loads on CUDA 11 drivers


@pytest.mark.parametrize("path", COMPUTE, ids=sample_name)
def test_every_compute_entry_is_a_visible_entry(path):
    result = translate(WS, path, "ptx")
    entries = [d for d in WS.check(path).module.decls if isinstance(d, ir.Entry) and d.stage == "计算"]
    assert [e.item for e in result.entries] == [e.name for e in entries]
    for info, entry in zip(result.entries, entries):
        assert f".visible .entry {info.function}(" in result.text
        assert f".reqntid {', '.join(map(str, entry.workgroup_shape))}" in result.text
        assert info.block == entry.workgroup_shape and math.prod(info.block) == entry.workgroup_size
        assert info.function.startswith(ENTRY_PREFIX) and info.function.isascii()


def test_goldens_have_sources():
    for g in SAMPLES.rglob("*。千手"):
        source = g.with_name(g.name.replace("。千手", "。着色器。豫"))
        assert source in COMPUTE, f"{g} 没有对应的计算样例"


@pytest.mark.parametrize("name, reason", sorted(UNSUPPORTED.items()))
def test_unsupported_samples_say_why(name, reason):
    result = translate(WS, SAMPLES / f"{name}。着色器。豫", "ptx")
    assert result.text is None
    assert any(reason in d.message for d in result.diagnostics), result.diagnostics


@pytest.mark.parametrize("path", RENDER_ONLY, ids=sample_name)
def test_render_only_modules_are_an_error(path):
    result = translate(WS, path, "ptx")
    assert result.text is None
    [d] = result.diagnostics
    assert "千手目标只支持计算入口" in d.message and d.definition


def assemble(text: str, arch: str, tmp_path: Path) -> subprocess.CompletedProcess:
    source = tmp_path / "kernel.ptx"
    source.write_text(text, encoding="utf-8")
    return subprocess.run([PTXAS, f"-arch={arch}", "--warning-as-error", str(source), "-o",
                           str(tmp_path / "kernel.cubin")], capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(PTXAS is None, reason="跳过：PATH 上没有 ptxas，无法核对 PTX 能否汇编")
@pytest.mark.parametrize("arch", ARCHES)
@pytest.mark.parametrize("path", COMPUTE, ids=sample_name)
def test_ptxas_assembles_without_warnings(path, arch, tmp_path):
    done = assemble(golden(path).read_text(encoding="utf-8"), arch, tmp_path)
    assert done.returncode == 0 and not done.stderr.strip() and not done.stdout.strip(), done.stderr


@pytest.mark.skipif(PTXAS is None, reason="跳过：PATH 上没有 ptxas，无法核对 PTX 能否汇编")
def test_ptxas_would_catch_a_broken_kernel(tmp_path):
    """The check above can fail: ptxas rejects a non-ASCII byte and a wrong operand."""
    text = golden(SAMPLES / "加倍。着色器。豫").read_text(encoding="utf-8")
    assert assemble(text.replace("ret;", "// 注释\n\tret;"), "sm_80", tmp_path).returncode != 0
    assert assemble(text.replace("mul.lo.u32", "mul.lo.f64"), "sm_80", tmp_path).returncode != 0


def test_seed_example_entry_name():
    result = translate(WS, SAMPLES / "加倍。着色器。豫", "ptx")
    assert [e.function for e in result.entries] == ["yy_e5_8a_a0_e5_80_8d"]
    assert "p_g0_b0" in result.text and "cvta.to.global.u64" in result.text


# ---------------------------------------------------------------- the subcommand


def test_subcommand_prints_ptx_and_the_entry_table(capsys, monkeypatch):
    monkeypatch.chdir(SAMPLES)
    assert main(["千手", "局部循环。着色器。豫"]) == 0
    out, err = capsys.readouterr()
    assert out == golden(SAMPLES / "局部循环。着色器。豫").read_text(encoding="utf-8")
    name = mangle("三角数", ENTRY_PREFIX)
    assert err == f"三角数入口\t{name}\t计算\n"  # exactly LANGUAGE.md §8's three columns
    assert main(["千手", "局部循环。着色器。豫", "--详细"]) == 0
    _, err = capsys.readouterr()
    assert err == (f"三角数入口\t{name}\t计算\t块 64×1×1；参数 p_g0_b0=「结果」，"
                   "p_g0_b0_n=「结果」的元素个数（.u32，缓冲字节数÷4）\n")


def test_subcommand_ascii_alias_and_placeholders(capsys, monkeypatch):
    monkeypatch.chdir(SAMPLES)
    assert main(["ptx", "原子最值。着色器。豫", "--详细"]) == 0
    lines = capsys.readouterr().err.splitlines()
    first = lines[0].split("\t")
    assert first[:3] == ["重置入口", mangle("重置", ENTRY_PREFIX), "计算"]
    assert "p_g0_b0=占位（组 0 号 0 未用）" in first[3]


def test_subcommand_reports_render_only_files(capsys, monkeypatch):
    monkeypatch.chdir(SAMPLES)
    assert main(["千手", "三角形。着色器。豫"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("三角形。着色器。豫:") and "千手目标只支持计算入口" in err


def test_subcommand_usage_errors(capsys, monkeypatch):
    monkeypatch.chdir(SAMPLES)
    assert main(["千手", "没有这个文件。着色器。豫"]) == 2
    assert "找不到文件" in capsys.readouterr().err
    assert os.path.exists("加倍.wgsl")
    assert main(["千手", "加倍.wgsl"]) == 2
    assert "不是着色文件" in capsys.readouterr().err


def test_read_only_buffers_are_read_through_the_non_coherent_path():
    """Issue 27: 乘加 reads 参数 (uniform) and 甲 (只读) with ld.global.nc and
    乙, which it also writes, with a plain ld.global."""
    text = translate(WS, SAMPLES / "乘加。着色器。豫", "ptx").text
    bases = dict(re.findall(r"cvta\.to\.global\.u64 (%rd\d+), (%rd\d+);", text))
    params = {raw: name for raw, name in re.findall(r"ld\.param\.u64 (%rd\d+), \[(\w+)\];", text)}
    pointer = {base: params[raw] for base, raw in bases.items()}
    address = dict(re.findall(r"add\.s64 (%rd\d+), (%rd\d+), %rd\d+;", text))
    loads = re.findall(r"ld\.(global(?:\.nc)?)\.\w+ %\w+, \[(%rd\d+)(?:\+\d+)?\];", text)
    spaces = {(space, pointer[address.get(reg, reg)]) for space, reg in loads}
    assert spaces == {("global.nc", "p_g0_b0"), ("global.nc", "p_g0_b1"), ("global", "p_g0_b2")}


# ---------------------------------------------------------------- code shape (issue 27)


def _sample_ptx(name: str) -> str:
    return translate(WS, SAMPLES / f"{name}。着色器。豫", "ptx").text


def test_loops_are_tested_at_the_bottom():
    """A loop whose body is one 若 is tested once before it and at the end of
    each round (the shape ptxas unrolls): no unconditional jump back to its top."""
    for name in ("分块矩阵乘", "局部循环", "矩阵向量积"):
        text = _sample_ptx(name)
        assert re.search(r"^\t@%p\d+ bra L\d+_loop;$", text, re.M), name
        assert not re.search(r"^\tbra L\d+_loop;$", text, re.M), name


def test_small_workgroup_variables_are_cleared_without_a_loop():
    text = _sample_ptx("共享直方图")
    assert "_zero" not in text and len(re.findall(r"@%p\d+ st\.shared\.u32 \[%r\d+\], 0;", text)) == 2


def _entry_ptx(text: str, function_start: str) -> str:
    return text[text.index(f".visible .entry {function_start}"):].split("\n}", 1)[0]


def test_two_writes_of_one_element_are_one_store_of_a_selected_value():
    """二维模板's 若 边 则 写数组(输出, i, 心) 否则 写数组(输出, i, …): one st.global.f32
    after a selp, no branch between the two ways (`Writer._merged_write`)."""
    text = _sample_ptx("二维模板")
    stencil = text[:text.index(".visible .entry", text.index(".visible .entry") + 1)]
    assert len(re.findall(r"st\.global\.f32", stencil)) == 1 and "selp.f32" in stencil
    assert "_else" not in stencil


def test_a_read_below_a_tested_length_is_unchecked_and_the_other_arrays_still_are():
    """工作组广播's 若 全 小于 长 (长 a 令 of 数组长度 于 输入): 输入[全] needs no bounds
    test, only the 若's; 输出[全] and 旋转[全] still each have theirs, joined with the
    若's test: the body (writes, a read-only buffer's element, workgroup values) is
    predicated, no branch (`Writer._predicable`), the workgroup values read unguarded."""
    text = _sample_ptx("工作组广播")
    region = text[text.index("L1_end:"):]
    test = re.search(r"setp\.lt\.u32 (%p\d+), %r\d+, %r\d+;", region).group(1)
    assert re.search(rf"^\t@{test} ld\.global\.nc\.f32 %r\d+, \[%rd\d+\];$", region, re.M)
    assert len(re.findall(rf"and\.pred (%p\d+), %p\d+, {test};", region)) == 2
    assert len(re.findall(r"@%p\d+ st\.global", region)) == 2 and " bra " not in region
    assert not re.search(r"@%p\d+ ld\.shared", region)


def test_a_small_body_of_writes_is_predicated_not_branched_around():
    """两种若's 若 x 小于 0 或 x 大于 1 则 写数组(标记, 序, 1) (`Writer._predicable`): no
    branch around it, the write predicated on the test and its bounds together."""
    text = _sample_ptx("两种若")
    assert re.search(r"^\tand\.pred (%p\d+), %p\d+, %p\d+;\n\t@\1 st\.global\.u32 \[%rd\d+\], 1;$", text, re.M)


def test_a_read_written_back_is_one_bounds_test_branched_around():
    """查表与填表's 令 旧 为 读数组(记录, i) 而 写数组(记录, i, …): one bounds test
    skips both, the reads and writes inside unpredicated (`Writer._read_then_written`)."""
    text = _sample_ptx("查表与填表")
    inside = text[text.index("bra L1_skip;"):text.index("L1_skip:")]
    assert not re.search(r"@%p\d+ (ld|st)\.", inside) and inside.count("ld.global") == 5 and inside.count("st.global") == 5


def test_vector_elements_are_one_access():
    text = _sample_ptx("向量运算")
    assert "ld.global.nc.v4.f32 {" in text and "st.global.v4.f32 [" in text


@pytest.mark.parametrize("path", COMPUTE, ids=sample_name)
def test_no_f16_is_widened_only_to_be_narrowed_again(path):
    """f16 → f32 → f16 is the identity: the writer keeps the f16 register."""
    text = translate(WS, path, "ptx").text
    widened = set(re.findall(r"cvt\.f32\.f16 (%r\d+),", text))
    narrowed = set(re.findall(r"cvt\.rn\.f16\.f32 %h\d+, (%r\d+);", text))
    assert not widened & narrowed


#: f32 sums without a rounding modifier, which ptxas may fuse with a multiplication feeding them
UNROUNDED_SUM = re.compile(r"^\t(?:add|sub)\.f32 %r\d+, ([^,;]+), ([^,;]+);$", re.M)
DEFINITION = re.compile(r"^\t(?:@!?%p\d+ )?([a-z][\w.]*) \{?([^,;{}]+)[^;]*?((?:, [^;]+)?);$", re.M)
#: through these a product stays a product for ptxas (a sign, a select, a copy)
PASSING_ON = ("abs.", "neg.", "selp.", "mov.", "copysign.")


def _may_be_product(register: str, definitions: dict, seen: set) -> bool:
    if not register.startswith("%r") or register in seen:
        return False
    seen.add(register)
    for instruction, operands in definitions.get(register, []):
        if instruction.startswith(("mul.", "mad.")):    # an fma's result is rounded once: nothing left to fuse
            return True
        if instruction.startswith(PASSING_ON) and any(_may_be_product(o, definitions, seen) for o in operands):
            return True
    return False


@pytest.mark.parametrize("path", COMPUTE, ids=sample_name)
def test_unrounded_sums_have_no_product_operand(path):
    """Issue 27: add/sub.f32 without .rn (which lets ptxas drop subnormal fix-ups)
    only where no operand is, or passes on, a product: PTX ISA, "mul/add sequences
    with no rounding modifiers may be optimized to use fused-multiply-add"."""
    for text in golden(path).read_text(encoding="utf-8").split(".entry")[1:]:     # registers are per entry
        definitions: dict = {}
        for instruction, dest, rest in DEFINITION.findall(text):
            operands = [o.strip() for o in rest.split(",") if o.strip()]
            definitions.setdefault(dest.strip(), []).append((instruction, operands))
        for sum_ in UNROUNDED_SUM.finditer(text):
            for operand in sum_.groups():
                assert not _may_be_product(operand.strip(), definitions, set()), sum_.group(0)


def test_tile_indices_need_no_bounds_checks():
    """分块矩阵乘's tiles are indexed by ty·16 + tx (from the local invocation
    index) and, inside the bottom-tested inner loop, by ty·16 + k and k·16 + tx
    with k below 16 there: every workgroup access is unchecked."""
    text = _sample_ptx("分块矩阵乘")
    assert re.findall(r"[ls]t\.shared", text) and not re.findall(r"@%p\d+ [ls]t\.shared", text)



def test_loops_the_constant_evaluator_follows_are_written_out():
    """归约's strides 128 … 1, 前缀和's offsets 1 … 128 and 子组归约's butterfly
    distances (its value carried from round to round in registers) are known:
    each round is written with them as immediates, no loop is left, and 局 加 跨
    under 若「局」小于「跨」 (局 减 偏移 under 不小于) needs no bounds check."""
    for name, rounds in (("归约", 8), ("前缀和", 8), ("子组归约", 5)):
        text = _sample_ptx(name)
        assert "_loop:" not in text, name
    reduction = _sample_ptx("归约")
    rounds = re.findall(r"setp\.(lt|eq)\.u32 %p\d+, %r\d+, (\d+);\n\t@!%p\d+ bra", reduction)
    assert rounds == [("lt", "128"), ("lt", "64"), ("lt", "32"), ("lt", "16"), ("lt", "8"), ("lt", "4"), ("lt", "2"),
                      ("eq", "0"), ("eq", "0")]      # 局 < 1 is written 局 == 0, the test that ends the kernel
    assert not re.findall(r"@%p\d+ ld\.shared", reduction)
    scan = _sample_ptx("前缀和")     # 若 局 不小于 偏移 则 b[局 − 偏移] 否则 0: a predicated read, no branch
    assert len(re.findall(r"@%p\d+ ld\.shared", scan)) == 8 and "bra" not in scan.split("bar.sync")[1]
    assert len(re.findall(r"shfl\.sync\.bfly", _sample_ptx("子组归约"))) >= 5


def test_loops_with_a_runtime_trip_count_stay_loops():
    """矩阵向量积's trip count is a runtime value; 分块矩阵乘's outer loop too."""
    for name in ("矩阵向量积", "分块矩阵乘"):
        assert "_loop:" in _sample_ptx(name), name


def test_a_guarded_read_in_a_value_branch_is_predicated_not_branched():
    """若 行 小于 M 且 ak 小于 K 则 读数组 … 否则 0: the read is predicated on the
    test and its own bounds guard — no else block, and no selp either, as the
    read's register already holds 0 wherever the test fails."""
    text = _sample_ptx("分块矩阵乘")
    guarded = re.findall(r"and\.pred (%p\d+), %p\d+, %p\d+;\n\tmov\.f32 %r\d+, 0f00000000;\n\t@\1 ld\.global", text)
    assert len(guarded) == 2
    assert "_else:" not in text and "selp.f32" not in text


def test_a_clamped_index_is_checked_once_against_an_empty_array():
    """读数组 于 输入 于（最小 于 序 于（长 减 1））is inside unless 长 is 0."""
    for name in ("归约", "子组归约"):
        text = _sample_ptx(name)
        (length,) = re.findall(r"ld\.param\.u32 (%r\d+), \[p_g0_b0_n\];", text)
        assert f"setp.ne.u32 %p1, {length}, 0;" in text, name


def test_a_write_back_of_the_same_element_tests_its_bounds_once():
    """数据[序] 乘 2 written back to 数据[序]: one test branches around the
    statement (an out-of-bounds write is dropped, so its value is not needed)."""
    text = _sample_ptx("加倍")
    assert len(re.findall(r"setp\.gt\.u32", text)) == 1 and re.search(r"@!%p1 bra L\d+_skip;", text)
    assert not re.findall(r"@%p\d+ (ld|st)\.global", text)


def test_a_read_under_its_own_length_test_is_not_tested_again():
    """若「序」小于（「数组长度」于「数据」）则 …「读数组」于「数据」于「序」…: the 若 is the bounds check."""
    text = _sample_ptx("共享直方图")
    assert re.search(r"^\tld\.global\.nc\.u32 %r\d+, \[%rd\d+\];$", text, re.M)
    assert not re.search(r"@%p\d+ ld\.global", text)


def test_elements_root_plus_k_are_constant_offsets_from_one_address():
    """a[i·K 加 k], i·K a multiple of K = 2ʲ > k: no wrap, so one address and
    offsets k·stride (矩阵与标量's 4i + k, 序列与格's 16·行 + its 格 column,
    known in each written-out round); the fragment lane index is computed once."""
    scalar = _sample_ptx("矩阵与标量")
    assert [int(n) for n in re.findall(r"st\.global\.v4\.f32 \[%rd\d+\+(\d+)\]", scalar)] == [16, 32, 48]
    scan = _sample_ptx("序列与格")
    assert [int(n) for n in re.findall(r"ld\.global\.nc\.f32 %r\d+, \[%rd\d+\+(\d+)\]", scan)] == list(range(4, 64, 4))
    for name in ("子组矩阵片", "子组整矩阵片", "子组矩阵片存储"):
        assert _sample_ptx(name).count("%laneid") == 1, name


def test_a_round_ending_in_two_next_rounds_jumps_back_once():
    """考拉兹's 若 偶 则 走(数 右移 1, 计 加 1) 否则 走(3 乘 数 加 1, 计 加 1): both next values
    computed, one selp per variable (计 加 1 is the same in both: no selp), one jump back."""
    text = _sample_ptx("考拉兹")
    assert len(re.findall(r"bra L\d+_loop;", text)) == 1
    assert len(re.findall(r"selp\.b32|selp\.u32", text)) == 1
