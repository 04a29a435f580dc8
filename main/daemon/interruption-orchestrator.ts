// Turns power and network events into the supervisor's interruptions and resumes (DESIGN.md §4, §8):
// suspend → every running session interrupted(sleep), checkpointed and logged at once; wake → wait
// for the network (bounded) → resume each session with the time away, through the supervisor's one
// resume path (which verifies first, restarting trusted services). Offline → sessions whose agent needs the network are
// interrupted(network), and so is one that goes running while it is down; online → verify → resume. What it knows of each session (its state, whether its
// agent needs the network) is the supervisor's, read off the sessions in memory. Runs in the supervisor's process.
import type { SupervisorEvent } from '../../common/events.js';
import type { Result } from '../../common/result.js';
import type { InterruptReason } from '../../common/session.js';
import type { PowerWatch } from '../power/power-watch.js';
import type { Limiter } from '../state/limiter.js';
import type { ResumeContext } from '../supervisor/supervisor-options.js';
import { sessionsToInterrupt, sessionsToResume, WAKE_NETWORK_WAIT_MS, type InterruptView } from '../supervisor/resume/resume-plan.js';

/**
 * Longest the checkpoints wait for a wake's resumes: long enough for the resumes of a typical wake
 * (checks of a few hundred ms), short enough that a session whose checks run a test suite does not
 * keep the others' checkpoints from being written for minutes.
 */
export const WAKE_CHECKPOINT_HOLD_MS = 3_000;

/** What the orchestrator needs of the Supervisor. */
export interface OrchestratedSupervisor {
  /** Every session as an interruption sees it. */
  interruptViews(): InterruptView[];
  /** The limiter the supervisor's checkpoints run git under: held while a wake's resumes start. */
  readonly checkpointPorts: { readonly limiter: Pick<Limiter, 'hold'> };
  setAsleep(asleep: boolean): void;
  interruptSession(ref: string, reason: InterruptReason): Result<unknown>;
  resumeSession(ref: string, reason: InterruptReason, context?: ResumeContext): Promise<Result<unknown>>;
  publish(event: SupervisorEvent): void;
  /** The supervisor's events: a session going running (started, resumed) while the network is down is held for it. */
  on(listener: (event: SupervisorEvent) => void): () => void;
}

export interface OrchestratorOptions {
  networkWaitMs?: number;
}

