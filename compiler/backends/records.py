"""Records a builtin returns, which WGSL and MSL write as structs.

「原子比较交换」 returns 【「原值」，「已换」】 (WGSL's
__atomic_compare_exchange_result, which a program cannot name).  A record is
written as the program's struct of its shape; when the program declares none,
the writer declares the struct named here, once, and converts the builtin's
own result into it at the call.
"""

from __future__ import annotations

from ..builtin.families import COMPARE_EXCHANGE_FIELDS, compare_exchange_result
from ..types import I32, U32, TRecord, deep_resolve, resolve

__all__ = ["COMPARE_EXCHANGE_FIELDS", "BUILTIN_RECORDS", "builtin_record"]

#: record shape → the struct a writer declares for it when the program has none
BUILTIN_RECORDS = {
    compare_exchange_result(U32): "原子比较交换结果_u32",
    compare_exchange_result(I32): "原子比较交换结果_i32",
}


#: the field names of those records: only a record with them is resolved deeply (nested records stay linear)
_FIELD_NAMES = {tuple(n for n, _ in record.fields) for record in BUILTIN_RECORDS}


def builtin_record(t) -> str | None:
    """The struct name a writer declares for record type `t`, if a builtin returns it."""
    t = resolve(t)
    if not isinstance(t, TRecord) or tuple(n for n, _ in t.fields) not in _FIELD_NAMES:
        return None
    return BUILTIN_RECORDS.get(deep_resolve(t))
