// Starts an agent and takes charge of it (DESIGN.md §4–§6): checks its program is there, picks the
// backend (tmux when asked and usable, else direct), builds its environment (agent-env.ts), spawns it,
// records the launch in session.json and the work log, and adopts the terminal — activity watch,
// checkpoints, exit handling, the first prompt for agents that take it typed. Also re-attaches a tmux
// session that outlived the last supervisor. Runs in the supervisor's process.
import path from 'node:path';
import type { LaunchKind } from '../../../common/events.js';
import type { InterruptReason } from '../../../common/session.js';
import type { TerminalExit } from '../../../common/terminal.js';
import type { AgentStatus, LaunchSpec } from '../../agents/profile.js';
import { isAgentId } from '../../agents/agent-id.js';
import { background } from '../../background.js';
import { bootId } from '../../os/boot-id.js';
import { TRANSCRIPT_DIR } from '../../state/state-dir.js';
import type { Terminal, TerminalBackend } from '../../terminals/terminal.js';
import { tmuxSessionName } from '../../terminals/tmux/pane-format.js';
import { ActivityMonitor } from '../signals/activity-monitor.js';
import { agentEnvironment } from './agent-env.js';
import type { AgentIdLearner } from './agent-id-learner.js';
import { checkAgentProgram } from '../../agents/agent-program.js';
import type { Checkpointer } from '../checkpoints/checkpoint.js';
import type { UsageLimitSignal } from '../../agents/usage-limit/usage-limit-signal.js';
import { ScreenLimitWatch } from '../limits/screen-limit-watch.js';
import { transcriptUsageLimit, turnEnded } from '../limits/transcript-limit-watch.js';
import { describeLaunch, type PlanResult } from './planned-launch.js';
import { sandboxedCommand, sandboxProgram, sandboxReady } from './sandbox-launch.js';
import { SessionNetProxies } from './sandbox-network.js';
import { SANDBOX_DEFAULTS, type SandboxSettings } from '../../../common/daemon-settings.js';
import { leaveBehind } from '../session/previous-ids.js';
import { AgentRun, type SessionRuntime } from '../session/session-runtime.js';
import type { MachineState } from '../session/machine-state.js';
import type { ResumeContext } from '../session/resume-context.js';
import type { SessionStore } from '../session/session-store.js';
import type { SessionTransitions } from '../session/transitions.js';
import type { Typist } from '../typing/typed-input.js';
import type { SupervisorEvent } from '../../../common/events.js';
import type { TerminalSize } from '../../../common/terminal.js';
import type { Env } from '../../agents/profile.js';
import type { PowerClock, Scheduler } from '../../power/clock.js';
import type { DirectBackend } from '../../terminals/direct/direct-backend.js';
import type { TmuxBackend } from '../../terminals/tmux/tmux-backend.js';
import type { HookSignals, PreparedHooks } from '../signals/hook-signals.js';
import { NO_SCREEN_PATTERNS } from '../signals/no-screen-patterns.js';

/**
 * While a run's permission mode is unknown (its record not written yet, or no activity change since),
 * it is read again this often: a tail read of a file, cheap at this pace, and the header shows the mode
 * within seconds of the agent writing it.
 */
const MODE_RETRY_MS = 3_000;

/**
 * A terminal that could not be started (`failed`: the backend ran and did not succeed, e.g. the tmux
 * server killed while the launch made its session) is tried again after each of these waits before the
 * session asks for attention: a killed server is gone within a second and the next start makes a new
 * one; a launch still failing after some seconds is the person's to look at. A refusal (a missing
 * directory, a session that exists) is not tried again.
 */
const SPAWN_RETRY_DELAYS_MS = [1_000, 3_000];

/** The size a terminal starts at before any view says otherwise: a common laptop terminal. */
export const DEFAULT_SIZE = { cols: 120, rows: 40 };

/**
 * Activity reading. `hooksOnly`: the screen patterns and claude's status file are not read, so the
 * activity comes from the agents' hooks alone (tests that prove the hooks by themselves).
 */
export interface ActivityReading {
  readDelayMs?: number;
  settleMs?: number;
  hooksOnly?: boolean;
}

export interface LaunchRequest {
  /** Null for a new session; else the interruption this launch resumes from. */
  reason: InterruptReason | null;
  context: ResumeContext | null;
  /** The session's generation when this launch was decided: a stop or exit since cancels it. */
  gen: number;
  /** Why a live agent was ended to make way for this launch (stuck, a nudge not taken); null: it was not running. */
  restartedBecause?: string | null;
  /** The session was just handed to this agent's profile (resume/handoff.ts): the old agent was running or not, as it was. */
  handedOff?: boolean;
  /** A follow-up on a resume already said (resume-journal.ts): noted, not said again. */
  followUp?: boolean;
}

