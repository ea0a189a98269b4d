// Whether the tests that run the real `着色器` can run here.
"use strict";

const { execFileSync } = require("node:child_process");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..", "..", "..");
const PYTHON = process.env.ZHUOSE_PYTHON || "python3";

/** Why the real command cannot run here (printed), or false; on CI it must run, so never skipped there. */
function toolchainMissing() {
  if (process.env.CI === "true") {
    return false;
  }
  try {
    execFileSync(PYTHON, ["-c", "import zhuose.cli.render, wgpu"], { stdio: "ignore" });
    return false;
  } catch (error) {
    const reason = `跳过：${PYTHON} 里没有装好本工具链（pip install -e .）`;
    process.stderr.write(`${reason}\n`);
    return reason;
  }
}

module.exports = { ROOT, PYTHON, toolchainMissing };
