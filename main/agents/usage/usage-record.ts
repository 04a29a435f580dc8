// What an agent's own record says one API request used (DESIGN.md §5 "Usage"), and the capability a
// profile declares to have its records read: where a session's record is and a parser of its lines,
// or a store all its sessions share that hands over a session's requests. Types only. Imported by
// the agents' folders and the usage readers (daemon process).
import type { AgentFileError } from '../../os/agent-file.js';
import type { AgentSessionRef, Env } from '../profile.js';

/** One API request's tokens, as its agent recorded them. The four counts do not overlap. */
export interface UsageRecord {
  /** When the request was answered (epoch ms), from the record; NaN when it has no time. */
  atMs: number;
  /** The model that answered, as the agent names it; null when unknown. */
  model: string | null;
  /** Input tokens neither read from nor written to the prompt cache. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** The request's prompt size (all its input tokens): the context the conversation held then. */
  contextTokens: number;
  /** The model's context window when the record states it (codex), else null. */
  contextWindow: number | null;
  /** The provider whose prices apply, when the record names one per request (opencode); else the source's. */
  provider?: string;
  /** Made by a subagent in a session of its own under this one (opencode): counted, but not this conversation's context. */
  subagent?: boolean;
}

/** Reads one record's lines in order; holds what it must remember between lines (dedup keys, the model). */
export interface UsageLineParser {
  line(text: string): UsageRecord | null;
}

/** A record of its own per session, appended to: the file it is in, and how its lines are read (incrementally). */
export interface RecordUsageSource {
  /** The provider whose prices apply (`anthropic`, `openai`, `google`: @pydantic/genai-prices' ids). */
  provider: string;
  file(ref: AgentSessionRef, env: Env): Promise<string | null>;
  /** Text every line the parser takes holds (a line with none is skipped undecoded: most of a record). */
  needles: readonly string[];
  /** A parser for a record read from its start (again after the file was replaced). */
  parser(): UsageLineParser;
}

/** A store every session of the agent shares (opencode's database): a session's requests, all of them at each read. */
export interface StoreUsageSource {
  /** The provider whose prices apply to a request that names none. */
  provider: string;
  /**
   * The session's requests in order (the same array again while the store is unchanged); null when
   * the store does not hold the session yet; the refusal when a file of it was not read.
   */
  requests(ref: AgentSessionRef, env: Env): Promise<readonly UsageRecord[] | null | AgentFileError>;
}

/** A profile's usage capability. */
export type UsageSource = RecordUsageSource | StoreUsageSource;

/** A count from a record: a non-negative finite integer, else 0 (an agent-written file says anything). */
export function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}
