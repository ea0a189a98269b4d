@group(0) @binding(0) var<storage, read> 输入: array<f32>;

@group(0) @binding(1) var<storage, read_write> 填出: array<vec4<f32>>;

@group(0) @binding(2) var<storage, read_write> 向量出: array<vec4<f32>>;

@group(0) @binding(3) var<storage, read_write> 查出: array<vec2<f32>>;

struct 记录类 {
  号: u32,
  表: array<f32, 4>,
}

@group(0) @binding(4) var<storage, read_write> 记录: array<记录类>;

const 权: array<f32, 5> = array<f32, 5>(0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f);

const 零表: array<f32, 4> = array<f32, 4>(0.0f, 0.0f, 0.0f, 0.0f);

fn 点乘(甲: array<f32, 4>, 乙: array<f32, 4>) -> f32 {
  var 和: f32 = 0.0f;
  var k: u32 = 0u;
  var 值: f32;
  loop {
    if k == 4u {
      值 = 和;
      break;
    } else {
      let 新和 = 和 + (甲[k] * 乙[k]);
      let 新k = k + 1u;
      和 = 新和;
      k = 新k;
      continue;
    }
  }
  return 值;
}

@compute @workgroup_size(64)
fn 查表与填表(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  let x = 输入[i];
  let 查 = 权[i % 5u];
  var 值: array<f32, 4>;
  var 表: array<f32, 4> = 零表;
  var k: u32 = 0u;
  loop {
    if k == 4u {
      值 = 表;
      break;
    } else {
      var yy_新 = 表;
      yy_新[k] = x * f32(k);
      let 新表 = yy_新;
      let 新k = k + 1u;
      表 = 新表;
      k = 新k;
      continue;
    }
  }
  var yy_新_2 = 值;
  yy_新_2[i % 4u] = -1.0f;
  let 满 = yy_新_2;
  var yy_新_3 = vec4<f32>(x, x, x, x);
  yy_新_3[i % 4u] = 0.0f;
  let 向 = yy_新_3;
  let 点 = 点乘(满, array<f32, 4>(1.0f, 2.0f, 3.0f, 4.0f));
  填出[i] = vec4<f32>(满[0u], 满[1u], 满[2u], 满[3u]);
  向量出[i] = 向;
  查出[i] = vec2<f32>(查, 点);
  let 旧 = 记录[i];
  var yy_新_4 = 旧.表;
  yy_新_4[i % 4u] = x;
  记录[i] = 记录类(i, yy_新_4);
}
