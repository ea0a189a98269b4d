struct 尺寸类 {
  行数: u32,
  列数: u32,
}

@group(0) @binding(0) var<uniform> 尺寸: 尺寸类;

@group(0) @binding(1) var<storage, read> 矩阵: array<f32>;

@group(0) @binding(2) var<storage, read> 向量: array<f32>;

@group(0) @binding(3) var<storage, read_write> 结果: array<f32>;

@compute @workgroup_size(64)
fn 行积(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 行 = 号.x;
  let 尺 = 尺寸;
  if 行 < 尺.行数 {
    var 和: f32 = 0.0f;
    var 列: u32 = 0u;
    loop {
      if 列 < 尺.列数 {
        和 = 和 + (矩阵[(行 * 尺.列数) + 列] * 向量[列]);
        列 = 列 + 1u;
        continue;
      } else {
        break;
      }
    }
    结果[行] = 和;
  }
}
