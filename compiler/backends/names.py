"""Target identifiers for source names: the reserved words of each target and
one renaming rule, parameterised by the words of the target being written.

A source name is written as it is (WGSL and MSL accept Chinese identifiers)
unless it is reserved in the target being written, starts with a digit, is
not a valid identifier, or already starts with the prefix 豫_.  Such a name
becomes 豫_ followed by the name with every `_` and every character that
cannot continue an identifier written as `_hex_`.  That rewrite is injective,
and no name left alone starts with 豫_, so distinct source names stay
distinct; `NameAllocator` then adds _2, _3 … where one scope repeats a name.

Each target renames only its own reserved words, so a name reserved in MSL
alone leaves the WGSL text untouched.  The one exception is an entry
function: its name is what a host calls, one name in every target (the
generated module exports it once), so it avoids `ENTRY_WORDS`, the words of
WGSL and MSL together.  Which words belong to which target is recorded in
`targets.py`.
"""

from __future__ import annotations

PREFIX = "豫_"

#: WGSL keywords (WGSL §15.1).
WGSL_KEYWORDS = """
alias break case const const_assert continue continuing default diagnostic discard else enable
false fn for if let loop override requires return struct switch true var while
""".split()

#: WGSL reserved words (WGSL §15.2).
WGSL_RESERVED = """
NULL Self abstract active alignas alignof as asm asm_fragment async attribute auto await become
binding_array cast catch class co_await co_return co_yield coherent column_major common compile
compile_fragment concept const_cast consteval constexpr constinit crate debugger decltype delete
demote demote_to_helper do dynamic_cast enum explicit export extends extern external fallthrough
filter final finally friend from fxgroup get goto groupshared highp impl implements import inline
instanceof interface layout lowp macro macro_rules match mediump meta mod module move mut mutable
namespace new nil noexcept noinline nointerpolation noperspective null nullptr of operator package
packoffset partition pass patch pixelfragment precise precision premerge priv protected pub public
readonly ref regardless register reinterpret_cast require resource restrict self set shared sizeof
smooth snorm static static_assert static_cast std subroutine super target template this
thread_local throw trait try type typedef typeid typename typeof union unless unorm unsafe unsized
use using varying virtual volatile wgsl where with writeonly yield
""".split()

#: WGSL predeclared names the translators may emit: types, address spaces and
#: access modes, builtin values, builtin functions.
WGSL_PREDECLARED = """
bool f16 f32 i32 u32 vec2 vec3 vec4 mat2x2 mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 mat4x2 mat4x3 mat4x4
vec2f vec3f vec4f vec2h vec3h vec4h vec2i vec3i vec4i vec2u vec3u vec4u mat2x2f mat3x3f mat4x4f
mat2x2h mat3x3h mat4x4h array atomic ptr sampler sampler_comparison texture_1d texture_2d
texture_2d_array texture_3d texture_cube texture_cube_array texture_multisampled_2d
texture_depth_2d texture_depth_2d_array texture_depth_cube texture_depth_cube_array
texture_depth_multisampled_2d texture_external texture_storage_1d texture_storage_2d
texture_storage_2d_array texture_storage_3d
function private workgroup uniform storage read write read_write
position vertex_index instance_index front_facing frag_depth sample_index sample_mask
global_invocation_id local_invocation_id local_invocation_index workgroup_id num_workgroups
subgroup_invocation_id subgroup_size flat perspective linear center centroid sample
compute vertex fragment workgroup_size group binding builtin location interpolate invariant
f16 subgroups
abs acos acosh all any arrayLength asin asinh atan atan2 atanh atomicAdd atomicAnd
atomicCompareExchangeWeak atomicExchange atomicLoad atomicMax atomicMin atomicOr atomicStore
atomicSub atomicXor bitcast ceil clamp cos cosh countLeadingZeros countOneBits countTrailingZeros
cross degrees determinant distance dot dot4I8Packed dot4U8Packed dpdx dpdxCoarse dpdxFine dpdy
dpdyCoarse dpdyFine exp exp2 extractBits faceForward firstLeadingBit firstTrailingBit floor fma
fract frexp fwidth insertBits inverseSqrt ldexp length log log2 max min mix modf normalize pack2x16float
pack2x16snorm pack2x16unorm pack4x8snorm pack4x8unorm pow quantizeToF16 radians reflect refract
reverseBits round saturate select sign sin sinh smoothstep sqrt step storageBarrier tan tanh
textureBarrier textureDimensions textureGather textureGatherCompare textureLoad textureNumLayers
textureNumLevels textureNumSamples textureSample textureSampleBaseClampToEdge textureSampleBias
textureSampleCompare textureSampleCompareLevel textureSampleGrad textureSampleLevel textureStore
transpose trunc unpack2x16float unpack2x16snorm unpack2x16unorm unpack4x8snorm unpack4x8unorm
workgroupBarrier workgroupUniformLoad subgroupAdd subgroupMax subgroupMin subgroupShuffle
subgroupShuffleXor subgroupBroadcast subgroupBallot subgroupAll subgroupAny
subgroupMul subgroupAnd subgroupOr subgroupXor subgroupInclusiveAdd subgroupInclusiveMul subgroupExclusiveAdd
subgroupExclusiveMul subgroupShuffleUp subgroupShuffleDown subgroupBroadcastFirst subgroupElect
""".split()

