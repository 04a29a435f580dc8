// Where the remotes are kept: `$MORI_HOME/remotes.json` (DESIGN.md §13). Its own module so a command
// can tell there are none (most people) without loading the remotes' schemas (remotes-store.ts).
// Any Node process.
import path from 'node:path';

export const REMOTES_FILE = 'remotes.json';

export function remotesPath(home: string): string {
  return path.join(home, REMOTES_FILE);
}
