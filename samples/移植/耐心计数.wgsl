@group(0) @binding(0) var<storage, read_write> 输出: array<u32>;

var<workgroup> 计数: array<atomic<u32>, 1>;

struct 组内调用 {
  @builtin(local_invocation_id) 局: vec3<u32>,
  @builtin(workgroup_id) 组: vec3<u32>,
}

@compute @workgroup_size(16)
fn 耐心(调: 组内调用, @builtin(local_invocation_index) yy_序: u32) {
  for (var yy_i = yy_序; yy_i < 1u; yy_i += 16u) {
    atomicStore(&计数[yy_i], u32());
  }
  workgroupBarrier();
  let 零号 = 0u;
  _ = atomicAdd(&计数[零号], 1u);
  workgroupBarrier();
  if 调.局.x == 零号 {
    输出[调.组.x] = atomicLoad(&计数[零号]);
  }
}
