// Tint as a second WGSL judge: one shader per input line ({"wgsl": "..."}), one answer per output line
// ({"messages": [{"type", "line", "column", "message"}]}), in order. Dawn's null backend compiles
// the WGSL with Tint (its uniformity analysis included) and needs no GPU.
import { createInterface } from 'node:readline';
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);

// The GPU instance must stay referenced: once garbage-collected, Dawn aborts the process
// ("std::system_error: Invalid argument") on a later shader.
const gpu = create(['backend=null']);

async function openDevice() {
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new Error('Dawn gave no null-backend adapter');
  const wanted = ['subgroups', 'shader-f16'].filter((f) => adapter.features.has(f));
  return adapter.requestDevice({ requiredFeatures: wanted });
}

async function judge(device, wgsl) {
  device.pushErrorScope('validation');   // the verdict comes from getCompilationInfo; keep stderr quiet
  const module = device.createShaderModule({ code: wgsl });
  const info = await module.getCompilationInfo();
  await device.popErrorScope();
  return info.messages.map((m) => ({ type: m.type, line: m.lineNum, column: m.linePos, message: m.message }));
}

const device = await openDevice();
const pending = [];
let wake = null;
let closed = false;
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => { if (line.trim()) pending.push(line); if (wake) wake(); });
lines.on('close', () => { closed = true; if (wake) wake(); });
for (;;) {
  if (!pending.length) {
    if (closed) break;
    await new Promise((resolve) => { wake = resolve; });
    wake = null;
    continue;
  }
  let answer;
  try {
    answer = { messages: await judge(device, JSON.parse(pending.shift()).wgsl) };
  } catch (err) {
    answer = { error: String(err) };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
process.exit(0);
