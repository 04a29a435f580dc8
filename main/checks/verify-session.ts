// One verification of a session (DESIGN.md §4, §7): derive the checks from its state files, run them
// (untrusted ones are not run), optionally restart failing services, append ONE summary entry to
// work_log.md, and answer with the change that records the results in session.json, for the caller
// to hand to the file's writer (the supervisor's SessionStore, or the CLI's own). The supervisor calls
// `verifySession` on wake and before a resume; `mori verify` calls it too. Runs in the supervisor and
// the CLI.
import type { CheckResult, UnparsedLine, VerificationSummary } from '../../common/checks.js';
import { summarizeResults, trustListNoun } from '../../common/checks.js';
import { ok, type Result } from '../../common/result.js';
import { bootId } from '../os/boot-id.js';
import { moriHome } from '../state/mori-home.js';
import { projectDirOf } from '../state/project-dir.js';
import { readSessionFile, type SessionChange } from '../state/session-file.js';
import { appendEntryAsync } from '../state/work-log.js';
import { withShutdown } from './in-flight.js';
import { loadChecks } from './load-checks.js';
import { notePids, samePidBoots, type PidBoots } from './pid-boots.js';
import { runChecks } from './run-checks.js';
import { recoverService, type ServiceRecovery } from './service-recovery.js';
import { checksTrust, type TrustState } from './trust.js';
import { checkSandbox } from '../sandbox/check-sandbox.js';

export interface VerifyOptions {
  /** Start services whose checks fail and that have a trusted `start:` command. */
  restartServices?: boolean;
  /**
   * Cancels the verification: running commands' process groups (and a service being started) are
   * killed, the rest are skipped, and it resolves promptly with what finished. The process-wide
   * cancel of in-flight.ts does the same.
   */
  signal?: AbortSignal;
  /** The Mori home whose approvals decide what may run (default: $MORI_HOME or the platform's). */
  home?: string;
  /** How long a restarted service has to pass its checks. */
  serviceDeadlineMs?: number;
  /** SIGTERM → SIGKILL grace for killed command groups. */
  graceMs?: number;
  commandConcurrency?: number;
  probeConcurrency?: number;
  onResult?: (r: CheckResult) => void;
  /** The paths every sandbox binds (settings.json `sandbox`), for a sandboxed session's commands; default none. */
  sandboxPaths?: { readWrite: readonly string[]; readOnly: readonly string[] };
  /** Append the summary entry to work_log.md (default true). */
  log?: boolean;
  now?: () => Date;
}

export interface Verification {
  at: string;
  results: CheckResult[];
  summary: VerificationSummary;
  services: ServiceRecovery[];
  trust: TrustState;
  unparsed: UnparsedLine[];
  notes: string[];
  /** The exact lines appended to work_log.md (empty when logging was off). */
  logLines: string[];
  /** The change of session.json that records the results and the pids' boots, for its writer. */
  record: SessionChange;
}

