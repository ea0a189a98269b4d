const 缩放: f32 = 0.5f;

const 步长: f32 = 0.1f;