/** Where a relaunch says it resumes the session (resume/resume-journal.ts, the one writer of it). */
export interface LaunchJournal {
  /** The resume has begun with the agent launched as `launch`. */
  resuming(rt: SessionRuntime, launch: LaunchKind, followUp?: boolean): void;
  /** The SESSION RESUMED entry saying `what` was done, then, when `then` allows, `session.resumed`. */
  resumed(rt: SessionRuntime, reason: InterruptReason, context: ResumeContext | null, what: string, launch: LaunchKind, then: () => boolean, followUp?: boolean): void;
}

/** What launching and adopting an agent uses. */
export interface AgentLauncherPorts {
  env: Env;
  /** Mori's home: hidden from a sandboxed agent but for its launch's hook files. */
  home: string;
  /** The paths every sandbox binds (settings.json `sandbox`); absent: none. */
  sandbox?: Pick<SandboxSettings, 'readWrite' | 'readOnly' | 'allowedHosts'> | undefined;
  /** The sandboxed sessions' network proxies; by default this process starts them as `mori net-proxy`. */
  proxies?: SessionNetProxies;
  clock: PowerClock;
  scheduler: Scheduler;
  machine: Readonly<MachineState>;
  direct: DirectBackend;
  tmux: TmuxBackend | null;
  store: Pick<SessionStore, 'write' | 'log'>;
  moves: Pick<SessionTransitions, 'move' | 'attention' | 'base'>;
  emit(e: SupervisorEvent): void;
  /** The size a terminal starts at; default DEFAULT_SIZE. */
  size?: TerminalSize | undefined;
  activity?: ActivityReading | undefined;
  checkpoints: Pick<Checkpointer, 'schedule'>;
  ids: AgentIdLearner;
  journal: LaunchJournal;
  typist: Pick<Typist, 'type'>;
  /** The agents' hooks (signals/hook-signals.ts); absent: activity from the screen alone. */
  hooks?: HookSignals;
  /** The agent's terminal exited (exit-handler.ts). */
  onExit(rt: SessionRuntime, terminal: Terminal, exit: TerminalExit): void;
  /** Usage limits (limits/usage-limits.ts): its screen shows one; its agent went to work (it may have continued past one by itself). */
  limits: { report(rt: SessionRuntime, signal: UsageLimitSignal): void; working(rt: SessionRuntime): void };
}

export class AgentLauncher {
  private readonly proxies: SessionNetProxies;

  constructor(private readonly ports: AgentLauncherPorts) {
    this.proxies = ports.proxies ?? new SessionNetProxies(ports.home);
  }

  /** The id learner of the agents this launches. */
  get ids(): AgentIdLearner {
    return this.ports.ids;
  }

