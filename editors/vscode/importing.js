// @ts-check
"use strict";
/**
 * 「着色：从 WGSL 导入」: where the imported source goes and what the user is told; the
 * import itself is the language server's `着色/导入` request (`着色器 导入` with --尽量).
 */

const path = require("node:path");

/** `甲/乙.wgsl` → `甲/乙。着色器。豫` (beside the WGSL file). */
function importedPath(wgslPath) {
  const folder = path.dirname(wgslPath);
  const stem = path.basename(wgslPath).replace(/\.wgsl$/i, "");
  return path.join(folder, `${stem}。着色器。豫`);
}

/** One line for the warning after an import that left something out: how many, and the first one. */
function importSummary(problems) {
  if (!problems || problems.length === 0) {
    return "";
  }
  const first = problems[0];
  const where = first.range ? `第 ${first.range.start.line + 1} 行第 ${first.range.start.character + 1} 列：` : "";
  const more = problems.length > 1 ? `（另有 ${problems.length - 1} 处，见导入文件里的注释）` : "";
  return `导入时略去了 ${problems.length} 个声明：${where}${first.message}${more}`;
}

module.exports = { importedPath, importSummary };
