@group(0) @binding(0) var<storage, read> 数据: array<u32>;

@group(0) @binding(1) var<storage, read_write> 桶: array<atomic<u32>>;

@compute @workgroup_size(128)
fn 统计(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&数据) {
    let 值 = min(数据[序], 255u);
    _ = atomicAdd(&桶[值], 1u);
  }
}
