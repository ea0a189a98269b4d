"""The subcommand `着色器 运行 文件 入口项 [绑定=数据 …]`: dispatch a compute
entry once on the local WebGPU adapter (or through CUDA with --后端 千手),
buffers from .npy files or the command line; textures, samplers and storage
textures are cli/textures.py's."""

from __future__ import annotations

import io
import math
import sys
from pathlib import Path

from ..compiler import ir
from ..compiler.backends import translate
from ..compiler.backends.targets import PTX, WGSL
from ..compiler.layout import SCALAR_DTYPES, array_length, element_stride, leaf_dtype, size_align, trailing_array
from ..compiler.generate.output import os_error_text, replace_atomically
from ..compiler.runtime.wgpu import WebGPUError, buffer_for, run_compute
from ..compiler.types import TCon, TRecord, TTuple, deep_resolve, resolve
from .common import Command, ascii_integer, file_argument, print_diagnostics, translated
from .overrides import OverrideProblem, add_override_option, overrides, pipeline_constants
from .reference import add_reference_options, run_reference

#: the language's names of the scalar types a buffer may hold (for messages)
DTYPE_NAMES = {"float32": "浮三二", "float16": "浮十六", "int32": "整三二", "uint32": "无三二"}

MAX_GROUPS = 65535
#: the most bytes one buffer's data may take (a WebGPU storage binding is far smaller on most devices)
MAX_DATA_BYTES = 1 << 30


class RunProblem(Exception):
    """A mistake on the command line of 运行 (exit status 2)."""


def _run_arguments(p) -> None:
    file_argument(p)
    p.add_argument("入口项", help="计算入口项的名字（如「加倍入口」）")
    p.add_argument("缓冲", nargs="*", metavar="绑定=数据",
                   help="每个用到的缓冲一项：绑定写「组:号」或资源名，数据写 .npy 文件（读写缓冲运行后写回该文件）"
                        "或逗号分隔的数（「值*个数」表示重复），如 0:0=1,2,3,4 或 数据=输入.npy 或 0:1=0*256；"
                        "定长的缓冲（均匀缓冲、定长数组）须正好给足它按 WGSL 内存布局的字节（补齐的位置也算，"
                        "如「定长数组」于「三维浮」于「二」是 32 字节、8 个数）；标量类型不同的结构只能用 .npy 给出。"
                        "纹理给 .png（二维）或 .npy 纹素（一维（宽, 通道），二维（高, 宽, 通道），二维数组（张, 高, 宽, 通道），"
                        "三维（深, 高, 宽, 通道），立方（6 × 个数, 边, 边, 通道）），深度纹理给 .npy 深度（同上，没有通道），"
                        "采样器给 最近（默认）或 线性，比较采样器给比较函数（小于（默认）、不大于、大于……，可再写 ,线性），"
                        "存储纹理给写回的 .png 或 .npy 文件，只读的给初值 .npy，读写的给 结果.npy 或 初值.npy,结果.npy")
    p.add_argument("--组数", "-g", default=None, metavar="X[,Y[,Z]]",
                   help="派发的工作组数；默认：入口有存储纹理（或输入纹理）时每个纹素一个调用，"
                        "即（⌈宽／工作组宽⌉，⌈高／工作组高⌉，1）；否则按最长的运行期数组缓冲：一维工作组时"
                        "元素个数除以工作组大小向上取整，二维、三维工作组时按 .npy 的（高, 宽）铺满，"
                        "一维数据则（⌈元素个数／工作组宽⌉，1，1）")
    p.add_argument("--尺寸", default=None, metavar="宽,高[,深]",
                   help="存储纹理的宽高（三维的再给深度，数组的再给张数）；默认与入口的第一张输入纹理同样大")
    p.add_argument("--后端", default="网页图算", choices=["网页图算", PTX.command, "参照"],
                   help="网页图算：译成 WGSL 在本机 WebGPU 适配器上运行（默认）；"
                        "千手：译成 PTX 经 CUDA 驱动在英伟达显卡上运行；"
                        "参照：在 CPU 上用参照解释器确定地运行，报告数据竞争、越界等错误（不要显卡）")
    add_override_option(p)
    add_reference_options(p)


