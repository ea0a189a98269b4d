@group(0) @binding(0) var<storage, read> 整数: array<i32>;

@group(0) @binding(1) var<storage, read_write> 输出: array<u32>;

fn 写第(基: u32, 项: u32, 值: u32) {
  输出[(基 * 8u) + 项] = 值;
}

@compute @workgroup_size(64)
fn 字面量(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&整数) {
    let x = 整数[序];
    let 浮 = f32(x) / 10.0f;
    写第(序, 0u, u32(x));
    写第(序, 1u, u32(abs(浮)));
    写第(序, 2u, bitcast<u32>(1.0f));
    写第(序, 3u, 31u + 40u);
    写第(序, 4u, bitcast<u32>(-3i));
    写第(序, 5u, u32(3.5f * 2.0f));
    let 四维 = vec4<i32>(x, 1i, 2i, 3i);
    let 无四 = vec4<u32>(四维);
    写第(序, 6u, ((无四.x + 无四.y) + 无四.z) + 无四.w);
    let 圆周率 = bitcast<f32>(1078530011u);
    写第(序, 7u, u32(round(圆周率 * 1000.0f)));
  }
}
