@group(0) @binding(0) var<storage, read> 输入: array<f32>;

@group(0) @binding(1) var<storage, read_write> 输出: array<f32>;

fn 放(k: u32, i: u32, 值: f32) {
  输出[(k * arrayLength(&输入)) + i] = 值;
}

@compute @workgroup_size(64)
fn 一元(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  if i < arrayLength(&输入) {
    let x = 输入[i];
    let 壹 = 1.0f;
    let 正 = abs(x) + 壹;
    let 单位内 = clamp(x, -壹, 壹);
    let 有界 = clamp(x, -10.0f, 10.0f);
    放(0u, i, abs(x));
    放(1u, i, sqrt(abs(x)));
    放(2u, i, inverseSqrt(正));
    放(3u, i, exp(有界));
    放(4u, i, exp2(有界));
    放(5u, i, log(正));
    放(6u, i, log2(正));
    放(7u, i, sin(x));
    放(8u, i, cos(x));
    放(9u, i, tan(x));
    放(10u, i, tanh(x));
    放(11u, i, asin(单位内));
    放(12u, i, acos(单位内));
    放(13u, i, atan(x));
    放(14u, i, floor(x));
    放(15u, i, ceil(x));
    放(16u, i, round(x));
    放(17u, i, trunc(x));
    放(18u, i, fract(x));
    放(19u, i, saturate(x));
    放(20u, i, sign(x));
  }
}