def _run_command(args) -> int:
    done, status = translated(args.文件, WGSL.name)
    if done is None:
        return status
    ws, result = done
    try:
        return _run(ws, result, args)
    except (RunProblem, OverrideProblem) as err:
        sys.stderr.write(f"着色器：{err}\n")
        return 2
    except WebGPUError as err:
        sys.stderr.write(f"着色器：{err}\n")
        return 1


def _run(ws, result, args) -> int:
    try:
        import numpy as np
    except ImportError as err:
        raise WebGPUError("运行 要用 NumPy 读写缓冲：pip install numpy") from err
    entry, function = _compute_entry(ws, result, args)
    values = overrides(ws, args.文件, args.常量)
    who = f"入口项「{entry.name}」"
    resources, arrays, textures = given_resources(np, ws, args.文件, who, [entry.function], args.缓冲,
                                                  lambda handles, given: _textures(np, handles, given, args, entry))
    buffers = [buffer_for(r, arrays[r.name][0].tobytes()) for r in resources]
    extent = textures.extent if textures else None
    groups = _groups(args.组数, buffers, resources, arrays, entry.workgroup_shape, extent)
    if args.组数 is None and not _global_index(ws, args.文件, entry):
        _tell_default_groups(groups, entry, extent)
    if args.后端 == PTX.command:
        if values:
            raise RunProblem("千手后端还不能改写可覆盖常量（PTX 里它们是 .const 变量，取默认值）："
                             "用默认值运行，或改用 --后端 网页图算 或 参照")
        out = _run_on_cuda(ws, args.文件, entry, resources, arrays, groups)
    elif args.后端 == "参照":
        out = run_reference(ws, args, entry, buffers, groups, values)
    else:
        out = run_compute(result.text, function, buffers, groups, textures.others if textures else (),
                          loops=_runs_a_loop(ws, args.文件, entry),
                          constants=pipeline_constants(ws, args.文件, values))
    report_buffers(np, resources, arrays, out)
    if textures:
        from .textures import write_outputs
        write_outputs(np, textures)
    return 0


def given_resources(np, ws, path: str, who: str, functions: list[str], specs: list[str], textures_for):
    """The resources `functions` use, with their data from the command line
    (`绑定=数据` items): the buffers, each one's (array, spec) by name, and
    what `textures_for(handles, given)` makes of the textures and samplers
    (taking their items out of `given`).  Shared by 运行 and 渲染, so both
    take resources alike."""
    resources, handles = _buffers_of(ws, path, functions)
    given = _parse_bindings(specs)
    arrays = {}
    for r in resources:
        binding = f"{r.group}:{r.binding}"
        spec = take_spec(given, r, _describe(r), "；每个缓冲只给一次（按「组:号」或按资源名）")
        if spec is None:
            raise RunProblem(f"{who}用到{_describe(r)}，没有给出它的数据：写 {binding}=文件.npy "
                             f"或 {binding}=1,2,3")
        array = _load(np, spec, r)
        _check_size(array, spec, r)
        arrays[r.name] = (array, spec)
    textures = textures_for(handles, given)
    if given:
        raise RunProblem(f"{who}没有用到 {'、'.join(given)}；它用到的缓冲："
                         + ("、".join(_describe(r) for r in resources) or "（没有）"))
    return resources, arrays, textures


def report_buffers(np, resources: list[ir.Resource], arrays: dict, out: dict) -> None:
    """Print every buffer the device wrote back, and write it over its .npy file."""
    for r in resources:
        if (r.group, r.binding) in out:
            array, spec = arrays[r.name]
            back = np.frombuffer(out[(r.group, r.binding)][:array.nbytes], dtype=array.dtype).reshape(array.shape)
            if spec.endswith(".npy"):
                save_npy(np, spec, back)
            print(f"「{r.name}」（组 {r.group} 号 {r.binding}）：{np.array2string(back, separator=' ')}")


def _textures(np, handles: list[ir.Resource], given: dict, args, entry: ir.Entry):
    """The entry's textures and samplers (cli/textures.py), only on the WebGPU back end; None without any."""
    if not handles:
        if args.尺寸 is not None:
            raise RunProblem(f"入口项「{entry.name}」没有存储纹理：--尺寸 只给存储纹理的宽高")
        return None
    if args.后端 != "网页图算":
        raise RunProblem(f"入口项「{entry.name}」用到纹理或采样器「{handles[0].name}」：只有 --后端 网页图算 能给它们")
    from .textures import texture_bindings
    return texture_bindings(np, handles, given, args.尺寸, f"入口项「{entry.name}」")


