@group(0) @binding(0) var<storage, read> 输入: array<u32>;

@group(0) @binding(1) var<storage, read_write> 计数类: array<vec4<u32>>;

@group(0) @binding(2) var<storage, read_write> 变换类: array<vec4<u32>>;

fn 循环左移(x: u32, 位: u32) -> u32 {
  return (x << 位) | (x >> (32u - 位));
}

fn 是二的幂(x: u32) -> u32 {
  let 无 = 0u;
  return select(无, 1u, (x != 无) && ((x & (x - 1u)) == 无));
}

@compute @workgroup_size(64)
fn 位技巧(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&输入) {
    let x = 输入[序];
    let 最低位 = x & ((~x) + 1u);
    计数类[序] = vec4<u32>(countOneBits(x), reverseBits(x), 最低位, x ^ (x >> 1u));
    let 浮 = f32(x);
    let 指数 = (bitcast<u32>(浮) >> 23u) & 255u;
    变换类[序] = vec4<u32>(循环左移(x, 8u), 是二的幂(x), (x << 16u) | (x >> 16u), 指数);
  }
}
