"""The on-disk caches (compiler/cache.py): the parser tables (lark's and
their plain copy) and the checked builtin interface.  Each test points ZHUOSE_CACHE_DIR at a fresh
temporary folder, so the user's own cache is neither read nor written."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from zhuose.compiler import cache, workspace
from zhuose.compiler.packages import builtin_root
from zhuose.compiler.workspace import Workspace
from support.frontend import PRELUDE, write

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
DOUBLE = SAMPLES / "加倍。着色器。豫"
USES_NEW_NAME = PRELUDE + "「g」乃化「无三二」为「无三二」者也。\n「g」者得「x」而「x」加「试常量」也。\n"
NEW_DECLARATION = "\n「试常量」乃「无三二」也。\n"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_ENV, str(folder))
    monkeypatch.setattr(workspace, "_SNAPSHOTS", {})   # nor what this process loaded before
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
    assert {p.name.split("-")[0] for p in entries} == {"classcode", "lalr", "lark", "builtin", "translate"}
    for p in entries:
        p.write_bytes(b"\x80\x05garbage" + p.read_bytes()[:100])
    again = run_cli("译", str(DOUBLE), env_cache=cache_dir)
    assert (again.returncode, again.stdout, again.stderr) == (0, golden, first.stderr)
    assert builtin_checks(SAMPLES, DOUBLE) == (1, [])    # and the rebuilt entries work


def test_a_well_formed_but_foreign_table_entry_is_rebuilt(cache_dir):
    """An entry that unmarshals to something that is not the parser's tables
    (another build's layout) is a miss like a corrupt one."""
    import marshal
    golden = (SAMPLES / "加倍.wgsl").read_text(encoding="utf-8")
    assert run_cli("译", str(DOUBLE), env_cache=cache_dir).returncode == 0
    (entry,) = [p for p in cache_dir.iterdir() if p.name.startswith("lalr-")]
    entry.write_bytes(marshal.dumps(("not", "tables")))
    edited = cache_dir.parent / "改。着色器。豫"     # an edited file parses afresh (the ledger cannot answer)
    edited.write_text(DOUBLE.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    again = run_cli("译", str(edited), env_cache=cache_dir)
    assert (again.returncode, again.stdout) == (0, golden), again.stderr
    assert marshal.loads(entry.read_bytes())[0] != "not"       # rebuilt


def test_an_unusable_cache_folder_is_no_error(tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    golden = (SAMPLES / "加倍.wgsl").read_text(encoding="utf-8")
    for _ in range(2):
        p = run_cli("译", str(DOUBLE), env_cache=not_a_folder / "cache")
        assert (p.returncode, p.stdout, p.stderr) == (0, golden, "加倍入口\t加倍\t计算\n")


WRITER = """
import sys
from zhuose.compiler import cache, workspace
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
    assert sorted(p.name.split("-")[0] for p in cache_dir.iterdir()) == ["builtin", "classcode", "lalr", "lark", "translate"]


# ---------------------------------------------------------------- 生成's ledger

LIB = PRELUDE + "「步」乃「无三二」也。\n「步」者「新无三二」于「三」也。\n"
KERNEL = ("寻观「试」之「库」之书。\n" + PRELUDE + "「数据」乃「存储缓冲」于（「数组」于「无三二」）也。\n"
          "「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。\n"
          "「加」乃化「全局调用号」为「有」者也。\n"
          "「加」者得「号」而\n　「写数组」于「数据」于（「号」中「零」）于「步」\n也。\n"
          "「加入口」乃「计算入口」也。\n"
          "「加入口」者「计算入口项」于「加」于（「组值」【「工作组大小」者「四」也】）也。\n")
PROBE = """
import sys
from zhuose.cli.main import main
status = main(sys.argv[1:])
heavy = [m for m in sys.modules if m.startswith(("zhuose.compiler.check", "zhuose.compiler.workspace", "lark",
                                                  "zhuose.compiler.backends.wgsl", "zhuose.compiler.backends.ptx"))]
sys.stderr.write(f"heavy={len(heavy)}\\n")
sys.exit(status)
"""


def generate(root, env_cache):
    env = dict(os.environ, **{cache.CACHE_ENV: str(env_cache)})
    p = subprocess.run([sys.executable, "-c", PROBE, "生成", "核。着色器。豫", "库。着色器。豫", "--输出目录", "出"],
                       cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    heavy = int(p.stderr.rsplit("heavy=", 1)[1])
    return p.stdout.splitlines(), heavy


def test_generate_with_nothing_changed_loads_no_checker(cache_dir, tmp_path):
    root = tmp_path / "ws"
    write(root, {"包.json": '{"名": "试", "依赖": ["点染"]}', "库。着色器。豫": LIB, "核。着色器。豫": KERNEL})
    lines, heavy = generate(root, cache_dir)
    assert [l.split("\t")[1] for l in lines] == ["已更新", "已更新"] and heavy > 0
    out = (root / "出" / "核。着色生成。豫").read_text(encoding="utf-8")
    again, heavy = generate(root, cache_dir)
    assert again == [l.replace("已更新", "未改动") for l in lines] and heavy == 0
    # touched, same text: still nothing to do (the input is hashed, not regenerated)
    os.utime(root / "库。着色器。豫", ns=(1, 1))
    assert generate(root, cache_dir) == (again, 0)
    # an imported module's text changes: both modules are generated again
    (root / "库。着色器。豫").write_text(LIB.replace("「三」", "「四」"), encoding="utf-8")
    lines, heavy = generate(root, cache_dir)
    assert heavy > 0 and [l.split("\t")[1] for l in lines] == ["已更新", "已更新"]
    assert (root / "出" / "核。着色生成。豫").read_text(encoding="utf-8") != out
    # an output deleted or edited by hand is written again
    (root / "出" / "核。着色生成。豫").unlink()
    lines, heavy = generate(root, cache_dir)
    assert heavy > 0 and [l.split("\t")[1] for l in lines] == ["已更新", "未改动"]
    # a corrupt ledger is a miss
    for p in cache_dir.iterdir():
        if p.name.startswith("generate-"):
            p.write_bytes(b"{not json")
    lines, heavy = generate(root, cache_dir)
    assert heavy > 0 and [l.split("\t")[1] for l in lines] == ["未改动", "未改动"]


def translate_probe(root, env_cache, *args):
    env = dict(os.environ, **{cache.CACHE_ENV: str(env_cache)})
    p = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=root, env=env, capture_output=True, text=True,
                       timeout=300)
    table, heavy = p.stderr.rsplit("heavy=", 1)
    return p.returncode, p.stdout, table, int(heavy)


def test_translating_an_unchanged_file_again_loads_no_checker(cache_dir, tmp_path):
    root = tmp_path / "ws"
    write(root, {"包.json": '{"名": "试", "依赖": ["点染"]}', "库。着色器。豫": LIB, "核。着色器。豫": KERNEL})
    for command in (["译"], ["千手", "--详细"], ["千手"]):
        first = translate_probe(root, cache_dir, *command, "核。着色器。豫")
        assert first[0] == 0 and first[3] > 0 and "加入口" in first[2]
        assert translate_probe(root, cache_dir, *command, "核。着色器。豫") == (*first[:3], 0)
    (root / "库。着色器。豫").write_text(LIB.replace("「三」", "「四」"), encoding="utf-8")
    status, wgsl, _, heavy = translate_probe(root, cache_dir, "译", "核。着色器。豫")
    assert status == 0 and heavy > 0 and "4u" in wgsl
    # an error is never remembered: it is reported again
    (root / "库。着色器。豫").write_text(LIB.replace("「步」者", "「步子」者"), encoding="utf-8")
    for _ in range(2):
        status, wgsl, table, heavy = translate_probe(root, cache_dir, "译", "核。着色器。豫")
        assert status == 1 and heavy > 0 and "库。着色器。豫" in table


LIBRARIES = """
import sys
from zhuose.cli.main import main
status = main(sys.argv[1:])
loaded = sorted({m.split(".")[0] for m in sys.modules} & {"lark", "numpy", "wgpu"})
sys.stderr.write(f"loaded={','.join(loaded)}\\n")
sys.exit(status)
"""


def translate_libraries(root, env_cache, path) -> tuple[int, str, list[str]]:
    """A fresh 译 process's status, WGSL and which of lark, NumPy and wgpu it imported."""
    env = dict(os.environ, **{cache.CACHE_ENV: str(env_cache)})
    p = subprocess.run([sys.executable, "-c", LIBRARIES, "译", path], cwd=root, env=env, capture_output=True,
                       text=True, timeout=300)
    loaded = p.stderr.rsplit("loaded=", 1)[1].strip()
    return p.returncode, p.stdout, loaded.split(",") if loaded else []


def test_translating_an_edited_clean_file_imports_no_lark_numpy_or_wgpu(cache_dir, tmp_path):
    """Checked and translated for real (the ledger cannot answer: the text
    changes every run), from the parser tables' plain copy in the cache;
    lark comes in only for a syntax error's message."""
    golden = (SAMPLES / "加倍.wgsl").read_text(encoding="utf-8")
    text = DOUBLE.read_text(encoding="utf-8")
    copy = tmp_path / DOUBLE.name
    for k in range(3):
        copy.write_text(text + f"「：改动 {k}：」\n", encoding="utf-8")
        status, wgsl, loaded = translate_libraries(tmp_path, cache_dir, copy.name)
        assert (status, wgsl) == (0, golden)
        assert loaded == (["lark"] if k == 0 else [])     # the first run builds the tables with lark
    copy.write_text(text.replace("也。", "也也。", 1), encoding="utf-8")
    status, _, loaded = translate_libraries(tmp_path, cache_dir, copy.name)
    assert status == 1 and loaded == ["lark"]


def generate_to_stdout(root, env_cache):
    env = dict(os.environ, **{cache.CACHE_ENV: str(env_cache)})
    p = subprocess.run([sys.executable, "-c", PROBE, "生成", "核。着色器。豫"], cwd=root, env=env,
                       capture_output=True, text=True, timeout=300)
    warnings, heavy = p.stderr.rsplit("heavy=", 1)
    return p.returncode, p.stdout, warnings, int(heavy)


def test_generate_to_stdout_again_prints_the_same_bytes_without_the_checker(cache_dir, tmp_path):
    root = tmp_path / "ws"
    write(root, {"包.json": '{"名": "试", "依赖": ["点染"]}', "库。着色器。豫": LIB, "核。着色器。豫": KERNEL})
    first = generate_to_stdout(root, cache_dir)
    assert first[0] == 0 and first[3] > 0 and "加入口" in first[1]
    assert generate_to_stdout(root, cache_dir) == (*first[:3], 0)
    # the same text as a workspace that never saw a ledger makes
    from zhuose.compiler.generate import Generator
    assert Generator(Workspace(root)).generate(root / "核。着色器。豫").text == first[1]
    # an edited import is noticed: generated again, with the new constant
    (root / "库。着色器。豫").write_text(LIB.replace("「三」", "「四」"), encoding="utf-8")
    status, text, _, heavy = generate_to_stdout(root, cache_dir)
    assert status == 0 and heavy > 0 and text != first[1] and "4u" in text
    assert generate_to_stdout(root, cache_dir) == (0, text, "", 0)
    # a corrupt ledger is a miss, silently
    for p in cache_dir.iterdir():
        if p.name.startswith("generate-"):
            p.write_bytes(b"\x80garbage")
    status, again, warnings, heavy = generate_to_stdout(root, cache_dir)
    assert (status, again, warnings) == (0, text, "") and heavy > 0
    assert generate_to_stdout(root, cache_dir) == (0, text, "", 0)     # and the ledger is written anew


SERVICE_PROBE = """
import sys
from zhuose.compiler.generate.service import serve_build
status = serve_build(sys.stdin, sys.stdout, ".")
heavy = [m for m in sys.modules if m.startswith(("zhuose.compiler.check", "zhuose.compiler.workspace", "lark",
                                                  "zhuose.compiler.backends.wgsl", "zhuose.compiler.backends.ptx"))]
sys.stderr.write(f"heavy={len(heavy)}\\n")
sys.exit(status)
"""


def service_session(root, env_cache, requests: list[dict]) -> tuple[list[dict], int]:
    """A fresh build-service process's replies, and how many checker/back-end modules it imported."""
    env = dict(os.environ, **{cache.CACHE_ENV: str(env_cache)})
    lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests)
    p = subprocess.run([sys.executable, "-c", SERVICE_PROBE], cwd=root, env=env, input=lines,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return [json.loads(line) for line in p.stdout.splitlines()], int(p.stderr.rsplit("heavy=", 1)[1])


def test_a_restarted_build_service_answers_unchanged_sources_from_the_ledger(cache_dir, tmp_path):
    root = tmp_path / "ws"
    write(root, {"包.json": '{"名": "试", "依赖": ["点染"]}', "库。着色器。豫": LIB, "核。着色器。豫": KERNEL})
    requests = [{"文件": "核。着色器。豫", "编号": 1}, {"文件": "核。着色器。豫", "输出目录": "出", "编号": 2}]
    first, heavy = service_session(root, cache_dir, requests)
    assert heavy > 0 and [r["改动"] for r in first] == [True, True] and first[0]["模块"] == first[1]["模块"]
    again, heavy = service_session(root, cache_dir, requests)
    assert heavy == 0
    assert again == [{**first[0]}, {**first[1], "改动": False}]    # 改动: the output file is left as it was
    # the command line's `生成 --输出目录` into the same folder shares the record
    assert translate_probe(root, cache_dir, "生成", "核。着色器。豫", "--输出目录", "出") == (
        0, "出/核。着色生成。豫\t未改动\n", "", 0)
    # an edited import: generated again, the output rewritten
    (root / "库。着色器。豫").write_text(LIB.replace("「三」", "「四」"), encoding="utf-8")
    edited, heavy = service_session(root, cache_dir, requests)
    assert heavy > 0 and [r["改动"] for r in edited] == [True, True] and "4u" in edited[1]["模块"]
    assert (root / "出" / "核。着色生成。豫").read_text(encoding="utf-8") == edited[1]["模块"]
    # an output edited by hand is written again, not believed
    (root / "出" / "核。着色生成。豫").write_text("手改", encoding="utf-8")
    replies, heavy = service_session(root, cache_dir, requests[1:])
    assert heavy > 0 and replies[0]["改动"] is True
    assert (root / "出" / "核。着色生成。豫").read_text(encoding="utf-8") == edited[1]["模块"]


# ---------------------------------------------------------------- dataclasses' methods


CLASS = "@dataclasses.dataclass(frozen=True)\nclass P:\n    x: int\n    y: str = 'b'\n"


def define_class():
    import dataclasses
    space = {"dataclasses": dataclasses}
    exec(CLASS, space)
    return space["P"]


def test_dataclass_methods_come_from_the_cache_and_behave_the_same(cache_dir):
    import dataclasses
    from zhuose.compiler import classcode
    plain = define_class()
    with classcode.remembered():
        first = define_class()
    assert not hasattr(dataclasses, "exec")    # dataclasses is left as it was
    (entry,) = [p for p in cache_dir.iterdir() if p.name.startswith("classcode-")]
    compiled = entry.read_bytes()
    with classcode.remembered():
        again = define_class()
    assert entry.read_bytes() == compiled      # nothing new to compile, nothing written
    for cls in (first, again):
        assert cls(1) == cls(1, "b") and cls(1) != cls(2) and hash(cls(1)) == hash(cls(1))
        assert repr(cls(1)) == repr(plain(1))
        with pytest.raises(dataclasses.FrozenInstanceError):
            cls(1).x = 2


def test_a_corrupt_or_foreign_classcode_entry_is_compiled_afresh(cache_dir):
    import marshal
    from zhuose.compiler import classcode
    with classcode.remembered():
        define_class()
    (entry,) = [p for p in cache_dir.iterdir() if p.name.startswith("classcode-")]
    texts = marshal.loads(entry.read_bytes())
    entry.write_bytes(marshal.dumps({text: "raise SystemExit('not code')" for text in texts}))
    with classcode.remembered():
        assert define_class()(3).y == "b"
    entry.write_bytes(b"\x00garbage")
    with classcode.remembered():
        assert define_class()(3).x == 3
    assert set(marshal.loads(entry.read_bytes())) == set(texts)
