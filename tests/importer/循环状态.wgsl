// Loop state as parameters: ifs that assign it, values set before a break, several values after a loop,
// nested loops accumulating, ifs that only choose values; and what stays a cell.
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read> table: array<u32>;

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
      if (n >= 1431655765u) {
        return 4294967295u;
      }
      n = 3u * n + 1u;
    }
    i = i + 1u;
  }
  return i;
}

fn first_above(limit: u32) -> u32 {
  var k: u32 = 0u;
  var found: u32;
  loop {
    if k < arrayLength(&table) {
      if table[k] > limit {
        found = k;
        break;
      }
      k += 1u;
      continue;
    } else {
      found = 4294967295u;
      break;
    }
  }
  return found;
}

fn spread(x: f32) -> f32 {
  var lo = x;
  var hi = x;
  for (var i = 0u; i < 4u; i++) {
    let v = f32(table[i] % 1000u);
    if (v < lo) {
      lo = v;
    }
    if (v > hi) {
      hi = v;
    }
  }
  return hi - lo;
}

fn grid(w: u32) -> u32 {
  var total = 0u;
  for (var y = 0u; y < w; y++) {
    for (var x = 0u; x < w; x++) {
      total += x * y;
    }
  }
  return total;
}

fn pair_sums(w: u32) -> u32 {
  var total = 0u;
  var count = 0u;
  for (var y = 0u; y < w; y++) {
    var x = 0u;
    while (x < y) {
      total += x;
      count++;
      x++;
    }
  }
  return total * 1000u + count;
}

fn mixed_sums(w: u32) -> f32 {
  var total = 0.0;
  var count = 0u;
  for (var y = 0u; y < w; y++) {
    var x = 0u;
    while (x < y) {
      total += f32(x) * 0.5;
      count++;
      x++;
    }
  }
  return total + f32(count);
}

fn odd_and_seen(n: u32) -> u32 {
  var seen = 0u;
  var odd = 0u;
  var k = 0u;
  loop {
    if (k >= n) { break; }
    let v = table[k];
    if ((v & 1u) == 1u) {
      odd += 1u;
      if (odd > 5u) {
        break;
      }
    } else {
      seen = seen | v;
    }
    k++;
  }
  return seen ^ odd;
}

fn clamp_pair(a: f32, b: f32) -> f32 {
  var s = a;
  var t = b;
  if (a > b) {
    s = b;
    t = a;
  }
  var big = 0.0;
  if (t > 10.0) {
    big = t;
  } else {
    big = 2.0 * s;
  }
  return s * 100.0 + t + big;
}

fn pick(m: u32, a: f32) -> f32 {
  var r = 0.0;
  switch (m) {
    case 0u: {
      r = a;
    }
    case 1u, 2u: {
      r = 2.0 * a;
      break;
    }
    default: {
      r = 1.0;
    }
  }
  return r;
}

fn kept_in_a_cell(k: u32, x: u32) -> u32 {
  var best = x;
  if (x > 5u) {
    best = best * 2u;
    data[k + 128u] = best;
  }
  return best + 1u;
}

struct P { a: f32, b: u32 }

fn cont(n: u32) -> u32 {
  var s = 0u;
  var i = 0u;
  loop {
    if (i >= n) { break; }
    if (table[i] % 2u == 0u) {
      let h = table[i] / 2u;
      if (h > 10u) {
        s += h;
      } else {
        s += 1u;
      }
    }
    continuing {
      i += 1u;
      s = s ^ 3u;
    }
  }
  return s;
}

fn skip_init(n: u32) -> u32 {
  var c = 0u;
  for (var i = 0u; i < n; i += 1u) {
    if (table[i] > 100u) {
      i += 2u;
    }
    c += i;
  }
  return c;
}

fn exit_value(n: u32) -> u32 {
  var r = 77u;
  var i = 0u;
  while (i < n) {
    if (table[i] == 5u) {
      r = i;
      break;
    }
    i++;
  }
  return r + i;
}

fn fields(x: f32, m: u32) -> f32 {
  var p = P(x, m);
  if (x > 0.5) {
    p.a = p.a * 2.0;
    p.b += 1u;
  }
  switch (m) {
    case 0u: { p.a = 1.0; }
    case 3u: { p.b = 9u; }
    default: { }
  }
  return p.a + f32(p.b);
}

fn two_then_loop(n: u32) -> f32 {
  var a = 0.5;
  var b = 1.5;
  for (var i = 0u; i < n; i++) {
    a = a * 1.25 + b;
    b = b - a * 0.125;
  }
  var acc = 0.0;
  for (var j = 0u; j < 3u; j++) {
    acc = acc + a * f32(j) - b;
  }
  return acc;
}

fn inner_floats(n: u32) -> f32 {
  var sx = 0.0;
  var sy = 0.0;
  for (var y = 0u; y < n; y++) {
    var x = 0u;
    while (x < 3u) {
      sx = sx + f32(x) * 0.3;
      sy = sy - f32(y) * 0.7;
      x++;
    }
    sx = sx * 0.9;
  }
  return sx + sy;
}

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let k = id.x;
  if (k >= 128u) {
    return;
  }
  let v = table[k];
  data[k] = steps(v % 1000u) + first_above(v) + grid(v % 7u) + kept_in_a_cell(k, v % 11u) + pair_sums(v % 6u) + odd_and_seen(v % 20u);
  out[k] = spread(f32(v % 100u)) + clamp_pair(f32(table[k + 1u] % 50u), f32(v % 17u)) + pick(v % 4u, f32(k)) + mixed_sums(v % 5u)
           + f32(cont(v % 20u) + skip_init(v % 20u) + exit_value(v % 20u)) + fields(f32(table[k + 2u] % 100u) / 100.0, v % 5u)
           + two_then_loop(v % 20u) + inner_floats(v % 7u);
}
