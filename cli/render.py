"""The subcommand `着色器 渲染 文件 顶点入口项 片元入口项 [绑定=数据 …] --尺寸 W,H
--顶点数 N --输出 图.png`: draw a vertex + fragment pair on the local WebGPU
adapter and write the picture as a PNG, whole or not at all.  Buffers,
textures and samplers are given exactly as for 运行 (cli/run.py's and
cli/textures.py's handling, shared)."""

from __future__ import annotations

import sys
import threading
from contextlib import contextmanager
from pathlib import Path

from ..compiler import ir
from ..compiler.backends.targets import WGSL
from ..compiler.generate.output import os_error_text
from ..compiler.runtime.png import encode_png
from ..compiler.runtime.render import pair_problem, render
from ..compiler.runtime.wgpu import WebGPUError, buffer_for
from .common import Command, ascii_integer, file_argument, shown_path, translated
from .overrides import OverrideProblem, add_override_option, overrides, pipeline_constants
from .run import RunProblem, given_resources, report_buffers
from .textures import parse_size, texture_bindings, write_outputs, write_whole

STAGE_OF_ROLE = {"顶点入口项": "顶点", "片元入口项": "片元"}
PROGRESS_AFTER_S = 2.0
MAX_VERTICES = 1 << 24


def _render_arguments(p) -> None:
    file_argument(p)
    p.add_argument("顶点入口项", help="顶点入口项的名字（如「三角形顶点」）")
    p.add_argument("片元入口项", help="片元入口项的名字（如「三角形片元」）")
    p.add_argument("缓冲", nargs="*", metavar="绑定=数据",
                   help="两个入口用到的每个缓冲、纹理与采样器一项，给法与 运行 相同：0:0=1,2,3、资源名=文件.npy、"
                        "纹理=图.png、采样器=线性")
    p.add_argument("--尺寸", default="256,256", metavar="W,H", help="图的宽与高（像素），默认 256,256")
    p.add_argument("--顶点数", default="3", metavar="N", help="画的顶点数（三个一组成三角形），默认 3")
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
    size, count, output = parse_size(args.尺寸), _vertex_count(args.顶点数), _output(args.输出)
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
    names = {e.item: e.function for e in result.entries}
    with _progress(f"着色器：正在渲染 {size[0]}×{size[1]}（{count} 个顶点）……\n"):
        picture, out = render(result.text, names[vertex.name], names[fragment.name], size, count, buffers,
                              textures.others if textures else (), constants)
    write_whole(str(output), encode_png(picture.rgba, picture.width, picture.height))
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


def _vertex_count(text: str) -> int:
    try:
        count = ascii_integer(text)
    except ValueError as err:
        raise RunProblem(f"--顶点数「{text}」应是正整数，如 3") from err
    if not 1 <= count <= MAX_VERTICES:
        raise RunProblem(f"--顶点数「{text}」须在 1 至 {MAX_VERTICES} 之间")
    return count


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
    "不用顶点缓冲：顶点入口的输入只能是「顶点序号」「实例序号」，每个顶点的数据放进存储缓冲；"
    "缓冲、纹理与采样器的给法与 运行 相同。\n"
    "例：着色器 渲染 samples/三角形。着色器。豫 三角形顶点 三角形片元 --尺寸 256,256 --顶点数 3 --输出 三角形.png",
    _render_arguments, _render_command)
