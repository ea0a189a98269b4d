fn 钳位(x: f32) -> f32 {
  return clamp(x, 0.0f, 1.0f);
}

fn 在界内(序: u32, 长: u32) -> bool {
  return 序 < 长;
}

const 缩放: f32 = 0.5f;

const 步长: f32 = 0.1f;

struct 射线 {
  起点: vec3<f32>,
  方向: vec3<f32>,
}

const 原点: vec3<f32> = vec3<f32>(0.0f, 0.0f, 0.0f);

fn 平方长度(v: vec3<f32>) -> f32 {
  return dot(v, v);
}

fn 沿射线(r: 射线, t: f32) -> vec3<f32> {
  return r.起点 + (r.方向 * vec3<f32>(t, t, t));
}

@group(0) @binding(0) var<storage, read> 点: array<vec4<f32>>;

@group(0) @binding(1) var<storage, read_write> 结果: array<f32>;

fn 前三(p: vec4<f32>) -> vec3<f32> {
  return vec3<f32>(p.x, p.y, p.z);
}

@compute @workgroup_size(64)
fn 主(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 在界内(序, arrayLength(&点)) {
    let r = 射线(前三(点[序]), 原点 + vec3<f32>(0.0f, 0.0f, 1.0f));
    let t = (缩放 * 步长) * f32(序);
    let q = 沿射线(r, t);
    结果[序] = 钳位(平方长度(q) / 100.0f);
  }
}
