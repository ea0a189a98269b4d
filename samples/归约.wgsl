@group(0) @binding(0) var<storage, read> 输入: array<f32>;

@group(0) @binding(1) var<storage, read_write> 块和: array<f32>;

@group(0) @binding(2) var<storage, read_write> 块最大: array<f32>;

var<workgroup> 和区: array<f32, 256>;

var<workgroup> 大区: array<f32, 256>;

struct 归约调用 {
  @builtin(global_invocation_id) 全: vec3<u32>,
  @builtin(local_invocation_index) 局: u32,
  @builtin(workgroup_id) 组号: vec3<u32>,
}

@compute @workgroup_size(256)
fn 归约(调: 归约调用) {
  let 全 = 调.全.x;
  let 局 = 调.局;
  let 长 = arrayLength(&输入);
  let 值 = 输入[min(全, 长 - 1u)];
  和区[局] = select(0.0f, 值, (全 < 长));
  大区[局] = 值;
  workgroupBarrier();
  var 跨: u32 = 128u;
  loop {
    if 跨 > 0u {
      if 局 < 跨 {
        let 右 = 局 + 跨;
        和区[局] = 和区[局] + 和区[右];
        大区[局] = max(大区[局], 大区[右]);
      }
      workgroupBarrier();
      跨 = 跨 >> 1u;
      continue;
    } else {
      break;
    }
  }
  if 局 == 0u {
    let 组 = 调.组号.x;
    块和[组] = 和区[0u];
    块最大[组] = 大区[0u];
  }
}
