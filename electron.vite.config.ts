// electron-vite build of the desktop app: the Electron main process (main/electron/index.ts, which
// bundles the supervisor), the preload, and the renderer. Output in out/{main,preload,renderer}.
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: 'main/electron/index.ts', external: ['node-pty'] },
    },
  },
  preload: {
    build: { outDir: 'out/preload', rollupOptions: { input: 'preload/index.ts' } },
  },
  renderer: {
    root: 'renderer',
    build: { outDir: 'out/renderer', rollupOptions: { input: 'renderer/index.html' } },
  },
});
