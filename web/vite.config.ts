import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Builds the console into web/dist; scripts/embed-web.ts then puts every file inside the binary.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
    modulePreload: { polyfill: false },
    // TanStack Query in one chunk: its helpers shared by many screens (queryOptions, 38 bytes) would
    // otherwise be chunks too small to precompress, served unencoded on the first load.
    rollupOptions: { output: { manualChunks: (id: string) => (id.includes("/node_modules/@tanstack/") ? "query" : null) } },
  },
  server: { proxy: { "/api": "http://localhost:3000", "/t": "http://localhost:3000" } },
});
