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