  async launch(rt: SessionRuntime, plan: PlanResult, req: LaunchRequest): Promise<void> {
    const { moves, store } = this.ports;
    if (!plan.ok) {
      // session.json names a dir or an id Mori refuses: the person corrects the file, then starts it.
      if (plan.attention === 'state-invalid') return moves.attention(rt, 'state-invalid', plan.message);
      // An agent command nobody approved is not a failure to retry: it waits for `mori trust`.
      if (plan.code === 'untrusted') return moves.attention(rt, 'needs-trust', plan.message);
      return moves.attention(rt, 'launch-failed', plan.message);
    }
    const { kind } = plan.value;
    // A conversation the CLI's own supervisor holds is not resumed: `--resume` would start a copy of
    // it. One taken from it (`mori init --adopt`) is opened there, however the relaunch was planned;
    // any other waits for the person.
    const adopted = rt.session.agent.fromOwnSupervisor === true;
    const heldId = kind === 'resume' ? plan.value.spec.agentSessionId : adopted && kind !== 'new' ? rt.session.agent.sessionId : null;
    const held = heldId !== null ? await rt.profile.ownSupervisor?.holding(this.ports.env, heldId) : null;
    if (held && !adopted) return moves.attention(rt, 'held-by-agent-daemon', held.words);
    const spec = held ? { ...plan.value.spec, args: held.attachArgs, agentSessionId: held.agentSessionId, typePrompt: null } : plan.value.spec;
    const program = checkAgentProgram(rt.profile.name, spec.file, this.ports.env, spec.cwd);
    if (!program.ok) return moves.attention(rt, 'agent-missing', program.message);
    // A sandboxed session never starts without its sandbox: what is missing is the person's to install.
    const ready = await sandboxReady(rt.session.sandbox, this.ports.env);
    if (!ready.ok) return moves.attention(rt, 'sandbox-unavailable', ready.message);
    // A hand-off may come while the old agent's run was the session's state (running): it is taken up, not launched anew.
    if (!moves.move(rt, req.reason === null && req.handedOff !== true ? 'launch' : 'resume')) return;
    if (req.reason !== null) this.ports.journal.resuming(rt, kind, req.followUp === true);
    const { backend, note } = await this.backendFor(rt.session.backend);
    const size = this.ports.size ?? DEFAULT_SIZE;
    const launchedAt = this.ports.clock.wallMs();
    // An attached conversation runs in the agent's own supervisor, started without Mori's hook layer.
    const hooks = held ? null : (this.ports.hooks?.prepare(rt, spec, this.ports.env) ?? null);
    const env = { ...agentEnvironment(this.ports.env, { sessionId: rt.id, stateDir: rt.stateDir }), ...hooks?.env };
    const line = await sandboxedCommand({
      ...{ sessionId: rt.id, session: rt.session.sandbox, settings: this.ports.sandbox ?? SANDBOX_DEFAULTS, profile: rt.profile, workDir: spec.cwd, stateDir: rt.stateDir, env },
      ...{ moriHome: this.ports.home, hooks, proxies: this.proxies },
      bwrap: sandboxProgram(this.ports.env),
      command: spec.file,
      args: hooks?.args ?? spec.args,
    });
    if (!line.ok) {
      if (hooks !== null) this.ports.hooks?.end(rt, hooks.nonce);
      return moves.attention(rt, 'sandbox-unavailable', line.message);
    }
    const spawn = { id: rt.id, command: line.value.command, args: line.value.args, cwd: spec.cwd, env: { ...env, ...line.value.env }, cols: size.cols, rows: size.rows };
    let spawned = await backend.spawn({ ...spawn, transcriptDir: path.join(rt.stateDir, TRANSCRIPT_DIR) });
    for (const delayMs of SPAWN_RETRY_DELAYS_MS) {
      if (spawned.ok || spawned.code !== 'failed' || req.gen !== rt.generation || this.ports.machine.shuttingDown) break;
      store.log(rt, `SESSION NOTE - the agent's terminal could not be started (${spawned.message}); trying again in ${delayMs / 1000}s`);
      await new Promise<void>((resolve) => this.ports.scheduler.after(delayMs, resolve, true));
      if (req.gen !== rt.generation || this.ports.machine.shuttingDown) break;
      spawned = await backend.spawn({ ...spawn, transcriptDir: path.join(rt.stateDir, TRANSCRIPT_DIR) });
    }
    if (hooks !== null && (!spawned.ok || req.gen !== rt.generation || this.ports.machine.shuttingDown)) this.ports.hooks?.end(rt, hooks.nonce);
    if (req.gen !== rt.generation || this.ports.machine.shuttingDown) {
      // Stopped or taken over meanwhile: this agent must not run.
      if (spawned.ok) background(spawned.value.kill(), `ending a superseded launch of ${rt.name}`);
      return;
    }
    if (!spawned.ok) {
      if (rt.session.sandbox?.network === 'allowlist') background(this.proxies.stop(rt.id), `stopping the network proxy of ${rt.name}`);
      return moves.attention(rt, 'launch-failed', spawned.message);
    }
    // An agent that picks its own id starts a new one on every launch but a resume: the old id is no
    // longer this session's until the poll learns the new one.
    const learnsId = this.ids.learns(rt, spec.agentSessionId !== null);
    store.write(rt, (s) => ({
      ...s,
      intent: { kind: 'running' },
      // A fresh start leaves the agent's previous conversation behind: its id is kept to go back to.
      agent: { ...leaveBehind(s.agent, plan.value.leavesBehind ?? null), sessionId: learnsId ? null : (spec.agentSessionId ?? s.agent.sessionId), cwd: spec.agentSessionId !== null ? spec.cwd : s.agent.cwd },
      lastBootId: bootId(),
    }));
    const words = held ? `agent opened where its own supervisor runs it (${rt.profile.defaultBin} ${held.attachArgs.join(' ')})` : describeLaunch(plan.value);
    const adopt = (): boolean => {
      this.adopt(rt, spawned.value, kind, spec, hooks);
      if (learnsId) this.ids.watch(rt, spawned.value, launchedAt);
      return true;
    };
    if (req.reason === null) {
      store.log(rt, `SESSION STARTED - agent ${rt.profile.name} (${words})${note}`);
      adopt();
      return;
    }
    const restarted = req.restartedBecause ? `${req.restartedBecause}: restarted; ` : '';
    this.ports.journal.resumed(rt, req.reason, req.context, `${restarted}${words}${note}`, kind, adopt, req.followUp === true);
  }

