// What an agent's exit leads to (DESIGN.md §4), as decideOnExit says: finished (exit 0), stopped (the
// person asked), a restart after a backoff (a crash; an exit around a sleep; a resume that did not
// take, next time fresh), or attention (a crash loop). Also an exit that happened while Mori was down
// (a dead tmux pane found at start). Called from terminal callbacks: it never throws into them.
// Runs in the supervisor's process.
import type { TerminalExit } from '../../common/terminal.js';
import { background } from '../background.js';
import { bootId } from '../os/boot-id.js';
import type { Terminal } from '../terminals/terminal.js';
import { decideOnExit, type ExitDecision } from './lifecycle.js';
import { recordCrash, systemAwakeMs } from './restart-history.js';
import type { Checkpointer } from './checkpointer.js';
import type { SessionRuntime } from './session-runtime.js';
import type { SupervisorContext } from './supervisor-context.js';
import { endViews } from './view-hub.js';

/** An exit this soon after a wake (awake ms) is the sleep's doing, not a crash (DESIGN.md §4). */
export const NEAR_SLEEP_MS = 30_000;

type Outcome = 'finished' | 'crash' | 'stopped' | 'resume-failed';

export class ExitHandler {
  constructor(
    private readonly ctx: SupervisorContext,
    private readonly checkpoints: Checkpointer,
  ) {}

  /** The terminal of `rt` exited. */
  onExit(rt: SessionRuntime, terminal: Terminal, exit: TerminalExit): void {
    try {
      this.handle(rt, terminal, exit);
    } catch (err) {
      // A bug here must not become an uncaught exception in the pty's callback: say it, ask for help.
      this.ctx.moves.attention(rt, 'internal', `handling the agent's exit failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  }

  /** Lets go of the running agent: its watchers, timers and views. */
  detach(rt: SessionRuntime, why: string): void {
    rt.run?.monitor?.dispose();
    rt.run = null;
    rt.timers.clear('checkpoint', 'stuck', 'id-watch');
    endViews(rt, why);
  }

  private handle(rt: SessionRuntime, terminal: Terminal, exit: TerminalExit): void {
    const run = rt.run;
    if (!run || run.terminal !== terminal) return;
    // Whatever was in flight for this agent (a resume verifying, a nudge) is over.
    rt.generation++;
    this.detach(rt, 'the agent exited');
    background(terminal.dispose(), `releasing the terminal of ${rt.name}`);
    const { machine, clock } = this.ctx;
    if (machine.shuttingDown && !rt.stopping) {
      this.ctx.store.write(rt, (s) => ({ ...s, lastExit: exitRecord(exit, clock.wallMs()) }));
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
      random: this.ctx.random(),
      policy: this.ctx.policy,
    });
    this.apply(rt, exit, decision, run.spec?.file ?? null, run.spec?.agentSessionId ?? null, '');
  }

  /**
   * Its tmux pane died while Mori was down (remain-on-exit kept the status): that exit is treated as
   * any other, with no uptime known (so a failure counts as a crash and resumes by id).
   */
  exitedWhileDown(rt: SessionRuntime, exit: TerminalExit): void {
    try {
      const now = this.ctx.clock.monoMs();
      const decision = decideOnExit({
        exit,
        userStop: false,
        shuttingDown: false,
        nearSleep: false,
        launch: 'reattach',
        uptimeMs: 0,
        restart: rt.restart,
        now,
        random: this.ctx.random(),
        policy: this.ctx.policy,
      });
      this.apply(rt, exit, decision, null, null, ' while Mori was down');
    } catch (err) {
      this.ctx.moves.attention(rt, 'internal', `handling an exit while Mori was down failed: ${String(err)}`);
    }
  }

  private apply(rt: SessionRuntime, exit: TerminalExit, decision: ExitDecision, file: string | null, agentSessionId: string | null, when: string): void {
    const { ctx } = this;
    const { store, moves } = ctx;
    const status = exit.signal !== null ? `signal ${exit.signal}` : `exit ${exit.code ?? '?'}`;
    const countsAsCrash = decision.kind === 'restart' && decision.countsAsCrash;
    store.write(rt, (s) => ({
      ...s,
      intent: decision.intent,
      lastExit: exitRecord(exit, ctx.clock.wallMs()),
      restartHistory: countsAsCrash ? recordCrash(s.restartHistory, { wallMs: ctx.clock.wallMs(), systemAwakeMs: systemAwakeMs(), bootId: bootId() }) : s.restartHistory,
    }));
    if (when === '') background(this.checkpoints.take(rt), `checkpointing ${rt.name}`);
    const exited = (outcome: Outcome): void => ctx.emit({ type: 'session.exited', ...moves.base(rt), code: exit.code, signal: exit.signal, outcome });
    switch (decision.kind) {
      case 'stopped':
        rt.stopping = false;
        store.log(rt, `SESSION STOPPED - by the user (${status})`);
        moves.move(rt, 'stop');
        exited('stopped');
        ctx.emit({ type: 'session.stopped', ...moves.base(rt), by: 'user' });
        return;
      case 'supervisor-stopped':
        return;
      case 'finished':
        store.log(rt, `SESSION FINISHED - agent exited 0${when}`);
        moves.move(rt, 'finished');
        exited('finished');
        return;
      case 'attention':
        rt.restart = decision.restart;
        store.log(rt, `SESSION INTERRUPTED - agent crashed${when} (${status})`);
        exited('crash');
        moves.attention(rt, decision.reason, decision.message);
        return;
      case 'restart':
        rt.restart = decision.restart;
        if (decision.resumeFailed && file !== null) {
          const failed = { file, agentSessionId };
          rt.failedResume = failed;
          store.write(rt, (s) => ({ ...s, failedResume: failed }));
        }
        return this.scheduleRestart(rt, decision, status, when, exited);
    }
  }

  private scheduleRestart(rt: SessionRuntime, decision: Extract<ExitDecision, { kind: 'restart' }>, status: string, when: string, exited: (o: Outcome) => void): void {
    const { ctx } = this;
    const seconds = Math.max(1, Math.round(decision.delayMs / 1000));
    const what =
      decision.reason === 'sleep' ? `agent exited around a sleep (${status})` : decision.resumeFailed ? `resume failed (${status}); next: a fresh start` : `agent crashed${when} (${status})`;
    ctx.store.log(rt, `SESSION INTERRUPTED - ${what}; restarting in ${seconds}s`);
    if (!ctx.moves.move(rt, 'crashed')) return;
    exited(decision.resumeFailed ? 'resume-failed' : 'crash');
    ctx.emit({ type: 'session.interrupted', ...ctx.moves.base(rt), reason: decision.reason, retryInMs: decision.delayMs });
    const gen = rt.generation;
    rt.nextAttemptAt = ctx.clock.wallMs() + decision.delayMs;
    rt.timers.set(
      'retry',
      ctx.scheduler.after(
        decision.delayMs,
        () => {
          rt.timers.fired('retry');
          if (rt.generation !== gen || ctx.machine.shuttingDown) return;
          background(ctx.resume(rt, decision.reason, null), `resuming ${rt.name} after a restart delay`);
        },
        true,
      ),
    );
  }
}

function exitRecord(exit: TerminalExit, wallMs: number): { at: string; code: number | null; signal: string | null } {
  return { at: new Date(wallMs).toISOString(), code: exit.code, signal: exit.signal };
}
