"""Import rules, read from the source with `ast` (no module is executed):
entry points sit on top of the compiler, back ends do not reach into the
checker, and the compiler's subpackages import each other without a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"cli": "zhuose.cli", "compiler": "zhuose.compiler", "server": "zhuose.server"}


def _module_name(path: Path) -> str:
    folder, *rest = path.relative_to(ROOT).with_suffix("").parts
    parts = [FOLDERS[folder], *rest]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for folder in FOLDERS for p in sorted((ROOT / folder).rglob("*.py"))}


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _targets(name: str, path: Path, node: ast.AST) -> list[str]:
    """The absolute module names one import statement loads."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = _package_of(name, path).split(".")
        package = package[:len(package) - node.level + 1]
        base = ".".join(package + ([node.module] if node.module else []))
    found = [base]
    for alias in node.names:                       # `from . import ir` loads the module ir
        if f"{base}.{alias.name}" in MODULES:
            found.append(f"{base}.{alias.name}")
    return found


def imports(name: str, module_level_only: bool = False) -> set[str]:
    """Every module `name` imports: anywhere in its body, or only in statements
    that run when it is imported (not inside a function)."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if module_level_only and isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.update(_targets(name, path, child))
            visit(child)
    visit(tree)
    return found


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_the_rules_see_relative_and_local_imports():
    """The reader is not blind: the CLI's relative imports and the server's imports resolve."""
    assert "zhuose.compiler.workspace" in imports("zhuose.cli.check")
    assert "zhuose.compiler.generate.service" in imports("zhuose.cli.serve")          # function-local
    assert "zhuose.compiler.generate.service" not in imports("zhuose.cli.serve", module_level_only=True)
    assert "zhuose.compiler.ir" in imports("zhuose.compiler.backends.wgsl.writer")    # `from ... import ir`


@pytest.mark.parametrize("name", [n for n in MODULES if _within(n, "zhuose.compiler")])
def test_the_compiler_never_imports_the_command_line_or_the_server(name):
    wrong = {m for m in imports(name) if _within(m, "zhuose.cli") or _within(m, "zhuose.server")}
    assert not wrong, f"{name} imports {sorted(wrong)}"


def test_back_ends_never_import_the_checker():
    wrong = {(n, m) for n in MODULES if _within(n, "zhuose.compiler.backends")
             for m in imports(n) if _within(m, "zhuose.compiler.check")}
    assert not wrong, sorted(wrong)


def _subpackage(module: str) -> str | None:
    """The compiler's subpackage (or top-level module) a module belongs to."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["zhuose", "compiler"] else None


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for succ in sorted(graph.get(node, ())):
            if state.get(succ) == 1:
                return stack[stack.index(succ):] + [succ]
            if succ not in state and (found := visit(succ)):
                return found
        stack.pop()
        state[node] = 2
        return None
    return next((c for n in sorted(graph) if n not in state and (c := visit(n))), None)


def test_no_import_cycle_between_the_compilers_subpackages():
    graph: dict[str, set[str]] = {}
    for name in MODULES:
        here = _subpackage(name)
        if here is None:
            continue
        for target in imports(name, module_level_only=True):
            there = _subpackage(target)
            if there is not None and there != here:
                graph.setdefault(here, set()).add(there)
    assert "backends" in graph and "runtime" in graph
    assert _cycle(graph) is None, " → ".join(_cycle(graph))


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def _test_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | \
        {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}


def test_tests_share_code_only_through_the_support_package():
    """Runners, emulators, references and data live in tests/support/; a test
    module that imports another test module hides shared code among tests."""
    tests = ROOT / "tests"
    offenders = {p.name: sorted(m for m in _test_imports(p) if m.split(".")[0].startswith("test_"))
                 for p in [*tests.glob("*.py"), *(tests / "support").rglob("*.py")]}
    assert {name: found for name, found in offenders.items() if found} == {}
    assert not list(tests.glob("test_qa_*.py")), "test files are named by component, not by review round"
