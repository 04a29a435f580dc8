// Where Mori keeps its own files (registry, socket): $MORI_HOME, else the platform's config dir for
// "Mori" — the same folder Electron's app.getPath('userData') gives. Any Node process.
import os from 'node:os';
import path from 'node:path';

export function moriHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MORI_HOME) return path.resolve(env.MORI_HOME);
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Mori');
  if (process.platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Mori');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Mori');
}
