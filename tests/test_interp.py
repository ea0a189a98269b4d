"""The reference interpreter (compiler/interp/): every compute sample against
its NumPy reference (tests/support/references.py), each kind of fault reported at the
right place with the invocations named (and a correct sibling not reported),
subgroup widths, determinism and the 运行 command line."""

from __future__ import annotations

import numpy as np
import pytest

from support.interp_runner import HEADER, buffer, entry, interpret, program
from support.references import NOT_WGSL, REFERENCES, SAMPLES, frexp_of_subnormals, sample_path
from zhuose.compiler.interp import Fault, run
from zhuose.compiler.workspace import Workspace

WS = Workspace(SAMPLES)


def sample_run(sample: str, entry: str, data: dict, groups, textures=()) -> dict:
    return interpret(WS, sample_path(sample), entry, data, groups, textures)


#: samples whose reference dispatch the interpreter rightly refuses (tested below with a fitting size)
FAULTY = {"加倍": "越界"}


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_runs_like_numpy(name):
    if name in NOT_WGSL:
        pytest.skip(f"跳过：{name} 不能译成 WGSL（{NOT_WGSL[name]}），参照解释器与 WGSL 一样不运行它")
    if name in FAULTY:
        with pytest.raises(Fault, match=FAULTY[name]):
            REFERENCES[name](sample_run)
        return
    REFERENCES[name](sample_run)


def test_frexp_normalises_subnormals():
    frexp_of_subnormals(sample_run)


# ---------------------------------------------------------------- programs of the fault tests

def fault_of(ws, path, entry_name, data, groups, **options):
    with pytest.raises(Fault) as caught:
        interpret(ws, path, entry_name, data, groups, **options)
    d = caught.value.diagnostic
    text = d.format(ws.source(d.path))
    return d, text


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if needle in line)


STORE = HEADER + buffer("数据", "零") + """「写」乃化「全局调用号」为「有」者也。
「写」者得「号」而
　令「序」为「号」中「零」而
　「写数组」于「数据」于 INDEX 于「序」
也。
""" + entry("写")


def test_each_invocation_writing_its_own_element_is_no_race(tmp_path):
    ws, path = program(tmp_path, "各写各", STORE.replace("INDEX", "「序」"))
    out = interpret(ws, path, "写入口", {"数据": np.zeros(128, np.uint32)}, 2)
    assert out["数据"].tolist() == list(range(128))


def test_a_storage_race_names_both_invocations(tmp_path):
    text = STORE.replace("INDEX", "（「新无三二」于「零」）")
    ws, path = program(tmp_path, "同写", text)
    d, shown = fault_of(ws, path, "写入口", {"数据": np.zeros(128, np.uint32)}, 2)
    assert f":{line_of(text, '「写数组」')}:2: 在「写」中：数据竞争" in shown
    assert "「数据」的第 0 个元素" in d.message
    assert "（工作组 0 局部 0）" in d.message and "（工作组 0 局部 1）" in d.message


REDUCTION = (SAMPLES / "归约。着色器。豫").read_text(encoding="utf-8")
INNER_BARRIER = "　　　）；\n　　　「工作组屏障」于「元」；\n"


def test_a_tree_reduction_without_its_loop_barrier_is_racy():
    """The mutated sample: the barrier between the halving steps removed."""
    assert REDUCTION.count(INNER_BARRIER) == 1
    text = REDUCTION.replace(INNER_BARRIER, "　　　）；\n")
    x = np.arange(700, dtype=np.float32)
    data = {"输入": x, "块和": np.zeros(3, np.float32), "块最大": np.zeros(3, np.float32)}
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as folder:
        ws, path = program(Path(folder), "归约", text)
        d, shown = fault_of(ws, path, "归约入口", data, 3)
    assert "数据竞争" in d.message and "「和区」" in d.message and "（工作组 0 局部" in d.message
    assert f":{line_of(text, '「写共享数组」于「和区」于「局」于（（')}:" in shown


