"""The language server (pygls, stdio): `着色器 服务` or `python -m zhuose.server`.

Handlers are thin: each converts positions, asks one feature module, and
converts back.  None may take the server down: a handler that fails answers
with its empty result (and logs why), a request whose parameters do not
parse gets an InvalidParams error, and the next request is served.  Frames
are read by frames.py: a malformed or oversized frame, or a body that is not a
JSON-RPC object, is answered with a JSON-RPC error and the reader keeps step.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lsprotocol import types as lsp
from pygls.exceptions import (JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest,
                              JsonRpcParseError)
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from ..compiler.backends import TargetUnavailable
from . import completion, fixes, formatting, hints, hover, navigation, signature, symbols, targets, tokens
from .diagnostics import to_lsp
from .documents import EditedWorkspace
from .frames import MAX_FRAME, Oversized, frames
from .positions import lsp_range, offset_at, path_of
from .project import DEFAULT_MAX_CHARS, AnalysisFailed, Project
from .publisher import Publisher
from .validate import Naga

logger = logging.getLogger(__name__)

PREVIEW = "着色/预览"
COUNTERS = "着色/计数"
IMPORT = "着色/导入"
#: initializationOptions the server reads
OPTION_INTERVAL = "诊断间隔毫秒"
OPTION_MAX_CHARS = "最大字数"
OPTION_NAGA = "naga校验"
OPTION_PROFILE = "剖析警告"     # warn of compute entries whose kernels use local memory (needs ptxas)


class RequestFailed(JsonRpcException):
    """LSP's RequestFailed: the request was understood but cannot be done
    (the message says why, in Chinese)."""

    CODE = -32803


def _valid_id(value) -> bool:
    """A JSON-RPC id this server can echo: an integer or a string (null for a notification's)."""
    return value is None or isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _no_constant(name: str):
    """NaN and Infinity are not JSON: a message holding one is a parse error (its id cannot be echoed)."""
    raise ValueError(f"{name} 不是 JSON 的值")


class _Answered:
    """A request that was already answered with an error while being read."""

    jsonrpc = "2.0"


class ZhuoseProtocol(LanguageServerProtocol):
    def structure_message(self, data):
        if isinstance(data, dict) and "jsonrpc" in data and "id" in data and not _valid_id(data["id"]):
            # an object or list id cannot be answered by it; JSON-RPC says: Invalid Request, id null
            self._refuse(JsonRpcInvalidRequest("请求的 id 须是整数或字符串"))
            return _Answered()
        try:
            return super().structure_message(data)
        except JsonRpcException as err:
            if isinstance(data, dict) and "id" in data and "method" in data:
                detail = f"参数不合规范：{data.get('method')}"
                self._send_response(data["id"], None, JsonRpcInvalidParams(detail).to_response_error())
                return _Answered()
            raise err

    def handle_message(self, message):
        if isinstance(message, _Answered):
            return
        if self._shutdown and getattr(message, "method", "") != lsp.EXIT and getattr(message, "id", None) is not None:
            # the specification: requests after shutdown are answered with InvalidRequest
            self._send_response(message.id, None, JsonRpcInvalidRequest("服务已经收到 shutdown，只接受 exit").to_response_error())
            return
        super().handle_message(message)

    def handle_frame(self, frame: bytes | Oversized) -> None:
        """One frame's body: a message, or a JSON-RPC error answer (id null:
        a body that cannot be read has no id) — never a traceback."""
        if isinstance(frame, Oversized):
            self._refuse(JsonRpcInvalidRequest(f"消息过长：{frame.length} 字节，上限 {MAX_FRAME} 字节"))
            return
        try:
            message = json.loads(frame, object_hook=self.structure_message, parse_constant=_no_constant)
        except (ValueError, RecursionError) as err:
            self._refuse(JsonRpcParseError(f"消息不是合法的 JSON：{err}"))
            return
        except Exception as err:  # noqa: BLE001 — pygls cannot type it (and it has no id to answer)
            self._refuse(JsonRpcInvalidRequest(f"不是 JSON-RPC 消息：{err}"))
            return
        if isinstance(message, (dict, list)) or not hasattr(message, "jsonrpc"):
            self._refuse(JsonRpcInvalidRequest("消息须是 JSON-RPC 对象（不支持批量）"))
            return
        try:
            self.handle_message(message)
        except Exception as err:  # noqa: BLE001 — a malformed message must not end the server
            logger.warning("无法处理的消息：%s: %s", type(err).__name__, err)
            if getattr(message, "id", None) is not None and getattr(message, "method", None):
                self._send_response(message.id, None, JsonRpcInvalidRequest(f"无法处理的消息：{err}").to_response_error())

    def _refuse(self, error: JsonRpcException) -> None:
        logger.warning("%s", error)
        self._send_response(None, None, error.to_response_error())

    def _send_handler_result(self, future, *, msg_id):
        """A refusal (RequestFailed: a rename the program does not allow) is
        an expected answer: it goes back as an error response, without the
        traceback and server-error report pygls gives a failing handler."""
        refused = None if future.cancelled() else future.exception()
        if isinstance(refused, JsonRpcException):   # RequestFailed, or InvalidParams from a handler's own check
            self._request_futures.pop(msg_id, None)
            logger.info("request %s refused: %s", msg_id, refused)
            self._send_response(msg_id, error=refused.to_response_error())
            return
        super()._send_handler_result(future, msg_id=msg_id)

    @lsp_method(lsp.INITIALIZE)
    def lsp_initialize(self, params: lsp.InitializeParams):
        """Positions are counted in UTF-16 code units whatever the client
        offers, and open documents take changes by slicing (documents.py):
        the workspace pygls has just made, still without documents, becomes
        the subclass that makes such documents."""
        if params.capabilities.general is not None:
            params.capabilities.general.position_encodings = None
        result = yield from super().lsp_initialize(params)
        self.workspace.__class__ = EditedWorkspace
        return result


class ZhuoseServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("zhuose", "0.1.0", protocol_cls=ZhuoseProtocol,
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.project = Project(os.getcwd())
        self.publisher = Publisher(self.project, self.send_diagnostics, Naga())

    def configure(self, root: str, options: dict) -> None:
        """A workspace at `root`; options that are missing or not numbers keep their defaults."""
        self.project = Project(root, int(_number(options, OPTION_MAX_CHARS, DEFAULT_MAX_CHARS)))
        naga = Naga() if options.get(OPTION_NAGA, True) is not False else None
        interval = _number(options, OPTION_INTERVAL, 100) / 1000
        profile = options.get(OPTION_PROFILE, True) is not False
        self.publisher = Publisher(self.project, self.send_diagnostics, naga, interval, profile)

    def send_diagnostics(self, uri: str, version: int | None, diagnostics: list) -> None:
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))

    def report_server_error(self, error, source) -> None:
        logger.error("server error: %s", error)

    def start_io(self, stdin=None, stdout=None) -> None:
        """pygls's stdio loop with a reader that survives malformed frames (frames.py)."""
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(self._serve(frames(stdin or sys.stdin.buffer)))
        except BrokenPipeError:
            logger.error("与客户端的连接断了")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    async def _serve(self, incoming) -> None:
        loop = asyncio.get_running_loop()
        reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="读消息")   # not the handlers' pool
        while not self._stop_event.is_set():
            frame = await loop.run_in_executor(reader, next, incoming, None)
            if frame is None:
                break
            self.protocol.handle_frame(frame)


