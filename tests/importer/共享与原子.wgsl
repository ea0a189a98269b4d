// Workgroup arrays with barriers, atomics on a storage buffer, a 2-D workgroup.
@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> histogram: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> sums: array<u32>;
@group(0) @binding(3) var<storage, read_write> maxima: array<atomic<u32>>;

var<workgroup> tile: array<u32, 64>;

@compute @workgroup_size(8, 8)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
  let index = gid.y * 16u + gid.x;
  let v = values[index % arrayLength(&values)];
  tile[li] = v;
  atomicAdd(&histogram[v % 16u], 1u);
  workgroupBarrier();
  var stride = 32u;
  while (stride > 0u) {
    if (li < stride) {
      tile[li] = tile[li] + tile[li + stride];
    }
    workgroupBarrier();
    stride = stride >> 1u;
  }
  if (li == 0u) {
    sums[wg.y * 2u + wg.x] = tile[0];
    let old = atomicMax(&maxima[0], tile[0]);
    _ = old;
  }
}
