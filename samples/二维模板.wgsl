struct 尺寸类 {
  宽: u32,
  高: u32,
  深: u32,
}

@group(0) @binding(0) var<uniform> 尺寸: 尺寸类;

@group(0) @binding(1) var<storage, read> 输入: array<f32>;

@group(0) @binding(2) var<storage, read_write> 输出: array<f32>;

@group(0) @binding(3) var<storage, read_write> 序号: array<u32>;

@group(0) @binding(4) var<storage, read_write> 编号: array<u32>;

struct 网格调用 {
  @builtin(global_invocation_id) 全: vec3<u32>,
  @builtin(local_invocation_id) 局: vec3<u32>,
  @builtin(local_invocation_index) 序: u32,
}

@compute @workgroup_size(8, 8)
fn 模板(调: 网格调用) {
  let 尺 = 尺寸;
  let 壹 = 1u;
  let x = 调.全.x;
  let y = 调.全.y;
  if (x < 尺.宽) && (y < 尺.高) {
    let i = (y * 尺.宽) + x;
    let 心 = 输入[i];
    if (((x == 0u) || (y == 0u)) || ((x + 壹) == 尺.宽)) || ((y + 壹) == 尺.高) {
      输出[i] = 心;
    } else {
      输出[i] = ((((4.0f * 心) - 输入[i - 壹]) - 输入[i + 壹]) - 输入[i - 尺.宽]) - 输入[i + 尺.宽];
    }
    序号[i] = 调.序;
  }
}

@compute @workgroup_size(4, 4, 4)
fn 编(调: 网格调用) {
  let 尺 = 尺寸;
  let 全 = 调.全;
  let 局 = 调.局;
  if ((全.x < 尺.宽) && (全.y < 尺.高)) && (全.z < 尺.深) {
    let i = (((全.z * 尺.高) + 全.y) * 尺.宽) + 全.x;
    let 拆 = (局.x + (局.y * 4u)) + (局.z * 16u);
    编号[i] = (调.序 * 1024u) + 拆;
  }
}
