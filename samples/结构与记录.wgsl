struct 粒子 {
  位置: vec2<f32>,
  速度: vec2<f32>,
}

struct 步进参数 {
  时间步: f32,
  重力: f32,
}

@group(0) @binding(0) var<uniform> 参数: 步进参数;

@group(0) @binding(1) var<storage, read_write> 粒子群: array<粒子>;

fn 缩放(v: vec2<f32>, k: f32) -> vec2<f32> {
  return v * vec2<f32>(k, k);
}

fn 前进(旧: 粒子, 参: 步进参数) -> 粒子 {
  let 地面 = 0.0f;
  let 速 = 旧.速度 + 缩放(vec2<f32>(地面, -参.重力), 参.时间步);
  let 位 = 旧.位置 + 缩放(速, 参.时间步);
  if 位.y < 地面 {
    return 粒子(vec2<f32>(位.x, 地面), vec2<f32>(速.x, 速.y * (-0.5f)));
  } else {
    return 粒子(位, 速);
  }
}

@compute @workgroup_size(64)
fn 步进(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&粒子群) {
    粒子群[序] = 前进(粒子群[序], 参数);
  }
}
