@group(0) @binding(0) var<storage, read> 入射: array<vec4<f32>>;

@group(0) @binding(1) var<storage, read> 法线: array<vec4<f32>>;

@group(0) @binding(2) var<storage, read> 比: array<f32>;

@group(0) @binding(3) var<storage, read> 数: array<vec4<f32>>;

@group(0) @binding(4) var<storage, read> 幂: array<vec4<i32>>;

@group(0) @binding(5) var<storage, read_write> 反射光: array<vec4<f32>>;

@group(0) @binding(6) var<storage, read_write> 折射光: array<vec4<f32>>;

@group(0) @binding(7) var<storage, read_write> 翻转: array<vec4<f32>>;

@group(0) @binding(8) var<storage, read_write> 二幂: array<vec4<f32>>;

@group(0) @binding(9) var<storage, read_write> 量化: array<vec4<f32>>;

@group(0) @binding(10) var<storage, read_write> 真值: array<vec4<u32>>;

fn 爻为数(b: bool) -> u32 {
  return select(0u, 1u, b);
}

fn 满(v: f32) -> vec4<f32> {
  return vec4<f32>(v, v, v, v);
}

@compute @workgroup_size(64)
fn 光线(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&比) {
    let e = 入射[序];
    let n = 法线[序];
    let η = 比[序];
    let x = 数[序];
    反射光[序] = reflect(e, n);
    折射光[序] = refract(e, n, η);
    翻转[序] = faceForward(n, e, n);
    二幂[序] = ldexp(x, 幂[序]);
    量化[序] = quantizeToF16(x);
    let 单位一 = 1.0f;
    真值[序] = vec4<u32>(爻为数(all(e > 满(-0.5f))), 爻为数(any(e > 满(0.9f))), 爻为数(all((η < 单位一))), 爻为数(any(vec2<bool>(η > 单位一, false))));
  }
}
