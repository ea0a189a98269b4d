"""The language server's view of a workspace: open documents laid over the
incremental core, and the queries every feature shares (the item under a
cursor, what its names denote, where a symbol is defined, who imports a
module).

Every answer comes from `Workspace.check`, so the server sees exactly what
the command line sees; what is cached here (name occurrences per item,
definition sites per module) is keyed by objects the core hands back
unchanged while their input is unchanged.
"""

from __future__ import annotations

import logging
import os
from bisect import bisect_left, bisect_right
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..compiler.check.module import CheckedModule, ItemResult, type_names
from ..compiler.packages import MANIFEST, SKIPPED_DIRS, is_shader_file
from ..compiler.syntax import ast
from ..compiler.syntax.parser import ParsedItem
from ..compiler.types import Printer
from ..compiler.workspace import Workspace
from ..compiler.query import ITEM_LOCAL, Context, Occurrence, Symbol, index_item, occurrence_at
from ..compiler.query import context as query_context
from .positions import path_of, uri_of

logger = logging.getLogger(__name__)

#: Documents larger than this (in characters) are not analysed: the server
#: answers them with one diagnostic and empty results instead of stalling.
DEFAULT_MAX_CHARS = 2_000_000


class AnalysisFailed(Exception):
    """The core raised on a text (a recursion limit on a deeply nested
    file).  Raised again at once for the same text, without the original's
    thousands of frames."""

    def __init__(self, path: str, cause: Exception) -> None:
        self.too_deep = isinstance(cause, RecursionError)
        super().__init__(f"{path}: {type(cause).__name__}")


@dataclass
class Document:
    uri: str
    path: str
    version: int
    text: str


@dataclass
class Located:
    """The item under a cursor, with its check result and name occurrences."""

    path: str
    checked: CheckedModule
    item: ParsedItem
    result: ItemResult | None
    occurrences: list[Occurrence]
    offset: int  # item-relative

    def occurrence(self) -> Occurrence | None:
        return occurrence_at(self.occurrences, self.offset)


@dataclass(frozen=True)
class Site:
    """Where a symbol is defined: a file and the absolute span of its name."""

    path: str
    start: int
    end: int


