"""Pipeline-overridable constants (「名」者「可覆盖」于 默认值 也): WGSL `@id(n) override`,
MSL function constants, PTX .const variables, the interpreter; `运行`/`渲染` --常量 名=值 set
them when the pipeline is made, and the generated module exports their numbers and PTX names."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from support.frontend import check_text
from support.png import read_png
from support.wgpu_device import adapter_info
from zhuose.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "可覆盖常量。着色器。豫"


def _run(cwd: Path, monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd)
    status = main(["运行", SAMPLE.name, "乘加入口", *args])
    out, err = capsys.readouterr()
    return status, out, err


def _inputs(folder: Path) -> tuple[np.ndarray, np.ndarray]:
    x = np.random.default_rng(3).standard_normal(100).astype(np.float32)
    y = np.random.default_rng(4).standard_normal(100).astype(np.float32)
    np.save(folder / "x.npy", x)
    np.save(folder / "y.npy", y)
    return x, y


@pytest.mark.parametrize("backend", ["网页图算", "参照"])
def test_the_command_line_sets_every_constant(tmp_path, monkeypatch, capsys, backend):
    """系数 0.5, 步长 3, 翻转 阳: only every third element changes, to −(0.5·x + y)."""
    if backend == "网页图算":
        adapter_info()
    shutil.copy(SAMPLE, tmp_path / SAMPLE.name)
    x, y = _inputs(tmp_path)
    status, _, err = _run(tmp_path, monkeypatch, capsys, "甲=x.npy", "乙=y.npy", "--后端", backend,
                          "--常量", "系数=0.5", "--常量", "步长=3", "--常量", "翻转=阳")
    assert status == 0, err
    want = y.copy()
    want[::3] = -(np.float32(0.5) * x[::3] + y[::3])
    np.testing.assert_allclose(np.load(tmp_path / "y.npy"), want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("args, words", [
    (("--常量", "倍数=2"), ["「倍数」不是可覆盖常量", "「系数」", "「步长」", "「翻转」"]),
    (("--常量", "步长=-1"), ["「步长」是「无三二」", "超出范围 0 至 4294967295"]),
    (("--常量", "步长=３"), ["「步长」是「无三二」", "「３」不是它的值"]),
    (("--常量", "翻转=是"), ["「翻转」是「爻」", "阳 或 阴"]),
    (("--常量", "系数=inf"), ["「系数」是「浮三二」", "有限"]),
    (("--常量", "系数"), ["名=值"]),
    (("--常量", "系数=1", "--常量", "系数=2"), ["给了两次"]),
    (("--常量", "系数=1", "--后端", "千手"), ["千手后端还不能改写可覆盖常量"]),
], ids=["unknown", "negative", "fullwidth", "truth", "infinite", "no_value", "twice", "ptx"])
def test_a_wrong_constant_is_a_message_not_a_run(tmp_path, monkeypatch, capsys, args, words):
    shutil.copy(SAMPLE, tmp_path / SAMPLE.name)
    _inputs(tmp_path)
    status, out, err = _run(tmp_path, monkeypatch, capsys, "甲=x.npy", "乙=y.npy", *args)
    assert status == 2 and out == "" and all(w in err for w in words), err
    assert "Traceback" not in err


FRAGMENT = """寻观「点染」之「点染本」之书。

「红」乃「浮三二」也。
「红」者「可覆盖」于（「新浮三二」于「0.25」）也。

「满屏」乃化「顶点序号」为「裁剪位置」者也。
「满屏」者得「序」而
　令「x」为若「序」等于（「新无三二」于「一」）则「新浮三二」于「3」否则 负（「新浮三二」于「1」）而
　令「y」为若「序」等于（「新无三二」于「二」）则「新浮三二」于「3」否则 负（「新浮三二」于「1」）而
　「x」与「y」与（「新浮三二」于「0」）与（「新浮三二」于「1」）
也。

「涂」乃化「片元坐标」为「片元颜色」者也。
「涂」者得「p」而「红」与（「新浮三二」于「0」）与（「新浮三二」于「0」）与（「新浮三二」于「1」）也。

「满屏顶点」乃「顶点入口」也。
「满屏顶点」者「顶点入口项」于「满屏」也。
「涂片元」乃「片元入口」也。
「涂片元」者「片元入口项」于「涂」也。
"""


def test_render_takes_the_constants_too(tmp_path, monkeypatch, capsys):
    adapter_info()
    (tmp_path / "涂。着色器。豫").write_text(FRAGMENT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for value, red in ((None, 64), ("1.0", 255)):
        extra = ["--常量", f"红={value}"] if value else []
        status = main(["渲染", "涂。着色器。豫", "满屏顶点", "涂片元", "--尺寸", "8,8", "--输出", "涂.png", *extra])
        _, err = capsys.readouterr()
        assert status == 0, err
        pixels = read_png((tmp_path / "涂.png").read_bytes()).astype(int)
        assert (np.abs(pixels - [red, 0, 0, 255]) <= 1).all()


@pytest.mark.parametrize("text, at, words", [
    ("「f」乃化「无三二」为「无三二」者也。\n「f」者得「i」而「i」加（「可覆盖」于「i」）也。\n", "2:15", ["顶层常量的整个值"]),
    ("「k」者「可覆盖」于（「新无三二」于「一」）也。\n「m」者「k」乘（「新无三二」于「二」）也。\n", "2:5", ["可覆盖常量", "函数里"]),
    ("「k」者（「可覆盖」于（「新无三二」于「一」））加（「新无三二」于「一」）也。\n", "1:6", ["顶层常量的整个值"]),
    ("「v」者「可覆盖」于（「新浮三二」于「1」与「新浮三二」于「2」）也。\n", "1:12", ["标量"]),
], ids=["in_a_function", "read_by_a_constant", "inside_a_constant", "not_a_scalar"])
def test_an_overridable_constant_stands_alone(tmp_path, text, at, words):
    _, lines = check_text(tmp_path, text)
    assert len(lines) == 1 and lines[0].startswith(f"{at}: ") and all(w in lines[0] for w in words), lines


def test_the_generated_module_exports_each_constants_number_and_ptx_name():
    golden = (ROOT / "samples" / "可覆盖常量。生成").read_text(encoding="utf-8")
    wgsl = (ROOT / "samples" / "可覆盖常量.wgsl").read_text(encoding="utf-8")
    ptx = (ROOT / "samples" / "可覆盖常量。千手").read_text(encoding="utf-8")
    for number, name in enumerate(("系数", "步长", "翻转")):
        assert f"「{name}可覆盖号」者『{number}』也。" in golden and f"@id({number}) override {name}:" in wgsl
        symbol = golden.split(f"「{name}可覆盖并线汇编名」者『")[1].split("』")[0]
        assert f".visible .const" in ptx and f" {symbol} = " in ptx
