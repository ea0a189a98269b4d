"""The PTX emulator's own tests (the emulator is tests/support/ptx_emulator.py)."""

import numpy as np
import pytest

from support.ptx_emulator import EmulatorError, Instruction, Kernel, Memory, Thread, from_float, launch


KERNEL = """.version 8.0
.target sm_80
.address_size 64

.visible .entry k(
\t.param .u64 p_g0_b0
)
.reqntid 64, 1, 1
{
\t.reg .pred %p<3>;
\t.reg .b32 %r<12>;
\t.reg .b64 %rd<5>;
\t.shared .align 4 .b8 ys_s[256];

\tld.param.u64 %rd1, [p_g0_b0];
\tcvta.to.global.u64 %rd2, %rd1;
\tmov.u32 %r1, %tid.x;
\tmul.wide.u32 %rd3, %r1, 4;
\tmov.u64 %rd4, ys_s;
\tadd.s64 %rd4, %rd4, %rd3;
\tst.shared.u32 [%rd4], %r1;
\tbar.sync 0;
\txor.b32 %r2, %r1, 63;
\tmul.wide.u32 %rd3, %r2, 4;
\tmov.u64 %rd4, ys_s;
\tadd.s64 %rd4, %rd4, %rd3;
\tld.shared.u32 %r3, [%rd4];
\tactivemask.b32 %r4;
\tshfl.sync.bfly.b32 %r5, %r1, 1, 31, %r4;
\tsetp.lt.u32 %p1, %r1, 32;
\t@!%p1 bra L1_end;
\tadd.u32 %r5, %r5, 1000;
L1_end:
\tmul.wide.u32 %rd3, %r1, 8;
\tadd.s64 %rd3, %rd2, %rd3;
\tst.global.u32 [%rd3], %r3;
\tst.global.u32 [%rd3+4], %r5;
\tret;
}
"""


def test_emulator_runs_barriers_shared_memory_shuffles_and_branches():
    out = bytearray(64 * 8)
    launch(KERNEL, "k", [Memory.address_of(0)], [out], (1, 1, 1))
    got = np.frombuffer(out, np.uint32).reshape(64, 2)
    lanes = np.arange(64)
    np.testing.assert_array_equal(got[:, 0], 63 - lanes)
    np.testing.assert_array_equal(got[:, 1], (lanes ^ 1) + np.where(lanes < 32, 1000, 0))


def test_emulator_refuses_out_of_bounds_and_unknown_registers():
    with pytest.raises(EmulatorError, match="越界"):
        launch(KERNEL, "k", [Memory.address_of(0)], [bytearray(64 * 8 - 4)], (1, 1, 1))
    broken = KERNEL.replace("st.shared.u32 [%rd4], %r1;", "st.shared.u32 [%rd4], %r9;")
    with pytest.raises(EmulatorError, match="未赋值"):
        launch(broken, "k", [Memory.address_of(0)], [bytearray(64 * 8)], (1, 1, 1))


def test_emulator_arithmetic_semantics():
    t = Thread(Kernel("k", [], (32, 1, 1)), Memory([]), {}, 0, (0, 0, 0), (1, 1, 1))

    def run(op, *operands):
        t.execute(Instruction(None, op, ["%r1", *operands]))
        return t.regs["%r1"]

    assert run("div.rn.f32", "1.0", "3.0") == from_float(np.float32(1) / np.float32(3), "f32")
    assert run("copysign.f32", "-1.0", "2.0") == from_float(-2.0, "f32")
    assert run("cvt.rzi.s32.f32", "0f7F800000") == 2 ** 31 - 1
    assert run("cvt.rzi.u32.f32", "-5.0") == 0
    assert run("cvt.rni.f32.f32", "2.5") == from_float(2.0, "f32")
    assert run("shr.s32", "-8", "1") == (-4) & 0xFFFFFFFF
    assert run("rem.s32", "-7", "2") == (-1) & 0xFFFFFFFF
    assert run("div.s32", "-7", "2") == (-3) & 0xFFFFFFFF
    assert run("brev.b32", "1") == 0x80000000
    t.execute(Instruction(None, "setp.neu.f32", ["%p1", "0f7FC00000", "1.0"]))
    assert t.regs["%p1"] is True
    t.execute(Instruction(None, "setp.eq.and.s32", ["%p2", "-1", "-1", "%p1"]))
    assert t.regs["%p2"] is True



