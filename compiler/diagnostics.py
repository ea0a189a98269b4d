"""Diagnostics: every message names a file, a position and the top-level
definition it belongs to, and is written in Chinese.

Each message also carries a stable code (kebab-case) and structured fields
(names, types, the suggested replacement): quick fixes and tests read those,
never the wording, so rewording a message cannot break them.  Every code is a
constant registered here; docs/诊断.md lists them all (a test keeps the two
equal)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .source import SourceFile


@dataclass(frozen=True, slots=True)
class Code:
    """A diagnostic code: what editors and tests key on instead of the message's words."""

    name: str                   # the stable identifier, kebab-case
    meaning: str                # one Chinese line, for docs/诊断.md
    fields: tuple[str, ...]     # the names of the structured fields it carries


#: every code, by name
CODES: dict[str, Code] = {}


def _code(name: str, meaning: str, *fields: str) -> str:
    assert name not in CODES, name
    CODES[name] = Code(name, meaning, fields)
    return name


# -- lexer and parser
SYNTAX = _code("syntax", "语法错误：此处不应出现这个记号（或项没有写完）", "应为")
LEX = _code("lex", "无法读出记号：字面量、名字或字符写错")
KEYWORD_QUOTED = _code("keyword-quoted", "关键字写进了「」里", "关键字")
MISSING_PERIOD = _code("missing-period", "顶层项缺少结尾的「。」")
TOO_DEEP = _code("too-deep", "嵌套过深（括号或运算符链超过上限）", "上限")

# -- files, packages, imports
FILE = _code("file", "文件读不了：找不到、太大、读取失败、不是普通文件或不是 UTF-8")
TOO_MANY = _code("too-many", "语言服务每个文件至多列出 1000 条问题，其余的数目在这一条里", "个数")
MANIFEST = _code("manifest", "包清单（包.json）有误")
IMPORT_FAILED = _code("import-failed", "导入的模块找不到或导入写错", "模块")
IMPORT_CYCLE = _code("import-cycle", "导入成环", "环")
OPEN_UNIMPORTED = _code("open-unimported", "「观」打开了未导入的模块", "模块")
IMPORT = _code("import", "未知的名字定义在包内另一个模块里：写上导入即可（快速修复会插入它）", "名字", "模块路径")

# -- the checker: names
UNKNOWN_NAME = _code("unknown-name", "未知的名字；「猜测」是作用域内最接近的名字（可无）",
                     "名字", "猜测", "应为")
NUMERAL_NAME = _code("numeral-name", "数字字面量被当作名字", "名字", "建议")
NUMBER_SPELLING = _code("number-spelling", "数字的写法不对（「六十四」「-2」之类）", "写法")
DUPLICATE = _code("duplicate", "名字或字段重复")
NOT_A_MODULE = _code("not-a-module", "「模块」之「名」里的模块没有导入", "模块")
NOT_IN_MODULE = _code("not-in-module", "模块里没有这个名字", "模块", "名字")
TYPE_AS_VALUE = _code("type-as-value", "类型名被当作值", "名字")
FUNCTION_AS_VALUE = _code("function-as-value", "函数（顶层或局部）或入口项被当作值", "名字")
NOT_A_FUNCTION = _code("not-a-function", "应用的头不是函数（或不是具名的函数）", "名字")
FUNCTION_EXPECTED = _code("function-expected", "此处应为顶层函数的名字")

# -- the checker: types and values
TYPE_MISMATCH = _code("type-mismatch", "类型不符", "应为", "实为")
WRAP_LITERAL = _code("wrap-literal", "裸字面量处应为定长数值：用「构造」包起来（快速修复）", "构造", "应为")
CONVERT = _code("convert", "不同的数值类型之间须先「转换」", "应为", "实为")
UNSOLVED = _code("unsolved", "无法确定类型（隐式参数、分量的基）")
CLASS_BOUND = _code("class-bound", "类型不满足类约束")
NO_FIELD = _code("no-field", "记录没有此字段、缺字段或分量序号越界", "类型", "字段")
ARRAY_PROJECTION = _code("array-projection", "数组不能用「中」取元素：用「取元素」", "类型")
BAD_VALUE = _code("bad-value", "元组或记录的写法不成值")
IF_WITHOUT_ELSE = _code("if-without-else", "没有「否则」的「若」的值是「有」，却用在要值的地方")
ARITY = _code("arity", "实参个数不对", "名字", "应有", "实有")
CALL_PARENS = _code("call-parens", "作实参的调用须加括号")
LITERAL_RANGE = _code("literal-range", "字面量超出范围或须是整数", "名字", "值")
READ_ONLY = _code("read-only", "写入只读存储缓冲：把访问方式改为「读写」（快速修复）", "缓冲", "函数")
WRONG_RESOURCE = _code("wrong-resource", "内建函数用在了不对的资源上", "资源", "种类", "函数")
WRITE_ONLY_TEXTURE = _code("write-only-texture", "读只写的存储纹理（扩展）：存储纹理只能「写纹素」与「纹理尺寸」",
                           "资源", "函数")
