struct 灯 {
  位置: vec4<f32>,
  颜色: vec3<f32>,
  半径: f32,
}

struct 设置 {
  灯数: u32,
}

struct 范围类 {
  最低: vec4<f32>,
  最高: vec4<f32>,
}

@group(0) @binding(0) var<storage, read_write> 灯群: array<灯>;

@group(0) @binding(1) var<uniform> 配置: 设置;

@group(0) @binding(2) var<uniform> 范围: 范围类;

@compute @workgroup_size(64)
fn 下落(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < 配置.灯数 {
    let 旧 = 灯群[序];
    let 位 = 旧.位置;
    let f = f32(序);
    let 落 = (位.y - 0.5f) - (0.003f * (f - (64.0f * floor(f / 64.0f))));
    let 界 = 范围;
    let y = select(落, 界.最高.y, (落 < 界.最低.y));
    灯群[序] = 灯(vec4<f32>(位.x, y, 位.z, 位.w), 旧.颜色, 旧.半径);
  }
}
