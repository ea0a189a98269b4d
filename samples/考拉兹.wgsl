@group(0) @binding(0) var<storage, read> 起: array<u32>;

@group(0) @binding(1) var<storage, read_write> 步: array<u32>;

fn 步数(始: u32) -> u32 {
  let 壹 = 1u;
  var 数: u32 = 始;
  var 计: u32 = 0u;
  var 值: u32;
  loop {
    if 数 <= 壹 {
      值 = 计;
      break;
    } else if (数 & 壹) == 0u {
      let 新数 = 数 >> 壹;
      let 新计 = 计 + 壹;
      数 = 新数;
      计 = 新计;
      continue;
    } else {
      let 新数_2 = (3u * 数) + 壹;
      let 新计_2 = 计 + 壹;
      数 = 新数_2;
      计 = 新计_2;
      continue;
    }
  }
  return 值;
}

@compute @workgroup_size(64)
fn 考拉兹(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&起) {
    步[序] = 步数(起[序]);
  }
}
