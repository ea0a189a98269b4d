"""Generates the builtin reference (docs/内建.md) from the interface file, so
the documentation can never drift from what the checker uses.

    python -m zhuose.compiler.reference > docs/内建.md
"""

from __future__ import annotations

import sys

from .check.scope import TypeEntry, ValueEntry
from .types import Printer
from .valid import registry
from .workspace import Workspace

HEADER = """# 内建名字参考（「点染」之「点染本」）

本文件由 `python -m zhuose.compiler.reference > docs/内建.md` 从
`compiler/builtin/点染/点染本。着色器。接口。豫` 生成，请勿手改。
类型变量写成「甲：类」时，类约束它可取的类型（见 docs/语言.md「类约束」）。
值的说明末尾〔…〕是内建登记表（`compiler/valid/registry.py`）给出的种类与用处：能否写在常量里、
只能用在哪些入口、是否须在一致控制流里；「着色器 检查」按它报错。
「组值」不在下表：它不是声明的名字，而是记录值的写法 `「组值」【「字段」者 表达式 也，…】`，
与类型里的 `「组类」【「字段」乃 类型 也，…】` 相对。字段与期望的「组类」（如「绑定项」「计算选项」或用 即
命名的结构）按名字对上，次序可以不同，缺字段、多字段都报错（见 docs/语言.md「类型」）。

| 名字 | 种类 | 类型或定义 | 说明 |
| --- | --- | --- | --- |
"""

KINDS = {"alias": "类型", "constructor": "类型构造", "family": "类型族", "builtin": "值"}


def _scheme(entry: ValueEntry, show) -> str:
    binders = "".join(f"凡「{v.name}{'：' + v.bound if v.bound else ''}」而" for v in entry.type_params)
    return binders + show(entry.type)


def _type_text(entry: TypeEntry, show) -> str:
    if entry.kind == "constructor":
        params = "、".join("类型" if p == "type" else "整数" for p in entry.params)
        return f"由（{params}）构造" if params else "元类型"
    if entry.kind == "family":
        return "由实参类型算出"
    if entry.type is None:
        return ""
    return show(entry.type.named(None))


def _facts(name: str) -> str:
    """The registry's word on a builtin: its kind and where it may be used."""
    b = registry.get(name)
    if b is None:
        return ""
    facts = [b.what, "可写在常量里" if b.constant else "不能写在常量里"]
    if b.stages != registry.ALL_STAGES:
        facts.append(f"只能用在{registry.stage_words(b.stages)}入口")
    if b.uniform:
        facts.append("须在一致控制流里")
    return f" 〔{'；'.join(facts)}〕"


def render(ws: Workspace | None = None) -> str:
    ws = ws or Workspace(".")
    checked = ws.builtins()
    show = Printer()
    rows = []
    for item, _ in checked.items:
        name = item.name
        if name is None:
            continue
        t = checked.exports.types.get(name)
        v = checked.exports.values.get(name)
        doc = item.doc.replace("\n", " ").replace("|", "\\|")
        if t is not None and t.start == item.start:
            rows.append(f"| 「{name}」 | {KINDS[t.kind]} | {_type_text(t, show)} | {doc} |")
        elif v is not None and v.start == item.start:
            rows.append(f"| 「{name}」 | 值 | {_scheme(v, show)} | {doc}{_facts(name)} |")
    return HEADER + "\n".join(rows) + "\n"


def main() -> int:
    sys.stdout.write(render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