#: C++ keywords and the Metal Shading Language's own keywords and types.
MSL_KEYWORDS = """
alignas alignof and and_eq asm auto bitand bitor bool break case catch char char16_t char32_t
char8_t class co_await co_return co_yield compl concept const consteval constexpr constinit
const_cast continue decltype default delete do double dynamic_cast else enum explicit export
extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
nullptr operator or or_eq private protected public register reinterpret_cast requires return
short signed sizeof static static_assert static_cast struct switch template this thread_local
throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while
xor xor_eq main
kernel vertex fragment device constant thread threadgroup threadgroup_imageblock ray_data
object_data visible stage_in metal half uint ushort uchar ulong size_t ptrdiff_t
float2 float3 float4 half2 half3 half4 int2 int3 int4 uint2 uint3 uint4 bool2 bool3 bool4
short2 short3 short4 ushort2 ushort3 ushort4 packed_float2 packed_float3 packed_float4
float2x2 float2x3 float2x4 float3x2 float3x3 float3x4 float4x2 float4x3 float4x4
half2x2 half2x3 half2x4 half3x2 half3x3 half3x4 half4x2 half4x3 half4x4
char uchar2 uchar3 uchar4 char2 char3 char4 long2 long3 long4 ulong2 ulong3 ulong4 bfloat
packed_half2 packed_half3 packed_half4 packed_int2 packed_int3 packed_int4 packed_uint2
packed_uint3 packed_uint4 texture1d_array texturecube_array texture2d_ms depthcube sampler_state
atomic_float imageblock tensor cooperative_tensor raytracing simd_vote texture1d texture2d texture3d texture2d_array texturecube depth2d
depth2d_array sampler atomic_uint atomic_int atomic_bool array vec matrix simdgroup_matrix
access mem_flags memory_order memory_order_relaxed
""".split()

