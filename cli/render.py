"""The subcommand `着色器 渲染 文件 顶点入口项 片元入口项 [绑定=数据 …] --尺寸 W,H
--顶点数 N --输出 图.png`: draw a vertex + fragment pair on the local WebGPU
adapter and write the picture as a PNG, whole or not at all.  Buffers,
textures and samplers are given exactly as for 运行 (cli/run.py's and
cli/textures.py's handling, shared); the vertex entry's located inputs one
.npy file each (`--顶点 名=文件.npy` a row per vertex, `--实例 名=文件.npy` a
row per instance); the depth attachment by `--深度比较`, `--深度格式`,
`--深度初值` and `--深度输出`."""

from __future__ import annotations

import math
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

from ..compiler import ir
from ..compiler.backends.targets import WGSL
from ..compiler.generate.output import os_error_text
from ..compiler.runtime.png import encode_png
from ..compiler.runtime.render import DEPTH_FORMATS, Depth, VertexInput, pair_problem, render, vertex_format, \
    vertex_inputs
from ..compiler.types import resolve, vector_parts
from ..compiler.runtime.wgpu import WebGPUError, buffer_for
from .common import Command, ascii_integer, file_argument, shown_path, translated
from .overrides import OverrideProblem, add_override_option, overrides, pipeline_constants
from .run import RunProblem, _read_npy, given_resources, report_buffers, save_npy
from .textures import parse_size, texture_bindings, write_outputs, write_whole

STAGE_OF_ROLE = {"顶点入口项": "顶点", "片元入口项": "片元"}
PROGRESS_AFTER_S = 2.0
MAX_VERTICES = 1 << 24
#: --深度比较's words (the language's comparison operators) → WebGPU's compare functions
DEPTH_COMPARE = {"总是": "always", "从不": "never", "小于": "less", "不大于": "less-equal", "大于": "greater",
                 "不小于": "greater-equal", "等于": "equal", "不等于": "not-equal"}
#: the NumPy element type of each vertex format's scalar
FORMAT_DTYPES = {"float32": "float32", "uint32": "uint32", "sint32": "int32", "float16": "float16"}


def _render_arguments(p) -> None:
    file_argument(p)
    p.add_argument("顶点入口项", help="顶点入口项的名字（如「三角形顶点」）")
    p.add_argument("片元入口项", help="片元入口项的名字（如「三角形片元」）")
    p.add_argument("缓冲", nargs="*", metavar="绑定=数据",
                   help="两个入口用到的每个缓冲、纹理与采样器一项，给法与 运行 相同：0:0=1,2,3、资源名=文件.npy、"
                        "纹理=图.png、采样器=线性")
    p.add_argument("--尺寸", default="256,256", metavar="W,H", help="图的宽与高（像素），默认 256,256")
    p.add_argument("--顶点数", metavar="N", help="画的顶点数（三个一组成三角形）；默认是 --顶点 数据的行数，没有时 3")
    p.add_argument("--实例数", metavar="N", help="画的实例数；默认是 --实例 数据的行数，没有时 1")
    p.add_argument("--顶点", action="append", default=[], metavar="名=文件.npy",
                   help="顶点入口的一个位置输入（字段名、参数名或位置编号）逐顶点的数据：每个顶点一行，"
                        "n 维向量是 (行数, n) 的数组，标量是 (行数,)；元素类型与输入的相同（float32、int32、uint32、float16）。"
                        "每个位置输入给一次 --顶点 或 --实例")
    p.add_argument("--实例", action="append", default=[], metavar="名=文件.npy",
                   help="顶点入口的一个位置输入逐实例的数据：每个实例一行，写法同 --顶点")
    p.add_argument("--深度比较", default="总是", choices=list(DEPTH_COMPARE),
                   help="深度测试：片元的深度与深度附件里的比，成立才画（并写入深度）；默认 总是（后画的在上）")
    p.add_argument("--深度格式", default="depth32float", choices=list(DEPTH_FORMATS),
                   help="深度附件的格式，默认 depth32float（depth24plus 读不出来，不能与 --深度输出 同用）")
    p.add_argument("--深度初值", default="1", metavar="D", help="深度附件清成的值（0 至 1），默认 1")
    p.add_argument("--深度输出", metavar="深度.npy", help="把画完的深度附件写成 (高, 宽) 的 float32 数组")
    p.add_argument("--输出", required=True, metavar="图.png", help="写出的 PNG 文件（写完整才换上，出错时不留半个文件）")
    add_override_option(p)


