// Vite builds the page from index.html; the wasm package in ./pkg is produced by
// `cargo xtask` (wasm-pack --target web) before Vite runs.
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  build: { target: "es2022", outDir: "dist", emptyOutDir: true },
  preview: { host: "127.0.0.1" },
  server: { host: "127.0.0.1" },
});
