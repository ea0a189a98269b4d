// A client of the 着色 build service (`着色器 服务 --构建`, docs/生成.md): one child process,
// JSON lines in both directions, protocol 2; requests may overlap, replies are matched by 编号.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

export const PROTOCOL = 2;

/** The command that starts the service: options.command, else $ZHUOSE_COMMAND (words), else python3 -m zhuose.cli. */
export function serviceCommand(command) {
  if (command) return command;
  const fromEnv = process.env.ZHUOSE_COMMAND;
  if (fromEnv) return fromEnv.split(" ").filter(Boolean);
  return ["python3", "-m", "zhuose.cli"];
}

export class BuildService {
  /** @param {string} root the workspace root: packages (包.json) are found under it, sources must lie in it */
  constructor(root, command) {
    const [program, ...args] = serviceCommand(command);
    this.child = spawn(program, [...args, "serve", "--构建"], { cwd: root, stdio: ["pipe", "pipe", "inherit"] });
    this.pending = new Map();
    this.next = 1;
    this.failure = null;
    createInterface({ input: this.child.stdout }).on("line", (line) => this.#reply(line));
    const fail = (why) => {
      this.failure = new Error(`着色构建服务退出了：${why}`);
      for (const { reject } of this.pending.values()) reject(this.failure);
      this.pending.clear();
    };
    this.child.on("error", (err) => fail(`启动不了 ${program}（${err.message}）`));
    this.child.on("exit", (code, signal) => fail(signal ? `信号 ${signal}` : `退出码 ${code}`));
  }

  #reply(line) {
    let reply;
    try { reply = JSON.parse(line); } catch { return; }
    const waiting = this.pending.get(reply["编号"]);
    if (!waiting) return;
    this.pending.delete(reply["编号"]);
    waiting.resolve(reply);
  }

  /** The reply for one shader source (a path inside the root, or absolute). */
  request(file) {
    if (this.failure) return Promise.reject(this.failure);
    const number = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(number, { resolve, reject });
      this.child.stdin.write(JSON.stringify({ "协议": PROTOCOL, "编号": number, "文件": file }) + "\n");
    });
  }

  close() {
    if (this.child.exitCode === null && !this.child.killed) this.child.stdin.end();
  }
}