def _render_command(args) -> int:
    done, status = translated(args.文件, WGSL.name)
    if done is None:
        return status
    ws, result = done
    try:
        return _render(ws, result, args)
    except (RunProblem, OverrideProblem, WebGPUError) as err:
        sys.stderr.write(f"着色器：{err}\n")
        return 2


def _render(ws, result, args) -> int:
    try:
        import numpy as np
    except ImportError as err:
        raise WebGPUError("渲染 要用 NumPy 读写缓冲：pip install numpy") from err
    size, output, depth = parse_size(args.尺寸), _output(args.输出), _depth(args)
    constants = pipeline_constants(ws, args.文件, overrides(ws, args.文件, args.常量))
    info = ws.validate(args.文件)
    vertex, fragment = (_entry(info, result, args, role) for role in STAGE_OF_ROLE)
    functions = [info.decls[ir.function_key(info.modules, e.function)] for e in (vertex, fragment)]
    problem = pair_problem(vertex, functions[0], fragment, functions[1], info.show)
    if problem:
        raise RunProblem(problem)
    who = f"入口项「{vertex.name}」与「{fragment.name}」"
    resources, arrays, textures = given_resources(
        np, ws, args.文件, who, [vertex.function, fragment.function], args.缓冲,
        lambda handles, given: texture_bindings(np, handles, given, args.尺寸, who) if handles else None)
    buffers = [buffer_for(r, arrays[r.name][0].tobytes()) for r in resources]
    inputs, count, instances = _vertex_buffers(np, vertex, functions[0], args, info.show)
    names = {e.item: e.function for e in result.entries}
    with _progress(f"着色器：正在渲染 {size[0]}×{size[1]}（{count} 个顶点）……\n"):
        picture, out, depths = render(result.text, names[vertex.name], names[fragment.name], size, count, buffers,
                                      textures.others if textures else (), constants,
                                      inputs=inputs, instances=instances, depth=depth)
    write_whole(str(output), encode_png(picture.rgba, picture.width, picture.height))
    if depths is not None:
        save_npy(np, args.深度输出, depths, failed="写不出")
    report_buffers(np, resources, arrays, out)
    if textures:
        write_outputs(np, textures)
    print(f"写出 {shown_path(str(output))}（{picture.width}×{picture.height}）")
    return 0


def _entry(info, result, args, role: str) -> ir.Entry:
    """The entry named for `role` on the command line, which must be of that stage."""
    name, stage = getattr(args, role), STAGE_OF_ROLE[role]
    entry = next((e for e in info.entries if e.name == name), None)
    names = "、".join(f"「{e.item}」" for e in result.entries if e.stage == stage) or "（没有）"
    if entry is None:
        raise RunProblem(f"「{name}」不是这个文件的入口项；{stage}入口项有 {names}")
    if entry.stage != stage:
        raise RunProblem(f"「{name}」是{entry.stage}入口项，这里要{stage}入口项（渲染 的参数依次是 顶点入口项 片元入口项）；"
                         f"这个文件的{stage}入口项有 {names}")
    return entry


def _count(text: str, option: str) -> int:
    try:
        count = ascii_integer(text)
    except ValueError as err:
        raise RunProblem(f"{option}「{text}」应是正整数，如 3") from err
    if not 1 <= count <= MAX_VERTICES:
        raise RunProblem(f"{option}「{text}」须在 1 至 {MAX_VERTICES} 之间")
    return count


