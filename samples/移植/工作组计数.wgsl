@group(0) @binding(0) var<storage, read_write> 甲: array<i32>;

@group(0) @binding(1) var<storage, read_write> 乙: array<i32>;

struct 组内调用 {
  @builtin(local_invocation_id) 局: vec3<u32>,
  @builtin(workgroup_id) 组: vec3<u32>,
}

@compute @workgroup_size(2)
fn 各加一(调: 组内调用) {
  let w = 调.组.x;
  if 调.局.x == 0u {
    甲[w] = 甲[w] + 1i;
  } else if 调.局.x == 1u {
    乙[w] = 乙[w] + 1i;
  }
}
