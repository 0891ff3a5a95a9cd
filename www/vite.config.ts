// Vite builds the page from index.html. The page imports the npm package by
// its name (`tpu-playground`, the workspace's web/, linked into node_modules)
// and its exports, which are its built dist/: `cargo xtask` runs wasm-pack
// (web/pkg) and builds the package before Vite runs, as a user's bundler
// would find it; the package's default worker URL is bundled from there. The
// dependencies are their own chunk; the Sharding and Compiled panels are
// loaded when first needed (results.ts).
import { cpSync, existsSync } from "node:fs";
import { defineConfig, type Plugin } from "vite";

// CPython's standard library as the package lays it out (web/python-lib,
// from `cargo xtask`), beside the page: the runtime's worker reads a module
// from ./python-lib/ when a program first imports it.
const pythonLib: Plugin = {
  name: "python-lib",
  closeBundle() {
    if (!existsSync("../web/python-lib/index.json")) {
      throw new Error("web/python-lib is missing: `cargo xtask serve` lays it out");
    }
    cpSync("../web/python-lib", "dist/python-lib", { recursive: true });
  },
};

export default defineConfig({
  base: "./",
  plugins: [pythonLib],
  build: {
    target: "es2022",
    outDir: "dist",
    emptyOutDir: true,
    rollupOptions: {
      output: {
        // The page's dependencies (the editor: CodeMirror, its parser and
        // their small helpers) are most of its script and change only when
        // their versions do: their own chunk keeps the page's code under
        // Vite's 500 kB chunk warning and lets a browser keep them cached
        // across deploys of the page.
        manualChunks(id: string) {
          return id.includes("/node_modules/") ? "vendor" : undefined;
        },
      },
    },
  },
  preview: { host: "127.0.0.1" },
  server: { host: "127.0.0.1" },
});
