@group(0) @binding(0) var<storage, read> 甲: array<f32>;

@group(0) @binding(1) var<storage, read> 乙: array<f32>;

@group(0) @binding(2) var<storage, read> 整数: array<i32>;

@group(0) @binding(3) var<storage, read_write> 浮点输出: array<f32>;

@group(0) @binding(4) var<storage, read_write> 整数输出: array<i32>;

fn 放浮(k: u32, i: u32, 值: f32) {
  浮点输出[(k * arrayLength(&甲)) + i] = 值;
}

fn 放整(k: u32, i: u32, 值: i32) {
  整数输出[(k * arrayLength(&甲)) + i] = 值;
}

fn 浮点(i: u32) {
  let a = 甲[i];
  let b = 乙[i];
  let 壹 = 1.0f;
  放浮(0u, i, max(a, b));
  放浮(1u, i, min(a, b));
  放浮(2u, i, clamp(a, -壹, 壹));
  放浮(3u, i, mix(a, b, 0.25f));
  放浮(4u, i, step(0.0f, a));
  放浮(5u, i, smoothstep(-壹, 壹, a));
  放浮(6u, i, pow(abs(a) + 壹, 0.5f));
  放浮(7u, i, atan2(a, b));
  放浮(8u, i, fma(a, b, 壹));
  放浮(9u, i, select(b, a, a > b));
  放浮(10u, i, a % 3.0f);
  放浮(11u, i, a / (abs(b) + 壹));
  放浮(12u, i, distance(a, b));
}

fn 整数运算(i: u32) {
  let v = 整数[i];
  放整(0u, i, abs(v));
  放整(1u, i, max(v, 0i));
  放整(2u, i, clamp(v, -100i, 100i));
  放整(3u, i, sign(v));
  放整(4u, i, v % 7i);
  放整(5u, i, v / 3i);
  放整(6u, i, -v);
  放整(7u, i, v >> 2u);
  放整(8u, i, countOneBits(v));
  放整(9u, i, reverseBits(v));
  放整(10u, i, ~v);
  放整(11u, i, v << 3u);
}

@compute @workgroup_size(64)
fn 多元(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  if i < arrayLength(&甲) {
    浮点(i);
    整数运算(i);
  }
}
