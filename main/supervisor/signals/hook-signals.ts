// The agents' hooks as a source of activity and of the agent's session id (DESIGN.md §4 "Hooks").
// Per launch: a random 128-bit nonce names a spool dir `$MORI_HOME/hooks/<nonce>/` and the settings
// layer beside it (hook-layers.ts), so a call lands with that session's current run only; the nonce
// is kept in `$MORI_HOME/hooks/runs/<session id>` so a supervisor that re-attaches a tmux agent
// reads the same dir. A call is a report and nothing more: it may set the activity and, on
// SessionStart, the agent's session id in session.json (checked against the profile's id form) —
// never a command, an approval or another write. The run's files are removed when it ends, or at
// the session's next launch when its supervisor was killed first.
// Runs in the supervisor's process.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Env, LaunchSpec } from '../../agents/profile.js';
import { hookLayer } from '../../agents/hooks/hook-layers.js';
import { hookReport } from '../../agents/hooks/hook-events.js';
import { ensureReportScript, hooksDir } from '../../agents/hooks/report-script.js';
import type { UsageLimitSignal } from '../../agents/usage-limit/usage-limit-signal.js';
import { isAgentFileError, readAgentFileSync } from '../../os/agent-file.js';
import type { ActivityMonitor } from './activity-monitor.js';
import { localZone } from '../limits/screen-limit-watch.js';
import type { AgentRun, SessionRuntime } from '../session/session-runtime.js';
import type { SessionStore } from '../session/session-store.js';
import { HookSpool, type HookCall } from './hook-spool.js';

/** 16 random bytes: a spool dir nobody can guess or reuse across launches. */
const NONCE_BYTES = 16;
const NONCE_PATTERN = /^[0-9a-f]{32}$/;
/** Where each session's current nonce is kept, for a re-attach. */
const RUNS_DIR = 'runs';
/** A run file holds one nonce (32 hex digits and a newline at most); anything longer is not ours. */
const RUN_FILE_MAX_BYTES = 64;

export interface HookSignalsPorts {
  home: string;
  store: Pick<SessionStore, 'write' | 'log'>;
  /** Wall-clock now (epoch ms): a reset time the agent names without a date is the next one after it. */
  now(): number;
  /** A turn failed on the agent's usage limit (claude's StopFailure with a rate-limit error). */
  onUsageLimit(rt: SessionRuntime, signal: UsageLimitSignal): void;
}

/** One launch's hooks: what to add to its command, and where its calls go. */
export interface PreparedHooks {
  nonce: string;
  args: string[];
  env: Record<string, string>;
  /** Where its calls are written (a sandbox binds it writable), and the files its hooks read (bound read-only). */
  spoolDir: string;
  readable: string[];
}

const SESSION_SOURCES: Record<string, string> = {
  clear: 'the conversation was cleared (/clear)',
  compact: 'the conversation was compacted',
  resume: 'a session was resumed',
  startup: 'the agent started a new session',
};

export class HookSignals {
  private readonly spools = new Map<string, HookSpool>();

  constructor(private readonly ports: HookSignalsPorts) {}

  /** Writes the script, the spool dir and the settings layer for a launch of `rt` in `env`; null for agents without hooks or an unwritable home. */
  prepare(rt: SessionRuntime, spec: LaunchSpec, env: Env = {}): PreparedHooks | null {
    const nonce = randomBytes(NONCE_BYTES).toString('hex');
    const dir = hooksDir(this.ports.home);
    const place = { script: path.join(dir, 'report.sh'), spoolDir: path.join(dir, nonce), settingsFile: path.join(dir, `${nonce}.json`), pluginFile: path.join(dir, `${nonce}.mjs`), pluginDir: path.join(dir, `${nonce}.plugin`) };
    const layer = hookLayer(rt.profile, spec.args, place, env);
    if (layer === null) return null;
    if (layer.off !== undefined) {
      this.ports.store.log(rt, `HOOKS OFF - ${layer.off}; activity is read from the screen alone`);
      return null;
    }
    try {
      place.script = ensureReportScript(this.ports.home);
      mkdirSync(place.spoolDir, { recursive: true, mode: 0o700 });
      for (const f of layer.files) {
        mkdirSync(path.dirname(f.path), { recursive: true, mode: 0o700 });
        writeFileSync(f.path, f.text, { mode: 0o600 });
      }
      const refused = rt.profile.hooks?.refusal?.(place) ?? null;
      if (refused !== null) {
        this.remove(nonce);
        this.ports.store.log(rt, `HOOKS OFF - ${refused}; activity is read from the screen alone`);
        return null;
      }
      mkdirSync(path.join(dir, RUNS_DIR), { recursive: true, mode: 0o700 });
      const previous = this.currentNonce(rt.id);
      writeFileSync(path.join(dir, RUNS_DIR, rt.id), nonce, { mode: 0o600 });
      // The session's last run is over (a session has one agent), and ended without its files removed
      // when its supervisor was killed: removed now, or a night of kills leaves one dir per relaunch.
      // One still read here (a hand-off's old agent) is removed when it ends.
      if (previous !== null && previous !== nonce && !this.spools.has(previous)) this.remove(previous);
    } catch (err) {
      this.remove(nonce);
      this.ports.store.log(rt, `HOOKS OFF - ${err instanceof Error ? err.message : String(err)}; activity is read from the screen alone`);
      return null;
    }
    return { nonce, args: layer.args, env: layer.env, spoolDir: place.spoolDir, readable: [place.script, ...layer.files.map((f) => f.path)] };
  }

