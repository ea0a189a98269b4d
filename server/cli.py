"""The `着色器 服务` subcommand: the language server on stdio.

`着色器 服务 --构建` is the build mode (serving generated modules to a build,
seed 着二); it lives in compiler/generate/: the module named by BUILD_MODE
exposes `serve_build(stdin, stdout, workspace) -> int`, and this command only
hands over to it.
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: the module that implements `着色器 服务 --构建` (its `serve_build`)
BUILD_MODE = "zhuose.compiler.generate.service"


def serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--构建", action="store_true", dest="build",
                   help="构建模式：为构建提供生成的模块（名。着色生成。豫），而不是编辑器的语言服务")


def serve(args: argparse.Namespace) -> int:
    if args.build:
        return _build_mode()
    from .server import main
    return main()


def _build_mode() -> int:
    try:
        module = importlib.import_module(BUILD_MODE)
    except ModuleNotFoundError as err:
        if not BUILD_MODE.startswith(err.name or "\0"):
            raise
        sys.stderr.write("着色器：服务 --构建 尚未实现（它属于 compiler/generate/）\n")
        return 2
    from ..compiler.workspace import Workspace
    return module.serve_build(sys.stdin, sys.stdout, Workspace("."))
