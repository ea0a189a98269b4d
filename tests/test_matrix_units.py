"""The seed's matrix units beyond the half-precision fragments: the integer
subgroup-matrix fragments of 着十二 (PTX only) and the tensor fragments of
着十三 (MSL only).  The samples run against NumPy in test_ptx_runtime.py and
test_msl_run.py; here: the emulator's s8 mma is independent of the writer (a
writer with one layout bit changed fails the sample), the checker's rules,
uniform control flow, and every other target's refusal with its reason."""

from __future__ import annotations

import pytest

from support.references import REFERENCES, sample_path
from support.ptx_runner import DEVICES, WS, ptx_run
from zhuose.compiler.backends import translate
from zhuose.compiler.backends.ptx import fragments
from zhuose.compiler.workspace import Workspace

INTEGER = "子组整矩阵片"


# ---------------------------------------------------------------- PTX: the writer against the ISA's layouts


def test_the_integer_sample_uses_m16n8k32_twice_per_product():
    text = translate(WS, sample_path(INTEGER), "ptx").text
    # two products, each over two K blocks (a loop the PTX writer writes out round by round), two mma each
    assert text.count("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32") == 2 * 2 * 2
    assert "ldmatrix.sync.aligned.m8n8.x4.shared.b16" in text and "cvt.rn.f32.s32" not in text


MUTANTS = {
    "甲的行列位互换": {"载入整矩阵片甲": fragments._ldmatrix((1, 0), size=1)},
    "乙的行列位互换": {"载入整矩阵片乙": fragments._ldmatrix((0, 1), size=1)},
    "列按半精度计": {"载入整矩阵片甲": fragments._ldmatrix(fragments.A_BITS, size=2)},
}


@pytest.mark.parametrize("mutant", MUTANTS)
def test_a_writer_with_one_layout_bit_changed_fails_the_sample(mutant, monkeypatch):
    """The emulator's m16n8k32 is written from the ISA's tables, not from the
    writer: change one placement in the writer and the NumPy check fails."""
    from zhuose.compiler.backends.ptx import ops
    for name, emit in MUTANTS[mutant].items():
        monkeypatch.setitem(ops.OPS, name, emit)
    monkeypatch.setattr(WS, "_translations", {})       # the workspace keeps translations: make it write anew
    with pytest.raises(AssertionError):
        REFERENCES[INTEGER](ptx_run(DEVICES["模拟"]))
    monkeypatch.undo()
    REFERENCES[INTEGER](ptx_run(DEVICES["模拟"]))          # and the writer as it is passes


# ---------------------------------------------------------------- the checker

HEAD = """寻观「点染」之「点染本」之书。

「字」乃「存储缓冲」于（「数组」于「无三二」）也。
「字」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「整出」乃「存储缓冲」于（「数组」于「整三二」）也。
「整出」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「读写」也】）也。
「浮出」乃「存储缓冲」于（「数组」于「浮三二」）也。
「浮出」者「绑定」于（「组值」【「组」者「零」也，「号」者「二」也，「访问」者「读写」也】）也。
「共」乃「工作组变量」于（「定长数组」于「无三二」于「二五六」）也。
「共」者「工作组共享」于「元」也。
「半共」乃「工作组变量」于（「定长数组」于「浮十六」于「二〇四八」）也。
「半共」者「工作组共享」于「元」也。

"""


def program(body: str, size: str = "三二", param: str = "局部调用序") -> str:
    return (HEAD + f"「核」乃化「{param}」为「有」者也。\n「核」者得「号」而\n{body}\n也。\n\n"
            f"「核入口」乃「计算入口」也。\n「核入口」者「计算入口项」于「核」于（「组值」【「工作组大小」者「{size}」也】）也。\n")


def errors(tmp_path, text: str) -> list[str]:
    path = tmp_path / "程序。着色器。豫"
    path.write_text(text, encoding="utf-8")
    ws = Workspace(tmp_path)
    return [d.message for d in ws.diagnostics(path) if d.severity == "错误"]


