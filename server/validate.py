"""Diagnostics from the WGSL back end: translation errors, and what wgpu's
naga says about the generated WGSL, mapped back to the top-level definition
it came from.

naga should never reject what the checker accepted; when it does, the
editor shows it on the definition (or, for a definition of an imported
module, on the import), so the disagreement is seen where it starts.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

from ..compiler.backends import TargetUnavailable, translate
from ..compiler.backends.names import target_name
from ..compiler.backends.targets import WGSL
from ..compiler.diagnostics import LOCAL_MEMORY, NAGA, Diagnostic
from ..compiler.runtime import wgpu as runtime
from .project import Project

_HEADLINE = re.compile(r"^Shader .*?error: (.*)$", re.M)
_NOTE = re.compile(r"^\s*= (.*)$", re.M)
_WHERE = re.compile(r"┌─ [^\n]*?:(\d+):(\d+)")
_QUOTED = re.compile(r"'([^']+)'")
_DECLARATION = re.compile(r"^\s*(?:@[^\n]*?\s)?(?:fn|struct|alias|const|override|var(?:<[^>]*>)?)\s+([^\s:(<{=;,]+)")


@dataclass
class NagaError:
    message: str
    line: int | None       # 1-based line in the WGSL, when naga gave one
    name: str | None       # the WGSL name naga's headline quotes, if any


def parse_naga(text: str) -> NagaError:
    head = _HEADLINE.search(text)
    notes = list(dict.fromkeys(_NOTE.findall(text)))
    message = "；".join([head.group(1).strip()] + notes if head else [text.strip().splitlines()[-1]])
    where = _WHERE.search(text)
    quoted = _QUOTED.search(head.group(1)) if head else None
    return NagaError(message, int(where.group(1)) if where else None, quoted.group(1) if quoted else None)


def enclosing_declaration(wgsl: str, line: int) -> str | None:
    """The WGSL name of the top-level declaration that holds `line` (1-based)."""
    lines = wgsl.splitlines()
    for i in range(min(line, len(lines)) - 1, -1, -1):
        m = _DECLARATION.match(lines[i])
        if m and not lines[i].startswith((" ", "\t")):
            return m.group(1)
    return None


class Naga:
    """WGSL validation through wgpu, on a device with the features the text
    enables, as the WGSL back end's own runner makes it.  Where no such
    device can be had (no adapter, a missing feature) the text is not
    validated; `available` says whether the last one was."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.available: bool | None = None

    def validate(self, wgsl: str) -> NagaError | None:
        """Blocking: run it in a worker thread.  Line numbers in the answer
        are those of `runtime.for_wgpu(wgsl)`, the text naga sees."""
        with self._lock:
            try:
                device = runtime.open_device(runtime.required_features(wgsl))
            except runtime.WebGPUError:
                self.available = False
                return None
            self.available = True
            try:
                runtime.create_module(device, wgsl)
            except runtime.WebGPUError as err:
                return parse_naga(str(err))
        return None


def translation(project: Project, path: str):
    """The WGSL translation of a file that checked clean; None while the
    WGSL back end is not built."""
    try:
        return translate(project.ws, path, WGSL.name)
    except TargetUnavailable:
        return None


def naga_diagnostics(project: Project, path: str, wgsl: str, error: NagaError) -> list[Diagnostic]:
    """naga's complaint placed on the definition the WGSL came from."""
    seen = runtime.for_wgpu(wgsl)
    wgsl_name = error.name or (enclosing_declaration(seen, error.line) if error.line else None)
    message = f"类型检查通过，但 naga 拒绝了生成的 WGSL：{error.message}"
    checked = project.checked(path)
    where = _definition_of(project, checked, wgsl_name) if wgsl_name and checked else None
    if where is None:
        return [Diagnostic(path, 0, 0, message, code=NAGA)]
    start, end, name = where
    return [Diagnostic(path, start, end, message, name, code=NAGA)]


def local_memory_diagnostics(project: Project, path: str) -> list[Diagnostic]:
    """A warning on each compute entry item whose kernel ptxas builds with
    spilled registers or a stack frame (`着色器 剖析`; issue 27): both live in
    slow local memory.  Nothing where the file has no PTX or ptxas is missing."""
    from ..compiler.backends.ptx.profile import PtxasMissing, profile_entries
    result = translate(project.ws, path, "ptx")
    checked = project.checked(path)
    if result.text is None or not result.entries or checked is None:
        return []
    out = []
    sites = project.definition_sites(checked)
    for arch in ("sm_80", "sm_90"):
        try:
            kernels = profile_entries(result.text, result.entries, arch)
        except (PtxasMissing, RuntimeError):
            return []
        for entry, k in zip(result.entries, kernels):
            if not k.local_memory or any(d.definition == entry.item for d in out) or entry.item not in sites:
                continue
            _, start, end = sites[entry.item].get("者") or next(iter(sites[entry.item].values()))
            out.append(Diagnostic(path, start, end, f"入口「{entry.item}」的内核在 {arch} 上用到局部内存："
                                  f"溢出 {k.spills} 字节，栈 {k.stack} 字节（着色器 剖析 看详细）", entry.item,
                                  severity="警告", code=LOCAL_MEMORY, fields={"入口": entry.item, "架构": arch}))
    return out


def _definition_of(project: Project, checked, wgsl_name: str):
    """(start, end, source name) in this file of the definition named
    `wgsl_name` in the WGSL; for one of an imported module, its import."""
    own = project.definition_sites(checked)
    for name, sites in own.items():
        if wgsl_name in (name, target_name(name, WGSL.reserved), target_name(name)):
            _, start, end = sites.get("者") or next(iter(sites.values()))
            return start, end, name
    for item, target in project.imports(checked):
        reached = [target, *project.checked(target).module.imports]
        if any(wgsl_name in (target_name(n, WGSL.reserved), target_name(n)) for p in reached for n in project.definition_sites(project.checked(p))):
            return item.start + item.node.start, item.start + item.node.end, None
    return None

