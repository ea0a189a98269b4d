"""`--常量 名=值` of 运行 and 渲染: values for a program's pipeline-overridable
constants (「名」者「可覆盖」于 默认值 也), checked against their types here so
that a mistake is a message on the command line, not a pipeline error."""

from __future__ import annotations

import math

from ..compiler import ir
from ..compiler.types import TCon, resolve
from .common import ascii_integer

#: scalar (name, width) → (how a message names it, how to read a value)
_READERS = {
    ("定长无符号", 32): ("无三二", lambda text: _in_range(ascii_integer(text), 0, 2 ** 32 - 1)),
    ("定长整数", 32): ("整三二", lambda text: _in_range(ascii_integer(text), -2 ** 31, 2 ** 31 - 1)),
    ("定长小数", 32): ("浮三二", lambda text: _finite(float(text))),
    ("定长小数", 16): ("浮十六", lambda text: _finite(float(text))),
}
_TRUTH = {"阳": True, "真": True, "true": True, "1": True, "阴": False, "假": False, "false": False, "0": False}


class OverrideProblem(Exception):
    """A `--常量` item the program cannot take (exit status 2)."""


def add_override_option(p) -> None:
    p.add_argument("--常量", "--override", dest="常量", action="append", default=[], metavar="名=值",
                   help="给可覆盖常量（「名」者「可覆盖」于 默认值 也）一个值，建管线时代替默认值；可写多次。"
                        "值按常量的类型读：整数写十进制 ASCII 数字，浮点数如 0.5，爻写 阳 或 阴")


def overrides(ws, path, specs: list[str]) -> dict[str, object]:
    """The values `specs` give, by constant name (the interpreter's key)."""
    declared = {key[1]: ws.validate(path).decls[key] for key in _numbers(ws, path)}
    values: dict[str, object] = {}
    for spec in specs:
        name, sep, text = spec.partition("=")
        name = name.strip().strip("「」")
        if not sep or not name:
            raise OverrideProblem(f"--常量 要写成 名=值，这里是「{spec}」")
        if name not in declared:
            known = "、".join(f"「{n}」" for n in declared) or "（这个程序没有）"
            raise OverrideProblem(f"「{name}」不是可覆盖常量；可覆盖常量有 {known}")
        if name in values:
            raise OverrideProblem(f"可覆盖常量「{name}」给了两次")
        sized = _sized_entries(ws, path, name)
        if sized:
            raise OverrideProblem(f"可覆盖常量「{name}」定了入口项「{sized[0]}」的工作组大小：各目标与派发都按它的默认值，"
                                  "运行时不能改它（要别的大小就改默认值）")
        values[name] = _value(declared[name].type, name, text.strip())
    return values


def pipeline_constants(ws, path, values: dict[str, object]) -> dict[str, object]:
    """The same values keyed as WebGPU takes them: each constant's @id, as a string."""
    ids = {key[1]: n for key, n in _numbers(ws, path).items()}
    return {str(ids[name]): float(value) if not isinstance(value, bool) else value for name, value in values.items()}


def _sized_entries(ws, path, name: str) -> list[str]:
    """The file's compute entries whose workgroup size the constant `name` gives."""
    return [e.name for e in ws.validate(path).entries
            if any(isinstance(i, ir.GlobalRef) and i.name == name for i in ir.workgroup_items(e))]


def _numbers(ws, path) -> dict[tuple[str, str], int]:
    """Each overridable constant of the program (module, name) → its number."""
    return ir.override_ids(ws.validate(path).modules)


def _value(t, name: str, text: str):
    r = resolve(t)
    if isinstance(r, TCon) and r.name == "爻":
        if text not in _TRUTH:
            raise OverrideProblem(f"可覆盖常量「{name}」是「爻」，值写 阳 或 阴，这里是「{text}」")
        return _TRUTH[text]
    shown, read = _READERS[(r.name, r.args[0])]
    try:
        return read(text)
    except ValueError as err:
        raise OverrideProblem(f"可覆盖常量「{name}」是「{shown}」，「{text}」不是它的值{_why(err)}") from err


def _why(err: ValueError) -> str:
    return f"：{err.args[0]}" if err.args and str(err.args[0]).startswith("超出") else ""


def _in_range(value: int, low: int, high: int) -> int:
    if not low <= value <= high:
        raise ValueError(f"超出范围 {low} 至 {high}")
    return value


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError("超出范围：须是有限的数")
    return value
