"""Builtin inputs and outputs (seed 着三, 着九): one table for the checker and
every back end.  Keyed by the alias name written in the source."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BuiltinIO:
    """An entry input or output builtin: its WGSL and MSL attribute and the stages that allow it."""

    wgsl: str
    msl: str
    inputs: frozenset[str]    # stages where it may be an input: 计算 顶点 片元
    outputs: frozenset[str]   # stages where it may be an output


def _io(wgsl: str, msl: str, inputs: str = "", outputs: str = "") -> BuiltinIO:
    return BuiltinIO(wgsl, msl, frozenset(inputs.split()), frozenset(outputs.split()))


BUILTIN_IO: dict[str, BuiltinIO] = {
    "全局调用号": _io("global_invocation_id", "thread_position_in_grid", "计算"),
    "局部调用号": _io("local_invocation_id", "thread_position_in_threadgroup", "计算"),
    "局部调用序": _io("local_invocation_index", "thread_index_in_threadgroup", "计算"),
    "工作组号": _io("workgroup_id", "threadgroup_position_in_grid", "计算"),
    "工作组数": _io("num_workgroups", "threadgroups_per_grid", "计算"),
    "顶点序号": _io("vertex_index", "vertex_id", "顶点"),
    "实例序号": _io("instance_index", "instance_id", "顶点"),
    "裁剪位置": _io("position", "position", "片元", "顶点"),  # a vertex output struct reused as fragment input
    "片元坐标": _io("position", "position", "片元"),
    "正面朝向": _io("front_facing", "front_facing", "片元"),
    "片元深度": _io("frag_depth", "depth(any)", "", "片元"),
    "采样序号": _io("sample_index", "sample_id", "片元"),
    "采样掩码": _io("sample_mask", "sample_mask", "片元", "片元"),
    "子组调用序": _io("subgroup_invocation_id", "thread_index_in_simdgroup", "计算 片元"),
    "子组大小": _io("subgroup_size", "threads_per_simdgroup", "计算 片元"),
    "子组数": _io("num_subgroups", "simdgroups_per_threadgroup", "计算"),
    "子组号": _io("subgroup_id", "simdgroup_index_in_threadgroup", "计算"),
}


# ---------------------------------------------------------------- located fields (议题 25)

#: 「定位」于 N 于 T: the field's @location(N)
LOCATION = "定位"


@dataclass(frozen=True)
class Interpolation:
    """An interpolation written around a field's type: WGSL's @interpolate arguments and MSL's attribute."""

    wgsl: str
    msl: str

    @property
    def flat(self) -> bool:
        return self.wgsl == "flat"


#: keyed by the type constructor's name in the interface file (「平直」于 T …); center sampling unless named
INTERPOLATIONS: dict[str, Interpolation] = {
    "平直": Interpolation("flat", "flat"),
    "透视": Interpolation("perspective", "center_perspective"),
    "透视质心": Interpolation("perspective, centroid", "centroid_perspective"),
    "透视逐采样": Interpolation("perspective, sample", "sample_perspective"),
    "线性": Interpolation("linear", "center_no_perspective"),
    "线性质心": Interpolation("linear, centroid", "centroid_no_perspective"),
    "线性逐采样": Interpolation("linear, sample", "sample_no_perspective"),
}

#: the type constructors that are field attributes rather than types
FIELD_WRAPPERS = frozenset({LOCATION, *INTERPOLATIONS})


def located_fields(record) -> list[tuple[str, object, int]]:
    """(field, type, location) of a record's location fields (every field but
    the builtin values): a field written in 「定位」 has its number, any other
    the number after the previous location field's (the first 0), so a
    struct without 「定位」 numbers its fields in order as before."""
    out, location = [], 0
    for name, t in record.fields:
        if t.alias in BUILTIN_IO:
            continue
        written = record.field_io(name).location
        location = written if written is not None else location
        out.append((name, t, location))
        location += 1
    return out


def next_location(records) -> int:
    """The first location after every location field of these records: where
    an entry's plain (non-struct) location parameters start."""
    return max((loc + 1 for r in records for _, _, loc in located_fields(r)), default=0)