  /** Adopts the tmux session a previous supervisor left running. False when it could not be opened. */
  async reattach(rt: SessionRuntime): Promise<boolean> {
    if (!this.ports.tmux) return false;
    const r = await this.ports.tmux.reattach(rt.id, { transcriptDir: path.join(rt.stateDir, TRANSCRIPT_DIR) });
    if (!r.ok) return false;
    if (!this.ports.moves.move(rt, 'launch')) {
      background(r.value.dispose(), `letting go of ${tmuxSessionName(rt.id)}`);
      return true;
    }
    this.ports.store.write(rt, (s) => ({ ...s, intent: { kind: 'running' }, lastBootId: bootId() }));
    this.ports.store.log(rt, `REATTACHED - tmux session ${tmuxSessionName(rt.id)} was still running (pid ${r.value.pid})`);
    this.adopt(rt, r.value, 'reattach', null, null);
    // The previous supervisor may have ended before it learnt the agent's id: learn it now, counting
    // from when the tmux session was made.
    if (this.ids.learns(rt, rt.session.agent.sessionId !== null)) {
      const made = (await this.ports.tmux.list().catch(() => [])).find((x) => x.id === rt.id)?.createdAt ?? null;
      if (made !== null && rt.terminal === r.value) this.ids.watch(rt, r.value, made.getTime());
    }
    return true;
  }

  private async backendFor(want: 'tmux' | 'direct'): Promise<{ backend: TerminalBackend; note: string }> {
    const tmux = this.ports.tmux;
    if (want === 'tmux' && tmux) {
      const a = await tmux.detect();
      if (a.available) return { backend: tmux, note: '' };
      return { backend: this.ports.direct, note: `; tmux unusable (${a.reason ?? 'unknown'}), running in a direct terminal` };
    }
    if (want === 'tmux') return { backend: this.ports.direct, note: '; tmux unavailable, running in a direct terminal' };
    return { backend: this.ports.direct, note: '' };
  }

  /** At a turn's end, a usage limit the agent's own record shows is reported (the screen may have missed it). */
  private async transcriptLimit(rt: SessionRuntime, run: AgentRun): Promise<void> {
    const { ports } = this;
    const agent = rt.session.agent;
    const signal = await transcriptUsageLimit({ profile: rt.profile.name, env: ports.env, agentSessionId: agent.sessionId, cwd: agent.cwd ?? rt.projectDir, nowMs: ports.clock.wallMs() });
    // A limit whose reset has passed is history (the agent went on after it), not a new one.
    if (signal !== null && rt.run === run && (signal.resetAtMs === null || signal.resetAtMs > ports.clock.wallMs())) ports.limits.report(rt, signal);
  }

  /** Reads the permission mode until it is known (then each activity change reads it again). */
  private watchPermissionMode(rt: SessionRuntime, run: AgentRun): void {
    if (rt.profile.permissionMode === undefined) return;
    const again = (): void => {
      if (rt.run !== run) return;
      background(
        this.readPermissionMode(rt, run).then(() => {
          if (rt.run === run && rt.permissionMode === null) this.ports.scheduler.after(MODE_RETRY_MS, again);
        }),
        `reading the permission mode of ${rt.name}`,
      );
    };
    again();
  }

  /** The permission mode the agent's record says now (read at each activity change: a mode changes between turns). */
  private async readPermissionMode(rt: SessionRuntime, run: AgentRun): Promise<void> {
    const read = rt.profile.permissionMode;
    if (read === undefined) return;
    const mode = await read({ agentSessionId: rt.session.agent.sessionId, cwd: rt.session.agent.cwd ?? rt.projectDir }, this.ports.env);
    if (rt.run !== run || mode === null || mode === rt.permissionMode) return;
    rt.notePermissionMode(mode);
    this.ports.emit({ type: 'session.permissionMode', ...this.ports.moves.base(rt), mode });
  }

