// The control API's methods beyond a session's terminal (DESIGN.md §12): session init, state files
// with versions, the work log, checks, settings, power and network hints, and stopping the daemon.
// Each takes params already validated by common/ipc.ts and answers a Result. Runs in the daemon.
import path from 'node:path';
import { checkTemplatePlaceholders } from '../agents/command-template.js';
import { agentCommandNeedsTrust, approveAgentCommand } from '../checks/trust.js';
import type { DaemonSettings } from '../../common/daemon-settings.js';
import { parseParams, type IpcMethod } from '../../common/ipc.js';
import { fail, ok, type Result } from '../../common/result.js';
import type { PowerWatch } from '../power/power-watch.js';
import { parseProbeTargets } from '../power/probe-targets.js';
import { projectDirOf } from '../state/project-dir.js';
import { resolveSession } from '../state/resolve-session.js';
import { readSessionFile } from '../state/session-file.js';
import { confinedStateDir, createSession, TRANSCRIPT_DIR } from '../state/state-dir.js';
import { readTranscript } from '../terminals/transcript.js';
import { approveChecks, listChecks, verifyChecks } from './daemon-checks.js';
import type { DaemonEvents } from './daemon-events.js';
import { readSettings, writeSettings } from './daemon-settings.js';
import { appendLog, readStateFile, tailLog, writeStateFile } from './daemon-state-files.js';
import type { Supervisor } from '../supervisor/supervisor.js';

/** What the process hosting the daemon (`mori up`) lends the control API. */
export interface DaemonHooks {
  /** The sleep/wake and network watch that power hints feed; absent: hints only mark the supervisor. */
  power?: PowerWatch | null;
  /** Stops the daemon, after the reply to `daemon.stop` is written. */
  stop?: (stopAgents: boolean) => void;
  /** Settings were changed: apply what can be applied while running (probe targets). */
  onSettings?: (settings: DaemonSettings) => void;
}

export interface DaemonContext extends DaemonHooks {
  supervisor: Supervisor;
  home: string;
  events: DaemonEvents;
  startedAt: number;
}

/** Methods handled here (the terminal and subscription ones are the connection's own). */
export const DAEMON_API_METHODS = new Set<IpcMethod>([
  'daemon.stop',
  'session.init',
  'state.read',
  'state.write',
  'log.tail',
  'log.append',
  'transcript.read',
  'checks.list',
  'checks.verify',
  'checks.trust',
  'settings.get',
  'settings.set',
  'hint.power',
  'hint.network',
]);

interface SessionDir {
  stateDir: string;
  id: string;
  name: string;
}

/** A session named by id or name (the supervisor's first, then the registry), confined to its project. */
function sessionDir(ctx: DaemonContext, ref: string): Result<SessionDir> {
  const known = ctx.supervisor.list().filter((s) => s.id === ref || s.name === ref);
  if (known.length > 1) return fail('usage', `"${ref}" names ${known.length} sessions; give the id`);
  let dir: string;
  if (known[0]) dir = known[0].stateDir;
  else {
    const r = resolveSession(ref, process.cwd(), ctx.home);
    if (!r.ok) return r;
    dir = r.value;
  }
  const session = readSessionFile(dir);
  if (!session.ok) return session;
  // The project is where the state dir lies, never what session.json says (project-dir.ts).
  const project = projectDirOf(dir);
  if (!project.ok) return project;
  const confined = confinedStateDir(project.value, dir);
  if (!confined.ok) return confined;
  return ok({ stateDir: confined.value, id: session.value.id, name: session.value.name });
}

