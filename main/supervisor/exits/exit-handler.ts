// What an agent's exit leads to (DESIGN.md §4), as decideOnExit says: finished (exit 0), stopped (the
// person asked), a restart after a backoff (a crash; an exit around a sleep; a resume that did not
// take, next time fresh), or attention (a crash loop). Also an exit that happened while Mori was down
// (a dead tmux pane found at start). Called from terminal callbacks: it never throws into them.
// Runs in the supervisor's process.
import type { TerminalExit } from '../../../common/terminal.js';
import { background } from '../../background.js';
import { bootId } from '../../os/boot-id.js';
import type { Terminal } from '../../terminals/terminal.js';
import { decideOnExit, type ExitDecision } from '../session/lifecycle.js';
import { recordCrash, systemAwakeMs } from '../session/restart-history.js';
import type { Checkpointer } from '../checkpoints/checkpoint.js';
import type { SessionRuntime } from '../session/session-runtime.js';
import type { MachineState } from '../session/machine-state.js';
import type { SessionStore } from '../session/session-store.js';
import type { SessionTransitions } from '../session/transitions.js';
import type { RestartPolicyConfig } from '../session/restart-policy.js';
import type { SupervisorEvent } from '../../../common/events.js';
import type { InterruptReason } from '../../../common/session.js';
import type { PowerClock, Scheduler } from '../../power/clock.js';
import { endViews } from '../session/view-hub.js';
import { Emitter } from '../session/emitter.js';

/** An exit this soon after a wake (awake ms) is the sleep's doing, not a crash (DESIGN.md §4). */
export const NEAR_SLEEP_MS = 30_000;

type Outcome = 'finished' | 'crash' | 'stopped' | 'resume-failed';

/** What exit handling uses. */
export interface ExitHandlerPorts {
  clock: PowerClock;
  scheduler: Scheduler;
  random: () => number;
  policy: RestartPolicyConfig;
  machine: Readonly<MachineState>;
  store: Pick<SessionStore, 'write' | 'log'>;
  moves: Pick<SessionTransitions, 'move' | 'attention' | 'base'>;
  emit(e: SupervisorEvent): void;
  checkpoints: Pick<Checkpointer, 'take'>;
}

export class ExitHandler {
  private readonly restartDue = new Emitter<[rt: SessionRuntime, reason: InterruptReason], Promise<void>>();
  /** A session's restart delay is over: the resume path (resume-controller.ts) resumes it. */
  readonly onRestartDue = this.restartDue.event;

  constructor(private readonly ports: ExitHandlerPorts) {}