def test_the_tree_reduction_with_barriers_is_no_race():
    x = np.arange(700, dtype=np.float32)
    out = sample_run("归约", "归约入口", {"输入": x, "块和": np.zeros(3, np.float32),
                                      "块最大": np.zeros(3, np.float32)}, 3)
    assert out["块最大"].tolist() == [255, 511, 699]


ATOMIC = HEADER + buffer("计数", "零", "（「原子」于「无三二」）") + buffer("旧", "一") + """「取号」乃化「全局调用号」为「有」者也。
「取号」者得「号」而
　令「序」为「号」中「零」而
　「写数组」于「旧」于「序」于（「原子加」于「计数」于（「新无三二」于「零」）于（「新无三二」于「一」））
也。
""" + entry("取号")


def test_atomics_from_every_invocation_are_no_race_and_the_seed_permutes_their_order(tmp_path):
    ws, path = program(tmp_path, "取号", ATOMIC)
    data = {"计数": np.zeros(1, np.uint32), "旧": np.zeros(256, np.uint32)}
    plain = interpret(ws, path, "取号入口", data, 4)
    assert plain["计数"].tolist() == [256] and plain["旧"].tolist() == list(range(256))
    shuffled = interpret(ws, path, "取号入口", data, 4, schedule_seed=7)
    again = interpret(ws, path, "取号入口", data, 4, schedule_seed=7)
    assert shuffled["计数"].tolist() == [256] and sorted(shuffled["旧"].tolist()) == list(range(256))
    assert shuffled["旧"].tolist() != plain["旧"].tolist()
    assert shuffled["旧"].tolist() == again["旧"].tolist()
    # whole subgroups move: within a subgroup (32 lanes) the tickets stay consecutive
    tickets = shuffled["旧"].reshape(-1, 32)
    assert (np.diff(tickets, axis=1) == 1).all()


def test_an_atomic_and_a_plain_write_of_one_element_race(tmp_path):
    text = ATOMIC.replace("「写数组」于「旧」于「序」于（「原子加」",
                          "「写数组」于「旧」于（「新无三二」于「零」）于（「原子加」")
    ws, path = program(tmp_path, "取号竞争", text)
    d, _ = fault_of(ws, path, "取号入口", {"计数": np.zeros(1, np.uint32), "旧": np.zeros(256, np.uint32)}, 4)
    assert "数据竞争" in d.message and "「旧」的第 0 个元素" in d.message


DIVERGENT_BARRIER = HEADER + buffer("数据", "零") + """「共享」乃「工作组变量」于（「定长数组」于「无三二」于「六四」）也。
「共享」者「工作组共享」于「元」也。

「屏障」乃化「局部调用序」为「有」者也。
「屏障」者得「局」而
　「写共享数组」于「共享」于「局」于「局」；
　BARRIER；
　「写数组」于「数据」于「局」于（「读共享数组」于「共享」于（「新无三二」于「六三」减「局」））
也。
""" + entry("屏障")


def test_a_barrier_reached_by_part_of_the_workgroup(tmp_path):
    text = DIVERGENT_BARRIER.replace("BARRIER", "若「局」小于（「新无三二」于「三二」）则「工作组屏障」于「元」")
    ws, path = program(tmp_path, "半屏障", text, divergent=True)
    d, shown = fault_of(ws, path, "屏障入口", {"数据": np.zeros(64, np.uint32)}, 1)
    assert f":{line_of(text, '「工作组屏障」')}:" in shown
    assert "「工作组屏障」只被工作组的一部分调用执行到" in d.message
    assert "（工作组 0 局部 0）到了" in d.message and "（工作组 0 局部 32）没有到" in d.message


def test_a_barrier_every_invocation_reaches(tmp_path):
    ws, path = program(tmp_path, "全屏障", DIVERGENT_BARRIER.replace("BARRIER", "「工作组屏障」于「元」"))
    out = interpret(ws, path, "屏障入口", {"数据": np.zeros(64, np.uint32)}, 1)
    assert out["数据"].tolist() == list(range(63, -1, -1))


SUBGROUP = HEADER + buffer("数据", "零") + """「子组」乃化「局部调用序」为「有」者也。
「子组」者得「局」而
　BODY
也。
""" + entry("子组")


