"""End to end: the command line, the generated module, the build service and
the language server as a user meets them (LANGUAGE.md §1, §8; seed 着二, 着七;
README.md; docs/生成.md).

Every expectation is written from those texts (exact output formats, the
seed's 加倍 example, the PTX name rule of 着十) and from what a user should
see (no traceback, no half-written output), not copied from the tool.
Tests marked xfail(strict=True, reason="BUG: …") describe the correct
behaviour of a bug found in this round.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from support.frontend import SEED_DOUBLE, SEED_DOUBLE_WGSL, write
from support.lsp import SERVER, document, open_document, position, published, replace_document, start, uri

PRELUDE = "寻观「点染」之「点染本」之书。\n"

# LANGUAGE.md §7 (seed 着六), verbatim
DOUBLE = SEED_DOUBLE

# the WGSL the seed (着六) says this translates to
DOUBLE_WGSL = SEED_DOUBLE_WGSL

LIB = """寻观「点染」之「点染本」之书。

「粒子」即「组类」【「位置」乃「三维浮」也，「速度」乃「无三二」也】也。

「步长」乃「无三二」也。
「步长」者「新无三二」于「三」也。

「加步」乃化「无三二」为「无三二」者也。
「加步」者得「甲」而「甲」加「步长」也。
"""

# imports a module in a subfolder of another package; names with spaces, '#',
# '(' and characters outside the BMP (UTF-16 surrogate pairs in LSP positions)
MAIN = """寻观「点染」之「点染本」之书。
寻观「库」之「子 目」之「几何 #1」之书。

「数据」乃「存储缓冲」于（「数组」于「无三二」）也。
「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。

「取速」乃化「粒子」为「无三二」者也。
「取速」者得「子」而「子」中「速度」也。

「𝑓」乃化「全局调用号」为「有」者也。
「𝑓」者得「号」而
　令「序」为「号」中「零」而
　令「𝑥」为「读数组」于「数据」于「序」而
　「写数组」于「数据」于「序」于（「加步」于「𝑥」乘（「新无三二」于「二」））
也。

「求和」乃化「无三二」为「无三二」者也。
「求和」者得「个数」而
　令「环」为得「序」又得「和」而
　　若「序」小于「个数」
　　则「环」于（「序」加（「新无三二」于「一」））于（「和」加「序」）
　　否则「和」
　而「环」于（「新无三二」于「零」）于（「新无三二」于「零」）
也。

