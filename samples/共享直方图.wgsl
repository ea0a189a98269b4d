@group(0) @binding(0) var<storage, read> 数据: array<u32>;

@group(0) @binding(1) var<storage, read_write> 桶: array<atomic<u32>>;

var<workgroup> 共享桶: array<atomic<u32>, 16>;

var<workgroup> 组最大: array<atomic<u32>, 1>;

struct 直方调用 {
  @builtin(global_invocation_id) 全: vec3<u32>,
  @builtin(local_invocation_index) 局: u32,
}

@compute @workgroup_size(64)
fn 统计(调: 直方调用) {
  for (var yy_i = 调.局; yy_i < 16u; yy_i += 64u) {
    atomicStore(&共享桶[yy_i], u32());
  }
  for (var yy_i_2 = 调.局; yy_i_2 < 1u; yy_i_2 += 64u) {
    atomicStore(&组最大[yy_i_2], u32());
  }
  workgroupBarrier();
  let 序 = 调.全.x;
  let 局 = 调.局;
  let 首 = 0u;
  if 序 < arrayLength(&数据) {
    let 值 = 数据[序];
    _ = atomicAdd(&共享桶[值 % 16u], 1u);
    _ = atomicMax(&组最大[首], 值);
  }
  workgroupBarrier();
  if 局 < 16u {
    _ = atomicAdd(&桶[局], atomicLoad(&共享桶[局]));
  }
  if 局 == 首 {
    _ = atomicMax(&桶[16u], atomicLoad(&组最大[首]));
  }
}