  /** The terminal of `rt` exited. */
  onExit(rt: SessionRuntime, terminal: Terminal, exit: TerminalExit): void {
    try {
      this.handle(rt, terminal, exit);
    } catch (err) {
      // A bug here must not become an uncaught exception in the pty's callback: say it, ask for help.
      this.ports.moves.attention(rt, 'internal', `handling the agent's exit failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  }

  /** Lets go of the running agent: its watchers, timers and views. */
  detach(rt: SessionRuntime, why: string): void {
    rt.endRun();
    rt.timers.clear('checkpoint', 'stuck', 'id-watch', 'api-error');
    endViews(rt, why);
  }

  private handle(rt: SessionRuntime, terminal: Terminal, exit: TerminalExit): void {
    const run = rt.run;
    if (!run || run.terminal !== terminal) return;
    // Whatever was in flight for this agent (a resume verifying, a nudge) is over.
    rt.takeCharge();
    this.detach(rt, 'the agent exited');
    background(terminal.dispose(), `releasing the terminal of ${rt.name}`);
    const { machine, clock } = this.ports;
    if (machine.shuttingDown && !rt.stopping) {
      this.ports.store.write(rt, (s) => ({ ...s, lastExit: exitRecord(exit, clock.wallMs()) }));
      return;
    }
    if (rt.state === 'limited' && !rt.stopping) {
      // At its usage limit the agent may end (the person quit it, an older CLI exits): no crash, no
      // restart; the limit's plan relaunches it by id at its time (limits/usage-limits.ts).
      this.ports.store.write(rt, (s) => ({ ...s, lastExit: exitRecord(exit, clock.wallMs()) }));
      this.ports.store.log(rt, `SESSION NOTE - the agent exited at its usage limit (${exit.signal !== null ? `signal ${exit.signal}` : `exit ${exit.code ?? '?'}`}); it resumes at the limit's time`);
      return;
    }
    const now = clock.monoMs();
    const decision = decideOnExit({
      exit,
      userStop: rt.stopping,
      shuttingDown: machine.shuttingDown,
      nearSleep: machine.asleep || (machine.lastWakeAt !== null && now - machine.lastWakeAt < NEAR_SLEEP_MS),
      launch: run.launch,
      uptimeMs: now - run.startedAt,
      restart: rt.restart,
      now,
      random: this.ports.random(),
      policy: this.ports.policy,
    });
    this.apply(rt, exit, decision, run.spec?.file ?? null, run.spec?.agentSessionId ?? null, '');
  }

  /**
   * Its tmux pane died while Mori was down (remain-on-exit kept the status): that exit is treated as
   * any other, with no uptime known (so a failure counts as a crash and resumes by id).
   */
  exitedWhileDown(rt: SessionRuntime, exit: TerminalExit): void {
    try {
      const now = this.ports.clock.monoMs();
      const decision = decideOnExit({
        exit,
        userStop: false,
        shuttingDown: false,
        nearSleep: false,
        launch: 'reattach',
        uptimeMs: 0,
        restart: rt.restart,
        now,
        random: this.ports.random(),
        policy: this.ports.policy,
      });
      this.apply(rt, exit, decision, null, null, ' while Mori was down');
    } catch (err) {
      this.ports.moves.attention(rt, 'internal', `handling an exit while Mori was down failed: ${String(err)}`);
    }
  }

  private apply(rt: SessionRuntime, exit: TerminalExit, decision: ExitDecision, file: string | null, agentSessionId: string | null, when: string): void {
    const { ports } = this;
    const { store, moves } = ports;
    const status = exit.signal !== null ? `signal ${exit.signal}` : `exit ${exit.code ?? '?'}`;
    const countsAsCrash = decision.kind === 'restart' && decision.countsAsCrash;
    store.write(rt, (s) => ({
      ...s,
      intent: decision.intent,
      lastExit: exitRecord(exit, ports.clock.wallMs()),
      restartHistory: countsAsCrash ? recordCrash(s.restartHistory, { wallMs: ports.clock.wallMs(), systemAwakeMs: systemAwakeMs(), bootId: bootId() }) : s.restartHistory,
    }));
    if (when === '') background(this.ports.checkpoints.take(rt, 'agent exited'), `checkpointing ${rt.name}`);
    const exited = (outcome: Outcome): void => ports.emit({ type: 'session.exited', ...moves.base(rt), code: exit.code, signal: exit.signal, outcome });
    switch (decision.kind) {
      case 'stopped':
        rt.stopCompleted();
        store.log(rt, `SESSION STOPPED - by the user (${status})`);
        moves.move(rt, 'stop');
        exited('stopped');
        ports.emit({ type: 'session.stopped', ...moves.base(rt), by: 'user' });
        return;
      case 'supervisor-stopped':
        return;
      case 'finished':
        store.log(rt, `SESSION FINISHED - agent exited 0${when}`);
        moves.move(rt, 'finished');
        exited('finished');
        return;
      case 'attention':
        rt.recordExit(decision.restart);
        store.log(rt, `SESSION INTERRUPTED - agent crashed${when} (${status})`);
        exited('crash');
        moves.attention(rt, decision.reason, decision.message);
        return;
      case 'restart':
        if (decision.resumeFailed && file !== null) {
          const failed = { file, agentSessionId };
          rt.recordExit(decision.restart, failed);
          store.write(rt, (s) => ({ ...s, failedResume: failed }));
        } else rt.recordExit(decision.restart);
        return this.scheduleRestart(rt, decision, status, when, exited);
    }
  }

  private scheduleRestart(rt: SessionRuntime, decision: Extract<ExitDecision, { kind: 'restart' }>, status: string, when: string, exited: (o: Outcome) => void): void {
    const { ports } = this;
    const seconds = Math.max(1, Math.round(decision.delayMs / 1000));
    const what =
      decision.reason === 'sleep' ? `agent exited around a sleep (${status})` : decision.resumeFailed ? `resume failed (${status}); next: a fresh start` : `agent crashed${when} (${status})`;
    ports.store.log(rt, `SESSION INTERRUPTED - ${what}; restarting in ${seconds}s`);
    if (!ports.moves.move(rt, 'crashed')) return;
    exited(decision.resumeFailed ? 'resume-failed' : 'crash');
    ports.emit({ type: 'session.interrupted', ...ports.moves.base(rt), reason: decision.reason, retryInMs: decision.delayMs });
    const gen = rt.generation;
    rt.scheduleRetry(ports.clock.wallMs() + decision.delayMs);
    rt.timers.set(
      'retry',
      ports.scheduler.after(
        decision.delayMs,
        () => {
          rt.timers.fired('retry');
          if (rt.generation !== gen || ports.machine.shuttingDown) return;
          background(Promise.all(this.restartDue.fire(rt, decision.reason)), `resuming ${rt.name} after a restart delay`);
        },
        true,
      ),
    );
  }
}

function exitRecord(exit: TerminalExit, wallMs: number): { at: string; code: number | null; signal: string | null } {
  return { at: new Date(wallMs).toISOString(), code: exit.code, signal: exit.signal };
}
