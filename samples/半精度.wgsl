enable f16;

@group(0) @binding(0) var<storage, read> 打包: array<u32>;

@group(0) @binding(1) var<storage, read_write> 结果: array<u32>;

@group(0) @binding(2) var<storage, read_write> 和: array<f32>;

@group(0) @binding(3) var<storage, read_write> 半数组: array<f16>;

const 倍率: f16 = f16(1.5);

fn 仿射(v: vec2<f16>) -> vec2<f16> {
  let 偏 = f16(0.25);
  return (v * vec2<f16>(倍率, 倍率)) + vec2<f16>(偏, 偏);
}

@compute @workgroup_size(64)
fn 半精度(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&打包) {
    let v = vec2<f16>(unpack2x16float(打包[序]));
    let w = 仿射(v);
    结果[序] = pack2x16float(vec2<f32>(w));
    和[序] = f32(v.x + v.y);
  }
  if 序 < arrayLength(&半数组) {
    半数组[序] = 半数组[序] * f16(2.0);
  }
}
