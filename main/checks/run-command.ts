// Runs one command check (DESIGN.md §7): `sh -c` in the project dir, in its own process group, with
// stdin closed, the output's last lines kept in bounded memory, a timeout and cancellation that kill
// the whole group (SIGTERM, then SIGKILL after a grace period), and nothing of the group left running
// when it returns. Runs in the supervisor and the CLI.
import { spawn } from 'node:child_process';
import type { CheckWrap } from '../sandbox/check-sandbox.js';
import { trackGroup, untrackGroup } from './in-flight.js';
import { onAbort } from '../joined-signal.js';
import { OutputTail } from './output-tail.js';
import { groupAlive, signalGroup } from '../os/process-group.js';

/** DESIGN.md §6: a stopped process group gets SIGTERM, then SIGKILL after 2 s. */
export const KILL_GRACE_MS = 2_000;
/** How often to look whether a killed group is gone: short next to the grace, cheap (/proc scan). */
const POLL_MS = 50;
/** After the group is gone its pipes close at once; this only bounds a pipe inherited by an escaped process. */
const DRAIN_MS = 500;

export interface CommandOptions {
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  graceMs?: number;
  env?: NodeJS.ProcessEnv;
  /** The session's sandbox (sandbox/check-sandbox.ts): the command runs inside it; absent: as it is. */
  sandbox?: CheckWrap | null | undefined;
}

export interface CommandRun {
  status: 'pass' | 'fail' | 'timeout' | 'skipped';
  exitCode: number | null;
  exitSignal: string | null;
  durationMs: number;
  detail: string;
  outputTail: string;
  /** The process group id (= the shell's pid), for tests and logs. */
  pgid: number | null;
}

export function runCommand(command: string, opts: CommandOptions): Promise<CommandRun> {
  const started = performance.now();
  const grace = opts.graceMs ?? KILL_GRACE_MS;
  const tail = new OutputTail();
  const elapsed = () => Math.round(performance.now() - started);
  if (opts.signal?.aborted) {
    return Promise.resolve({ status: 'skipped', exitCode: null, exitSignal: null, durationMs: 0, detail: 'cancelled before it started', outputTail: '', pgid: null });
  }
  return new Promise((resolve) => {
    const line = opts.sandbox ? opts.sandbox(['/bin/sh', '-c', command]) : { ok: true as const, value: { command: '/bin/sh', args: ['-c', command] } };
    if (!line.ok) {
      resolve({ status: 'fail', exitCode: null, exitSignal: null, durationMs: elapsed(), detail: `could not start in its sandbox: ${line.message}`, outputTail: '', pgid: null });
      return;
    }
    let child;
    try {
      child = spawn(line.value.command, line.value.args, { cwd: opts.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: opts.env ?? process.env });
    } catch (err) {
      resolve({ status: 'fail', exitCode: null, exitSignal: null, durationMs: elapsed(), detail: `could not start: ${(err as Error).message}`, outputTail: '', pgid: null });
      return;
    }
    const pgid = child.pid ?? null;
    if (pgid !== null) trackGroup(pgid);
    let stopped: 'timeout' | 'cancelled' | null = null;
    let killTimer: NodeJS.Timeout | undefined;
    let closed = false;
    let done = false;
    child.stdout?.on('data', (b: Buffer) => tail.push(b));
    child.stderr?.on('data', (b: Buffer) => tail.push(b));
    child.on('close', () => (closed = true));

    const stop = (why: 'timeout' | 'cancelled') => {
      if (stopped !== null || pgid === null) return;
      stopped = why;
      signalGroup(pgid, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(pgid, 'SIGKILL'), grace);
    };
    const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
    const cancel = () => stop('cancelled');
    const stopHearing = opts.signal ? onAbort(opts.signal, cancel) : undefined;

    const finish = async (code: number | null, sig: NodeJS.Signals | null, spawnError?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stopHearing?.();
      if (pgid !== null) {
        // Whatever the shell left behind in its group goes with it: a check leaves nothing running.
        if (stopped === null && groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
        const deadline = Date.now() + grace + 2 * 1000;
        while (groupAlive(pgid) && Date.now() < deadline) await delay(POLL_MS);
        if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
        untrackGroup(pgid);
      }
      clearTimeout(killTimer);
      const drainUntil = Date.now() + DRAIN_MS;
      while (!closed && Date.now() < drainUntil) await delay(10);
      const outputTail = tail.text();
      const base = { exitCode: code, exitSignal: sig, durationMs: elapsed(), outputTail, pgid };
      if (spawnError) resolve({ ...base, status: 'fail', detail: `could not start: ${spawnError.message}` });
      else if (stopped === 'timeout') resolve({ ...base, status: 'timeout', detail: `no exit within ${formatMs(opts.timeoutMs)}; its process group was killed` });
      else if (stopped === 'cancelled') resolve({ ...base, status: 'skipped', detail: 'cancelled; its process group was killed' });
      else if (code === 0) resolve({ ...base, status: 'pass', detail: `exit 0 (${formatBytes(tail.totalBytes)} of output)` });
      else resolve({ ...base, status: 'fail', detail: code !== null ? `exit code ${code}` : `killed by ${sig ?? 'a signal'}` });
    };
    child.on('error', (err) => void finish(null, null, err));
    child.on('exit', (code, sig) => void finish(code, sig));
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10}s`;
  return `${Math.round(ms / 60_000)}m`;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KiB`;
  return `${Math.round(n / (1024 * 1024))} MiB`;
}
