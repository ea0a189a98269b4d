struct 调用 {
  @builtin(global_invocation_id) 全局: vec3<u32>,
  @builtin(local_invocation_id) 局部: vec3<u32>,
  @builtin(local_invocation_index) 序: u32,
  @builtin(workgroup_id) 组: vec3<u32>,
  @builtin(num_workgroups) 组数: vec3<u32>,
}

@group(0) @binding(0) var<storage, read_write> 输出: array<vec4<u32>>;

@compute @workgroup_size(8)
fn 多维(调: 调用) {
  let 全 = 调.全局.x;
  let 组 = 调.组.x;
  let 核对 = (调.局部.x + (8u * 组)) - 全;
  if 全 < arrayLength(&输出) {
    输出[全] = vec4<u32>(调.序, 组, 调.组数.x, 核对);
  }
}
