"""The rest of issue 25's texture builtins (docs/扩展.md〈纹理的其余内建（议题 25）〉): a
fragment entry using every form the sample 纹理采样 does not (the fragment-only
textureSampleBias, textureSample with an offset, textureSampleCompare on arrays;
gradients, gathers and comparisons on cubes, 3-D textures and arrays) is valid
WGSL (naga, Tint) and type-checks as MSL against the Metal shim; PTX refuses it
naming its target; a gather's component and a texel offset must be written
integers in range (code texture-constant); without 「纹理屏障」 the interpreter
reports the race the sample's barrier prevents.  The sample itself runs with the
other references on every executor, and here once more through `着色器 运行`
with every binding given on the command line."""

from __future__ import annotations

import numpy as np
import pytest

from support.frontend import bound_resources
from support.metal_shim.runner import check as clang_check, require_clang
from support.references import REFERENCES, SAMPLES, StorageTexture, entry_resources
from support.wgpu_device import device_for, render, validate
from zhuose.cli.main import main
from zhuose.compiler.runtime.png import decode_png
from zhuose.compiler import interp
from zhuose.compiler.backends import translate
from zhuose.compiler.builtin.textures import texture_shape
from zhuose.compiler.interp import Fault
from zhuose.compiler.workspace import Workspace

#: (name, declared type, binding word) of every texture and sampler the program binds
BOUND = [
    ("图", "「纹理二维」于「浮三二」", "纹理绑定"), ("叠", "「纹理二维数组」于「浮三二」", "纹理绑定"),
    ("体", "「纹理三维」于「浮三二」", "纹理绑定"), ("盒", "「纹理立方」于「浮三二」", "纹理绑定"),
    ("盒组", "「纹理立方数组」于「整三二」", "纹理绑定"), ("深", "「深度纹理二维」", "深度纹理绑定"),
    ("深叠", "「深度纹理二维数组」", "深度纹理绑定"), ("深盒", "「深度纹理立方」", "深度纹理绑定"),
    ("深盒组", "「深度纹理立方数组」", "深度纹理绑定"), ("整叠", "「纹理二维数组」于「无三二」", "纹理绑定"),
    ("样", "「采样器」", "采样器绑定"), ("比", "「比较采样器」", "比较采样器绑定"),
]