def translated(tmp_path, text: str, target: str):
    path = tmp_path / "程序。着色器。豫"
    path.write_text(text, encoding="utf-8")
    return translate(Workspace(tmp_path), path, target)


INTEGER_PRODUCT = ("「存整矩阵片累到存储」于「整出」于（「新无三二」于「零」）于（「新无三二」于「一六」）于"
                   "（「整矩阵片乘加」于（「载入整矩阵片甲」于「共」于（「新无三二」于「{start}」）于（「新无三二」于「六四」））"
                   "于（「载入整矩阵片乙」于「共」于（「新无三二」于「零」）于（「新无三二」于「六四」））"
                   "于（「满整矩阵片累」于（「新无三二」于「零」）））")


def test_integer_loads_count_s8_elements_in_multiples_of_16(tmp_path):
    assert errors(tmp_path, program("　" + INTEGER_PRODUCT.format(start="一六"))) == []
    [message] = errors(tmp_path, program("　" + INTEGER_PRODUCT.format(start="八")))
    assert "「载入整矩阵片甲」的起须是 16 的倍数" in message


def test_integer_fragments_need_whole_subgroups(tmp_path):
    result = translated(tmp_path, program("　" + INTEGER_PRODUCT.format(start="零"), size="四八"), "ptx")
    assert result.text is None and len(result.diagnostics) == 5           # one at each fragment call
    assert all("子组矩阵片须由整个子组" in d.message and " 48 " in d.message for d in result.diagnostics)


def test_integer_fragments_need_uniform_control_flow(tmp_path):
    body = "　若「号」大于（「新无三二」于「三」）则" + INTEGER_PRODUCT.format(start="零") + "否则「元」"
    found = errors(tmp_path, program(body))
    assert len(found) == 5 and all("须在一致控制流中执行" in m and "局部调用序" in m for m in found), found
    assert errors(tmp_path, program(body.replace("「号」大于", "（「新无三二」于「四」）大于"))) == []


@pytest.mark.parametrize("target, reason", [("wgsl", "WGSL 没有整数子组矩阵片（着十二）"),
                                            ("msl", "金属目标没有整数子组矩阵片（着十二）")])
def test_only_ptx_translates_integer_fragments(tmp_path, target, reason):
    result = translated(tmp_path, program("　" + INTEGER_PRODUCT.format(start="零")), target)
    assert result.text is None and any(reason in d.message for d in result.diagnostics), result.diagnostics
    assert translated(tmp_path, program("　" + INTEGER_PRODUCT.format(start="零")), "ptx").text is not None


# ---------------------------------------------------------------- tensor fragments (着十三)

TENSOR_HEAD = HEAD.replace("「半共」乃", "「乙块」乃「工作组变量」于（「定长数组」于「浮十六」于「二〇四八」）也。\n"
                           "「乙块」者「工作组共享」于「元」也。\n「半共」乃")
TENSOR_PRODUCT = ("「存张量片累」于「浮出」于（「新无三二」于「零」）于（「新无三二」于「六四」）于（「新无三二」于「六四」）"
                  "于（「新无三二」于「六四」）于（「张量片乘加」于「浮出」于（「新无三二」于「零」）于（「新无三二」于「三二」）"
                  "于（「新无三二」于「六四」）于「乙块」于（「满张量片累」于（「新浮三二」于「零」）））")


def tensor_program(body: str, size: str = "一二八") -> str:
    return program(body, size).replace(HEAD, TENSOR_HEAD)


def test_tensor_fragments_need_exactly_128_invocations(tmp_path):
    assert errors(tmp_path, tensor_program("　" + TENSOR_PRODUCT)) == []
    result = translated(tmp_path, tensor_program("　" + TENSOR_PRODUCT, size="二五六"), "msl")
    assert result.text is None and len(result.diagnostics) == 3
    assert all("张量片须由整个工作组（恰 128 个调用" in d.message and "256" in d.message for d in result.diagnostics)
    assert translated(tmp_path, tensor_program("　" + TENSOR_PRODUCT, size="六四"), "msl").text is None
    assert translated(tmp_path, tensor_program("　" + TENSOR_PRODUCT), "msl").text is not None