  /** Starts reading this launch's calls into `monitor` for as long as `run` is the session's run. */
  attach(rt: SessionRuntime, run: AgentRun, monitor: ActivityMonitor, nonce: string): void {
    this.spools.get(nonce)?.close();
    const spool = new HookSpool({
      dir: path.join(hooksDir(this.ports.home), nonce),
      onCall: (call) => {
        if (rt.run === run) this.apply(rt, monitor, call);
      },
      onProblem: (message) => this.ports.store.log(rt, `HOOK CALL REFUSED - ${message}`),
    });
    this.spools.set(nonce, spool);
    spool.start();
  }

  /** A re-attached agent: its hooks still write where its launch said. Its nonce, or null when it had none. */
  reattach(rt: SessionRuntime, run: AgentRun, monitor: ActivityMonitor): string | null {
    const nonce = this.currentNonce(rt.id);
    if (nonce !== null) this.attach(rt, run, monitor, nonce);
    return nonce;
  }

  /** The run ended: stop reading and remove its spool dir and settings layer. */
  end(rt: SessionRuntime, nonce: string): void {
    this.remove(nonce);
    if (this.currentNonce(rt.id) === nonce) rmSync(path.join(hooksDir(this.ports.home), RUNS_DIR, rt.id), { force: true });
  }

  /** The supervisor stops: stop reading; agents that live on (tmux) keep their spool for the next one. */
  dispose(): void {
    for (const s of this.spools.values()) s.close();
    this.spools.clear();
  }

  private remove(nonce: string): void {
    this.spools.get(nonce)?.close();
    this.spools.delete(nonce);
    const dir = hooksDir(this.ports.home);
    rmSync(path.join(dir, nonce), { recursive: true, force: true });
    rmSync(path.join(dir, `${nonce}.json`), { force: true });
    rmSync(path.join(dir, `${nonce}.mjs`), { force: true });
    rmSync(path.join(dir, `${nonce}.plugin`), { recursive: true, force: true });
  }

  private currentNonce(sessionId: string): string | null {
    try {
      const read = readAgentFileSync(path.join(hooksDir(this.ports.home), RUNS_DIR, sessionId), RUN_FILE_MAX_BYTES);
      if (isAgentFileError(read)) return null;
      const text = read.toString('utf8').trim();
      return NONCE_PATTERN.test(text) ? text : null;
    } catch {
      return null;
    }
  }

  private apply(rt: SessionRuntime, monitor: ActivityMonitor, call: HookCall): void {
    const report = hookReport(rt.profile, call.event, call.payload);
    if (report.activity !== null) monitor.report(report.activity, call.at);
    const next = report.agentSession;
    const before = rt.session.agent.sessionId;
    if (next !== undefined && next.id !== before) {
      this.ports.store.write(rt, (s) => ({ ...s, agent: { ...s.agent, sessionId: next.id } }));
      rt.agentIdChanged(this.ports.now());
      // The source is the agent's word: only a known one is quoted.
      const why = SESSION_SOURCES[next.source] ?? 'its SessionStart gave no known reason';
      this.ports.store.log(rt, `AGENT SESSION CHANGED - ${rt.profile.label} session ${before ?? '(none)'} → ${next.id}: ${why}; a relaunch resumes the new one`);
    }
    if (report.stopFailure !== undefined) {
      const limit = rt.profile.hooks?.usageLimit?.(call.event, report.stopFailure, this.ports.now(), localZone()) ?? null;
      if (limit !== null) this.ports.onUsageLimit(rt, limit);
    }
  }
}
