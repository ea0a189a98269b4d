@group(0) @binding(0) var<storage, read> 输入: array<i32>;

@group(0) @binding(1) var<storage, read_write> 极值: array<atomic<i32>>;

@group(0) @binding(2) var<storage, read_write> 计数: array<atomic<u32>>;

@group(0) @binding(3) var<storage, read_write> 读出: array<u32>;

const 第零: u32 = 0u;

const 第一: u32 = 1u;

@compute @workgroup_size(1)
fn 重置(@builtin(global_invocation_id) 号: vec3<u32>) {
  if 号.x == 第零 {
    atomicStore(&极值[第零], bitcast<i32>(2147483648u));
    atomicStore(&极值[第一], 2147483647i);
    atomicStore(&计数[第零], 0u);
  }
}

@compute @workgroup_size(128)
fn 求极值(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&输入) {
    let v = 输入[序];
    _ = atomicMax(&极值[第零], v);
    _ = atomicMin(&极值[第一], v);
    if v > 0i {
      _ = atomicAdd(&计数[第零], 第一);
    }
  }
}

@compute @workgroup_size(1)
fn 复制(@builtin(global_invocation_id) 号: vec3<u32>) {
  if 号.x == 第零 {
    读出[第零] = bitcast<u32>(atomicLoad(&极值[第零]));
    读出[第一] = bitcast<u32>(atomicLoad(&极值[第一]));
    读出[2u] = atomicLoad(&计数[第零]);
  }
}