「入口」乃「计算入口」也。
「入口」者「计算入口项」于「𝑓」于（「组值」【「工作组大小」者「六四」也】）也。
"""

LIB_REL = "库/子 目/几何 #1。着色器。豫"
MAIN_REL = "应 用%20/主 (1)。着色器。豫"
WORKSPACE = {
    "库/包.json": '{"名": "库", "依赖": ["点染"]}',
    LIB_REL: LIB,
    "应 用%20/包.json": '{"名": "应用", "依赖": ["点染", "库"]}',
    MAIN_REL: MAIN,
    "加倍。着色器。豫": DOUBLE,            # a lone file: implicit package depending on 点染
}


def cli(cwd, *args, stdin: str | bytes | None = None):
    p = subprocess.run([sys.executable, "-m", "zhuose.cli", *args], cwd=cwd, input=stdin,
                       capture_output=True, text=not isinstance(stdin, bytes), timeout=120,
                       **({} if isinstance(stdin, bytes) else {"encoding": "utf-8"}))
    out, err = p.stdout, p.stderr
    if isinstance(err, bytes):
        out, err = out.decode(), err.decode()
    assert "Traceback" not in err, err
    return p.returncode, out, err


def ptx_name(function: str) -> str:
    """Seed 着十: ASCII letters and digits stay, every other UTF-8 byte is _xx; prefix yy."""
    return "yy" + "".join(chr(b) if chr(b).isascii() and chr(b).isalnum() else f"_{b:02x}"
                          for b in function.encode())


def definitions(module: str) -> dict[str, str]:
    """The 「名」者『…』也。 string constants of a generated module (no 』 inside them)."""
    return dict(re.findall(r"^「([^」]+)」者『([^』]*)』也。$", module, flags=re.M))


@pytest.fixture
def ws(tmp_path) -> Path:
    write(tmp_path, WORKSPACE)
    return tmp_path


# ---------------------------------------------------------------- 译 金属 千手 检查


def test_translate_across_packages_relative_and_absolute_paths(ws):
    code, out, err = cli(ws, "译", MAIN_REL)
    assert code == 0
    # the imported module comes first (着四), then this file in source order
    assert out.index("fn 加步(") < out.index("@group(0) @binding(0) var<storage, read_write> 数据: array<u32>;")
    assert err == "入口\t𝑓\t计算\n"
    code2, out2, err2 = cli(ws, "wgsl", str(ws / MAIN_REL))
    assert (code2, out2, err2) == (code, out, err)
    code, out, err = cli(ws, "检查", str(ws / LIB_REL))
    assert (code, out, err) == (0, "", "")


def test_entry_tables_of_the_three_targets(ws):
    assert cli(ws, "译", "加倍。着色器。豫") == (0, DOUBLE_WGSL, "加倍入口\t加倍\t计算\n")
    code, out, err = cli(ws, "金属", "加倍。着色器。豫")
    assert code == 0 and out.startswith("#include <metal_stdlib>") and err == "加倍入口\t加倍\t计算\n"
    code, out, err = cli(ws, "千手", "加倍。着色器。豫")
    assert ptx_name("加倍") == "yy_e5_8a_a0_e5_80_8d"   # the seed's own example (着二)
    assert code == 0 and f".visible .entry {ptx_name('加倍')}(" in out
    assert err == f"加倍入口\t{ptx_name('加倍')}\t计算\n"


def test_run_from_inside_a_package_folder_finds_the_workspace_root(ws):
    # the root moves up to the folder holding the sibling package 「库」 (issue 15)
    code, out, err = cli(ws / "应 用%20", "检查", "主 (1)。着色器。豫")
    assert (code, out, err) == (0, "", "")


def test_errors_have_position_and_definition_name_and_no_stdout(ws):
    write(ws, {"坏 名。着色器。豫": PRELUDE + "「好」者「新无三二」于「一」也。\n「错」者「好」加「未知」也。\n"})
    for command in ("检查", "译", "金属", "千手"):
        code, out, err = cli(ws, command, "坏 名。着色器。豫")
        assert code == 1 and out == "", command
        assert err.startswith("坏 名。着色器。豫:3:") and "在「错」中" in err and "「未知」" in err, command


def test_help_of_every_subcommand_and_its_ascii_alias(ws):
    code, out, _ = cli(ws, "--help")
    assert code == 0
    for name in ("检查", "译", "运行", "金属", "千手", "生成", "服务",
                 "check", "wgsl", "run", "msl", "ptx", "generate", "serve"):
        code, sub, err = cli(ws, name, "--help")
        assert code == 0 and sub.startswith("用法：") and err == "", name


@pytest.mark.parametrize("command", ["检查", "译", "金属", "千手", "生成"])
def test_bad_paths_are_usage_errors(ws, command):
    (ws / "夹。着色器。豫").mkdir()
    write(ws, {"名。豫": "「甲」者『x』也。\n"})
    for bad in ("没有。着色器。豫", "夹。着色器。豫", "名。豫"):
        code, out, err = cli(ws, command, bad)
        assert code == 2 and out == "" and err.startswith("着色器：") and bad in err, (command, bad)
    code, out, err = cli(ws, command)
    assert code == 2 and out == "" and "用法错误" in err


@pytest.mark.parametrize("command", ["金属", "译", "千手"])
def test_an_interface_file_is_not_translated(ws, command):
    write(ws, {"声明。着色器。接口。豫": "「加一」乃化「整数」而「整数」也。\n"})
    assert cli(ws, "检查", "声明。着色器。接口。豫")[0] == 0
    code, out, err = cli(ws, command, "声明。着色器。接口。豫")
    assert code != 0 and out == "" and "接口" in err


def test_two_packages_of_one_name_do_not_fail_a_file_that_does_not_import_them(tmp_path):
    write(tmp_path, {"甲/包.json": '{"名": "应用", "依赖": ["点染"]}', "乙/包.json": '{"名": "应用", "依赖": ["点染"]}',
                     "甲/主。着色器。豫": PRELUDE + "「用」者「新无三二」于「一」也。\n"})
    code, out, err = cli(tmp_path, "检查", "甲/主。着色器。豫")
    assert (code, err) == (0, "")   # a warning only: the file imports no package 「应用」 (issue 15)


def test_duplicate_package_name_is_reported_once_per_manifest(tmp_path):
    write(tmp_path, {"甲/包.json": '{"名": "应用", "依赖": ["点染"]}', "乙/包.json": '{"名": "应用", "依赖": ["点染"]}',
                     "甲/主。着色器。豫": PRELUDE + "「用」者「新无三二」于「一」也。\n"})
    _, _, err = cli(tmp_path, "检查", "甲/主。着色器。豫")
    lines = err.splitlines()
    assert len(lines) == len(set(lines)), err


def test_a_file_in_a_package_is_not_called_a_lone_file(tmp_path):
    write(tmp_path, {"库/包.json": '{"名": "库", "依赖": ["点染"]}',
                     "库/常。着色器。豫": PRELUDE + "「常」者「新无三二」于「一」也。\n",
                     "甲/包.json": '{"名": "应用", "依赖": ["点染", "库"]}', "乙/包.json": '{"名": "应用", "依赖": ["点染"]}',
                     "甲/主。着色器。豫": PRELUDE + "寻观「库」之「常」之书。\n「用」者「常」也。\n"})
    _, _, err = cli(tmp_path, "检查", "甲/主。着色器。豫")
    assert "包外的单独文件" not in err, err


# ---------------------------------------------------------------- 运行 (lavapipe)


FLOATS = PRELUDE + """
「参」即「组类」【「倍」乃「浮三二」也，「加」乃「浮三二」也】也。
「参数」乃「均匀缓冲」于「参」也。
「参数」者「均匀绑定」于（「组值」【「组」者「零」也，「号」者「一」也】）也。