def _number(options: dict, key: str, default: float) -> float:
    value = options.get(key, default)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0 else default


server = ZhuoseServer()


def answering(fallback):
    """Run a handler; on any failure log it and answer `fallback`."""
    def wrap(fn):
        @functools.wraps(fn)
        def run(ls: ZhuoseServer, params):
            try:
                return fn(ls, params)
            except JsonRpcException:
                raise
            except AnalysisFailed as err:  # already reported with the file's diagnostics
                logger.warning("%s: %s", fn.__name__, err)
                return fallback
            except Exception as err:  # logged in one line: hostile input must not fill the log with tracebacks
                logger.error("%s failed: %s: %s", fn.__name__, type(err).__name__, err)
                ls.window_log_message(lsp.LogMessageParams(
                    type=lsp.MessageType.Error, message=f"着色语言服务：{fn.__name__} 出错：{type(err).__name__}: {err}"))
                return fallback
        return run
    return wrap


def _at(ls: ZhuoseServer, params):
    """(path, character offset) of a text-document position, or None for a
    document the server does not know."""
    path = ls.project.known(params.text_document.uri)
    if path is None:
        return None
    return path, offset_at(ls.project.source(path), params.position)


def _span(ls: ZhuoseServer, params):
    """(path, start, end) of a text-document range, or None for a document
    the server does not know."""
    path = ls.project.known(params.text_document.uri)
    if path is None:
        return None
    source = ls.project.source(path)
    return path, offset_at(source, params.range.start), offset_at(source, params.range.end)


