// Moves sessions through the lifecycle (lifecycle.ts) and says so: the stored intent, the work-log
// entry and the event of each move that has one (interrupted, needs attention). An impossible move is
// a supervisor bug: it is reported as attention(internal) naming the state and the event, never
// thrown — these moves happen inside pty, timer and socket callbacks. Runs in the supervisor's process.
import type { SupervisorEvent } from '../../../common/events.js';
import type { InterruptReason } from '../../../common/session.js';
import type { PowerClock } from '../../power/clock.js';
import { REASON_WORDS } from './reason-words.js';
import { nextState, type LifecycleEvent } from './lifecycle.js';
import type { SessionRuntime } from './session-runtime.js';
import type { SessionStore } from './session-store.js';

export class SessionTransitions {
  constructor(
    private readonly clock: PowerClock,
    private readonly store: SessionStore,
    private readonly emit: (e: SupervisorEvent) => void,
  ) {}

  /** The fields every session event carries. */
  base(rt: SessionRuntime): { at: number; sessionId: string; name: string } {
    return { at: this.clock.wallMs(), sessionId: rt.id, name: rt.name };
  }

  /** Applies `event`; false (and reported) when the lifecycle has no such move from here. */
  move(rt: SessionRuntime, event: LifecycleEvent): boolean {
    const step = nextState(rt.state, event);
    if (step.ok) {
      rt.enter(step.to);
      return true;
    }
    const message = `the supervisor tried "${event}" while the session was ${step.from}; this is a bug in Mori`;
    process.stderr.write(`mori: ${rt.name}: ${message}\n`);
    rt.enter('attention');
    this.store.write(rt, (s) => ({ ...s, intent: { kind: 'attention', reason: 'internal' } }));
    this.store.log(rt, `SESSION NEEDS ATTENTION - internal: ${message}`);
    rt.noteAttention('internal', message);
    this.emit({ type: 'session.attention', ...this.base(rt), reason: 'internal', message });
    return false;
  }

  /** Something only the person can resolve: stored, logged, announced. */
  attention(rt: SessionRuntime, reason: string, message: string): void {
    this.store.write(rt, (s) => ({ ...s, intent: { kind: 'attention', reason } }));
    this.store.log(rt, `SESSION NEEDS ATTENTION - ${reason}: ${message}`);
    if (!this.move(rt, 'attention')) return;
    rt.noteAttention(reason, message);
    this.emit({ type: 'session.attention', ...this.base(rt), reason, message });
  }

  /**
   * A state file could not be written. Said without writing anything more to the state dir (it is
   * what fails); the agent, if running, runs on.
   */
  unwritable(rt: SessionRuntime, message: string, reason: 'state-unwritable' | 'state-invalid' = 'state-unwritable'): void {
    process.stderr.write(`mori: ${rt.name}: state not written: ${message}\n`);
    // A running agent runs on and keeps its state (sleep and exits still apply); the event, the
    // record in the Mori home and `mori ls` say what is wrong.
    if (rt.terminal === null && !this.move(rt, 'attention')) return;
    // An attention for something else (a crash loop, a missing program) stays what the person must
    // act on: a write failing since is said by this event and the state problem `mori ls` shows.
    const why = rt.attentionMessage;
    if (rt.state === 'attention' && (why === null || why.reason === 'state-unwritable' || why.reason === 'state-invalid')) rt.noteAttention(reason, message);
    this.emit({ type: 'session.attention', ...this.base(rt), reason, message });
  }

  /** The agent's work stopped for `reason` (sleep, network, a Mori restart): intent, log entry, event. */
  interrupt(rt: SessionRuntime, reason: InterruptReason, retryInMs: number | null = null): void {
    this.store.write(rt, (s) => ({ ...s, intent: { kind: 'interrupted', reason } }));
    this.store.log(rt, `SESSION INTERRUPTED - ${REASON_WORDS[reason]}`);
    if (this.move(rt, 'interrupt')) this.emit({ type: 'session.interrupted', ...this.base(rt), reason, retryInMs });
  }
}
