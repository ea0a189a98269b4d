"""The build service and the language server under hostile input (issue 18):
real processes, fed malformed lines and frames, must keep answering, and every
build reply is strict JSON carrying the request's 编号 whenever it had one."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from frontend_util import SEED_DOUBLE, write


def strict(line: str):
    def refuse(constant):
        raise ValueError(f"不是 JSON：{constant}")
    return json.loads(line, parse_constant=refuse)


def build_service(root, lines: list[bytes]) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "zhuose.compiler.cli", "服务", "--构建"], cwd=root,
                          input=b"\n".join(lines) + b"\n", capture_output=True, timeout=120)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr.decode(errors="replace")
    return [strict(line) for line in proc.stdout.decode("utf-8").splitlines()]


def test_build_service_answers_hostile_lines_with_their_numbers(tmp_path):
    write(tmp_path, {"工作区/加倍。着色器。豫": SEED_DOUBLE, "外。着色器。豫": SEED_DOUBLE})
    root = tmp_path / "工作区"
    os.mkfifo(root / "管。着色器。豫")
    os.symlink("环。着色器。豫", root / "环。着色器。豫")
    good = "加倍。着色器。豫"
    hostile = [  # (request line, the 编号 the reply must carry, the start of its error)
        ('{"文件": "\\ud800。着色器。豫", "编号": 1}', 1, "「文件」含有不能用在路径里的字符"),
        ('{"文件": "%s", "编号": "\\ud800"}' % good, "\ud800", None),
        ('{"文件": "%s", "编号": NaN}' % good, None, "「编号」须是"),
        ('{"文件": "%s", "编号": 1e999}' % good, None, "「编号」须是"),
        (json.dumps({"文件": "长" * 5000 + "。着色器。豫", "编号": 5}), 5, "读不了"),
        (json.dumps({"文件": good, "输出目录": "产\0物", "编号": 6}), 6, "「输出目录」含有不能用在路径里的字符"),
        ('{"编号": 7, "文件": ' + "[" * 100000 + "]" * 100000 + "}", 7, "请求的 JSON 嵌套过深"),
        (json.dumps({"文件": "../外。着色器。豫", "编号": 8}), 8, "「文件」「../外。着色器。豫」在工作区根目录"),
        (json.dumps({"文件": good, "输出目录": "产物/../../外", "编号": 9}), 9, "「输出目录」「产物/../../外」在工作区根目录"),
        (json.dumps({"文件": "管。着色器。豫", "编号": 10}), 10, "「管。着色器。豫」不是普通文件"),
        (json.dumps({"文件": "环。着色器。豫", "编号": 11}), 11, "读不了「环。着色器。豫」"),
        (json.dumps({"文件": good, "输出目录": "", "编号": 12}), 12, "「输出目录」是空字符串"),
        ('{"编号": 13, "文件": 不是 JSON', 13, "请求不是合法的 JSON"),
    ]
    lines = [h[0].encode("utf-8", "surrogatepass") for h in hostile]
    lines += [b'{"\xff": 1, "\xe7\xbc\x96\xe5\x8f\xb7": 14}',   # not UTF-8 (编号 14)
              json.dumps({"文件": "./产物/../加倍。着色器。豫", "输出目录": "产物/./", "编号": 15}).encode()]
    replies = build_service(root, lines)
    assert len(replies) == len(lines)
    for (_, number, error), reply in zip(hostile, replies):
        assert reply["编号"] == number
        if error:
            assert reply["模块"] is None and reply["错误"][0].startswith(error), reply["错误"]
    assert replies[1]["错误"] == [] and replies[1]["模块"]
    assert replies[13]["编号"] == 14 and replies[13]["错误"] == ["请求缺少「文件」（着色源的路径，字符串）"]
    assert replies[14]["输出"] == str(root / "产物" / "加倍。着色生成。豫")   # normalised
    assert not (tmp_path / "外。着色生成。豫").exists()