def _vertex_buffers(np, vertex: ir.Entry, function: ir.Function, args, show) -> tuple[list[VertexInput], int, int]:
    """A vertex buffer for each located input of the vertex entry (its .npy file
    from --顶点 or --实例), the vertex count and the instance count: given, or
    the rows of the per-vertex (per-instance) data, which must then agree."""
    wanted = vertex_inputs(function)
    given = _named_files(args.顶点, "--顶点", False, wanted, vertex, {})
    given = _named_files(args.实例, "--实例", True, wanted, vertex, given)
    inputs, rows = [], {False: {}, True: {}}
    for location, (name, t, _) in sorted(wanted.items()):
        if location not in given:
            raise RunProblem(f"顶点入口项「{vertex.name}」的输入「{name}」（位置 {location}）要顶点数据："
                             f"写 --顶点 {name}=文件.npy（每个顶点一行）或 --实例 {name}=文件.npy（每个实例一行）")
        spec, per_instance = given[location]
        array = _vertex_array(np, spec, name, t, show)
        inputs.append(VertexInput(location, vertex_format(t), array.tobytes(), array.strides[0], per_instance))
        rows[per_instance][spec] = len(array)
    return inputs, _drawn(args.顶点数, "--顶点数", rows[False], 3), _drawn(args.实例数, "--实例数", rows[True], 1)


def _named_files(items: list[str], option: str, per_instance: bool, wanted: dict, vertex: ir.Entry, out: dict) -> dict:
    """`out` with location → (file, per_instance) of the `名=文件.npy` items, 名 a located input's name or its location."""
    by_name = {name: location for location, (name, _, _) in wanted.items()}
    for item in items:
        key, sep, spec = item.partition("=")
        location = by_name.get(key, int(key) if key.isascii() and key.isdigit() else None)
        if not sep or not spec:
            raise RunProblem(f"{option}「{item}」应写成 名=文件.npy，名是顶点入口的位置输入（字段名或位置编号）")
        if location not in wanted:
            names = "、".join(f"「{n}」（位置 {loc}）" for loc, (n, _, _) in sorted(wanted.items())) or "（没有）"
            raise RunProblem(f"{option}「{item}」：顶点入口项「{vertex.name}」没有叫「{key}」的位置输入；它的位置输入有 {names}")
        if location in out:
            raise RunProblem(f"顶点入口项「{vertex.name}」的位置 {location} 给了两次数据：每个位置输入给一次 --顶点 或 --实例")
        out[location] = (spec, per_instance)
    return out


def _vertex_array(np, spec: str, name: str, t, show):
    """The rows of one located input, checked against its type: (rows, n) for an n-vector, (rows,) for a scalar."""
    format = vertex_format(t)
    if format is None:
        raise RunProblem(f"顶点输入「{name}」是{show(t)}：WebGPU 没有对应的顶点格式"
                         "（半精度只有二维、四维的）；改用浮三二或二维、四维的半精度向量")
    dtype = FORMAT_DTYPES[format.split("x")[0]]
    parts = vector_parts(resolve(t))
    width = parts[1] if parts else 1
    if not spec.endswith(".npy"):
        raise RunProblem(f"顶点输入「{name}」的数据「{spec}」须是 .npy 文件")
    array = _read_npy(np, spec)
    if array.dtype != np.dtype(dtype):
        raise RunProblem(f"「{spec}」的元素类型是 {array.dtype}，顶点输入「{name}」要 {dtype}")
    if array.ndim == 1 and width == 1:
        array = array.reshape(-1, 1)
    if array.ndim != 2 or array.shape[1] != width or len(array) == 0:
        shape = f"(行数, {width})" if width > 1 else "(行数,) 或 (行数, 1)"
        raise RunProblem(f"「{spec}」的形状是 {array.shape}，顶点输入「{name}」要 {shape} 的数组，且至少一行")
    return np.ascontiguousarray(array)


