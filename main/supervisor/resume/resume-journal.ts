// The one writer of what a resume says (DESIGN.md §4, §9): the `verify.started` / `verify.finished`
// pair around a verification (a resume's or one the person asked for), whose results it has the
// SessionStore record in session.json, `session.resuming`, and the
// SESSION RESUMED work-log entry with its `session.resumed` event, written once per resume whether
// the agent went on, was nudged, relaunched or restarted. A follow-up on a resume already said (the
// agent nudged once its own retries ran out, restarted when still stuck after a nudge) is a SESSION
// NOTE without the events: one interruption, one SESSION RESUMED. Runs in the supervisor's process.
import type { LaunchKind, SupervisorEvent } from '../../../common/events.js';
import { fail, type Result } from '../../../common/result.js';
import type { InterruptReason } from '../../../common/session.js';
import { verifyChecks, type VerifyReport } from '../../checks/verify-report.js';
import type { PowerClock } from '../../power/clock.js';
import { resumeWords } from './resume-words.js';
import { REASON_WORDS } from '../session/reason-words.js';
import type { SessionRuntime } from '../session/session-runtime.js';
import type { SessionStore } from '../session/session-store.js';
import type { ResumeContext } from '../session/resume-context.js';

/** A session a verification is about: what its events name, where its checks are. */
export interface VerifyTarget {
  sessionId: string;
  name: string;
  stateDir: string;
}

export interface ResumeJournalPorts {
  home: string;
  clock: PowerClock;
  store: SessionStore;
  emit(e: SupervisorEvent): void;
}

export class ResumeJournal {
  constructor(private readonly ports: ResumeJournalPorts) {}

  /**
   * Runs the session's checks between `verify.started` and `verify.finished` and records their results
   * in session.json (a loaded session's info() then shows them); a throw is a failure.
   */
  async verify(target: VerifyTarget, restartServices: boolean, signal?: AbortSignal): Promise<Result<VerifyReport>> {
    const { clock, emit } = this.ports;
    const base = { sessionId: target.sessionId, name: target.name };
    emit({ type: 'verify.started', at: clock.wallMs(), ...base });
    const v = await this.verifyAndRecord(target, restartServices, signal).catch((e: unknown) => fail('failed', e instanceof Error ? e.message : String(e)));
    emit({ type: 'verify.finished', at: clock.wallMs(), ...base, ok: v.ok && v.value.ok, summary: v.ok ? v.value.summary : `verification failed: ${v.message}` });
    return v;
  }

  private async verifyAndRecord(target: VerifyTarget, restartServices: boolean, signal?: AbortSignal): Promise<Result<VerifyReport>> {
    const v = await verifyChecks(this.ports.home, target.stateDir, restartServices, signal);
    if (!v.ok) return v;
    const recorded = await this.ports.store.update(target.stateDir, v.value.record);
    return recorded.ok ? v : fail(recorded.code, `checks ran but the results could not be recorded: ${recorded.message}`);
  }

  /** The resume has begun with the agent launched (or found) as `launch`. */
  resuming(rt: SessionRuntime, launch: LaunchKind, followUp = false): void {
    if (followUp) return;
    this.ports.emit({ type: 'session.resuming', ...this.base(rt), launch });
  }

  /**
   * The SESSION RESUMED entry (why it was interrupted, what was found, `what` was done), then, when
   * `then` (the lifecycle move that follows) allows, `session.resumed`. A `followUp` is a note of
   * what was done after that resume, and no event.
   */
  resumed(rt: SessionRuntime, reason: InterruptReason, context: ResumeContext | null, what: string, launch: LaunchKind, then: () => boolean = () => true, followUp = false): void {
    if (followUp) {
      this.ports.store.log(rt, `SESSION NOTE - after the resume from ${REASON_WORDS[reason]}: ${what}`);
      then();
      return;
    }
    this.ports.store.log(rt, `SESSION RESUMED - ${resumeWords(reason, context)}; ${what}`);
    if (!then()) return;
    this.ports.emit({ type: 'session.resumed', ...this.base(rt), launch });
  }

  private base(rt: SessionRuntime): { at: number; sessionId: string; name: string } {
    return { at: this.ports.clock.wallMs(), sessionId: rt.id, name: rt.name };
  }
}
