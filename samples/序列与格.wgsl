const 列数: u32 = 16u;

@group(0) @binding(0) var<storage, read> 输入: array<f32>;

@group(0) @binding(1) var<storage, read_write> 行前缀: array<f32>;

@group(0) @binding(2) var<storage, read_write> 正数个数: array<u32>;

@compute @workgroup_size(64)
fn 行扫描(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 行 = 号.x;
  let 行数 = arrayLength(&输入) / 列数;
  if 行 < 行数 {
    var 和: f32 = 0.0f;
    var 计数: u32 = 0u;
    var 列: u32 = 0u;
    var 剩: u32 = 列数;
    loop {
      if 剩 > 0u {
        let 序 = (行 * 列数) + 列;
        let x = 输入[序];
        和 = 和 + x;
        行前缀[序] = 和;
        if x > 0.0f {
          计数 = 计数 + 1u;
        }
        _ = 计数;
        列 = 列 + 1u;
        剩 = 剩 - 1u;
        continue;
      } else {
        break;
      }
    }
    正数个数[行] = 计数;
  }
}
