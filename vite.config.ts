import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./renderer', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/renderer', import.meta.url));

export default defineConfig({
  root,
  // Electron loads the build from a file:// URL, so every asset URL must be relative.
  base: './',
  plugins: [react()],
  // Monaco's workers import shared chunks; only ES module workers can code-split.
  worker: { format: 'es' },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    // Monaco is one big lazily loaded chunk by design; do not warn about it.
    chunkSizeWarningLimit: 6000,
  },
});
