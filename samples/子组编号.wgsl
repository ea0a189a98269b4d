enable subgroups;

@group(0) @binding(0) var<storage, read> 输入: array<u32>;

@group(0) @binding(1) var<storage, read_write> 编号: array<u32>;

@group(0) @binding(2) var<storage, read_write> 部分和: array<u32>;

struct 子组调用 {
  @builtin(workgroup_id) 组: vec3<u32>,
  @builtin(num_workgroups) 组数: vec3<u32>,
  @builtin(local_invocation_index) 局: u32,
  @builtin(subgroup_id) 子组: u32,
  @builtin(num_subgroups) 个数: u32,
  @builtin(subgroup_invocation_id) 道: u32,
  @builtin(subgroup_size) 宽: u32,
}

@compute @workgroup_size(48)
fn 编(调: 子组调用) {
  let 数 = 调.组数;
  let 组序 = (调.组.y * 数.x) + 调.组.x;
  let 序 = (组序 * 48u) + 调.局;
  let 五序 = 序 * 5u;
  let 和 = subgroupAdd(输入[序]);
  编号[五序] = 调.子组;
  编号[五序 + 1u] = 调.个数;
  编号[五序 + 2u] = 调.道;
  编号[五序 + 3u] = 调.宽;
  编号[五序 + 4u] = (数.x + (数.y * 10u)) + (数.z * 100u);
  if 调.道 == 0u {
    部分和[(组序 * 调.个数) + 调.子组] = 和;
  }
}
