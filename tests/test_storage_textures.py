"""Storage textures (an extension beyond the seed): every format written on
lavapipe and on the reference interpreter and compared with NumPy's idea of
the format, the MSL type-checked by clang against the Metal shim, PTX's
refusal, the checker's messages, the PNG reader against an encoder written
here (every filter and colour type), and `运行` with image files.

The 索贝尔 sample runs with the other references (tests/support/references.py) on
lavapipe, the Metal shim and the interpreter."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

from support.metal_shim.runner import check as clang_check, require_clang
from support.references import SAMPLES, StorageTexture, sobel
from support.wgpu_device import device_for, run_entry
from zhuose.cli.main import main
from zhuose.compiler import interp
from zhuose.compiler.backends import translate
from zhuose.compiler.builtin.formats import STORAGE_FORMATS
from zhuose.compiler.runtime.png import PngError, decode_png
from zhuose.compiler.workspace import Workspace

SOBEL = SAMPLES / "索贝尔。着色器。豫"
W, H = 11, 6

HEADER = """寻观「点染」之「点染本」之书。
「出」乃「存储纹理二维」于「{fmt}」也。
「出」者「存储纹理绑定」于（「组值」【「组」者「零」也，「号」者「零」也】）也。
"""

#: per format: the value written at (x, y), in the language and in NumPy
FLOAT_VALUE = ("（「新浮三二」于「x」除（「新浮三二」于「八」）减（「新浮三二」于「零点二五」）与"
               "「新浮三二」于「y」乘（「新浮三二」于「零点五」）与「新浮三二」于「零点七五」与「新浮三二」于「二」）")
UINT_VALUE = "（「x」乘（「新无三二」于「一零零零」）加「y」加（「新无三二」于「四二九四九六零零零零」）与「x」与「y」与「x」）"
#: signed formats: negative and positive values, all inside 8 bits (x < 11, y < 6)
INT_VALUE = ("（「新整三二」于「x」减（「新整三二」于「五」）与「新整三二」于「y」乘 负（「新整三二」于「二五」）"
             "与「新整三二」于「x」乘（「新整三二」于「一一」）与 负（「新整三二」于「一二八」））")
#: unsigned formats narrower than 32 bits: values inside 8 bits, the largest among them
NARROW_UINT_VALUE = "（「x」乘（「新无三二」于「二零」）加「y」与「x」与「y」与「新无三二」于「二五五」）"


def _value(fmt: str) -> str:
    f = STORAGE_FORMATS[fmt]
    if f.texel == "int":
        return INT_VALUE
    if f.texel == "uint":
        return UINT_VALUE if f.dtype == "uint32" else NARROW_UINT_VALUE
    return FLOAT_VALUE


def _program(fmt: str) -> str:
    value = _value(fmt)
    if STORAGE_FORMATS[fmt].texel == "int":
        value = value.replace("「x」", "（「新整三二」于「x」）").replace("「y」", "（「新整三二」于「y」）")
    return HEADER.format(fmt=fmt) + f"""「涂」乃化「全局调用号」为「有」者也。
「涂」者得「号」而
　令「尺」为「纹理尺寸」于「出」而
　令「x」为「号」中「零」而
　令「y」为「号」中「一」而
　若「x」小于「尺」中「零」且「y」小于「尺」中「一」则「写纹素」于「出」于（「x」与「y」）于{value}
也。
「涂入口」乃「计算入口」也。
「涂入口」者「计算入口项」于「涂」于（「组值」【「工作组大小」者「四」与「四」也】）也。
"""


def _expected(fmt: str) -> np.ndarray:
    """What the texture holds, computed here from the format's definition."""
    ys, xs = np.mgrid[0:H, 0:W]
    f = STORAGE_FORMATS[fmt]
    if f.texel == "int":
        values = np.stack([xs - 5, ys * -25, xs * 11, np.full(xs.shape, -128)], -1)
    elif f.texel == "uint" and f.dtype != "uint32":
        values = np.stack([xs * 20 + ys, xs, ys, np.full(xs.shape, 255)], -1)
    elif f.texel == "uint":
        first = (xs.astype(np.uint64) * 1000 + ys + 4294960000) % 2 ** 32
        values = np.stack([first, xs, ys, xs], -1)
    else:
        values = np.stack([xs / 8 - 0.25, ys * 0.5, np.full(xs.shape, 0.75), np.full(xs.shape, 2.0)], -1)
        values = values.astype(np.float32)
        if f.dtype == "uint8":
            values = np.clip(values, 0, 1) * 255
        elif f.dtype == "int8":
            values = np.clip(values, -1, 1) * 127
    values = values[..., list(f.order[:f.channels])]              # bgra8unorm keeps blue first
    return values if f.dtype in ("uint8", "int8") and f.texel == "float" else values.astype(f.dtype)


