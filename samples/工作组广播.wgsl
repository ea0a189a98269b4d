@group(0) @binding(0) var<storage, read> 输入: array<f32>;

@group(0) @binding(1) var<storage, read_write> 输出: array<f32>;

@group(0) @binding(2) var<storage, read_write> 旋转: array<vec2<f32>>;

var<workgroup> 块首值: f32;

var<workgroup> 块矩阵: mat2x2<f32>;

struct 广播调用 {
  @builtin(global_invocation_id) 全: vec3<u32>,
  @builtin(local_invocation_index) 局: u32,
}

@compute @workgroup_size(64)
fn 广播(调: 广播调用) {
  let 全 = 调.全.x;
  let 长 = arrayLength(&输入);
  if 调.局 == 0u {
    let 首 = 输入[min(全, 长 - 1u)];
    let 列零 = vec2<f32>(首, 0.0f);
    let 列一 = vec2<f32>(0.0f, 1.0f);
    块首值 = 首;
    块矩阵 = mat2x2<f32>(列零, 列一);
  }
  workgroupBarrier();
  if 全 < 长 {
    let x = 输入[全];
    输出[全] = x + 块首值;
    旋转[全] = 块矩阵 * vec2<f32>(x, 1.0f);
  }
  storageBarrier();
}
