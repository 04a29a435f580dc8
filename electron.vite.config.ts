// electron-vite build of the desktop app: the Electron main process (main/electron/index.ts, a client
// of the daemon through main/daemon-client/), the daemon entry the app runs with its own binary as
// Node (main/electron/daemon-entry.ts → out/main/daemon.js: the `mori` CLI, whose `up` runs
// main/daemon/), the preload, and the renderer. Output in
// out/{main,preload,renderer}.
import { defineConfig } from 'electron-vite';
import { rendererConfig } from './vite.renderer.config.js';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: { index: 'main/electron/index.ts', daemon: 'main/electron/daemon-entry.ts' },
        // Loaded from disk (unpacked from the asar in a package): the native addons node-pty and koffi
        // (the C library's calls, main/os/libc.ts), and SQLite's WASM build, which reads its
        // sqlite3.wasm beside its own module (opencode's usage, main/agents/usage/wal-database.ts).
        external: ['node-pty', 'koffi', '@sqlite.org/sqlite-wasm'],
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: 'preload/index.ts',
        // A sandboxed preload is not an ES module: CommonJS, named .cjs since package.json says "module".
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  // The same build as `npm run build:renderer` (vite.renderer.config.ts), so both give one window.
  renderer: rendererConfig,
});
