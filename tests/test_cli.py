"""The command line (LANGUAGE.md §8): exit status 0 clean, 1 errors, 2 misuse;
Chinese help; messages as 文件:行:列: 消息."""

import subprocess
import sys

import pytest

from support.frontend import SEED_DOUBLE, write

PRELUDE = "寻观「点染」之「点染本」之书。\n"


def run(cwd, *args):
    p = subprocess.run([sys.executable, "-m", "zhuose.cli", *args], cwd=cwd,
                       capture_output=True, text=True, encoding="utf-8")
    return p.returncode, p.stdout, p.stderr


def test_clean_file_exits_zero(tmp_path):
    write(tmp_path, {"好。着色器。豫": PRELUDE + "「常」者「新无三二」于「一」也。"})
    assert run(tmp_path, "检查", "好。着色器。豫") == (0, "", "")
    assert run(tmp_path, "check", "好。着色器。豫")[0] == 0


def test_errors_exit_one_with_positions_and_definition_names(tmp_path):
    write(tmp_path, {"坏。着色器。豫": PRELUDE + "「常」者「新无三二」于「一」也。\n「错」者「未知」也。"})
    code, out, err = run(tmp_path, "检查", "坏。着色器。豫")
    assert code == 1 and out == ""
    assert err == "坏。着色器。豫:3:5: 在「错」中：未知的名字「未知」\n"


def test_misuse_exits_two(tmp_path):
    assert run(tmp_path, "检查", "没有。着色器。豫")[0] == 2
    write(tmp_path, {"x.txt": ""})
    code, _, err = run(tmp_path, "检查", "x.txt")
    assert code == 2 and "不是着色文件" in err
    assert run(tmp_path)[0] == 2
    code, _, err = run(tmp_path, "乱来")
    assert code == 2 and "用法错误" in err


def test_help_is_chinese_for_every_subcommand(tmp_path):
    code, out, _ = run(tmp_path, "--help")
    assert code == 0 and "用法：" in out and "子命令" in out
    names = [line.split()[0] for line in out.splitlines()
             if len(line) > 4 and line.startswith("    ") and line[4] != " " and not line[4] == "-"]
    assert "检查" in names
    for name in names:
        code, sub, _ = run(tmp_path, name, "--help")
        assert code == 0 and "用法：" in sub and "显示本帮助" in sub


def test_no_traceback_on_a_directory_or_unreadable_input(tmp_path):
    (tmp_path / "夹。着色器。豫").mkdir()
    code, _, err = run(tmp_path, "检查", "夹。着色器。豫")
    assert code == 2 and "Traceback" not in err


def test_a_directory_named_like_a_source_is_called_a_directory(tmp_path):
    (tmp_path / "夹。着色器。豫").mkdir()
    for command in ("检查", "译", "生成"):
        code, out, err = run(tmp_path, command, "夹。着色器。豫")
        assert (code, out) == (2, "") and "是文件夹" in err and "找不到" not in err, command


DOUBLE = SEED_DOUBLE


def test_generate_refuses_two_sources_for_one_output_and_writes_nothing(tmp_path):
    write(tmp_path, {"甲/加倍。着色器。豫": DOUBLE, "乙/丙/加倍。着色器。豫": DOUBLE,
                     "库一/包.json": '{"名": "库一", "依赖": ["点染"]}', "库一/子/常。着色器。豫": DOUBLE,
                     "库二/包.json": '{"名": "库二", "依赖": ["点染"]}', "库二/子/常。着色器。豫": DOUBLE})
    for pair in (["甲/加倍。着色器。豫", "乙/丙/加倍。着色器。豫"], ["库一/子/常。着色器。豫", "库二/子/常。着色器。豫"]):
        code, out, err = run(tmp_path, "生成", *pair, "--输出目录", "产物")
        assert (code, out) == (2, "") and all(f"「{p}」" in err for p in pair) and "Traceback" not in err
        assert not (tmp_path / "产物").exists()
    # one source named twice is generated once
    code, out, err = run(tmp_path, "生成", "甲/加倍。着色器。豫", "./甲/../甲/加倍。着色器。豫", "--输出目录", "产物")
    assert code == 0 and out.count("\n") == 1 and out.endswith("\t已更新\n")


def test_generate_into_a_path_that_is_a_file_says_so_in_chinese(tmp_path):
    write(tmp_path, {"加倍。着色器。豫": DOUBLE, "档": "x"})
    code, out, err = run(tmp_path, "生成", "加倍。着色器。豫", "--输出目录", "档")
    assert (code, out) == (1, "") and "是一个文件，不是文件夹" in err and "File exists" not in err
    code, out, err = run(tmp_path, "生成", "加倍。着色器。豫", "--输出目录", "档/下")
    assert (code, out) == (1, "") and "不是文件夹" in err and "Not a directory" not in err
    assert (tmp_path / "档").read_text(encoding="utf-8") == "x"