def _located(ls: ZhuoseServer, params):
    at = _at(ls, params)
    return ls.project.locate(*at) if at else None


def _location(ls: ZhuoseServer, path: str, start: int, end: int) -> lsp.Location:
    return lsp.Location(uri=ls.project.uri(path), range=lsp_range(ls.project.source(path), start, end))


# ---------------------------------------------------------------- lifecycle


@server.feature(lsp.INITIALIZE)
def initialize(ls: ZhuoseServer, params: lsp.InitializeParams):
    root = None
    if params.workspace_folders:
        root = path_of(params.workspace_folders[0].uri)
    root = root or (path_of(params.root_uri) if params.root_uri else None) or params.root_path or os.getcwd()
    options = params.initialization_options if isinstance(params.initialization_options, dict) else {}
    ls.configure(root, options)


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
@answering(None)
def did_open(ls: ZhuoseServer, params: lsp.DidOpenTextDocumentParams):
    doc = params.text_document
    path = ls.project.open(doc.uri, doc.version, doc.text)
    if path is not None:
        ls.publisher.opened(path)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
@answering(None)
def did_change(ls: ZhuoseServer, params: lsp.DidChangeTextDocumentParams):
    doc = ls.workspace.get_text_document(params.text_document.uri)
    path = ls.project.change(doc.uri, params.text_document.version, doc.source)
    if path is not None:
        ls.publisher.changed(path)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
@answering(None)
def did_save(ls: ZhuoseServer, params: lsp.DidSaveTextDocumentParams):
    path = ls.project.known(params.text_document.uri)
    if path is not None and path in ls.project.documents:
        ls.publisher.saved(path)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
@answering(None)
def did_close(ls: ZhuoseServer, params: lsp.DidCloseTextDocumentParams):
    path = ls.project.close(params.text_document.uri)
    if path is not None:
        ls.publisher.closed(path, params.text_document.uri)


@server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
@answering(None)
def did_change_watched_files(ls: ZhuoseServer, params: lsp.DidChangeWatchedFilesParams):
    if any(Path(path_of(c.uri) or "").name == "包.json" for c in params.changes):
        ls.project.ws.refresh_packages()
    for change in params.changes:
        path = path_of(change.uri)
        if path:
            ls.project.ws.file_changed(path)
    ls.publisher.refresh_all()


# ---------------------------------------------------------------- reading


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
@answering(None)
def on_hover(ls: ZhuoseServer, params: lsp.HoverParams):
    at = _located(ls, params)
    found = hover.hover(ls.project, at) if at else None
    if found is None:
        return None
    text, (start, end) = found
    base = at.item.start
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
                     range=lsp_range(ls.project.source(at.path), base + start, base + end))


def _definition(ls: ZhuoseServer, params, declaration: bool):
    at = _located(ls, params)
    site = navigation.definition(ls.project, at, declaration) if at else None
    return [_location(ls, site.path, site.start, site.end)] if site else None


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
@answering(None)
def on_definition(ls: ZhuoseServer, params: lsp.DefinitionParams):
    return _definition(ls, params, False)


