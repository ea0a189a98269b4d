struct 参数类 {
  系数: f32,
  个数: u32,
}

@group(0) @binding(0) var<uniform> 参数: 参数类;

@group(0) @binding(1) var<storage, read> 甲: array<f32>;

@group(0) @binding(2) var<storage, read_write> 乙: array<f32>;

@compute @workgroup_size(64)
fn 乘加(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  let 参 = 参数;
  if 序 < 参.个数 {
    乙[序] = (参.系数 * 甲[序]) + 乙[序];
  }
}
