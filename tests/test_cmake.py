"""The CMake module (integrations/cmake/ZhuoseShaders.cmake) with Ninja: the
two-package example builds, an edit of an imported module reruns exactly
the commands of the sources that import it, and a no-op build runs nothing.
cmake and ninja come from the test extras (pip); without them this skips."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "integrations" / "cmake" / "example"

pytestmark = pytest.mark.skipif(not (shutil.which("cmake") and shutil.which("ninja")),
                                reason="没有 cmake 或 ninja（pip install -e '.[test]' 装上它们）")


def _run(cwd: Path, *args: str) -> str:
    env = dict(os.environ, ZHUOSE_CACHE_DIR=str(cwd.parent / "缓存"))
    p = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, encoding="utf-8")
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def _ran(output: str) -> set[str]:
    """The shader commands a ninja run printed (their COMMENT: 着色 目标 源)."""
    return set(re.findall(r"^\[\d+/\d+\] 着色 (\w+ \S+)$", output, re.M))


@pytest.fixture
def build(tmp_path):
    source = tmp_path / "源 码"          # a space in every path
    shutil.copytree(EXAMPLE, source)
    folder = tmp_path / "构建"
    folder.mkdir()
    command = ";".join([sys.executable, "-m", "zhuose.cli"])
    _run(folder, "cmake", "-G", "Ninja", str(source), f"-DZHUOSE_COMMAND={command}",
         f"-DZHUOSE_CMAKE_DIR={EXAMPLE.parent}")
    return source, folder


def _stamps(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in (folder / "zhuose" / "应用").iterdir() if not p.name.endswith(".d")}


def test_ninja_rebuilds_exactly_what_an_edit_affects(build):
    source, folder = build
    everything = {f"{kind} 应用/{name}。着色器。豫" for kind in ("wgsl", "ptx") for name in ("长度", "加倍", "加一")}
    assert _ran(_run(folder, "ninja")) == everything
    wgsl = (folder / "zhuose/应用/长度.wgsl").read_text(encoding="utf-8")
    assert "fn 量" in wgsl and "dot(" in wgsl
    assert "no work to do" in _run(folder, "ninja")

    vector = source / "数学/几何/向量。着色器。豫"
    vector.write_text(vector.read_text(encoding="utf-8").replace(
        "「点积」于「v」于「v」", "（「点积」于「v」于「v」）乘「新浮三二」于「二」"), encoding="utf-8")
    before = _stamps(folder)
    assert _ran(_run(folder, "ninja")) == {"wgsl 应用/长度。着色器。豫", "ptx 应用/长度。着色器。豫"}
    after = _stamps(folder)
    assert {name for name in after if after[name] != before[name]} == {"长度.wgsl", "长度.ptx"}
    assert "no work to do" in _run(folder, "ninja")

    # a comment in 数学/缩放: its importer's commands run, find the same text and leave the outputs alone
    scale = source / "数学/缩放。着色器。豫"
    scale.write_text(scale.read_text(encoding="utf-8") + "「：注释：」\n", encoding="utf-8")
    assert _ran(_run(folder, "ninja")) == {"wgsl 应用/加倍。着色器。豫", "ptx 应用/加倍。着色器。豫"}
    assert _stamps(folder) == after
    assert "no work to do" in _run(folder, "ninja")

    # a package's manifest is a dependency of every file of that package that was translated
    manifest = source / "应用/包.json"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert _ran(_run(folder, "ninja")) == everything


def test_a_translation_error_fails_the_build_at_the_source(build):
    source, folder = build
    kernel = source / "应用/加一。着色器。豫"
    kernel.write_text(kernel.read_text(encoding="utf-8").replace("「加」", "「减」").replace("）加（", "）加加（"),
                      encoding="utf-8")
    env = dict(os.environ, ZHUOSE_CACHE_DIR=str(folder.parent / "缓存"))
    p = subprocess.run(["ninja"], cwd=folder, env=env, capture_output=True, text=True, encoding="utf-8")
    assert p.returncode != 0 and "加一。着色器。豫:" in p.stdout
