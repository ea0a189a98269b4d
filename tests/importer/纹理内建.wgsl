// The texture builtins beyond textureSample: bias, gradients, gathers, comparisons at level zero,
// clamp to edge, offsets, and integer storage formats.
@group(0) @binding(0) var colour: texture_2d<f32>;
@group(0) @binding(1) var smooth_sampler: sampler;
@group(0) @binding(2) var shadows: texture_depth_2d_array;
@group(0) @binding(3) var shadow_sampler: sampler_comparison;
@group(0) @binding(4) var layers: texture_2d_array<f32>;
@group(0) @binding(5) var counts: texture_storage_2d<rgba8uint, write>;

@fragment
fn fs_main(@builtin(position) p: vec4f) -> @location(0) vec4f {
  let uv = p.xy / 32.0;
  let a = textureSampleBias(colour, smooth_sampler, uv, 0.5)
    + textureSampleGrad(colour, smooth_sampler, uv, vec2f(0.1, 0.0), vec2f(0.0, 0.1));
  let b = textureGather(1, colour, smooth_sampler, uv) + textureGather(shadows, smooth_sampler, uv, 0)
    + textureGather(0, colour, smooth_sampler, uv, vec2i(1, -2));
  let e = textureSampleCompareLevel(shadows, shadow_sampler, uv, 1, 0.5)
    + textureGatherCompare(shadows, shadow_sampler, uv, 0u, 0.25).x
    + textureSampleLevel(layers, smooth_sampler, uv, 1, 0.0, vec2i(-1, 1)).y;
  let f = textureSampleBaseClampToEdge(colour, smooth_sampler, uv);
  return a + b + e + f;
}

@compute @workgroup_size(8, 8)
fn count(@builtin(global_invocation_id) id: vec3<u32>) {
  textureStore(counts, id.xy, vec4u(id.x, id.y, 255u, 7u));
}