FIXED = PRELUDE + """
「参」即「组类」【「倍」乃「浮三二」也，「加」乃「浮三二」也】也。
「参数」乃「均匀缓冲」于「参」也。
「参数」者「均匀绑定」于（「组值」【「组」者「零」也，「号」者「一」也】）也。
「甲」乃「存储缓冲」于（「数组」于「浮三二」）也。
「甲」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「乙」乃「存储缓冲」于（「定长数组」于「三维浮」于「二」）也。
「乙」者「绑定」于（「组值」【「组」者「零」也，「号」者「二」也，「访问」者「只读」也】）也。
「算」乃化「全局调用号」为「有」者也。
「算」者得「号」而
　令「序」为「号」中「零」而
　令「参」为「读均匀」于「参数」而
　「写数组」于「甲」于「序」于（（「读数组」于「甲」于「序」）乘（「参」中「倍」）加（「参」中「加」）加（（「取元素」于（「读存储」于「乙」）于（「新无三二」于「零」））中「零」））
也。
「算入口」乃「计算入口」也。
「算入口」者「计算入口项」于「算」于（「组值」【「工作组大小」者「四」也】）也。
"""


def test_run_says_how_much_data_a_fixed_size_buffer_needs(tmp_path):
    import numpy as np
    write(tmp_path, {"浮。着色器。豫": FIXED})
    np.save(tmp_path / "三.npy", np.zeros(3, np.float32))
    cases = [
        (["0:1=2", "0:2=0*8"], "组 0 号 1「参数」（均匀缓冲）定长 8 字节，要正好 2 个 float32 的数，给了 1 个"),
        (["0:1=2,1,5", "0:2=0*8"], "给了 3 个"),
        # 定长数组 of two 三维浮: 32 bytes, each vector padded to 16
        (["0:1=2,1", "0:2=0*6"], "组 0 号 2「乙」（只读存储缓冲）定长 32 字节，要正好 8 个 float32 的数"
                                 "（按 WGSL 的内存布局，含 2 个补齐的位置），给了 6 个"),
        (["0:1=2,1", "0:2=三.npy"], "「三.npy」有 3 个"),
        (["0:1=1e40,1", "0:2=0*8"], "「1e40」超出 float32（「浮三二」）的范围"),
        (["0:1=2,1", "0:2=0*-8"], "「0*-8」的个数是负数"),
        (["0:1=2,1", "0:2=0*8", "0:1=1,1"], "给了两次"),
        (["0:1=2,1", "0:2=0*8", "参数=1,1"], "组 0 号 1「参数」（均匀缓冲）给了两次"),
    ]
    for data, says in cases:
        code, out, err = run(tmp_path, "运行", "浮。着色器。豫", "算入口", "0:0=1,2,3,4", *data)
        assert (code, out) == (2, "") and err.startswith("着色器：") and says in err, (data, err)
        assert "Warning" not in err and "Traceback" not in err


def test_run_explains_a_file_that_is_not_a_npy_in_chinese(tmp_path):
    import numpy as np
    write(tmp_path, {"加倍。着色器。豫": DOUBLE, "文本.npy": "不是 npy\n", "空.npy": ""})
    np.savez(tmp_path / "归档", a=np.zeros(2, np.uint32))
    (tmp_path / "归档.npz").rename(tmp_path / "归档.npy")
    (tmp_path / "夹.npy").mkdir()
    for name, says in (("文本.npy", "不是 NumPy 的 .npy 文件"), ("空.npy", "不是 NumPy 的 .npy 文件"),
                       ("归档.npy", ".npz 归档"), ("夹.npy", "文件夹"), ("没有.npy", "找不到文件「没有.npy」")):
        code, out, err = run(tmp_path, "运行", "加倍。着色器。豫", "加倍入口", f"0:0={name}")
        assert (code, out) == (2, "") and says in err and f"「{name}」" in err, err
        assert not any(word in err for word in ("pickle", "No data", "Failed", "Errno", "directory")), err


def test_run_tells_the_subgroup_size_range_once_when_the_kernel_uses_subgroups(tmp_path):
    """Issue 12: a subgroup kernel's results depend on the width, so 运行 says
    which widths the adapter may use (once), and nothing for other kernels."""
    from zhuose.compiler.runtime.wgpu import WebGPUError, open_device
    try:
        open_device(["subgroup"])
    except WebGPUError as err:
        pytest.skip(f"跳过：没有带子组特性的 WebGPU 适配器：{err}")
    write(tmp_path, {"子组。着色器。豫": PRELUDE + (
        "「数」乃「存储缓冲」于（「数组」于「无三二」）也。\n"
        "「数」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。\n"
        "「g」乃化「全局调用号」为「有」者也。\n"
        "「g」者得「号」而「写数组」于「数」于（「号」中「零」）于（「子组排他前缀和」于（「新无三二」于「一」））也。\n"
        "「g入口」乃「计算入口」也。\n"
        "「g入口」者「计算入口项」于「g」于（「组值」【「工作组大小」者「四」也】）也。\n"),
        "加倍。着色器。豫": DOUBLE})
    code, out, err = run(tmp_path, "运行", "子组。着色器。豫", "g入口", "0:0=9*4")
    assert code == 0 and out.startswith("「数」（组 0 号 0）：[0 1 2 3]"), (out, err)
    assert err.count("的子组大小在") == 1 and err.startswith("着色器：适配器「"), err
    code, out, err = run(tmp_path, "运行", "加倍。着色器。豫", "加倍入口", "0:0=1,2,3,4")
    assert code == 0 and "子组" not in err, err


