enable subgroups;

@group(0) @binding(0) var<storage, read> 输入: array<u32>;

@group(0) @binding(1) var<storage, read_write> 输出: array<u32>;

@group(0) @binding(2) var<storage, read_write> 个数: array<atomic<u32>>;

@compute @workgroup_size(48)
fn 压缩(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  let x = 输入[序];
  let 空 = 0u;
  let 留 = (x & 1u) == 1u;
  let 票 = subgroupBallot(留);
  let 数 = ((countOneBits(票.x) + countOneBits(票.y)) + countOneBits(票.z)) + countOneBits(票.w);
  let 位 = subgroupExclusiveAdd(select(空, 1u, 留));
  var 占: u32;
  if subgroupElect() {
    占 = atomicAdd(&个数[空], 数);
  } else {
    占 = 空;
  }
  let 起 = subgroupBroadcastFirst(占);
  if 留 {
    输出[起 + 位] = x;
  }
}
