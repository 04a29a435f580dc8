// The supervisor's typed events (DESIGN.md §9), as zod schemas so every consumer (the Electron
// layer, `mori up --json`, a socket subscriber) can validate what it receives. Pure TypeScript,
// shared by main, preload and renderer. Times are wall-clock epoch milliseconds.
import * as z from 'zod/mini';
import './zod-english.js';
import { AgentActivity } from './agent-activity.js';
import { NetworkOfflineEvent, NetworkOnlineEvent, ResumeEvent, SuspendEvent } from './power.js';
import { InterruptReason, ProfileName, UsageLimitPlan } from './session.js';

/** A session's runtime state (DESIGN.md §4): the lifecycle, not the stored intent. */
export const RUNTIME_STATES = ['idle', 'starting', 'running', 'interrupted', 'backoff', 'limited', 'verifying', 'resuming', 'attention', 'stopped', 'finished'] as const;
export const RuntimeState = z.enum(RUNTIME_STATES);
export type RuntimeState = z.infer<typeof RuntimeState>;

/** How an agent was launched: a new session, its resume command, a fresh start after a failed resume, or an adopted tmux session. */
export const LaunchKind = z.enum(['new', 'resume', 'fresh', 'reattach']);
export type LaunchKind = z.infer<typeof LaunchKind>;

const base = { at: z.number() };
const sessionBase = { ...base, sessionId: z.string(), name: z.string() };

/**
 * Built on first use: a process that never reads an event (`mori ls`, `mori status`) does not pay for
 * twenty-odd object schemas at its start.
 */
export const SupervisorEvent = z.lazy(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('supervisor.ready'), ...base, sessions: z.int(), pid: z.int() }),
  z.object({
    type: z.literal('session.started'),
    ...sessionBase,
    launch: LaunchKind,
    backend: z.enum(['tmux', 'direct']),
    pid: z.int(),
    agentSessionId: z.nullable(z.string()),
  }),
  z.object({ type: z.literal('session.activity'), ...sessionBase, from: AgentActivity, to: AgentActivity }),
  z.object({
    type: z.literal('session.exited'),
    ...sessionBase,
    code: z.nullable(z.int()),
    signal: z.nullable(z.string()),
    /** What the supervisor made of the exit. */
    outcome: z.enum(['finished', 'crash', 'stopped', 'resume-failed', 'ignored']),
  }),
  z.object({
    type: z.literal('session.interrupted'),
    ...sessionBase,
    reason: InterruptReason,
    /** When a restart is scheduled: how long until it (backoff), else null. */
    retryInMs: z.nullable(z.number()),
  }),
  z.object({ type: z.literal('session.resuming'), ...sessionBase, launch: LaunchKind }),
  z.object({ type: z.literal('session.resumed'), ...sessionBase, launch: LaunchKind }),
  z.object({ type: z.literal('session.attention'), ...sessionBase, reason: z.string(), message: z.string() }),
  /**
   * The agent hit its usage limit: the session waits for `plan.resumeAt`, then resumes once (DESIGN.md
   * §4). `new` once per limit; `refined` when a later source named its reset time; `restored` when Mori
   * started with the limit pending.
   */
  z.object({ type: z.literal('session.limited'), ...sessionBase, plan: UsageLimitPlan, news: z.enum(['new', 'refined', 'restored']) }),
  z.object({ type: z.literal('session.stopped'), ...sessionBase, by: z.enum(['user', 'supervisor']) }),
  /** The person removed the session: unregistered, its agent stopped; its state dir deleted only when asked. */
  z.object({ type: z.literal('session.removed'), ...sessionBase, stateDeleted: z.boolean() }),
  /**
   * A registered session the supervisor had not loaded is loaded now (a `mori init` or the window's new
   * session while it runs): listed, with Start offered; nothing was started.
   */
  z.object({ type: z.literal('session.registered'), ...sessionBase }),
  /** The person renamed the session (`name` is the new one); its id is the same. */
  z.object({ type: z.literal('session.renamed'), ...sessionBase, from: z.string() }),
  /** The agent's record says its permission mode changed (auto, default, bypass…: its profile's words); the window's header shows it. */
  z.object({ type: z.literal('session.permissionMode'), ...sessionBase, mode: z.string().check(z.maxLength(32)) }),
  /** The session was handed from one agent profile to another (`reason` in the person's words); same id, same state. */
  z.object({ type: z.literal('session.handedOff'), ...sessionBase, from: ProfileName, to: ProfileName, reason: z.string() }),
  // The conversation crossed the context share the person set (0–1 both), once per crossing (context-watch.ts).
  z.object({ type: z.literal('session.contextOver'), ...sessionBase, share: z.number(), warn: z.number(), model: z.nullable(z.string()) }),
  /** The daemon began or stopped keeping the machine from idle sleep (settings `keepAwake`); `working`: the sessions at work then. */
  z.object({ type: z.literal('keep-awake'), at: z.number(), holding: z.boolean(), working: z.int().check(z.nonnegative()) }),
  z.object({ type: z.literal('power.suspend'), ...SuspendEvent.shape }),
  z.object({ type: z.literal('power.resume'), ...ResumeEvent.shape }),
  z.object({ type: z.literal('network.offline'), ...NetworkOfflineEvent.shape }),
  z.object({ type: z.literal('network.online'), ...NetworkOnlineEvent.shape }),
  z.object({ type: z.literal('verify.started'), ...sessionBase }),
  z.object({ type: z.literal('verify.finished'), ...sessionBase, ok: z.boolean(), summary: z.string() }),
  z.object({
    type: z.literal('checkpoint.written'),
    ...sessionBase,
    gitHead: z.nullable(z.string()),
    changedFiles: z.int(),
    /** Whether anything differed from the previous checkpoint (a work-log entry was written). */
    changed: z.boolean(),
  }),
]));
export type SupervisorEvent = z.infer<typeof SupervisorEvent>;
export type SupervisorEventType = SupervisorEvent['type'];
/** The event of one type, e.g. `EventOf<'session.activity'>`. */
export type EventOf<T extends SupervisorEventType> = Extract<SupervisorEvent, { type: T }>;
