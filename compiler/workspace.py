"""The incremental core shared by the command line, the language server and
build-time generation.

Queries are cached per file: the source (by modification time, or the open
document's text), the parse (by text; items below that by their own text),
and the checked module (by its text and the fingerprints of its imports'
interfaces).  Counters record how much work really ran, so tests can prove
that an edit costs only what it changed.
"""

from __future__ import annotations

import operator
import os
import pickle
import re
import stat
import sys
import threading
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from . import cache
from .check.bodies import Reusable, check_keeping, recheck_bodies
from .check.module import CheckCache, CheckedModule, ModuleInput, type_names
from .check.scope import Exports
from .diagnostics import FILE, IMPORT, IMPORT_CYCLE, IMPORT_FAILED, MANIFEST, OPEN_UNIMPORTED, UNKNOWN_NAME, Diagnostic
from .packages import (BUILTIN_MODULE, BUILTIN_PACKAGE, INTERFACE_SUFFIX, PackageIndex,
                       SKIPPED_DIRS, builtin_interface_path, is_interface_file, is_shader_file, module_stem)
from .source import SourceFile, changed_span, decode_source
from .syntax.parser import ItemCache, ParsedFile, parse_file
from .types import Printer
from .valid import ModuleInfo, validate
from .valid.uniformity import UniformityCache

MAX_FILE_BYTES = 64 * 1024 * 1024


@dataclass(eq=False)
class Loaded:
    """A file's text as last read (or the editor's buffer), the stamp that says when to read it again, and why it could not be read."""

    source: SourceFile
    stamp: object
    problem: Diagnostic | None = None


RECURSION_LIMIT = 20000

#: checked builtin interfaces by cache entry name, shared by the workspaces of
#: one process (nothing changes a checked module once it is made)
_SNAPSHOTS: dict[str, CheckedModule] = {}
_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogate(text: str, previous: str | None) -> bool:
    """Whether `text` holds a lone surrogate; only the part an edit changed
    since `previous` (the buffer's last text, already free of them) is
    searched: the whole of a 17,000-line buffer took 1.5 ms a keystroke."""
    start, end = 0, len(text)
    if previous is not None:
        prefix, suffix = changed_span(previous, text)
        start, end = prefix, len(text) - suffix
    return _SURROGATE.search(text, start, end) is not None


