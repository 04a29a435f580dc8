// Sandbox rules as a bubblewrap command line (DESIGN.md §11 "Sandbox"): the whole filesystem
// read-only, an empty tmpfs over each hidden path, then the read-write and read-only binds put back
// over it, shallowest first, so a bind inside a hidden dir shows through. A new pid namespace, the
// network's own namespace for `none`, and never `--new-session`: the agent keeps the controlling
// terminal of its own pty (SIGWINCH and Ctrl-C reach it; TIOCSTI reaches only its own input).
// Reads the filesystem (a path absent is skipped, its real path bound). Runs in the supervisor's process.
import { lstatSync, mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fail, ok, type Result } from '../../common/result.js';
import type { SandboxRules } from './sandbox-rules.js';

/** The bubblewrap program, looked up on PATH. */
export const BWRAP = 'bwrap';

export interface BwrapPlace {
  /** Where the agent starts, inside the sandbox. */
  cwd: string;
  /** Read-write dirs made when absent (this launch's spool, the agent CLI's own dirs before its first run). */
  makeDirs?: readonly string[];
}

type Mount = { at: string; kind: 'hide-dir' | 'hide-file' | 'rw' | 'ro'; order: number };

/** At equal depth a hidden dir goes first and a read-only bind last: the same path in two lists is the stricter. */
const KIND_ORDER = { 'hide-dir': 0, 'hide-file': 0, rw: 1, ro: 2 } as const;

/** The real path of `p`, or null when it does not exist. */
function real(p: string): { at: string; dir: boolean } | null {
  try {
    const at = realpathSync(p);
    return { at, dir: lstatSync(at).isDirectory() };
  } catch {
    return null;
  }
}

const depth = (p: string): number => p.split(path.sep).filter((s) => s !== '').length;

function mounts(rules: SandboxRules): Mount[] {
  const out: Mount[] = [];
  const add = (p: string, kind: (dir: boolean) => Mount['kind']): void => {
    const r = real(p);
    if (r !== null) out.push({ at: r.at, kind: kind(r.dir), order: out.length });
  };
  for (const p of rules.hidden) add(p, (dir) => (dir ? 'hide-dir' : 'hide-file'));
  for (const p of rules.readWrite) add(p, () => 'rw');
  for (const p of rules.readOnly) add(p, () => 'ro');
  return out.sort((a, b) => depth(a.at) - depth(b.at) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.order - b.order);
}

function mountArgs(m: Mount): string[] {
  switch (m.kind) {
    case 'hide-dir':
      return ['--tmpfs', m.at];
    // A socket or file hidden: the null device in its place (connecting to it is refused).
    case 'hide-file':
      return ['--ro-bind', '/dev/null', m.at];
    case 'rw':
      return ['--bind', m.at, m.at];
    case 'ro':
      return ['--ro-bind', m.at, m.at];
  }
}

/** Makes the read-write dirs a sandbox binds before its agent's first run; fails naming the one that cannot be made. */
export function makeSandboxDirs(dirs: readonly string[]): Result<true> {
  for (const d of dirs) {
    try {
      mkdirSync(d, { recursive: true, mode: 0o700 });
    } catch (err) {
      return fail('failed', `${d}: cannot be made for the sandbox (${(err as Error).message})`);
    }
  }
  return ok(true);
}

/**
 * The arguments before `--` and the agent's own command line. `none` and `allowlist` get a network
 * namespace of their own (its loopback only); `allowlist` reaches its proxy through a socket bound
 * in among the read-only paths.
 */
export function bwrapArgs(rules: SandboxRules, place: BwrapPlace): Result<string[]> {
  const made = makeSandboxDirs(place.makeDirs ?? []);
  if (!made.ok) return made;
  const args = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', ...(rules.network !== 'full' ? ['--unshare-net'] : [])];
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  const done: Mount[] = [];
  for (const m of mounts(rules)) {
    // Inside a dir already hidden (and not put back) a hidden path is gone already.
    const under = done.filter((d) => m.at.startsWith(d.at === '/' ? '/' : `${d.at}/`)).at(-1);
    if ((m.kind === 'hide-dir' || m.kind === 'hide-file') && under?.kind === 'hide-dir') continue;
    done.push(m);
    args.push(...mountArgs(m));
  }
  args.push('--chdir', place.cwd);
  return ok(args);
}
