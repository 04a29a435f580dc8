// Adding and removing remotes in $MORI_HOME/remotes.json (remotes-store.ts reads it): mode 0600,
// written atomically under a short lock; a corrupt file stops a change before anything is written.
// Runs in the CLI process.
import path from 'node:path';
import { fail, ok, type Result } from '../../common/result.js';
import { writeAtomicSync } from '../state/atomic-write.js';
import { withLock } from '../state/pid-lock.js';
import { ensureHome } from '../state/registry.js';
import { readRemotes, remotesPath, type Remote } from './remotes-store.js';

/** Applies `change` under the file's lock; a corrupt file stops it before anything is written. */
async function updateRemotes(home: string, change: (remotes: Remote[]) => Result<Remote[]>): Promise<Result<Remote[]>> {
  ensureHome(home);
  return withLock(path.join(home, 'remotes.lock'), 'remotes update', () => {
    const current = readRemotes(home);
    if (!current.ok) return current;
    const next = change(current.value);
    if (!next.ok) return next;
    writeAtomicSync(remotesPath(home), JSON.stringify({ schemaVersion: 1, remotes: next.value }, null, 2) + '\n', 0o600);
    return next;
  });
}

export function addRemote(home: string, remote: Remote): Promise<Result<Remote[]>> {
  return updateRemotes(home, (remotes) =>
    remotes.some((r) => r.name === remote.name) ? fail('conflict', `a remote named "${remote.name}" exists already (\`mori remote rm ${remote.name}\` first)`) : ok([...remotes, remote]),
  );
}

export function removeRemote(home: string, name: string): Promise<Result<Remote[]>> {
  return updateRemotes(home, (remotes) =>
    remotes.some((r) => r.name === name) ? ok(remotes.filter((r) => r.name !== name)) : fail('not-found', `no remote named "${name}" (\`mori remote ls\` lists them)`),
  );
}
