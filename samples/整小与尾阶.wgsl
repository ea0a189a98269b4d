struct 整小分离结果_f32 {
  小部: f32,
  整部: f32,
}

struct 尾阶分离结果_f32 {
  尾数: f32,
  阶码: i32,
}

struct 整小分离结果_vec2_f32 {
  小部: vec2<f32>,
  整部: vec2<f32>,
}

struct 尾阶分离结果_vec2_f32 {
  尾数: vec2<f32>,
  阶码: vec2<i32>,
}

@group(0) @binding(0) var<storage, read> 输入: array<f32>;

@group(0) @binding(1) var<storage, read_write> 标量出: array<vec4<f32>>;

@group(0) @binding(2) var<storage, read_write> 阶出: array<i32>;

@group(0) @binding(3) var<storage, read_write> 向量出: array<vec4<f32>>;

@group(0) @binding(4) var<storage, read_write> 向量阶: array<vec2<i32>>;

@compute @workgroup_size(64)
fn 分离(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  let x = 输入[i];
  let yy_分 = modf(x);
  let 分 = 整小分离结果_f32(yy_分.fract, yy_分.whole);
  let yy_分_2 = frexp(x);
  let 阶 = 尾阶分离结果_f32(yy_分_2.fract, yy_分_2.exp);
  let v = vec2<f32>(x, x * 3.0f);
  let yy_分_3 = modf(v);
  let 向分 = 整小分离结果_vec2_f32(yy_分_3.fract, yy_分_3.whole);
  let yy_分_4 = frexp(v);
  let 向阶 = 尾阶分离结果_vec2_f32(yy_分_4.fract, yy_分_4.exp);
  标量出[i] = vec4<f32>(分.小部, 分.整部, 阶.尾数, 0.0f);
  阶出[i] = 阶.阶码;
  向量出[i] = vec4<f32>(向分.小部.x, 向分.小部.y, 向分.整部.x, 向分.整部.y);
  向量阶[i] = 向阶.阶码;
}