F = "「新浮三二」于「零点五」"
UV = f"（{F}与{F}）"
UVW = f"（{F}与{F}与{F}）"
I = "（「新整三二」于「一」）"
BODY = f"""「片」乃化「片元坐标」为「片元颜色」者也。
「片」者得「p」而
　令「壹」为「新浮三二」于「一」而
　令「张」为「新无三二」于「一」而
　令「甲」为「偏层采样纹理」于「图」于「样」于{UV}于「壹」
　　加「偏层采样张纹理」于「叠」于「样」于{UV}于「张」于「壹」
　　加「偏层采样纹理」于「盒」于「样」于{UVW}于「壹」
　　加「偏移采样纹理」于「体」于「样」于{UVW}于（{I}与{I}与 负{I}）
　　加「按梯度采样纹理」于「盒」于「样」于{UVW}于{UVW}于{UVW}
　　加「偏移按梯度采样纹理」于「体」于「样」于{UVW}于{UVW}于{UVW}于（{I}与{I}与{I}）
　　加「聚集纹素」于「三」于「盒」于「样」于{UVW}
　　加「新浮三二」于（（「聚集张纹素」于「一」于「盒组」于「样」于{UVW}于「张」）中「x」）而
　令「乙」为「比较采样」于「深盒」于「比」于{UVW}于「壹」
　　加「比较采样张纹理」于「深叠」于「比」于{UV}于「张」于「壹」
　　加「零层比较采样张纹理」于「深盒组」于「比」于{UVW}于「张」于「壹」
　　加「零层比较采样」于「深盒」于「比」于{UVW}于「壹」
　　加「偏移按层采样纹理」于「深」于「样」于{UV}于（「新整三二」于「零」）于（{I}与 负{I}）
　　加「偏移采样纹理」于「深」于「样」于{UV}于（{I}与{I}）而
　令「丙」为「聚集张深度纹素」于「深叠」于「样」于{UV}于「张」
　　加「比较聚集张纹素」于「深盒组」于「比」于{UVW}于「张」于「壹」
　　加「聚集深度纹素」于「深盒」于「样」于{UVW}
　　加「比较聚集纹素」于「深盒」于「比」于{UVW}于「壹」
　　加「偏移聚集深度纹素」于「深」于「样」于{UV}于（{I}与{I}）
　　加「偏移聚集张深度纹素」于「深叠」于「样」于{UV}于「张」于（{I}与{I}）
　　加「偏移比较聚集张纹素」于「深叠」于「比」于{UV}于「张」于「壹」于（{I}与 负{I}）
　　加「偏移按梯度采样张纹理」于「叠」于「样」于{UV}于「张」于{UV}于{UV}于（{I}与{I}）
　　加「偏移偏层采样纹理」于「图」于「样」于{UV}于「壹」于（{I}与{I}）
　　加「偏移偏层采样张纹理」于「叠」于「样」于{UV}于「张」于「壹」于（{I}与{I}）
　　加「偏移采样张纹理」于「叠」于「样」于{UV}于「张」于（{I}与{I}）
　　加「偏移按层采样张纹理」于「叠」于「样」于{UV}于「张」于「壹」于（{I}与{I}）
　　加「新浮三二」于（（「偏移聚集张纹素」于「二」于「整叠」于「样」于{UV}于「张」于（{I}与{I}））中「y」）而
　令「丁」为「偏移比较采样」于「深」于「比」于{UV}于「壹」于（{I}与{I}）
　　加「偏移比较采样张纹理」于「深叠」于「比」于{UV}于「张」于「壹」于（{I}与{I}）
　　加「偏移零层比较采样张纹理」于「深叠」于「比」于{UV}于「张」于「壹」于（{I}与{I}）而
　「甲」加「丙」加（「乙」与「乙」与「丁」与「乙」）
也。
「片项」乃「片元入口」也。
「片项」者「片元入口项」于「片」也。
"""


def _program(body: str = BODY) -> str:
    lines = ["寻观「点染」之「点染本」之书。", *bound_resources(BOUND)]
    return "\n".join(lines) + "\n" + body


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "采。着色器。豫"
    path.write_text(_program(), encoding="utf-8")
    return Workspace(tmp_path), path


def test_wgsl_of_every_form_is_valid(source):
    ws, path = source
    assert ws.diagnostics(path) == []
    text = translate(ws, path, "wgsl").text
    for spelling in ("textureSampleBias(图, 样, ", "textureSampleBias(叠, 样, ", "textureSample(体, 样, ",
                     "vec3<i32>(1i, 1i, -1i)", "textureSampleGrad(盒, 样, ", "textureGather(3, 盒, 样, ",
                     "textureGather(1, 盒组, 样, ", "textureSampleCompare(深叠, 比, ", "textureSampleCompareLevel(深盒组, 比, ",
                     "textureSampleLevel(深, 样, ", "textureGather(深叠, 样, ", "textureGatherCompare(深盒组, 比, ",
                     "textureGather(2, 整叠, 样, ", "textureGatherCompare(深叠, 比, ", "textureSampleBias(叠, 样, "):
        assert spelling in text, spelling
    validate(text)


def test_msl_of_every_form_type_checks(source):
    require_clang(pytest)
    ws, path = source
    text = translate(ws, path, "msl").text
    for spelling in ("bias(", "gradientcube(", "gradient3d(", "component::w", "盒组.gather(", "sample_compare(",
                     "level(0)", "深叠.gather(", "gather_compare(", "整叠.gather(", "component::z"):
        assert spelling in text, spelling
    assert clang_check({"采": text}) == {}


