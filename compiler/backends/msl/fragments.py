"""The 金矩阵片序幕 (seed 着十二): how MSL holds a 16 × 16 subgroup matrix.

Metal's SIMD-group matrices are 8 × 8, so a fragment is a struct of 2 × 2
blocks, `m[i][j]` holding rows 8i… and columns 8j… of the 16 × 16 matrix:

- `yy_片甲` (子组矩阵片甲): A, half, row-major as written (A[r][k]);
- `yy_片乙` (子组矩阵片乙): the source writes B in the transposed layout
  B[n][k]; the struct holds Bᵀ (rows k, columns n), loaded with
  `transpose_matrix`, so 矩阵片乘加 is plain `simdgroup_multiply_accumulate`
  and gives C + A · Bᵀ;
- `yy_片累` (子组矩阵片累): the float accumulator.

A source that uses fragments gets the three structs after the header, then one
inline function per fragment builtin it calls (`yy_` and the builtin's name),
in the order of `FUNCTIONS`.  Start and step count elements; a load or store of
block (i, j) starts at element start + 8·i·step + 8·j and passes step as
`elements_per_row`.  Storage-buffer loaders take the u32 words as
`const device half*` (two halves per word, low half first: little-endian).

Tensor fragments (seed 着十三) have a prelude of their own, written when a
source uses them, after `#include <metal_tensor>` and Metal Performance
Primitives' header at the top: the matmul2d descriptor (64 × 64 × 32, right
operand transposed, relaxed precision, multiply-accumulate) run by
`execution_simdgroups<4>`, the device float tensor that wraps 甲 (extents
(32, rows), strides (1, row step)), the threadgroup half tensor that wraps 乙
(extents (32, 64): 乙[n][k]), `yy_张量片累`, the descriptor's destination
cooperative tensor, and one inline function per tensor builtin used.  The
store wraps its destination as extents (columns, rows), so matmul2d's store
clips the ragged edges.

Every name here is claimed in the module's global scope (a user name
`yy_片甲` pushes ours to `yy_片甲_2`); `prelude` renames accordingly.
"""

from __future__ import annotations

import re

#: Fragment type (the builtin's name) → its prelude struct.
TYPES = {"子组矩阵片甲": "yy_片甲", "子组矩阵片乙": "yy_片乙", "子组矩阵片累": "yy_片累"}

STRUCTS = """struct yy_片甲 {
  simdgroup_half8x8 m[2][2];
};

struct yy_片乙 {
  simdgroup_half8x8 m[2][2];
};

struct yy_片累 {
  simdgroup_float8x8 m[2][2];
};"""

_BLOCKS = ("  for (uint i = 0; i < 2; ++i) {\n"
           "    for (uint j = 0; j < 2; ++j) {\n"
           "      {body}\n"
           "    }\n"
           "  }\n")
_TOP = ("  for (uint j = 0; j < 2; ++j) {\n"
        "    {body}\n"
        "  }\n")
_ZERO = {"yy_片甲": "make_filled_simdgroup_matrix<half, 8, 8>(0.0h)",
         "yy_片累": "make_filled_simdgroup_matrix<float, 8, 8>(0.0f)"}
_HERE = "src + start + 8 * (i * step + j)"           # block (i, j) of the matrix as stored
_THERE = "src + start + 8 * (j * step + i)"          # block (i, j) of Bᵀ in B[n][k]


def _load(struct: str, source: str, transposed: bool = False, top: bool = False) -> str:
    """A loader: (source pointer, start, step) → fragment; `top` loads rows 0–7, zeroes the rest."""
    where = _THERE if transposed else _HERE
    tail = ", ulong2(0, 0), true" if transposed else ""
    if top:      # only A and the accumulator have eight-row loaders, never transposed
        body = _TOP.replace("{body}", f"simdgroup_load(f.m[0][j], src + start + 8 * j, step);\n"
                                      f"    f.m[1][j] = {_ZERO[struct]};")
    else:
        body = _BLOCKS.replace("{body}", f"simdgroup_load(f.m[i][j], {where}, step{tail});")
    return (f"inline {struct} {{F}}({source} src, uint start, uint step) {{\n"
            f"  {struct} f;\n{body}  return f;\n}}")


