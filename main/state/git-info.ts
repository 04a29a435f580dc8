// The project's git HEAD and changed files, for checkpoints and the resume prompt's "files in
// progress". Returns nulls/empties outside a git repo or without git. Any Node process.
//
// The asynchronous readers (gitStateAsync) run git as a child process without blocking the event
// loop, and kill git's whole process group when it outlives its timeout. The synchronous readers are
// for one-shot callers (building one resume prompt), never for periodic or per-session work.
import { spawn, spawnSync } from 'node:child_process';
import { signalGroup } from '../os/process-group.js';

/** Git is given this long: a status on a huge repo must not stall a resume. */
export const GIT_TIMEOUT_MS = 5_000;
/** A status of a big tree with many untracked files fits easily; more is cut off, not buffered. */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

const STATUS_ARGS = ['status', '--porcelain=v1', '-z', '--untracked-files=normal'];

export function gitHead(dir: string): string | null {
  const r = spawnSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8', timeout: GIT_TIMEOUT_MS });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Paths changed against HEAD, untracked included, as `git status --porcelain` lists them. */
export function gitChangedFiles(dir: string): string[] {
  const r = spawnSync('git', ['-C', dir, ...STATUS_ARGS], { encoding: 'utf8', timeout: GIT_TIMEOUT_MS, maxBuffer: MAX_OUTPUT_BYTES });
  return r.status === 0 ? parsePorcelain(r.stdout) : [];
}

export interface GitState {
  head: string | null;
  changedFiles: string[];
  /** Set when git did not answer in time (and was killed); head and files are then unknown. */
  timedOut: boolean;
}

/**
 * HEAD and changed files without blocking the event loop, from one `git status --porcelain=v2
 * --branch` (one process per checkpoint, not two). A git that hangs is killed after `timeoutMs`.
 */
export async function gitStateAsync(dir: string, timeoutMs = GIT_TIMEOUT_MS): Promise<GitState> {
  const r = await runGit(dir, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal'], timeoutMs);
  if (r.timedOut) return { head: null, changedFiles: [], timedOut: true };
  if (r.code !== 0) return { head: null, changedFiles: [], timedOut: false }; // not a repository, or no git
  return { ...parsePorcelainV2(r.stdout), timedOut: false };
}

/** Fields before the path in each porcelain v2 record kind (`git help status`). */
const V2_FIELDS_BEFORE_PATH: Record<string, number> = { '1': 8, '2': 9, u: 10, '?': 1 };

/** `git status --porcelain=v2 --branch -z` output → HEAD and changed paths, the state dirs left out. */
export function parsePorcelainV2(stdout: string): { head: string | null; changedFiles: string[] } {
  let head: string | null = null;
  const files: string[] = [];
  const records = stdout.split('\0');
  for (let i = 0; i < records.length; i++) {
    const record = records[i] ?? '';
    if (record.startsWith('# branch.oid ')) {
      const oid = record.slice('# branch.oid '.length).trim();
      head = /^[0-9a-f]{7,}$/.test(oid) ? oid : null; // "(initial)" before the first commit
      continue;
    }
    const fields = V2_FIELDS_BEFORE_PATH[record[0] ?? ''];
    if (fields === undefined) continue; // other headers, ignored files
    let at = 0;
    for (let n = 0; n < fields && at >= 0; n++) at = record.indexOf(' ', at + 1);
    if (at < 0) continue;
    const file = record.slice(at + 1);
    if (record[0] === '2') i++; // a rename's or copy's source path follows as its own record
    if (file.startsWith('.mori/')) continue;
    files.push(file);
  }
  return { head, changedFiles: files };
}

interface GitRun {
  code: number | null;
  stdout: string;
  timedOut: boolean;
}

/**
 * Starting a process forks this one, which blocks the event loop for a few milliseconds (more with a
 * big heap). Spawns are chained one per loop turn, so several checkpoints starting at once never add
 * up to one long stall.
 */
let spawnGate: Promise<void> = Promise.resolve();
function nextSpawnTurn(): Promise<void> {
  const turn = spawnGate.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  spawnGate = turn;
  return turn;
}

async function runGit(dir: string, args: readonly string[], timeoutMs: number): Promise<GitRun> {
  await nextSpawnTurn();
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      // detached: git gets its own process group, so the timeout kills its helpers (hooks, fsmonitor) too.
      child = spawn('git', ['-C', dir, ...args], { stdio: ['ignore', 'pipe', 'ignore'], detached: process.platform !== 'win32' });
    } catch {
      resolve({ code: null, stdout: '', timedOut: false });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    const kill = (): void => {
      try {
        if (process.platform !== 'win32' && child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    child.stdout?.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_OUTPUT_BYTES) kill();
      else chunks.push(d);
    });
    child.on('error', () => {
      clearTimeout(timer);
      resolve({ code: null, stdout: '', timedOut: false }); // no git on PATH
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: size > MAX_OUTPUT_BYTES ? null : code, stdout: Buffer.concat(chunks).toString('utf8'), timedOut });
    });
  });
}

/** `git status --porcelain=v1 -z` output → paths, the state dirs left out. */
function parsePorcelain(stdout: string): string[] {
  const files: string[] = [];
  const parts = stdout.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i] ?? '';
    if (entry.length < 4) continue;
    const status = entry.slice(0, 2);
    const file = entry.slice(3);
    if (file.startsWith('.mori/')) continue;
    files.push(file);
    if (status[0] === 'R' || status[0] === 'C') i++; // the rename's source path follows
  }
  return files;
}