def _run_on_cuda(ws, path: str, entry: ir.Entry, resources, arrays, groups) -> dict:
    """The same dispatch through the PTX back end and the CUDA driver."""
    from ..compiler.runtime.cuda import CudaError, CudaUnavailable, run_compute as run_ptx
    ptx = translate(ws, path, PTX.name)
    if ptx.text is None:
        print_diagnostics(ws, ptx.diagnostics)
        raise WebGPUError(f"入口项「{entry.name}」译不成 PTX")
    info = next(e for e in ptx.entries if e.item == entry.name)
    data = {(r.group, r.binding): arrays[r.name][0].tobytes() for r in resources}
    try:
        return run_ptx(ptx.text, info, data, groups)
    except (CudaUnavailable, CudaError) as err:
        raise WebGPUError(str(err)) from err


def _compute_entry(ws, result, args) -> tuple[ir.Entry, str]:
    """The compute entry named on the command line, and its function's WGSL name."""
    checked = ws.check(args.文件)
    entry = next((d for d in checked.module.decls if isinstance(d, ir.Entry) and d.name == args.入口项), None)
    names = "、".join(f"「{e.item}」" for e in result.entries if e.stage == "计算") or "（没有）"
    if entry is not None and entry.stage != "计算":
        raise RunProblem(f"「{args.入口项}」是{entry.stage}入口项：运行 只运行计算入口项（派发一次计算着色器）；"
                         f"这个文件的计算入口项有 {names}")
    if entry is None:
        raise RunProblem(f"「{args.入口项}」不是这个文件的计算入口项；计算入口项有 {names}")
    return entry, next(e.function for e in result.entries if e.item == entry.name)


def _buffers_of(ws, path: str, functions: list[str]) -> tuple[list[ir.Resource], list[ir.Resource]]:
    """The buffers the functions use, and their textures and samplers, in (group, binding) order."""
    info = ws.validate(path)
    used = list({id(r): r for f in functions for _, r in info.entry_resources(f)}.values())
    used.sort(key=lambda r: (r.group or 0, r.binding or 0))
    handles = [r for r in used if r.kind not in ("storage", "uniform", "workgroup")]
    return [r for r in used if r.kind in ("storage", "uniform")], handles


def _describe(r) -> str:
    kind = {"uniform": "均匀缓冲"}.get(r.kind, "只读存储缓冲" if r.access == "只读" else "读写存储缓冲")
    return f"组 {r.group} 号 {r.binding}「{r.name}」（{kind}）"


def _parse_bindings(specs: list[str]) -> dict[str, str]:
    out = {}
    for spec in specs:
        key, sep, value = spec.partition("=")
        if not sep or not key or not value:
            raise RunProblem(f"「{spec}」应写成 绑定=数据，如 0:0=输入.npy 或 0:0=1,2,3")
        if key in out:
            raise RunProblem(f"缓冲「{key}」给了两次：{key}={out[key]} 与 {spec}；每个缓冲只给一次")
        out[key] = value
    return out


def _dtype_name(dtype: str) -> str:
    return f"{dtype}（「{DTYPE_NAMES[dtype]}」）" if dtype in DTYPE_NAMES else dtype


