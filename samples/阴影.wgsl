struct 光源类 {
  视图投影: mat4x4<f32>,
  光源矩阵: mat4x4<f32>,
  偏差: f32,
}

@group(0) @binding(0) var<uniform> 光源: 光源类;

@group(0) @binding(1) var 阴影图: texture_depth_2d;

@group(0) @binding(2) var 比较器: sampler_comparison;

struct 顶点入 {
  @location(0) 位置: vec3<f32>,
  @location(1) 颜色: vec3<f32>,
}

struct 顶点出 {
  @builtin(position) 位置: vec4<f32>,
  @location(0) 光源坐标: vec4<f32>,
  @location(1) 颜色: vec3<f32>,
}

struct 片元入 {
  @builtin(position) 坐标: vec4<f32>,
  @location(0) 光源坐标: vec4<f32>,
  @location(1) 颜色: vec3<f32>,
}

fn 齐次(p: vec3<f32>) -> vec4<f32> {
  return vec4<f32>(p.x, p.y, p.z, 1.0f);
}

@vertex
fn 投影(入: 顶点入) -> 顶点出 {
  let 光 = 光源;
  let 世界 = 齐次(入.位置);
  return 顶点出(光.视图投影 * 世界, 光.光源矩阵 * 世界, 入.颜色);
}

@fragment
fn 受光(入: 片元入) -> @location(0) vec4<f32> {
  let 光坐标 = 入.光源坐标;
  let w = 光坐标.w;
  let ndc = vec2<f32>(光坐标.x / w, 光坐标.y / w);
  let uv = (ndc * vec2<f32>(0.5f, -0.5f)) + vec2<f32>(0.5f, 0.5f);
  let 参照 = (光坐标.z / w) - 光源.偏差;
  let 可见 = textureSampleCompare(阴影图, 比较器, uv, 参照);
  let 亮 = 0.3f + (0.7f * 可见);
  let c = 入.颜色;
  return vec4<f32>(c.x * 亮, c.y * 亮, c.z * 亮, 1.0f);
}

@fragment
fn 写深度(@builtin(position) 坐标: vec4<f32>) -> @builtin(frag_depth) f32 {
  return 坐标.z;
}
