"""Module lookup for high-level 豫言 files (seed 着二).

A high-level file's import 「包」之…之「名」 is looked up as 名。豫, 名。接口。豫,
名。应用接口。豫, then 名。着色器。豫; a shader source found this way stands for
the virtual module 名。着色生成。豫 generated from it.  Shader builtin
declarations (名。着色器。接口。豫) are for shader sources only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..packages import (BUILTIN_PACKAGE, GENERATED_SUFFIX, INTERFACE_SUFFIX, SHADER_SUFFIX, Package,
                        PackageIndex)

#: (suffix, kind) in the seed's lookup order for high-level imports
HIGH_LEVEL_ORDER = [("。豫", "豫言"), ("。接口。豫", "接口"), ("。应用接口。豫", "应用接口"),
                    (SHADER_SUFFIX, "着色源")]
#: every suffix a file can have, longest first, so a file's kind is its longest suffix
_KINDS = sorted([*HIGH_LEVEL_ORDER, (INTERFACE_SUFFIX, "着色内建声明"), (GENERATED_SUFFIX, "着色生成")],
                key=lambda sk: len(sk[0]), reverse=True)
_ORDER_SHOWN = "、".join("名" + s for s, _ in HIGH_LEVEL_ORDER)


@dataclass(frozen=True)
class Resolved:
    """What a high-level import denotes: a real file, or for a shader source
    the virtual generated module (`path`) and the source it comes from."""

    path: Path
    kind: str                    # 豫言 接口 应用接口 着色生成
    shader_source: Path | None = None


def file_kind(path: str | Path) -> str | None:
    """豫言 接口 应用接口 着色源 着色内建声明 着色生成, by the file's suffix."""
    name = Path(path).name
    return next((kind for suffix, kind in _KINDS if name.endswith(suffix) and len(name) > len(suffix)), None)


def virtual_path(shader_source: str | Path) -> Path:
    """名。着色器。豫 → 名。着色生成。豫 in the same folder."""
    source = Path(shader_source)
    return source.with_name(source.name[: -len(SHADER_SUFFIX)] + GENERATED_SUFFIX)


def shader_source_of(virtual: str | Path) -> Path:
    """名。着色生成。豫 → the shader source 名。着色器。豫 it is generated from."""
    path = Path(virtual)
    return path.with_name(path.name[: -len(GENERATED_SUFFIX)] + SHADER_SUFFIX)


def package_of(packages: PackageIndex, path: str | Path) -> Package:
    """A file's package; a virtual module belongs to its shader source's package (着二.4)."""
    if file_kind(path) == "着色生成":
        path = shader_source_of(path)
    return packages.package_of(path)


def dependencies(path: str | Path) -> list[Path]:
    """The modules a virtual module imports: none (着二.1), since generated
    text has no imports; build systems track `Generated.inputs` instead."""
    if file_kind(path) != "着色生成":
        raise ValueError(f"「{path}」不是生成模块（名{GENERATED_SUFFIX}）")
    return []


def _package_problem(packages: PackageIndex, importer: Package, names: list[str]) -> str | None:
    shown = "之".join(f"「{n}」" for n in names)
    if len(names) < 2:
        return f"导入路径须写出模块：「包」之「模块」之书，这里是 {shown}"
    wanted = names[0]
    if wanted not in packages.by_name:
        return f"未知的包「{wanted}」：当前目录下没有「名」为「{wanted}」的 包.json"
    if wanted == importer.name or wanted in importer.deps:
        return None
    if importer.implicit:
        return (f"包外的单独文件只能导入「{BUILTIN_PACKAGE}」：把文件放进带 包.json 的包，"
                f"并在「依赖」里声明「{wanted}」")
    return f"包「{importer.name}」没有声明依赖「{wanted}」：在它的 包.json 的「依赖」里加上「{wanted}」"


def find_high_level_import(packages: PackageIndex, importer: str | Path,
                           names: list[str]) -> tuple[Resolved | None, str | None]:
    """The module a high-level file's import names, or a Chinese error message."""
    problem = _package_problem(packages, package_of(packages, importer), names)
    if problem:
        return None, problem
    folder = packages.by_name[names[0]].root.joinpath(*names[1:-1])
    for suffix, _ in HIGH_LEVEL_ORDER:
        candidate = folder / (names[-1] + suffix)
        if candidate.is_file():
            return _resolved(candidate), None
    shown = "之".join(f"「{n}」" for n in names)
    if (folder / (names[-1] + INTERFACE_SUFFIX)).is_file():
        return None, (f"高级代码不能导入着色内建声明 {shown}（{names[-1]}{INTERFACE_SUFFIX}）："
                      f"着色内建声明只供着色源导入；要用着色程序，请导入着色源「名{SHADER_SUFFIX}」")
    return None, f"包内模块不存在：{shown}（高级文件依次查找 {_ORDER_SHOWN}）"


def _resolved(found: Path) -> Resolved:
    kind = file_kind(found)
    if kind == "着色源":
        return Resolved(virtual_path(found), "着色生成", found)
    return Resolved(found, kind)
