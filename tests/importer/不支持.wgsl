var<private> seed: u32;

fn pointer(p: ptr<function, f32>) -> f32 {
  return *p;
}

@compute @workgroup_size(1)
fn main() {
  let v = vec2<f32>(1.0, 2.0) * mat2x2<f32>(1.0, 2.0, 3.0, 4.0);
}