def _source(tmp_path: Path, fmt: str) -> tuple[Workspace, Path]:
    path = tmp_path / "涂。着色器。豫"
    path.write_text(_program(fmt), encoding="utf-8")
    return Workspace(tmp_path), path


def _same_texels(fmt: str, texels: np.ndarray) -> None:
    f, expected = STORAGE_FORMATS[fmt], _expected(fmt)
    assert texels.shape == (H, W, f.channels) and texels.dtype == np.dtype(f.dtype)
    if f.texel == "float" and f.dtype in ("uint8", "int8"):     # unorm8 and snorm8 round to the nearest step
        assert np.abs(texels - expected).max() <= 0.5 + 1e-3
    else:
        np.testing.assert_array_equal(texels, expected)


@pytest.mark.parametrize("fmt", sorted(STORAGE_FORMATS))
def test_every_format_on_lavapipe(fmt, tmp_path):
    ws, path = _source(tmp_path, fmt)
    wgsl = translate(ws, path, "wgsl").text
    assert f"texture_storage_2d<{STORAGE_FORMATS[fmt].wgsl}, write>" in wgsl
    out = run_entry(ws, path, "涂入口", {}, (3, 2), [StorageTexture("出", STORAGE_FORMATS[fmt].wgsl, W, H)])
    _same_texels(fmt, out["出"])


@pytest.mark.parametrize("fmt", sorted(STORAGE_FORMATS))
def test_every_format_on_the_interpreter(fmt, tmp_path):
    ws, path = _source(tmp_path, fmt)
    out = interp.run(ws, path, "涂入口", {}, (3, 2), textures={(0, 0): (W, H)})
    _same_texels(fmt, out[(0, 0)])


def test_msl_of_every_format_type_checks():
    require_clang(pytest)
    import tempfile
    sources = {}
    for fmt, f in STORAGE_FORMATS.items():
        with tempfile.TemporaryDirectory() as tmp:
            ws, path = _source(Path(tmp), fmt)
            text = translate(ws, path, "msl").text
        assert f"texture2d<{f.texel}, access::write> 出 [[texture(0)]]" in text and "出.write(" in text
        sources[fmt] = text
    assert clang_check(sources) == {}


def test_the_shim_refuses_reading_a_write_only_texture():
    """The shim's write-only texture has no read: it would catch MSL that reads one."""
    require_clang(pytest)
    text = ("#include <metal_stdlib>\nusing namespace metal;\n"
            "kernel void k(texture2d<float, access::write> t [[texture(0)]]) { float4 v = t.read(uint2(0, 0)); }\n")
    assert "read" in clang_check({"读": text}).get("读", "")


def test_ptx_refuses_storage_textures(tmp_path):
    path = tmp_path / "写。着色器。豫"
    path.write_text(HEADER.format(fmt="四浮三二") + """「涂」乃化「全局调用号」为「有」者也。
「涂」者得「号」而「写纹素」于「出」于（「号」中「零」与「号」中「一」）于（「新浮三二」于「一」与「新浮三二」于「一」与「新浮三二」于「一」与「新浮三二」于「一」）也。
「涂入口」乃「计算入口」也。
「涂入口」者「计算入口项」于「涂」于（「组值」【「工作组大小」者「八」也】）也。
""", encoding="utf-8")
    result = translate(Workspace(tmp_path), path, "ptx")
    assert result.text is None
    assert any("存储纹理" in d.message and d.definition for d in result.diagnostics), result.diagnostics


