struct 粒子类 {
  位置: vec2<f32>,
  速度: vec2<f32>,
}

struct 粒子群类 {
  个数: u32,
  步长: f32,
  代: u32,
  项: array<粒子类>,
}

@group(0) @binding(0) var<storage, read_write> 粒子群: 粒子群类;

struct 权重类 {
  偏移: f32,
  值: array<f32>,
}

@group(0) @binding(1) var<storage, read> 权重: 权重类;

struct 统计类 {
  长度: u32,
  总数: array<atomic<u32>, 1>,
  计数: array<atomic<u32>>,
}

@group(0) @binding(2) var<storage, read_write> 统计: 统计类;

@compute @workgroup_size(64)
fn 步进(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  let n = arrayLength(&粒子群.项);
  let 步长 = 粒子群.步长;
  if i == 0u {
    统计.长度 = n;
    粒子群.代 = 粒子群.代 + 1u;
  }
  if (i < 粒子群.个数) && (i < n) {
    let p = 粒子群.项[i];
    let 推 = 权重.值[i] + 权重.偏移;
    粒子群.项[i] = 粒子类((p.位置 + (p.速度 * 步长)) + 推, p.速度);
    _ = atomicAdd(&统计.总数[0u], 1u);
    _ = atomicAdd(&统计.计数[i % arrayLength(&统计.计数)], 1u);
  }
}