@server.feature(lsp.TEXT_DOCUMENT_DECLARATION)
@answering(None)
def on_declaration(ls: ZhuoseServer, params: lsp.DeclarationParams):
    return _definition(ls, params, True)


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
@answering([])
def on_references(ls: ZhuoseServer, params: lsp.ReferenceParams):
    at = _located(ls, params)
    if at is None:
        return []
    found = navigation.references(ls.project, at, params.context.include_declaration)
    return [_location(ls, r.path, r.start, r.end) for r in found]


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
@answering([])
def on_highlight(ls: ZhuoseServer, params: lsp.DocumentHighlightParams):
    at = _located(ls, params)
    if at is None:
        return []
    source = ls.project.source(at.path)
    kinds = {"use": lsp.DocumentHighlightKind.Read}
    return [lsp.DocumentHighlight(range=lsp_range(source, r.start, r.end),
                                  kind=kinds.get(r.role, lsp.DocumentHighlightKind.Write))
            for r in navigation.highlights(ls.project, at)]


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
@answering(None)
def on_prepare_rename(ls: ZhuoseServer, params: lsp.PrepareRenameParams):
    at = _located(ls, params)
    if at is None:
        return None
    try:
        _, (start, end) = navigation.renamable(ls.project, at)
    except navigation.RenameRefused as why:
        raise RequestFailed(str(why)) from None
    return lsp_range(ls.project.source(at.path), start, end)


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
@answering(None)
def on_rename(ls: ZhuoseServer, params: lsp.RenameParams):
    at = _located(ls, params)
    if at is None:
        return None
    try:
        edits = navigation.rename(ls.project, at, params.new_name)
    except navigation.RenameRefused as why:
        raise RequestFailed(str(why)) from None
    return lsp.WorkspaceEdit(changes={
        ls.project.uri(path): [lsp.TextEdit(range=lsp_range(ls.project.source(path), s, e), new_text=t)
                               for s, e, t in sorted(found)]
        for path, found in edits.items()})


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["「", "中", "之"]))
@answering(None)
def on_completion(ls: ZhuoseServer, params: lsp.CompletionParams):
    at = _at(ls, params)
    if at is None:
        return None
    return lsp.CompletionList(is_incomplete=False, items=completion.complete(ls.project, *at))


@server.feature(lsp.TEXT_DOCUMENT_SIGNATURE_HELP,
                lsp.SignatureHelpOptions(trigger_characters=["于"], retrigger_characters=["」", "）"]))
@answering(None)
def on_signature_help(ls: ZhuoseServer, params: lsp.SignatureHelpParams):
    at = _at(ls, params)
    return signature.signature_help(ls.project, *at) if at else None


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@answering([])
def on_document_symbol(ls: ZhuoseServer, params: lsp.DocumentSymbolParams):
    path = ls.project.known(params.text_document.uri)
    return symbols.document_symbols(ls.project, path) if path else []


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
@answering([])
def on_formatting(ls: ZhuoseServer, params: lsp.DocumentFormattingParams):
    path = ls.project.known(params.text_document.uri)
    return formatting.formatting_edits(ls.project.source(path)) if path else []


@server.feature(lsp.TEXT_DOCUMENT_RANGE_FORMATTING)
@answering([])
def on_range_formatting(ls: ZhuoseServer, params: lsp.DocumentRangeFormattingParams):
    path = ls.project.known(params.text_document.uri)
    if path is None:
        return []
    return formatting.formatting_edits(ls.project.source(path), params.range.start.line, params.range.end.line)


LEGEND = lsp.SemanticTokensLegend(token_types=tokens.TOKEN_TYPES, token_modifiers=tokens.TOKEN_MODIFIERS)


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, lsp.SemanticTokensRegistrationOptions(
    legend=LEGEND, full=True, range=True))
@answering(lsp.SemanticTokens(data=[]))
def on_semantic_tokens(ls: ZhuoseServer, params: lsp.SemanticTokensParams):
    path = ls.project.known(params.text_document.uri)
    if path is None or ls.project.too_big(path):
        return lsp.SemanticTokens(data=[])
    return lsp.SemanticTokens(data=tokens.semantic_tokens(ls.project, path))


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE)
@answering(lsp.SemanticTokens(data=[]))
def on_semantic_tokens_range(ls: ZhuoseServer, params: lsp.SemanticTokensRangeParams):
    span = _span(ls, params)
    if span is None or ls.project.too_big(span[0]):
        return lsp.SemanticTokens(data=[])
    return lsp.SemanticTokens(data=tokens.semantic_tokens(ls.project, *span))


