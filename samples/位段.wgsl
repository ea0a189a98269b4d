@group(0) @binding(0) var<storage, read> 输入: array<u32>;

@group(0) @binding(1) var<storage, read> 范围: array<vec2<u32>>;

@group(0) @binding(2) var<storage, read_write> 无位: array<vec4<u32>>;

@group(0) @binding(3) var<storage, read_write> 整位: array<vec4<i32>>;

@group(0) @binding(4) var<storage, read_write> 段: array<vec4<u32>>;

@group(0) @binding(5) var<storage, read_write> 向量: array<vec4<u32>>;

fn 无四计(x: u32) -> vec4<u32> {
  return vec4<u32>(countLeadingZeros(x), countTrailingZeros(x), firstLeadingBit(x), firstTrailingBit(x));
}

fn 整四计(s: i32) -> vec4<i32> {
  return vec4<i32>(countLeadingZeros(s), countTrailingZeros(s), firstLeadingBit(s), firstTrailingBit(s));
}

@compute @workgroup_size(64)
fn 位段(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 序 = 号.x;
  if 序 < arrayLength(&输入) {
    let x = 输入[序];
    let y = ~x;
    let s = bitcast<i32>(x);
    let 围 = 范围[序];
    let o = 围.x;
    let c = 围.y;
    无位[序] = 无四计(x);
    整位[序] = 整四计(s);
    段[序] = vec4<u32>(extractBits(x, o, c), bitcast<u32>(extractBits(s, o, c)), insertBits(x, y, o, c), bitcast<u32>(insertBits(s, bitcast<i32>(y), o, c)));
    let 对 = vec2<u32>(x, y);
    let 零数 = countLeadingZeros(对);
    let 高段 = extractBits(对, 28u, 4u);
    向量[序] = vec4<u32>(零数.x, 零数.y, 高段.x, 高段.y);
  }
}
