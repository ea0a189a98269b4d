@group(0) @binding(0) var<storage, read> 浮: array<vec4<f32>>;

@group(0) @binding(1) var<storage, read> 整: array<vec4<i32>>;

@group(0) @binding(2) var<storage, read> 字: array<u32>;

@group(0) @binding(3) var<storage, read_write> 浮打包: array<vec4<u32>>;

@group(0) @binding(4) var<storage, read_write> 整打包: array<vec4<u32>>;

@group(0) @binding(5) var<storage, read_write> 归一解包: array<vec4<f32>>;

@group(0) @binding(6) var<storage, read_write> 符归一解包: array<vec4<f32>>;

@group(0) @binding(7) var<storage, read_write> 半字解包: array<vec4<f32>>;

@group(0) @binding(8) var<storage, read_write> 整解包: array<vec4<i32>>;

@group(0) @binding(9) var<storage, read_write> 无解包: array<vec4<u32>>;

@group(0) @binding(10) var<storage, read_write> 点积: array<vec2<u32>>;

@compute @workgroup_size(64)
fn 打包(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&字) {
    let f = 浮[序];
    let n = 整[序];
    let u = vec4<u32>(n);
    let w = 字[序];
    浮打包[序] = vec4<u32>(pack4x8unorm(f), pack4x8snorm(f), pack2x16unorm(vec2<f32>(f.x, f.y)), pack2x16snorm(vec2<f32>(f.z, f.w)));
    整打包[序] = vec4<u32>(pack4xI8(n), pack4xU8(u), pack4xI8Clamp(n), pack4xU8Clamp(u));
    归一解包[序] = unpack4x8unorm(w);
    符归一解包[序] = unpack4x8snorm(w);
    let 半 = unpack2x16unorm(w);
    let 符半 = unpack2x16snorm(w);
    半字解包[序] = vec4<f32>(半.x, 半.y, 符半.x, 符半.y);
    整解包[序] = unpack4xI8(w);
    无解包[序] = unpack4xU8(w);
    let v = reverseBits(w);
    点积[序] = vec2<u32>(dot4U8Packed(w, v), bitcast<u32>(dot4I8Packed(w, v)));
  }
}
