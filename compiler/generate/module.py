"""The generated module 名。着色生成。豫 (seed 着二): 豫言 source exporting the
shader's WGSL, MSL and PTX text and its entry table.

Generation runs in memory on the incremental core; nothing is cached on disk.
A target that cannot translate the module exports a one-line target comment
saying why, and the rest stays usable.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from .. import backends, ir
from ..backends.ptx.mangle import ENTRY_PREFIX, OVERRIDE_PREFIX, mangle
from ..backends.targets import PTX, TARGETS, Target
from ..diagnostics import EXPORT_NAME, NO_TARGET, Diagnostic
from ..packages import GENERATED_SUFFIX
from .escape import comment, failure_note_start, one_line, string_literal


PTX_NAME_SUFFIX = "并线汇编名"
#: an overridable constant's exports: its number (WGSL @id, MSL function_constant) and its PTX .const symbol
OVERRIDE_ID_SUFFIX = "可覆盖号"
OVERRIDE_PTX_SUFFIX = "可覆盖并线汇编名"


@dataclass
class Outcome:
    """One target's translation: its text, or why there is none."""

    target: Target
    text: str | None
    entries: list[backends.EntryInfo] = field(default_factory=list)
    reason: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass
class Generated:
    """The generated module of one shader source, or the errors that stop it.

    `inputs` are the files whose text the output depends on (the builtin
    declarations, every shader module the source imports, the source), and
    `fingerprint` hashes their texts with their `labels` (包/模块); both are
    what a build system tracks, since the virtual module has no dependencies."""

    source: str
    text: str | None
    diagnostics: list[Diagnostic]
    warnings: list[str]
    inputs: list[str]
    labels: list[str]
    fingerprint: str


# ---------------------------------------------------------------- inputs


def display_path(ws, path: str) -> str:
    """A file as generated text names it: relative to its package's root, so
    the text is the same in every checkout and every worker's directory."""
    root = ws.packages.package_of(path).root
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except ValueError:
        return Path(path).name


def input_files(ws, path: str) -> list[str]:
    """The builtin declarations, the imported shader modules (dependencies
    first) and the source itself: every file whose text shapes the output."""
    builtin = ws._builtin_key()
    imports = [p for p in ws.check(path).module.imports if p != builtin]
    return [builtin, *imports, ws.key(path)]


def input_labels(ws, inputs: list[str]) -> list[str]:
    """包/模块 of each input: what the fingerprint names a file by (not its
    absolute path, so identical trees anywhere give identical output)."""
    return [f"{ws.packages.package_of(p).name}/{ws.packages.module_name(p)}" for p in inputs]


def fingerprint(ws, inputs: list[str], labels: list[str]) -> str:
    """sha256 over each input's label and text."""
    h = hashlib.sha256()
    for label, p in zip(labels, inputs):
        for part in (label, ws.source(p).text):
            data = part.encode("utf-8", "surrogatepass")
            h.update(len(data).to_bytes(8, "little"))
            h.update(data)
    return h.hexdigest()


# ---------------------------------------------------------------- translation


def _format(ws, d: Diagnostic) -> str:
    return d.format(ws.source(d.path), display_path(ws, d.path))


def translate(ws, path: str, target: Target) -> Outcome:
    """One target's text; a back end that is missing, rejects the module or
    fails inside becomes a reason instead of stopping the other targets."""
    try:
        t = backends.translate(ws, path, target.name)
    except backends.TargetUnavailable as err:
        return Outcome(target, None, reason=str(err))
    except Exception as err:  # noqa: BLE001 — a back-end bug must not take the other targets down
        return Outcome(target, None, reason=f"翻译器内部错误（{type(err).__name__}：{err}）")
    if t.text is not None:
        return Outcome(target, t.text, list(t.entries))
    errors = [d for d in t.diagnostics if d.severity == "错误"] or t.diagnostics
    reason = "；".join(_format(ws, d) for d in errors) or "翻译器没有给出原因"
    return Outcome(target, None, reason=reason, diagnostics=errors)


def failure_note(outcome: Outcome) -> str:
    """The one-line target comment that replaces text a target could not give
    (`//` starts a line comment in WGSL, MSL and PTX alike)."""
    return one_line(failure_note_start(outcome.target.title) + outcome.reason)


# ---------------------------------------------------------------- the module text


class ModuleWriter:
    """Writes the 豫言 source of one generated module."""

    def __init__(self, ws, path: str, digest: str) -> None:
        self.ws = ws
        self.path = path
        self.digest = digest
        self.lines: list[str] = []

    def header(self) -> None:
        pkg = self.ws.packages.package_of(self.path)
        owner = f"包「{pkg.name}」" if pkg.name else "不在包内"
        module = self.ws.packages.module_name(self.path)
        self.lines += [
            comment(f"由着色源「{display_path(self.ws, self.path)}」（{owner}，模块「{module}」）"
                    f"生成的 {module}{GENERATED_SUFFIX}，勿手改。"),
            comment(f"源码指纹 sha256:{self.digest}（着色源、它导入的着色模块与着色内建声明）。"
                    "字符串里的〘U+XXXX〙代表该码位的字符，见 docs/生成.md。"),
            "",
        ]

    def definition(self, name: str, value: str) -> None:
        self.lines.append(f"「{name}」者{string_literal(value)}也。")

    def sources(self, outcomes: list[Outcome]) -> None:
        for o in outcomes:
            self.definition(o.target.export, o.text if o.text is not None else failure_note(o))
            self.lines.append("")

    def entries(self, table: list[tuple[str, str, str]]) -> None:
        for item, function, ptx_name in table:
            self.definition(item, function)
            self.definition(item + PTX_NAME_SUFFIX, ptx_name)

    def overrides(self, table: list[tuple[str, int]]) -> None:
        for name, number in table:
            self.definition(name + OVERRIDE_ID_SUFFIX, str(number))
            self.definition(name + OVERRIDE_PTX_SUFFIX, mangle(name, OVERRIDE_PREFIX))

    def text(self) -> str:
        return "\n".join(self.lines).rstrip("\n") + "\n"


