"""Import rules, read from the source with `ast` (no module is executed), over
every module of cli/, server/ and compiler/, imports inside functions included:
entry points sit on top of the compiler (the command line over the server),
back ends do not reach into the checker, the compiler's subpackages import
each other without a cycle and only downwards through `LAYERS` (the order
ARCHITECTURE.md writes down), and a module is loaded by a name in a string
(importlib) only where `DYNAMIC_IMPORTS` says why."""

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


def _subpackage_graph() -> dict[str, dict[str, set[str]]]:
    """subpackage → the subpackages it imports → the module pairs (importer → imported) that import them;
    every import counts, at module level or inside a function."""
    graph: dict[str, dict[str, set[str]]] = {}
    for name in MODULES:
        here = _subpackage(name)
        if here is None:
            continue
        graph.setdefault(here, {})
        for target in imports(name):
            there = _subpackage(target)
            if there is not None and there != here:
                graph[here].setdefault(there, set()).add(f"{name} → {target}")
    return graph


def test_no_import_cycle_between_the_compilers_subpackages():
    graph = _subpackage_graph()
    assert "backends" in graph["runtime"] and "valid" in graph["lower"]
    cycle = _cycle({here: set(there) for here, there in graph.items()})
    assert cycle is None, " → ".join(cycle) + ": " + "; ".join(
        sorted(m for a, b in zip(cycle, cycle[1:]) for m in graph[a][b]))


#: the compiler's subpackages and top-level modules in layers, lowest first (ARCHITECTURE.md, "Import
#: rules"): a module imports from its own layer (without a cycle) or from a layer below, never above
LAYERS: tuple[frozenset[str], ...] = tuple(frozenset(layer.split()) for layer in (
    "source cache types packages diagnostics ir builtin syntax classcode ledger layout importer",   # foundations (importer: WGSL → 着色, reads the formatter)
    "valid",                          # the registry, the constant evaluator, the validation pass over checked IR
    "check",                          # the checker: syntax → checked IR
    "lower",                          # the lowering middle every writer and the interpreter read
    "backends",                       # the writers, their tables, the target records
    "interp runtime",                 # executing: the reference interpreter, wgpu, CUDA
    "workspace query reference generate",   # what drives the pipeline: caches, the server's queries, generation
))


def test_the_compilers_subpackages_import_downwards_only():
    graph = _subpackage_graph()
    layer = {pkg: i for i, members in enumerate(LAYERS) for pkg in members}
    assert sorted(set(graph) - set(layer)) == [], "place every subpackage in LAYERS (and ARCHITECTURE.md)"
    upwards = sorted(m for here, there in graph.items() for pkg, found in there.items()
                     if layer[pkg] > layer[here] for m in found)
    assert upwards == []


def test_the_server_never_imports_the_command_line():
    wrong = {(n, m) for n in MODULES if _within(n, "zhuose.server") for m in imports(n) if _within(m, "zhuose.cli")}
    assert not wrong, sorted(wrong)


def test_every_import_of_the_package_names_a_module_that_exists():
    """The reader resolves every module of cli/, server/ and compiler/: each
    import of zhuose.… (relative ones included) names a module or package here."""
    assert any(_within(n, "zhuose.cli") for n in MODULES) and any(_within(n, "zhuose.server") for n in MODULES)
    missing = {(n, m) for n in MODULES for m in imports(n) if _within(m, "zhuose") and m not in MODULES}
    assert not missing, sorted(missing)


def _dynamic_imports(path: Path) -> bool:
    """Whether a module loads a module by a name computed at run time (importlib.import_module, __import__)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any((isinstance(n, ast.Attribute) and n.attr == "import_module")
               or (isinstance(n, ast.Name) and n.id in ("import_module", "__import__"))
               or (isinstance(n, ast.alias) and n.name == "import_module") for n in ast.walk(tree))


#: the modules that load a module by a name in a string, and what they load: always their own
#: package's modules or a lower layer's, so the rules above still hold for what `ast` cannot see
DYNAMIC_IMPORTS = {
    "zhuose.cli.main": "the subcommand's own module of cli/, only when named",
    "zhuose.server.targets": "a back end package of compiler/backends/ (the target record's package)",
    "zhuose.compiler.backends": "its own back end packages, by the target record's package",
    "zhuose.compiler.generate": "its own modules, on first use",
}


def test_modules_are_loaded_by_name_only_where_declared():
    """The registry (compiler/valid/registry.py) never loads a target's table
    by name: the tables are gathered in compiler/backends/tables.py, which
    imports each one."""
    assert not _dynamic_imports(MODULES["zhuose.compiler.valid.registry"])
    assert "importlib" not in imports("zhuose.compiler.valid.registry")
    assert sorted(n for n, p in MODULES.items() if _dynamic_imports(p)) == sorted(DYNAMIC_IMPORTS)


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
