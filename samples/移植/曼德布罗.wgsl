const 最多: u32 = 50u;

@group(0) @binding(0) var 图: texture_storage_2d<rgba8unorm, write>;

fn 逃逸次数(c: vec2<f32>) -> u32 {
  var i: u32 = 0u;
  var z: vec2<f32> = c;
  var 值: u32;
  loop {
    if i < 最多 {
      let 新z = vec2<f32>(((z.x * z.x) - (z.y * z.y)) + c.x, ((2.0f * z.x) * z.y) + c.y);
      if length(新z) > 4.0f {
        值 = i;
        break;
      } else {
        let 新i = i + 1u;
        let 新z_2 = 新z;
        i = 新i;
        z = 新z_2;
        continue;
      }
    } else {
      值 = 最多;
      break;
    }
  }
  return 值;
}

@compute @workgroup_size(1)
fn 画(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 尺 = textureDimensions(图);
  let c = vec2<f32>(((f32(号.x) / f32(尺.x)) * 3.0f) - 2.25f, ((f32(号.y) / f32(尺.y)) * 3.0f) - 1.5f);
  let 值 = f32(逃逸次数(c)) / f32(最多);
  textureStore(图, vec2<i32>(i32(号.x), i32(号.y)), vec4<f32>(值, 值, 值, 1.0f));
}
