// switch as an if-chain, early returns, select, integer wrapping, signed index conversion
@group(0) @binding(0) var<storage, read> data: array<i32>;
@group(0) @binding(1) var<storage, read_write> result: array<i32>;

fn classify(x: i32) -> i32 {
  if (x < -20) {
    return -1;
  } else if (x > 20) {
    return 1;
  }
  return 0;
}

fn scaled(x: i32) -> i32 {
  switch x {
    case 0, 1: { return 7; }
    case 2: { return x * 2147483647; }
    default: { return x << 3u; }
  }
}

// A loop that returns from the function, and an if whose one branch returns part of the way.
fn steps(start: i32) -> i32 {
  var n = start;
  var count = 0;
  loop {
    if (n == 0) {
      break;
    }
    if (n > 0) {
      n = n - 7;
    } else {
      if (count > 40) {
        return -count;
      }
      n = n + 3;
    }
    count += 1;
  }
  return count * 2;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= arrayLength(&data)) { return; }
  let x = data[i];
  let c = classify(x);
  var r = scaled(x) + c;
  r = select(r, r / 3, x % 2 == 0);
  let back = i32(i) - 1;
  if (((x > 3) | (x == -7)) & (back >= 0)) {
    r ^= data[back] >> 1u;
  }
  result[i] = r + steps(x);
}
