@group(0) @binding(0) var<storage, read_write> 数: array<u32>;

fn 科拉茨步数(起: u32) -> u32 {
  var n: u32 = 起;
  var i: u32 = 0u;
  var 值: u32;
  loop {
    if n <= 1u {
      值 = i;
      break;
    } else if (n % 2u) == 0u {
      let 新n = n / 2u;
      let 新i = i + 1u;
      n = 新n;
      i = 新i;
      continue;
    } else if n >= 1431655765u {
      值 = 4294967295u;
      break;
    } else {
      let 新n_2 = (3u * n) + 1u;
      let 新i_2 = i + 1u;
      n = 新n_2;
      i = 新i_2;
      continue;
    }
  }
  return 值;
}

@compute @workgroup_size(1)
fn 换成步数(@builtin(global_invocation_id) 号: vec3<u32>) {
  数[号.x] = 科拉茨步数(数[号.x]);
}
