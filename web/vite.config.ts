import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Builds the console into web/dist; scripts/embed-web.ts then puts every file inside the binary.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, assetsDir: "assets", sourcemap: false, modulePreload: { polyfill: false } },
  server: { proxy: { "/api": "http://localhost:3000", "/t": "http://localhost:3000" } },
});