class Workspace:
    def __init__(self, root: str | Path = ".") -> None:
        # the checker and back ends recurse a few frames per nesting level, and
        # programs may nest 400 levels (docs/语言.md): more than Python's default
        sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
        self.root = Path(root).resolve()
        self.overrides: dict[str, str] = {}
        self.counters: Counter = Counter()
        self.item_cache = ItemCache()
        self.check_cache = CheckCache()
        self.uniformity_cache = UniformityCache()
        self._packages: PackageIndex | None = None
        self._loaded: dict[str, Loaded] = {}
        self._parsed: dict[str, tuple[str, ParsedFile]] = {}
        self._modules: dict[str, tuple[tuple, CheckedModule]] = {}
        self._reusable: dict[str, tuple[tuple, Reusable]] = {}   # module → (its imports' key, what a body edit reuses)
        self._keys: dict[str, str] = {}
        self._validated: dict[str, tuple[tuple, ModuleInfo]] = {}
        self._translations: dict[tuple, tuple[ModuleInfo, object]] = {}
        self._unsnapshotted: str | None = None
        self._builtin_found: tuple[PackageIndex, str] | None = None   # a builtin interface text with messages: never cached
        self._lock = threading.RLock()

    # ------------------------------------------------------------ files

    @property
    def packages(self) -> PackageIndex:
        if self._packages is None:
            self._packages = PackageIndex(self.root)
        return self._packages

    def refresh_packages(self) -> None:
        """Forget discovered packages and resolved paths (after files were added or moved)."""
        self._packages = None
        self._keys.clear()

    def key(self, path: str | Path) -> str:
        """The canonical path of a file (cached: realpath costs a stat per component)."""
        path = os.fspath(path)
        key = self._keys.get(path)
        if key is None:
            key = self._keys[path] = os.path.realpath(path)
        return key

    def file_changed(self, path: str | Path) -> None:
        """A file changed on disk (the editor's file watcher says so): read it
        again even if its size and timestamp look the same (a rewrite within
        one clock tick keeps both)."""
        self._loaded.pop(self.key(path), None)

    def set_document(self, path: str | Path, text: str) -> None:
        """An open editor buffer: overrides the file on disk.  A lone surrogate
        (JSON can carry one) becomes U+FFFD, as an undecodable byte on disk does."""
        key = self.key(path)
        if _lone_surrogate(text, self.overrides.get(key)):
            text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        self.overrides[key] = text

    def close_document(self, path: str | Path) -> None:
        self.overrides.pop(self.key(path), None)

    def load(self, path: str | Path) -> Loaded:
        key = self.key(path)
        if key in self.overrides:
            text = self.overrides[key]
            cached = self._loaded.get(key)
            if cached is not None and cached.stamp == ("doc", text):
                return cached
            loaded = Loaded(cached.source.edited(text) if cached is not None else SourceFile(key, text), ("doc", text))
        else:
            stamp = cache.file_stamp(key)
            cached = self._loaded.get(key)
            if cached is not None and cached.stamp == stamp and stamp is not None:
                return cached
            loaded = self._read(key, stamp)
        self._loaded[key] = loaded
        return loaded

    def _read(self, key: str, stamp) -> Loaded:
        if stamp is None:
            return Loaded(SourceFile(key, ""), None, Diagnostic(key, 0, 0, "找不到文件", code=FILE))
        if stamp[2] > MAX_FILE_BYTES:
            return Loaded(SourceFile(key, ""), stamp, Diagnostic(key, 0, 0, f"文件太大（超过 {MAX_FILE_BYTES // 1048576} MB）", code=FILE))
        try:
            if not stat.S_ISREG(os.stat(key).st_mode):     # a pipe would block the reader, /dev/zero never ends
                return Loaded(SourceFile(key, ""), stamp,
                              Diagnostic(key, 0, 0, "不是普通文件（是管道、设备或目录），没有读它", code=FILE))
            data = Path(key).read_bytes()
        except OSError as err:
            return Loaded(SourceFile(key, ""), stamp, Diagnostic(key, 0, 0, f"读不了文件：{err.strerror}", code=FILE))
        text, bad = decode_source(data)
        source = SourceFile(key, text)
        problem = None
        if bad is not None:
            problem = Diagnostic(key, bad, bad + 1, "文件不是合法的 UTF-8：此处的字节无法解码（已按替换字符继续分析）",
                                 code=FILE)
        return Loaded(source, stamp, problem)

    def parse(self, path: str | Path) -> ParsedFile:
        key = self.key(path)
        return self._parse(key, self.load(key).source.text)

    def _parse(self, key: str, text: str) -> ParsedFile:
        """The parse of `text`, the file's text as one load read it (an
        editor may set a newer text while a translation thread checks)."""
        cached = self._parsed.get(key)
        if cached is not None and cached[0] == text:
            return cached[1]
        self.counters["file_parses"] += 1
        before = self.item_cache.parses
        old_text, old = cached if cached is not None else (None, None)
        parsed = parse_file(text, self.item_cache, old, old_text)
        self.counters["item_parses"] += self.item_cache.parses - before
        self._parsed[key] = (text, parsed)
        return parsed

    # ------------------------------------------------------------ checking

    def builtins(self) -> CheckedModule:
        """The 「点染」之「点染本」 interface module."""
        return self.check(self._builtin_key())

    def check(self, path: str | Path) -> CheckedModule:
        with self._lock:
            return self._check(self.key(path), [])

    def _check(self, key: str, in_progress: list[str], snapshot: bool = True) -> CheckedModule:
        loaded = self.load(key)
        builtin_key = self._builtin_key()
        if snapshot and key == builtin_key and key not in self.overrides and loaded.problem is None:
            snapshot = self._builtin_snapshot(key, loaded.source.text)
            if snapshot is not None:
                return snapshot
        parsed = self._parse(key, loaded.source.text)     # the text this check keys on, not a newer one
        stack = in_progress + [key]
        builtins = None if key == builtin_key else self._check(builtin_key, stack).exports
        deps, diags, opened, qualified, paths = self._imports(key, parsed, stack)
        # what the imports resolved to, their messages included (a new package or
        # module changes them without changing this file)
        dep_key = (loaded.source.text, tuple(d.fingerprint for d in deps), tuple(paths),
                   tuple((d.start, d.end, d.message) for d in diags), builtins.fingerprint if builtins else "")
        cached = self._modules.get(key)
        if cached is not None and cached[0] == dep_key:
            return cached[1]
        self.counters["module_checks"] += 1
        before = self.check_cache.item_checks
        if loaded.problem is not None:
            diags.insert(0, loaded.problem)
        pkg = self.packages.package_of(key)
        inp = ModuleInput(key, self.packages.module_name(key), pkg.name, is_interface_file(key), parsed,
                          opened, qualified, builtins, diags, paths, loaded.source)
        printer = Printer(type_names(builtins)) if builtins else Printer()
        checked = self._check_module(key, dep_key[1:], inp, printer)
        if loaded.problem is not None:  # the bad bytes are reported once, not again as unknown text
            checked.diagnostics = [d for d in checked.diagnostics
                                   if d is loaded.problem or "\ufffd" not in d.message]
        self.counters["item_checks"] += self.check_cache.item_checks - before
        self._modules[key] = (dep_key, checked)
        return checked

    def _check_module(self, key: str, imports_key: tuple, inp: ModuleInput, printer: Printer) -> CheckedModule:
        """The module checker's run, or, after a body edit of a clean module
        with the same imports, the previous check with the edited bodies
        swapped in (check/bodies.py)."""
        previous = self._reusable.pop(key, None)
        found = recheck_bodies(previous[1], inp) if previous is not None and previous[0] == imports_key else None
        if found is not None:
            self.counters["body_rechecks"] += 1
        checked, reusable = found or check_keeping(inp, self.check_cache, printer)
        if reusable is not None:
            self._reusable[key] = (imports_key, reusable)
        return checked

    def _builtin_snapshot(self, key: str, text: str) -> CheckedModule | None:
        """The checked builtin interface: from this workspace or process, else
        from the user cache (keyed by its path, text, the package version and
        the checker's code), else checked once and stored there.  Checking it
        is most of a fresh workspace's work."""
        cached = self._modules.get(key)
        if cached is not None and cached[0] == ("snapshot", text):
            return cached[1]
        if self._unsnapshotted == text:
            return None
        name = cache.key("builtin", key.encode(), text.encode(), cache.code_stamp())
        checked = _SNAPSHOTS.get(name)
        if checked is not None:
            self._modules[key] = (("snapshot", text), checked)
            return checked

        def unpickled(data: bytes) -> CheckedModule | None:   # None: from another build, check it again
            found = pickle.loads(data)
            return found if isinstance(found, CheckedModule) and found.path == key else None

        checked = cache.load(name, unpickled, lambda: self._check_builtin_now(key),
                             lambda checked: pickle.dumps(checked, protocol=pickle.HIGHEST_PROTOCOL))
        if checked is None:
            self._unsnapshotted = text
            return None
        _SNAPSHOTS[name] = checked
        self._modules[key] = (("snapshot", text), checked)
        return checked

    def _check_builtin_now(self, key: str) -> CheckedModule | None:
        """Check the interface the ordinary way; None (no snapshot) when it has messages."""
        checked = self._check(key, [], snapshot=False)
        return checked if not checked.diagnostics and not checked.module.imports else None

    def _builtin_key(self) -> str:
        """The workspace's own 「点染」 package wins over the shipped one
        (found once per package discovery: every check asks)."""
        packages = self.packages
        if self._builtin_found is None or self._builtin_found[0] is not packages:
            path = packages.by_name[BUILTIN_PACKAGE].root / (BUILTIN_MODULE + INTERFACE_SUFFIX)
            self._builtin_found = (packages, self.key(path if path.is_file() else builtin_interface_path()))
        return self._builtin_found[1]

    def _imports(self, key: str, parsed: ParsedFile, stack: list[str]):
        deps: list[Exports] = []
        diags: list[Diagnostic] = []
        opened: list[Exports] = []
        qualified: dict[str, Exports] = {}
        paths: list[str] = []
        pkg = self.packages.package_of(key)
        for item in parsed.imports:
            node = item.node
            names = [n.name for n in node.path]
            span = (item.start + node.start, item.start + node.end)
            if node.kind == "观":
                found = qualified.get(names[-1])
                if found is None:
                    diags.append(Diagnostic(key, *span, f"「观」只能打开已导入的模块：先写 寻 {'之'.join(f'「{n}」' for n in names)}之书。",
                                            code=OPEN_UNIMPORTED, fields={"模块": names[-1]}))
                else:
                    opened.append(found)
                continue
            file, error = self.packages.find_module(pkg, names)
            if error:
                part = node.path[self.packages.failing_part(pkg, names)] if node.path else node
                diags.append(Diagnostic(key, item.start + part.start, item.start + part.end, error,
                                        code=IMPORT_FAILED, fields={"模块": names[-1]}))
                file = self.packages.module_file(names)       # an undeclared dependency still resolves
                if file is None:
                    failed = Exports(key, names[-1], failed=True)    # reported here only
                    qualified.setdefault(names[-1], failed)
                    if node.kind == "寻观":
                        opened.append(failed)       # its names are unknown, not missing
                    continue
            dep_key = self.key(file)
            if dep_key in stack:
                cycle = stack[stack.index(dep_key):] + [dep_key]
                shown = " → ".join(Path(p).name for p in cycle)
                diags.append(Diagnostic(key, *span, f"导入成环：{shown}", code=IMPORT_CYCLE, fields={"环": shown}))
                continue
            dep = self._check(dep_key, stack)
            deps.append(dep.exports)
            for p in dep.module.imports + [dep_key]:
                if p not in paths:
                    paths.append(p)
            qualified[names[-1]] = dep.exports
            if node.kind == "寻观":
                opened.append(dep.exports)
        return deps, diags, opened, qualified, paths

    def diagnostics(self, path: str | Path) -> list[Diagnostic]:
        """Diagnostics of a module and of every module it imports; once none
        of them is an error, the validation pass's too."""
        checked = self.check(path)
        out: list[Diagnostic] = [Diagnostic(self.key(p.path), 0, 0, p.message, severity=p.severity, code=MANIFEST)
                                  for p in self.packages.problems]
        for dep in checked.module.imports:
            if dep in self._modules:
                out.extend(self._modules[dep][1].diagnostics)
        out.extend(checked.diagnostics)
        if not any(d.severity == "错误" for d in out):
            out.extend(self.validate(path).diagnostics)
        return [self._import_hint(d) for d in out]

    def _import_hint(self, d: Diagnostic) -> Diagnostic:
        """An unknown name that another module of the file's packages defines:
        say which module, as the import to write (the quick fix inserts it)."""
        if d.code != UNKNOWN_NAME or "应为" in d.fields:
            return d
        name = d.fields["名字"]
        with self._lock:
            path = self._defining_module(d.path, name)
        if path is None:
            return d
        return replace(d, message=f"未知的名字「{name}」：它定义在模块{path}里，先写 寻观{path}之书。",
                       code=IMPORT, fields={"名字": name, "模块路径": path})

    def _defining_module(self, key: str, name: str) -> str | None:
        """The import path (「包」之…之「模块」) of the first module, in the file's
        own package or a package it depends on, that defines `name`."""
        own = self.packages.package_of(key)
        if own.implicit:
            return None
        packages = [own] + [self.packages.by_name[n] for n in own.deps
                            if n in self.packages.by_name and n != BUILTIN_PACKAGE]
        for pkg in packages:
            for file in sorted(pkg.root.rglob("*。着色器。*豫")):
                folders = file.parent.relative_to(pkg.root).parts
                if not is_shader_file(file) or any(f.startswith(".") or f in SKIPPED_DIRS for f in folders) \
                        or self.key(file) == key or self.packages.package_of(file) is not pkg:
                    continue
                if any(item.name == name and item.kind in ("者", "乃") for item in self.parse(file).items):
                    parts = [pkg.name, *folders, module_stem(file)]
                    return "之".join(f"「{p}」" for p in parts)
        return None

    def validate(self, path: str | Path) -> ModuleInfo:
        """The validation pass (compiler/valid/) over a checked module, cached
        until it or any module it imports is checked again: its rules follow
        calls into imported bodies, which an importer's own check does not
        depend on."""
        with self._lock:
            key = self.key(path)
            checked = self.check(key)
            imports = [self.check(p) for p in checked.module.imports]
            stamp = (checked, *imports)
            cached = self._validated.get(key)
            if cached is not None and len(cached[0]) == len(stamp) and all(map(operator.is_, cached[0], stamp)):
                return cached[1]
            self.counters["validations"] += 1
            builtins = self.builtins().exports
            sources = {c.path: self.load(c.path).source.text for c in [*imports, checked]}
            info = validate(checked.module, [c.module for c in imports], Printer(type_names(builtins)), sources,
                            self.uniformity_cache, cached[1] if cached is not None else None)
            self._validated[key] = (stamp, info)
            return info

    def translation(self, path: str | Path, target: str, build, options=None):
        """`build(info)`, a back end's translation of the validated module
        (under the back end's `options`, part of the key), kept until the module or one it imports is checked again: the
        validation result is the fingerprint, so an unchanged file on save
        (the preview, the build service) costs only the lookups."""
        with self._lock:
            info = self.validate(path)
            key = (self.key(path), target, options)
            cached = self._translations.get(key)
            if cached is not None and cached[0] is info:
                return cached[1]
            self.counters["translations"] += 1
            result = build(info)
            self._translations[key] = (info, result)
            return result

    def source(self, path: str | Path) -> SourceFile:
        return self.load(path).source
