import { defineConfig } from "vite";
import zhuose from "vite-plugin-zhuose";

// the packages (包.json) are found under this folder; the shader sources live in 着色/
export default defineConfig({ plugins: [zhuose()], build: { target: "es2022" } });
