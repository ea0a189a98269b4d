struct 鸟 {
  位置: vec2<f32>,
  速度: vec2<f32>,
}

struct 规则 {
  时间步: f32,
  规则一距离: f32,
  规则二距离: f32,
  规则三距离: f32,
  规则一系数: f32,
  规则二系数: f32,
  规则三系数: f32,
}

struct 累计 {
  质心: vec2<f32>,
  质心数: u32,
  速度和: vec2<f32>,
  速度数: u32,
  避让: vec2<f32>,
}

@group(0) @binding(0) var<uniform> 参数: 规则;

@group(0) @binding(1) var<storage, read> 旧群: array<鸟>;

@group(0) @binding(2) var<storage, read_write> 新群: array<鸟>;

fn 看一只(累: 累计, 他: 鸟, 我: vec2<f32>, 参: 规则) -> 累计 {
  let 壹 = 1u;
  let d = distance(他.位置, 我);
  let 近 = d < 参.规则一距离;
  let 挤 = d < 参.规则二距离;
  let 齐 = d < 参.规则三距离;
  return 累计(select(累.质心, 累.质心 + 他.位置, 近), select(累.质心数, 累.质心数 + 壹, 近), select(累.速度和, 累.速度和 + 他.速度, 齐), select(累.速度数, 累.速度数 + 壹, 齐), select(累.避让, 累.避让 - (他.位置 - 我), 挤));
}

fn 回绕(v: f32) -> f32 {
  let 壹 = 1.0f;
  let 左回 = select(v, 壹, (v < (-壹)));
  return select(左回, -壹, 左回 > 壹);
}

@compute @workgroup_size(64)
fn 飞(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&旧群) {
    let 参 = 参数;
    let 自己 = 旧群[序];
    let 我 = 自己.位置;
    let 零值 = 0.0f;
    let 起 = 累计(vec2<f32>(零值, 零值), 0u, vec2<f32>(零值, 零值), 0u, vec2<f32>(零值, 零值));
    var 累: 累计;
    var i: u32 = 0u;
    var 累_2: 累计 = 起;
    loop {
      if i < arrayLength(&旧群) {
        let 下只 = i + 1u;
        if i == 序 {
          i = 下只;
          continue;
        } else {
          let 新i = 下只;
          let 新累 = 看一只(累_2, 旧群[i], 我, 参);
          i = 新i;
          累_2 = 新累;
          continue;
        }
      } else {
        累 = 累_2;
        break;
      }
    }
    let 质心 = select(累.质心, (累.质心 / f32(累.质心数)) - 我, 累.质心数 > 0u);
    let 平均速度 = select(累.速度和, 累.速度和 / f32(累.速度数), 累.速度数 > 0u);
    let 速 = 自己.速度 + (((质心 * 参.规则一系数) + (累.避让 * 参.规则二系数)) + (平均速度 * 参.规则三系数));
    let 新速 = normalize(速) * clamp(length(速), 零值, 0.1f);
    let 位 = 我 + (新速 * 参.时间步);
    新群[序] = 鸟(vec2<f32>(回绕(位.x), 回绕(位.y)), 新速);
  }
}
