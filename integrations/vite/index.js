// vite-plugin-zhuose: `import 加倍 from './加倍。着色器。豫'` gives the generated module as an ES module
// (the default export holds every export; names that are JavaScript identifiers are also named exports):
//   着色源 (WGSL), 金属源 (MSL), 并线汇编源 (PTX), and per entry item its entry function's name and
//   「入口项名并线汇编名」 (the PTX name); a target that cannot translate the source exports a one-line comment.
// One build service per dev server or build; every file an answer depends on (imported modules, the
// builtin declarations, 包.json) is added with addWatchFile, so Vite's module graph reloads the
// importers when any of them changes.
// A translation error fails the build, and in the dev server shows in the error overlay at 文件:行:列.
import path from "node:path";
import { BuildService } from "./service.js";

export const SHADER_SUFFIX = "。着色器。豫";
const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u;
const RESERVED = new Set(["default", "await", "yield", "let", "static", "enum", "implements", "package", "protected",
  "interface", "private", "public", "arguments", "eval"]);

/** The ES module of a protocol-2 reply's 导出. */
export function esModule(exports) {
  const lines = [`const 导出 = ${JSON.stringify(exports)};`, "export default 导出;"];
  for (const name of Object.keys(exports)) {
    if (IDENTIFIER.test(name) && !RESERVED.has(name)) lines.push(`export const ${name} = 导出[${JSON.stringify(name)}];`);
  }
  return lines.join("\n") + "\n";
}

/** @param {{root?: string, command?: string[]}} options root: the workspace (default Vite's root) */
export default function zhuose(options = {}) {
  let root;
  let service = null;
  const started = () => (service ??= new BuildService(root, options.command));

  return {
    name: "zhuose",
    enforce: "pre",
    configResolved(config) {
      root = path.resolve(config.root, options.root ?? ".");
    },
    async load(id) {
      const file = id.split("?")[0];
      if (!file.endsWith(SHADER_SUFFIX)) return null;
      const reply = await started().request(file);
      for (const dependency of reply["依赖"] ?? []) this.addWatchFile(dependency);
      for (const warning of reply["警告"] ?? []) this.warn(warning);
      if (reply["导出"] == null) {
        const [first] = reply["错误位置"];
        const where = first?.["文件"] ?? file;
        const err = new Error(reply["错误"].join("\n"));
        err.id = where;
        err.loc = { file: where, line: first?.["行"] ?? 1, column: (first?.["列"] ?? 1) - 1 };
        err.plugin = "zhuose";
        throw err;
      }
      return { code: esModule(reply["导出"]), map: { mappings: "" } };
    },
    closeBundle() {
      service?.close();
      service = null;
    },
  };
}
