@group(0) @binding(0) var 样: sampler;

@group(0) @binding(1) var 图: texture_2d<f32>;

const 右上: vec2<f32> = vec2<f32>(1.0f, 1.0f);

const 右下: vec2<f32> = vec2<f32>(1.0f, -1.0f);

const 左下: vec2<f32> = vec2<f32>(-1.0f, -1.0f);

const 左上: vec2<f32> = vec2<f32>(-1.0f, 1.0f);

const 图右上: vec2<f32> = vec2<f32>(1.0f, 0.0f);

const 图右下: vec2<f32> = vec2<f32>(1.0f, 1.0f);

const 图左下: vec2<f32> = vec2<f32>(0.0f, 1.0f);

const 图左上: vec2<f32> = vec2<f32>(0.0f, 0.0f);

const 位置表: array<vec2<f32>, 6> = array<vec2<f32>, 6>(右上, 右下, 左下, 右上, 左下, 左上);

const 坐标表: array<vec2<f32>, 6> = array<vec2<f32>, 6>(图右上, 图右下, 图左下, 图右上, 图左下, 图左上);

struct 全屏出 {
  @builtin(position) 位置: vec4<f32>,
  @location(0) 坐标: vec2<f32>,
}

@vertex
fn 全屏顶(@builtin(vertex_index) 序: u32) -> 全屏出 {
  let p = 位置表[序];
  return 全屏出(vec4<f32>(p.x, p.y, 0.0f, 1.0f), 坐标表[序]);
}

@fragment
fn 贴图(@location(0) 坐标: vec2<f32>) -> @location(0) vec4<f32> {
  return textureSample(图, 样, 坐标);
}
