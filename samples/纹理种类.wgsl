@group(0) @binding(0) var 线: texture_1d<f32>;

@group(0) @binding(1) var 叠: texture_2d_array<f32>;

@group(0) @binding(2) var 体: texture_3d<f32>;

@group(0) @binding(3) var 盒: texture_cube<f32>;

@group(0) @binding(4) var 整图: texture_2d<i32>;

@group(0) @binding(5) var 最近: sampler;

@group(0) @binding(6) var 线性: sampler;

@group(0) @binding(7) var<storage, read> 方向: array<vec4<f32>>;

@group(0) @binding(8) var<storage, read_write> 出: array<vec4<f32>>;

@group(0) @binding(9) var<storage, read_write> 整出: array<vec4<i32>>;

@group(0) @binding(10) var<storage, read_write> 尺: array<u32>;

@compute @workgroup_size(64)
fn 纹理种类(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  if i < arrayLength(&方向) {
    let 叠尺 = textureDimensions(叠);
    let 体尺 = textureDimensions(体);
    let w = 叠尺.x;
    let h = 叠尺.y;
    let x = i % w;
    let y = (i / w) % h;
    let k = i / (w * h);
    let 张 = k % textureNumLayers(叠);
    let z = k % 体尺.z;
    let 基 = i * 6u;
    let 零级 = 0.0f;
    let 宽 = f32(w);
    let 高 = f32(h);
    let 四分 = 0.25f;
    let 四分三 = 0.75f;
    let 叠处 = vec2<f32>((f32(x) + 四分三) / 宽, (f32(y) + 四分) / 高);
    let 体处 = vec3<f32>((f32(x) + 四分) / 宽, (f32(y) + 四分三) / 高, (f32(z) + 0.5f) / f32(体尺.z));
    出[基] = textureLoad(线, i % textureDimensions(线), 0);
    出[基 + 1u] = textureLoad(叠, vec2<u32>(x, y), 张, 0);
    出[基 + 2u] = textureSampleLevel(叠, 线性, 叠处, 张, 零级);
    出[基 + 3u] = textureLoad(体, vec3<u32>(x, y, z), 0);
    出[基 + 4u] = textureSampleLevel(体, 线性, 体处, 零级);
    出[基 + 5u] = textureSampleLevel(盒, 最近, 方向[i].xyz, 零级);
    整出[i] = textureLoad(整图, vec2<u32>(x, y), 0);
    if i == 0u {
      尺[0u] = textureDimensions(线);
      尺[1u] = w;
      尺[2u] = h;
      尺[3u] = textureNumLayers(叠);
      尺[4u] = textureNumLevels(叠);
      尺[5u] = 体尺.x;
      尺[6u] = 体尺.y;
      尺[7u] = 体尺.z;
      尺[8u] = textureNumLevels(体);
      尺[9u] = textureDimensions(盒).x;
      尺[10u] = textureDimensions(整图).x;
      尺[11u] = textureDimensions(体, 0).x;
    }
  }
}