def test_ptx_refuses_them_naming_its_target(source):
    ws, path = source
    result = translate(ws, path, "ptx")
    assert result.text is None and result.diagnostics
    assert all("千手" in d.message for d in result.diagnostics)


def _one_call(tmp_path, call: str) -> list:
    body = f"""「片」乃化「片元坐标」为「片元颜色」者也。
「片」者得「p」而{call}也。
"""
    path = tmp_path / "错。着色器。豫"
    path.write_text(_program(body), encoding="utf-8")
    return Workspace(tmp_path).diagnostics(path)


@pytest.mark.parametrize("call, shown", [
    (f"「聚集纹素」于「四」于「图」于「样」于{UV}", "「4」"),
    (f"「聚集纹素」于（「新整三二」于（「p」中「零」））于「图」于「样」于{UV}", "算出来的值"),
    (f"「偏移按层采样纹理」于「图」于「样」于{UV}于（「新浮三二」于「零」）于（「新整三二」于「八」与{I}）", "8、1"),
    (f"「偏移按层采样纹理」于「图」于「样」于{UV}于（「新浮三二」于「零」）于（负（「新整三二」于「九」）与{I}）", "-9、1"),
    (f"「偏移聚集纹素」于「零」于「图」于「样」于{UV}于（「新整三二」于（「p」中「零」）与{I}）", "算出来的值、1"),
])
def test_a_gather_component_or_offset_must_be_written_in_range(tmp_path, call, shown):
    [d] = _one_call(tmp_path, f"令「x」为{call}而「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「零」")
    assert d.code == "texture-constant" and shown in d.message, d.message


def test_a_gather_of_a_depth_texture_names_its_own_builtin(tmp_path):
    [d] = _one_call(tmp_path, f"「聚集纹素」于「零」于「深」于「样」于{UV}")
    assert "聚集深度纹素" in d.message, d.message


UNORDERED = """寻观「点染」之「点染本」之书。
「格」乃「读写存储纹理二维」于「单整三二」也。
「格」者「存储纹理绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。
「邻」乃「存储缓冲」于（「数组」于「整三二」）也。
「邻」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「读写」也】）也。
「换」乃化「全局调用号」为「有」者也。
「换」者得「号」而
　令「x」为「号」中「零」而
　「写纹素」于「格」于（「x」与「新无三二」于「零」）于（「新整三二」于「x」与「新整三二」于「零」与「新整三二」于「零」与「新整三二」于「一」）；
　{屏障}「写数组」于「邻」于「x」于（「读存储纹素」于「格」于（「x」异或（「新无三二」于「一」）与「新无三二」于「零」））中「x」
也。
「换入口」乃「计算入口」也。
「换入口」者「计算入口项」于「换」于（「组值」【「工作组大小」者「八」也】）也。
"""


@pytest.mark.parametrize("barrier", [False, True])
def test_the_texture_barrier_orders_a_neighbour_read(tmp_path, barrier):
    path = tmp_path / "换。着色器。豫"
    path.write_text(UNORDERED.replace("{屏障}", "「纹理屏障」于「元」；\n　" if barrier else ""), encoding="utf-8")
    ws = Workspace(tmp_path)
    assert ws.diagnostics(path) == []
    run = lambda: interp.run(ws, path, "换入口", {(0, 1): np.zeros(8, np.int32)}, 1,  # noqa: E731
                             textures={(0, 0): (8, 1)})
    if not barrier:
        with pytest.raises(Fault, match="纹理屏障"):
            run()
        return
    out = run()
    np.testing.assert_array_equal(np.frombuffer(out[(0, 1)], np.int32), np.arange(8) ^ 1)


# ---------------------------------------------------------------- 着色器 运行 with every kind of binding

COMPARE_WORDS = {"less": "小于", "less-equal": "不大于", "greater": "大于"}


