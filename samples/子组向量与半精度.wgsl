enable f16;
enable subgroups;

@group(0) @binding(0) var<storage, read> 输入: array<vec4<f32>>;

@group(0) @binding(1) var<storage, read_write> 浮出: array<vec4<f32>>;

@group(0) @binding(2) var<storage, read_write> 半出: array<vec4<f16>>;

@group(0) @binding(3) var<storage, read_write> 无出: array<vec4<u32>>;

@group(0) @binding(4) var<storage, read_write> 大小: array<u32>;

struct 调用 {
  @builtin(global_invocation_id) 全: vec3<u32>,
  @builtin(subgroup_size) 宽: u32,
}

@compute @workgroup_size(48)
fn 向量归约(调: 调用) {
  let 序 = 调.全.x;
  let v = 输入[序];
  let 点 = vec3<f32>(v.x, v.y, v.z);
  let 重心和 = subgroupAdd(点);
  let 扫描 = subgroupInclusiveAdd(v.w);
  let h = f16(v.x);
  let 对 = vec2<f16>(vec2<f32>(v.y, v.z));
  let 半和 = subgroupAdd(h);
  let 半大 = subgroupMax(h);
  let 对前缀 = subgroupInclusiveAdd(对);
  let 整对 = vec2<u32>(vec2<f32>(v.z, v.w));
  let 整前缀 = subgroupInclusiveAdd(整对);
  let 整异或 = subgroupXor(整对);
  let 整大 = subgroupMax(整对);
  浮出[序] = vec4<f32>(重心和.x, 重心和.y, 重心和.z, 扫描);
  半出[序] = vec4<f16>(半和, 半大, 对前缀.x, 对前缀.y);
  无出[序] = vec4<u32>(整前缀.x, 整前缀.y, 整异或.x, 整大.y);
  if 序 == 0u {
    大小[0u] = 调.宽;
  }
}
