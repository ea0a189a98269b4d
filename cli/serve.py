"""The `着色器 服务` subcommand: the language server on stdio, or with
`--构建` the build service of compiler/generate/service.py (serving generated
modules to a build, seed 着二)."""

from __future__ import annotations

import argparse
import sys

from .common import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--构建", "--build", action="store_true", dest="build",
                   help="构建模式：为构建提供生成的模块（名。着色生成。豫），而不是编辑器的语言服务")
    p.add_argument("--persistent_worker", action="store_true", dest="worker",
                   help="与 --构建 同用：作 Bazel 的持久工作进程（JSON 工作协议，integrations/bazel）")
    p.add_argument("参数文件", nargs="?", metavar="@参数文件",
                   help="与 --构建 同用：只做参数文件里的一个请求（Bazel 不用工作进程时的普通动作）")


def _serve(args: argparse.Namespace) -> int:
    if args.worker or args.参数文件:
        return _bazel(args)
    if args.build:
        from ..compiler.generate.service import serve_build
        return serve_build(sys.stdin, sys.stdout, ".")
    from ..server.server import main
    return main()


def _bazel(args: argparse.Namespace) -> int:
    from ..compiler.generate import worker
    if not args.build or args.参数文件 and (args.worker or not args.参数文件.startswith("@")):
        print("用法：着色器 服务 --构建 --persistent_worker，或 着色器 服务 --构建 @参数文件", file=sys.stderr)
        return 2
    if args.worker:
        return worker.serve_worker(sys.stdin.fileno(), sys.stdout, ".")
    return worker.run_once(args.参数文件[1:], sys.stderr, ".")


SERVE = Command(
    "服务", ["serve"], "启动语言服务（LSP，经标准输入输出），供编辑器使用",
    "启动着色的语言服务：诊断、悬停、跳转、引用、改名、补全、签名提示、语义着色、"
    "类型提示与快速修复，以及预览生成的代码（请求 着色/预览）。经标准输入输出说 LSP，"
    "工作区根目录取自编辑器，否则为当前目录。",
    _arguments, _serve)