def cli_run(tmp_path, capsys):
    """A runner of tests/support/references.py through `着色器 运行`: buffers, textures and
    depths as .npy files, samplers as words, storage textures written to .npy (a read-only one
    given its first texels, a read-write one 初值.npy,结果.npy); --尺寸 the largest empty one's size."""
    def run(sample, entry, data, groups, textures=()):
        specs, outputs, sizes, options = [], {}, [], []
        path = SAMPLES / f"{sample}。着色器。豫"
        shapes = {r.name: texture_shape(r.type) for _, r in entry_resources(Workspace(SAMPLES), path, entry)}
        for t in textures:
            if isinstance(t, StorageTexture):
                spec, size = _storage_spec(tmp_path, t, shapes[t.name], outputs)
                specs.append(f"{t.name}={spec}")
                sizes += [size] if size else []
        if sizes:
            largest = max(sizes, key=len)
            assert all(largest[:len(s)] == s for s in sizes), f"命令行只有一个 --尺寸：{sizes}"
            options = ["--尺寸", ",".join(map(str, largest))]
        for name, array in data.items():
            specs.append(f"{name}={_saved(tmp_path, name, array)}")
        for t in textures:
            if isinstance(t, StorageTexture):
                continue
            group, binding, resource = t
            key = f"{group}:{binding}"
            if isinstance(resource, dict):
                words = [COMPARE_WORDS[resource["compare"]]] if "compare" in resource else []
                words += ["线性"] if resource.get("mag_filter") == "linear" else ([] if words else ["最近"])
                specs.append(f"{key}={','.join(words)}")
            else:
                array = np.asarray(resource)
                array = array[..., 0] if array.shape[-1] == 1 else array      # depths: no channel axis
                specs.append(f"{key}={_saved(tmp_path, f'纹{group}_{binding}', array)}")
        count = ",".join(map(str, groups)) if isinstance(groups, tuple) else str(groups)
        status = main(["运行", str(path), entry, *specs, "--组数", count, *options])
        err = capsys.readouterr().err
        assert status == 0, err
        out = {name: np.load(tmp_path / f"{name}.npy") for name in data}
        out.update({name: np.load(path) for name, path in outputs.items()})
        return out
    return run


def _storage_spec(tmp_path, t: StorageTexture, shape, outputs: dict) -> tuple[str, tuple | None]:
    """A storage texture's spec for 运行 (its output noted in `outputs`), and the size --尺寸 must
    give when it starts empty: (宽[, 高[, 深或张]]) as its kind counts them."""
    first = None if t.initial is None else _saved(tmp_path, f"{t.name}_初", np.asarray(t.initial))
    if shape.access == "read":
        return first, None
    outputs[t.name] = tmp_path / f"{t.name}.npy"
    if first is not None:
        return f"{first},{outputs[t.name]}", None
    return str(outputs[t.name]), (t.width, t.height, t.depth)[:shape.dims + shape.arrayed]


def _saved(tmp_path, name: str, array) -> str:
    path = tmp_path / f"{name}.npy"
    np.save(path, np.ascontiguousarray(array))
    return str(path)


def test_run_takes_arrays_depths_comparison_samplers_and_read_write_storage(tmp_path, capsys):
    """The sample's reference through the command line: a 2-D array, an integer texture, a
    depth texture, a comparison sampler and an r32sint read-write storage texture."""
    device_for("")
    REFERENCES["纹理采样"](cli_run(tmp_path, capsys))


def test_run_takes_1d_layered_3d_read_only_and_read_write_storage_textures(tmp_path, capsys):
    """The sample 存储纹理种类 through the command line: write-only 1-D, array and 3-D textures sized by
    one --尺寸 宽,高,张, read-only ones and read-write ones (r32float, r32uint) from their first texels."""
    device_for("")
    REFERENCES["存储纹理种类"](cli_run(tmp_path, capsys))


def test_run_takes_cube_arrays_and_depth_cubes(tmp_path, capsys):
    device_for("")
    REFERENCES["立方数组采样"](cli_run(tmp_path, capsys))


