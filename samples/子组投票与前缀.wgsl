enable subgroups;

@group(0) @binding(0) var<storage, read> 输入: array<u32>;

@group(0) @binding(1) var<storage, read_write> 输出: array<vec4<u32>>;

@group(0) @binding(2) var<storage, read_write> 大小: array<u32>;

struct 调用 {
  @builtin(global_invocation_id) 全: vec3<u32>,
  @builtin(subgroup_size) 宽: u32,
}

fn 为一(真: bool) -> u32 {
  return select(0u, 1u, 真);
}

@compute @workgroup_size(48)
fn 投票与前缀(调: 调用) {
  let 序 = 调.全.x;
  let x = 输入[序];
  let 壹 = 1u;
  let 积 = subgroupMul(x);
  let 与 = subgroupAnd(x);
  let 或 = subgroupOr(x);
  let 异 = subgroupXor(x);
  let 和 = subgroupInclusiveAdd(x);
  let 乘 = subgroupInclusiveMul(x);
  let 前和 = subgroupExclusiveAdd(x);
  let 前积 = subgroupExclusiveMul(x);
  let 上 = subgroupShuffleUp(x, 壹);
  let 下 = subgroupShuffleDown(x, 壹);
  let 首 = subgroupBroadcastFirst(x);
  let 任 = subgroupAny(x > 6u);
  let 全 = subgroupAll(x > 0u);
  let 票 = subgroupBallot((x & 壹) == 壹);
  let 选 = subgroupElect();
  输出[序 * 4u] = vec4<u32>(积, 与, 或, 异);
  输出[(序 * 4u) + 壹] = vec4<u32>(和, 乘, 前和, 前积);
  输出[(序 * 4u) + 2u] = vec4<u32>(上, 下, 首, 为一(任));
  输出[(序 * 4u) + 3u] = vec4<u32>(为一(全), 票.x, 票.y, 为一(选));
  if 序 == 0u {
    大小[0u] = 调.宽;
  }
}
