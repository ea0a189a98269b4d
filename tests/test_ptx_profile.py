"""`着色器 剖析` (issue 27): per compute entry, ptxas's registers, spills,
shared memory, the static SASS size and the occupancy, without a GPU; a clear
message when ptxas is missing."""

from __future__ import annotations

import shutil

import pytest

from support.references import SAMPLES
from zhuose.cli.main import main
from zhuose.compiler.backends.ptx import profile

PTXAS = shutil.which("ptxas")


def test_ptxas_report_is_read_per_kernel():
    text = ("ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
            "ptxas info    : Function properties for k\n"
            "    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
            "ptxas info    : Used 40 registers, used 1 barriers, 2048 bytes smem, 360 bytes cmem[0]\n")
    k = profile.parse_verbose(text, "sm_80")["k"]
    assert (k.registers, k.stack, k.spill_stores, k.spill_loads, k.shared, k.barriers) == (40, 16, 8, 4, 2048, 1)


@pytest.mark.parametrize("registers, block, shared, expected", [
    (18, 256, 2048, (64, "线程束数")),      # 8 warps a block, 8 blocks
    (64, 256, 0, (32, "寄存器")),           # 2048 registers a warp: 32 warps
    (16, 32, 0, (32, "块数")),              # one warp a block, 32 blocks at most
    (16, 64, 48 * 1024, (6, "共享内存")),    # 164 KiB ÷ 49 KiB: 3 blocks of 2 warps
])
def test_occupancy_names_its_limit(registers, block, shared, expected):
    k = profile.KernelProfile("k", "sm_80", registers=registers, shared=shared, block=block)
    assert k.occupancy() == expected


