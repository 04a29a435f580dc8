// What the launcher is handed (DESIGN.md §4): a planned launch (a new agent session, or a relaunch by
// the agent's resume command or fresh) or why there is none, and the words a work-log entry uses for
// it. The plans themselves are made where they are asked for (resume/launch-plan.ts). Pure; runs in
// the supervisor's process.
import type { LaunchKind } from '../../../common/events.js';
import type { Failure } from '../../../common/result.js';
import type { LaunchSpec } from '../../agents/profile.js';

export interface PlannedLaunch {
  kind: Exclude<LaunchKind, 'reattach'>;
  spec: LaunchSpec;
  /** Why a relaunch starts fresh instead of resuming the agent's own session, for the work log. */
  whyFresh?: string;
  /** Why a relaunch resumes the agent's own session by id (the resume policy's words), for the work log. */
  whyById?: string;
  /** The agent session id a fresh relaunch leaves behind, for session.json's previousIds. */
  leavesBehind?: string;
}

/** A plan that failed; `attention` says which attention it calls for when not the launch failing. */
export type PlanFailure = Failure & { attention?: 'state-invalid' };
export type PlanResult = { ok: true; value: PlannedLaunch } | PlanFailure;

/** The words a work-log entry uses for a launch. */
export function describeLaunch(p: PlannedLaunch): string {
  if (p.kind === 'resume') {
    const id = p.spec.agentSessionId ? ` (session ${p.spec.agentSessionId})` : '';
    return `agent relaunched with its resume command${id}${p.whyById !== undefined ? `; ${p.whyById}` : ''}`;
  }
  if (p.kind === 'fresh') {
    const kept = p.leavesBehind !== undefined ? `; its session ${p.leavesBehind} kept in previousIds` : '';
    return `agent started fresh with the resume prompt${p.whyFresh !== undefined ? ` (${p.whyFresh})` : ''}${kept}`;
  }
  return 'new agent session';
}
