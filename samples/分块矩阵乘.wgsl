struct 尺寸类 {
  M: u32,
  N: u32,
  K: u32,
}

@group(0) @binding(0) var<uniform> 尺寸: 尺寸类;

@group(0) @binding(1) var<storage, read> 甲: array<f32>;

@group(0) @binding(2) var<storage, read> 乙: array<f32>;

@group(0) @binding(3) var<storage, read_write> 丙: array<f32>;

var<workgroup> 甲瓦: array<f32, 256>;

var<workgroup> 乙瓦: array<f32, 256>;

const 边: u32 = 16u;

struct 分块调用 {
  @builtin(local_invocation_index) 序: u32,
  @builtin(workgroup_id) 组号: vec3<u32>,
}

@compute @workgroup_size(256)
fn 分块乘(调: 分块调用) {
  let 尺 = 尺寸;
  let tx = 调.序 % 边;
  let ty = 调.序 / 边;
  let 列 = (调.组号.x * 边) + tx;
  let 行 = (调.组号.y * 边) + ty;
  let 无 = 0.0f;
  var 和: f32 = 无;
  let 瓦序 = (ty * 边) + tx;
  var k0: u32 = 0u;
  loop {
    if k0 < 尺.K {
      let ak = k0 + tx;
      let bk = k0 + ty;
      甲瓦[瓦序] = select(无, 甲[(行 * 尺.K) + ak], (行 < 尺.M) && (ak < 尺.K));
      乙瓦[瓦序] = select(无, 乙[(bk * 尺.N) + 列], (bk < 尺.K) && (列 < 尺.N));
      workgroupBarrier();
      var k: u32 = 0u;
      loop {
        if k < 边 {
          和 = 和 + (甲瓦[(ty * 边) + k] * 乙瓦[(k * 边) + tx]);
          k = k + 1u;
          continue;
        } else {
          break;
        }
      }
      workgroupBarrier();
      k0 = k0 + 边;
      continue;
    } else {
      break;
    }
  }
  if (行 < 尺.M) && (列 < 尺.N) {
    丙[(行 * 尺.N) + 列] = 和;
  }
}