export class InterruptionOrchestrator {
  private readonly unsubscribe: (() => void)[] = [];
  /** Bumped by every suspend and offline: a resume begun before it is abandoned. */
  private epoch = 0;
  private asleep = false;
  /** Announced offline and not yet online again. */
  private offline = false;
  private disposed = false;
  private inFlight: AbortController | null = null;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly supervisor: OrchestratedSupervisor,
    private readonly power: PowerWatch,
    private readonly options: OrchestratorOptions = {},
  ) {
    this.unsubscribe.push(
      power.on('power.suspend', (e) => {
        this.supervisor.publish({ type: 'power.suspend', ...e });
        this.onSuspend();
      }),
      power.on('power.resume', (e) => {
        this.supervisor.publish({ type: 'power.resume', ...e });
        this.onResume(e.sleptMs);
      }),
      power.on('network.offline', (e) => {
        this.supervisor.publish({ type: 'network.offline', ...e });
        this.onOffline();
      }),
      power.on('network.online', (e) => {
        this.supervisor.publish({ type: 'network.online', ...e });
        this.onOnline(e.offlineMs);
      }),
      supervisor.on((e) => {
        if (e.type === 'session.started' || e.type === 'session.resumed') this.onRunning(e.sessionId);
      }),
    );
  }

  /** Resolves when the resumes started so far are done (tests, shutdown). */
  idle(): Promise<void> {
    return this.pending;
  }

  dispose(): void {
    this.disposed = true;
    for (const u of this.unsubscribe.splice(0)) u();
    this.inFlight?.abort();
  }

  /** Synchronous on purpose: logind gives a few seconds before the machine sleeps; this takes milliseconds. */
  private onSuspend(): void {
    this.epoch++;
    this.asleep = true;
    this.inFlight?.abort();
    this.supervisor.setAsleep(true);
    for (const id of sessionsToInterrupt(this.views(), 'sleep')) this.supervisor.interruptSession(id, 'sleep');
  }

  private onResume(sleptMs: number): void {
    this.asleep = false;
    this.supervisor.setAsleep(false);
    const epoch = this.epoch;
    this.schedule(async () => {
      const views = this.views();
      if (views.some((v) => v.needsNetwork && (v.state === 'interrupted' || v.state === 'limited'))) {
        await this.power.waitForOnline(this.options.networkWaitMs ?? WAKE_NETWORK_WAIT_MS);
      }
      if (epoch !== this.epoch) return;
      await this.resumeAll(sessionsToResume(this.views(), 'sleep'), 'sleep', sleptMs, epoch);
    });
  }

  private onOffline(): void {
    this.offline = true;
    if (this.asleep) return;
    this.epoch++;
    this.inFlight?.abort();
    for (const id of sessionsToInterrupt(this.views(), 'network')) this.supervisor.interruptSession(id, 'network');
  }

  private onOnline(offlineMs: number): void {
    this.offline = false;
    if (this.asleep) return;
    const epoch = this.epoch;
    this.schedule(() => this.resumeAll(sessionsToResume(this.views(), 'network'), 'network', offlineMs, epoch));
  }

  /**
   * A session gone running while the network is down (a crash's restart, a usage limit's resume, a
   * start, a wake's resume that stopped waiting for the network) is held as interrupted(network), as
   * the loss held the others, so the network's return resumes it: its agent fails its requests
   * meanwhile and, once its own retries run out, would be left at its API error with nothing to
   * nudge it. Checked once the launch or resume that announced it is over (its SESSION RESUMED written).
   */
  private onRunning(id: string): void {
    if (!this.offline || this.asleep) return;
    setImmediate(() => {
      if (this.disposed || !this.offline || this.asleep) return;
      for (const s of sessionsToInterrupt(this.views().filter((v) => v.id === id), 'network')) this.supervisor.interruptSession(s, 'network');
    });
  }

  /** Runs resumes one batch after another; a batch that fails is reported and the next still runs. */
  private schedule(job: () => Promise<void>): void {
    this.pending = this.pending.then(job).catch((err: unknown) => {
      process.stderr.write(`mori: resuming sessions after a wake or network loss failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    });
  }

  /**
   * Resumes every session at once: each goes on as soon as its own checks pass, never behind another
   * session's test suite. What is heavy is bounded where it runs: commands share the process's few
   * slots (run-checks.ts), and an agent started again waits in the staggered launch queue.
   */
  private async resumeAll(ids: string[], reason: InterruptReason, awayMs: number, epoch: number): Promise<void> {
    const abort = new AbortController();
    this.inFlight = abort;
    // The suspend's checkpoints wait while the sessions are resumed: each starts git processes, and
    // starting one holds the event loop ~10 ms here, so twenty of them made the resumes behind them
    // late (p95 ~100 ms beyond the checks, bench/wake-resume.bench.ts). At most WAKE_CHECKPOINT_HOLD_MS.
    const release = this.supervisor.checkpointPorts.limiter.hold();
    const timer = setTimeout(release, WAKE_CHECKPOINT_HOLD_MS);
    try {
      await Promise.all(ids.map((id) => this.resumeOne(id, reason, awayMs, epoch, abort.signal)));
    } finally {
      clearTimeout(timer);
      release();
    }
    if (this.inFlight === abort) this.inFlight = null;
  }

  /** Resumes one session through the supervisor's one resume path, which verifies first. */
  private async resumeOne(id: string, reason: InterruptReason, awayMs: number, epoch: number, signal: AbortSignal): Promise<void> {
    if (epoch !== this.epoch || signal.aborted) return; // slept or went offline again meanwhile
    const r = await this.supervisor.resumeSession(id, reason, { awayMs, checks: null, signal });
    if (!r.ok) process.stderr.write(`mori: resuming ${id} after ${reason === 'sleep' ? 'a sleep' : 'a network loss'} failed: ${r.message}\n`);
  }

  private views(): InterruptView[] {
    return this.supervisor.interruptViews();
  }
}