def _drawn(text: str | None, option: str, rows: dict[str, int], default: int) -> int:
    """How many vertices (instances) to draw: the option, else the rows every file of them has."""
    if text is not None:
        count = _count(text, option)
        short = [f"「{spec}」只有 {n} 行" for spec, n in rows.items() if n < count]
        if short:
            raise RunProblem(f"{option} {count}，但{'、'.join(short)}：每一个要画的都须有一行数据")
        return count
    if len(set(rows.values())) > 1:
        raise RunProblem(f"数据的行数不同（{'、'.join(f'「{s}」{n} 行' for s, n in rows.items())}）："
                         f"让它们一样长，或用 {option} 说画几个")
    return next(iter(rows.values()), default)


def _depth(args) -> Depth:
    """The depth attachment the options ask for."""
    try:
        clear = float(args.深度初值) if args.深度初值.isascii() else math.nan
    except ValueError:
        clear = math.nan
    if not 0 <= clear <= 1:
        raise RunProblem(f"--深度初值「{args.深度初值}」应是 0 至 1 之间的数，如 1 或 0.5")
    if args.深度输出 is not None:
        if not args.深度输出.endswith(".npy"):
            raise RunProblem(f"--深度输出「{args.深度输出}」须是 .npy 文件")
        if not DEPTH_FORMATS[args.深度格式]:
            raise RunProblem(f"--深度格式 {args.深度格式} 的值读不出来，不能与 --深度输出 同用：改用 depth32float 或 depth16unorm")
    return Depth(args.深度格式, DEPTH_COMPARE[args.深度比较], clear, args.深度输出 is not None)


#: a file name's bytes, leaving room for the temporary name the image is written under first (255 on most systems)
NAME_BYTES = 200


def _output(text: str) -> Path:
    path = Path(text)
    if path.suffix.lower() != ".png":
        raise RunProblem(f"--输出「{text}」须是 .png 文件")
    if len(path.name.encode("utf-8")) > NAME_BYTES:
        raise RunProblem(f"--输出 的文件名太长（{len(path.name.encode('utf-8'))} 字节，至多 {NAME_BYTES}）：换个短一些的名字")
    try:
        if path.is_dir():
            raise RunProblem(f"--输出「{text}」是文件夹，不是文件")
        if not path.parent.is_dir():
            raise RunProblem(f"--输出「{text}」所在的文件夹不存在")
    except OSError as err:
        raise RunProblem(f"--输出「{text}」用不了：{os_error_text(err)}") from err
    return path


@contextmanager
def _progress(line: str):
    """A line on stderr when the draw takes longer than PROGRESS_AFTER_S (adapter start-up, big pictures)."""
    timer = threading.Timer(PROGRESS_AFTER_S, lambda: sys.stderr.write(line))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


RENDER = Command(
    "渲染", ["render"], "在本机的 WebGPU 适配器上画一对顶点与片元入口，写成 PNG 图",
    "译成 WGSL，在本机的 WebGPU 适配器（wgpu）上用顶点入口项与片元入口项画 --顶点数 个顶点（三角形列表），"
    "目标是 --尺寸 大小、清成全透明黑的 rgba8unorm 纹理，读回后写成 PNG（写完整才换上）。"
    "顶点入口的位置输入各由一个 .npy 文件给出（--顶点 逐顶点，--实例 逐实例）；"
    "缓冲、纹理与采样器的给法与 运行 相同；深度附件按 --深度比较、--深度格式、--深度初值 设置，--深度输出 写出深度。\n"
    "例：着色器 渲染 samples/三角形。着色器。豫 三角形顶点 三角形片元 --尺寸 256,256 --顶点数 3 --输出 三角形.png",
    _render_arguments, _render_command)
