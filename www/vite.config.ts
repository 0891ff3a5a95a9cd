// Vite builds the page from index.html; the wasm package in ./pkg is produced by
// `cargo xtask` (wasm-pack --target web) before Vite runs. The dependencies
// are their own chunk; the Sharding panel is loaded when first needed (main.ts).
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
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