def _store(target: str, top: bool = False) -> str:
    """A store: (destination pointer, start, step, fragment) → nothing; `top` writes rows 0–7 only."""
    if top:
        body = _TOP.replace("{body}", "simdgroup_store(f.m[0][j], dst + start + 8 * j, step);")
    else:
        body = _BLOCKS.replace("{body}", "simdgroup_store(f.m[i][j], dst + start + 8 * (i * step + j), step);")
    return f"inline void {{F}}({target} dst, uint start, uint step, yy_片累 f) {{\n{body}}}"


_FILL = ("inline yy_片累 {F}(float value) {\n  yy_片累 f;\n"
         + _BLOCKS.replace("{body}", "f.m[i][j] = make_filled_simdgroup_matrix<float, 8, 8>(value);")
         + "  return f;\n}")

# c.m[i][j] += Σ_k a.m[i][k] · b.m[k][j]: b holds Bᵀ, so this is C + A · Bᵀ
_MULTIPLY_ADD = ("inline yy_片累 {F}(yy_片甲 a, yy_片乙 b, yy_片累 c) {\n"
                 + _BLOCKS.replace("{body}", "simdgroup_multiply_accumulate(c.m[i][j], a.m[i][0], b.m[0][j], c.m[i][j]);\n"
                                             "      simdgroup_multiply_accumulate(c.m[i][j], a.m[i][1], b.m[1][j], c.m[i][j]);")
                 + "  return c;\n}")

_SHARED_HALF, _SHARED_FLOAT, _DEVICE_HALF = "const threadgroup half*", "const threadgroup float*", "const device half*"

#: Builtin → its prelude function ({F} is the function's name), in prelude order.
FUNCTIONS = {
    "载入矩阵片甲": _load("yy_片甲", _SHARED_HALF),
    "载入矩阵片乙": _load("yy_片乙", _SHARED_HALF, transposed=True),
    "载入矩阵片累": _load("yy_片累", _SHARED_FLOAT),
    "载入矩阵片累前八行": _load("yy_片累", _SHARED_FLOAT, top=True),
    "载矩阵片甲前八行": _load("yy_片甲", _SHARED_HALF, top=True),
    "载矩阵片甲自存储": _load("yy_片甲", _DEVICE_HALF),
    "载矩阵片乙自存储": _load("yy_片乙", _DEVICE_HALF, transposed=True),
    "载矩阵片乙自转置存储": _load("yy_片乙", _DEVICE_HALF),    # memory holds Bᵀ[k][n] already
    "满矩阵片累": _FILL,
    "矩阵片乘加": _MULTIPLY_ADD,
    "存矩阵片累": _store("threadgroup float*"),
    "存矩阵片累前八行": _store("threadgroup float*", top=True),
    "存矩阵片累到存储": _store("device float*"),
}


#: Tensor-fragment type (the builtin's name) → its prelude name.
TENSOR_TYPES = {"张量片累": "yy_张量片累"}

TENSOR_INCLUDES = "#include <metal_tensor>\n#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>"

TENSOR_DECLARATIONS = """constexpr mpp::tensor_ops::matmul2d_descriptor yy_张量片描述(64, 64, 32, false, true, true,
    mpp::tensor_ops::matmul2d_descriptor::mode::multiply_accumulate);
using yy_张量片运算 = mpp::tensor_ops::matmul2d<yy_张量片描述, execution_simdgroups<4>>;
using yy_张量片甲 = tensor<device float, dextents<int32_t, 2>, tensor_inline>;
using yy_张量片乙 = tensor<threadgroup half, dextents<int32_t, 2>, tensor_inline>;
using yy_张量片累 = decltype(yy_张量片运算().get_destination_cooperative_tensor<yy_张量片甲, yy_张量片乙, float>());"""

