@group(0) @binding(0) var<storage, read_write> 输出: array<u32>;

@id(0) override 块宽: u32 = 8u;

const 块高: u32 = 4u;

var<workgroup> 共享: array<u32, 32>;

struct 块调用 {
  @builtin(workgroup_id) 组: vec3<u32>,
  @builtin(local_invocation_index) 局: u32,
}

@compute @workgroup_size(块宽, 块高)
fn 轮转(调: 块调用) {
  let l = 调.局;
  let g = 调.组.x;
  共享[l] = l;
  workgroupBarrier();
  let 邻 = 共享[(l + 1u) % 32u];
  输出[(g * 32u) + l] = 邻 + (g * 100u);
}