def _load(np, spec: str, r):
    """The data of one buffer: a .npy file, or numbers from the command line."""
    dtype = leaf_dtype(r.inner)
    if spec.endswith(".npy"):
        array = _read_npy(np, spec)
        if dtype is not None and array.dtype != np.dtype(dtype):
            raise RunProblem(f"「{spec}」的元素类型是 {array.dtype}，{_describe(r)}要 {dtype}")
        return np.ascontiguousarray(array)
    if dtype is None:
        raise RunProblem(f"{_describe(r)}的元素不是同一种标量，只能从 .npy 文件读入（按 WGSL 的内存布局排好字节）")
    values, total = [], 0
    limit = MAX_DATA_BYTES // np.dtype(dtype).itemsize
    for item in spec.split(","):
        value, star, count = item.partition("*")
        if not item.isascii():          # int() and float() take １ and ٣; the language does not
            raise RunProblem(f"「{item}」不是{dtype}的数（或 值*个数）：数只用 ASCII 数字写，如 1,2,3 或 0*256")
        try:
            number = float(value) if "float" in dtype else int(value, 0)
            repeat = int(count) if star else 1
        except ValueError as err:
            raise RunProblem(f"「{item}」不是{dtype}的数（或 值*个数）") from err
        if repeat < 0:
            raise RunProblem(f"「{item}」的个数是负数：值*个数 的个数须是 0 或正整数")
        total += repeat
        if total > limit:
            raise RunProblem(f"「{spec if len(spec) <= 40 else item}」给了 {total} 个数，超过一个缓冲至多 "
                             f"{MAX_DATA_BYTES >> 30} GiB（{limit} 个 {_dtype_name(dtype)}）")
        _check_range(np, number, value, dtype)
        values.append((number, repeat))
    return np.concatenate([np.full(repeat, number, dtype=dtype) for number, repeat in values]) if values \
        else np.array([], dtype=dtype)


def _check_range(np, number, text: str, dtype: str) -> None:
    """A number the buffer's scalar type cannot hold is a mistake, not a wrap-around or an inf."""
    if isinstance(number, int):
        info = np.iinfo(dtype)
        if not info.min <= number <= info.max:
            raise RunProblem(f"「{text}」超出 {_dtype_name(dtype)}的范围（{info.min} 至 {info.max}）")
        return
    with np.errstate(over="ignore"):
        fits = not math.isfinite(number) or bool(np.isfinite(np.array(number, dtype=dtype)))
    if not fits:
        largest = float(np.finfo(dtype).max)
        raise RunProblem(f"「{text}」超出 {_dtype_name(dtype)}的范围（绝对值至多约 {largest:.7g}）")


def _read_npy(np, spec: str):
    """The array in a .npy file, or a usage error saying why there is none.  The
    file is mapped, not read, first: a header that claims more elements than
    the file holds is refused before anything that size is allocated."""
    try:
        if Path(spec).is_dir():
            raise RunProblem(f"「{spec}」是文件夹，不是 .npy 文件")
        if Path(spec).exists() and not Path(spec).is_file():
            raise RunProblem(f"「{spec}」不是普通文件（是管道或设备）：请给 numpy.save 存的 .npy 文件")
        mapped = np.load(spec, allow_pickle=False, mmap_mode="r")
        array = np.array(mapped) if isinstance(mapped, np.ndarray) else mapped
    except FileNotFoundError as err:
        raise RunProblem(f"找不到文件「{spec}」") from err
    except OSError as err:
        raise RunProblem(f"读不了「{spec}」：{os_error_text(err)}") from err
    except (ValueError, EOFError) as err:
        raise RunProblem(f"「{spec}」不是 NumPy 的 .npy 文件（或已损坏，或存的是 Python 对象）："
                         "请用 numpy.save 存一个数值数组") from err
    if not isinstance(array, np.ndarray):      # a .npz archive under a .npy name
        if hasattr(array, "close"):
            array.close()
        raise RunProblem(f"「{spec}」是 .npz 归档，不是 .npy 文件：请用 numpy.save 存一个数组")
    if array.dtype.hasobject or array.dtype.fields is not None:
        raise RunProblem(f"「{spec}」存的不是数值数组（元素类型 {array.dtype}）")
    return array


def _given(spec: str) -> str:
    return "「" + spec + "」有" if spec.endswith(".npy") else "给了"


def _check_size(array, spec: str, r) -> None:
    """A buffer of fixed size (a uniform, a 定长数组, a struct without a runtime-sized array)
    takes exactly its bytes: never padded with zeros nor cut short without a word."""
    stride = element_stride(r.inner)
    if stride is not None:
        _check_elements(array, spec, r, stride)
    place = trailing_array(r.inner)
    if place is not None and place[0] > 0:
        _check_header(array, spec, r, *place)
    fixed = size_align(r.inner)
    if fixed is None or array.nbytes == fixed[0]:
        return
    size, given = fixed[0], _given(spec)
    itemsize = array.dtype.itemsize
    if leaf_dtype(r.inner) is not None and size % itemsize == 0:
        wanted, padding = size // itemsize, size // itemsize - _scalar_count(r.inner)
        layout = f"（按 WGSL 的内存布局，含 {padding} 个补齐的位置）" if padding > 0 else ""
        raise RunProblem(f"{_describe(r)}定长 {size} 字节，要正好 {wanted} 个 {array.dtype} 的数{layout}，"
                         f"{given} {array.size} 个")
    raise RunProblem(f"{_describe(r)}定长 {size} 字节（按 WGSL 的内存布局），{given} {array.nbytes} 字节")


