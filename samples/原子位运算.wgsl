struct 原子比较交换结果_i32 {
  原值: i32,
  已换: bool,
}

@group(0) @binding(0) var<storage, read> 输入: array<u32>;

@group(0) @binding(1) var<storage, read_write> 位: array<atomic<u32>>;

@group(0) @binding(2) var<storage, read_write> 整: array<atomic<i32>>;

@group(0) @binding(3) var<storage, read_write> 座: array<atomic<u32>>;

@group(0) @binding(4) var<storage, read_write> 旧: array<u32>;

@group(0) @binding(5) var<storage, read_write> 认领: array<u32>;

@group(0) @binding(6) var<storage, read_write> 组出: array<u32>;

var<workgroup> 共享: array<atomic<i32>, 2>;

struct 认领结果 {
  原值: u32,
  已换: bool,
}

struct 调用 {
  @builtin(global_invocation_id) 全: vec3<u32>,
  @builtin(local_invocation_index) 局: u32,
  @builtin(workgroup_id) 组: vec3<u32>,
}

fn 记(是: bool) -> u32 {
  return select(0u, 1u, 是);
}

fn 认领座(格: u32, 值: u32) -> 认领结果 {
  var 次: u32 = 0u;
  var 值_2: 认领结果;
  loop {
    let yy_换 = atomicCompareExchangeWeak(&座[格], 0u, 值);
    let r = 认领结果(yy_换.old_value, yy_换.exchanged);
    if ((!r.已换) && (r.原值 == 0u)) && (次 < 64u) {
      次 = 次 + 1u;
      continue;
    } else {
      值_2 = r;
      break;
    }
  }
  return 值_2;
}

@compute @workgroup_size(64)
fn 运算(调: 调用) {
  for (var yy_i = 调.局; yy_i < 2u; yy_i += 64u) {
    atomicStore(&共享[yy_i], i32());
  }
  workgroupBarrier();
  let 序 = 调.全.x;
  let 局 = 调.局;
  let 组 = 调.组.x;
  let v = 输入[序];
  let 三序 = 序 * 3u;
  _ = atomicAnd(&位[0u], v);
  _ = atomicOr(&位[1u], v);
  _ = atomicXor(&位[2u], v);
  _ = atomicSub(&位[3u], v);
  let 值 = atomicExchange(&位[4u], 序 + 1u);
  旧[序] = 值;
  _ = atomicSub(&整[0u], i32(v & 255u));
  let 座结果 = 认领座(序 % 16u, 序 + 1u);
  认领[三序] = 记(座结果.已换);
  认领[三序 + 1u] = 座结果.原值;
  _ = atomicXor(&共享[0u], bitcast<i32>(v));
  var 组结果: 原子比较交换结果_i32;
  var 次: u32 = 0u;
  loop {
    let yy_换 = atomicCompareExchangeWeak(&共享[1u], 0i, i32(局 + 1u));
    let r = 原子比较交换结果_i32(yy_换.old_value, yy_换.exchanged);
    if ((!r.已换) && (r.原值 == 0i)) && (次 < 64u) {
      次 = 次 + 1u;
      continue;
    } else {
      组结果 = r;
      break;
    }
  }
  认领[三序 + 2u] = 记(组结果.已换);
  workgroupBarrier();
  if 局 == 0u {
    组出[组 * 2u] = bitcast<u32>(atomicLoad(&共享[0u]));
    组出[(组 * 2u) + 1u] = bitcast<u32>(atomicLoad(&共享[1u]));
  }
}
