// When a process started, as an opaque string, so a lock or marker naming a pid can tell its writer
// from a later process that got the same pid. Linux: field 22 of /proc/<pid>/stat (clock ticks after
// boot; the boot id is compared separately). macOS and other Unixes: `ps -o lstart=`. Null when the
// process does not exist or its start cannot be read. Any Node process.
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let own: string | null | undefined;

/** `ps` answers in milliseconds; two seconds covers a loaded machine. */
const PS_TIMEOUT_MS = 2_000;
const PS_ARGS = (pid: number): string[] => ['-o', 'lstart=', '-p', String(pid)];

export function processStartTime(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (pid === process.pid && own !== undefined) return own;
  const start = process.platform === 'linux' ? linuxStart(pid) : psStart(pid);
  if (pid === process.pid) own = start;
  return start;
}

function linuxStart(pid: number): string | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so count fields after the last ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state), so field 22 (starttime) is rest[19].
  const ticks = rest[19];
  return ticks !== undefined && /^\d+$/.test(ticks) ? `linux:${ticks}` : null;
}

/** The same answer without holding the event loop while `ps` runs (Linux reads /proc at once). */
export function processStartTimeAsync(pid: number): Promise<string | null> {
  if (process.platform === 'linux' || process.platform === 'win32' || !Number.isInteger(pid) || pid <= 0) return Promise.resolve(processStartTime(pid));
  return new Promise((resolve) => {
    execFile('ps', PS_ARGS(pid), { encoding: 'utf8', timeout: PS_TIMEOUT_MS, env: { ...process.env, LC_ALL: 'C' } }, (err, stdout) => {
      const out = err ? '' : stdout.trim();
      resolve(out.length > 0 ? `ps:${out}` : null);
    });
  });
}

function psStart(pid: number): string | null {
  if (process.platform === 'win32') return null;
  // A second's resolution: a pid reused within the same second of a crash is not told apart.
  const r = spawnSync('ps', PS_ARGS(pid), { encoding: 'utf8', timeout: PS_TIMEOUT_MS, env: { ...process.env, LC_ALL: 'C' } });
  const out = r.status === 0 ? r.stdout.trim() : '';
  return out.length > 0 ? `ps:${out}` : null;
}
