// Which way a relaunch takes up the agent's conversation (DESIGN.md §5, "Resume policy"): by the
// agent's own id, which reloads the whole conversation, or fresh, a new conversation given the full
// resume prompt. `auto` goes by id while the conversation's last known context is under a share of
// the model's window, fresh past it; a context nobody measured goes by id. Whether the id can be
// resumed at all (captured, its record on disk, not failed before) stays planRelaunch's. Pure; runs
// in the supervisor's process.
import type { ProfileName, ResumeMode, SessionRecord } from '../../../common/session.js';

/** The conversation's size as the agent's own record last showed it. */
export interface ContextUsage {
  /** Tokens the last request carried (input, cache reads and writes). */
  lastContextTokens: number;
  /** The model's context window; undefined when the model is not known. */
  contextWindow: number | undefined;
}

/** What a relaunch asks about a session's conversation. */
export interface ContextQuery {
  profile: ProfileName;
  agentSessionId: string;
  /** Where the agent ran (claude keys its transcripts by it). */
  cwd: string;
  stateDir: string;
}

/** Reads a conversation's last context; undefined when unknown. The supervisor takes one in its options. */
export interface ContextUsageSource {
  lastContext(q: ContextQuery): Promise<ContextUsage | undefined>;
}

/** Knows no conversation's size: `auto` then resumes by id whenever the record exists. */
export const NO_CONTEXT_USAGE: ContextUsageSource = { lastContext: () => Promise.resolve(undefined) };

/** The daemon's defaults (settings.json `resume`). */
export interface ResumeDefaults {
  mode: ResumeMode;
  /** `auto` goes fresh at this share of the window and above. */
  contextSharePercent: number;
}

/** settings.json's defaults, for a supervisor given none. */
export const DEFAULT_RESUME: ResumeDefaults = { mode: 'auto', contextSharePercent: 60 };

export type ResumeChoice = { kind: 'by-id' | 'fresh'; why: string };

export function chooseResume(mode: ResumeMode, sharePercent: number, context: ContextUsage | undefined): ResumeChoice {
  if (mode === 'fresh') return { kind: 'fresh', why: 'the session resumes fresh' };
  if (mode === 'by-id') return { kind: 'by-id', why: 'the session resumes by id' };
  if (context === undefined) return { kind: 'by-id', why: "the conversation's size is not known" };
  const held = `the conversation held ${formatTokens(context.lastContextTokens)} tokens`;
  const window = context.contextWindow;
  if (window === undefined || window <= 0) return { kind: 'by-id', why: `${held}, the model's window is not known` };
  const percent = Math.round((context.lastContextTokens / window) * 100);
  const words = `${held} (${percent} % of ${formatTokens(window)})`;
  return context.lastContextTokens >= (window * sharePercent) / 100 ? { kind: 'fresh', why: words } : { kind: 'by-id', why: words };
}

/** The session's own mode, else the daemon's. */
export function resumeModeOf(session: Pick<SessionRecord, 'resume'>, defaults: ResumeDefaults): ResumeMode {
  return session.resume ?? defaults.mode;
}

/** 151234 → `151k`, 1048576 → `1.0M`, 950 → `950`. */
export function formatTokens(n: number): string {
  if (n < 1_000) return String(Math.round(n));
  if (n < 1_000_000) return `${Math.round(n / 1_000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}