class Project:
    def __init__(self, root: str | Path, max_chars: int = DEFAULT_MAX_CHARS) -> None:
        self.ws = Workspace(root)
        self.max_chars = max_chars
        self.documents: dict[str, Document] = {}
        self._occurrences: dict[tuple, tuple[ItemResult | None, list[Occurrence]]] = {}
        self._sites: dict[int, tuple[CheckedModule, dict]] = {}
        self._printers: dict[str, Printer] = {}
        self._failed: dict[str, tuple[str, Exception]] = {}

    # ------------------------------------------------------------ documents

    def open(self, uri: str, version: int, text: str) -> str | None:
        path = path_of(uri)
        if path is None:
            return None
        self.documents[path] = Document(uri, path, version, text)
        self.ws.set_document(path, text)
        if Path(path).name == MANIFEST:
            self.ws.refresh_packages()
        return path

    change = open

    def close(self, uri: str) -> str | None:
        path = path_of(uri)
        if path is not None and self.documents.pop(path, None) is not None:
            self.ws.close_document(path)
        return path

    def uri(self, path: str) -> str:
        doc = self.documents.get(path)
        return doc.uri if doc is not None else uri_of(path)

    def known(self, uri: str) -> str | None:
        """The path of a URI the server can answer for: an open document or a
        shader file on disk."""
        path = path_of(uri)
        if path is None:
            return None
        if path in self.documents or (is_shader_file(path) and os.path.isfile(path)):
            return path
        return None

    def too_big(self, path: str) -> bool:
        doc = self.documents.get(path)
        if doc is not None:
            return len(doc.text) > self.max_chars
        try:
            return os.path.getsize(path) > self.max_chars * 4
        except OSError:
            return False

    # ------------------------------------------------------------ analysis

    def checked(self, path: str) -> CheckedModule | None:
        """The checked module (None for a file too big to analyse).  When the
        core fails on a text (a recursion limit), it fails again at once for
        the same text instead of spending the time again."""
        if self.too_big(path):
            return None
        text = self.ws.source(path).text
        failed = self._failed.get(path)
        if failed is not None and failed[0] == text:
            raise failed[1]
        try:
            return self.ws.check(path)
        except Exception as err:
            if not isinstance(err, RecursionError):
                logger.exception("checking %s", path)
            failure = AnalysisFailed(path, err)
            self._failed[path] = (text, failure)
            raise failure from None

    def source(self, path: str):
        return self.ws.source(path)

    @contextmanager
    def scratch(self, path: str, text: str):
        """Check `text` in place of `path` for one query (completion on a
        half-typed line), then put the document back as it was."""
        before = self.ws.overrides.get(self.ws.key(path))
        self.ws.set_document(path, text)
        try:
            yield self.ws.check(path)
        finally:
            if before is None:
                self.ws.close_document(path)
            else:
                self.ws.set_document(path, before)

    def printer(self, checked: CheckedModule) -> Printer:
        """Types print with builtin alias names (an unnamed vec3<u32> is 「三维无」)."""
        builtins = checked.scope.builtins if checked.scope else None
        key = builtins.fingerprint if builtins else ""
        if key not in self._printers:
            self._printers = {key: Printer(type_names(builtins))}
        return self._printers[key]

    def context(self, checked: CheckedModule) -> Context:
        return query_context(self.ws, checked)

    def imports(self, checked: CheckedModule):
        """(import item, the module file it names) for each 寻 / 寻观 that resolves."""
        ctx = self.context(checked)
        for item, _ in checked.items:
            node = item.node
            if isinstance(node, ast.Import) and node.kind != "观":
                target = ctx.resolve_import([n.name for n in node.path])
                if target is not None:
                    yield item, target

    def builtin_path(self) -> str:
        return self.ws.builtins().path

    def occurrences(self, checked: CheckedModule, item: ParsedItem, result: ItemResult | None,
                    ctx: Context | None = None) -> list[Occurrence]:
        key = (checked.path, item.text, checked.exports.fingerprint)
        hit = self._occurrences.get(key)
        if hit is not None and hit[0] is result:
            return hit[1]
        if len(self._occurrences) > 200_000:
            self._occurrences.clear()
        occs = index_item(ctx or self.context(checked), item, result.decl if result else None)
        self._occurrences[key] = (result, occs)
        return occs

    def all_occurrences(self, checked: CheckedModule):
        """(item, absolute offset of the item, occurrence) for a whole module."""
        ctx = self.context(checked)
        for item, result in checked.items:
            for occ in self.occurrences(checked, item, result, ctx):
                yield item, occ

    def locate(self, path: str, offset: int) -> Located | None:
        checked = self.checked(path)
        if checked is None or checked.parsed is None:
            return None
        parsed = checked.parsed
        at = bisect_right(parsed.starts, offset) - 1      # the last item starting at or before the offset
        for i in (at - 1, at):    # an unclosed item also holds the offset right after it, and comes first
            if i < 0:
                continue
            tree, start = parsed.trees[i], parsed.starts[i]
            end = start + len(tree.text)
            if start <= offset < end or (offset == end and tree.text and not tree.text.endswith("。")):
                item, result = ParsedItem(tree, start), checked.results[i]
                return Located(path, checked, item, result, self.occurrences(checked, item, result), offset - start)
        return None

    @staticmethod
    def item_being_typed(checked: CheckedModule, offset: int) -> tuple[int, ItemResult | None]:
        """Where the item holding `offset` starts, and its check result: the
        item that starts before it, unless that one already ended with 。
        (then a new item is being typed after it, with no result yet)."""
        parsed = checked.parsed
        last = bisect_left(parsed.starts, offset) - 1 if parsed is not None else -1   # the last item starting before
        if last < 0:
            return 0, None
        text, start = parsed.trees[last].text, parsed.starts[last]
        end = start + len(text)
        return (end, None) if end <= offset and text.endswith("。") else (start, checked.results[last])

    # ------------------------------------------------------------ symbols

    def definition_sites(self, checked: CheckedModule) -> dict:
        """Name → {kind: (item, start, end)} for the module's top-level items;
        kind is 者 乃 即 立 (a broken item counts by the keyword it started with)."""
        hit = self._sites.get(id(checked))
        if hit is not None and hit[0] is checked:
            return hit[1]
        sites: dict[str, dict[str, tuple]] = {}
        for item, _ in checked.items:
            node = item.node
            if isinstance(node, (ast.Definition, ast.Signature, ast.TypeDef, ast.CtorDecl)):
                kind = {ast.Definition: "者", ast.Signature: "乃", ast.TypeDef: "即", ast.CtorDecl: "立"}[type(node)]
                sites.setdefault(node.name, {}).setdefault(kind, (item, item.start + node.start, item.start + node.name_end))
            elif node is None and item.name:
                sites.setdefault(item.name, {}).setdefault(item.kind, (item, item.start, item.start + item.name_end))
        if len(self._sites) > 1000:
            self._sites.clear()
        self._sites[id(checked)] = (checked, sites)
        return sites

    def site(self, symbol: Symbol, origin: Located | None = None, declaration: bool = False) -> Site | None:
        """Where `symbol` is defined (its signature when `declaration`)."""
        if symbol.kind in ITEM_LOCAL:
            return self._local_site(symbol, origin) if origin is not None else None
        if symbol.kind == "module":
            return Site(symbol.path, 0, 0) if symbol.path else None
        if symbol.kind == "package":
            return self._package_site(symbol.name)
        checked = self.checked(symbol.path) if symbol.path else None
        if checked is None:
            return None
        sites = self.definition_sites(checked).get(symbol.owner if symbol.kind == "field" else symbol.name, {})
        order = ("乃", "即", "者", "立") if declaration else ("者", "即", "乃", "立")
        for kind in order:
            if kind in sites:
                item, start, end = sites[kind]
                if symbol.kind == "field":
                    return self._field_site(checked.path, item, symbol.name)
                return Site(checked.path, start, end)
        return None

    @staticmethod
    def _local_site(symbol: Symbol, origin: Located) -> Site | None:
        base = origin.item.start
        for occ in origin.occurrences:
            if occ.symbol == symbol and occ.role == "def":
                return Site(origin.path, base + occ.start, base + occ.end)
        return None

    @staticmethod
    def _field_site(path: str, item: ParsedItem, label: str) -> Site | None:
        node = item.node
        record = node.type if isinstance(node, ast.TypeDef) else None
        for f in record.fields if isinstance(record, ast.TypeRecord) else []:
            if f.name == label:
                return Site(path, item.start + f.start, item.start + f.name_end)
        return None

    def _package_site(self, name: str) -> Site | None:
        pkg = self.ws.packages.by_name.get(name)
        if pkg is None:
            return None
        manifest = pkg.root / MANIFEST
        if manifest.is_file():
            return Site(self.ws.key(manifest), 0, 0)
        return Site(self.builtin_path(), 0, 0) if pkg.builtin else None

    # ------------------------------------------------------------ the workspace

    def dependents(self, path: str) -> list[str]:
        """Open documents that import `path`, directly or not."""
        out = []
        for other in self.documents:
            if other == path:
                continue
            try:
                checked = self.checked(other)
            except Exception:  # its own publication reports why
                continue
            if checked is not None and path in checked.module.imports:
                out.append(other)
        return out

    def shader_files(self) -> list[str]:
        """Every shader file of the workspace (open or on disk), for references."""
        found = {p for p in self.documents if is_shader_file(p)}
        for folder, dirs, files in os.walk(self.ws.root):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS]
            found.update(self.ws.key(os.path.join(folder, f)) for f in files if is_shader_file(f))
        return sorted(found)
