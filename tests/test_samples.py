"""The sample programs under samples/ are the front end's evidence (see samples/README.md).

* Every clean sample (每个 `名。着色器。豫` outside `samples/错误/`, plus user interface
  files `名。着色器。接口。豫`) passes `着色器 检查` with exit status 0 and nothing on
  stderr.  The command runs with `samples/` as the current directory (the workspace
  root of every sample package), the file given by its path relative to it.
* Every error sample (a `名。着色器。豫` under `samples/错误/` with a golden `名。错误`
  beside it) exits with status 1 and prints exactly the golden's lines on stderr.
  The command runs in the sample's own folder, the file given by its bare name.
* There are at least 30 non-empty clean programs, so the evidence cannot silently
  shrink, and no error sample directly in `samples/错误/` lacks its golden.

The command line is run in a subprocess, exactly as a user runs it:
`python -m zhuose.cli 检查 文件`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
ERRORS = SAMPLES / "错误"
SHADER = "。着色器。豫"
INTERFACE = "。着色器。接口。豫"
GOLDEN = "。错误"
MIN_CLEAN_PROGRAMS = 30


def _is_error_path(path: Path) -> bool:
    return ERRORS in path.parents


def clean_samples() -> list[Path]:
    found = [p for p in SAMPLES.rglob("*") if p.is_file()
             and (p.name.endswith(SHADER) or p.name.endswith(INTERFACE)) and not _is_error_path(p)]
    return sorted(found)


def error_goldens() -> list[Path]:
    return sorted(ERRORS.rglob("*" + GOLDEN))


def _source_of(golden: Path) -> Path:
    return golden.with_name(golden.name[: -len(GOLDEN)] + SHADER)


def _check(path: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "zhuose.cli", "检查", path],
                          cwd=cwd, capture_output=True, timeout=120, env=env)


@pytest.mark.parametrize("sample", clean_samples(),
                         ids=lambda p: p.relative_to(SAMPLES).as_posix())
def test_clean_sample(sample: Path) -> None:
    result = _check(sample.relative_to(SAMPLES).as_posix(), SAMPLES)
    stderr = result.stderr.decode("utf-8", errors="replace")
    assert (result.returncode, stderr) == (0, ""), f"「{sample.name}」应当没有错误，却报了：\n{stderr}"


@pytest.mark.parametrize("golden", error_goldens(),
                         ids=lambda p: p.relative_to(SAMPLES).as_posix()[: -len(GOLDEN)])
def test_error_sample(golden: Path) -> None:
    source = _source_of(golden)
    assert source.is_file(), f"期望的报错文件「{golden.name}」旁边没有着色源「{source.name}」"
    result = _check(source.name, source.parent)
    expected = golden.read_text(encoding="utf-8")
    actual = result.stderr.decode("utf-8", errors="replace")
    assert actual == expected, f"「{source.name}」的报错与「{golden.name}」不同"
    assert result.returncode == 1


def test_enough_clean_programs() -> None:
    programs = [p for p in clean_samples() if p.name.endswith(SHADER) and p.read_bytes().strip()]
    assert len(programs) >= MIN_CLEAN_PROGRAMS, f"只有 {len(programs)} 个非空的正确样例"


def test_every_error_sample_has_a_golden() -> None:
    """Shader sources directly in 错误/ are error samples and need a golden; in
    sub-folders (packages of one error sample) a source without one is a helper
    module that the sample imports."""
    missing = [p.name for p in sorted(ERRORS.glob("*" + SHADER))
               if not p.with_name(p.name[: -len(SHADER)] + GOLDEN).is_file()]
    assert not missing, f"这些错误样例缺少期望的报错文件（名。错误）：{'、'.join(missing)}"
    assert error_goldens(), "samples/错误/ 里没有错误样例"