def _check_elements(array, spec: str, r, stride: int) -> None:
    """A runtime-sized array takes a whole number of elements, at least one:
    neither a tail silently dropped nor a binding WebGPU refuses in English."""
    if array.nbytes >= stride and array.nbytes % stride == 0:
        return
    itemsize, element = array.dtype.itemsize, deep_resolve(r.inner).args[0]
    if leaf_dtype(r.inner) is not None and stride % itemsize == 0:
        per, padding = stride // itemsize, stride // itemsize - _scalar_count(element)
        layout = f"，按 WGSL 的内存布局含 {padding} 个补齐的位置" if padding > 0 else ""
        unit, amount, count = f"{stride} 字节，{per} 个 {array.dtype} 的数{layout}", f"{array.size} 个", f"{per} 个数"
    else:
        unit, amount, count = f"{stride} 字节（按 WGSL 的内存布局）", f"{array.nbytes} 字节", f"{stride} 字节"
    need = f"至少要一个元素（{count}）" if array.nbytes < stride else f"要整数个元素（{count}的倍数）"
    raise RunProblem(f"{_describe(r)}是运行期数组，每个元素 {unit}；{need}，{_given(spec)} {amount}")


def _check_header(array, spec: str, r, offset: int, stride: int) -> None:
    """A record whose header fields come before a runtime-sized array takes
    the header's bytes and a whole number of elements, at least one, as a
    plain runtime-sized array does."""
    rest = array.nbytes - offset
    if rest >= stride and rest % stride == 0:
        return
    raise RunProblem(f"{_describe(r)}是 {offset} 字节的头部字段后跟运行期数组，每个元素 {stride} 字节"
                     f"（按 WGSL 的内存布局）；要 {offset} 字节加上整数个元素（至少一个），{_given(spec)} {array.nbytes} 字节")


def _scalar_count(t) -> int:
    """How many scalars a fixed-size type holds (its size less the padding WGSL's layout adds)."""
    t = deep_resolve(t)
    if isinstance(t, TCon) and (t.name, t.args[0] if t.args else None) in SCALAR_DTYPES:
        return 1
    if isinstance(t, TCon) and t.name == "定长数组":
        return t.args[1] * _scalar_count(t.args[0])
    if isinstance(t, TCon):
        return sum(_scalar_count(a) for a in t.args if not isinstance(a, int))
    if isinstance(t, TTuple):
        return sum(_scalar_count(i) for i in t.items)
    if isinstance(t, TRecord):
        return sum(_scalar_count(ft) for _, ft in t.fields)
    return 0


def _groups(text: str | None, buffers, resources, arrays, shape: tuple[int, int, int],
            extent: tuple[int, int] | None) -> tuple[int, int, int]:
    """--组数, or a count that covers the data: one invocation per texel of a
    texture, else per element of the longest runtime-sized array."""
    if text is not None:
        parts = text.replace("，", ",").split(",")
        try:
            counts = [ascii_integer(p) for p in parts]
        except ValueError as err:
            raise RunProblem(f"--组数「{text}」应是 1 至 3 个正整数，如 4 或 4,2,1") from err
        if not 1 <= len(counts) <= 3 or not all(1 <= c <= MAX_GROUPS for c in counts):
            raise RunProblem(f"--组数「{text}」应是 1 至 3 个 1 至 {MAX_GROUPS} 的整数")
        return tuple(counts + [1] * (3 - len(counts)))
    if extent is None and shape[1:] != (1, 1):
        extent = _rows_and_columns(buffers, resources, arrays)
    if extent is not None:
        return (_cover(extent[0], shape[0]), _cover(extent[1], shape[1]), 1)
    elements = 0
    for b, r in zip(buffers, resources):
        if trailing_array(r.inner) is not None:
            elements = max(elements, array_length(len(b.data), r.inner))
    return (_cover(elements, shape[0] * shape[1] * shape[2]), 1, 1)


