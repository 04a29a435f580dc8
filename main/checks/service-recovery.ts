// Service recovery (DESIGN.md §7): a service line with `start: \`cmd\`` whose checks fail is started
// again — trusted commands only — as a detached process group with its output appended to
// `transcript/service-<slug>.log`, re-checked with backoff until it passes or a deadline, and its pid
// written back into environment.md as `(pid N)`. Runs in the supervisor (on wake) and the CLI
// (`mori verify --restart-services`); the service outlives both.
import { closeSync, writeSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { CheckResult, CheckSpec, ServiceSpec } from '../../common/checks.js';
import { writeAtomicSync } from '../state/atomic-write.js';
import { MarkdownDoc } from '../state/markdown-doc.js';
import { tryLock, type LockAttempt } from '../state/pid-lock.js';
import { ensureStateSubdir, openStateFileSync, readRegularFileSync } from '../state/state-file-guard.js';
import { checkId } from './derive-checks.js';
import { environmentLines } from './load-checks.js';
import { withPid } from './pid-writeback.js';
import { OutputTail } from './output-tail.js';
import { trackGroup, untrackGroup } from './in-flight.js';
import { onAbort } from '../joined-signal.js';
import { groupAlive, signalGroup } from '../os/process-group.js';
import { runOne, type RunContext } from './run-checks.js';
import { KILL_GRACE_MS } from './run-command.js';
import { ENVIRONMENT } from '../../common/state-files.js';

/** A dev server may compile before it listens; 30 s covers most, and a slower one is reported, not waited for. */
export const SERVICE_DEADLINE_MS = 30_000;
/** First re-check soon (a small server listens in milliseconds), then back off to spare the CPU it needs to start. */
const FIRST_RECHECK_MS = 100;
const MAX_RECHECK_MS = 2_000;

export type RecoveryAction = 'restarted' | 'not-needed' | 'no-start' | 'untrusted' | 'busy' | 'failed' | 'skipped';

export interface ServiceRecovery {
  service: string;
  slug: string;
  action: RecoveryAction;
  /** The new process group leader's pid, when one was started. */
  pid: number | null;
  detail: string;
  /** The service's log file, when it was started. */
  log: string | null;
  /** Whether `(pid N)` was written back into environment.md. */
  pidWritten: boolean;
}

/** Which checks decide a service is down: its network checks when it has any, else its pid checks. */
export function deciderChecks(svc: ServiceSpec, results: readonly CheckResult[]): CheckResult[] {
  const own = results.filter((r) => svc.checkIds.includes(r.id));
  const network = own.filter((r) => r.kind === 'tcp' || r.kind === 'http' || r.kind === 'dns');
  return network.length > 0 ? network : own.filter((r) => r.kind === 'pid');
}

/** Pure: what to do with one service, given its check results and whether starting it is trusted. */
export function recoveryNeeded(svc: ServiceSpec, results: readonly CheckResult[], trusted: boolean): RecoveryAction | 'start' {
  const deciders = deciderChecks(svc, results);
  if (deciders.length === 0 || deciders.every((r) => r.status === 'pass')) return 'not-needed';
  if (deciders.some((r) => r.status === 'skipped')) return 'skipped';
  if (svc.start === null) return 'no-start';
  if (!trusted) return 'untrusted';
  return 'start';
}

export interface RecoveryContext extends RunContext {
  stateDir: string;
  deadlineMs?: number;
}

export interface RecoveryOutcome {
  recovery: ServiceRecovery;
  /** Fresh results for the service's checks after a start (the pid check names the new pid). */
  results: CheckResult[];
}

export async function recoverService(svc: ServiceSpec, checks: readonly CheckSpec[], results: readonly CheckResult[], ctx: RecoveryContext): Promise<RecoveryOutcome> {
  const base = { service: svc.name, slug: svc.slug, pid: null, log: null, pidWritten: false };
  const decision = recoveryNeeded(svc, results, ctx.trusted);
  if (decision !== 'start') {
    const detail = {
      'not-needed': 'its checks pass',
      'no-start': 'its checks fail and its line has no start: command',
      untrusted: 'its start: command is not approved (mori trust)',
      skipped: 'verification was cancelled',
    }[decision as 'not-needed' | 'no-start' | 'untrusted' | 'skipped'];
    return { recovery: { ...base, action: decision, detail }, results: [] };
  }
  const start = svc.start as string;
  let lock: LockAttempt;
  try {
    // The state dir and its transcript/ (where the log goes) are checked before anything is made in them.
    ensureStateSubdir(ctx.stateDir, 'transcript');
    lock = tryLock(path.join(ctx.stateDir, `service-${svc.slug}.lock`), `starting service ${svc.name}`);
  } catch (err) {
    return { recovery: { ...base, action: 'failed', detail: `not started: ${(err as Error).message}` }, results: [] };
  }
  if (!lock.ok) {
    return { recovery: { ...base, action: 'busy', detail: `another Mori process (pid ${lock.holder?.pid ?? '?'}) is starting it` }, results: [] };
  }
  try {
    return await startAndWait(svc, start, checks, ctx);
  } finally {
    lock.release();
  }
}

async function startAndWait(svc: ServiceSpec, start: string, checks: readonly CheckSpec[], ctx: RecoveryContext): Promise<RecoveryOutcome> {
  const log = path.join(ctx.stateDir, 'transcript', `service-${svc.slug}.log`);
  let fd: number;
  try {
    fd = openStateFileSync(log, ctx.stateDir, 0o600);
  } catch (err) {
    const detail = `not started: its log ${log} cannot be written safely (${(err as Error).message})`;
    return { recovery: { service: svc.name, slug: svc.slug, action: 'failed', pid: null, log: null, pidWritten: false, detail }, results: [] };
  }
  let pid: number;
  try {
    writeSync(fd, `\n--- ${new Date().toISOString()} Mori starts ${svc.name}: ${start}\n`);
    const line = ctx.sandbox ? ctx.sandbox(['/bin/sh', '-c', start], { outlivesCaller: true }) : { ok: true as const, value: { command: '/bin/sh', args: ['-c', start] } };
    if (!line.ok) return { recovery: { service: svc.name, slug: svc.slug, action: 'failed', pid: null, log, pidWritten: false, detail: `could not start in its sandbox: ${line.message}` }, results: [] };
    const child = spawn(line.value.command, line.value.args, { cwd: ctx.projectDir, detached: true, stdio: ['ignore', fd, fd] });
    const spawned = await new Promise<number | Error>((resolve) => {
      child.once('spawn', () => resolve(child.pid ?? new Error('no pid')));
      child.once('error', (err) => resolve(err));
    });
    if (spawned instanceof Error) {
      return { recovery: { service: svc.name, slug: svc.slug, action: 'failed', pid: null, log, pidWritten: false, detail: `could not start: ${spawned.message}` }, results: [] };
    }
    pid = spawned;
    child.unref();
  } finally {
    closeSync(fd);
  }

  // Until its checks pass, the service is a start in progress: cancelling the verification (or the
  // process exiting) ends it rather than leaving a half-started server behind.
  trackGroup(pid);
  try {
    return await waitForService(svc, pid, log, checks, ctx);
  } finally {
    untrackGroup(pid);
  }
}

async function waitForService(svc: ServiceSpec, pid: number, log: string, checks: readonly CheckSpec[], ctx: RecoveryContext): Promise<RecoveryOutcome> {
  const written = writePidBack(ctx.stateDir, svc, pid);
  // The new pid is of this boot; the pid check of the service now names it.
  ctx.pidBoots[String(pid)] = { bootId: ctx.bootId, seenAt: new Date().toISOString() };
  const own = checks.filter((c) => svc.checkIds.includes(c.id));
  const recheck = own.map((c) => (c.kind === 'pid' ? { ...c, id: checkId('pid', String(pid)), target: String(pid) } : c));
  const deciders = recheck.filter((c) => c.kind === 'tcp' || c.kind === 'http' || c.kind === 'dns');

  const deadline = Date.now() + (ctx.deadlineMs ?? SERVICE_DEADLINE_MS);
  let wait = FIRST_RECHECK_MS;
  let last: CheckResult[] = [];
  const cancelled = async (): Promise<RecoveryOutcome> => {
    await killGroup(pid, ctx.graceMs ?? KILL_GRACE_MS);
    const results = await finalResults(recheck, deciders, [], ctx);
    return { recovery: { service: svc.name, slug: svc.slug, action: 'failed', pid, log, pidWritten: written.ok, detail: `started (pid ${pid}) but the verification was cancelled; its process group was killed` }, results };
  };
  for (;;) {
    await delay(Math.min(wait, Math.max(0, deadline - Date.now())), ctx.signal);
    wait = Math.min(wait * 2, MAX_RECHECK_MS);
    if (ctx.signal?.aborted) return cancelled();
    const alive = groupAlive(pid);
    last = await Promise.all(deciders.map((c) => runOne({ ...c, timeoutMs: Math.min(c.timeoutMs, Math.max(200, deadline - Date.now())) }, ctx)));
    const passing = last.every((r) => r.status === 'pass');
    if (passing && (alive || deciders.length > 0)) break;
    if (ctx.signal?.aborted) return cancelled();
    const stop = !alive ? `it exited before its checks passed; last lines of ${log}:\n${logTail(log)}` : Date.now() >= deadline ? `its checks still fail after ${Math.round((ctx.deadlineMs ?? SERVICE_DEADLINE_MS) / 1000)}s` : null;
    if (stop !== null) {
      const results = await finalResults(recheck, deciders, last, ctx);
      return { recovery: { service: svc.name, slug: svc.slug, action: 'failed', pid, log, pidWritten: written.ok, detail: `started (pid ${pid}) but ${stop}${written.ok ? '' : `; ${written.why}`}` }, results };
    }
  }
  const results = await finalResults(recheck, deciders, last, ctx);
  const detail = `started (pid ${pid}), checks pass; output in ${log}${written.ok ? '' : `; ${written.why}`}`;
  return { recovery: { service: svc.name, slug: svc.slug, action: 'restarted', pid, log, pidWritten: written.ok, detail }, results };
}

/** The service's check results after a start: the last re-check of its network checks, the rest run once more. */
async function finalResults(recheck: CheckSpec[], deciders: CheckSpec[], last: CheckResult[], ctx: RunContext): Promise<CheckResult[]> {
  const rest = recheck.filter((c) => !deciders.includes(c));
  const more = await Promise.all(rest.map((c) => runOne(c, ctx)));
  return [...last, ...more].map((r) => ({ ...r, detail: `${r.detail} (after a restart by Mori)` }));
}

function logTail(file: string): string {
  try {
    const tail = new OutputTail(10);
    tail.push(readRegularFileSync(file, false));
    return tail.text();
  } catch {
    return '';
  }
}

/**
 * Sets `(pid N)` on the service's line. Re-reads environment.md just before the atomic replace and
 * finds the line by its text, so an edit made meanwhile is neither lost nor written into the wrong line.
 */
export function writePidBack(stateDir: string, svc: ServiceSpec, pid: number): { ok: true } | { ok: false; why: string } {
  const file = path.join(stateDir, ENVIRONMENT);
  let doc: MarkdownDoc;
  try {
    doc = new MarkdownDoc(readRegularFileSync(file));
  } catch (err) {
    return { ok: false, why: `${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); pid not written` };
  }
  const env = environmentLines(doc);
  const lines = [...env.setup, ...env.services];
  const same = lines.find((l) => l.line === svc.source.line && l.text === svc.text) ?? lines.find((l) => l.text === svc.text);
  if (!same) return { ok: false, why: `${file}: the line of ${svc.name} changed meanwhile; pid not written` };
  const bytes = withPid(doc, same.line - 1, pid);
  if (bytes === null) return { ok: false, why: `${file}: line ${same.line} not found; pid not written` };
  writeAtomicSync(file, bytes);
  return { ok: true };
}

/** Waits `ms`, or less when `signal` aborts. */
function delay(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop?.();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = signal ? onAbort(signal, done) : undefined;
  });
}

/** SIGTERM to the group, SIGKILL to what is left after `graceMs`; resolves when the group is gone. */
async function killGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  const until = Date.now() + graceMs;
  // 50 ms: short next to the grace, and a /proc scan each time is cheap.
  while (groupAlive(pgid) && Date.now() < until) await delay(50);
  if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
}
