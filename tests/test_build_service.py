"""The build service with many clients and cancellation (docs/生成.md,
构建服务): one BuildService answering from many threads at once, several
service processes sharing one workspace and user cache, {"取消": 编号} for a
request waiting behind another and for one being answered, and protocol 2's
目标/输出 requests (one target's text written to one file)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from support.generate_fakes import DOUBLE, PRELUDE, fake, write  # noqa: F401 (fixture)

from zhuose.compiler.generate import api
from zhuose.compiler.generate.service import BuildService, serve_build
from zhuose.compiler.workspace import Workspace

LIBRARY = PRELUDE + "「倍数」者「新无三二」于「二」也。\n"
SOURCES = {f"核{i}。着色器。豫": DOUBLE.replace(PRELUDE, PRELUDE + "寻观「试」之「库」之书。\n")
           .replace("「加倍」", f"「加倍{i}」") for i in range(4)}


def _workspace(root) -> None:
    write(root, {"包.json": '{"名": "试", "依赖": ["点染"]}', "库。着色器。豫": LIBRARY, **SOURCES})


def _request(file: str, **more) -> str:
    return json.dumps({"协议": 2, "文件": file, **more}, ensure_ascii=False)


def test_many_threads_share_one_service(tmp_path, fake):
    _workspace(tmp_path)
    service = BuildService(Workspace(tmp_path))
    alone = {f: BuildService(Workspace(tmp_path)).answer(_request(f))["模块"] for f in SOURCES}
    jobs = [(f, out) for _ in range(6) for f in SOURCES for out in (None, "产物")]
    with ThreadPoolExecutor(max_workers=8) as pool:
        replies = list(pool.map(lambda job: service.answer(_request(job[0], 输出目录=job[1]) if job[1]
                                                           else _request(job[0])), jobs))
    for (file, out), reply in zip(jobs, replies):
        assert reply["错误"] == [] and reply["模块"] == alone[file], reply
        assert reply["依赖"] and all(os.path.isabs(d) for d in reply["依赖"])
        assert str(tmp_path / "库。着色器。豫") in reply["依赖"]
    for file in SOURCES:                     # each output written once, whole
        written = tmp_path / "产物" / file.replace("着色器", "着色生成")
        assert written.read_text(encoding="utf-8") == alone[file]
    assert sum(r["改动"] for r, (_, out) in zip(replies, jobs) if out) == len(SOURCES)


def test_several_service_processes_share_the_workspace_and_the_cache(tmp_path):
    _workspace(tmp_path)
    env = dict(os.environ, ZHUOSE_CACHE_DIR=str(tmp_path / "缓存"))
    lines = "".join(_request(f, 编号=i, 输出目录="产物") + "\n" for i, f in enumerate(SOURCES)).encode()
    services = [subprocess.Popen([sys.executable, "-m", "zhuose.cli", "serve", "--构建"], cwd=tmp_path, env=env,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for _ in range(3)]
    answers = [[json.loads(line) for line in s.communicate(lines, timeout=240)[0].decode().splitlines()]
               for s in services]
    texts = [{r["编号"]: r["模块"] for r in replies} for replies in answers]
    assert all(r["错误"] == [] for replies in answers for r in replies)
    assert texts[0] == texts[1] == texts[2] and len(texts[0]) == len(SOURCES)
    # the ledger they all wrote is whole: a new service answers every file from it
    again = subprocess.run([sys.executable, "-m", "zhuose.cli", "serve", "--构建"], cwd=tmp_path, env=env,
                           input=lines, capture_output=True, timeout=240)
    replies = [json.loads(line) for line in again.stdout.decode().splitlines()]
    assert {r["编号"]: r["模块"] for r in replies} == texts[0] and not any(r["改动"] for r in replies)


class Gate:
    """Holds the generation of 核0 until opened (a long request to cancel or to queue behind)."""

    def __init__(self, monkeypatch) -> None:
        self.started, self.opened = threading.Event(), threading.Event()
        generate = api.Generator.generate

        def held(gen, path):
            if "核0" in str(path):
                self.started.set()
                assert self.opened.wait(60)
            return generate(gen, path)

        monkeypatch.setattr(api.Generator, "generate", held)


def _serve(tmp_path, lines) -> list[dict]:
    stdout = io.StringIO()
    serve_build(lines, stdout, Workspace(tmp_path))
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


def test_a_waiting_request_is_cancelled_and_a_running_one_writes_nothing(tmp_path, fake, monkeypatch):
    _workspace(tmp_path)
    gate = Gate(monkeypatch)

    def lines():
        yield _request("核0。着色器。豫", 编号="跑", 输出目录="产物")       # held while running
        yield _request("核1。着色器。豫", 编号="等", 输出目录="产物")       # waits behind it
        assert gate.started.wait(60)
        yield json.dumps({"取消": "等"}, ensure_ascii=False)
        yield json.dumps({"取消": "跑"}, ensure_ascii=False)
        yield json.dumps({"取消": "没有这个"}, ensure_ascii=False)          # nothing to cancel: no reply
        yield json.dumps({"取消": [1]}, ensure_ascii=False)                 # malformed: an error reply
        gate.opened.set()
        yield _request("核2。着色器。豫", 编号="后", 输出目录="产物")

    replies = {r["编号"]: r for r in _serve(tmp_path, lines())}
    assert set(replies) == {"跑", "等", "后", None}
    for number in ("跑", "等"):
        assert replies[number]["已取消"] is True and replies[number]["错误"] == ["请求已取消"]
        assert replies[number]["模块"] is None and replies[number]["输出"] is None
    assert replies["跑"]["依赖"]           # it had got as far as knowing its dependencies
    assert replies["后"]["已取消"] is False and replies["后"]["错误"] == []
    assert sorted(p.name for p in (tmp_path / "产物").iterdir()) == ["核2。着色生成。豫"]
    assert "「取消」须是" in replies[None]["错误"][0]


def test_a_cancellation_after_the_reply_changes_nothing(tmp_path, fake):
    _workspace(tmp_path)
    stdout = io.StringIO()

    def lines():
        yield _request("核1。着色器。豫", 编号=1)
        deadline = time.monotonic() + 60
        while not stdout.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
        yield json.dumps({"取消": 1})

    serve_build(lines(), stdout, Workspace(tmp_path))
    (reply,) = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert reply["已取消"] is False and reply["错误"] == [] and reply["模块"]


def test_a_target_request_writes_that_targets_text(tmp_path, fake):
    _workspace(tmp_path)
    replies = _serve(tmp_path, [_request("核1。着色器。豫", 编号=1, 目标="wgsl", 输出="出/核1.wgsl") + "\n",
                                _request("核1。着色器。豫", 编号=2, 目标="wgsl", 输出="出/核1.wgsl") + "\n",
                                _request("核1。着色器。豫", 编号=3, 目标="spirv", 输出="出/x") + "\n",
                                json.dumps({"文件": "核1。着色器。豫", "目标": "wgsl"}, ensure_ascii=False) + "\n",
                                _request("核1。着色器。豫", 编号=5, 目标="ptx", 输出="../外.ptx") + "\n"])
    first, second, unknown, old, outside = replies
    written = (tmp_path / "出/核1.wgsl").read_text(encoding="utf-8")
    assert first["模块"] == written and written.startswith("// wgsl of 核1") and first["改动"] is True
    assert first["导出"] is None and str(tmp_path / "库。着色器。豫") in first["依赖"]
    assert second["改动"] is False and second["模块"] == written
    assert "不认识的「目标」" in unknown["错误"][0] and "要协议 2" in old["错误"][0]
    assert "之外" in outside["错误"][0]


def _bazel(text: str) -> str:
    """A path as Bazel 4 writes it: each UTF-8 byte one character."""
    return text.encode("utf-8").decode("latin-1")


def test_the_bazel_worker_protocol(tmp_path, fake):
    from zhuose.compiler.generate.worker import serve_worker
    _workspace(tmp_path)
    requests = [{"arguments": ["--target", "wgsl", "--output", _bazel("出/核1.wgsl"), "--package", _bazel("包.json"),
                               _bazel("核1。着色器。豫")], "inputs": [{"path": "核1", "digest": "x"}], "requestId": 0},
                {"requestId": 9, "cancel": True},                                  # answered already: no response
                {"arguments": ["--target", "ptx", "--output", "出/核2.ptx", "核2。着色器。豫"], "requestId": 0},
                {"arguments": ["--output", "出/坏.wgsl", "--目标", "wgsl", "核1。着色器。豫"], "requestId": 0},
                {"arguments": ["--target", "wgsl", "--output", "出/无.wgsl", "无。着色器。豫"], "requestId": 0}]
    read, written = os.pipe()
    os.write(written, "".join(json.dumps(r) for r in requests).encode())    # Bazel writes no newline between them
    os.close(written)
    stdout = io.StringIO()
    assert serve_worker(read, stdout, tmp_path) == 0
    os.close(read)
    first, second, bad, missing = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert first == {"exitCode": 0, "output": "", "requestId": 0}
    assert (tmp_path / "出/核1.wgsl").read_text(encoding="utf-8").startswith("// wgsl of 核1")
    assert second["exitCode"] == 0 and (tmp_path / "出/核2.ptx").exists()
    assert bad["exitCode"] == 2 and "看不懂的参数「--目标」" in bad["output"]
    assert missing["exitCode"] == 1 and "找不到文件「无。着色器。豫」" in missing["output"]


def test_the_plain_action_reads_its_parameter_file(tmp_path):
    _workspace(tmp_path)
    (tmp_path / "参数").write_text(_bazel("--target\nwgsl\n--output\n出/核3.wgsl\n--package\n包.json\n核3。着色器。豫\n"),
                                   encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "zhuose.cli", "serve", "--build", "@参数"], cwd=tmp_path,
                       capture_output=True, text=True, encoding="utf-8", timeout=120,
                       env=dict(os.environ, ZHUOSE_CACHE_DIR=str(tmp_path / "缓存")))
    assert p.returncode == 0, p.stderr
    assert "fn 加倍3" in (tmp_path / "出/核3.wgsl").read_text(encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "zhuose.cli", "serve", "@参数"], cwd=tmp_path,
                       capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert p.returncode == 2 and "用法" in p.stderr


def test_a_target_that_cannot_translate_is_an_error_of_that_request_only(tmp_path, fake):
    _workspace(tmp_path)
    fake.unavailable.add("msl")
    metal, wgsl = _serve(tmp_path, [_request("核1。着色器。豫", 编号=1, 目标="msl", 输出="出/核1.metal") + "\n",
                                    _request("核1。着色器。豫", 编号=2, 目标="wgsl", 输出="出/核1.wgsl") + "\n"])
    assert metal["模块"] is None and metal["错误"][0].startswith("核1。着色器。豫: 未能译成 MSL：")
    assert not (tmp_path / "出/核1.metal").exists()
    assert wgsl["错误"] == [] and wgsl["警告"] == [] and (tmp_path / "出/核1.wgsl").exists()
