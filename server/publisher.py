"""When diagnostics are published, and which.

- A change is published at once when the file has been quiet, and at most
  once per `interval` while edits keep coming (later edits ride on the
  scheduled publication, which always checks the latest text): a burst of
  keystrokes costs one check, a single edit shows its result without delay.
- Open and save also run the WGSL translation and naga (and, with the
  剖析警告 option, ptxas on the PTX: a warning per entry using local memory); that result is kept
  with the text it was made from and shown only while the text is the same,
  so a slow translation never lands over a newer edit.
- After a file is published, the open files that import it are published
  too (their check is cached unless the file's interface changed).
- Once an opened file is checked (and again once translated), what is
  alive is frozen out of the garbage collector's generations: the checked
  state of an open file lives while it is open, and a full collection that
  re-scans it (300,000 objects for a 16,000-line file) cost more than an
  edit's own re-check.  The youngest generation is then collected every
  `LIVE_HEAP_COLLECTOR[0]` new objects, not Python's 700: an edit's new parse,
  check and validation live beside the old ones until they replace them,
  so at 700 the collector ran about ten times per edit (a millisecond at
  16,000 lines) over objects that were all alive; the old ones die by
  reference count (an edit leaves about 150 objects behind, some 16 of them
  cyclic garbage), so the larger threshold leaves little more uncollected.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from typing import Callable

from ..compiler import LIVE_HEAP_COLLECTOR
from ..compiler.diagnostics import TOO_MANY, Diagnostic
from ..compiler.packages import is_interface_file, is_shader_file
from .diagnostics import check_diagnostics, internal_error, to_lsp

#: diagnostics sent for one document: a file with 100,000 errors held the editor for a minute
MAX_PUBLISHED = 1000


def at_most(diags: list[Diagnostic], limit: int) -> list[Diagnostic]:
    """The first `limit` diagnostics, and one more that says how many are not shown."""
    if len(diags) <= limit:
        return diags
    rest, hidden = diags[limit], str(len(diags) - limit)
    return diags[:limit] + [Diagnostic(rest.path, rest.start, rest.end,
                                       f"还有 {hidden} 条问题没有列出（每个文件至多列 {limit} 条）：先改前面的",
                                       rest.definition, severity="警告", code=TOO_MANY, fields={"个数": hidden})]
from .project import AnalysisFailed, Project
from .validate import Naga, local_memory_diagnostics, naga_diagnostics, translation

logger = logging.getLogger(__name__)

Send = Callable[[str, "int | None", list], None]


class Publisher:
    def __init__(self, project: Project, send: Send, naga: Naga | None, interval: float = 0.1,
                 profile: bool = False) -> None:
        self.project = project
        self.send = send
        self.naga = naga
        self.profile = profile      # warn of compute entries that use local memory (ptxas, on open and save)
        self.interval = interval
        self.pending: dict[str, asyncio.Task] = {}
        self.last_time: dict[str, float] = {}
        self.translated: dict[str, tuple[str, list[Diagnostic]]] = {}
        self.translations = 0

    # ------------------------------------------------------------ events

    def changed(self, path: str) -> None:
        if path in self.pending:
            return  # the scheduled publication will read this version
        loop = asyncio.get_running_loop()
        wait = max(0.0, self.last_time.get(path, float("-inf")) + self.interval - loop.time())
        self.pending[path] = loop.create_task(self._later(path, wait))

    def opened(self, path: str) -> None:
        self.publish_with_dependents(path)
        freeze_alive()
        task = asyncio.get_running_loop().create_task(self._translate(path))
        task.add_done_callback(_log_failure)

    saved = opened

    def closed(self, path: str, uri: str) -> None:
        task = self.pending.pop(path, None)
        if task is not None:
            task.cancel()
        self.translated.pop(path, None)
        self.send(uri, None, [])

    def refresh_all(self) -> None:
        """Files on disk changed: every open file may see it."""
        for path in list(self.project.documents):
            self.publish(path)

    # ------------------------------------------------------------ publishing

    async def _later(self, path: str, wait: float) -> None:
        await asyncio.sleep(wait)
        self.pending.pop(path, None)
        self.publish_with_dependents(path)

    def publish_with_dependents(self, path: str) -> None:
        if not is_shader_file(path):        # a 包.json: what every open source imports may have changed
            for other in list(self.project.documents):
                self.publish(other)
            return
        self.publish(path)
        for other in self.project.dependents(path):
            self.publish(other)

    def publish(self, path: str) -> None:
        doc = self.project.documents.get(path)
        if doc is None or not is_shader_file(path):
            return      # a client may open any file (a 包.json): only shader sources are analysed
        self.last_time[path] = asyncio.get_running_loop().time()
        try:
            diags = check_diagnostics(self.project, path)
        except AnalysisFailed as err:
            diags = internal_error(path, err)
        text, extra = self.translated.get(path, (None, []))
        if text == doc.text:
            diags = diags + extra
        self.send(doc.uri, doc.version, [to_lsp(self.project, d) for d in at_most(diags, MAX_PUBLISHED)])

    async def _translate(self, path: str) -> None:
        await asyncio.sleep(0)  # the checker's diagnostics go out first
        doc = self.project.documents.get(path)
        if doc is None or self.project.too_big(path) or is_interface_file(path) or not is_shader_file(path):
            return  # an interface file only declares: there is nothing to translate
        text = doc.text
        if any(d.severity == "错误" for d in check_diagnostics(self.project, path)):
            return
        # in a worker thread: translating a large file must not hold up other requests
        result = await asyncio.get_running_loop().run_in_executor(None, translation, self.project, path)
        if result is None:
            return
        self.translations += 1
        wgsl = result.text
        error = None
        if wgsl is not None and self.naga is not None:
            error = await asyncio.get_running_loop().run_in_executor(None, self.naga.validate, wgsl)
        profiled = []
        if self.profile:
            profiled = await asyncio.get_running_loop().run_in_executor(None, local_memory_diagnostics, self.project, path)
        doc = self.project.documents.get(path)
        if doc is None or doc.text != text:
            return  # stale: the text changed while translating
        extra = [d for d in result.diagnostics if d.path == path]
        if error is not None:
            extra += naga_diagnostics(self.project, path, wgsl, error)
        self.translated[path] = (text, extra + profiled)
        self.publish(path)
        freeze_alive()


def freeze_alive() -> None:
    """What is alive now out of the collector's generations, and the edit
    path's collector thresholds (the module docstring says why)."""
    gc.freeze()
    gc.set_threshold(*LIVE_HEAP_COLLECTOR)


def _log_failure(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        logger.error("translation failed", exc_info=task.exception())
