"""The vertex/fragment interface beyond the seed (议题 25): 「定位」 numbers
with gaps and the interpolation wrappers (「平直」「线性」「透视」 and their
质心/逐采样 forms), and `着色器 渲染` feeding located vertex inputs from
.npy files, per vertex (--顶点) and per instance (--实例), with a depth
test (--深度比较) whose depth attachment comes back as .npy (--深度输出).
samples/定位插值 is drawn on the WebGPU adapter (lavapipe) and its pixels
and depths compared with a rasterisation NumPy computes from the program's
meaning: screen-space barycentrics for 线性, the same divided by each
vertex's w for 透视, the first vertex for 平直, the nearer instance winning
under 「小于」.  Then the checker's and the command's refusals, each one
Chinese message."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from support.metal_shim.runner import check as clang_check, require_clang, unknown_attributes
from support.png import read_png
from support.tint import tint_validate
from support.wgpu_device import adapter_info, validate
from zhuose.cli.main import main
from zhuose.compiler.backends import translate
from zhuose.compiler.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "定位插值。着色器。豫"
PRELUDE = "寻观「点染」之「点染本」之书。\n\n"
SIZE = 32

# the sample's data: a triangle per instance, w = 1, 2, 4 at its corners; instance 0 is nearer
CORNERS = np.array([[-0.6, -0.6], [0.6, -0.6], [-0.6, 0.6]], np.float32)
WEIGHTS = np.array([1, 2, 4], np.float32)
OFFSETS = np.array([[-0.2, -0.1], [0.2, 0.1]], np.float32)
DEPTHS = np.array([0.3, 0.6], np.float32)
NUMBERS = np.array([0, 1], np.uint32)
COLOURS = np.array([[1, 0, 0.25], [0, 1, 0.75]], np.float32)


def _draw(tmp_path, monkeypatch, capsys, compare: str) -> tuple[np.ndarray, np.ndarray]:
    shutil.copy(SAMPLE, tmp_path / SAMPLE.name)
    for name, array in (("角", CORNERS), ("权", WEIGHTS), ("偏", OFFSETS), ("深", DEPTHS), ("号", NUMBERS),
                        ("色", COLOURS)):
        np.save(tmp_path / f"{name}.npy", array)
    monkeypatch.chdir(tmp_path)
    status = main(["渲染", SAMPLE.name, "定位插值顶点", "定位插值片元", "--顶点", "角=角.npy", "--顶点", "1=权.npy",
                   *(f"--实例={name}={name}.npy" for name in ("偏", "深", "号", "色")),
                   "--尺寸", f"{SIZE},{SIZE}", "--深度比较", compare, "--深度输出", "深度.npy", "--输出", "图.png"])
    out, err = capsys.readouterr()
    assert (status, out) == (0, f"写出 图.png（{SIZE}×{SIZE}）\n"), err
    return read_png((tmp_path / "图.png").read_bytes()).astype(float), np.load(tmp_path / "深度.npy")


def _expected(nearer_wins: bool):
    """(rgba 0…255, depth, pixels far enough from every edge) of the two instances drawn in order."""
    rows, columns = np.mgrid[0:SIZE, 0:SIZE] + 0.5
    colour, depth = np.zeros((SIZE, SIZE, 4)), np.ones((SIZE, SIZE))
    sure = np.ones((SIZE, SIZE), bool)
    for instance in range(2):
        x, y = (CORNERS + OFFSETS[instance]).T.astype(float)
        sx, sy = (x + 1) / 2 * SIZE, (1 - y) / 2 * SIZE
        area = (sx[1] - sx[0]) * (sy[2] - sy[0]) - (sx[2] - sx[0]) * (sy[1] - sy[0])
        b1 = ((sx[2] - sx[0]) * (rows - sy[0]) - (columns - sx[0]) * (sy[2] - sy[0])) / -area
        b2 = ((sx[1] - sx[0]) * (rows - sy[0]) - (columns - sx[0]) * (sy[1] - sy[0])) / area
        b = np.stack([1 - b1 - b2, b1, b2], -1)
        inside = b.min(-1) > 0.02
        sure &= ~((b.min(-1) > -0.02) & ~inside)
        i = np.arange(3.0)
        linear = b @ i
        perspective = (b / WEIGHTS) @ i / (b / WEIGHTS).sum(-1)
        z = np.full((SIZE, SIZE), float(DEPTHS[instance]))
        wins = inside & ((z < depth) if nearer_wins else True)
        rgba = np.stack([linear / 2, perspective / 2, np.full_like(z, COLOURS[instance][2]),
                         np.full_like(z, (NUMBERS[instance] * 4 + 1) / 8)], -1)
        colour[wins], depth[wins] = rgba[wins], z[wins]
    return np.round(colour * 255), depth, sure


@pytest.mark.parametrize("compare, nearer_wins", [("小于", True), ("总是", False)])
def test_instanced_inputs_at_gapped_locations_render_like_numpy(tmp_path, monkeypatch, capsys, compare, nearer_wins):
    adapter_info()
    pixels, depth = _draw(tmp_path, monkeypatch, capsys, compare)
    want, want_depth, sure = _expected(nearer_wins)
    assert sure.sum() > 0.8 * sure.size and len(np.unique(want[sure][:, 3])) == 3
    assert np.abs(pixels - want)[sure].max() <= 2
    assert np.abs(depth - want_depth)[sure].max() <= 1e-6
    linear_is_not_perspective = np.abs(want[..., 0] - want[..., 1])[sure].max()
    assert linear_is_not_perspective > 40


def test_the_golden_wgsl_shows_locations_and_interpolations():
    text = (ROOT / "samples" / "定位插值.wgsl").read_text(encoding="utf-8")
    for line in ("@location(5) 偏: vec2<f32>", "@location(8) 色: vec3<f32>", "@location(0) @interpolate(linear) 线",
                 "@location(1) @interpolate(linear, sample) 样", "@location(2) @interpolate(perspective) 透",
                 "@location(3) @interpolate(perspective, centroid) 心", "@location(7) @interpolate(flat) 号"):
        assert line in text


EVERY_INTERPOLATION = PRELUDE + """
「出」即「组类」【「位置」乃「裁剪位置」也，
　「甲」乃「平直」于「浮三二」也，「乙」乃「透视」于「浮三二」也，「丙」乃「透视质心」于「浮三二」也，
　「丁」乃「透视逐采样」于「浮三二」也，「戊」乃「线性」于「浮三二」也，「己」乃「线性质心」于「浮三二」也，
　「庚」乃「定位」于「一五」于（「线性逐采样」于「二维浮」）也，「辛」乃「平直」于（「定位」于「九」于「整三二」）也】也。
「顶」乃化「顶点序号」为「出」者也。
「顶」者得「序」而
　令「f」为「新浮三二」于「序」而
　「组值」【「位置」者「f」与「f」与「f」与「f」也，「甲」者「f」也，「乙」者「f」也，「丙」者「f」也，「丁」者「f」也，
　　「戊」者「f」也，「己」者「f」也，「庚」者「f」与「f」也，「辛」者「新整三二」于「序」也】
也。
「片」乃化「出」为「片元颜色」者也。
「片」者得「入」而「入」中「甲」与「入」中「己」与「入」中「庚」中「零」与「新浮三二」于（「入」中「辛」）也。
「顶入口」乃「顶点入口」也。
「顶入口」者「顶点入口项」于「顶」也。
「片入口」乃「片元入口」也。
「片入口」者「片元入口项」于「片」也。
"""

WGSL_ATTRIBUTES = ["@location(0) @interpolate(flat) 甲", "@location(1) @interpolate(perspective) 乙",
                   "@location(2) @interpolate(perspective, centroid) 丙", "@location(3) @interpolate(perspective, sample) 丁",
                   "@location(4) @interpolate(linear) 戊", "@location(5) @interpolate(linear, centroid) 己",
                   "@location(15) @interpolate(linear, sample) 庚", "@location(9) @interpolate(flat) 辛"]
MSL_ATTRIBUTES = ["[[user(loc0)]] [[flat]]", "[[user(loc1)]] [[center_perspective]]",
                  "[[user(loc2)]] [[centroid_perspective]]", "[[user(loc3)]] [[sample_perspective]]",
                  "[[user(loc4)]] [[center_no_perspective]]", "[[user(loc5)]] [[centroid_no_perspective]]",
                  "[[user(loc15)]] [[sample_no_perspective]]", "[[user(loc9)]] [[flat]]"]


def _workspace(tmp_path, text: str) -> tuple[Workspace, Path]:
    path = tmp_path / "例。着色器。豫"
    path.write_text(text, encoding="utf-8")
    return Workspace(tmp_path), path


def test_every_interpolation_in_wgsl_and_msl(tmp_path):
    ws, path = _workspace(tmp_path, EVERY_INTERPOLATION)
    wgsl = translate(ws, path, "wgsl")
    assert wgsl.diagnostics == [] and all(a in wgsl.text for a in WGSL_ATTRIBUTES), wgsl.text
    validate(wgsl.text)
    tint_validate(wgsl.text)
    msl = translate(ws, path, "msl")
    assert msl.diagnostics == [] and all(a in msl.text for a in MSL_ATTRIBUTES), msl.text
    assert unknown_attributes(msl.text) == []
    require_clang(pytest)
    assert clang_check({"例": msl.text}) == {}


FIELDS = PRELUDE + """
「入」即「组类」【{inputs}】也。
「出」即「组类」【「位置」乃「裁剪位置」也，{outputs}】也。
「顶」乃化「入」为「出」者也。
「顶」者得「i」而「组值」【「位置」者「新浮三二」于「0」与（「新浮三二」于「0」）与（「新浮三二」于「0」）与（「新浮三二」于「1」）也，{values}】也。
「顶入口」乃「顶点入口」也。
「顶入口」者「顶点入口项」于「顶」也。
"""

REFUSED = {
    "two inputs at one location": (
        "「甲」乃「定位」于「三」于「浮三二」也，「乙」乃「浮三二」也，「丙」乃「定位」于「四」于「浮三二」也", "「戊」乃「浮三二」也",
        "「戊」者「新浮三二」于「0」也", "顶点入口函数「顶」的输入中字段「乙」与「丙」都在位置 4：每个位置只能有一个值"),
    "an integer interpolated linearly": (
        "「甲」乃「浮三二」也", "「戊」乃「线性」于「无三二」也", "「戊」者「新无三二」于「0」也",
        "整数插值量不能「线性」插值，只能「平直」"),
    "an interpolation on a vertex input": (
        "「甲」乃「平直」于「浮三二」也", "「戊」乃「浮三二」也", "「戊」者「新浮三二」于「0」也",
        "顶点入口函数「顶」的输入中字段「甲」写了「平直」：插值方式只能写在顶点输出与片元输入上"),
    "a location on a builtin": (
        "「甲」乃「定位」于「一」于「顶点序号」也", "「戊」乃「浮三二」也", "「戊」者「新浮三二」于「0」也",
        "内建值「顶点序号」不占位置，不能写「定位」或插值方式"),
    "a location that is not a literal": (
        "「甲」乃「定位」于「浮三二」于「浮三二」也", "「戊」乃「浮三二」也", "「戊」者「新浮三二」于「0」也",
        "「定位」的编号须是整数字面量（如「五」）"),
    "two interpolations": (
        "「甲」乃「浮三二」也", "「戊」乃「平直」于（「线性」于「浮三二」）也", "「戊」者「新浮三二」于「0」也",
        "插值方式只能写一个：已有「平直」，又写了「线性」"),
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
def test_the_checker_refuses(tmp_path, case):
    inputs, outputs, values, message = REFUSED[case]
    ws, path = _workspace(tmp_path, FIELDS.format(inputs=inputs, outputs=outputs, values=values))
    messages = [d.message for d in ws.diagnostics(path) if d.severity == "错误"]
    assert any(message in m for m in messages), messages


def test_a_wrapper_outside_a_struct_field_is_refused(tmp_path):
    ws, path = _workspace(tmp_path, PRELUDE + "「f」乃化（「定位」于「一」于「浮三二」）为「浮三二」者也。\n「f」者得「x」而「x」也。\n")
    messages = [d.message for d in ws.diagnostics(path)]
    assert any("「定位」是字段的接口属性，只能包住结构字段的类型" in m for m in messages), messages


# ---------------------------------------------------------------- the command's mistakes

# The vertex output 色 is linear, the fragment reads it perspective-correct.
INTERPOLATIONS_DIFFER = PRELUDE + """
「点入」即「组类」【「位」乃「定位」于「二」于「二维浮」也】也。
「点出」即「组类」【「位置」乃「裁剪位置」也，「色」乃「线性」于「四维浮」也】也。
「片入」即「组类」【「色」乃「四维浮」也】也。
「顶」乃化「点入」为「点出」者也。
「顶」者得「入」而「组值」【「位置」者「入」中「位」中「零」与「入」中「位」中「一」与（「新浮三二」于「0」）与（「新浮三二」于「1」）也，
　「色」者「新浮三二」于「1」与（「新浮三二」于「1」）与（「新浮三二」于「1」）与（「新浮三二」于「1」）也】也。
「片」乃化「片入」为「片元颜色」者也。
「片」者得「入」而「入」中「色」也。
「顶入口」乃「顶点入口」也。
「顶入口」者「顶点入口项」于「顶」也。
「片入口」乃「片元入口」也。
「片入口」者「片元入口项」于「片」也。
"""

SAME_INTERPOLATION = INTERPOLATIONS_DIFFER.replace("「色」乃「四维浮」也】", "「色」乃「线性」于「四维浮」也】")

COMMAND_MISTAKES = {
    "interpolations that differ": (INTERPOLATIONS_DIFFER, [], "位置 0 上顶点输出「色」按「线性」插值，片元输入「色」按「透视」"),
    "no data for an input": (SAME_INTERPOLATION, [], "顶点入口项「顶入口」的输入「位」（位置 2）要顶点数据"),
    "an unknown input": (SAME_INTERPOLATION, ["--顶点", "乙=点.npy"], "没有叫「乙」的位置输入；它的位置输入有 「位」（位置 2）"),
    "the same input twice": (SAME_INTERPOLATION, ["--顶点", "位=点.npy", "--实例", "2=点.npy"], "位置 2 给了两次数据"),
    "a wrong element type": (SAME_INTERPOLATION, ["--顶点", "位=整.npy"], "「整.npy」的元素类型是 int32，顶点输入「位」要 float32"),
    "a wrong shape": (SAME_INTERPOLATION, ["--顶点", "位=平.npy"], "「平.npy」的形状是 (6,)，顶点输入「位」要 (行数, 2) 的数组"),
    "too few rows": (SAME_INTERPOLATION, ["--顶点", "位=点.npy", "--顶点数", "6"], "--顶点数 6，但「点.npy」只有 3 行"),
    "a depth that cannot be read": (SAME_INTERPOLATION, ["--顶点", "位=点.npy", "--深度格式", "depth24plus",
                                                         "--深度输出", "深.npy"], "depth24plus 的值读不出来"),
    "a half-precision scalar": (SAME_INTERPOLATION.replace("「二维浮」也】", "「浮十六」也】").replace(
        "「入」中「位」中「零」与「入」中「位」中「一」", "「新浮三二」于（「入」中「位」）与（「新浮三二」于「0」）"),
        ["--顶点", "位=点.npy"], "顶点输入「位」是「浮十六」：WebGPU 没有对应的顶点格式"),
    "a clear depth beyond 1": (SAME_INTERPOLATION, ["--顶点", "位=点.npy", "--深度初值", "2"], "--深度初值「2」应是 0 至 1 之间的数"),
}


@pytest.mark.parametrize("case", COMMAND_MISTAKES, ids=list(COMMAND_MISTAKES))
def test_a_command_mistake_is_one_chinese_message_and_no_png(tmp_path, monkeypatch, capsys, case):
    text, args, message = COMMAND_MISTAKES[case]
    (tmp_path / "例。着色器。豫").write_text(text, encoding="utf-8")
    np.save(tmp_path / "点.npy", np.array([[-1, -1], [3, -1], [-1, 3]], np.float32))
    np.save(tmp_path / "整.npy", np.zeros((3, 2), np.int32))
    np.save(tmp_path / "平.npy", np.zeros(6, np.float32))
    monkeypatch.chdir(tmp_path)
    status = main(["渲染", "例。着色器。豫", "顶入口", "片入口", *args, "--尺寸", "4,4", "--输出", "图.png"])
    out, err = capsys.readouterr()
    assert status == 2 and message in err and "Traceback" not in err, err
    assert err.startswith("着色器：") and err.count("\n") == 1 and out == ""
    assert not (tmp_path / "图.png").exists()


def test_a_full_screen_triangle_from_a_vertex_buffer(tmp_path, monkeypatch, capsys):
    """The vertex count comes from the rows of the per-vertex data."""
    adapter_info()
    (tmp_path / "例。着色器。豫").write_text(SAME_INTERPOLATION, encoding="utf-8")
    np.save(tmp_path / "点.npy", np.array([[-1, -1], [3, -1], [-1, 3]], np.float32))
    monkeypatch.chdir(tmp_path)
    status = main(["渲染", "例。着色器。豫", "顶入口", "片入口", "--顶点", "位=点.npy", "--尺寸", "4,4", "--输出", "图.png"])
    assert status == 0, capsys.readouterr().err
    assert (read_png((tmp_path / "图.png").read_bytes()) == 255).all()
