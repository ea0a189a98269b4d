@group(0) @binding(0) var 源: texture_storage_2d<rgba8unorm, read>;

@group(0) @binding(1) var 线: texture_storage_1d<rgba32float, write>;

@group(0) @binding(2) var 叠: texture_storage_2d_array<rgba16sint, write>;

@group(0) @binding(3) var 体: texture_storage_3d<rgba8uint, write>;

@group(0) @binding(4) var<storage, read_write> 尺: array<u32>;

@group(1) @binding(0) var 浮叠: texture_storage_2d_array<r32float, read_write>;

@group(1) @binding(1) var 无体: texture_storage_3d<r32uint, read_write>;

@group(1) @binding(2) var 整线: texture_storage_1d<rgba32sint, read>;

@group(1) @binding(3) var 半体: texture_storage_3d<rgba16float, read>;

@group(1) @binding(4) var<storage, read_write> 出整: array<vec4<i32>>;

@group(1) @binding(5) var<storage, read_write> 出浮: array<vec4<f32>>;

@compute @workgroup_size(64)
fn 写种类(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  let 叠尺 = textureDimensions(叠);
  let w = 叠尺.x;
  let h = 叠尺.y;
  if i < ((w * h) * textureNumLayers(叠)) {
    let x = i % w;
    let y = (i / w) % h;
    let k = i / (w * h);
    let c = textureLoad(源, vec2<u32>(x % 8u, y % 4u));
    let 字节 = i % 256u;
    textureStore(叠, vec2<u32>(x, y), k, vec4<i32>(i32(x), -i32(y), i32(k), -i32(i)));
    textureStore(体, vec3<u32>(x, y, k), vec4<u32>(字节, 255u - 字节, x * y, 7u));
    if i < textureDimensions(线) {
      textureStore(线, i, c * 2.0f);
    }
    if i == 0u {
      let 体尺 = textureDimensions(体);
      尺[0u] = textureDimensions(线);
      尺[1u] = w;
      尺[2u] = h;
      尺[3u] = textureNumLayers(叠);
      尺[4u] = 体尺.x;
      尺[5u] = 体尺.y;
      尺[6u] = 体尺.z;
      尺[7u] = textureDimensions(源).x;
    }
  }
}

@compute @workgroup_size(64)
fn 读改(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  if i < textureDimensions(整线) {
    let x = i % 8u;
    let y = (i / 8u) % 4u;
    let k = i / 32u;
    let 处 = vec2<u32>(x, y);
    let v = textureLoad(浮叠, 处, k).x;
    let u = textureLoad(无体, vec3<u32>(x, y, k)).x;
    textureStore(浮叠, 处, k, vec4<f32>(0.5f - (2.0f * v), 0.0f, 0.0f, 1.0f));
    textureStore(无体, vec3<u32>(x, y, k), vec4<u32>((3u * u) + 1u, 0u, 0u, 1u));
    出整[i] = textureLoad(整线, i);
    出浮[i] = textureLoad(半体, vec3<u32>(x, y, k));
  }
}
