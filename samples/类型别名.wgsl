@group(0) @binding(0) var<storage, read> 输入: array<vec4<f32>>;

@group(0) @binding(1) var<storage, read_write> 灰色: array<vec4<f32>>;

@group(0) @binding(2) var<storage, read_write> 灰度: array<f32>;

const 权重: vec3<f32> = vec3<f32>(0.299f, 0.587f, 0.114f);

fn 亮度(c: vec4<f32>) -> f32 {
  return dot(vec3<f32>(c.x, c.y, c.z), 权重);
}

@compute @workgroup_size(64)
fn 去色(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&输入) {
    let c = 输入[序];
    let 灰 = 亮度(c);
    灰度[序] = 灰;
    灰色[序] = vec4<f32>(灰, 灰, 灰, c.w);
  }
}