  /**
   * The agent's status file (claude's) names another conversation than the one recorded (a `/clear`
   * with hooks off, where no SessionStart tells): the next resume opens the one the person is in. The id is the
   * agent's word, as a hook's is, so it is held to its profile's form before it is kept. A file
   * written before the recorded id last changed is older news (a SessionStart hook told first, and
   * the file still names the conversation it left): it is not followed back.
   */
  private followStatusId(rt: SessionRuntime, status: AgentStatus): void {
    const id = status.sessionId;
    const before = rt.session.agent.sessionId;
    if (id === null || id === before || !isAgentId(rt.profile.name, id)) return;
    if (status.writtenAtMs <= rt.agentIdChangedAt) return;
    this.ports.store.write(rt, (s) => ({ ...s, agent: { ...s.agent, sessionId: id } }));
    rt.agentIdChanged(this.ports.clock.wallMs());
    this.ports.store.log(rt, `AGENT SESSION CHANGED - ${rt.profile.label} session ${before ?? '(none)'} → ${id}: its status file names a new conversation (a /clear); a relaunch resumes the new one`);
  }

  /** Takes charge of a running terminal: activity, checkpoints, exit handling. */
  private adopt(rt: SessionRuntime, terminal: Terminal, launch: LaunchKind, spec: LaunchSpec | null, hooks: PreparedHooks | null): void {
    const { ports } = this;
    const run = new AgentRun(terminal, launch, spec, ports.clock.monoMs());
    rt.markLaunched(run);
    const agentId = rt.session.agent.sessionId;
    const activity = ports.activity;
    const screen = activity?.hooksOnly !== true;
    const limits = new ScreenLimitWatch(rt.profile.name, rt.profile.patterns);
    const status = rt.profile.status;
    const monitor = new ActivityMonitor(terminal, {
      patterns: screen ? rt.profile.patterns : NO_SCREEN_PATTERNS,
      clock: ports.clock,
      scheduler: ports.scheduler,
      ...(activity?.readDelayMs !== undefined ? { readDelayMs: activity.readDelayMs } : {}),
      ...(activity?.settleMs !== undefined ? { settleMs: activity.settleMs } : {}),
      ...(screen && status !== undefined && agentId !== null
        ? {
            reported: async () => {
              const s = await status.find(ports.env, rt.session.agent.sessionId ?? agentId, terminal.pid);
              if (s !== null && rt.run === run) this.followStatusId(rt, s);
              return s ? s.activity : null;
            },
          }
        : {}),
      onScreen: (screen) => {
        const signal = rt.run === run ? limits.observe(screen, ports.clock.wallMs()) : null;
        if (signal !== null) ports.limits.report(rt, signal);
      },
      onTransition: (t) => {
        if (rt.run !== run) return;
        rt.setActivity(t.to);
        ports.emit({ type: 'session.activity', ...ports.moves.base(rt), from: t.from, to: t.to });
        if (t.to === 'working') ports.limits.working(rt);
        if (turnEnded(t.from, t.to)) background(this.transcriptLimit(rt, run), `reading the transcript of ${rt.name} for a usage limit`);
        background(this.readPermissionMode(rt, run), `reading the permission mode of ${rt.name}`);
        const prompt = t.to === 'waiting' ? run.takePendingPrompt() : null;
        if (prompt !== null) {
          background(ports.typist.type(rt, prompt, 'first prompt'), `typing the first prompt of ${rt.name}`);
        }
      },
    });
    run.watchWith(monitor);
    this.watchPermissionMode(rt, run);
    if (hooks !== null) ports.hooks?.attach(rt, run, monitor, hooks.nonce);
    const nonce = hooks?.nonce ?? (launch === 'reattach' ? (ports.hooks?.reattach(rt, run, monitor) ?? null) : null);
    this.ports.checkpoints.schedule(rt, terminal);
    terminal.onExit((exit) => {
      if (nonce !== null) ports.hooks?.end(rt, nonce);
      // The sandbox ended with its agent: so does its network proxy (a relaunch starts it again).
      if (rt.session.sandbox?.network === 'allowlist') background(this.proxies.stop(rt.id), `stopping the network proxy of ${rt.name}`);
      this.ports.onExit(rt, terminal, exit);
    });
    // The transcript is the agent's history on disk: a failure to write it is said in the work log
    // and on stderr (once per run of failures, the terminal's own rule), while the agent goes on.
    terminal.onProblem((p) => {
      process.stderr.write(`mori: ${rt.name}: ${p.message}\n`);
      ports.store.log(rt, `TRANSCRIPT NOT WRITTEN - ${p.message}`);
    });
    if (!ports.moves.move(rt, 'ran')) return;
    ports.emit({ type: 'session.started', ...ports.moves.base(rt), launch, backend: terminal.backend, pid: terminal.pid, agentSessionId: rt.session.agent.sessionId });
  }
}
