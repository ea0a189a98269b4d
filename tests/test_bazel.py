"""The Bazel rules (integrations/bazel) with Debian's bazel-bootstrap, offline:
the example workspace builds through the build service as a persistent
worker, an edit of an imported module reruns exactly the actions of the
shaders that import it, a no-op build runs nothing, and with workers off the
same action runs as a plain process.  One Bazel server for the whole test
(its output base under the test's tmp dir, shut down at the end).  Without
bazel on PATH this skips, saying so (`apt-get install -y bazel-bootstrap`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "integrations" / "bazel"

pytestmark = pytest.mark.skipif(shutil.which("bazel") is None,
                                reason="没有 bazel（apt-get install -y bazel-bootstrap 装上它），Bazel 规则的测试跳过")

#: Debian's bazel finds its install base through /etc/bazel/bazelrc, which --nosystem_rc skips
DEBIAN_INSTALL_BASE = Path("/usr/share/bazel")

#: nothing from the network: no system or home rc, no repository cache, no download (the rules come
#: from a local_repository; --nofetch would also refuse the embedded @bazel_tools).  Bazel 4 has no
#: bzlmod, so the WORKSPACE file is all it reads; a newer Bazel would also need --noenable_bzlmod
OFFLINE = ["--repository_cache=", "--experimental_repository_disable_download"]

EVERYTHING = {f"{name}.{ext}" for name in ("length", "double", "plus_one") for ext in ("wgsl", "ptx")}


class Bazel:
    def __init__(self, workspace: Path, tmp: Path) -> None:
        self.workspace, self.tmp, self.builds = workspace, tmp, 0
        self.startup = ["bazel", "--nosystem_rc", "--nohome_rc", f"--output_user_root={tmp / 'bazel-root'}",
                        "--max_idle_secs=120"]
        if (DEBIAN_INSTALL_BASE / "install_base_key").exists():
            self.startup += [f"--install_base={DEBIAN_INSTALL_BASE}", "--trust_install_base"]
        python_path = os.pathsep.join(p for p in sys.path if p and Path(p, "zhuose").is_dir())
        self.env = [f"--action_env=ZHUOSE_PYTHON={sys.executable}", f"--action_env=ZHUOSE_CACHE_DIR={tmp / '缓存'}",
                    f"--action_env=PYTHONPATH={python_path}", "--worker_max_instances=Zhuose=2"]

    def build(self, *flags: str) -> dict[str, str]:
        """Build everything; the outputs of the actions that ran, each with its runner (worker, local…)."""
        self.builds += 1
        log = self.tmp / f"execution{self.builds}.json"
        p = subprocess.run([*self.startup, "build", "//...", *OFFLINE, *self.env, *flags,
                            f"--execution_log_json_file={log}"],
                           cwd=self.workspace, capture_output=True, text=True, encoding="utf-8", timeout=240)
        assert p.returncode == 0, p.stderr[-4000:]
        return {Path(out).name: spawn["runner"] for spawn in _spawns(log) for out in spawn["listedOutputs"]}

    def shutdown(self) -> None:
        subprocess.run([*self.startup, "shutdown"], cwd=self.workspace, capture_output=True, timeout=60)


def _spawns(log: Path) -> list[dict]:
    """The spawns of an execution log: JSON objects one after another."""
    text, decoder, spawns, at = log.read_text(encoding="utf-8"), json.JSONDecoder(), [], 0
    while text[at:].strip():
        spawn, at = decoder.raw_decode(text, at + len(text[at:]) - len(text[at:].lstrip()))
        spawns.append(spawn)
    return spawns


@pytest.fixture(scope="module")
def bazel(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("bazel")
    workspace = tmp / "example"      # Bazel 4 cannot start with a non-ASCII output or workspace path
    shutil.copytree(RULES / "example", workspace)
    (workspace / "WORKSPACE").write_text(
        f'workspace(name = "zhuose_example")\nlocal_repository(name = "zhuose", path = {json.dumps(str(RULES))})\n',
        encoding="utf-8")
    runner = Bazel(workspace, tmp)
    yield runner
    runner.shutdown()


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_bazel_builds_through_the_worker_and_rebuilds_exactly_the_dependents(bazel):
    ws = bazel.workspace
    assert bazel.build() == dict.fromkeys(EVERYTHING, "worker")
    bin_dir = ws / "bazel-bin"
    assert "fn 量" in (bin_dir / "length.wgsl").read_text(encoding="utf-8")
    assert ".entry" in (bin_dir / "double.ptx").read_text(encoding="utf-8")
    assert bazel.build() == {}                                   # no-op: nothing runs

    # the body of 数学/几何/向量 changes: only 应用/长度 imports it
    _edit(ws / "数学/几何/向量。着色器。豫", "「点积」于「v」于「v」", "（「点积」于「v」于「v」）乘「新浮三二」于「二」")
    assert bazel.build() == {"length.wgsl": "worker", "length.ptx": "worker"}
    assert "2.0" in (bin_dir / "length.wgsl").read_text(encoding="utf-8")
    assert bazel.build() == {}

    # a comment in 数学/缩放: its importer's actions run (an input changed), nothing else
    before = (bin_dir / "double.wgsl").read_text(encoding="utf-8")
    _edit(ws / "数学/缩放。着色器。豫", "「：一个数的两倍：」", "「：一个数的两倍（注释）：」")
    assert bazel.build() == {"double.wgsl": "worker", "double.ptx": "worker"}
    assert (bin_dir / "double.wgsl").read_text(encoding="utf-8") == before

    # workers off: the same action as a plain process (the parameter file, one request)
    _edit(ws / "应用/加一。着色器。豫", "「新无三二」于「一」", "「新无三二」于「二」")
    assert bazel.build("--strategy=Zhuose=local") == {"plus_one.wgsl": "local", "plus_one.ptx": "local"}
    assert "2u" in (bin_dir / "plus_one.wgsl").read_text(encoding="utf-8")

    # a translation error fails the action and names the source
    _edit(ws / "应用/加一。着色器。豫", "「读数组」", "「读数阻」")
    p = subprocess.run([*bazel.startup, "build", "//:plus_one", *OFFLINE, *bazel.env], cwd=ws,
                       capture_output=True, text=True, encoding="utf-8", timeout=240)
    assert p.returncode != 0 and "读数阻" in p.stderr, p.stderr[-3000:]