@pytest.mark.skipif(PTXAS is None, reason="没有 ptxas")
def test_profile_prints_every_entry_on_both_architectures(capsys, monkeypatch):
    monkeypatch.chdir(SAMPLES)
    assert main(["剖析", "原子最值。着色器。豫"]) == 0
    out = capsys.readouterr().out
    assert out.count("sm_80：寄存器") == out.count("sm_90：寄存器") >= 2
    assert "无溢出" in out and "SASS" in out and "线程束" in out
    assert main(["profile", "分块矩阵乘。着色器。豫", "分块乘入口"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("分块乘入口（") and "共享内存 2048 字节" in out


def test_without_ptxas_profile_says_what_is_missing(capsys, monkeypatch):
    monkeypatch.chdir(SAMPLES)
    monkeypatch.setattr(profile.shutil, "which", lambda name: None)
    assert main(["剖析", "加倍。着色器。豫"]) == 1
    assert "找不到 ptxas" in capsys.readouterr().err


def test_an_unknown_entry_item_is_a_usage_error(capsys, monkeypatch):
    monkeypatch.chdir(SAMPLES)
    assert main(["剖析", "加倍。着色器。豫", "无此入口"]) == 2
    assert "没有名为「无此入口」的计算入口项" in capsys.readouterr().err


def test_a_kernel_that_spills_or_keeps_a_stack_uses_local_memory():
    assert not profile.KernelProfile("k", "sm_80", registers=12).local_memory
    assert profile.KernelProfile("k", "sm_80", stack=16).local_memory
    assert profile.KernelProfile("k", "sm_80", spill_loads=4).local_memory
    assert profile.KernelProfile("k", "sm_80", spill_stores=8, spill_loads=4).summary().startswith(
        "sm_80：寄存器 0，溢出 8+4 字节，栈 0 字节")


@pytest.mark.skipif(PTXAS is None, reason="跳过：PATH 上没有 ptxas")
def test_hover_on_a_compute_entry_item_shows_its_profile(tmp_path):
    """The language server shows 剖析 on the entry item (its declaration and definition)."""
    from zhuose.server.hover import hover
    from zhuose.server.project import Project
    text = (SAMPLES / "乘加。着色器。豫").read_text(encoding="utf-8")
    file = tmp_path / "乘加。着色器。豫"
    file.write_text(text, encoding="utf-8")
    p = Project(tmp_path)
    key = p.open(file.as_uri(), 1, text)
    for needle in ("「乘加入口」乃", "「乘加入口」者"):
        shown, _ = hover(p, p.locate(key, text.index(needle) + 1))
        assert "剖析（ptxas，块 64×1×1）：" in shown
        assert "- sm_80：寄存器 " in shown and "- sm_90：寄存器 " in shown and "⚠" not in shown
    shown, _ = hover(p, p.locate(key, text.index("「乘加」乃") + 1))
    assert "剖析" not in shown                     # the function is not the entry item


def test_an_entry_using_local_memory_gets_a_warning_on_its_item(tmp_path, monkeypatch):
    """The language server's warning (server/validate.py): ptxas's figures as if the kernel kept a stack."""
    from zhuose.compiler.diagnostics import LOCAL_MEMORY
    from zhuose.server import validate
    from zhuose.server.project import Project
    text = (SAMPLES / "乘加。着色器。豫").read_text(encoding="utf-8")
    file = tmp_path / "乘加。着色器。豫"
    file.write_text(text, encoding="utf-8")
    p = Project(tmp_path)
    key = p.open(file.as_uri(), 1, text)
    fake = lambda ptx, entries, arch: [profile.KernelProfile(e.function, arch, stack=16) for e in entries]  # noqa: E731
    monkeypatch.setattr(profile, "profile_entries", fake)
    (warning,) = validate.local_memory_diagnostics(p, key)
    assert (warning.severity, warning.code, warning.fields) == ("警告", LOCAL_MEMORY, {"入口": "乘加入口", "架构": "sm_80"})
    assert text[warning.start:warning.end] == "「乘加入口」"
    monkeypatch.setattr(profile, "profile_entries",
                        lambda ptx, entries, arch: [profile.KernelProfile(e.function, arch) for e in entries])
    assert validate.local_memory_diagnostics(p, key) == []


LISTING = """
        .section        .text.k,"ax",@progbits
k:
        /*0000*/                   S2R R0, SR_TID.X ;
        /*0010*/                   ISETP.GE.U32.AND P0, PT, R0, c[0x0][0x168], PT ;
        /*0020*/               @P0 EXIT ;
.L_x_0:
        /*0030*/                   LDG.E.CONSTANT R2, [R4.64] ;
        /*0040*/                   FFMA R3, R2, R2, R3 ;
        /*0050*/                   FFMA R3, R2, R2, R3 ;
        /*0060*/                   ISETP.NE.AND P1, PT, R0, RZ, PT ;
        /*0070*/               @P1 BRA `(.L_x_0) ;
        /*0080*/                   STG.E [R4.64], R3 ;
        /*0090*/                   EXIT ;
.L_x_1:
        /*00a0*/                   BRA `(.L_x_1);
        /*00b0*/                   NOP;
"""


def test_nvdisasm_listing_is_read_by_kind_and_walked_by_trip_count():
    """剖析's SASS kinds, and bench/sass_paths.py's executed count: a loop unrolled
    twice (two FFMA a round) of 8 source rounds runs 4 times."""
    import sys
    sys.path.insert(0, str(SAMPLES.parent / "bench"))
    from sass_paths import SourceLoop, executed
    (name, code), = profile.parse_disassembly(LISTING).items()
    assert name == "k" and len(code) == 11 and code[7].target == 0x30 and code[2].predicated
    kinds = profile.kinds_of(code)
    assert (kinds["全局读"], kinds["全局写"], kinds["分支"]) == (1, 1, 2)
    assert executed(code, [SourceLoop(8, ("FFMA",))]) == 3 + 4 * 5 + 2


FALLBACK = """
        .section        .text.k,"ax",@progbits
k:
        /*0000*/                   S2R R0, SR_TID.X ;
        /*0010*/              @!PT BRA `(.L_x_1) ;
        /*0020*/                   SHFL.IDX PT, R2, R0, RZ, 0x1f ;
.L_x_0:
        /*0030*/                   STG.E [R4.64], R2 ;
        /*0040*/                   EXIT ;
.L_x_1:
        /*0050*/                   CALL.REL.NOINC `($__internal_0$__cuda_sm70_shflsync_idx) ;
        /*0060*/                   BRA `(.L_x_0) ;
.L_x_2:
        /*0070*/                   BRA `(.L_x_2);
"""


def test_a_never_taken_fallback_branch_is_no_loop_and_not_walked():
    """ptxas's shfl.sync fallback (`@!PT BRA` to a CALL that branches back) is dead code: its backward
    branch is not a loop wanting a marker, and the walk counts the straight path only."""
    import sys
    sys.path.insert(0, str(SAMPLES.parent / "bench"))
    from sass_paths import executed, loops_of
    (code,) = profile.parse_disassembly(FALLBACK).values()
    assert loops_of(code) == []
    assert executed(code, []) == 5


SHORT_WAY_FIRST = """
        .section        .text.k,"ax",@progbits
k:
        /*0000*/                   MOV R9, RZ ;
.L_x_0:
        /*0010*/                   ISETP.NE.U32.AND P0, PT, R9, R20, PT ;
        /*0020*/               @P0 BRA `(.L_x_1) ;
        /*0030*/                   IADD3 R9, R9, 0x1, RZ ;
        /*0040*/               @!P1 BRA `(.L_x_2) ;
        /*0050*/                   BRA `(.L_x_3) ;
.L_x_1:
        /*0060*/                   MUFU.RSQ R3, R2 ;
        /*0070*/                   IADD3 R9, R9, 0x1, RZ ;
.L_x_2:
        /*0080*/                   BRA `(.L_x_0) ;
.L_x_3:
        /*0090*/                   EXIT ;
.L_x_4:
        /*00a0*/                   BRA `(.L_x_4);
"""


def test_the_walk_takes_a_branch_over_a_way_out_while_rounds_are_left():
    """ptxas lays the short way of a round (鸟群's 若 i 等于 序 则 下一轮) first, ending in a
    branch out of the loop: while rounds are left the walk takes the branch around it
    (the round's work: 5 instructions, 10 rounds), and leaves in the last."""
    import sys
    sys.path.insert(0, str(SAMPLES.parent / "bench"))
    from sass_paths import SourceLoop, executed
    (code,) = profile.parse_disassembly(SHORT_WAY_FIRST).values()
    assert executed(code, [SourceLoop(10, ("MUFU",))]) == 1 + 9 * 5 + 6