export async function handleDaemonRequest(ctx: DaemonContext, method: IpcMethod, raw: unknown): Promise<Result<unknown>> {
  const bad = (message: string) => fail('usage', message);
  switch (method) {
    case 'daemon.stop': {
      const p = parseParams('daemon.stop', raw);
      if (!p.ok) return bad(p.message);
      if (!ctx.stop) return fail('failed', 'this supervisor cannot be stopped through its socket');
      const stop = ctx.stop;
      // After the reply is on its way: the stop closes every connection, this one included.
      setImmediate(() => stop(p.value.stopAgents));
      return ok({ pid: process.pid });
    }
    case 'session.init': {
      const p = parseParams('session.init', raw);
      if (!p.ok) return bad(p.message);
      const { projectDir, name, profile, task, backend, command } = p.value;
      const needsCommand = profile === 'shell' || profile === 'custom';
      if (needsCommand && !command) return bad(`session.init: a command is required for the ${profile} profile`);
      if (!needsCommand && command) return bad(`session.init: a command is only for the shell and custom profiles, not ${profile}`);
      const placeholders = command ? checkTemplatePlaceholders(command) : null;
      if (placeholders && !placeholders.ok) return bad(`session.init: ${placeholders.message}`);
      const created = await createSession({ projectDir, name, profile, task, backend, command, home: ctx.home });
      if (!created.ok) return created;
      // The person typed this command in the new-session dialog, as with `mori init --command`: it is
      // approved now; any later change to it in session.json needs approval again.
      if (agentCommandNeedsTrust(created.value.session.agent)) {
        const approved = await approveAgentCommand(ctx.home, created.value.stateDir, created.value.session);
        if (!approved.ok) return fail(approved.code, `created ${created.value.stateDir}, but its command could not be approved: ${approved.message}`);
      }
      const info = ctx.supervisor.loadSession(created.value.session.id);
      if (info.ok) await ctx.events.sync();
      return info;
    }
    case 'state.read': {
      const p = parseParams('state.read', raw);
      if (!p.ok) return bad(p.message);
      const s = sessionDir(ctx, p.value.session);
      return s.ok ? readStateFile(s.value.stateDir, p.value.file) : s;
    }
    case 'state.write': {
      const p = parseParams('state.write', raw);
      if (!p.ok) return bad(p.message);
      const s = sessionDir(ctx, p.value.session);
      return s.ok ? writeStateFile(s.value.stateDir, p.value.file, p.value.text, p.value.baseVersion) : s;
    }
    case 'log.tail': {
      const p = parseParams('log.tail', raw);
      if (!p.ok) return bad(p.message);
      const s = sessionDir(ctx, p.value.session);
      return s.ok ? ok(tailLog(s.value.stateDir, p.value.before, p.value.limit)) : s;
    }
    case 'log.append': {
      const p = parseParams('log.append', raw);
      if (!p.ok) return bad(p.message);
      const s = sessionDir(ctx, p.value.session);
      return s.ok ? ok(appendLog(s.value.stateDir, p.value.text)) : s;
    }
    case 'transcript.read': {
      const p = parseParams('transcript.read', raw);
      if (!p.ok) return bad(p.message);
      const s = sessionDir(ctx, p.value.session);
      if (!s.ok) return s;
      const t = readTranscript(path.join(s.value.stateDir, TRANSCRIPT_DIR), p.value.maxBytes, p.value.beforeEnd);
      return ok({ data: t.data.toString('utf8'), bytes: t.data.length, totalBytes: t.totalBytes });
    }
    case 'checks.list': {
      const p = parseParams('checks.list', raw);
      if (!p.ok) return bad(p.message);
      const s = sessionDir(ctx, p.value.session);
      return s.ok ? listChecks(ctx.home, s.value.stateDir) : s;
    }
    case 'checks.verify': {
      const p = parseParams('checks.verify', raw);
      if (!p.ok) return bad(p.message);
      const s = sessionDir(ctx, p.value.session);
      if (!s.ok) return s;
      const base = { sessionId: s.value.id, name: s.value.name };
      ctx.supervisor.publish({ type: 'verify.started', at: Date.now(), ...base });
      const v = await verifyChecks(ctx.home, s.value.stateDir, p.value.restartServices);
      ctx.supervisor.noteVerification(s.value.id);
      ctx.supervisor.publish({ type: 'verify.finished', at: Date.now(), ...base, ok: v.ok && v.value.ok, summary: v.ok ? v.value.summary : v.message });
      return v.ok ? ok(v.value.value) : v;
    }
    case 'checks.trust': {
      const p = parseParams('checks.trust', raw);
      if (!p.ok) return bad(p.message);
      const s = sessionDir(ctx, p.value.session);
      return s.ok ? approveChecks(ctx.home, s.value.stateDir, p.value.hash) : s;
    }
    case 'settings.get':
      return readSettings(ctx.home);
    case 'settings.set': {
      const p = parseParams('settings.set', raw);
      if (!p.ok) return bad(p.message);
      for (const t of p.value.settings.probeTargets ?? []) {
        const parsed = parseProbeTargets(t);
        if (!parsed.ok) return bad(`settings.probeTargets: ${parsed.message}`);
      }
      const written = await writeSettings(ctx.home, p.value.settings);
      if (!written.ok) return written;
      ctx.onSettings?.(written.value);
      ctx.events.emit({ type: 'settings.changed', at: Date.now(), settings: written.value });
      return written;
    }
    case 'hint.power': {
      const p = parseParams('hint.power', raw);
      if (!p.ok) return bad(p.message);
      const interrupted = powerHint(ctx, p.value.kind);
      // The machine is about to sleep: answer once every interrupted session's checkpoint is written.
      if (p.value.kind === 'suspend') await ctx.supervisor.checkpointsSettled();
      return ok({ interrupted });
    }
    case 'hint.network': {
      const p = parseParams('hint.network', raw);
      if (!p.ok) return bad(p.message);
      ctx.power?.hint();
      return ok({});
    }
    default:
      return fail('usage', `${method}: not a daemon method`);
  }
}

/**
 * A suspend is fed to the power watch, whose listeners interrupt, checkpoint and log every running
 * session synchronously, so all of that is done when this returns; the reply then lets the machine
 * sleep. Returns how many sessions it interrupted. Lock and unlock change nothing yet.
 */
function powerHint(ctx: DaemonContext, kind: 'suspend' | 'resume' | 'lock' | 'unlock'): number {
  const running = (): number => ctx.supervisor.list().filter((s) => s.state === 'running').length;
  const before = running();
  if (kind === 'suspend') {
    if (ctx.power) ctx.power.feed({ type: 'suspend', at: Date.now(), source: 'powerMonitor' });
    else {
      ctx.supervisor.setAsleep(true);
      for (const s of ctx.supervisor.list()) if (s.state === 'running') ctx.supervisor.interruptSession(s.id, 'sleep');
    }
    return Math.max(0, before - running());
  }
  if (kind === 'resume') {
    if (ctx.power) ctx.power.feed({ type: 'resume', at: Date.now(), source: 'powerMonitor' });
    else ctx.supervisor.setAsleep(false);
  }
  return 0;
}
