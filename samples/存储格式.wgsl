@group(0) @binding(0) var 符: texture_storage_2d<rgba8snorm, write>;

@group(0) @binding(1) var 无八: texture_storage_2d<rgba8uint, write>;

@group(0) @binding(2) var 整八: texture_storage_2d<rgba8sint, write>;

@group(0) @binding(3) var 无十六: texture_storage_2d<rgba16uint, write>;

@group(0) @binding(4) var 整十六: texture_storage_2d<rgba16sint, write>;

@group(0) @binding(5) var 单整: texture_storage_2d<r32sint, write>;

@group(0) @binding(6) var 双无: texture_storage_2d<rg32uint, write>;

@group(0) @binding(7) var 双整: texture_storage_2d<rg32sint, write>;

@group(0) @binding(8) var 双浮: texture_storage_2d<rg32float, write>;

@group(0) @binding(9) var 四无: texture_storage_2d<rgba32uint, write>;

@group(0) @binding(10) var 四整: texture_storage_2d<rgba32sint, write>;

@group(0) @binding(11) var 蓝序: texture_storage_2d<bgra8unorm, write>;

@group(0) @binding(12) var 四半: texture_storage_2d<rgba16float, write>;

@group(0) @binding(13) var 四浮: texture_storage_2d<rgba32float, write>;

@group(0) @binding(14) var 单浮: texture_storage_2d<r32float, write>;

@group(0) @binding(15) var 单无: texture_storage_2d<r32uint, write>;

@compute @workgroup_size(8, 8)
fn 写窄格式(@builtin(global_invocation_id) 号: vec3<u32>) {
  let x = 号.x;
  let y = 号.y;
  let xi = i32(x);
  let yi = i32(y);
  let 处 = vec2<u32>(x, y);
  textureStore(符, 处, vec4<f32>((f32(x) / 8.0f) - 1.0f, (f32(y) / 4.0f) - 0.5f, -0.75f, 2.0f));
  textureStore(无八, 处, vec4<u32>((x * 16u) + y, x, y, 255u));
  textureStore(整八, 处, vec4<i32>(xi - 8i, -(yi * 16i), (xi * yi) - 20i, -128i));
  textureStore(无十六, 处, vec4<u32>((x * 4000u) + y, 65535u, y, x));
}

@compute @workgroup_size(8, 8)
fn 写整数格式(@builtin(global_invocation_id) 号: vec3<u32>) {
  let x = 号.x;
  let y = 号.y;
  let xi = i32(x);
  let yi = i32(y);
  let 处 = vec2<u32>(x, y);
  let 零整 = 0i;
  textureStore(整十六, 处, vec4<i32>(yi - (xi * 2000i), 32767i, -32768i, yi - xi));
  textureStore(单整, 处, vec4<i32>(-((xi * 100000i) + yi), 零整, 零整, 零整));
  textureStore(双无, 处, vec4<u32>((x * 268435456u) + y, 4294967295u - x, 0u, 0u));
  textureStore(双整, 处, vec4<i32>(-(xi * 1000000i), (yi * 1000000i) + 7i, 零整, 零整));
}

@compute @workgroup_size(8, 8)
fn 写宽格式(@builtin(global_invocation_id) 号: vec3<u32>) {
  let x = 号.x;
  let y = 号.y;
  let xi = i32(x);
  let yi = i32(y);
  let 处 = vec2<u32>(x, y);
  let 零浮 = 0.0f;
  textureStore(双浮, 处, vec4<f32>((f32(x) * 0.5f) - 3.0f, f32(y) / 3.0f, 零浮, 零浮));
  textureStore(四无, 处, vec4<u32>(x, y, x * y, 4294967295u));
  textureStore(四整, 处, vec4<i32>(-xi, yi, (xi * yi) - 50i, -2147483647i));
  textureStore(蓝序, 处, vec4<f32>(f32(x) / 16.0f, f32(y) / 8.0f, 0.25f, 1.0f));
}

@compute @workgroup_size(8, 8)
fn 写原有格式(@builtin(global_invocation_id) 号: vec3<u32>) {
  let x = 号.x;
  let y = 号.y;
  let xf = f32(x);
  let yf = f32(y);
  let 处 = vec2<u32>(x, y);
  let 零浮 = 0.0f;
  textureStore(四半, 处, vec4<f32>((xf / 4.0f) - 1.5f, yf * 0.125f, -2.5f, 1024.0f));
  textureStore(四浮, 处, vec4<f32>(xf / 3.0f, -yf, 131008.0f, 0.5f));
  textureStore(单浮, 处, vec4<f32>((xf * yf) - 7.5f, 零浮, 零浮, 零浮));
  textureStore(单无, 处, vec4<u32>(((x * 1000u) + y) + 4294960000u, x, y, x));
}
