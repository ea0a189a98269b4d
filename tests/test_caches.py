"""The on-disk caches (compiler/cache.py): lark's parser tables and the
checked builtin interface.  Each test points ZHUOSE_CACHE_DIR at a fresh
temporary folder, so the user's own cache is neither read nor written."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from zhuose.compiler import cache
from zhuose.compiler.packages import builtin_root
from zhuose.compiler.workspace import Workspace
from frontend_util import PRELUDE, write

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
DOUBLE = SAMPLES / "加倍。着色器。豫"
USES_NEW_NAME = PRELUDE + "「g」乃化「无三二」为「无三二」者也。\n「g」者得「x」而「x」加「试常量」也。\n"
NEW_DECLARATION = "\n「试常量」乃「无三二」也。\n"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_ENV, str(folder))
    return folder


def builtin_checks(root, path) -> tuple[int, list[str]]:
    """How many modules a fresh workspace checked for `path`, and its error messages."""
    ws = Workspace(root)
    errors = [d.message for d in ws.diagnostics(path) if d.severity == "错误"]
    return ws.counters["module_checks"], errors


def test_a_fresh_workspace_loads_the_snapshot_instead_of_checking(cache_dir):
    assert builtin_checks(SAMPLES, DOUBLE) == (2, [])     # the interface and the sample
    assert any(p.name.startswith("builtin-") for p in cache_dir.iterdir())
    assert builtin_checks(SAMPLES, DOUBLE) == (1, [])     # the sample only


def test_editing_the_interface_rebuilds_the_snapshot(cache_dir, tmp_path):
    ws_root = tmp_path / "ws"
    shutil.copytree(builtin_root(), ws_root / "点染")    # the workspace's own 「点染」 wins
    write(ws_root, {"包.json": '{"名": "试", "依赖": ["点染"]}', "用。着色器。豫": USES_NEW_NAME})
    user = ws_root / "用。着色器。豫"
    checks, errors = builtin_checks(ws_root, user)
    assert checks == 2 and any("试常量" in m for m in errors)
    assert builtin_checks(ws_root, user)[0] == 1
    interface = ws_root / "点染" / "点染本。着色器。接口。豫"
    interface.write_text(interface.read_text(encoding="utf-8") + NEW_DECLARATION, encoding="utf-8")
    assert builtin_checks(ws_root, user) == (2, [])      # rebuilt: the new name is known
    assert builtin_checks(ws_root, user) == (1, [])
    assert len([p for p in cache_dir.iterdir() if p.name.startswith("builtin-")]) == 2


def test_a_new_version_rebuilds_the_snapshot(cache_dir, monkeypatch):
    assert builtin_checks(SAMPLES, DOUBLE)[0] == 2
    monkeypatch.setattr(cache, "VERSION", "999.0.0")
    assert builtin_checks(SAMPLES, DOUBLE) == (2, [])
    assert builtin_checks(SAMPLES, DOUBLE) == (1, [])


def run_cli(*args, env_cache: Path):
    env = dict(os.environ, **{cache.CACHE_ENV: str(env_cache)})
    return subprocess.run([sys.executable, "-m", "zhuose.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_corrupt_cache_falls_back_silently(cache_dir):
    golden = (SAMPLES / "加倍.wgsl").read_text(encoding="utf-8")
    first = run_cli("译", str(DOUBLE), env_cache=cache_dir)
    assert first.returncode == 0 and first.stdout == golden
    entries = list(cache_dir.iterdir())
    assert {p.name.split("-")[0] for p in entries} == {"lark", "builtin"}
    for p in entries:
        p.write_bytes(b"\x80\x05garbage" + p.read_bytes()[:100])
    again = run_cli("译", str(DOUBLE), env_cache=cache_dir)
    assert (again.returncode, again.stdout, again.stderr) == (0, golden, first.stderr)
    assert builtin_checks(SAMPLES, DOUBLE) == (1, [])    # and the rebuilt entries work


def test_an_unusable_cache_folder_is_no_error(tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    golden = (SAMPLES / "加倍.wgsl").read_text(encoding="utf-8")
    for _ in range(2):
        p = run_cli("译", str(DOUBLE), env_cache=not_a_folder / "cache")
        assert (p.returncode, p.stdout, p.stderr) == (0, golden, "加倍入口\t加倍\t计算\n")


WRITER = """
import sys
from zhuose.compiler import cache
payloads = [bytes([65]) * 3_000_000, bytes([66]) * 2_000_000]
for i in range(60):
    cache.write("entry", payloads[i % 2])
"""


def test_readers_never_see_a_half_written_entry(cache_dir):
    """One process rewrites an entry with two payloads while this one reads it."""
    writer = subprocess.Popen([sys.executable, "-c", WRITER], env=dict(os.environ))
    seen = set()
    try:
        while writer.poll() is None:
            data = cache.read("entry")
            if data is not None:
                assert data in (b"A" * 3_000_000, b"B" * 2_000_000)
                seen.add(data[:1])
    finally:
        writer.wait(timeout=120)
    assert writer.returncode == 0 and seen
    assert [p.name for p in cache_dir.iterdir()] == ["entry"]  # no temporary file left behind


def test_parallel_processes_share_an_empty_cache(cache_dir):
    golden = (SAMPLES / "加倍.wgsl").read_text(encoding="utf-8")
    env = dict(os.environ, **{cache.CACHE_ENV: str(cache_dir)})
    procs = [subprocess.Popen([sys.executable, "-m", "zhuose.cli", "译", str(DOUBLE)], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert (p.returncode, out, err) == (0, golden, "加倍入口\t加倍\t计算\n")
    assert sorted(p.name.split("-")[0] for p in cache_dir.iterdir()) == ["builtin", "lark"]
