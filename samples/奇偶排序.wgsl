const 块长: u32 = 256u;

@group(0) @binding(0) var<storage, read_write> 数据: array<u32>;

var<workgroup> 块: array<u32, 256>;

struct 排序调用 {
  @builtin(global_invocation_id) 全: vec3<u32>,
  @builtin(local_invocation_index) 局: u32,
}

fn 比较交换(i: u32) {
  let 左 = 块[i];
  let 右 = 块[i + 1u];
  if 左 > 右 {
    块[i] = 右;
    块[i + 1u] = 左;
  }
}

@compute @workgroup_size(256)
fn 排序(调: 排序调用) {
  let 全 = 调.全.x;
  let 局 = 调.局;
  let 在内 = 全 < arrayLength(&数据);
  块[局] = select(4294967295u, 数据[全], 在内);
  workgroupBarrier();
  var r: u32 = 0u;
  loop {
    if r < 块长 {
      if ((局 & 1u) == (r & 1u)) && ((局 + 1u) < 块长) {
        比较交换(局);
      }
      workgroupBarrier();
      r = r + 1u;
      continue;
    } else {
      break;
    }
  }
  if 在内 {
    数据[全] = 块[局];
  }
}
