// When checkpoints are taken (DESIGN.md §4): every few minutes while an agent runs (spread over the
// first interval so many sessions do not all run git at once), when it exits, when it is interrupted
// and when the supervisor stops. writeCheckpoint (checkpoint.ts) does the work; a failure is reported
// as the session's state being unwritable, never dropped. Runs in the supervisor's process.
import { background } from '../../background.js';
import type { Terminal } from '../../terminals/terminal.js';
import { CHECKPOINT_INTERVAL_MS, writeCheckpoint } from './checkpoint.js';
import type { SessionRuntime } from '../session/session-runtime.js';
import type { SessionTransitions } from '../session/transitions.js';
import type { SupervisorEvent } from '../../../common/events.js';
import type { Scheduler } from '../../power/clock.js';

/** What checkpointing uses. */
export interface CheckpointerPorts {
  scheduler: Scheduler;
  random: () => number;
  moves: Pick<SessionTransitions, 'unwritable' | 'base'>;
  emit(e: SupervisorEvent): void;
  /** Between checkpoints while an agent runs; default CHECKPOINT_INTERVAL_MS. */
  intervalMs?: number | undefined;
}

export class Checkpointer {
  /** Checkpoints being written now, so a suspend can wait until every one is on disk. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly ports: CheckpointerPorts) {}

  /** Resolves once every checkpoint begun so far is written (or its failure reported). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Checkpoints on the interval for as long as `terminal` is the session's. */
  schedule(rt: SessionRuntime, terminal: Terminal): void {
    const every = this.ports.intervalMs ?? CHECKPOINT_INTERVAL_MS;
    const first = Math.round(every * (0.5 + this.ports.random() / 2));
    const tick = (): void => {
      rt.timers.fired('checkpoint');
      if (rt.terminal !== terminal) return;
      rt.timers.set('checkpoint', this.ports.scheduler.after(every, tick));
      background(this.take(rt), `checkpointing ${rt.name}`);
    };
    rt.timers.set('checkpoint', this.ports.scheduler.after(first, tick));
  }

  /** Takes one checkpoint now; resolves when written. Failures are reported, never thrown. */
  take(rt: SessionRuntime): Promise<void> {
    const p = this.write(rt).catch((err: unknown) => this.ports.moves.unwritable(rt, `checkpoint failed: ${String(err)}`));
    this.inFlight.add(p);
    return p.finally(() => this.inFlight.delete(p));
  }

  private async write(rt: SessionRuntime): Promise<void> {
    const r = await writeCheckpoint(rt.stateDir, rt.projectDir);
    if (!r.ok) {
      this.ports.moves.unwritable(rt, `checkpoint not written: ${r.message}`);
      return;
    }
    // Only the checkpoint: other fields may have been written since this one was read.
    rt.setSession({ ...rt.session, lastCheckpoint: r.value.checkpoint });
    const cp = r.value.checkpoint;
    this.ports.emit({ type: 'checkpoint.written', ...this.ports.moves.base(rt), gitHead: cp.gitHead, changedFiles: cp.changedFiles.length, changed: r.value.changed });
  }
}
