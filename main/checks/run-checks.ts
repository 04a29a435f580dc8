// The check runner (DESIGN.md §7): runs derived checks with bounded concurrency, a timeout per check
// and one cancellation signal, and returns one result per check in the order given. Checks that need
// trust (trust.ts: commands, and network checks off loopback) are not run without it, not even as a
// name lookup, and come back `untrusted`. Runs in the supervisor and the CLI.
import { sourceText, type CheckResult, type CheckSpec } from '../../common/checks.js';
import { withShutdown } from './in-flight.js';
import type { PidBoots } from './pid-boots.js';
import { probeFile, probePid } from './probe-local.js';
import { probeDns, probeHttp, probeTcp, type ProbeResult } from './probe-network.js';
import { runCommand } from './run-command.js';
import type { CheckWrap } from '../sandbox/check-sandbox.js';
import { checkHost, needsTrust } from './trust.js';

/** Commands are test suites and linters that use the CPU: two at once keeps a laptop usable. */
export const COMMAND_CONCURRENCY = 2;
/**
 * Commands of every verification in this process together: a wake verifies all sessions at once,
 * and their probes need no limit, but twenty test suites at once would stall the machine. Four: two
 * sessions' worth, the most the orchestrator let run when it queued whole sessions instead.
 */
export const PROCESS_COMMAND_CONCURRENCY = 4;
/** Probes are a socket or a stat each; 64 at once is far below a default 1,024 open-file limit. */
export const PROBE_CONCURRENCY = 64;

export interface RunContext {
  projectDir: string;
  /** Whether the current trust list is approved (trust.ts); untrusted items are not run. */
  trusted: boolean;
  pidBoots: PidBoots;
  bootId: string;
  signal?: AbortSignal | undefined;
  commandConcurrency?: number;
  probeConcurrency?: number;
  /** SIGTERM → SIGKILL grace for killed command groups (tests shorten it). */
  graceMs?: number;
  /** The session's sandbox: commands run inside it (sandbox/check-sandbox.ts). */
  sandbox?: CheckWrap | null;
  /** Called as each check finishes, for progress in the UI. */
  onResult?: (r: CheckResult) => void;
}

/** A minimal semaphore: at most `n` tasks of one pool run at a time. */
function pool(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/** The process's command slots, shared by every verification (PROCESS_COMMAND_CONCURRENCY). */
const processCommands = pool(PROCESS_COMMAND_CONCURRENCY);

/**
 * Runs the checks; an abort of `ctx.signal` (or of the whole process, in-flight.ts) kills every
 * running command's process group and resolves promptly, the checks not yet run coming back skipped.
 */
export async function runChecks(checks: readonly CheckSpec[], context: RunContext): Promise<CheckResult[]> {
  const joined = withShutdown(context.signal);
  const ctx = { ...context, signal: joined.signal };
  const commands = pool(Math.max(1, ctx.commandConcurrency ?? COMMAND_CONCURRENCY));
  const probes = pool(Math.max(1, ctx.probeConcurrency ?? PROBE_CONCURRENCY));
  try {
    return await Promise.all(
      checks.map(async (c) => {
        const r = await (c.kind === 'command' ? commands(() => processCommands(() => runOne(c, ctx))) : probes(() => runOne(c, ctx)));
        ctx.onResult?.(r);
        return r;
      }),
    );
  } finally {
    joined.release();
  }
}

export async function runOne(c: CheckSpec, ctx: RunContext): Promise<CheckResult> {
  const base = { id: c.id, kind: c.kind, target: c.target, source: sourceText(c.source), ...(c.label ? { label: c.label } : {}) };
  if (needsTrust(c) && !ctx.trusted) {
    const what = c.kind === 'command' ? 'the current list of commands' : `${checkHost(c) ?? c.target} is not this machine, and the current list of commands and addresses`;
    return { ...base, status: 'untrusted', durationMs: 0, detail: `not run: ${what} is not approved (mori trust)` };
  }
  if (ctx.signal?.aborted) return { ...base, status: 'skipped', durationMs: 0, detail: 'cancelled before it started' };
  const started = performance.now();
  if (c.kind === 'command') {
    const run = await runCommand(c.target, { cwd: ctx.projectDir, timeoutMs: c.timeoutMs, signal: ctx.signal, sandbox: ctx.sandbox, ...(ctx.graceMs === undefined ? {} : { graceMs: ctx.graceMs }) });
    return { ...base, status: run.status, durationMs: run.durationMs, detail: run.detail, outputTail: run.outputTail };
  }
  let r: ProbeResult;
  switch (c.kind) {
    case 'tcp':
      r = await probeTcp(c.target, c.timeoutMs, ctx.signal);
      break;
    case 'http':
      r = await probeHttp(c.target, c.timeoutMs, ctx.signal);
      break;
    case 'dns':
      r = await probeDns(c.target, c.timeoutMs, ctx.signal);
      break;
    case 'file':
      r = await probeFile(c.target, ctx.projectDir);
      break;
    case 'pid':
      r = probePid(c.target, ctx.pidBoots[c.target]?.bootId ?? null, ctx.bootId);
      break;
  }
  return { ...base, status: r.status, durationMs: Math.round(performance.now() - started), detail: r.detail };
}
