fn 求和(个数: u32) -> u32 {
  var 序: u32 = 0u;
  var 和: u32 = 0u;
  var 值: u32;
  loop {
    if 序 < 个数 {
      let 新序 = 序 + 1u;
      let 新和 = 和 + 序;
      序 = 新序;
      和 = 新和;
      continue;
    } else {
      值 = 和;
      break;
    }
  }
  return 值;
}

@group(0) @binding(0) var<storage, read_write> 结果: array<u32>;

@compute @workgroup_size(64)
fn 三角数(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&结果) {
    结果[序] = 求和(序);
  }
}
