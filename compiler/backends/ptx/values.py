"""What the PTX writer's parts share: a value in registers, and two rules on operands and values."""

from __future__ import annotations

from dataclasses import dataclass

from ... import ir
from ...builtin.textures import TEXTURES
from ...lower.types import concrete
from ...types import TCon, Type
from .scalars import Unsupported


@dataclass
class Value:
    """A value in registers: one operand (register or immediate) per scalar
    leaf of its type; a resource reference carries its declaration instead."""

    type: Type
    parts: list[str]
    resource: ir.Resource | None = None


def immediate_integer(operand: str) -> int | None:
    """The integer an immediate operand writes (decimal, or 0x… hexadecimal), else None."""
    try:
        return int(operand, 16) if operand.lower().lstrip("-").startswith("0x") else int(operand)
    except ValueError:
        return None


def refuse_reference_value(t: Type, what: str) -> None:
    """Cells and resources are references: copying their registers would lose
    the sharing, so they may not flow through branches or loop registers."""
    t = concrete(t)
    if isinstance(t, TCon) and t.name == "格":
        raise Unsupported(f"千手目标不支持以「格」作{what}：格在寄存器里，经分支或循环传递会失去共享")
    if isinstance(t, TCon) and (t.name in ("存储缓冲", "均匀缓冲", "工作组变量", "采样器", "比较采样器")
                                or t.name in TEXTURES):
        raise Unsupported(f"千手目标不支持以资源作{what}：资源须直接写出")
