@group(0) @binding(0) var<storage, read> 甲: array<vec4<f32>>;

@group(0) @binding(1) var<storage, read> 乙: array<vec4<f32>>;

@group(0) @binding(2) var<storage, read_write> 叉点: array<vec4<f32>>;

@group(0) @binding(3) var<storage, read_write> 量度: array<vec4<f32>>;

@group(0) @binding(4) var<storage, read_write> 单位: array<vec4<f32>>;

@group(0) @binding(5) var<storage, read_write> 比较: array<vec4<u32>>;

fn 前三(v: vec4<f32>) -> vec3<f32> {
  return vec3<f32>(v.x, v.y, v.z);
}

fn 爻为数(b: vec4<bool>) -> vec4<u32> {
  return vec4<u32>(b);
}

@compute @workgroup_size(64)
fn 向量运算(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&甲) {
    let a = 甲[序];
    let b = 乙[序];
    let 叉 = cross(前三(a), 前三(b));
    叉点[序] = vec4<f32>(叉.x, 叉.y, 叉.z, dot(a, b));
    let 和 = ((a.x + a.y) + a.z) + a.w;
    量度[序] = vec4<f32>(length(a), distance(a, b), a[序 % 4u], 和);
    单位[序] = normalize(a);
    比较[序] = 爻为数((a < b));
  }
}
