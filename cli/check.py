"""The subcommand `着色器 检查 文件`: parse, resolve and type-check a file and
its imports, printing every error."""

from __future__ import annotations

import sys

from ..compiler.workspace import Workspace
from .common import Command, file_argument, print_diagnostics, usage_problem


def _check(args) -> int:
    problem = usage_problem(args.文件)
    if problem:
        sys.stderr.write(f"着色器：{problem}\n")
        return 2
    ws = Workspace(".")
    errors = [d for d in ws.diagnostics(args.文件) if d.severity == "错误"]
    print_diagnostics(ws, errors)
    return 1 if errors else 0


CHECK = Command(
    "检查", ["check"], "只做语法分析、名称解析与类型检查，报告所有错误",
    "检查一个着色源（名。着色器。豫）或着色内建声明（名。着色器。接口。豫）及它导入的模块："
    "语法、名称、类型与顶层定义的分类规则。没有错误时退出码为 0。",
    file_argument, _check)
