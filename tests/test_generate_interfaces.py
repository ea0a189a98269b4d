"""The interfaces build systems use: `着色器 生成` and the JSON-lines build
service `serve_build` (the warm answer costs no check and no translation)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time

from support.generate_fakes import DOUBLE, PRELUDE, fake, read_back, write  # noqa: F401 (fixture)

from zhuose.compiler.generate.service import serve_build
from zhuose.compiler.workspace import Workspace


def run(cwd, *args):
    p = subprocess.run([sys.executable, "-m", "zhuose.cli", *args], cwd=cwd,
                       capture_output=True, text=True, encoding="utf-8")
    return p.returncode, p.stdout, p.stderr


# ---------------------------------------------------------------- 着色器 生成


def test_generate_prints_the_module(tmp_path):
    write(tmp_path, {"加倍。着色器。豫": DOUBLE})
    code, out, err = run(tmp_path, "生成", "加倍。着色器。豫")
    assert code == 0 and "Traceback" not in err
    values = read_back(out)
    assert values["加倍入口"] == "加倍" and values["加倍入口并线汇编名"] == "yy_e5_8a_a0_e5_80_8d"
    assert run(tmp_path, "generate", "加倍。着色器。豫")[1] == out


def test_generate_writes_into_the_output_folder_once(tmp_path):
    write(tmp_path, {"包.json": '{"名": "试", "依赖": ["点染"]}', "甲/加倍。着色器。豫": DOUBLE,
                     "乙。着色器。豫": PRELUDE + "「常」者「新无三二」于「一」也。\n"})
    code, out, _ = run(tmp_path, "生成", "甲/加倍。着色器。豫", "乙。着色器。豫", "--输出目录", "产物")
    assert code == 0
    assert out == "产物/甲/加倍。着色生成。豫\t已更新\n产物/乙。着色生成。豫\t已更新\n"
    written = tmp_path / "产物/甲/加倍。着色生成。豫"
    assert read_back(written.read_text(encoding="utf-8"))["加倍入口"] == "加倍"
    mtime = written.stat().st_mtime_ns
    code, out, _ = run(tmp_path, "生成", "甲/加倍。着色器。豫", "乙。着色器。豫", "--out-dir", "产物")
    assert code == 0 and out.count("未改动") == 2 and written.stat().st_mtime_ns == mtime


def test_generate_reports_errors_with_positions_and_writes_nothing(tmp_path):
    write(tmp_path, {"坏。着色器。豫": PRELUDE + "「错」者「未知」也。\n", "好。着色器。豫": DOUBLE})
    code, out, err = run(tmp_path, "生成", "坏。着色器。豫", "好。着色器。豫", "--输出目录", "产物")
    errors = [line for line in err.splitlines() if "警告" not in line]
    assert code == 1 and errors == ["坏。着色器。豫:2:5: 在「错」中：未知的名字「未知」"]
    assert out == "产物/好。着色生成。豫\t已更新\n"
    assert sorted(p.name for p in (tmp_path / "产物").iterdir()) == ["好。着色生成。豫"]


def test_generate_misuse_exits_two(tmp_path):
    write(tmp_path, {"甲。着色器。豫": DOUBLE, "乙。着色器。豫": DOUBLE, "内建。着色器。接口。豫": ""})
    assert run(tmp_path, "生成", "没有。着色器。豫")[0] == 2
    code, _, err = run(tmp_path, "生成", "内建。着色器。接口。豫")
    assert code == 2 and "不是着色源" in err
    code, _, err = run(tmp_path, "生成", "甲。着色器。豫", "乙。着色器。豫")
    assert code == 2 and "只能生成一个文件" in err


def test_unwritable_output_is_an_error_not_a_traceback(tmp_path):
    write(tmp_path, {"加倍。着色器。豫": DOUBLE, "产物": "这是文件，不是目录"})
    code, _, err = run(tmp_path, "生成", "加倍。着色器。豫", "--输出目录", "产物")
    assert code == 1 and "写不了" in err and "Traceback" not in err


# ---------------------------------------------------------------- the build service


def serve(root, requests) -> list[dict]:
    out = io.StringIO()
    lines = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in requests]
    assert serve_build(io.StringIO("\n".join(lines) + "\n"), out, Workspace(root)) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_service_answers_each_request_with_one_line(tmp_path, fake):
    write(tmp_path, {"加倍。着色器。豫": DOUBLE})
    first, second, written, again = serve(tmp_path, [
        {"文件": "加倍。着色器。豫", "编号": 1}, {"文件": "加倍。着色器。豫", "编号": 2},
        {"文件": "加倍。着色器。豫", "输出目录": "产物", "编号": 3},
        {"文件": str(tmp_path / "加倍。着色器。豫"), "输出目录": str(tmp_path / "产物")}])
    assert first["编号"] == 1 and first["错误"] == [] and first["改动"] is True
    assert read_back(first["模块"])["加倍入口"] == "加倍"
    assert second["模块"] == first["模块"] and second["改动"] is False
    assert written["改动"] is True and written["输出"] == str(tmp_path / "产物/加倍。着色生成。豫")
    assert (tmp_path / "产物/加倍。着色生成。豫").read_text(encoding="utf-8") == first["模块"]
    assert again["改动"] is False and again["编号"] is None
    assert fake.calls == 3     # one generation, three targets


def test_service_keeps_the_core_warm_and_notices_edits(tmp_path, fake):
    write(tmp_path, {"包.json": '{"名": "试", "依赖": ["点染"]}',
                     "库。着色器。豫": PRELUDE + "「倍数」者「新无三二」于「二」也。\n",
                     "加倍。着色器。豫": DOUBLE.replace(PRELUDE, PRELUDE + "寻观「试」之「库」之书。\n")})
    ws = Workspace(tmp_path)
    stdout = io.StringIO()

    def answered(count: int) -> None:
        """Wait for `count` replies, as a client does before its next step (the service
        reads the next lines while it answers)."""
        deadline = time.monotonic() + 60
        while stdout.getvalue().count("\n") < count and time.monotonic() < deadline:
            time.sleep(0.01)

    class Lines:
        """A stdin that edits the imported module after the 3rd reply."""

        def __iter__(self):
            request = json.dumps({"文件": "加倍。着色器。豫"}, ensure_ascii=False)
            yield request
            yield request
            answered(2)
            checks = ws.counters["module_checks"]
            yield request
            answered(3)
            assert ws.counters["module_checks"] == checks     # warm: nothing re-checked
            path = tmp_path / "库。着色器。豫"
            path.write_text(path.read_text(encoding="utf-8") + "「三倍」者「新无三二」于「三」也。\n", encoding="utf-8")
            yield request

    serve_build(Lines(), stdout, ws)
    replies = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert [r["错误"] for r in replies] == [[]] * 4
    assert [r["改动"] for r in replies] == [True, False, False, True]
    assert fake.calls == 6


def test_service_errors_are_replies_not_crashes(tmp_path, fake):
    write(tmp_path, {"坏。着色器。豫": PRELUDE + "「错」者「未知」也。\n", "加倍。着色器。豫": DOUBLE})
    replies = serve(tmp_path, ["不是 JSON", "[1]", {"输出目录": "x"}, {"文件": "没有。着色器。豫"},
                               {"文件": "坏。着色器。豫", "编号": "甲"}, {"文件": "加倍。着色器。豫", "输出目录": 3},
                               {"文件": "加倍。着色器。豫"}])
    errors = [r["错误"] for r in replies]
    assert "请求不是合法的 JSON" in errors[0][0] and "须是 JSON 对象" in errors[1][0]
    assert "缺少「文件」" in errors[2][0] and "找不到文件" in errors[3][0]
    assert replies[4]["编号"] == "甲" and errors[4] == ["坏。着色器。豫:2:5: 在「错」中：未知的名字「未知」"]
    assert "须是字符串" in errors[5][0]
    assert errors[6] == [] and replies[6]["模块"]
    assert all(r["模块"] is None and r["改动"] is False for r in replies[:6])


def test_service_survives_an_internal_error(tmp_path, fake, monkeypatch):
    write(tmp_path, {"加倍。着色器。豫": DOUBLE})
    from zhuose.compiler.generate import api
    real = api.generate
    state = {"n": 0}

    def flaky(ws, path):
        state["n"] += 1
        if state["n"] == 1:
            raise RuntimeError("坏了")
        return real(ws, path)

    monkeypatch.setattr(api, "generate", flaky)
    first, second = serve(tmp_path, [{"文件": "加倍。着色器。豫"}, {"文件": "加倍。着色器。豫"}])
    assert first["错误"] == ["内部错误（RuntimeError：坏了）"] and second["模块"]


def test_build_service_through_the_command_line(tmp_path):
    write(tmp_path, {"加倍。着色器。豫": DOUBLE})
    requests = [{"文件": "加倍。着色器。豫", "输出目录": "产物", "编号": 1},
                {"文件": "加倍。着色器。豫", "输出目录": "产物", "编号": 2}]
    p = subprocess.run([sys.executable, "-m", "zhuose.cli", "服务", "--构建"], cwd=tmp_path,
                       input="".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests),
                       capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert p.returncode == 0 and "Traceback" not in p.stderr
    first, second = (json.loads(line) for line in p.stdout.splitlines())
    assert (first["编号"], first["改动"], second["编号"], second["改动"]) == (1, True, 2, False)
    assert read_back(first["模块"])["加倍入口并线汇编名"] == "yy_e5_8a_a0_e5_80_8d"
    assert (tmp_path / "产物/加倍。着色生成。豫").read_text(encoding="utf-8") == first["模块"]


# ---------------------------------------------------------------- protocol 2 (what the integrations send)


def test_protocol_2_replies_carry_dependencies_exports_and_error_places(tmp_path, monkeypatch):
    from zhuose.compiler.generate.service import BuildService
    from zhuose.compiler.packages import builtin_interface_path
    monkeypatch.setenv("ZHUOSE_CACHE_DIR", str(tmp_path / "缓存"))
    write(tmp_path, {"库/包.json": '{"名": "库", "依赖": ["点染"]}',
                     "库/倍。着色器。豫": PRELUDE + "「倍」乃化「无三二」为「无三二」者也。\n「倍」者得「x」而「x」乘「x」也。\n",
                     "用/包.json": '{"名": "用", "依赖": ["点染", "库"]}',
                     "用/甲。着色器。豫": DOUBLE.replace(PRELUDE, PRELUDE + "寻「库」之「倍」之书。\n")})
    root = tmp_path.resolve()
    for fresh in (True, False):            # generated, then answered from the ledger by a new service
        reply = BuildService(tmp_path).answer(json.dumps({"协议": 2, "文件": "用/甲。着色器。豫", "编号": 1}))
        assert reply["协议"] == 2 and reply["错误"] == [] and reply["错误位置"] == []
        assert set(reply["依赖"]) == {os.path.realpath(builtin_interface_path()), str(root / "库/倍。着色器。豫"),
                                     str(root / "用/甲。着色器。豫"), str(root / "库/包.json"), str(root / "用/包.json"),
                                     str(builtin_interface_path().parent / "包.json")}, fresh
        assert reply["导出"]["加倍入口"] == "加倍" and "@compute" in reply["导出"]["着色源"]
        assert reply["导出"] == read_back(reply["模块"])
    (tmp_path / "用/甲。着色器。豫").write_text(DOUBLE.replace("「读数组」", "「读数主」"), encoding="utf-8")
    failed = BuildService(tmp_path).answer(json.dumps({"协议": 2, "文件": "用/甲。着色器。豫"}))
    (place,) = failed["错误位置"]
    assert failed["导出"] is None and place["文件"] == str(root / "用/甲。着色器。豫")
    line = DOUBLE.splitlines().index(next(l for l in DOUBLE.splitlines() if "「读数组」" in l))
    assert place["行"] == line + 1 and "读数主" in place["消息"]
    assert str(root / "用/包.json") in failed["依赖"]


def test_protocol_1_replies_are_as_they_were_and_unknown_versions_are_refused(tmp_path):
    write(tmp_path, {"加倍。着色器。豫": DOUBLE})
    plain, unknown = serve(tmp_path, [{"文件": "加倍。着色器。豫", "编号": 1},
                                      {"文件": "加倍。着色器。豫", "编号": 2, "协议": 9}])
    assert set(plain) == {"编号", "文件", "模块", "错误", "警告", "改动", "输出"}
    assert unknown["模块"] is None and "不认识的「协议」9" in unknown["错误"][0]
