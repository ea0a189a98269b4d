@id(0) override 系数: f32 = 2.0f;

@id(1) override 步长: u32 = 1u;

@id(2) override 翻转: bool = false;

@group(0) @binding(0) var<storage, read> 甲: array<f32>;

@group(0) @binding(1) var<storage, read_write> 乙: array<f32>;

@compute @workgroup_size(64)
fn 乘加(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  if (i < arrayLength(&乙)) && ((i % 步长) == 0u) {
    let 和 = (系数 * 甲[i]) + 乙[i];
    乙[i] = select(和, -和, 翻转);
  }
}
