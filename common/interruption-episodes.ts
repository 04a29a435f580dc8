// A session's interruption episodes (DESIGN.md §13): an episode runs from an interruption until it is
// resolved — resumed and running again, or given up (Mori stopped restarting it, or the person
// stopped or removed it). An interruption, or Mori giving up, within a minute of the resume (a crash
// loop's agent comes back for a moment before it crashes again) continues the episode. Everything in between (a crash loop's restarts, its "resumed" each time)
// belongs to the one episode, so the window's notices and the app's notifications say its outcome
// once. Fed one event at a time, from the daemon's history or live: the same answer either way.
// Pure TypeScript, shared by the renderer and the Electron main process.
import type { InterruptReason } from './session.js';
import type { DaemonEvent } from './ipc.js';
import { RESTART_DEFAULTS } from './restart-defaults.js';

export type EpisodeOutcome = 'resumed' | 'gave-up' | 'stopped';

export interface Episode {
  sessionId: string;
  name: string;
  /** When the first interruption came. */
  startedAt: number;
  /** Why it was first interrupted: what the outcome's words are about ("after sleep"). */
  reason: InterruptReason;
  /** How many times it was resumed during the episode. */
  resumes: number;
  /** When it was last resumed, null while it has not been since its last interruption. */
  resumedAt: number | null;
  /** When it was resumed last, while an interruption would still continue it; null while open. */
  settledAt: number | null;
  /** How many times it came back (the first time is the outcome's news). */
  recoveries: number;
}

/** An interruption this soon after the agent came back continues the episode: the restart policy's uptime that counts as recovered. */
export const SETTLE_MS = RESTART_DEFAULTS.resetAfterUptimeMs;

export type EpisodeChange =
  | { kind: 'opened' | 'updated'; episode: Episode }
  /** `reason` and `message`: the attention's, when Mori gave up. */
  | { kind: 'closed'; episode: Episode; outcome: EpisodeOutcome; at: number; reason?: string; message: string };

/** Per session: its open episode, or its last one while it settles (an interruption within SETTLE_MS continues it). */
export type OpenEpisodes = ReadonlyMap<string, Episode>;

/** The open episodes after one event, and what the event did to an episode (null: nothing). */
export function stepEpisodes(open: OpenEpisodes, e: DaemonEvent): { open: OpenEpisodes; change: EpisodeChange | null } {
  if (!('sessionId' in e)) return { open, change: null };
  const known = open.get(e.sessionId);
  // A settled episode only waits for an interruption that continues it.
  const settled = known?.settledAt != null;
  const current = settled ? undefined : known;
  /** The settled episode an interruption or Mori giving up now continues. */
  const recent = known && settled && e.at - (known.settledAt as number) <= SETTLE_MS ? known : undefined;
  const put = (episode: Episode, kind: 'opened' | 'updated'): { open: OpenEpisodes; change: EpisodeChange } => ({
    open: new Map(open).set(episode.sessionId, episode),
    change: { kind, episode },
  });
  // Closed as resumed, but kept a while: an interruption soon after continues it.
  const settle = (episode: Episode): { open: OpenEpisodes; change: EpisodeChange } => ({
    open: new Map(open).set(episode.sessionId, episode),
    change: { kind: 'closed', episode, outcome: 'resumed', at: e.at, message: '' },
  });
  const close = (episode: Episode, outcome: EpisodeOutcome, message = '', reason?: string): { open: OpenEpisodes; change: EpisodeChange } => {
    const rest = new Map(open);
    rest.delete(e.sessionId);
    return { open: rest, change: { kind: 'closed', episode, outcome, at: e.at, message, ...(reason !== undefined ? { reason } : {}) } };
  };
  switch (e.type) {
    case 'session.interrupted':
      if (recent) return put({ ...recent, name: e.name, resumedAt: null, settledAt: null }, 'updated');
      if (!current) return put({ sessionId: e.sessionId, name: e.name, startedAt: e.at, reason: e.reason, resumes: 0, resumedAt: null, settledAt: null, recoveries: 0 }, 'opened');
      return put({ ...current, name: e.name, resumedAt: null }, 'updated');
    case 'session.resumed':
      return current ? settle({ ...current, name: e.name, resumes: current.resumes + 1, resumedAt: e.at, settledAt: e.at, recoveries: current.recoveries + 1 }) : { open, change: null };
    case 'session.attention': {
      // The last crash of a loop comes straight after the agent was at its prompt, with no interruption between.
      const ending = current ?? recent;
      return ending ? close(ending, 'gave-up', e.message, e.reason) : { open, change: null };
    }
    case 'session.stopped':
    case 'session.removed':
      if (current) return close(current, 'stopped');
      return known ? { open: new Map([...open].filter(([id]) => id !== e.sessionId)), change: null } : { open, change: null };
    case 'session.renamed':
      return known ? { open: new Map(open).set(e.sessionId, { ...known, name: e.name }), change: null } : { open, change: null };
    default:
      return { open, change: null };
  }
}
