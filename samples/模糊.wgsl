@group(0) @binding(0) var<storage, read> 输入: array<f32>;

@group(0) @binding(1) var<storage, read_write> 输出: array<f32>;

var<workgroup> 瓦片: array<f32, 66>;

struct 模糊调用 {
  @builtin(global_invocation_id) 全: vec3<u32>,
  @builtin(local_invocation_index) 局: u32,
  @builtin(workgroup_id) 组: vec3<u32>,
}

fn 夹紧读(i: i32) -> f32 {
  let 末 = i32(arrayLength(&输入)) - 1i;
  return 输入[u32(clamp(i, 0i, 末))];
}

@compute @workgroup_size(64)
fn 模糊(调: 模糊调用) {
  let 局 = 调.局;
  let 全 = 调.全.x;
  let 块首 = i32(调.组.x * 64u);
  瓦片[局 + 1u] = 夹紧读(i32(全));
  if 局 == 0u {
    瓦片[0u] = 夹紧读(块首 - 1i);
    瓦片[65u] = 夹紧读(块首 + 64i);
  }
  workgroupBarrier();
  if 全 < arrayLength(&输出) {
    输出[全] = ((瓦片[局] + 瓦片[局 + 1u]) + 瓦片[局 + 2u]) / 3.0f;
  }
}