def entry_table(outcomes: list[Outcome]) -> list[tuple[str, str, str]]:
    """(entry item, function, PTX name) per entry, from the first target that
    translated; PTX names from the PTX text when there is one, otherwise by
    the seed's rule (着十) from the function name, so the export exists either way."""
    first = next(o for o in outcomes if o.text is not None)
    ptx = next(o for o in outcomes if o.target is PTX)
    ptx_names = {e.item: e.function for e in ptx.entries} if ptx.text is not None else {}
    return [(e.item, e.function, ptx_names.get(e.item) or mangle(e.function, ENTRY_PREFIX)) for e in first.entries]


def _declaration(ws, path: str, item: str) -> tuple[str, int, ir.Decl | None]:
    """The file, item start and declaration of entry or constant `item`, in `path` or a module it imports."""
    checked = ws.check(path)
    for p in [ws.key(path), *reversed(checked.module.imports)]:
        module = ws.check(p).module
        for d in module.decls:
            if isinstance(d, (ir.Entry, ir.Const)) and d.name == item:
                return p, module.starts[d.name], d
    return ws.key(path), 0, None


def override_table(ws, path: str) -> list[tuple[str, int]]:
    """(name, number) of every overridable constant the source and its imports declare."""
    return [(key[1], n) for key, n in ir.override_ids(ws.validate(path).modules).items()]


def name_clashes(ws, path: str, table: list[tuple[str, str, str]], overrides: list[tuple[str, int]]) -> list[Diagnostic]:
    """An entry item or overridable constant whose export (name, name + 并线汇编名,
    name + 可覆盖号 …) is taken by another export."""
    owners: dict[str, str] = {t.export: f"生成模块的「{t.export}」" for t in TARGETS}
    out = []
    named = [(item, "入口项", (item, item + PTX_NAME_SUFFIX)) for item, _, _ in table]
    named += [(name, "可覆盖常量", (name + OVERRIDE_ID_SUFFIX, name + OVERRIDE_PTX_SUFFIX)) for name, _ in overrides]
    for item, what, exports in named:
        for name in exports:
            if name in owners:
                file, start, decl = _declaration(ws, path, item)
                end = start + decl.name_end if decl else 0
                out.append(Diagnostic(file, start, end, f"{what}名「{item}」使生成模块的导出「{name}」"
                                      f"与{owners[name]}重名：请给{what}改名", item,
                                      code=EXPORT_NAME, fields={"名字": name}))
            owners.setdefault(name, f"{what}「{item}」的导出")
    return out


def generate(ws, path: str) -> Generated:
    """The generated module of the shader source `path`."""
    key = ws.key(path)
    inputs = input_files(ws, key)
    labels = input_labels(ws, inputs)
    digest = fingerprint(ws, inputs, labels)

    def failure(diagnostics: list[Diagnostic]) -> Generated:
        return Generated(key, None, diagnostics, [], inputs, labels, digest)

    errors = [d for d in ws.diagnostics(key) if d.severity == "错误"]
    if errors:
        return failure(errors)
    outcomes = [translate(ws, key, t) for t in TARGETS]
    failed = [o for o in outcomes if o.text is None]
    if len(failed) == len(outcomes):
        return failure(_nothing_translated(key, failed))
    table, overrides = entry_table(outcomes), override_table(ws, key)
    clashes = name_clashes(ws, key, table, overrides)
    if clashes:
        return failure(clashes)
    writer = ModuleWriter(ws, key, digest)
    writer.header()
    writer.sources(outcomes)
    writer.entries(table)
    writer.overrides(overrides)
    warnings = [f"{display_path(ws, key)}: 未能译成 {o.target.title}，「{o.target.export}」只是一行说明：{one_line(o.reason)}"
                for o in failed]
    return Generated(key, writer.text(), [], warnings, inputs, labels, digest)


def _nothing_translated(path: str, failed: list[Outcome]) -> list[Diagnostic]:
    found: dict[tuple, Diagnostic] = {}
    for o in failed:
        for d in o.diagnostics:
            found.setdefault((d.path, d.start, d.message), d)
    if found:
        return list(found.values())
    reasons = "；".join(f"{o.target.title}：{o.reason}" for o in failed)
    return [Diagnostic(path, 0, 0, f"没有一个目标译得出这个模块（{reasons}）", code=NO_TARGET)]
