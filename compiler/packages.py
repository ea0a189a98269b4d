"""Packages and module lookup (seed 着二, LANGUAGE.md §1).

A package is a folder with a 包.json manifest.  Packages are discovered under
the workspace root; the builtin package 「点染」 ships inside this
distribution and is used unless the workspace has its own.
"""

from __future__ import annotations

import functools
import json
import os
import stat
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

SHADER_SUFFIX = "。着色器。豫"
INTERFACE_SUFFIX = "。着色器。接口。豫"
GENERATED_SUFFIX = "。着色生成。豫"
MANIFEST = "包.json"
BUILTIN_PACKAGE = "点染"
BUILTIN_MODULE = "点染本"
SKIPPED_DIRS = {"node_modules", "__pycache__", "build", "dist"}


def is_shader_file(path: str | Path) -> bool:
    name = Path(path).name
    return name.endswith(SHADER_SUFFIX) or name.endswith(INTERFACE_SUFFIX)


def is_interface_file(path: str | Path) -> bool:
    return Path(path).name.endswith(INTERFACE_SUFFIX)


def module_stem(path: str | Path) -> str:
    name = Path(path).name
    for suffix in (INTERFACE_SUFFIX, SHADER_SUFFIX):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


@dataclass
class Package:
    """A package: its name, root folder and the packages it depends on (包.json)."""

    name: str
    root: Path
    deps: list[str] = field(default_factory=list)
    builtin: bool = False
    implicit: bool = False


@dataclass
class ManifestProblem:
    """A problem with a 包.json, shown on the manifest."""

    path: Path
    message: str
    severity: str = "错误"     # or "警告": a duplicate name, a workspace 「点染」


def builtin_root() -> Path:
    return Path(str(resources.files("zhuose.compiler.builtin").joinpath(BUILTIN_PACKAGE)))


@functools.lru_cache(maxsize=1)
def _real_builtin_root() -> Path:
    """The shipped 「点染」's real folder, found once per process (every fresh
    workspace asks, and a realpath costs a stat per path component)."""
    return builtin_root().resolve()


def builtin_interface_path() -> Path:
    return builtin_root() / (BUILTIN_MODULE + INTERFACE_SUFFIX)


