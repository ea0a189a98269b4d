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


def function_name(builtin: str) -> str:
    """The prelude function of a fragment builtin, before renaming."""
    return "yy_" + builtin


#: Every name the prelude may declare, to be claimed in the global scope.
NAMES = [*TYPES.values(), *(function_name(b) for b in FUNCTIONS)]

_NAME = re.compile(r"yy_\w+")


def prelude(used: set[str], names: dict[str, str]) -> str:
    """The structs and the functions of the `used` builtins, with the claimed `names`."""
    parts = [STRUCTS] + [FUNCTIONS[b].replace("{F}", function_name(b)) for b in FUNCTIONS if b in used]
    return _NAME.sub(lambda m: names.get(m.group(), m.group()), "\n\n".join(parts))
