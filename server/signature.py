"""Signature help for 于-chains: in 「f」于 甲 于 乙 …, which function is being
applied and which of its parameters the cursor is on.

Read from the tokens before the cursor (the call being typed does not parse
yet): going back at one parenthesis depth, every 于 is one argument, and the
chain starts at the name after the last token that cannot be part of it.
A chain with only 以 (「转换」以▮, a type argument being written) is on its
first argument.
"""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types as lsp

from ..compiler import query
from ..compiler.source import utf16_length
from ..compiler.syntax.lexer import Token, lex, name_content
from ..compiler.types import resolve
from .hover import binders_text, plain
from .project import Project

#: tokens that may stand inside an application chain (besides parentheses)
CHAIN = {"NAME", "STRING", "APPLY", "TYARG", "PROJ", "OF"}
OPENING, CLOSING = {"LPAR", "LBRACK"}, {"RPAR", "RBRACK"}


@dataclass
class Call:
    head: str           # the function's name
    module: str | None  # 「模块」之「名」
    argument: int       # zero-based index of the argument under the cursor


def call_before(tokens: list[Token]) -> Call | None:
    depth, applies, type_args, i = 0, 0, 0, len(tokens) - 1
    while i >= 0:
        t = tokens[i].type
        if t in CLOSING:
            depth += 1
        elif t in OPENING:
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and t not in CHAIN:
            break
        elif depth == 0 and t == "APPLY":
            applies += 1
        elif depth == 0 and t == "TYARG":
            type_args += 1
        i -= 1
    chain = tokens[i + 1:]
    # 「转换」以▮: a type argument being written, before the first 于
    if (applies == 0 and type_args == 0) or not chain or chain[0].type != "NAME":
        return None
    argument = max(applies - 1, 0)
    if len(chain) >= 3 and chain[1].type == "OF" and chain[2].type == "NAME":
        return Call(name_content(chain[2].value), name_content(chain[0].value), argument)
    return Call(name_content(chain[0].value), None, argument)


class SignatureWriter:
    def __init__(self, project: Project, path: str, offset: int) -> None:
        self.project = project
        self.path = path
        self.offset = offset
        self.checked = project.checked(path)

    def help(self) -> lsp.SignatureHelp | None:
        if self.checked is None:
            return None
        start, result = self.project.item_being_typed(self.checked, self.offset)
        tokens, _ = lex(self.project.source(self.path).text, start, self.offset)
        call = call_before(tokens)
        if call is None:
            return None
        found = self.local_function(call, result, start) or self.global_function(call)
        if found is None:
            return None
        label, params, doc = found
        return lsp.SignatureHelp(
            signatures=[lsp.SignatureInformation(
                label=label, parameters=params,
                documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=plain(doc)) if doc else None)],
            active_signature=0, active_parameter=min(call.argument, max(0, len(params) - 1)))

    def local_function(self, call: Call, result, item_start: int):
        if call.module is not None or result is None:
            return None
        fun = query.local_function_before(result.decl, call.head, self.offset - item_start)
        if fun is None:
            return None
        return self.label(call.head, [p.type for p in fun.params], fun.result, [p.name for p in fun.params], "局部函数")

    def global_function(self, call: Call):
        entry = query.function_entry(self.checked.scope, call.module, call.head)
        if entry is None:
            return None
        t = resolve(entry.type)
        return self.label(call.head, list(t.params), t.result, [None] * len(t.params), entry.doc,
                          binders_text(entry.type_params))

    def label(self, name: str, params, result, names, doc: str, binders: str = ""):
        """「名」乃凡…而化 甲 又化 乙 为 结果 者, with each parameter's span."""
        show = self.project.printer(self.checked)
        text = f"「{name}」乃{binders}"
        infos = []
        for i, (p, pname) in enumerate(zip(params, names)):
            text += "化" if i == 0 else "又化"
            piece = show.show(p)
            begin = utf16_length(text)
            text += piece
            infos.append(lsp.ParameterInformation(label=(begin, begin + utf16_length(piece)),
                                                  documentation=f"「{pname}」" if pname else None))
        text += (f"而{show(result)}" if len(params) == 1 else f"为{show(result)}者")
        return text, infos, doc


def signature_help(project: Project, path: str, offset: int) -> lsp.SignatureHelp | None:
    return SignatureWriter(project, path, offset).help()