class PackageIndex:
    """The packages of one workspace, by name and by folder."""

    def __init__(self, root: str | Path) -> None:
        self._discover(Path(root).resolve())
        outer = _outermost_package_folder(self.root)
        if outer is not None and outer.parent != outer and self._missing_dependency():
            # run from inside a package: its sibling packages live in the folder above it
            self._discover(outer.parent)
        self._builtin()

    def _discover(self, root: Path) -> None:
        self.root = root
        self.by_name: dict[str, Package] = {}
        self.by_root: dict[Path, Package] = {}
        self.problems: list[ManifestProblem] = []
        self.duplicates: dict[str, list[Path]] = {}
        self._by_folder: dict[Path, Package] = {}
        self._tried: set[Path] = set()    # manifests read once (outside the root, or broken)
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
            if MANIFEST in files:
                self._tried.add(Path(folder) / MANIFEST)
                self._add(Path(folder) / MANIFEST, real=True)

    def _missing_dependency(self) -> bool:
        return any(d not in self.by_name and d != BUILTIN_PACKAGE for p in self.by_root.values() for d in p.deps)

    def _builtin(self) -> None:
        """The shipped 「点染」, unless the workspace has its own (then a warning says so).
        Several of its own (a folder holding two checkouts of the toolchain) replace nothing."""
        copies = self.duplicates.pop(BUILTIN_PACKAGE, None)
        if copies is not None:
            del self.by_name[BUILTIN_PACKAGE]
            self.problems.append(ManifestProblem(copies[-1] / MANIFEST, f"工作区里有 {len(copies)} 个名为「{BUILTIN_PACKAGE}」"
                                                 f"的包（{'、'.join(map(str, copies))}），都不代替随工具发布的内建包："
                                                 f"导入「{BUILTIN_PACKAGE}」用的是内建包", "警告"))
        own = self.by_name.get(BUILTIN_PACKAGE)
        if own is not None:
            self.problems.append(ManifestProblem(own.root / MANIFEST, f"工作区里的包「{BUILTIN_PACKAGE}」（{own.root}）"
                                                 f"代替了随工具发布的内建包「{BUILTIN_PACKAGE}」", "警告"))
        else:
            root = builtin_root()
            pkg = Package(BUILTIN_PACKAGE, root, [], builtin=True)
            self.by_name[BUILTIN_PACKAGE] = pkg
            self.by_root[_real_builtin_root()] = pkg

    def _add(self, manifest: Path, real: bool = False) -> Package | None:
        """Read a 包.json; `real` when its folder is known to be a real path
        (found by the walk from the resolved root, which follows no links)."""
        problem = _unreadable(manifest)
        if problem is not None:
            self.problems.append(ManifestProblem(manifest, problem))
            return None
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except RecursionError:
            self.problems.append(ManifestProblem(manifest, "包清单嵌套过深：它只需要「名」与「依赖」两项"))
            return None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            self.problems.append(ManifestProblem(manifest, f"包清单不是合法的 JSON：{err}"))
            return None
        except ValueError:      # Python reads no integer of more than 4,300 digits
            self.problems.append(ManifestProblem(manifest, "包清单里有位数过多的数（超过 4300 位）：包.json 只需要「名」与「依赖」两项"))
            return None
        name = data.get("名") if isinstance(data, dict) else None
        deps = data.get("依赖", []) if isinstance(data, dict) else []
        if not isinstance(name, str) or not name:
            self.problems.append(ManifestProblem(manifest, "包清单缺少「名」（字符串）"))
            return None
        if not isinstance(deps, list) or not all(isinstance(d, str) for d in deps):
            self.problems.append(ManifestProblem(manifest, "包清单的「依赖」须是字符串的列表"))
            deps = []
        pkg = Package(name, manifest.parent if real else manifest.parent.resolve(), list(deps))
        if name in self.by_name:
            # its files still belong to it (their imports resolve as declared);
            # only importing it by name is ambiguous: an error there, a warning here
            self.duplicates.setdefault(name, [self.by_name[name].root]).append(pkg.root)
            if name != BUILTIN_PACKAGE:     # copies of 「点染」 get one warning of their own (`_builtin`)
                self.problems.append(ManifestProblem(
                    manifest, f"包名「{name}」重复：{self.by_name[name].root} 与 {pkg.root} 都叫这个名字（导入它的文件会报错）",
                    "警告"))
        else:
            self.by_name[name] = pkg
        self.by_root[pkg.root] = pkg
        return pkg

    def package_of(self, path: str | Path) -> Package:
        """The package of the nearest enclosing folder with 包.json; a file in
        none belongs to an implicit package depending on 「点染」."""
        p = Path(path).resolve().parent
        known = self._by_folder.get(p)
        if known is not None:
            return known
        self._by_folder[p] = pkg = self._find_package(p)
        return pkg

    def _find_package(self, p: Path) -> Package:
        for folder in [p, *p.parents]:
            pkg = self.by_root.get(folder)
            if pkg is not None:
                return pkg
            if (folder / MANIFEST).is_file() and folder / MANIFEST not in self._tried:
                self._tried.add(folder / MANIFEST)
                pkg = self._add(folder / MANIFEST)
                if pkg is not None:
                    return pkg
        return Package("", p, [BUILTIN_PACKAGE], implicit=True)

    def add_manifest(self, manifest: str | Path) -> None:
        """Index a package the walk from the root did not find: a build tool's declared
        input in a folder reached through a link (Bazel's execroot links each top-level
        folder).  A manifest read before, or a folder already a package, stays as it was."""
        path = Path(manifest).resolve()
        if path in self._tried or path.parent in self.by_root:
            return
        self._tried.add(path)
        for root in [r for r in self.by_root if (r / MANIFEST).is_symlink() and (r / MANIFEST).resolve() == path]:
            self._forget(root)          # the walk met this manifest through a link: its package is where it lies
        if self._add(path) is not None:
            self._by_folder.clear()     # a folder may now belong to the new package

    def _forget(self, root: Path) -> None:
        pkg = self.by_root.pop(root)
        if self.by_name.get(pkg.name) is pkg:
            del self.by_name[pkg.name]

    def module_name(self, path: str | Path) -> str:
        """The module path inside its package: 甲/乙 for <root>/甲/乙。着色器。豫."""
        pkg = self.package_of(path)
        try:
            rel = Path(path).resolve().parent.relative_to(pkg.root)
        except ValueError:
            rel = Path()
        parts = [*rel.parts, module_stem(path)]
        return "/".join(parts)

    def find_module(self, importer: Package, path: list[str]) -> tuple[Path | None, str | None]:
        """The file a shader import names, or an error message."""
        shown = "之".join(f"「{p}」" for p in path)
        if len(path) < 2:
            return None, f"导入路径须写出模块：「包」之「模块」之书，这里是 {shown}"
        pkg_name = path[0]
        pkg = self.by_name.get(pkg_name)
        if pkg is None:
            return None, f"未知的包「{pkg_name}」：当前目录下没有「名」为「{pkg_name}」的 包.json"
        if pkg_name in self.duplicates:
            places = "、".join(str(p) for p in self.duplicates[pkg_name])
            return None, f"包名「{pkg_name}」不唯一：{places} 都叫这个名字，改掉其中一个的「名」"
        if pkg_name != importer.name and pkg_name not in importer.deps:
            if importer.implicit:
                return None, (f"包外的单独文件只能导入「{BUILTIN_PACKAGE}」：把文件放进带 包.json 的包，"
                              f"并在「依赖」里声明「{pkg_name}」")
            return None, f"包「{importer.name}」没有声明依赖「{pkg_name}」：在它的 包.json 的「依赖」里加上「{pkg_name}」"
        found = self.module_file(path)
        if found is not None:
            return found, None
        odd = _not_a_file(pkg, path)
        if odd is not None:
            return None, f"模块 {shown} 的文件「{odd}」不是普通文件（是管道、设备、目录或断了的链接），不能导入"
        return None, (f"包内模块不存在：{shown}（着色文件只能导入着色源「名。着色器。豫」"
                      f"与着色内建声明「名。着色器。接口。豫」）{_closest_module(pkg, path)}")

    def module_file(self, path: list[str]) -> Path | None:
        """The file of module `path` (package first) if there is one, whether or
        not the importer may import it: after an undeclared dependency has its
        message, the module's names still resolve (no follow-on messages)."""
        pkg = self.by_name.get(path[0]) if len(path) >= 2 and path[0] not in self.duplicates else None
        return None if pkg is None else next((c for c in _module_files(pkg, path) if _is_file(c)), None)

    def failing_part(self, importer: Package, path: list[str]) -> int:
        """Which name of a failing import path to point at: the package or the module."""
        pkg = path[0] if path else ""
        if len(path) < 2 or pkg not in self.by_name or (pkg != importer.name and pkg not in importer.deps):
            return 0
        return len(path) - 1