「甲」乃「存储缓冲」于（「数组」于「浮三二」）也。
「甲」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。

「乙」乃「存储缓冲」于（「定长数组」于「浮三二」于「四」）也。
「乙」者「绑定」于（「组值」【「组」者「零」也，「号」者「二」也，「访问」者「只读」也】）也。

「算」乃化「全局调用号」为「有」者也。
「算」者得「号」而
　令「序」为「号」中「零」而
　令「参」为「读均匀」于「参数」而
　「写数组」于「甲」于「序」于（（「读数组」于「甲」于「序」）乘（「参」中「倍」）加（「参」中「加」）加（「取元素」于（「读存储」于「乙」）于「序」））
也。

「算入口」乃「计算入口」也。
「算入口」者「计算入口项」于「算」于（「组值」【「工作组大小」者「四」也】）也。
"""


def test_run_the_seed_example_with_numbers_and_a_npy_written_back(ws):
    code, out, err = cli(ws, "运行", "加倍。着色器。豫", "加倍入口", "0:0=1,2,3,4,5,6,7,8")
    assert code == 0 and err == ""
    assert out == "「数据」（组 0 号 0）：[ 2  4  6  8 10 12 14 16]\n"      # README's quick start
    np.save(ws / "数 据.npy", np.arange(8, dtype=np.uint32))
    code, out, err = cli(ws, "run", str(ws / "加倍。着色器。豫"), "加倍入口", "数据=数 据.npy")
    assert code == 0
    assert np.array_equal(np.load(ws / "数 据.npy"), 2 * np.arange(8, dtype=np.uint32))


def test_run_with_a_uniform_struct_and_a_fixed_array(ws):
    write(ws, {"浮。着色器。豫": FLOATS})
    code, out, err = cli(ws, "运行", "浮。着色器。豫", "算入口", "0:0=1,2,3,4", "0:1=2,0.5", "0:2=10,20,30,40")
    a = np.array([1, 2, 3, 4], np.float32) * np.float32(2) + np.float32(0.5) + np.array([10, 20, 30, 40], np.float32)
    assert code == 0 and out == f"「甲」（组 0 号 0）：{a}\n"


@pytest.mark.parametrize("args, says", [
    (["没有入口", "0:0=1,2"], "加倍入口"),                 # wrong entry: lists the entries
    (["数据", "0:0=1,2"], "加倍入口"),                     # a resource, not an entry
    (["加倍入口", "0:0=1,x,3"], "「x」"),
    (["加倍入口", "0:0="], "0:0="),
    (["加倍入口", "0:0:1"], "0:0:1"),
    (["加倍入口", "0:0=-1,2"], "uint32"),
    (["加倍入口", "0:0=1.5"], "「1.5」"),
    (["加倍入口", "0:0=99999999999"], "uint32"),
    (["加倍入口"], "0:0"),                                 # no data for a used buffer
    (["加倍入口", "0:0=1,2", "0:7=1"], "0:7"),            # a binding the entry does not use
    (["加倍入口", "0:0=1*8", "--组数", "0,1,1"], "--组数"),
    (["加倍入口", "0:0=1*8", "--组数", "a"], "--组数"),
    (["加倍入口", "0:0=f32.npy"], "float32"),
    (["加倍入口", "0:0=文本.npy"], "文本.npy"),
    (["加倍入口", "0:0=没有.npy"], "没有.npy"),
])
def test_run_usage_errors(ws, args, says):
    np.save(ws / "f32.npy", np.arange(8, dtype=np.float32))
    write(ws, {"文本.npy": "不是 npy\n"})
    code, out, err = cli(ws, "运行", "加倍。着色器。豫", *args)
    assert code == 2 and out == "" and err.startswith("着色器：") and says in err, err
    assert np.array_equal(np.load(ws / "f32.npy"), np.arange(8, dtype=np.float32))


@pytest.mark.parametrize("data", [["0:1=2", "0:2=0*4"], ["0:1=2,1,5", "0:2=0*4"], ["0:1=2,1", "0:2=三.npy"]])
def test_run_rejects_wrong_sized_data_for_fixed_size_buffers(ws, data):
    write(ws, {"浮。着色器。豫": FLOATS})
    np.save(ws / "三.npy", np.arange(3, dtype=np.float32))
    code, out, err = cli(ws, "运行", "浮。着色器。豫", "算入口", "0:0=1,2,3,4", *data)
    assert code == 2 and out == "", out


def test_run_rejects_floats_out_of_float32_range(ws):
    write(ws, {"浮。着色器。豫": FLOATS})
    code, out, err = cli(ws, "运行", "浮。着色器。豫", "算入口", "0:0=1e40,0,0,0", "0:1=1,0", "0:2=0*4")
    assert code == 2 and "RuntimeWarning" not in err and "float32" in err, err


def test_run_rejects_a_negative_repeat_count(ws):
    code, out, err = cli(ws, "运行", "加倍。着色器。豫", "加倍入口", "0:0=1*-3")
    assert code == 2 and out == ""


def test_run_rejects_a_buffer_given_twice(ws):
    code, out, err = cli(ws, "运行", "加倍。着色器。豫", "加倍入口", "0:0=1,2", "0:0=3,4")
    assert code == 2 and out == ""
    code, out, err = cli(ws, "运行", "加倍。着色器。豫", "加倍入口", "0:0=1,2", "数据=3,4")
    assert code == 2 and "没有用到" not in err


# ---------------------------------------------------------------- 生成 (seed 着二)


def test_generate_the_seed_example_exactly(ws):
    code, module, err = cli(ws, "生成", "加倍。着色器。豫")
    assert code == 0 and err == ""
    assert "寻" not in module.replace("（着色源、它导入的着色模块", "")   # no imports in the generated module
    consts = definitions(module)
    assert set(consts) == {"着色源", "金属源", "并线汇编源", "加倍入口", "加倍入口并线汇编名"}
    assert consts["着色源"] == DOUBLE_WGSL                       # seed 着六
    assert consts["加倍入口"] == "加倍"
    assert consts["加倍入口并线汇编名"] == "yy_e5_8a_a0_e5_80_8d"   # seed 着二
    assert consts["金属源"] == cli(ws, "金属", "加倍。着色器。豫")[1]
    assert consts["并线汇编源"] == cli(ws, "千手", "加倍。着色器。豫")[1]
    # the module of a file in another package's subfolder
    code, module, _ = cli(ws, "generate", MAIN_REL)
    consts = definitions(module)
    assert code == 0 and consts["入口"] == "𝑓" and "fn 加步(" in consts["着色源"]


def test_generate_a_target_that_fails_is_a_one_line_comment(ws):
    text = (Path(__file__).parent.parent / "samples/纹素处理。着色器。豫").read_text(encoding="utf-8")
    write(ws, {"纹 素。着色器。豫": text})
    code, module, err = cli(ws, "生成", "纹 素。着色器。豫")
    assert code == 0
    consts = definitions(module)
    ptx = consts["并线汇编源"]
    assert ptx.startswith("//") and "\n" not in ptx and "PTX" in ptx      # 着二: one line explaining why
    assert consts["着色源"].startswith("@group(0)") and "kernel void" in consts["金属源"]
    assert consts["纹素处理入口"] == "纹素处理"
    assert consts["纹素处理入口并线汇编名"] == ptx_name("纹素处理")
    assert err.startswith("着色器：警告：") and err.count("\n") == 1


def test_generate_into_an_output_folder_atomically_and_keeps_mtime(ws):
    files = [MAIN_REL, LIB_REL, "加倍。着色器。豫"]
    code, out, err = cli(ws, "生成", *files, "--输出目录", "产 物")
    assert code == 0 and err == ""
    wanted = [os.path.join("产 物", "主 (1)。着色生成。豫"), os.path.join("产 物", "子 目", "几何 #1。着色生成。豫"),
              os.path.join("产 物", "加倍。着色生成。豫")]
    assert out == "".join(f"{w}\t已更新\n" for w in wanted)
    assert sorted(str(p.relative_to(ws)) for p in (ws / "产 物").rglob("*") if p.is_file()) == sorted(wanted)
    stamps = {w: os.stat(ws / w).st_mtime_ns for w in wanted}
    for w in wanted:
        os.utime(ws / w, ns=(1_000_000_000, 1_000_000_000))
    code, out, _ = cli(ws, "generate", *files, "--out-dir", str(ws / "产 物"))
    assert code == 0 and out.count("\t未改动\n") == 3
    assert all(os.stat(ws / w).st_mtime_ns == 1_000_000_000 for w in wanted), stamps
    assert (ws / wanted[2]).read_text(encoding="utf-8") == cli(ws, "生成", "加倍。着色器。豫")[1]
    # an error in one file: the others are still written, exit 1, no temporaries left behind
    write(ws, {"坏。着色器。豫": PRELUDE + "「错」者「未知」也。\n"})
    code, out, err = cli(ws, "生成", "坏。着色器。豫", "加倍。着色器。豫", "--输出目录", "产 物")
    assert code == 1 and out == f"{wanted[2]}\t未改动\n" and err.startswith("坏。着色器。豫:2:")
    assert not (ws / "产 物" / "坏。着色生成。豫").exists()
    assert not [p for p in (ws / "产 物").rglob("*") if "生成中" in p.name]


def test_generate_usage_errors(ws):
    code, out, err = cli(ws, "生成", "加倍。着色器。豫", MAIN_REL)            # two files, no 输出目录
    assert code == 2 and out == ""
    write(ws, {"声明。着色器。接口。豫": "「加一」乃化「整数」而「整数」也。\n"})
    code, out, err = cli(ws, "生成", "声明。着色器。接口。豫")
    assert code == 2 and out == "" and "不是着色源" in err
    code, out, err = cli(ws, "生成", "加倍。着色器。豫", "--输出目录", "加倍。着色器。豫")  # a file, not a folder
    assert code == 1 and out == "" and err.startswith("着色器：")
    assert (ws / "加倍。着色器。豫").read_text(encoding="utf-8") == DOUBLE


def test_generate_never_writes_two_sources_to_one_output(tmp_path):
    write(tmp_path, {"甲/加倍。着色器。豫": DOUBLE,
                     "乙/丙/加倍。着色器。豫": DOUBLE.replace("「工作组大小」者「四」", "「工作组大小」者「八」")})
    code, out, err = cli(tmp_path, "生成", "甲/加倍。着色器。豫", "乙/丙/加倍。着色器。豫", "--输出目录", "产物")
    outputs = [line.split("\t")[0] for line in out.splitlines()]
    assert code != 0 or len(set(outputs)) == 2, out


# ---------------------------------------------------------------- 服务 --构建 (JSON lines)


def test_build_service_protocol(ws):
    requests = [
        {"文件": "加倍。着色器。豫", "编号": 1},
        {"文件": "加倍。着色器。豫", "编号": "二"},
        "这不是 JSON",
        [1, 2],
        {"编号": 3},
        {"文件": "没有。着色器。豫", "编号": 4},
        {"文件": "声明。着色器。接口。豫", "编号": 5},
        {"文件": "坏。着色器。豫", "编号": 6},
        {"文件": MAIN_REL, "输出目录": "产物", "编号": 7},
        {"文件": str(ws / MAIN_REL), "输出目录": str(ws / "产物"), "编号": 8},
        {"文件": 5, "编号": 9},
        {"文件": "加倍。着色器。豫", "输出目录": 7, "编号": 10},
        "[" * 100000,
        {"文件": "加倍。着色器。豫", "编号": 11},
    ]
    write(ws, {"声明。着色器。接口。豫": "「加一」乃化「整数」而「整数」也。\n",
               "坏。着色器。豫": PRELUDE + "「错」者「未知」也。\n"})
    lines = "".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n\n" for r in requests)
    code, out, err = cli(ws, "服务", "--构建", stdin=lines.encode() + b"\xff\xfe\n")
    assert code == 0 and "Traceback" not in err
    replies = [json.loads(line) for line in out.splitlines()]
    assert len(replies) == len(requests) + 1
    for reply in replies:
        assert set(reply) == {"编号", "文件", "模块", "错误", "警告", "改动", "输出"}
    by = {r["编号"]: r for r in replies if r["编号"] is not None}
    assert by[1]["错误"] == [] and by[1]["改动"] is True and by[1]["输出"] is None
    assert by[1]["模块"] == cli(ws, "生成", "加倍。着色器。豫")[1]
    assert by["二"]["改动"] is False and by["二"]["模块"] == by[1]["模块"]
    for n in (3, 4, 5, 9, 10):
        assert by[n]["模块"] is None and len(by[n]["错误"]) == 1, by[n]
    assert "没有。着色器。豫" in by[4]["错误"][0]
    assert by[6]["模块"] is None and by[6]["错误"][0].startswith("坏。着色器。豫:2:") and "「错」" in by[6]["错误"][0]
    assert by[7]["改动"] is True and by[8]["改动"] is False
    assert Path(by[7]["输出"]) == ws / "产物" / "主 (1)。着色生成。豫" == Path(by[8]["输出"])
    assert (ws / "产物" / "主 (1)。着色生成。豫").read_text(encoding="utf-8") == by[7]["模块"]
    assert by[11]["错误"] == [] and by[11]["改动"] is False
    anonymous = [r for r in replies if r["编号"] is None]
    assert len(anonymous) == 4 and all(r["模块"] is None and r["错误"] for r in anonymous)


# ---------------------------------------------------------------- language server


@pytest.fixture(scope="module")
def lsp_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("ws 空 #")
    write(root, WORKSPACE)
    return root.resolve()


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient, lsp_root: Path):
    await start(lsp_client, lsp_root, **{"naga校验": False})
    for rel in (MAIN_REL, LIB_REL):
        await published(lsp_client, open_document(lsp_client, lsp_root / rel), 1)
    yield
    await lsp_client.shutdown_session()


def at(doc_uri: str, text: str, needle: str, delta: int = 1) -> dict:
    return {"text_document": document(doc_uri), "position": position(text, needle, delta)}


def logged_errors(client) -> list[str]:
    return [m.message for m in client.log_messages if m.type == lsp.MessageType.Error]


def line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n")


WHOLE = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=200, character=0))


@pytest.mark.asyncio(loop_scope="module")
async def test_lsp_reading_requests_on_odd_paths_and_astral_names(client, lsp_root):
    m, lib = uri(lsp_root / MAIN_REL), uri(lsp_root / LIB_REL)
    assert not (await published(client, m, 1)).diagnostics
    hover = await client.text_document_hover_async(lsp.HoverParams(**at(m, MAIN, "「加步」于「𝑥」")))
    assert "「加步」乃化「无三二」而「无三二」" in hover.contents.value
    hover = await client.text_document_hover_async(lsp.HoverParams(**at(m, MAIN, "「𝑥」乘")))
    assert "「𝑥」乃「无三二」" in hover.contents.value
    # a surrogate pair is two UTF-16 units: 「𝑥」 spans 4
    assert hover.range.end.character - hover.range.start.character == 4
    (site,) = await client.text_document_definition_async(lsp.DefinitionParams(**at(m, MAIN, "「加步」于")))
    assert site.uri == lib and site.range.start.line == line_of(LIB, "「加步」者")
    (site,) = await client.text_document_definition_async(lsp.DefinitionParams(**at(m, MAIN, "中「速度」", 2)))
    assert site.uri == lib and site.range.start.line == line_of(LIB, "「粒子」即")
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        **at(m, MAIN, "「加步」于"), context=lsp.ReferenceContext(include_declaration=True)))
    assert sorted((r.uri == m, r.range.start.line) for r in refs) == [
        (False, line_of(LIB, "「加步」乃")), (False, line_of(LIB, "「加步」者")), (True, line_of(MAIN, "「加步」于"))]
    tokens = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(text_document=document(m)))
    assert tokens.data and len(tokens.data) % 5 == 0
    hints = await client.text_document_inlay_hint_async(lsp.InlayHintParams(text_document=document(m), range=WHOLE))
    labels = {(h.position.line, h.label if isinstance(h.label, str) else "".join(p.value for p in h.label))
              for h in hints}
    assert (line_of(MAIN, "令「𝑥」"), "乃「无三二」") in {(ln, lab.strip()) for ln, lab in labels}
    for target, function in (("wgsl", None), ("msl", None), ("ptx", "ptx")):
        result = await client.protocol.send_request_async("着色/预览", {"uri": m, "target": target})
        assert result.errors == [] and result.text
        ((item, name, stage),) = [tuple(e) for e in result.entries]
        assert item == "入口" and stage == "计算"
        if function:
            assert f".entry {name}(" in result.text and re.fullmatch(r"yy[A-Za-z0-9_]+", name)
    assert logged_errors(client) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_lsp_completion_after_zhong_and_quick_fix(client, lsp_root):
    m = uri(lsp_root / MAIN_REL)
    text = MAIN.replace("「子」中「速度」也", "「子」中也")
    replace_document(client, m, text, 2)
    await published(client, m, 2)
    items = await client.text_document_completion_async(lsp.CompletionParams(**at(m, text, "「子」中", 4)))
    assert {"位置", "速度"} <= {i.label.strip("「」") for i in items.items}
    text = MAIN.replace("「读数组」于「数据」于「序」而", "「读数组」于「数剧」于「序」而")
    replace_document(client, m, text, 3)
    diags = (await published(client, m, 3)).diagnostics
    assert [d.range.start.line for d in diags] == [line_of(text, "「数剧」")]
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=document(m), range=WHOLE, context=lsp.CodeActionContext(diagnostics=diags)))
    edits = [e.new_text for a in actions for e in a.edit.changes[m]]
    assert "「数据」" in edits
    replace_document(client, m, MAIN, 4)
    assert not (await published(client, m, 4)).diagnostics


@pytest.mark.asyncio(loop_scope="module")
async def test_lsp_rename_across_packages(client, lsp_root):
    m, lib = uri(lsp_root / MAIN_REL), uri(lsp_root / LIB_REL)
    edit = await client.text_document_rename_async(lsp.RenameParams(**at(m, MAIN, "「加步」于"), new_name="加 步"))
    assert {u: sorted(e.range.start.line for e in es) for u, es in edit.changes.items()} == {
        lib: [line_of(LIB, "「加步」乃"), line_of(LIB, "「加步」者")], m: [line_of(MAIN, "「加步」于")]}
    assert all(e.new_text == "「加 步」" for es in edit.changes.values() for e in es)
    for bad in ("甲」乙", "", "三"):
        with pytest.raises(Exception):
            await client.text_document_rename_async(lsp.RenameParams(**at(m, MAIN, "「加步」于"), new_name=bad))


@pytest.mark.asyncio(loop_scope="module")
async def test_lsp_rename_refuses_a_clash_in_an_importing_module(client, lsp_root):
    m = uri(lsp_root / MAIN_REL)
    with pytest.raises(Exception):
        await client.text_document_rename_async(lsp.RenameParams(**at(m, MAIN, "「加步」于"), new_name="数据"))


@pytest.mark.asyncio(loop_scope="module")
async def test_lsp_rename_of_a_local_refuses_capture(client, lsp_root):
    m = uri(lsp_root / MAIN_REL)
    for new in ("个数", "序"):
        with pytest.raises(Exception):
            await client.text_document_rename_async(lsp.RenameParams(**at(m, MAIN, "「和」而"), new_name=new))


@pytest.mark.asyncio(loop_scope="module")
async def test_lsp_every_request_on_a_file_with_syntax_errors_mid_edit(client, lsp_root):
    m = uri(lsp_root / MAIN_REL)
    broken = (MAIN.replace("「写数组」于「数据」", "「写数组」于（「数据」")
              .replace("「取速」者得「子」而", "「取速」者得「子」而 若")
              .replace("否则「和」", "否则「和"))
    replace_document(client, m, broken, 10)
    diags = (await published(client, m, 10)).diagnostics
    assert diags and all(d.severity == lsp.DiagnosticSeverity.Error for d in diags)
    lines = broken.split("\n")
    for ln, line in enumerate(lines):
        for ch in range(0, len(line.encode("utf-16-le")) // 2 + 2, 4):
            spot = {"text_document": document(m), "position": lsp.Position(line=ln, character=ch)}
            await client.text_document_hover_async(lsp.HoverParams(**spot))
            await client.text_document_definition_async(lsp.DefinitionParams(**spot))
            await client.text_document_completion_async(lsp.CompletionParams(**spot))
            await client.text_document_signature_help_async(lsp.SignatureHelpParams(**spot))
            await client.text_document_references_async(lsp.ReferenceParams(
                **spot, context=lsp.ReferenceContext(include_declaration=True)))
    await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(text_document=document(m)))
    await client.text_document_inlay_hint_async(lsp.InlayHintParams(text_document=document(m), range=WHOLE))
    await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=document(m), range=WHOLE, context=lsp.CodeActionContext(diagnostics=diags)))
    for target in ("wgsl", "msl", "ptx"):
        result = await client.protocol.send_request_async("着色/预览", {"uri": m, "target": target})
        assert result.text is None and result.errors
    replace_document(client, m, MAIN, 11)
    assert not (await published(client, m, 11)).diagnostics
    assert logged_errors(client) == []