@server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT)
@answering([])
def on_inlay_hint(ls: ZhuoseServer, params: lsp.InlayHintParams):
    span = _span(ls, params)
    return hints.inlay_hints(ls.project, *span) if span else []


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
@answering([])
def on_code_action(ls: ZhuoseServer, params: lsp.CodeActionParams):
    span = _span(ls, params)
    out = []
    for fix in fixes.quick_fixes(ls.project, *span) if span else []:
        changes: dict[str, list[lsp.TextEdit]] = {}
        for file, s, e, text in fix.edits:
            changes.setdefault(ls.project.uri(file), []).append(
                lsp.TextEdit(range=lsp_range(ls.project.source(file), s, e), new_text=text))
        out.append(lsp.CodeAction(title=fix.title, kind=lsp.CodeActionKind.QuickFix, is_preferred=True,
                                  diagnostics=[to_lsp(ls.project, fix.diagnostic)],
                                  edit=lsp.WorkspaceEdit(changes=changes)))
    return out


# ---------------------------------------------------------------- custom requests


def _param(params, key: str):
    value = params.get(key) if isinstance(params, dict) else getattr(params, key, None)
    if not isinstance(value, str):
        raise JsonRpcInvalidParams(f"缺少参数「{key}」（字符串）")
    return value


@server.feature(PREVIEW)
@server.thread()   # a long translation must not hold up diagnostics and other requests
@answering(None)
def on_preview(ls: ZhuoseServer, params):
    """{uri, target: wgsl | msl | ptx} → {target, text, entries, errors}."""
    uri, target = _param(params, "uri"), _param(params, "target")
    path = ls.project.known(uri)
    if path is None:
        raise RequestFailed(f"不认识的文件：{uri}")
    try:
        return targets.preview(ls.project, path, target)
    except TargetUnavailable as why:
        raise RequestFailed(str(why)) from None


@server.feature(IMPORT)
@server.thread()
@answering(None)
def on_import(ls: ZhuoseServer, params):
    """{uri, text, 尽量?} of a WGSL document (any editor) → {text, problems: [{range, message}]}:
    `着色器 导入` for an open .wgsl; `text` is null when something was refused and 尽量 was not asked.
    The importer (and with it lark) is loaded on the first such request, not at start-up."""
    from ..compiler.importer import import_wgsl
    from ..compiler.source import SourceFile
    uri, text = _param(params, "uri"), _param(params, "text")
    best = params.get("尽量") if isinstance(params, dict) else getattr(params, "尽量", None)
    result = import_wgsl(text, best_effort=bool(best))
    source = SourceFile(path_of(uri) or uri, text)
    return {"text": result.text,
            "problems": [{"range": lsp_range(source, p.offset, p.offset), "message": p.message}
                         for p in result.problems]}


@server.feature(COUNTERS)
@answering(None)
def on_counters(ls: ZhuoseServer, params):
    """How much work the incremental core has done (for tests and benchmarks)."""
    return {**ls.project.ws.counters, "translations": ls.publisher.translations}


def _one_line(record: logging.LogRecord) -> bool:
    """A logged exception becomes one line: pygls logs every message it cannot
    read with a traceback, and hostile input must not fill the client's log."""
    message = record.getMessage()
    if record.exc_info and record.exc_info[1] is not None:
        err = record.exc_info[1]
        message = f"{message}: {type(err).__name__}: {err}"
    if "Traceback" in message or record.exc_info:
        lines = [line.strip() for line in message.splitlines() if line.strip()]
        message = lines[0] if len(lines) == 1 else f"{lines[0]} … {lines[-1]}"
        record.msg, record.args, record.exc_info, record.exc_text = message, (), None, None
    return True


def main() -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="着色语言服务 %(levelname)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(_one_line)
    server.start_io()
    return 0
