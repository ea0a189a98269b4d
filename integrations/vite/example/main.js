// Dispatches the 加倍 kernel (着色/加倍。着色器。豫, imported as an ES module through vite-plugin-zhuose)
// on 8 numbers and shows what the GPU wrote back.  window.着色结果 holds {输入, 输出} or {错误} for tests.
import 加倍 from "./着色/加倍。着色器。豫";

const 输入 = new Uint32Array([0, 1, 2, 3, 4, 5, 6, 0xffffffff]);

async function run() {
  const adapter = await navigator.gpu?.requestAdapter();
  if (!adapter) throw new Error("没有 WebGPU 适配器");
  const device = await adapter.requestDevice();
  const module = device.createShaderModule({ code: 加倍.着色源 });
  const pipeline = device.createComputePipeline({
    layout: "auto", compute: { module, entryPoint: 加倍.加倍入口 },
  });
  const data = device.createBuffer({
    size: 输入.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(data, 0, 输入);
  const readback = device.createBuffer({ size: 输入.byteLength, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: data } }],
  }));
  pass.dispatchWorkgroups(输入.length / 4);
  pass.end();
  encoder.copyBufferToBuffer(data, 0, readback, 0, 输入.byteLength);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  return Array.from(new Uint32Array(readback.getMappedRange()));
}

const shown = document.getElementById("结果");
run().then(
  (输出) => { window.着色结果 = { 输入: Array.from(输入), 输出 }; shown.textContent = 输出.join(" "); },
  (err) => { window.着色结果 = { 错误: String(err) }; shown.textContent = String(err); },
);