def _runs_a_loop(ws, path: str, entry: ir.Entry) -> bool:
    """Whether a function the entry runs defines a loop (a local tail-recursive function)."""
    info = ws.validate(path)
    bodies = [info.decls[key].body for key in info.reached.get(entry.name, [])]
    return any(isinstance(n, ir.LetFun) and n.fun.recursive
               for body in bodies if body is not None for n in ir.walk(body))


def _global_index(ws, path: str, entry: ir.Entry) -> bool:
    """Whether the entry takes 「全局调用号」 (itself or as a field): one invocation
    per element, as the default group count assumes."""
    info = ws.validate(path)
    function = info.decls.get(info.function_key(entry.function))
    for p in getattr(function, "params", []):
        t = resolve(p.type)
        aliases = [p.type.alias] + ([ft.alias for _, ft in t.fields] if isinstance(t, TRecord) else [])
        if "全局调用号" in aliases:
            return True
    return False


def _tell_default_groups(groups: tuple[int, int, int], entry: ir.Entry, extent) -> None:
    """Without --组数 the count covers the data one invocation per element (per
    texel): a kernel that does not index by 「全局调用号」 (one that gives each
    workgroup a row) then runs workgroups with no data, so say so on stderr."""
    per = "每个纹素" if extent is not None else "最长的运行期数组每个元素"
    shown = ",".join(map(str, groups))
    sys.stderr.write(f"着色器：没有给 --组数，按{per}一个调用派发 {shown} 个工作组（每组 {entry.workgroup_size or 1} 个调用）；"
                     "内核不是这样分工时（如每个工作组处理一行）请用 --组数 指定\n")


def _cover(count: int, per_group: int) -> int:
    return min(MAX_GROUPS, max(1, math.ceil(count / per_group)))


def _rows_and_columns(buffers, resources, arrays) -> tuple[int, int]:
    """(width, height) of the longest runtime-sized array: its .npy's (rows,
    columns[, element]) when it has that shape, else (elements, 1)."""
    longest, extent = 0, (1, 1)
    for b, r in zip(buffers, resources):
        stride = element_stride(resolve(r.inner))
        if not stride or len(b.data) // stride <= longest:
            continue
        longest = len(b.data) // stride
        array = arrays[r.name][0]
        per_element = stride // array.dtype.itemsize
        if array.ndim >= 2 and math.prod(array.shape[2:]) == per_element:
            extent = (array.shape[1], array.shape[0])
        else:
            extent = (longest, 1)
    return extent


def save_npy(np, path: str, array, failed: str = "写不回") -> None:
    """Write the .npy in full or not at all (a buffer written back, a storage texture)."""
    data = io.BytesIO()
    np.save(data, array)
    try:
        replace_atomically(Path(path), data.getvalue())
    except OSError as err:
        raise RunProblem(f"{failed}「{path}」：{os_error_text(err)}") from err


def take_spec(given: dict[str, str], r: ir.Resource, what: str, advice: str = "") -> str | None:
    """The `绑定=数据` item of resource `r` (by 「组:号」 or by name), taken out of `given`."""
    binding = f"{r.group}:{r.binding}"
    if binding in given and r.name in given:
        raise RunProblem(f"{what}给了两次：{binding}={given[binding]} 与 {r.name}={given[r.name]}{advice}")
    return given.pop(binding, None) or given.pop(r.name, None)


RUN = Command(
    "运行", ["run"], "在本机的 WebGPU 适配器上派发一个计算入口，打印读写缓冲的结果",
    "译成 WGSL，在本机的 WebGPU 适配器（wgpu）上派发计算入口项一次，打印每个读写缓冲的内容。"
    "缓冲按「组:号」或资源名给出：.npy 文件（读写缓冲运行后写回该文件）或命令行上的数。"
    "--后端 参照 时在 CPU 上用参照解释器确定地运行（不要显卡），报告数据竞争、越界等错误。\n"
    "例：着色器 运行 samples/加倍。着色器。豫 加倍入口 0:0=1,2,3,4,5,6,7,8",
    _run_arguments, _run_command)