def test_a_subgroup_operation_reached_by_part_of_the_subgroup(tmp_path):
    text = SUBGROUP.replace("BODY", "若「局」小于（「新无三二」于「三」）则「写数组」于「数据」于「局」于（「子组求和」于「局」）")
    ws, path = program(tmp_path, "半子组", text, divergent=True)
    d, shown = fault_of(ws, path, "子组入口", {"数据": np.zeros(64, np.uint32)}, 1)
    assert f":{line_of(text, '「子组求和」')}:" in shown
    assert "子组运算「子组求和」只被子组的一部分调用执行到" in d.message
    assert "（工作组 0 局部 0）到了" in d.message and "（工作组 0 局部 3）没有到" in d.message


def test_a_subgroup_operation_whole_subgroups_reach(tmp_path):
    body = "令「和」为「子组求和」于「局」而\n　若「局」小于（「新无三二」于「三二」）则「写数组」于「数据」于「局」于「和」"
    ws, path = program(tmp_path, "整子组", SUBGROUP.replace("BODY", body))
    out = interpret(ws, path, "子组入口", {"数据": np.zeros(64, np.uint32)}, 1, subgroup_width=16)
    i = np.arange(64)
    expected = np.where(i < 32, np.repeat(i.reshape(-1, 16).sum(1), 16), 0)
    assert out["数据"].tolist() == expected.tolist()


def test_out_of_bounds_names_the_invocation():
    """加倍 has no bounds check: 37 elements on 10 workgroups of 4 (WGSL clamps the last three silently)."""
    x = np.arange(37, dtype=np.uint32)
    with pytest.raises(Fault) as caught:
        sample_run("加倍", "加倍入口", {"数据": x}, 10)
    d = caught.value.diagnostic
    assert d.format(WS.source(d.path)).startswith(f"{d.path}:12:19: 在「加倍」中：越界：调用（工作组 9 局部 1）")
    assert "第 37 个元素，它只有 37 个" in d.message
    out = sample_run("加倍", "加倍入口", {"数据": np.arange(40, dtype=np.uint32)}, 10)
    assert out["数据"].tolist() == [2 * i for i in range(40)]


DIVISION = HEADER + buffer("甲", "零", "「整三二」", "只读") + buffer("乙", "一", "「整三二」", "只读") + \
    buffer("商", "二", "「整三二」") + buffer("余数", "三", "「整三二」") + """「除法」乃化「全局调用号」为「有」者也。
「除法」者得「号」而
　令「序」为「号中「零」而
　令「a」为「读数组」于「甲」于「序」而
　令「b」为「读数组」于「乙」于「序」而
　「写数组」于「商」于「序」于（「a」除「b」）；
　「写数组」于「余数」于「序」于（「a」余「b」）
也。
""".replace("「号中「零」", "「号」中「零」") + entry("除法", "四")


def test_integer_division_by_zero_and_its_sibling(tmp_path):
    ws, path = program(tmp_path, "除法", DIVISION)
    a = np.array([-7, 7, -2 ** 31, 9, 5, -5, 100, 3], np.int32)
    b = np.array([2, -2, -1, 3, -3, -3, 7, 1], np.int32)
    zeros = np.zeros(8, np.int32)
    out = interpret(ws, path, "除法入口", {"甲": a, "乙": b, "商": zeros, "余数": zeros}, 2)
    assert out["商"].tolist() == [-3, -3, -2 ** 31, 3, -1, 1, 14, 3]
    assert out["余数"].tolist() == [-1, 1, 0, 0, 2, -2, 2, 0]
    b[5] = 0
    d, shown = fault_of(ws, path, "除法入口", {"甲": a, "乙": b, "商": zeros, "余数": zeros}, 2)
    assert f":{line_of(DIVISION, '（「a」除「b」）')}:" in shown
    assert "整数除以零：调用（工作组 1 局部 1）的除数是 0" in d.message


