const 块长: u32 = 256u;

@group(0) @binding(0) var<storage, read> 输入: array<u32>;

@group(0) @binding(1) var<storage, read_write> 输出: array<u32>;

var<workgroup> 块: array<u32, 256>;

struct 扫描调用 {
  @builtin(global_invocation_id) 全: vec3<u32>,
  @builtin(local_invocation_index) 局: u32,
}

@compute @workgroup_size(256)
fn 扫描(调: 扫描调用) {
  let 全 = 调.全.x;
  let 局 = 调.局;
  let 在内 = 全 < arrayLength(&输入);
  块[局] = select(0u, 输入[全], 在内);
  workgroupBarrier();
  var 偏移: u32 = 1u;
  loop {
    if 偏移 < 块长 {
      let 加数 = select(0u, 块[局 - 偏移], 局 >= 偏移);
      workgroupBarrier();
      块[局] = 块[局] + 加数;
      workgroupBarrier();
      偏移 = 偏移 << 1u;
      continue;
    } else {
      break;
    }
  }
  if 在内 {
    输出[全] = 块[局];
  }
}
