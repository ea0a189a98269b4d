struct 相机类 {
  视图投影: mat4x4<f32>,
  光照方向: vec3<f32>,
}

@group(0) @binding(0) var<uniform> 相机: 相机类;

struct 顶点入 {
  @location(0) 位置: vec3<f32>,
  @location(1) 法线: vec3<f32>,
  @builtin(instance_index) 实例: u32,
  @builtin(vertex_index) 顶点: u32,
}

struct 顶点出 {
  @builtin(position) 位置: vec4<f32>,
  @location(0) 法线: vec3<f32>,
  @location(1) @interpolate(flat) 实例: u32,
  @location(2) @interpolate(flat) 奇偶: i32,
}

struct 片元入 {
  @location(0) 法线: vec3<f32>,
  @location(1) @interpolate(flat) 实例: u32,
  @location(2) @interpolate(flat) 奇偶: i32,
}

const 红: vec3<f32> = vec3<f32>(1.0f, 0.2f, 0.2f);

const 绿: vec3<f32> = vec3<f32>(0.2f, 1.0f, 0.2f);

const 蓝: vec3<f32> = vec3<f32>(0.2f, 0.2f, 1.0f);

const 调色板: mat3x3<f32> = mat3x3<f32>(红, 绿, 蓝);

@vertex
fn 实例顶点(入: 顶点入) -> 顶点出 {
  let 相 = 相机;
  let 平移 = f32(入.实例) * 2.0f;
  let p = 入.位置;
  let 世界 = vec4<f32>(p.x + 平移, p.y, p.z, 1.0f);
  let vp = 相.视图投影;
  let 裁剪 = vp * 世界;
  return 顶点出(裁剪 + (vp[3] * vec4<f32>(0.0f, 0.0f, 0.0f, 0.0f)), 入.法线, 入.实例, i32(入.顶点 % 2u));
}

@fragment
fn 实例片元(入: 片元入) -> @location(0) vec4<f32> {
  let 色 = 调色板[入.实例 % 3u];
  let 漫 = max(dot(normalize(入.法线), 相机.光照方向), 0.0f);
  let 暗 = select(0.8f, 1.0f, 入.奇偶 == 0i);
  let k = 漫 * 暗;
  return vec4<f32>(色.x * k, 色.y * k, 色.z * k, 1.0f);
}