export async function verifySession(stateDir: string, opts: VerifyOptions = {}): Promise<Result<Verification>> {
  const now = opts.now ?? (() => new Date());
  const session = readSessionFile(stateDir);
  if (!session.ok) return session;
  const loaded = loadChecks(stateDir);
  if (!loaded.ok) return loaded;
  // Checks run in the project where the state dir lies, never in a dir session.json names.
  const project = projectDirOf(stateDir);
  if (!project.ok) return project;
  const derived = loaded.value;
  const trust = checksTrust(opts.home ?? moriHome(), stateDir, derived);
  const boot = bootId();
  const pidTargets = derived.checks.filter((c) => c.kind === 'pid').map((c) => c.target);
  const pidBoots: PidBoots = notePids(session.value.pidBoots, pidTargets, boot, now());

  const joined = withShutdown(opts.signal);
  const signal = joined.signal;
  try {
    const ctx = {
      projectDir: project.value,
      trusted: trust.trusted,
      pidBoots,
      bootId: boot,
      signal,
      ...(opts.graceMs === undefined ? {} : { graceMs: opts.graceMs }),
      ...(opts.commandConcurrency === undefined ? {} : { commandConcurrency: opts.commandConcurrency }),
      ...(opts.probeConcurrency === undefined ? {} : { probeConcurrency: opts.probeConcurrency }),
      ...(opts.onResult ? { onResult: opts.onResult } : {}),
      // An approved command runs where the agent does: inside the session's sandbox.
      sandbox: checkSandbox(session.value.sandbox, { projectDir: project.value, stateDir, moriHome: opts.home ?? moriHome(), env: process.env, ...(opts.sandboxPaths ? { paths: opts.sandboxPaths } : {}) }),
    };
    let results = await runChecks(derived.checks, ctx);

    const services: ServiceRecovery[] = [];
    if (opts.restartServices) {
      const outcomes = await Promise.all(
        derived.services.map((svc) =>
          recoverService(svc, derived.checks, results, { ...ctx, stateDir, ...(opts.serviceDeadlineMs === undefined ? {} : { deadlineMs: opts.serviceDeadlineMs }) }),
        ),
      );
      for (const [i, o] of outcomes.entries()) {
        services.push(o.recovery);
        const svc = derived.services[i];
        if (!svc || o.results.length === 0) continue;
        // The service's checks are replaced by their results after the restart, in place.
        const own = new Set(svc.checkIds);
        const first = results.findIndex((r) => own.has(r.id));
        const rest = results.filter((r) => !own.has(r.id));
        rest.splice(first < 0 ? rest.length : Math.min(first, rest.length), 0, ...o.results);
        results = rest;
      }
    }

    const at = now();
    const summary = summarizeResults(results);
    // Keep the records of the pids now named: those checked (a restarted service's pid replaces its
    // old one), plus the old pid of a service whose new pid could not be written into the file.
    const unwritten = new Set(derived.services.filter((_s, i) => services[i]?.pid != null && !services[i]?.pidWritten).flatMap((s) => s.checkIds));
    const keep = [
      ...results.filter((r) => r.kind === 'pid').map((r) => r.target),
      ...derived.checks.filter((c) => c.kind === 'pid' && unwritten.has(c.id)).map((c) => c.target),
    ];
    const prunedBoots = notePids(pidBoots, [...new Set(keep)], boot, at);
    const record: SessionChange = (s) => ({
      ...s,
      lastVerification: { at: at.toISOString(), results },
      pidBoots: samePidBoots(s.pidBoots, prunedBoots) ? s.pidBoots : prunedBoots,
    });

    const logLines = opts.log === false ? [] : workLogLines(session.value.name, summary, services, trust, signal.aborted);
    if (logLines.length > 0) await appendEntryAsync(stateDir, logLines, at);
    return ok({ at: at.toISOString(), results, summary, services, trust, unparsed: derived.unparsed, notes: derived.notes, logLines, record });
  } finally {
    joined.release();
  }
}

/** The one work-log entry of a verification, in the seed's shape with Mori's capital marker. */
export function workLogLines(name: string, summary: VerificationSummary, services: readonly ServiceRecovery[], trust: TrustState, cancelled: boolean): string[] {
  const lines = [`${cancelled ? 'VERIFICATION CANCELLED' : 'VERIFIED'} - ${summary.text}`];
  for (const s of services) {
    if (s.action === 'restarted') lines.push(`Service ${s.service} restarted (pid ${s.pid}), its checks pass`);
    else if (s.action === 'failed') lines.push(`Service ${s.service} restart failed: ${s.detail.split('\n')[0]}`);
    else if (s.action === 'untrusted' || s.action === 'no-start' || s.action === 'busy') lines.push(`Service ${s.service} not restarted: ${s.detail}`);
  }
  if (!trust.trusted) {
    const why = trust.problem ?? (trust.changed ? 'the list changed since it was approved' : 'never approved');
    lines.push(`${trust.items.length} ${trustListNoun(trust.items)} not run: ${why} (mori trust ${name})`);
  }
  return lines;
}