ROWS = PRELUDE + """\
「粒子」即「组类」【「位置」乃「四维浮」也，「号」乃「无三二」也，「重」乃「浮三二」也】也。
「甲」乃「存储缓冲」于（「数组」于「四维浮」）也。
「甲」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。
「乙」乃「存储缓冲」于（「数组」于「粒子」）也。
「乙」者「绑定」于（「组值」【「组」者「零」也，「号」者「一」也，「访问」者「读写」也】）也。
「算」乃化「全局调用号」为「有」者也。
「算」者得「号」而
　令「序」为「号」中「零」而
　「写数组」于「甲」于「序」于（（「读数组」于「乙」于「序」）中「位置」）
也。
「算入口」乃「计算入口」也。
「算入口」者「计算入口项」于「算」于（「组值」【「工作组大小」者「四」也】）也。
「顶」乃化「顶点序号」为「裁剪位置」者也。
「顶」者得「i」而（「新浮三二」于「零」）与（「新浮三二」于「零」）与（「新浮三二」于「零」）与（「新浮三二」于「一」）也。
「顶入口」乃「顶点入口」也。
「顶入口」者「顶点入口项」于「顶」也。
"""


@pytest.mark.parametrize("backend", ["网页图算", "参照", "千手"])
def test_run_wants_whole_elements_of_a_runtime_array(tmp_path, backend):
    """Issue 15: five floats for 4-float rows, a 33-byte .npy for 32-byte
    structs, and less than one element are usage errors (exit 2) naming the
    element's size — before any back end runs, so the same on all three."""
    import numpy as np
    write(tmp_path, {"行。着色器。豫": ROWS})
    np.save(tmp_path / "粒.npy", np.zeros(33, np.uint8))
    np.save(tmp_path / "小.npy", np.zeros(31, np.uint8))
    np.save(tmp_path / "好.npy", np.zeros(32, np.uint8))
    row = "组 0 号 0「甲」（读写存储缓冲）是运行期数组，每个元素 16 字节，4 个 float32 的数；"
    struct = "组 0 号 1「乙」（读写存储缓冲）是运行期数组，每个元素 32 字节（按 WGSL 的内存布局）；"
    cases = [
        (["0:0=1,2,3,4,5", "0:1=好.npy"], row + "要整数个元素（4 个数的倍数），给了 5 个"),
        (["0:0=1,2,3", "0:1=好.npy"], row + "至少要一个元素（4 个数），给了 3 个"),
        (["0:0=0*0", "0:1=好.npy"], row + "至少要一个元素（4 个数），给了 0 个"),
        (["0:0=0*4", "0:1=粒.npy"], struct + "要整数个元素（32 字节的倍数），「粒.npy」有 33 字节"),
        (["0:0=0*4", "0:1=小.npy"], struct + "至少要一个元素（32 字节），「小.npy」有 31 字节"),
    ]
    for data, says in cases:
        code, out, err = run(tmp_path, "运行", "行。着色器。豫", "算入口", *data, "--后端", backend)
        assert (code, out, err) == (2, "", f"着色器：{says}\n"), (data, err)


def test_run_on_a_vertex_entry_says_it_runs_compute_entries(tmp_path):
    write(tmp_path, {"行。着色器。豫": ROWS})
    code, out, err = run(tmp_path, "运行", "行。着色器。豫", "顶入口", "0:0=0*4")
    assert (code, out) == (2, "")
    assert err == "着色器：「顶入口」是顶点入口项：运行 只运行计算入口项（派发一次计算着色器）；这个文件的计算入口项有 「算入口」\n"


def test_version_flag_and_subcommand_print_the_projects_version(tmp_path):
    import tomllib
    from pathlib import Path
    pyproject = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text("utf-8"))
    line = f"着色器 {pyproject['project']['version']}\n"
    for args in (["--version"], ["版本"], ["version"]):
        assert run(tmp_path, *args) == (0, line, ""), args


def test_version_falls_back_to_pyproject_when_not_installed(monkeypatch):
    from importlib import metadata
    from zhuose.cli import version as v

    def missing(name):
        raise metadata.PackageNotFoundError(name)
    monkeypatch.setattr(metadata, "version", missing)
    assert v.version() == v._pyproject_version() != "未知"
