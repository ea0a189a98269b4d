"""The subcommand `着色器 检查 文件…`: parse, resolve and type-check files and
their imports, printing every error once."""

from __future__ import annotations

import sys

from ..compiler.workspace import Workspace
from .common import Command, print_diagnostics, usage_problem


def _check(args) -> int:
    problems = [(path, usage_problem(path)) for path in args.文件]
    for _, problem in problems:
        if problem:
            sys.stderr.write(f"着色器：{problem}\n")
    ws = Workspace(".")
    errors, seen = [], set()
    for path, problem in problems:
        for d in [] if problem else ws.diagnostics(path):
            # a module two of the files import has its errors printed once
            if d.severity == "错误" and (d.path, d.start, d.message) not in seen:
                seen.add((d.path, d.start, d.message))
                errors.append(d)
    print_diagnostics(ws, errors)
    return 2 if any(problem for _, problem in problems) else 1 if errors else 0


def _files(p) -> None:
    p.add_argument("文件", nargs="+", help="着色源文件（名。着色器。豫 或 名。着色器。接口。豫），可以给多个")


CHECK = Command(
    "检查", ["check"], "只做语法分析、名称解析与类型检查，报告所有错误",
    "检查一个或多个着色源（名。着色器。豫）或着色内建声明（名。着色器。接口。豫）及它们导入的模块："
    "语法、名称、类型与顶层定义的分类规则，每个错误只报一次。都没有错误时退出码为 0，有错误时 1，"
    "有文件名不可用（不存在、后缀不对）时 2（其余文件照样检查）。",
    _files, _check)
