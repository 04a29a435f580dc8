// The Supervisor's parts, built in their order (DESIGN.md §2: session, typing, checkpoints, limits,
// signals, exits, launch, resume; then start-up and removal), each handed at construction only the
// ports it uses, all of them parts built before it. Then, with every part there, the events a part
// fires are subscribed to by the later part that acts on them, as VS Code's PtyService subscribes to
// a terminal process's emitters once it has built it: no closure reaches a part not built yet.
// Runs in the supervisor's process.
import path from 'node:path';
import type { SupervisorEvent } from '../../common/events.js';
import type { LiveSession } from '../../common/ipc.js';
import { ok, type Result } from '../../common/result.js';
import type { Env } from '../agents/profile.js';
import { systemClock, systemScheduler, type PowerClock } from '../power/clock.js';
import { Limiter } from '../state/limiter.js';
import { moriHome } from '../state/mori-home.js';
import { DirectBackend } from '../terminals/direct/direct-backend.js';
import { TmuxBackend } from '../terminals/tmux/tmux-backend.js';
import { CHECKPOINT_CONCURRENCY, Checkpointer, type CheckpointPorts } from './checkpoints/checkpoint.js';
import { ExitHandler } from './exits/exit-handler.js';
import { AgentIdLearner } from './launch/agent-id-learner.js';
import { AgentLauncher } from './launch/agent-launcher.js';
import { HandBack } from './resume/hand-back.js';
import { Handoff } from './resume/handoff.js';
import { LimitHandoffs } from './resume/limit-handoff.js';
import { LaunchQueue } from './launch/launch-queue.js';
import { UsageLimits } from './limits/usage-limits.js';
import { ErrorWatch } from './resume/error-watch.js';
import { ResumeController } from './resume/resume-controller.js';
import { ResumeJournal } from './resume/resume-journal.js';
import { EventBus } from './session/event-bus.js';
import { MachineState } from './session/machine-state.js';
import { DEFAULT_RESTART_POLICY } from './session/restart-policy.js';
import { SessionAdmin } from './session/session-admin.js';
import { sessionInfo } from './session/session-info.js';
import { SessionSet } from './session/session-set.js';
import { stopSession } from './session/session-stop.js';
import { SessionStore } from './session/session-store.js';
import { SessionTransitions } from './session/transitions.js';
import { HookSignals } from './signals/hook-signals.js';
import type { SupervisorOptions } from './supervisor-options.js';
import { SessionStartup } from './supervisor-startup.js';
import { Typist } from './typing/typed-input.js';

/** Sessions brought up at start go one at a time this far apart, never all at once (DESIGN.md §4). */
export const START_STAGGER_MS = 2_000;

export interface SupervisorParts {
  home: string;
  clock: PowerClock;
  env: Env;
  machine: MachineState;
  events: EventBus;
  sessions: SessionSet;
  store: SessionStore;
  moves: SessionTransitions;
  direct: DirectBackend;
  tmux: TmuxBackend | null;
  typist: Typist;
  checkpoints: Checkpointer;
  /** What a checkpoint or a rollback asked of the daemon writes through: the store, and the one git limiter of this supervisor. */
  checkpointPorts: CheckpointPorts;
  limits: UsageLimits;
  hooks: HookSignals;
  exits: ExitHandler;
  queue: LaunchQueue;
  journal: ResumeJournal;
  resumer: ResumeController;
  /** Nudges an agent left at its API error, then hands it to the person (error-watch.ts). */
  errors: ErrorWatch;
  handoff: Handoff;
  handBack: HandBack;
  startup: SessionStartup;
  /** The person's stop (session-stop.ts) of the session `ref` names. */
  stop(ref: string): Promise<Result<LiveSession>>;
  admin: SessionAdmin;
}