#: Metal Standard Library functions (all of them, not only those the MSL
#: translator emits: a user function of the same name would clash in MSL).
MSL_FUNCTIONS = """
acosh asinh atanh copysign cospi exp10 fdim fmax3 fmin3 fmedian3 frexp ilogb isfinite isinf
isnan isnormal isordered isunordered ldexp log10 logb modf nextafter powr sincos sinpi tanpi
signbit fast precise absdiff addsat clz ctz extract_bits hadd insert_bits mad24 madhi madsat
max3 median3 min3 mul24 mulhi rhadd rotate subsat all any faceforward reflect refract
distance_squared length_squared pack_float_to_snorm2x16 pack_float_to_unorm2x16
pack_float_to_snorm4x8 pack_float_to_unorm4x8 unpack_snorm2x16_to_float unpack_unorm2x16_to_float
unpack_snorm4x8_to_float unpack_unorm4x8_to_float simd_all simd_any simd_ballot simd_and simd_or
simd_xor simd_product simd_prefix_exclusive_sum simd_prefix_inclusive_sum
simd_prefix_exclusive_product simd_prefix_inclusive_product simd_shuffle_up simd_shuffle_down
simd_shuffle_rotate_up simd_shuffle_rotate_down simd_broadcast_first simd_is_first simd_active_threads_mask
quad_sum quad_max quad_min quad_broadcast quad_shuffle quad_shuffle_xor quad_all quad_any
atomic_exchange_explicit atomic_compare_exchange_weak_explicit atomic_fetch_and_explicit
atomic_fetch_or_explicit atomic_fetch_xor_explicit atomic_fetch_sub_explicit atomic_thread_fence
dfdx dfdy fwidth get_depth get_num_mip_levels write gather fence make_filled_simdgroup_matrix
abs acos asin atan atan2 ceil clamp cos cosh cross determinant distance dot exp exp2 fabs floor
fma fmax fmin fmod fract length log log2 max min mix normalize pow rint round rsqrt saturate sign
sin sinh smoothstep sqrt step tan tanh transpose trunc popcount reverse_bits as_type dfdx dfdy
discard_fragment threadgroup_barrier simdgroup_barrier atomic_fetch_add_explicit
atomic_fetch_max_explicit atomic_fetch_min_explicit atomic_load_explicit atomic_store_explicit
simd_sum simdgroup_half8x8 simdgroup_float8x8 simdgroup_multiply simd_max simd_min simd_broadcast simd_shuffle simd_shuffle_xor simdgroup_load
simd_product simd_and simd_or simd_xor simd_prefix_inclusive_sum simd_prefix_inclusive_product
simd_prefix_exclusive_sum simd_prefix_exclusive_product simd_shuffle_up simd_shuffle_down simd_broadcast_first
simd_any simd_all simd_ballot simd_vote simd_is_first
simdgroup_store simdgroup_multiply_accumulate sample read get_width get_height sample_compare
level select
""".split()

WGSL_WORDS = frozenset(WGSL_KEYWORDS + WGSL_RESERVED + WGSL_PREDECLARED)
MSL_WORDS = frozenset(MSL_KEYWORDS + MSL_FUNCTIONS)
#: what an entry function's name avoids: it is one name in every target
ENTRY_WORDS = WGSL_WORDS | MSL_WORDS


def is_identifier(name: str) -> bool:
    """Whether WGSL (and MSL) read `name` as one identifier: XID_Start or `_`
    then XID_Continue, not a lone `_`, not starting with `__`."""
    return bool(name) and name.isidentifier() and name != "_" and not name.startswith("__")


def _escape(name: str) -> str:
    out = []
    for ch in name:
        if ch != "_" and ("a" + ch).isidentifier():
            out.append(ch)
        else:
            out.append(f"_{ord(ch):x}_")
    return "".join(out)


def target_name(name: str, reserved: frozenset[str] = ENTRY_WORDS) -> str:
    """The target identifier of one source name where `reserved` are the
    target's words (deterministic, injective for any one `reserved`)."""
    if is_identifier(name) and name not in reserved and not name.startswith(PREFIX):
        return name
    return PREFIX + _escape(name)


class NameAllocator:
    """Unique identifiers in one scope: the first holder of a name keeps it,
    later ones get _2, _3 … (seed 着五)."""

    def __init__(self, reserved: frozenset[str], taken=(), parent: "NameAllocator | None" = None) -> None:
        self.reserved = reserved
        self.taken: set[str] = set(taken)
        self.parent = parent

    def claim(self, name: str, entry: bool = False) -> str:
        """The identifier of `name` here; `entry` for an entry function, named alike in every target."""
        base = target_name(name, ENTRY_WORDS if entry else self.reserved)
        candidate, n = base, 1
        while self.is_taken(candidate):
            n += 1
            candidate = f"{base}_{n}"
        self.taken.add(candidate)
        return candidate

    def is_taken(self, name: str) -> bool:
        return name in self.taken or (self.parent is not None and self.parent.is_taken(name))

    def fork(self) -> "NameAllocator":
        """A nested scope that must not reuse any name its parent holds; it
        refers to the parent instead of copying it (one copy per item made
        translation quadratic in the number of items)."""
        return NameAllocator(self.reserved, parent=self)