def test_run_refuses_multisampled_textures(tmp_path, capsys):
    """WebGPU cannot write data into a multisampled texture: 运行 says so (a usage error)."""
    given = {"0:0": np.zeros((4, 4, 8, 4), np.float32), "0:1": np.zeros((4, 4, 8), np.float32),
             "出": np.zeros((128, 4), np.float32), "深出": np.zeros(128, np.float32), "尺": np.zeros(5, np.uint32)}
    specs = [f"{name}={_saved(tmp_path, name.replace(':', '_'), array)}" for name, array in given.items()]
    status = main(["运行", str(SAMPLES / "多重采样读。着色器。豫"), "多重采样读入口", *specs])
    err = capsys.readouterr().err
    assert status == 2 and "多重采样纹理：运行 与 渲染 不提供它" in err, err


@pytest.mark.parametrize("fmt, refused", [("单整三二", False), ("单无三二", False), ("四八归一", True), ("双浮三二", True)])
def test_a_read_write_storage_texture_takes_only_the_three_32_bit_formats(tmp_path, fmt, refused):
    path = tmp_path / "读写。着色器。豫"
    path.write_text(f"""寻观「点染」之「点染本」之书。
「格」乃「读写存储纹理二维」于「{fmt}」也。
「格」者「存储纹理绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。
""", encoding="utf-8")
    found = Workspace(tmp_path).diagnostics(path)
    assert [d.code for d in found] == (["texel-format"] if refused else []), [d.message for d in found]
    assert not refused or "「单浮三二」、「单无三二」、「单整三二」" in found[0].message


def test_偏层采样_renders_with_bias_and_offsets():
    """The sample 偏层采样 drawn on lavapipe: ½ of the biased sample, ¼ each of the two offset ones
    (nearest sampler, one level, so each is a texel; offsets clamp at the edges)."""
    size = 16
    text = translate(Workspace(SAMPLES), SAMPLES / "偏层采样。着色器。豫", "wgsl").text
    image = (np.random.default_rng(26).integers(0, 32, (size, size, 4)) / 32).astype(np.float16)
    pixels = render(text, "全屏", "着色", size, 3,
                    textures=[(0, 0, image), (0, 1, {"mag_filter": "nearest", "min_filter": "nearest"})])
    img = image.astype(np.float64)
    right = img[:, np.minimum(np.arange(size) + 1, size - 1)]
    below = img[np.minimum(np.arange(size) + 1, size - 1)]
    np.testing.assert_allclose(pixels, 0.5 * img + 0.25 * right + 0.25 * below, atol=1e-6)


LAYERED_STORAGE = """寻观「点染」之「点染本」之书。
「源」乃「只读存储纹理二维数组」于「四整八」也。
「源」者「存储纹理绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。
「体」乃「存储纹理三维」于「双浮三二」也。
「体」者「存储纹理绑定」于（「组值」【「组」者「零」也，「号」者「一」也】）也。
「累」乃「读写存储纹理二维」于「单整三二」也。
「累」者「存储纹理绑定」于（「组值」【「组」者「零」也，「号」者「二」也】）也。
「抄」乃化「全局调用号」为「有」者也。
「抄」者得「号」而
　令「处」为「号」中「零」与「号」中「一」而
　令「a」为「读存储张纹素」于「源」于「处」于「号」中「二」而
　「写纹素」于「体」于（「号」中「零」与「号」中「一」与「号」中「二」）
　　于（「新浮三二」于（「a」中「x」）与「新浮三二」于（「a」中「w」）与「新浮三二」于「零」与「新浮三二」于「零」）；
　若「号」中「二」等于（「新无三二」于「零」）则（
　　「写纹素」于「累」于「处」于（（「读存储纹素」于「累」于「处」）中「x」加「a」中「y」
　　　与「新整三二」于「零」与「新整三二」于「零」与「新整三二」于「零」））
也。
「抄入口」乃「计算入口」也。
「抄入口」者「计算入口项」于「抄」于（「组值」【「工作组大小」者「四」与「二」与「一」也】）也。
"""


