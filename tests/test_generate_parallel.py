"""Many build workers at once (seed 着二.2): eight processes generate the same
tree of modules into one folder; the files are complete and identical to a
sequential generation, no temporary file is left, a second run rewrites
nothing (so every file is byte for byte what a single worker writes), and an
edit of one imported module rewrites exactly its importers."""

from __future__ import annotations

import subprocess
import sys

from support.generate_fakes import importers_of, make_tree, read_back

WORKERS = 8
#: the 200-module tree of issue 7 (bench/bench_generate.py measures the same)
MODULES = 200
EDITED = "库/库03。着色器。豫"


def output_name(source: str) -> str:
    return source.replace("。着色器。豫", "。着色生成。豫")


def generate_all(root, files, workers=1) -> list[dict[str, str]]:
    """Run `workers` 着色器 生成 processes at once; each one's report, file → 已更新/未改动."""
    command = [sys.executable, "-m", "zhuose.cli", "生成", *files, "--输出目录", "产物"]
    processes = [subprocess.Popen(command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, encoding="utf-8") for _ in range(workers)]
    reports = []
    for p in processes:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0 and "Traceback" not in err, err
        reports.append(dict(line.split("\t") for line in out.splitlines()))
    return reports


def stats(folder):
    return {p.relative_to(folder).as_posix(): (p.stat().st_mtime_ns, p.stat().st_ino)
            for p in folder.rglob("*") if p.is_file()}


def test_parallel_workers_then_incremental_runs(tmp_path):
    graph = make_tree(tmp_path, MODULES)
    files = sorted(graph)
    assert len(files) == MODULES
    out = tmp_path / "产物"

    reports = generate_all(tmp_path, files, WORKERS)
    expected_names = sorted(output_name(f) for f in files)
    assert sorted(stats(out)) == expected_names            # complete, and no temporary file left
    assert all(sorted(r) == sorted(f"产物/{n}" for n in expected_names) for r in reports)
    for f in files:
        values = read_back((out / output_name(f)).read_text(encoding="utf-8"))
        assert {"着色源", "金属源", "并线汇编源"} <= set(values)

    # a sequential run finds every file byte for byte as it would write it
    before = stats(out)
    (second,) = generate_all(tmp_path, files)
    assert set(second.values()) == {"未改动"} and stats(out) == before

    edited = tmp_path / EDITED
    edited.write_text(edited.read_text(encoding="utf-8") + "「：改动：」\n", encoding="utf-8")
    (third,) = generate_all(tmp_path, files)
    expected = {f"产物/{output_name(f)}" for f in importers_of(graph, EDITED)}
    assert {f for f, state in third.items() if state == "已更新"} == expected
    after = stats(out)
    assert {f"产物/{name}" for name in after if after[name] != before[name]} == expected
    assert 3 < len(expected) < 20