MISUSE = HEADER.format(fmt="四八归一") + """「坏」乃「存储纹理二维」于「浮三二」也。
「坏」者「存储纹理绑定」于（「组值」【「组」者「零」也，「号」者「一」也】）也。
「读」乃化「全局调用号」为「四维浮」者也。
「读」者得「号」而「读纹素」于「出」于（「号」中「零」与「号」中「一」）于「零」也。
「错值」乃化「全局调用号」为「有」者也。
「错值」者得「号」而「写纹素」于「出」于（「号」中「零」与「号」中「一」）于（「号」中「零」与「号」中「一」与「号」中「零」与「号」中「一」）也。
「顶点」乃化「顶点序号」为「裁剪位置」者也。
「顶点」者得「序」而
　令「尺」为「纹理尺寸」于「出」而
　「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「零」与「新浮三二」于「一」
也。
「顶点入口」乃「顶点入口」也。
「顶点入口」者「顶点入口项」于「顶点」也。
"""


def test_misuse_has_its_codes(tmp_path):
    path = tmp_path / "误用。着色器。豫"
    path.write_text(MISUSE, encoding="utf-8")
    ws = Workspace(tmp_path)
    found = {(d.code, d.definition): d.fields for d in ws.diagnostics(path)}
    assert found[("texel-format", "坏")] == {"类型": "浮三二"}
    assert found[("write-only-texture", "读")] == {"资源": "出", "函数": "读纹素"}
    assert found[("texel-value", "错值")] == {"格式": "四八归一", "应为": "「四维浮」", "实为": "「四维无」"}
    assert len(found) == 3, found
    # only a clean module reaches the validation pass: then the vertex stage is refused
    ws2 = Workspace(tmp_path)
    clean = tmp_path / "顶点。着色器。豫"
    clean.write_text(HEADER.format(fmt="四八归一") + MISUSE[MISUSE.index("「顶点」乃"):], encoding="utf-8")
    [stage] = ws2.diagnostics(clean)
    assert (stage.code, stage.fields["阶段"]) == ("stage", "顶点") and "存储纹理「出」" in stage.message


def test_two_writers_of_one_texel_are_a_race(tmp_path):
    path = tmp_path / "竞争。着色器。豫"
    path.write_text(HEADER.format(fmt="单浮三二") + """「涂」乃化「全局调用号」为「有」者也。
「涂」者得「号」而「写纹素」于「出」于（「号」中「零」除（「新无三二」于「二」）与「号」中「一」）于（「新浮三二」于「一」与「新浮三二」于「一」与「新浮三二」于「一」与「新浮三二」于「一」）也。
「涂入口」乃「计算入口」也。
「涂入口」者「计算入口项」于「涂」于（「组值」【「工作组大小」者「二」也】）也。
""", encoding="utf-8")
    with pytest.raises(interp.Fault, match="数据竞争"):
        interp.run(Workspace(tmp_path), path, "涂入口", {}, 1, textures={(0, 0): (4, 1)})


