struct 调用 {
  @builtin(global_invocation_id) 号: vec3<u32>,
  @builtin(local_invocation_index) 序: u32,
}

@group(0) @binding(0) var<storage, read_write> 输出: array<u32>;

@compute @workgroup_size(32)
fn 只用号(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&输出) {
    输出[序] = 序;
  }
}

@compute @workgroup_size(32)
fn 号与序(调: 调用) {
  let 序 = 调.号.x;
  if 序 < arrayLength(&输出) {
    输出[序] = 序 * 调.序;
  }
}
