import { resolve } from 'node:path';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          serve: resolve(__dirname, 'src/main/serve.ts'),
          // The headless screens' worker thread (sessions/screenPool.ts loads it beside the bundle).
          screenWorker: resolve(__dirname, 'src/main/core/sessions/screenWorker.ts'),
          // The PTY thread (sessions/ptyHost.ts loads it beside the bundle).
          ptyWorker: resolve(__dirname, 'src/main/core/sessions/ptyWorker.ts'),
        },
        // Shared chunks beside the entries: code that finds a worker's entry by its own __dirname runs from any of them.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react()],
    // public/ (the web manifest and its icons) is copied as is to the output's root, where serve serves it.
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/renderer/index.html'),
          // The service worker: at the root under a fixed name, since its scope is its folder and pages register it by URL.
          sw: resolve(__dirname, 'src/renderer/src/pwa/serviceWorker.ts'),
        },
        output: { entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js') },
      },
    },
  },
});
