"""The builtin interface file: every name LANGUAGE.md §6 requires is declared,
every declaration is documented, and docs/内建.md is generated from it."""

from pathlib import Path

from zhuose.compiler.reference import render
from zhuose.compiler.workspace import Workspace

ROOT = Path(__file__).resolve().parent.parent

#: LANGUAGE.md §6, name by name.
REQUIRED = """
整数 小数 爻 有 元类型 元 阳 阴
定长小数 定长整数 定长无符号 浮三二 浮十六 整三二 无三二
二维浮 三维浮 四维浮 二维半 三维半 四维半 二维整 三维整 四维整 二维无 三维无 四维无 二维爻 三维爻 四维爻
二阶浮 三阶浮 四阶浮
全局调用号 局部调用号 局部调用序 工作组号 工作组数 顶点序号 实例序号 裁剪位置 片元坐标 正面朝向 片元深度 采样序号
采样掩码 子组调用序 子组大小 片元颜色
存储缓冲 均匀缓冲 工作组变量 数组 定长数组 原子 纹理二维 采样器 深度纹理二维 比较采样器
子组矩阵片甲 子组矩阵片乙 子组矩阵片累 张量片累
绑定项 资源位 访问方式 只读 读写 组类 绑定 均匀绑定 纹理绑定 采样器绑定 深度纹理绑定 比较采样器绑定 工作组共享
计算入口 顶点入口 片元入口 计算选项 计算入口项 顶点入口项 片元入口项
新浮三二 新浮十六 新整三二 新无三二 转换
加 减 乘 除 余 左移 右移 等于 不等于 小于 大于 不大于 不小于 按位与 按位或 异或 且 或 非 负
读数组 写数组 读共享数组 写共享数组 取元素 数组长度 读均匀 读存储 写存储
原子加 原子最大 原子最小 原子读 原子存
格 新格 读格 写格
绝对值 最大 最小 夹紧 混合 阶跃 平滑阶跃 平方根 逆平方根 指数 指数二 对数 对数二
幂 正弦 余弦 正切 双曲正切 反正弦 反余弦 反正切 反正切二 向下取整 向上取整 四舍五入
截断 小数部分 饱和 符号 点积 叉积 长度 距离 归一化 融合乘加 选择 位转换
半精度解包 半精度打包 矩阵乘
工作组屏障 存储屏障 舍弃
采样纹理 按层采样纹理 读纹素 纹理尺寸 比较采样 横差 纵差
子组求和 子组最大 子组最小 子组广播 子组洗牌 子组异或洗牌
子组求积 子组按位与 子组按位或 子组按位异或 子组前缀和 子组前缀积 子组排他前缀和 子组排他前缀积 子组上移洗牌 子组下移洗牌 子组广播首个 子组任一 子组全都 子组投票 子组选一
载入矩阵片累 载矩阵片乙自转置存储 载入矩阵片累前八行 载矩阵片甲自存储 载矩阵片乙自存储 载矩阵片甲前八行
存矩阵片累前八行 存矩阵片累到存储
""".split()


def test_every_required_name_is_declared_and_documented(tmp_path):
    ws = Workspace(tmp_path)
    checked = ws.builtins()
    assert [d.message for d in checked.diagnostics] == []
    declared = set(checked.exports.types) | set(checked.exports.values)
    assert [n for n in REQUIRED if n not in declared] == []
    undocumented = [item.name for item, _ in checked.items if item.name and not item.doc]
    assert undocumented == []


def test_reference_document_is_current(tmp_path):
    assert (ROOT / "docs" / "内建.md").read_text(encoding="utf-8") == render(Workspace(tmp_path)), \
        "docs/内建.md 已过时：运行 python -m zhuose.compiler.reference > docs/内建.md"


def test_quad_broadcast_lane_is_a_written_number_0_to_3(tmp_path):
    """WGSL's quadBroadcast takes a const-expression lane: 「四组广播」's 序 is a written 0 … 3."""
    from support.frontend import check_text
    body = ("「数据」乃「存储缓冲」于（「数组」于「浮三二」）也。\n"
            "「数据」者「绑定」于（「组值」【「组」者「零」也，「号」者「零」也，「访问」者「读写」也】）也。\n"
            "「算」乃化「全局调用号」为「有」者也。\n"
            "「算」者得「号」而「写数组」于「数据」于（「号」中「零」）于（「四组广播」于（「新浮三二」于「一」）于{lane}）也。\n"
            "「入」乃「计算入口」也。\n"
            "「入」者「计算入口项」于「算」于（「组值」【「工作组大小」者「六四」也】）也。\n")
    assert check_text(tmp_path / "好", body.format(lane="（「新无三二」于「三」）"))[1] == []
    for lane, shown in (("（「新无三二」于「四」）", "是 4"), ("（「号」中「零」）", "不是写出的数")):
        (message,) = check_text(tmp_path / shown, body.format(lane=lane))[1]
        assert f"「四组广播」的序须写成 0 至 3 的「无三二」字面量（WGSL 要常量），这里{shown}" in message
