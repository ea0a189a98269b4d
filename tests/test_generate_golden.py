"""Golden generated modules (samples/名。生成, made with samples/ as the
workspace root, like every golden there).  The fingerprint in the header
changes with every edit of the builtin declarations, so goldens hold
sha256:〈指纹〉 in its place; the fingerprint's behaviour is tested in
test_generate.py.  Each golden's target texts must equal the back ends' own
goldens (名.wgsl, 名。金属, 名。千手), and the seed's 加倍 example its values."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.generate_fakes import read_back

from zhuose.compiler.generate import Generator
from zhuose.compiler.workspace import Workspace

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
GOLDENS = sorted(SAMPLES.rglob("*。生成"), key=str)
TARGET_GOLDENS = {"着色源": ".wgsl", "金属源": "。金属", "并线汇编源": "。千手"}
FINGERPRINT = re.compile(r"sha256:[0-9a-f]{64}")


def stem(golden: Path) -> str:
    return golden.name[: -len("。生成")]


@pytest.fixture(scope="module")
def generator() -> Generator:
    return Generator(Workspace(SAMPLES))


def test_there_are_goldens():
    assert {g.relative_to(SAMPLES).as_posix() for g in GOLDENS} >= {"加倍。生成", "三角形。生成", "包甲/主。生成"}


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda g: g.relative_to(SAMPLES).as_posix())
def test_generated_module_matches_its_golden(golden, generator):
    generated = generator.generate(golden.with_name(stem(golden) + "。着色器。豫"))
    assert generated.diagnostics == []
    assert FINGERPRINT.sub("sha256:〈指纹〉", generated.text) == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda g: g.relative_to(SAMPLES).as_posix())
def test_golden_texts_are_the_back_ends_goldens(golden):
    values = read_back(golden.read_text(encoding="utf-8"))
    for export, suffix in TARGET_GOLDENS.items():
        target_golden = golden.with_name(stem(golden) + suffix)
        if target_golden.exists():
            assert values[export] == target_golden.read_text(encoding="utf-8"), export
        else:
            assert values[export].startswith("// 着色生成：未能译成 ") and "\n" not in values[export]


def test_the_seed_double_example():
    values = read_back((SAMPLES / "加倍。生成").read_text(encoding="utf-8"))
    assert set(values) == {"着色源", "金属源", "并线汇编源", "加倍入口", "加倍入口并线汇编名"}
    assert values["加倍入口"] == "加倍"
    assert values["加倍入口并线汇编名"] == "yy_e5_8a_a0_e5_80_8d"
    assert ".visible .entry yy_e5_8a_a0_e5_80_8d(" in values["并线汇编源"]


def test_a_module_without_ptx_keeps_wgsl_msl_and_its_entries():
    values = read_back((SAMPLES / "三角形。生成").read_text(encoding="utf-8"))
    assert values["并线汇编源"].startswith("// 着色生成：未能译成 PTX：三角形。着色器。豫:32:1: 在「三角形顶点」中：")
    # 「三角形顶点」者「顶点入口项」于「顶点」也。 and the same for 片元; PTX names by the rule of 着十
    assert (values["三角形顶点"], values["三角形片元"]) == ("顶点", "片元")
    assert values["三角形顶点并线汇编名"] == "yy" + "".join(f"_{b:02x}" for b in "顶点".encode())
    assert values["三角形片元并线汇编名"] == "yy_e7_89_87_e5_85_83"


def test_a_package_module_names_its_package():
    text = (SAMPLES / "包甲/主。生成").read_text(encoding="utf-8")
    assert text.startswith("「： 由着色源「主。着色器。豫」（包「包甲」，模块「主」）生成的 主。着色生成。豫")


def test_a_module_wgsl_cannot_express_takes_its_entries_from_msl():
    """Seed 着十二: WGSL has no subgroup matrices, so 「着色源」 is a one-line
    comment and the entry table comes from MSL (PTX names as always)."""
    values = read_back((SAMPLES / "子组矩阵片。生成").read_text(encoding="utf-8"))
    assert values["着色源"].startswith("// 着色生成：未能译成 WGSL：") and "WGSL 没有子组矩阵片" in values["着色源"]
    assert values["金属源"].startswith("#include <metal_stdlib>") and "simdgroup_multiply_accumulate" in values["金属源"]
    assert "mma.sync.aligned.m16n8k16" in values["并线汇编源"]
    assert values["片乘入口"] == "片乘"
    assert values["片乘入口并线汇编名"] == "yy" + "".join(f"_{b:02x}" for b in "片乘".encode())


def test_a_ptx_only_module_takes_its_entries_from_ptx():
    """Seed 着十二: integer fragments translate only to PTX, so 「着色源」 and
    「金属源」 are one-line comments with the reason and the entry table is PTX's."""
    values = read_back((SAMPLES / "子组整矩阵片。生成").read_text(encoding="utf-8"))
    assert values["着色源"].startswith("// 着色生成：未能译成 WGSL：") and "WGSL 没有整数子组矩阵片" in values["着色源"]
    assert values["金属源"].startswith("// 着色生成：未能译成 MSL：") and "金属目标没有整数子组矩阵片" in values["金属源"]
    assert "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32" in values["并线汇编源"]
    ptx_name = "yy" + "".join(f"_{b:02x}" for b in "整片乘".encode())
    assert values["整片乘入口"] == values["整片乘入口并线汇编名"] == ptx_name


def test_an_msl_only_module_takes_its_entries_from_msl():
    """Seed 着十三: tensor fragments translate only to MSL (Metal 4)."""
    values = read_back((SAMPLES / "张量片。生成").read_text(encoding="utf-8"))
    assert "WGSL 没有张量片（着十三）" in values["着色源"] and "张量片只有金属（MSL）支持（着十三）" in values["并线汇编源"]
    assert "\n" not in values["着色源"] + values["并线汇编源"]
    assert "#include <metal_tensor>" in values["金属源"] and "execution_simdgroups<4>" in values["金属源"]
    assert values["张量块乘入口"] == "张量块乘"
    assert values["张量块乘入口并线汇编名"] == "yy" + "".join(f"_{b:02x}" for b in "张量块乘".encode())
