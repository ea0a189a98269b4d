@group(0) @binding(0) var<storage, read> 输入: array<vec4<f32>>;

@group(0) @binding(1) var<storage, read_write> 浮出: array<vec4<f32>>;

@group(0) @binding(2) var<storage, read_write> 整出: array<vec4<u32>>;

@compute @workgroup_size(64)
fn 分量与标量(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  if i < arrayLength(&输入) {
    let v = 输入[i];
    let s = f32(i) + 1.0f;
    let 基 = i * 3u;
    浮出[基] = v.wzyx;
    浮出[基 + 1u] = (v * s) + ((s - v) / 2.0f);
    let 前两 = v.xy * s;
    浮出[基 + 2u] = vec4<f32>(前两.x, 前两.y, v.z, v.x + v.x);
    let 序 = vec4<u32>(i, i + 1u, i + 2u, i + 3u);
    整出[i] = (序 % 3u) * (i + 1u);
  }
}
