"""What the subcommands share: the Command record, the file argument, and
printing paths, diagnostics and translations."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..compiler import LIVE_HEAP_COLLECTOR, ledger
from ..compiler.packages import is_shader_file

if TYPE_CHECKING:   # the checker is imported by the commands that check, not by every command
    from ..compiler.diagnostics import Diagnostic
    from ..compiler.workspace import Workspace


@dataclass
class Command:
    """One subcommand: its Chinese name, ASCII aliases, help and handler."""

    name: str
    aliases: list[str]
    help: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def ascii_integer(text: str) -> int:
    """An integer written in ASCII digits: int() also reads １ and ٣, which the language does not."""
    if not text.strip().isascii():
        raise ValueError(f"not ASCII: {text!r}")
    return int(text)


def file_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("文件", help="着色源文件（名。着色器。豫）")


def details_argument(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--详细", action="store_true", help=f"入口表每行另加第四列：{what}")


def shown_path(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def print_diagnostics(ws: Workspace, diags: list[Diagnostic], stream=None) -> None:
    stream = stream or sys.stderr
    for d in sorted(diags, key=lambda d: (d.path, d.start)):
        stream.write(d.format(ws.source(d.path), shown_path(d.path)) + "\n")


def usage_problem(path: str) -> str | None:
    """Why a path given on the command line cannot be used (exit status 2)."""
    if Path(path).is_dir():
        return f"「{path}」是文件夹，不是着色文件"
    if not Path(path).is_file():
        return f"找不到文件「{path}」"
    if not is_shader_file(path):
        return f"「{path}」不是着色文件：后缀须是「。着色器。豫」或「。着色器。接口。豫」"
    return None


def _refused(path: str) -> bool:
    """Whether `path` cannot be used, after printing why (exit status 2)."""
    problem = usage_problem(path)
    if problem:
        sys.stderr.write(f"着色器：{problem}\n")
    return problem is not None


def translated(path: str, target: str):
    """(workspace, translation) of a file, or (None, exit status) after
    printing why not: the shared first half of 译, 金属, 千手 and 运行."""
    return (None, 2) if _refused(path) else _translation(path, target)


def _translation(path: str, target: str):
    """`translated` of a path known to be usable."""
    gc.set_threshold(*LIVE_HEAP_COLLECTOR)   # a command that translates once keeps what it made
    from ..compiler.backends import translate
    from ..compiler.workspace import Workspace
    ws = Workspace(".")
    result = translate(ws, path, target)
    if result.text is None:
        print_diagnostics(ws, result.diagnostics)
        return None, 1
    return (ws, result), 0


def print_translation(path: str, target: str, details: Callable | None = None) -> int:
    """Target text on stdout; on stderr one entry-table line per entry,
    `入口项名<TAB>函数名<TAB>阶段` as LANGUAGE.md §8 pins it, plus a fourth
    column of host details when `details` is given (the --详细 option).
    When no input changed since the last run (the ledger says), the same
    output is printed again without checking anything."""
    if _refused(path):
        return 2
    book = ledger.Ledger("translate")
    entry_key = f"{target}{' --详细' if details else ''}\t{os.path.realpath(path)}"
    last = book.current(entry_key)
    if last is not None:
        sys.stdout.write(last["text"])
        sys.stderr.write(last["table"])
        return 0
    done, status = _translation(path, target)
    if done is None:
        return status
    ws, result = done
    table = "".join(f"{e.item}\t{e.function}\t{e.stage}" + (f"\t{extra}" if (extra := details(e) if details else "") else "")
                    + "\n" for e in result.entries)
    sys.stdout.write(result.text)
    sys.stderr.write(table)
    book.remember(entry_key, ledger.workspace_inputs(ws, path), text=result.text, table=table)
    book.save()
    return 0
