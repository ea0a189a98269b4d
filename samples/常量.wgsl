const 块大小: u32 = 256u;

const 白: vec4<f32> = vec4<f32>(1.0f, 1.0f, 1.0f, 1.0f);

struct 参数类 {
  增益: f32,
  截止: f32,
}

const 默认: 参数类 = 参数类(缩放, 上限);

const 层数 = 3;

const 缩放: f32 = 2.5f;

const 偏移: f32 = 0.5f;

const 上限: f32 = 100.0f;

const 零向量: vec4<f32> = vec4<f32>(0.0f, 0.0f, 0.0f, 0.0f);

@group(0) @binding(0) var<storage, read> 输入: array<f32>;

@group(0) @binding(1) var<storage, read_write> 输出: array<f32>;

@group(0) @binding(2) var<storage, read_write> 白色: array<vec4<f32>>;

@compute @workgroup_size(64)
fn 常量(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&输入) {
    let x = 输入[序];
    let 整 = ((块大小 * 0u) + u32(层数)) - 3u;
    输出[序] = min((x * 默认.增益) + 偏移, 默认.截止) + f32(整);
    let 倍 = f32(序);
    白色[序] = (白 * vec4<f32>(倍, 倍, 倍, 倍)) + 零向量;
  }
}
