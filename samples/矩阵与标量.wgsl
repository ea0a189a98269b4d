@group(0) @binding(0) var<storage, read> 甲: array<vec4<f32>>;

@group(0) @binding(1) var<storage, read> 乙: array<f32>;

@group(0) @binding(2) var<storage, read_write> 出: array<vec4<f32>>;

fn 按列(m: mat2x2<f32>) -> vec4<f32> {
  return vec4<f32>(m[0].x, m[0].y, m[1].x, m[1].y);
}

@compute @workgroup_size(64)
fn 矩阵与标量(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  let a = 甲[i];
  let s = 乙[i];
  let m = mat2x2<f32>(a.xy, a.zw);
  let 右 = m * s;
  let 左 = s * m;
  let 和 = m + (m * s);
  let 差 = m - m;
  let 基 = i * 4u;
  出[基] = 按列(右);
  出[基 + 1u] = 按列(左);
  出[基 + 2u] = 按列(和);
  出[基 + 3u] = 按列(差);
}
