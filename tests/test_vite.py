"""The Vite plugin (integrations/vite/): `vite build` of the WebGPU example
app bundles the kernel's generated module; the built page dispatches it in
headless Chromium (WebGPU on SwiftShader, driven over the DevTools protocol
through --remote-debugging-pipe) and reads back the doubled numbers; the dev
server answers an edit of an imported module with the new module, and a
translation error with the tool's Chinese message at 文件:行:列.

Needs the example's node packages (`cd integrations/vite/example && npm ci`,
as the README's test command does) and, for the page, the Debian package
`chromium`; without them the tests skip, except on CI (CI=true), where they fail."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "integrations" / "vite" / "example"
VITE = EXAMPLE / "node_modules" / ".bin" / "vite"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ON_CI = os.environ.get("CI") == "true"


def _needs(ready: bool, why: str):
    if not ready:
        if ON_CI:
            pytest.fail(f"CI 上缺少{why}")
        pytest.skip(f"没有{why}")


def _env(tmp_path: Path) -> dict:
    return dict(os.environ, ZHUOSE_COMMAND=f"{sys.executable} -m zhuose.cli", ZHUOSE_CACHE_DIR=str(tmp_path / "缓存"))


def _copy_example(tmp_path: Path) -> Path:
    """The example app in a folder of its own (the test edits it), sharing the installed packages."""
    app = tmp_path / "应用"
    shutil.copytree(EXAMPLE, app, ignore=shutil.ignore_patterns("node_modules", "dist"))
    (app / "node_modules").symlink_to(EXAMPLE / "node_modules", target_is_directory=True)
    return app


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """`vite build` of the example: the dist folder."""
    _needs(VITE.exists(), " integrations/vite/example 的 node 包（npm ci）")
    tmp = tmp_path_factory.mktemp("vite")
    app = _copy_example(tmp)
    p = subprocess.run([str(VITE), "build", "--outDir", str(tmp / "dist")], cwd=app, env=_env(tmp),
                       capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    return tmp / "dist"


def test_vite_build_bundles_the_kernel_with_its_imported_module(built):
    bundle = "".join(p.read_text(encoding="utf-8") for p in (built / "assets").glob("*.js"))
    assert "fn 加倍(" in bundle and "fn 倍数(" in bundle and '"加倍"' in bundle
    assert (built / "index.html").exists()


# ---------------------------------------------------------------- the page in Chromium


class DevTools:
    """The DevTools protocol over Chromium's --remote-debugging-pipe (file
    descriptors 3 and 4, messages ending in NUL): no WebSocket library needed."""

    def __init__(self, profile: Path) -> None:
        to_browser_r, self._write = os.pipe()
        self._read, from_browser_w = os.pipe()
        flags = ["--headless=new", "--enable-unsafe-webgpu", "--enable-unsafe-swiftshader",
                 "--use-webgpu-adapter=swiftshader", "--no-sandbox", "--disable-gpu-sandbox",
                 "--no-first-run", "--remote-debugging-pipe", f"--user-data-dir={profile}", "about:blank"]
        self.process = subprocess.Popen(
            [CHROMIUM, *flags], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4), preexec_fn=functools.partial(_place_fds, to_browser_r, from_browser_w))
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next = 0

    def call(self, method: str, session: str | None = None, **params) -> dict:
        self._next += 1
        message = {"id": self._next, "method": method, "params": params, **({"sessionId": session} if session else {})}
        os.write(self._write, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self._buffer:
                chunk = os.read(self._read, 1 << 16)
                assert chunk, "Chromium 关闭了调试管道"
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self._next:
                assert "error" not in reply, reply["error"]
                return reply["result"]

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        os.close(self._write)
        os.close(self._read)


def _place_fds(to_browser: int, from_browser: int) -> None:
    """In the child: the pipe Chromium reads on 3, the one it writes on 4."""
    os.dup2(to_browser, 3)
    os.dup2(from_browser, 4)


@contextlib.contextmanager
def _served(folder: Path):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_the_built_page_dispatches_the_kernel_in_headless_chromium(built, tmp_path):
    _needs(CHROMIUM is not None, "chromium（apt-get install chromium）")
    with _served(built) as url:
        browser = DevTools(tmp_path / "配置")
        try:
            target = browser.call("Target.createTarget", url=url)["targetId"]
            session = browser.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            result = None
            deadline = time.monotonic() + 60
            while result is None and time.monotonic() < deadline:
                found = browser.call("Runtime.evaluate", session, expression="window.着色结果", returnByValue=True)
                result = found["result"].get("value")
                if result is None:
                    time.sleep(0.2)
        finally:
            browser.close()
    assert result is not None, "页面 60 秒内没有写出结果"
    assert "错误" not in result, result["错误"]
    assert result["输出"] == [(x * 2) % 2**32 for x in result["输入"]]
    assert result["输入"] == [0, 1, 2, 3, 4, 5, 6, 2**32 - 1]


# ---------------------------------------------------------------- the dev server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


_LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))    # loopback only, never a proxy


def _get(url: str) -> tuple[int, str]:
    """(status, body); status 0 while nothing listens yet."""
    try:
        with _LOCAL.open(url, timeout=30) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode("utf-8", "replace")
    except (urllib.error.URLError, ConnectionError):
        return 0, ""


def _until(url: str, wanted, seconds: float = 30) -> tuple[int, str]:
    deadline = time.monotonic() + seconds
    while True:
        answer = _get(url)
        if wanted(*answer) or time.monotonic() > deadline:
            return answer
        time.sleep(0.2)


@pytest.fixture
def dev_server(tmp_path):
    _needs(VITE.exists(), " integrations/vite/example 的 node 包（npm ci）")
    app = _copy_example(tmp_path)
    port = _free_port()
    server = subprocess.Popen([str(VITE), "--host", "127.0.0.1", "--port", str(port), "--strictPort"], cwd=app,
                              env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/"
    try:
        _until(base, lambda status, _: status == 200)
        yield app, base
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def test_the_dev_server_serves_the_new_module_after_an_edit_of_an_import(dev_server):
    app, base = dev_server
    url = base + urllib.parse.quote("着色/加倍。着色器。豫")
    status, first = _get(url)
    assert status == 200 and "x * 2u" in first and "export const 着色源" in first
    factor = app / "着色/倍数。着色器。豫"
    factor.write_text(factor.read_text(encoding="utf-8").replace("「二」", "「三」"), encoding="utf-8")
    status, second = _until(url, lambda status, text: "x * 3u" in text)
    assert status == 200 and "x * 3u" in second

    kernel = app / "着色/加倍。着色器。豫"
    kernel.write_text(kernel.read_text(encoding="utf-8").replace("「倍数」于（", "「倍率」于（"), encoding="utf-8")
    status, failed = _until(url, lambda status, text: status >= 400)
    assert status == 500 and "未知的名字「倍率」" in failed and "加倍。着色器。豫" in failed
