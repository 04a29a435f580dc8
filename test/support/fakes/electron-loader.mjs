// A Node module hook that loads test/support/fakes/electron.ts wherever 'electron' is imported, dependencies
// included (electron-store), for tests that run app code in a child Node process (with tsx).
// Registered with `node --import tsx --import ./test/support/fakes/electron-loader.mjs`.
import { register } from 'node:module';

if (!globalThis.__moriElectronHook) {
  globalThis.__moriElectronHook = true;
  register(import.meta.url, import.meta.url);
}

export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: new URL('./electron.ts', import.meta.url).href, shortCircuit: true };
  return next(specifier, context);
}
