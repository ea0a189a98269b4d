// Loops of every kind, vars assigned in nested blocks (loop state and choices of values) and in the declaring block (let chains).
@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;
@group(0) @binding(2) var<storage, read_write> counts: array<u32>;

const WIDTH = 8u;

fn sum_row(row: u32) -> f32 {
  var total = 0.0;
  for (var i = 0u; i < WIDTH; i++) {
    total += input[row * WIDTH + i];
  }
  return total;
}

@compute @workgroup_size(16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let row = id.x;
  if (row * WIDTH >= arrayLength(&input)) {
    return;
  }
  var acc = sum_row(row);
  acc = acc * 0.5;
  var n: u32 = 0u;
  var k = 0u;
  while (k < WIDTH) {
    if (input[row * WIDTH + k] > 0.0) {
      n = n + 1u;
    }
    k = k + 1u;
  }
  var j = 0u;
  loop {
    if (j >= 3u) { break; }
    acc = acc - f32(j);
    continuing {
      j += 1u;
    }
  }
  var m = 0u;
  loop {
    m++;
    if (m == 2u) { continue; }
    acc = acc + 1.0;
    continuing {
      break if m >= 4u;
    }
  }
  output[row] = acc;
  counts[row] = n;
}
