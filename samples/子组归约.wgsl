enable subgroups;

@group(0) @binding(0) var<storage, read> 输入: array<f32>;

@group(0) @binding(1) var<storage, read_write> 输出: array<vec4<f32>>;

@group(0) @binding(2) var<storage, read_write> 蝶形和: array<f32>;

@group(0) @binding(3) var<storage, read_write> 大小: array<u32>;

struct 子组调用 {
  @builtin(global_invocation_id) 全: vec3<u32>,
  @builtin(subgroup_invocation_id) 道: u32,
  @builtin(subgroup_size) 宽: u32,
}

fn 蝶形(x: f32) -> f32 {
  var 值: f32 = x;
  var 跨: u32 = 16u;
  var 值_2: f32;
  loop {
    if 跨 == 0u {
      值_2 = 值;
      break;
    } else {
      let 新值 = 值 + subgroupShuffleXor(值, 跨);
      let 新跨 = 跨 >> 1u;
      值 = 新值;
      跨 = 新跨;
      continue;
    }
  }
  return 值_2;
}

@compute @workgroup_size(64)
fn 子组归约(调: 子组调用) {
  let 序 = 调.全.x;
  let 长 = arrayLength(&输入);
  let 读 = 输入[min(序, 长 - 1u)];
  let x = select(0.0f, 读, (序 < 长));
  let 和 = subgroupAdd(x);
  let 大 = subgroupMax(x);
  let 首 = subgroupShuffle(x, 0u);
  let 邻 = subgroupShuffle(x, 调.道 ^ 1u);
  let 蝶 = 蝶形(x);
  if 序 < 长 {
    输出[序] = vec4<f32>(和, 大, 首, 邻);
    蝶形和[序] = 蝶;
  }
  if 序 == 0u {
    大小[0u] = 调.宽;
  }
}