export function buildParts(options: SupervisorOptions): SupervisorParts {
  const home = options.home ?? moriHome();
  const clock = options.clock ?? systemClock;
  const scheduler = options.scheduler ?? systemScheduler;
  const random = options.random ?? Math.random;
  const env = options.env ?? process.env;
  const machine = new MachineState();
  const events = new EventBus();
  const emit = (e: SupervisorEvent): void => events.emit(e);

  // session/
  const sessions = new SessionSet(home, clock);
  const store = new SessionStore({ home, clock, scheduler, loaded: (stateDir) => sessions.byStateDir(stateDir) ?? null });
  const moves = new SessionTransitions(clock, store, emit);
  const direct = options.direct ?? new DirectBackend({ runDir: path.join(home, 'run') });
  const tmux = options.tmux === undefined ? new TmuxBackend() : options.tmux;
  // typing/, checkpoints/, limits/, signals/
  const typist = new Typist({ env, store, clock, scheduler });
  const checkpointPorts: CheckpointPorts = { write: (dir, change) => store.update(dir, change), limiter: new Limiter(CHECKPOINT_CONCURRENCY) };
  const checkpoints = new Checkpointer({ scheduler, random, moves, files: checkpointPorts, emit, intervalMs: options.checkpointIntervalMs });
  const limits = new UsageLimits({ clock, scheduler, random, jitterMs: options.usageLimit?.jitterMs, jitterSlot: options.usageLimit?.jitterSlot, machine, env, store, moves, emit, sessions: () => sessions.all() });
  const hooks = new HookSignals({ home, store, now: () => clock.wallMs(), onUsageLimit: (rt, signal) => void limits.report(rt, signal) });
  // exits/, launch/, resume/
  const exits = new ExitHandler({ clock, scheduler, random, policy: { ...DEFAULT_RESTART_POLICY, ...options.policy }, machine, store, moves, emit, checkpoints });
  const queue = new LaunchQueue({
    staggerMs: options.startStaggerMs ?? START_STAGGER_MS,
    scheduler,
    onError: (what, err) => process.stderr.write(`mori: ${what} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`),
  });
  const ids = new AgentIdLearner({ env, scheduler, store, sessions: () => sessions.all() });
  const journal = new ResumeJournal({ home, clock, store, emit });
  const launcher = new AgentLauncher({
    ...{ env, home, clock, scheduler, machine, direct, tmux, store, moves, emit, checkpoints, ids, journal, typist, hooks },
    sandbox: options.sandbox,
    size: options.size,
    activity: options.activity,
    onExit: (rt, t, exit) => exits.onExit(rt, t, exit),
    limits: { report: (rt, signal) => void limits.report(rt, signal), working: (rt) => limits.agentWorking(rt) },
  });
  const resumer = new ResumeController({ home, env, clock, scheduler, machine, store, moves, verify: options.verify, stuckAfterWakeMs: options.stuckAfterWakeMs, launcher, exits, journal, typist, resumePolicy: options.resumePolicy });
  const errors = new ErrorWatch({ clock, scheduler, machine, store, moves, typist, nudgeMs: options.apiErrorNudgeMs });
  const handoff = new Handoff({ home, env, clock, machine, store, launcher, exits, checkpoints, emit });
  const handBack = new HandBack({ home, env, clock, scheduler, machine, store, launcher, exits, emit });
  // The Supervisor's own: bringing sessions up, removing and renaming them.
  const startup = new SessionStartup({ home, env, machine, tmux, queue, launcher, resumer, exits });
  const stop = async (ref: string): Promise<Result<LiveSession>> =>
    sessions.withSession(ref, async (rt) => {
      await stopSession(rt, { store, moves, emit });
      return ok(sessionInfo(rt));
    });
  const admin = new SessionAdmin({ home, sessions, tmux, stop, emit, clock, scheduler, checkpointsSettled: () => checkpoints.settled() });

  // Every part is there: each hears the events of the parts built before it.
  store.onUnwritable((rt, message, reason) => moves.unwritable(rt, message, reason));
  exits.onRestartDue((rt, reason) => resumer.resume(rt, reason, null));
  limits.onResumeDue((rt, context, how) => resumer.resume(rt, 'usage-limit', context, how));
  // A limit of a session whose policy names a fallback agent: it continues with that agent (limit-handoff.ts).
  const limitHandoffs = new LimitHandoffs({ clock, scheduler, env, sessions, store, limits, handoff, handBack, onUsageLimit: options.onUsageLimit });
  events.on((e) => {
    if (e.type === 'session.limited') limitHandoffs.limited(e);
    // Said as the run's monitor saw it, so the session's run is the one that changed.
    if (e.type === 'session.activity') {
      const rt = sessions.find(e.sessionId);
      if (rt.ok) errors.activity(rt.value, e.from, e.to);
    }
  });

  return { home, clock, env, machine, events, sessions, store, moves, direct, tmux, typist, checkpoints, checkpointPorts, limits, hooks, exits, queue, journal, resumer, errors, handoff, handBack, startup, stop, admin };
}
