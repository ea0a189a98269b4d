@group(0) @binding(0) var<storage, read> 尺寸: vec2<u32>;

@group(0) @binding(1) var<storage, read> 现在: array<u32>;

@group(0) @binding(2) var<storage, read_write> 下一步: array<u32>;

fn 下标(x: u32, y: u32) -> u32 {
  let 尺 = 尺寸;
  return ((y % 尺.y) * 尺.x) + (x % 尺.x);
}

fn 细胞(x: u32, y: u32) -> u32 {
  return 现在[下标(x, y)];
}

fn 邻居数(x: u32, y: u32) -> u32 {
  let 壹 = 1u;
  return ((((((细胞(x - 壹, y - 壹) + 细胞(x, y - 壹)) + 细胞(x + 壹, y - 壹)) + 细胞(x - 壹, y)) + 细胞(x + 壹, y)) + 细胞(x - 壹, y + 壹)) + 细胞(x, y + 壹)) + 细胞(x + 壹, y + 壹);
}

@compute @workgroup_size(8, 8)
fn 一步(@builtin(global_invocation_id) 格: vec3<u32>) {
  let x = 格.x;
  let y = 格.y;
  let n = 邻居数(x, y);
  下一步[下标(x, y)] = select(u32(n == 3u), u32((n == 2u) || (n == 3u)), 细胞(x, y) == 1u);
}