# ---------------------------------------------------------------- PNG files


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _filtered(rows: list[bytes], step: int, kinds: list[int]) -> bytes:
    """Scanlines filtered as the PNG specification says (written here, apart from the reader)."""
    out, previous = b"", bytes(len(rows[0]))
    for row, kind in zip(rows, kinds):
        line = bytearray()
        for i, v in enumerate(row):
            a = row[i - step] if i >= step else 0
            b, c = previous[i], previous[i - step] if i >= step else 0
            p = a + b - c
            paeth = a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else (b if abs(p - b) <= abs(p - c) else c)
            line.append((v - (0, a, b, (a + b) // 2, paeth)[kind]) & 0xFF)
        out += bytes([kind]) + bytes(line)
        previous = row
    return out


def _png(samples: np.ndarray, colour: int, depth: int = 8, extra: bytes = b"") -> bytes:
    h, w = samples.shape[:2]
    data = samples.astype(">u2" if depth == 16 else np.uint8).tobytes()
    stride = len(data) // h
    rows = [data[y * stride:(y + 1) * stride] for y in range(h)]
    step = max(1, stride // w)
    kinds = [y % 5 for y in range(h)]          # every filter type
    header = struct.pack(">IIBBBBB", w, h, depth, colour, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + extra
            + _chunk(b"IDAT", zlib.compress(_filtered(rows, step, kinds))) + _chunk(b"IEND", b""))


@pytest.mark.parametrize("colour, channels", [(0, 1), (2, 3), (4, 2), (6, 4)])
@pytest.mark.parametrize("depth", [8, 16])
def test_png_reader_undoes_every_filter(colour, channels, depth):
    top = 2 ** depth
    pixels = np.random.default_rng(colour + depth).integers(0, top, (9, 7, channels))
    data, w, h, c = decode_png(_png(pixels, colour, depth))
    assert (w, h, c) == (7, 9, channels)
    high = pixels >> 8 if depth == 16 else pixels
    np.testing.assert_array_equal(np.frombuffer(data, np.uint8).reshape(9, 7, c), high)


def test_png_palette_with_transparency():
    palette = np.array([[255, 0, 0], [0, 255, 0], [0, 0, 255]], np.uint8)
    indices = np.random.default_rng(5).integers(0, 3, (5, 6))
    extra = _chunk(b"PLTE", palette.tobytes()) + _chunk(b"tRNS", bytes([0, 128]))
    data, w, h, c = decode_png(_png(indices, 3, extra=extra))
    alpha = np.array([0, 128, 255], np.uint8)
    expected = np.concatenate([palette[indices], alpha[indices][..., None]], -1)
    np.testing.assert_array_equal(np.frombuffer(data, np.uint8).reshape(h, w, c), expected)


@pytest.mark.parametrize("damage, message", [
    (lambda b: b"GIF89a" + b[6:], "不是 PNG"),
    (lambda b: b[:40] + bytes([b[40] ^ 1]) + b[41:], "校验和"),
    (lambda b: b[:-30], "截断"),
])
def test_png_reader_says_what_is_wrong(damage, message):
    good = _png(np.zeros((4, 4, 3), np.uint8), 2)
    with pytest.raises(PngError, match=message):
        decode_png(damage(good))


# ---------------------------------------------------------------- 运行 with images


def _run(capsys, *args) -> tuple[int, str, str]:
    status = main(["运行", *map(str, args)])
    out = capsys.readouterr()
    return status, out.out, out.err


def _sobel_pixels(image_u8: np.ndarray) -> np.ndarray:
    return np.clip(sobel(image_u8.astype(np.float64) / 255), 0, 1) * 255


def test_run_reads_a_png_and_writes_png_and_npy(tmp_path, capsys):
    image = np.random.default_rng(9).integers(0, 50, (21, 30, 3)).astype(np.uint8)
    image[4:15, 6:20] += 180
    (tmp_path / "图.png").write_bytes(_png(image, 2))
    device_for("")
    status, out, err = _run(capsys, SOBEL, "索贝尔入口", f"图={tmp_path / '图.png'}", f"边={tmp_path / '边.png'}")
    assert (status, err) == (0, ""), err
    assert "rgba8unorm 30×21" in out
    data, w, h, c = decode_png((tmp_path / "边.png").read_bytes())
    pixels = np.frombuffer(data, np.uint8).reshape(h, w, c)
    # the default group count, ⌈30/8⌉ × ⌈21/8⌉, reaches every pixel
    assert np.abs(pixels[..., 0] - _sobel_pixels(image)).max() <= 0.51
    status, _, err = _run(capsys, SOBEL, "索贝尔入口", f"0:0={tmp_path / '图.png'}", f"0:1={tmp_path / '边.npy'}")
    assert (status, err) == (0, "")
    np.testing.assert_array_equal(np.load(tmp_path / "边.npy"), pixels)


def test_run_reads_a_grey_npy_image(tmp_path, capsys):
    grey = np.random.default_rng(4).uniform(0, 0.3, (9, 10)).astype(np.float32)
    np.save(tmp_path / "灰.npy", grey)
    device_for("")
    status, _, err = _run(capsys, SOBEL, "索贝尔入口", f"图={tmp_path / '灰.npy'}", f"边={tmp_path / '边.npy'}")
    assert (status, err) == (0, "")
    rgba = np.repeat(grey[..., None], 3, axis=2)
    expected = np.clip(sobel(rgba.astype(np.float64)), 0, 1) * 255
    assert np.abs(np.load(tmp_path / "边.npy")[..., 0] - expected).max() <= 0.51 + 1e-3


@pytest.mark.parametrize("args, message", [
    (["图=无.png", "边=边.png"], "读不了「无.png」"),
    (["图=图.npy"], "没有给出写到哪里"),
    (["边=边.png"], "没有给出它的图像"),
    (["图=图.npy", "边=边.txt"], ".png 或 .npy"),
    (["图=坏.npy", "边=边.png"], "图像须是 uint8"),
    (["图=图.npy", "边=边.png", "--后端", "参照"], "只有 --后端 网页图算"),
    (["图=图.npy", "边=边.png", "--尺寸", "0,3"], "宽高须在"),
])
def test_run_texture_mistakes(tmp_path, capsys, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    np.save(tmp_path / "图.npy", np.zeros((4, 4, 4), np.float32))
    np.save(tmp_path / "坏.npy", np.zeros((4, 4), np.int64))
    status, _, err = _run(capsys, SOBEL, "索贝尔入口", *args)
    assert status == 2 and message in err, err
    assert not (tmp_path / "边.png").exists()


def test_integer_texture_goes_to_npy_only_and_size_comes_from_the_option(tmp_path, capsys, monkeypatch):
    ws, path = _source(tmp_path, "单无三二")
    monkeypatch.chdir(tmp_path)
    status, _, err = _run(capsys, path, "涂入口", "出=出.png", "--尺寸", f"{W},{H}")
    assert status == 2 and "写到 .npy" in err
    status, _, err = _run(capsys, path, "涂入口", "出=出.npy")
    assert status == 2 and "--尺寸" in err
    device_for("")
    status, out, err = _run(capsys, path, "涂入口", "出=出.npy", "--尺寸", f"{W},{H}")
    assert (status, err) == (0, ""), err
    np.testing.assert_array_equal(np.load(tmp_path / "出.npy"), _expected("单无三二"))


def test_default_groups_cover_a_2d_buffer(tmp_path, capsys):
    """二维模板's 8 × 8 kernel given a (13, 21) .npy: ⌈21/8⌉ × ⌈13/8⌉ groups by default."""
    device_for("")
    w, h = 21, 13
    x = np.random.default_rng(2).standard_normal((h, w)).astype(np.float32)
    for name, array in (("入", x), ("出", np.zeros((h, w), np.float32)), ("序", np.zeros((h, w), np.uint32))):
        np.save(tmp_path / f"{name}.npy", array)
    status, _, err = _run(capsys, SAMPLES / "二维模板。着色器。豫", "模板入口", f"尺寸={w},{h},1",
                          f"输入={tmp_path / '入.npy'}", f"输出={tmp_path / '出.npy'}", f"序号={tmp_path / '序.npy'}")
    assert (status, err) == (0, ""), err
    expected = x.copy()
    expected[1:-1, 1:-1] = 4 * x[1:-1, 1:-1] - x[1:-1, :-2] - x[1:-1, 2:] - x[:-2, 1:-1] - x[2:, 1:-1]
    np.testing.assert_allclose(np.load(tmp_path / "出.npy"), expected, atol=1e-5)