TEXEL_FORMAT = _code("texel-format", "存储纹理的格式不是十七种格式之一（扩展）", "类型")
TEXEL_VALUE = _code("texel-value", "「写纹素」的值与存储纹理的格式不符（扩展）", "格式", "应为", "实为")
TEXTURE_CONSTANT = _code("texture-constant", "聚集的分量或纹理的常量偏移不是直接写出的、范围内的整数（扩展）", "名字", "值")
NO_OPERATOR = _code("no-operator", "运算符没有内建声明", "运算符")
NOT_TRANSLATABLE = _code("not-translatable", "着色源不支持的写法（字符串、匿名函数、多态、构造器声明等）")
RECURSION = _code("recursion", "递归不合规：顶层函数调自身或互相调用，或局部函数不在尾位置递归", "名字")
TYPE_ARGUMENTS = _code("type-arguments", "「以」给出的隐式类型参数不对", "名字")

# -- the checker: type expressions
BAD_TYPE = _code("bad-type", "类型写法不对：类约束、类型族、类型构造的实参")
SCALAR_WIDTH = _code("scalar-width", "标量宽度只能是 8、16、32、64", "宽度")
ARRAY_LENGTH = _code("array-length", "定长数组的长度超出范围", "长度")

# -- the checker: top-level items
TOP_LEVEL = _code("top-level", "顶层项写法不对（裸表达式、缺签名、缺定义、签名与定义不合）")
CYCLE = _code("cycle", "类型定义或常量定义成环", "环")
CONST_EXPR = _code("const-expr", "常量的值须是常量表达式")
RESOURCE = _code("resource", "资源定义不对：组号、绑定号、访问方式或重复绑定")
ENTRY = _code("entry", "入口定义不对：工作组大小、参数、返回值；一个函数作了两个入口项的函数，或入口函数被调用")
LITERAL_TYPE_SIGNATURE = _code("literal-type-signature", "顶层函数的参数或结果是「整数」「小数」（只是字面量的类型）")
INTERFACE_ONLY_KIND = _code("interface-only", "只能写在着色内建声明文件里的写法")

# -- validation
STAGE = _code("stage", "入口（经它调用的函数）用了它的阶段不允许的内建函数、工作组变量或存储纹理", "入口", "阶段")
LIMIT = _code("limit", "超出各目标共同的上限：常量移位量不小于位数、常量下标越界、定长数组超过 1 GiB、经局部函数参数传进字面量构造的数超出范围")
UNIFORMITY = _code("uniformity", "须在一致的控制流里调用的内建函数处在不一致的分支里（「相关」指出条件与其来源）")
UNIFORM_ARGUMENT = _code("uniform-argument", "须一致的实参各异：「子组异或洗牌」的掩码、「子组上移洗牌」「子组下移洗牌」的位移，"
                                             "或决定函数里须一致运算的参数（「相关」指出来源）", "实参")

# -- back ends
TRANSLATION = _code("translation", "目标写不出此处（其他情形：参数类型、递归参数等）", "目标")
TARGET_BUILTIN = _code("target-builtin", "目标没有这个内建函数（或不在此处可用）", "目标", "内建")
TARGET_TYPE = _code("target-type", "目标写不出这个类型", "目标", "类型")
TARGET_CONST = _code("target-const", "常量表达式在目标建模块时就求值，而它求不出或会被拒绝", "目标")
TARGET_BINDING = _code("target-binding", "组号、绑定号超出目标的资源序号", "目标")
TRANSLATOR_BUG = _code("translator-bug", "翻译器内部错误（请报告）", "目标")
INTERFACE_FILE = _code("interface-file", "着色内建声明文件只有声明，不能翻译")
NO_TARGET = _code("no-target", "没有一个目标译得出这个模块")
EXPORT_NAME = _code("export-name", "生成模块的导出名冲突", "名字")
RUNTIME_FAULT = _code("runtime-fault", "参考解释器运行时出错")

# -- language server
TOO_BIG = _code("too-big", "文件太大，语言服务不分析它")
IMPORTED_ERRORS = _code("imported-errors", "导入的模块有错误", "数目")
INTERNAL = _code("internal", "语言服务分析此文件时出错")
NAGA = _code("naga", "naga 拒绝了译出的 WGSL")
LOCAL_MEMORY = _code("local-memory", "计算入口的内核溢出寄存器或用到栈（局部内存），ptxas 量出（警告）", "入口", "架构")


@dataclass(slots=True)
class Diagnostic:
    """One message at a span of a file, with its code and structured fields."""

    path: str
    start: int          # absolute character offsets
    end: int
    message: str
    definition: str | None = None   # the enclosing top-level definition's name
    severity: str = "错误"          # or "警告"
    code: str = ""                  # one of CODES
    related: tuple = ()             # (path, start, end, message): where the cause lies
    fields: dict[str, str] = field(default_factory=dict)   # the code's structured fields

    def full_message(self) -> str:
        where = f"在「{self.definition}」中：" if self.definition else ""
        return where + self.message

    def format(self, source: SourceFile | None, shown_path: str | None = None) -> str:
        """`文件:行:列: 消息` with one-based line and column (characters)."""
        path = shown_path or self.path
        if source is None:
            return f"{path}:1:1: {self.full_message()}"
        pos = source.position(self.start)
        return f"{path}:{pos.line + 1}:{pos.column + 1}: {self.full_message()}"


@dataclass(slots=True)
class LocalDiagnostic:
    """A diagnostic inside one item, with offsets relative to the item start
    (so it can be cached with the item and moved with it)."""

    start: int
    end: int
    message: str
    code: str = ""
    severity: str = "错误"
    fields: dict[str, str] = field(default_factory=dict)

    def place(self, path: str, base: int, definition: str | None) -> Diagnostic:
        return Diagnostic(path, base + self.start, base + self.end, self.message,
                          definition, self.severity, self.code, fields=self.fields)