def _outermost_package_folder(folder: Path) -> Path | None:
    """The outermost folder at or above `folder` that holds a 包.json."""
    found = None
    for f in [folder, *folder.parents]:
        if _is_file(f / MANIFEST):
            found = f
    return found


#: a 包.json holds a name and a list of dependencies: anything larger is not one
MANIFEST_LIMIT = 1 << 20


def _unreadable(manifest: Path) -> str | None:
    """Why a 包.json is not read at all: not a regular file (a pipe would block
    the reader, /dev/zero never ends), or far too large; None when it is fine."""
    try:
        info = manifest.stat()
    except (OSError, ValueError) as err:
        return f"包清单读不出：{err}"
    if not stat.S_ISREG(info.st_mode):
        return "包清单不是普通文件（是管道、设备或目录）：包.json 须是一个 JSON 文件"
    if info.st_size > MANIFEST_LIMIT:
        return f"包清单有 {info.st_size} 字节，太大了：包.json 只需要「名」与「依赖」两项"
    return None


def _is_file(path: Path) -> bool:
    """is_file that takes any OS error (a name too long, a loop) for 'not there'."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _module_files(pkg: Package, path: list[str]) -> list[Path]:
    """The files module `path` (package first) may be: its shader source, then its interface."""
    folder = pkg.root.joinpath(*path[1:-1])
    return [folder / (path[-1] + suffix) for suffix in (SHADER_SUFFIX, INTERFACE_SUFFIX)]


def _not_a_file(pkg: Package, path: list[str]) -> str | None:
    """The name of module `path`'s file when one is there but is no regular file."""
    return next((c.name for c in _module_files(pkg, path) if os.path.lexists(c)), None)


def _closest_module(pkg: Package, path: list[str]) -> str:
    """「；是不是「包」之…之「模块」？」 for the module of the package whose path is
    most like the one written (a misspelt folder counts: 「几合」 finds 「几何」之「向量」)."""
    import difflib
    written = path[1:]
    if len("/".join(written)) > 64:
        return ""   # the comparison is quadratic in the length
    best, score = None, 0.0
    def similar(parts) -> float:
        return difflib.SequenceMatcher(None, "/".join(written), "/".join(parts)).ratio()

    for parts in _module_paths(pkg):
        if list(parts) == written:
            continue            # the name written: there but no regular file (a pipe, a bad link)
        whole = similar(parts) if similar(parts) >= 0.6 else 0.0
        deeper = len(parts) > len(written) and similar(parts[:len(written)]) >= 0.5
        candidate = max(whole, 0.9 * similar(parts[:len(written)]) if deeper else 0.0)
        if candidate > score:
            best, score = parts, candidate
    if best is None:
        return ""
    return "；是不是" + "之".join(f"「{p}」" for p in [path[0], *best]) + "？"


def _module_paths(pkg: Package) -> list[tuple[str, ...]]:
    """Every shader module of a package, as its import path below the package."""
    out = []
    for folder, dirs, files in os.walk(pkg.root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS
                         and not (Path(folder) / d / MANIFEST).is_file())
        rel = Path(folder).relative_to(pkg.root).parts
        out.extend((*rel, module_stem(f)) for f in sorted(files) if is_shader_file(f))
    return out
