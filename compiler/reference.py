"""Generates the builtin reference (docs/内建.md) from the interface file, so
the documentation can never drift from what the checker uses.

    python -m zhuose.compiler.reference > docs/内建.md
"""

from __future__ import annotations

import sys

from .builtin.io import BUILTIN_IO
from .check.scope import TypeEntry, ValueEntry
from .types import Printer
from .valid import registry
from .valid.stages import RESOURCE_WORDS, STAGE_RESOURCES
from .workspace import Workspace

HEADER = """# 内建名字参考（「点染」之「点染本」）

本文件由 `python -m zhuose.compiler.reference > docs/内建.md` 从内建包「点染」的声明文件与内建登记表生成，请勿手改。
类型变量写成「甲：类」时，类约束它可取的类型（见 docs/语言.md「类约束」）。
值的说明末尾〔…〕是内建登记表给出的种类与用处：能否写在常量里、
只能用在哪些入口、是否须在一致控制流里；「着色器 检查」按它报错。
文末两张表按入口阶段列出：哪些内建输入、输出可以用在哪种入口（〈入口的内建输入与输出〉），
哪些内建只能用在某些入口（〈只能用在某些入口的内建〉）。
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


def _io_table() -> str:
    """Which builtin input or output each stage allows (compiler/builtin/io.py)."""
    lines = ["", "## 入口的内建输入与输出", "",
             "入口函数的参数（或参数结构的字段）写成这些类型时是内建输入，返回值（或返回结构的字段）写成它们时是内建输出；",
             "只能用在下表所列的入口，用在别的入口 `检查` 报错。", "",
             "| 类型 | 作输入的入口 | 作输出的入口 | WGSL | MSL |", "| --- | --- | --- | --- | --- |"]
    for name, io in BUILTIN_IO.items():
        lines.append(f"| 「{name}」 | {registry.stage_words(io.inputs) or '—'} | {registry.stage_words(io.outputs) or '—'}"
                     f" | `@builtin({io.wgsl})` | `[[{io.msl}]]` |")
    return "\n".join(lines) + "\n"


def _stage_table() -> str:
    """The builtins a stage restricts, by the stages that allow them (the registry)."""
    by_stages: dict[frozenset[str], list[str]] = {}
    for name in registry.TABLE:
        allowed = registry.stages(name)
        if allowed != registry.ALL_STAGES:
            by_stages.setdefault(allowed, []).append(name)
    lines = ["", "## 只能用在某些入口的内建", "",
             "经入口调用到的函数（含导入模块里的）用了下表的内建，而入口不是所列的阶段时，`检查` 在用到的地方报错，"
             "说出经哪个入口用到；表外的内建三种入口都能用。", "",
             "| 只能用在 | 内建 |", "| --- | --- |"]
    order = sorted(by_stages, key=lambda st: [s in st for s in registry.STAGE_ORDER], reverse=True)
    for allowed in order:
        lines.append(f"| {registry.stage_words(allowed)}入口 | {'、'.join(f'「{n}」' for n in by_stages[allowed])} |")
    lines.append("")
    lines += [f"资源{RESOURCE_WORDS[kind]}只能用在{registry.stage_words(allowed)}入口。"
              for kind, allowed in STAGE_RESOURCES.items()]
    return "\n".join(lines) + "\n"


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
    return HEADER + "\n".join(rows) + "\n" + _io_table() + _stage_table()


def main() -> int:
    sys.stdout.write(render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