def test_emulator_f16x2_arithmetic_works_on_each_half_as_f16():
    """PTX ISA: a .f16x2 instruction is the .f16 one on the low halves and on the high halves
    (2048 + 1 rounds to even, 3 · ⅓ rounds, a NaN operand of max/min gives the other)."""
    t = Thread(Kernel("k", [], (32, 1, 1)), Memory([]), {}, 0, (0, 0, 0), (1, 1, 1))
    half = lambda x: from_float(x, "f16")
    cases = {"add.rn.f16x2": (2048.0, 1.0, 0.5, 0.25), "mul.rn.f16x2": (3.0, 1 / 3, -2.0, 0.5),
             "max.f16x2": (np.nan, -1.0, -0.0, 0.0), "min.f16x2": (1.0, np.nan, 5.0, -7.0)}
    for op, (a_low, b_low, a_high, b_high) in cases.items():
        expected = []
        for a, b in ((a_low, b_low), (a_high, b_high)):
            t.regs.update({"%h2": half(a), "%h3": half(b)})
            t.execute(Instruction(None, op.replace("f16x2", "f16"), ["%h1", "%h2", "%h3"]))
            expected.append(t.regs["%h1"])
        t.regs.update({"%r2": half(a_low) | half(a_high) << 16, "%r3": half(b_low) | half(b_high) << 16})
        t.execute(Instruction(None, op, ["%r1", "%r2", "%r3"]))
        assert t.regs["%r1"] == expected[0] | expected[1] << 16, op
    assert expected == [half(1.0), half(-7.0)] and half(2049.0) == half(2048.0)



def test_emulator_lanemasks_name_the_lanes_compared_with_this_one():
    t = Thread(Kernel("k", [], (64, 1, 1)), Memory([]), {}, 37, (0, 0, 0), (1, 1, 1))   # lane 5 of warp 1
    masks = {name: t.get(f"%lanemask_{name}", "u32") for name in ("eq", "lt", "le", "gt", "ge")}
    assert masks == {"eq": 0x20, "lt": 0x1F, "le": 0x3F, "gt": 0xFFFFFFC0, "ge": 0xFFFFFFE0}


WARP_KERNEL = """
.version 8.0
.target sm_80
.address_size 64

.visible .entry w(
\t.param .u64 p_out
)
.reqntid 40, 1, 1
{
\t.reg .pred %p<4>;
\t.reg .b32 %r<20>;
\t.reg .b64 %rd<4>;
\tld.param.u64 %rd1, [p_out];
\tcvta.to.global.u64 %rd1, %rd1;
\tmov.u32 %r1, %tid.x;
\tactivemask.b32 %r2;
\tshfl.sync.up.b32 %r3, %r1, 3, 0, %r2;
\tshfl.sync.down.b32 %r4, %r1, 3, 31, %r2;
\tsetp.ne.u32 %p1, %r1, 5;
\tvote.sync.ballot.b32 %r5, %p1, %r2;
\tvote.sync.all.pred %p2, %p1, %r2;
\tselp.u32 %r6, 1, 0, %p2;
\tredux.sync.xor.b32 %r7, %r1, %r2;
\tredux.sync.min.s32 %r8, %r1, %r2;
\tbfind.u32 %r9, %r5;
\tmul.wide.u32 %rd2, %r1, 28;
\tadd.s64 %rd2, %rd1, %rd2;
\tst.global.u32 [%rd2], %r3;
\tst.global.u32 [%rd2+4], %r4;
\tst.global.u32 [%rd2+8], %r5;
\tst.global.u32 [%rd2+12], %r6;
\tst.global.u32 [%rd2+16], %r7;
\tst.global.u32 [%rd2+20], %r8;
\tst.global.u32 [%rd2+24], %r9;
\tret;
}
"""


def test_emulator_warp_votes_reductions_and_shifted_shuffles_in_a_partial_warp():
    """PTX ISA: shfl.up/down out of range keep the lane's own value; vote and
    redux see only the lanes of membermask (here the 8 lanes of the second warp)."""
    out = bytearray(40 * 28)
    launch(WARP_KERNEL, "w", [Memory.address_of(0)], [out], (1, 1, 1))
    got = np.frombuffer(out, np.uint32).reshape(40, 7)
    tid = np.arange(40)
    lane, first = tid % 32, tid - tid % 32
    count = np.where(tid < 32, 32, 8)
    np.testing.assert_array_equal(got[:, 0], np.where(lane >= 3, tid - 3, tid))
    down = got[:, 1][lane + 3 < count]
    np.testing.assert_array_equal(down, (tid + 3)[lane + 3 < count])
    assert got[0, 2] == 0xFFFFFFFF & ~(1 << 5) and got[32, 2] == 0xFF
    np.testing.assert_array_equal(got[:, 3], np.where(tid < 32, 0, 1))
    np.testing.assert_array_equal(got[:, 4], np.where(tid < 32, np.bitwise_xor.reduce(np.arange(32)),
                                                      np.bitwise_xor.reduce(np.arange(32, 40))))
    np.testing.assert_array_equal(got[:, 5], first)
    np.testing.assert_array_equal(got[:, 6], np.where(tid < 32, 31, 7))


def test_emulator_refuses_a_membermask_naming_lanes_that_do_not_execute():
    broken = WARP_KERNEL.replace("vote.sync.ballot.b32 %r5, %p1, %r2;", "vote.sync.ballot.b32 %r5, %p1, -1;")
    with pytest.raises(EmulatorError, match="membermask"):
        launch(broken, "w", [Memory.address_of(0)], [bytearray(40 * 28)], (1, 1, 1))