def test_tensor_fragments_need_uniform_control_flow(tmp_path):
    body = "　若「号」大于（「新无三二」于「三」）则" + TENSOR_PRODUCT + "否则「元」"
    found = errors(tmp_path, tensor_program(body))
    assert len(found) == 3 and all("须在一致控制流中执行" in m and "局部调用序" in m for m in found), found


@pytest.mark.parametrize("target, reason", [("wgsl", "WGSL 没有张量片（着十三）"), ("ptx", "张量片只有金属（MSL）支持（着十三）")])
def test_only_msl_translates_tensor_fragments(tmp_path, target, reason):
    result = translated(tmp_path, tensor_program("　" + TENSOR_PRODUCT), target)
    assert result.text is None and any(reason in d.message for d in result.diagnostics), result.diagnostics


def test_the_tensor_translation_is_the_seeds():
    text = translate(WS, sample_path("张量片"), "msl").text
    assert text.startswith("#include <metal_stdlib>\n#include <metal_tensor>\n"
                           "#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>\n")
    assert "matmul2d_descriptor yy_张量片描述(64, 64, 32, false, true, true,\n" \
           "    mpp::tensor_ops::matmul2d_descriptor::mode::multiply_accumulate)" in text
    assert "execution_simdgroups<4>" in text and "tensor<device float, dextents<int32_t, 2>, tensor_inline>" in text
    assert "yy_张量片累 累 = yy_满张量片累(0.5f);" in text and "累 = yy_张量片乘加(" in text
    plain = translate(WS, sample_path("子组矩阵片"), "msl").text
    assert "metal_tensor" not in plain and "yy_张量片" not in plain


# ---------------------------------------------------------------- the Metal shim's model of matmul2d

MUTATED_PRELUDE = {
    "乙不转置": ("true, true,\n", "false, true,\n"),
    "只乘不加": ("mode::multiply_accumulate", "mode::multiply"),
    "不截断": ("dextents<int32_t, 2>(int32_t(columns), int32_t(rows))", "dextents<int32_t, 2>(64, 64)"),
}


@pytest.fixture(scope="module")
def shim():
    import support.metal_shim.host as host
    import support.metal_shim.runner as runner
    runner.require_clang(pytest)
    return host, runner


def run_tensor_sample(shim, tmp_path, text: str) -> None:
    host, runner = shim
    entries = translate(WS, sample_path("张量片"), "msl").entries
    built = runner.Runner([runner.Kernel(f"张量片/{e.item}", text, e) for e in entries], tmp_path)
    ws = Workspace(sample_path("张量片").parent)
    REFERENCES["张量片"](host.msl_run(ws, lambda key, d: built.dispatch(key, d.groups, d.buffers), None))


@pytest.mark.parametrize("mutant", MUTATED_PRELUDE)
def test_the_shim_computes_what_the_descriptor_says(shim, tmp_path, mutant, monkeypatch):
    """The shim's matmul2d follows the descriptor, not the back end: change the
    transpose flag, the mode or the store's clipping and the NumPy check fails
    (the unclipped store writes past the buffer's rows or onto the next tile)."""
    old, new = MUTATED_PRELUDE[mutant]
    text = translate(WS, sample_path("张量片"), "msl").text
    assert old in text
    with pytest.raises((AssertionError, RuntimeError)):
        run_tensor_sample(shim, tmp_path, text.replace(old, new))


def test_the_shim_refuses_a_threadgroup_of_other_than_128(shim, tmp_path):
    text = translate(WS, sample_path("张量片"), "msl").text
    host, runner = shim
    [entry] = translate(WS, sample_path("张量片"), "msl").entries
    entry = type(entry)(**{**entry.__dict__, "workgroup_size": 64, "workgroup_shape": (64, 1, 1)})
    built = runner.Runner([runner.Kernel("张量片/x", text, entry)], tmp_path)
    with pytest.raises(RuntimeError, match="failed"):
        built.dispatch("张量片/x", (1, 1, 1), {0: bytes(12), 1: bytes(4), 2: bytes(4), 3: bytes(4)})
