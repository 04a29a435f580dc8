// What a running agent is doing, as read from its screen or its own status file (DESIGN.md §4).
// Pure TypeScript, shared by main (detection), the event stream and the renderer.
import * as z from 'zod/mini';
import './zod-english.js';

/**
 * - `working`: the agent is busy on a turn (spinner, "esc to interrupt").
 * - `waiting`: idle at its prompt, ready for the next instruction.
 * - `needs-input`: blocked on a question only a person should answer (permission, trust, login).
 * - `error`: its last request failed or it is retrying a connection.
 * - `unknown`: nothing on screen says (a plain shell, a program Mori has no patterns for).
 */
export const AGENT_ACTIVITIES = ['working', 'waiting', 'needs-input', 'error', 'unknown'] as const;
export const AgentActivity = z.enum(AGENT_ACTIVITIES);
export type AgentActivity = z.infer<typeof AgentActivity>;

/** One change of activity, as the debouncer emits it: exactly one per transition. */
export interface ActivityTransition {
  from: AgentActivity;
  to: AgentActivity;
  /** Epoch milliseconds at which the new activity was first seen. */
  at: number;
}
