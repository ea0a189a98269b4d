fn 钳位(x: f32) -> f32 {
  return clamp(x, 0.0f, 1.0f);
}

fn 在界内(序: u32, 长: u32) -> bool {
  return 序 < 长;
}