WIDTHS = HEADER + buffer("和", "零") + buffer("道号", "一") + buffer("宽", "二") + buffer("扫描", "三") + """「子组调用」即「组类」【「序」乃「局部调用序」也，「道」乃「子组调用序」也，「宽」乃「子组大小」也】也。

「宽度」乃化「子组调用」为「有」者也。
「宽度」者得「调」而
　令「序」为「调」中「序」而
　令「道」为「调」中「道」而
　令「步」为得「值」又得「跨」而
　　若「跨」不小于（「新无三二」于「一二八」）则「值」
　　否则（
　　　令「够」为「道」不小于「跨」而
　　　令「邻」为「子组洗牌」于「值」于（「选择」于「道」于（「道」减「跨」）于「够」）而
　　　「步」于（「值」加（「选择」于（「新无三二」于「零」）于「邻」于「够」））于（「跨」左移（「新无三二」于「一」））
　　）
　而
　「写数组」于「和」于「序」于（「子组求和」于「序」）；
　「写数组」于「道号」于「序」于「道」；
　「写数组」于「宽」于「序」于（「调」中「宽」）；
　「写数组」于「扫描」于「序」于（「步」于「序」于（「新无三二」于「一」））
也。
""" + entry("宽度")


def test_subgroup_results_at_widths_8_and_32(tmp_path):
    ws, path = program(tmp_path, "子组宽", WIDTHS)
    zeros = np.zeros(64, np.uint32)
    i = np.arange(64, dtype=np.uint32)
    for width in (8, 32):
        out = interpret(ws, path, "宽度入口", {"和": zeros, "道号": zeros, "宽": zeros, "扫描": zeros}, 1,
                        subgroup_width=width)
        rows = i.reshape(-1, width)
        assert out["和"].tolist() == np.repeat(rows.sum(1), width).tolist()
        assert out["道号"].tolist() == (i % width).tolist()
        assert out["宽"].tolist() == [width] * 64
        assert out["扫描"].tolist() == np.cumsum(rows, axis=1).ravel().tolist()


def test_a_shuffle_from_a_lane_outside_the_subgroup_is_a_fault():
    """子组归约's butterfly reaches 16 lanes away: at width 8 the source does not exist."""
    n = 128
    data = {"输入": np.zeros(n, np.float32), "输出": np.zeros((n, 4), np.float32),
            "蝶形和": np.zeros(n, np.float32), "大小": np.zeros(1, np.uint32)}
    with pytest.raises(Fault) as caught:
        interpret(WS, sample_path("子组归约"), "子组归约入口", data, 2, subgroup_width=8)
    assert "「子组异或洗牌」的源调用不存在：调用（工作组 0 局部 0）要子组里第 16 号调用的值" in caught.value.diagnostic.message


# ---------------------------------------------------------------- the command line


def _cli(*args, cwd):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "zhuose.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


def test_run_on_the_reference_backend_prints_like_webgpu_and_is_deterministic():
    root = SAMPLES.parent
    args = ("运行", "samples/直方图。着色器。豫", "统计入口", "0:0=" + ",".join(str(i % 300) for i in range(500)),
            "0:1=0*256", "--后端", "参照")
    first, second = _cli(*args, cwd=root), _cli(*args, cwd=root)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout and first.stdout.startswith("「桶」（组 0 号 1）：[")
    counts = np.bincount(np.minimum(np.arange(500) % 300, 255), minlength=256)
    printed = first.stdout.split("：", 1)[1].replace("[", " ").replace("]", " ").split()
    assert [int(v) for v in printed] == counts.tolist()


def test_run_reports_a_fault_with_its_position_and_exit_status():
    result = _cli("运行", "samples/加倍。着色器。豫", "加倍入口", "0:0=1,2,3,4,5,6,7", "--后端", "参照",
                  cwd=SAMPLES.parent)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("samples/加倍。着色器。豫:12:19: 在「加倍」中：越界：调用（工作组 1 局部 3）")


# random programs on all four executors: tests/test_differential.py


STORAGE_EXCHANGE = HEADER + buffer("数据", "零") + buffer("出", "一") + """「交换」乃化「全局调用号」为「有」者也。
「交换」者得「号」而
　令「序」为「号」中「零」而
　「写数组」于「数据」于「序」于「序」；
　「BARRIER」于「元」；
　「写数组」于「出」于「序」于（「读数组」于「数据」于（「新无三二」于「OTHER」减「序」））
也。
""" + entry("交换")


