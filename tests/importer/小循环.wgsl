// Two loops as a person writes them in 着色: the state as the loop function's parameters.
@group(0) @binding(0) var<storage, read> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> result: array<u32>;

fn steps(start: u32) -> u32 {
  var n = start;
  var i = 0u;
  loop {
    if (n <= 1u) {
      break;
    }
    if (n % 2u == 0u) {
      n = n / 2u;
    } else {
      n = 3u * n + 1u;
    }
    i = i + 1u;
  }
  return i;
}

fn sum_and_max(count: u32) -> u32 {
  var total = 0u;
  var most = 0u;
  for (var k = 0u; k < count; k++) {
    let v = (k * 7u) % 5u;
    total += v;
    if (v > most) {
      most = v;
    }
  }
  return total * 10u + most;
}

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  result[id.x] = steps(data[id.x] % 100u) + sum_and_max(id.x);
}
