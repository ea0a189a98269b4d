@group(0) @binding(0) var 图: texture_2d<f32>;

@group(0) @binding(1) var 边: texture_storage_2d<rgba8unorm, write>;

fn 亮度(位: vec2<i32>, 最右: vec2<i32>) -> f32 {
  let 零位 = vec2<i32>(0i, 0i);
  let 素 = textureLoad(图, min(max(位, 零位), 最右), 0);
  return ((0.299f * 素.x) + (0.587f * 素.y)) + (0.114f * 素.z);
}

@compute @workgroup_size(8, 8)
fn 索贝尔(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 尺 = textureDimensions(图);
  if (号.x < 尺.x) && (号.y < 尺.y) {
    let 壹 = 1i;
    let 倍 = 2.0f;
    let x = i32(号.x);
    let y = i32(号.y);
    let 最右 = vec2<i32>(尺) - vec2<i32>(壹, 壹);
    let 左上 = 亮度(vec2<i32>(x - 壹, y - 壹), 最右);
    let 上 = 亮度(vec2<i32>(x, y - 壹), 最右);
    let 右上 = 亮度(vec2<i32>(x + 壹, y - 壹), 最右);
    let 左 = 亮度(vec2<i32>(x - 壹, y), 最右);
    let 右 = 亮度(vec2<i32>(x + 壹, y), 最右);
    let 左下 = 亮度(vec2<i32>(x - 壹, y + 壹), 最右);
    let 下 = 亮度(vec2<i32>(x, y + 壹), 最右);
    let 右下 = 亮度(vec2<i32>(x + 壹, y + 壹), 最右);
    let gx = ((((右上 + (倍 * 右)) + 右下) - 左上) - (倍 * 左)) - 左下;
    let gy = ((((左下 + (倍 * 下)) + 右下) - 左上) - (倍 * 上)) - 右上;
    let 模 = sqrt((gx * gx) + (gy * gy));
    textureStore(边, vec2<u32>(号.x, 号.y), vec4<f32>(模, 模, 模, 1.0f));
  }
}