@pytest.mark.parametrize("barrier, other, groups, racy", [
    ("存储屏障", "六三", 1, ""),     # storageBarrier orders storage within the workgroup
    # workgroupBarrier orders only workgroup memory (WGSL)
    ("工作组屏障", "六三", 1, "两者之间只有「工作组屏障」，它不排序存储缓冲的读写：要用「存储屏障」"),
    ("存储屏障", "一二七", 2, "两者在不同的工作组里，没有屏障能排序它们"),    # no barrier orders two workgroups
])
def test_which_barrier_orders_storage(tmp_path, barrier, other, groups, racy):
    text = STORAGE_EXCHANGE.replace("BARRIER", barrier).replace("OTHER", other)
    ws, path = program(tmp_path, "交换", text)
    n = 64 * groups
    data = {"数据": np.zeros(n, np.uint32), "出": np.zeros(n, np.uint32)}
    if not racy:
        assert interpret(ws, path, "交换入口", data, groups)["出"].tolist() == list(range(n - 1, -1, -1))
        return
    d, shown = fault_of(ws, path, "交换入口", data, groups)
    assert f":{line_of(text, '「写数组」于「出」')}:" in shown
    written = line_of(text, "「写数组」于「数据」于「序」于「序」")
    assert d.message == (f"数据竞争：「数据」的第 {n - 1} 个元素被调用（工作组 {groups - 1} 局部 63）"
                         f"写（第 {written} 行第 2 列），又被调用（工作组 0 局部 0）读，{racy}")


def test_run_prints_exactly_what_the_webgpu_run_prints(tmp_path):
    """Same arguments, same lines; the .npy of a writable buffer is written back the same way."""
    pytest.importorskip("wgpu")
    x = np.arange(600, dtype=np.uint32) * np.uint32(2654435761)
    outputs = {}
    for backend in ("网页图算", "参照"):
        np.save(tmp_path / "输入.npy", x)
        np.save(tmp_path / "输出.npy", np.zeros(600, np.uint32))
        result = _cli("运行", str(SAMPLES / "前缀和。着色器。豫"), "扫描入口", "0:0=输入.npy", "0:1=输出.npy",
                      "--后端", backend, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        outputs[backend] = (result.stdout, (tmp_path / "输出.npy").read_bytes())
    assert outputs["网页图算"] == outputs["参照"]


def test_a_program_with_a_type_error_is_not_run(tmp_path):
    from zhuose.compiler.interp import Unsupported
    path = tmp_path / "坏。着色器。豫"
    path.write_text(STORE.replace("INDEX", "「未知」"), encoding="utf-8")
    with pytest.raises(Unsupported, match="程序有错误，不能运行：在「写」中：未知的名字「未知」"):
        run(Workspace(tmp_path), path, "写入口", {(0, 0): bytes(256)}, 1)


NEGATIVE_ZEROS = HEADER + buffer("入", "零", "「浮三二」", "只读") + buffer("出", "一", "「四维浮」") + """
「负零」乃化「全局调用号」为「有」者也。
「负零」者得「号」而
　令「i」为「号」中「零」而
　令「x」为「读数组」于「入」于「i」而
　「写数组」于「出」于「i」于（「子组求和」于「x」与「子组前缀和」于「x」与「子组排他前缀和」于「x」与「x」）
也。
""" + entry("负零", "四零")


def test_a_partial_subgroup_sums_negative_zeros_to_negative_zero(tmp_path):
    """40 invocations at width 32: the second subgroup has 8 lanes; its missing lanes add nothing,
    so a sum of −0.0 stays −0.0 (as on the PTX emulator); an exclusive sum starts at +0.0."""
    ws, path = program(tmp_path, "负零", NEGATIVE_ZEROS)
    x = np.full(40, -0.0, np.float32)
    out = interpret(ws, path, "负零入口", {"入": x, "出": np.zeros((40, 4), np.float32)}, 1, subgroup_width=32)["出"]
    assert np.signbit(out[:, :2]).all() and not np.signbit(out[[0, 32], 2]).any() and np.signbit(out[1:32, 2]).all()
