@group(0) @binding(0) var<storage, read> 输入: array<f32>;

@group(0) @binding(1) var<storage, read_write> 输出: array<f32>;

@group(0) @binding(2) var<storage, read_write> 标记: array<u32>;

@group(0) @binding(3) var<storage, read_write> 符号: array<i32>;

fn 分段(x: f32) -> f32 {
  return select(select((x * x) * (3.0f - (2.0f * x)), 1.0f, x > 1.0f), 0.0f, (x < 0.0f));
}

fn 符号值(x: f32) -> i32 {
  return select(select(0i, -1i, (x < 0.0f)), 1i, x > 0.0f);
}

@compute @workgroup_size(64)
fn 两种若(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&输入) {
    let x = 输入[序];
    输出[序] = 分段(x);
    if (x < 0.0f) || (x > 1.0f) {
      标记[序] = 1u;
    }
    符号[序] = 符号值(x);
  }
}