def test_run_gives_storage_textures_first_texels_and_three_dimensions(tmp_path, capsys):
    """A read-only rgba8sint array from its .npy, a 3-D rg32float output sized by --尺寸 宽,高,深, and an
    r32sint read-write texture from 初值.npy,结果.npy."""
    device_for("")
    path = tmp_path / "抄。着色器。豫"
    path.write_text(LAYERED_STORAGE, encoding="utf-8")
    w, h, d = 8, 4, 3
    g = np.random.default_rng(28)
    source = g.integers(-128, 128, (d, h, w, 4)).astype(np.int8)
    first = g.integers(-1000, 1000, (h, w, 1)).astype(np.int32)
    np.save(tmp_path / "源.npy", source)
    np.save(tmp_path / "初.npy", first)
    status = main(["运行", str(path), "抄入口", f"源={tmp_path / '源.npy'}", f"体={tmp_path / '体.npy'}",
                   f"累={tmp_path / '初.npy'},{tmp_path / '累.npy'}", "--尺寸", f"{w},{h},{d}", "--组数", f"2,2,{d}"])
    out = capsys.readouterr()
    assert status == 0, out.err
    assert f"存储纹理 rg32float {w}×{h}×{d}" in out.out
    volume = np.load(tmp_path / "体.npy")
    assert volume.shape == (d, h, w, 2) and volume.dtype == np.float32
    np.testing.assert_array_equal(volume, source[..., [0, 3]].astype(np.float32))
    np.testing.assert_array_equal(np.load(tmp_path / "累.npy"), first + source[0, ..., 1:2])


def test_片元比较采样_renders_through_the_command_line(tmp_path, capsys):
    """The sample 片元比较采样 drawn by `着色器 渲染` with a depth texture, a depth array, a colour
    array and a comparison sampler from the command line, against NumPy (8-bit PNG: half a step)."""
    device_for("")
    w, h, layers = 16, 8, 3
    g = np.random.default_rng(29)
    depth = (g.integers(0, 256, (h, w)) / 255).astype(np.float32)            # exact in depth16unorm
    depths = (g.integers(0, 256, (layers, h, w)) / 255).astype(np.float32)
    stack = (g.integers(0, 64, (layers, h, w, 4)) / 64).astype(np.float16)
    for name, array in (("深", depth), ("深叠", depths), ("叠", stack)):
        np.save(tmp_path / f"{name}.npy", array)
    status = main(["渲染", str(SAMPLES / "片元比较采样。着色器。豫"), "比较顶点", "比较片元",
                   *(f"{n}={tmp_path / f'{n}.npy'}" for n in ("深", "深叠", "叠")), "比=小于", "样=最近",
                   "--尺寸", f"{w},{h}", "--输出", str(tmp_path / "比较.png")])
    assert status == 0, capsys.readouterr().err
    data, width, height, channels = decode_png((tmp_path / "比较.png").read_bytes())
    pixels = np.frombuffer(data, np.uint8).reshape(height, width, channels).astype(np.float64) / 255
    ys, xs = np.mgrid[0:h, 0:w]
    k = (xs + ys) % layers
    ref = ((7 * xs + 3 * ys) % 255 + 0.5) / 255
    at = lambda a, dy, dx: a[np.clip(ys + dy, 0, h - 1), np.clip(xs + dx, 0, w - 1)]   # noqa: E731
    layered = lambda a, dy, dx: a[k, np.clip(ys + dy, 0, h - 1), np.clip(xs + dx, 0, w - 1)]   # noqa: E731
    red = 0.5 * (ref < layered(depths, 0, 0)) + 0.25 * (ref < at(depth, 0, 1)) + 0.25 * (ref < layered(depths, 1, 0))
    s = stack.astype(np.float64)
    colour = 0.5 * layered(s[..., 0], 0, 0) + 0.25 * layered(s[..., 1], 0, -1) + 0.25 * layered(s[..., 2], -1, 0)
    expected = np.stack([red, colour, colour, colour], -1)
    assert 0.2 < red.mean() < 0.8
    assert np.abs(pixels - expected).max() <= 0.5 / 255 + 1e-6