#: Tensor builtin → its prelude function ({F} is the function's name), in prelude order.
TENSOR_FUNCTIONS = {
    "满张量片累": ("inline yy_张量片累 {F}(float value) {\n"
                  "  yy_张量片累 c = yy_张量片运算().get_destination_cooperative_tensor<yy_张量片甲, yy_张量片乙, float>();\n"
                  "  for (ushort i = 0; i < c.get_capacity(); ++i) {\n"
                  "    if (c.is_valid_element(i)) {\n"
                  "      c[i] = value;\n"
                  "    }\n"
                  "  }\n"
                  "  return c;\n}"),
    "张量片乘加": ("inline yy_张量片累 {F}(const device float* a, uint start, uint step, uint rows, "
                  "const threadgroup half* b, yy_张量片累 c) {\n"
                  "  yy_张量片甲 left(const_cast<device float*>(a) + start, dextents<int32_t, 2>(32, int32_t(rows)), "
                  "array<int32_t, 2>{1, int32_t(step)});\n"
                  "  yy_张量片乙 right(const_cast<threadgroup half*>(b), dextents<int32_t, 2>(32, 64));\n"
                  "  yy_张量片运算().run(left, right, c);\n"
                  "  return c;\n}"),
    "存张量片累": ("inline void {F}(device float* dst, uint start, uint step, uint columns, uint rows, yy_张量片累 c) {\n"
                  "  c.store(yy_张量片甲(dst + start, dextents<int32_t, 2>(int32_t(columns), int32_t(rows)), "
                  "array<int32_t, 2>{1, int32_t(step)}));\n}"),
}

#: integer fragments (seed 着十二) have no MSL spelling yet: builtin or type → why
NO_INTEGER = "金属目标没有整数子组矩阵片（着十二）：用到它的内核只能译成 PTX"
UNAVAILABLE_BUILTINS = {name: NO_INTEGER for name in
                        "载入整矩阵片甲 载入整矩阵片乙 满整矩阵片累 整矩阵片乘加 存整矩阵片累 存整矩阵片累到存储".split()}
UNAVAILABLE = {**UNAVAILABLE_BUILTINS, **{name: NO_INTEGER for name in "子组整矩阵片甲 子组整矩阵片乙 子组整矩阵片累".split()}}


def function_name(builtin: str) -> str:
    """The prelude function of a fragment builtin, before renaming."""
    return "yy_" + builtin


#: Every name the prelude may declare, to be claimed in the global scope.
NAMES = [*TYPES.values(), *(function_name(b) for b in FUNCTIONS), *TENSOR_TYPES.values(),
         "yy_张量片描述", "yy_张量片运算", "yy_张量片甲", "yy_张量片乙", *(function_name(b) for b in TENSOR_FUNCTIONS)]

_NAME = re.compile(r"yy_\w+")


def uses_tensors(used: set[str]) -> bool:
    """Whether the `used` builtins and types (by Chinese name) need the tensor prelude."""
    return bool(used & (set(TENSOR_TYPES) | set(TENSOR_FUNCTIONS)))


def header(plain: str, used: set[str]) -> str:
    """The file's opening lines: Metal 4's tensor headers follow metal_stdlib when tensors are used."""
    if not uses_tensors(used):
        return plain
    first, rest = plain.split("\n", 1)
    return f"{first}\n{TENSOR_INCLUDES}\n{rest}"


def prelude(used: set[str], names: dict[str, str]) -> str:
    """The declarations and functions for the `used` builtins and types, with the claimed `names`."""
    parts = []
    if used & (set(TYPES) | set(FUNCTIONS)):
        parts += [STRUCTS] + [FUNCTIONS[b].replace("{F}", function_name(b)) for b in FUNCTIONS if b in used]
    if uses_tensors(used):
        parts += [TENSOR_DECLARATIONS] + [TENSOR_FUNCTIONS[b].replace("{F}", function_name(b))
                                          for b in TENSOR_FUNCTIONS if b in used]
    return _NAME.sub(lambda m: names.get(m.group(), m.group()), "\n\n".join(parts))
