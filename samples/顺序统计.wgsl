struct 统计类 {
  个数: u32,
  和: u32,
  最大: u32,
  最小: u32,
}

struct 配置类 {
  起点: u32,
  步长: u32,
}

@group(0) @binding(0) var<storage, read> 数据: array<u32>;

@group(0) @binding(1) var<storage, read> 配置: 配置类;

@group(0) @binding(2) var<storage, read_write> 统计: 统计类;

@group(0) @binding(3) var<storage, read_write> 累计: u32;

@compute @workgroup_size(1)
fn 扫描(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 配 = 配置;
  let 长 = arrayLength(&数据);
  if 号.x == 0u {
    var 结果: 统计类;
    var 序: u32 = 配.起点;
    var 统: 统计类 = 统计类(0u, 0u, 0u, 4294967295u);
    loop {
      if 序 < 长 {
        let x = 数据[序];
        let 新序 = 序 + 配.步长;
        let 新统 = 统计类(统.个数 + 1u, 统.和 + x, max(统.最大, x), min(统.最小, x));
        序 = 新序;
        统 = 新统;
        continue;
      } else {
        结果 = 统;
        break;
      }
    }
    统计 = 结果;
    累计 = 累计 + 结果.个数;
  }
}
