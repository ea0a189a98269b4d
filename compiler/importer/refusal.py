"""What the importer cannot express: one refusal per construct, at its WGSL offset."""

from __future__ import annotations


class Refusal(Exception):
    """`导入：不支持 …`: the construct and why, at a WGSL offset."""

    def __init__(self, offset: int, what: str):
        super().__init__(what)
        self.offset = offset
        self.what = what
        self.more: list[Refusal] = []      # the other constructs refused in the same declaration


class Skipped(Exception):
    """A statement that uses what a refused statement bound: left out without a second message."""


#: refusals for what 着色 itself cannot say (the construct's words, as `导入：不支持 …` begins); every
#: other refusal is something the importer could learn.  bench/bench_import.py counts files by it.
LANGUAGE_LACKS = (
    "var<private>", "带初值的模块级变量",                       # no module-level mutable variables
    "指针", "取地址 &", "解引用 *",                              # no pointers
    "向量乘矩阵",                                                # only 矩阵乘 matrix × vector or matrix
    "矩阵类型", "矩阵的类型转换",                                # only f32 square matrices
    "const_assert", "没有默认值的 override", "override 的 @id",   # overrides have defaults, numbered in order
    "结构字段的 @align/@size", "@invariant", "只写的存储缓冲", "地址空间",
    "给缓冲里的字段或分量",                                      # elements are read and written whole
    "结构字段里的单个原子",                                      # atomics are indexed: a one-element array
    "不是定长数组、标量、向量或原子的工作组变量",
    "不是整数字面量的长度或工作组大小", "工作组大小里可覆盖常量与数混写",   # sizes are literals or constants' names
    "抽象常量", "多步的抽象浮点常量算式",                        # a constant has one type; no wider evaluation
    "内建量 @builtin", "指令", "类型「", "存储纹理格式", "返回值的 @location",
    "workgroupUniformLoad", "subgroupBroadcast", "sinh", "cosh", "asinh", "acosh", "atanh", "degrees", "radians",
)

#: what the checker says of an imported program for a rule of the language that WGSL does not have
LANGUAGE_RULES = ("一个入口用到的资源各占一个资源位", "须在一致控制流中执行")


def language_lacks(what: str) -> bool:
    """Whether a refusal's construct (or a checker's message about an imported program) is something
    着色 cannot express, as opposed to something the importer does not yet write."""
    return what.startswith(LANGUAGE_LACKS) or any(rule in what for rule in LANGUAGE_RULES)
