enable subgroups;

@group(0) @binding(0) var<storage, read> 输入: array<f32>;

@group(0) @binding(1) var<storage, read_write> 输出: array<vec4<f32>>;

@group(0) @binding(2) var<storage, read_write> 整出: array<vec2<i32>>;

@compute @workgroup_size(64)
fn 四元组(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  let x = 输入[序];
  let 广 = quadBroadcast(x, 2u);
  let 横 = quadSwapX(x);
  let 纵 = quadSwapY(x);
  let 斜 = quadSwapDiagonal(x);
  let i = i32(序);
  let 整 = quadBroadcast(vec2<i32>(i, -i), 0u);
  输出[序] = vec4<f32>(广, 横, 纵, 斜);
  整出[序] = 整;
}
