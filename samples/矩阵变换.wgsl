struct 变换类 {
  模型: mat4x4<f32>,
  法线矩阵: mat3x3<f32>,
}

@group(0) @binding(0) var<uniform> 变换: 变换类;

@group(0) @binding(1) var<storage, read> 点: array<vec4<f32>>;

@group(0) @binding(2) var<storage, read_write> 变换后: array<vec4<f32>>;

@group(0) @binding(3) var<storage, read_write> 法线后: array<vec4<f32>>;

@group(0) @binding(4) var<storage, read_write> 矩阵量: array<vec4<f32>>;

const 列甲: vec3<f32> = vec3<f32>(1.0f, 0.0f, 0.0f);

const 列乙: vec3<f32> = vec3<f32>(0.0f, 1.0f, 0.0f);

const 列丙: vec3<f32> = vec3<f32>(0.0f, 0.0f, 1.0f);

const 单位三阶: mat3x3<f32> = mat3x3<f32>(列甲, 列乙, 列丙);

const 零分量: f32 = 0.0f;

fn 补零(v: vec3<f32>) -> vec4<f32> {
  return vec4<f32>(v.x, v.y, v.z, 0.0f);
}

@compute @workgroup_size(64)
fn 变换点(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  let 变 = 变换;
  let M = 变.模型;
  if 序 < arrayLength(&点) {
    let p = 点[序];
    变换后[序] = M * p;
    let n = vec3<f32>(p.x, p.y, p.z);
    let N = 变.法线矩阵 * (单位三阶 * n);
    法线后[序] = 补零(normalize(N));
  }
  if 序 == 0u {
    let 积 = M * M;
    let 转 = transpose(M);
    let 三阶 = 变.法线矩阵;
    矩阵量[0u] = M[1];
    矩阵量[1u] = M[3];
    矩阵量[2u] = 积[0];
    矩阵量[3u] = 转[2];
    矩阵量[4u] = vec4<f32>(determinant(三阶), 零分量, M[2u].z, 零分量);
  }
}
