"""Records a builtin returns, which WGSL and MSL write as structs.

「原子比较交换」 returns 【「原值」，「已换」】 (WGSL's
__atomic_compare_exchange_result, which a program cannot name), 「整小分离」
【「小部」，「整部」】 (__modf_result) and 「尾阶分离」 【「尾数」，「阶码」】
(__frexp_result).  A record is
written as the program's struct of its shape; when the program declares none,
the writer declares the struct named here, once, and converts the builtin's
own result into it at the call.
"""

from __future__ import annotations

from ..builtin.families import COMPARE_EXCHANGE_FIELDS, FREXP_FIELDS, MODF_FIELDS, compare_exchange_result, \
    frexp_result, modf_result
from ..types import F16, F32, I32, U32, TRecord, TTuple, deep_resolve, resolve

__all__ = ["COMPARE_EXCHANGE_FIELDS", "MODF_FIELDS", "FREXP_FIELDS", "BUILTIN_RECORDS", "builtin_record"]

#: the float scalars and vectors 「整小分离」 and 「尾阶分离」 take, with a suffix for their struct's name
_FLOAT_SHAPES = [(t, w) for t, w in ((F32, "f32"), (F16, "f16"))] + [
    (TTuple((t,) * n), f"vec{n}_{w}") for t, w in ((F32, "f32"), (F16, "f16")) for n in (2, 3, 4)]

#: record shape → the struct a writer declares for it when the program has none
BUILTIN_RECORDS = {
    compare_exchange_result(U32): "原子比较交换结果_u32",
    compare_exchange_result(I32): "原子比较交换结果_i32",
    **{modf_result(t): f"整小分离结果_{suffix}" for t, suffix in _FLOAT_SHAPES},
    **{frexp_result(t): f"尾阶分离结果_{suffix}" for t, suffix in _FLOAT_SHAPES},
}


#: the field names of those records: only a record with them is resolved deeply (nested records stay linear)
_FIELD_NAMES = {tuple(n for n, _ in record.fields) for record in BUILTIN_RECORDS}


def builtin_record(t) -> str | None:
    """The struct name a writer declares for record type `t`, if a builtin returns it."""
    t = resolve(t)
    if not isinstance(t, TRecord) or tuple(n for n, _ in t.fields) not in _FIELD_NAMES:
        return None
    return BUILTIN_RECORDS.get(deep_resolve(t))
