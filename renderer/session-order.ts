// How the sessions list reads (DESIGN.md §13): one word per session for what it is doing, and the
// order that puts what needs the person first. Pure functions of SessionInfo. Runs in the renderer
// (and in unit tests).
import type { SessionInfo } from '../common/ipc.js';

export type DisplayState =
  | 'needs input'
  | 'error'
  | 'attention'
  | 'interrupted'
  | 'verifying'
  | 'working'
  | 'waiting'
  | 'running'
  | 'starting'
  | 'stopped'
  | 'finished';

/** The one word the list and the header show: the agent's activity while it runs, else the lifecycle. */
export function displayState(s: Pick<SessionInfo, 'state' | 'activity'>): DisplayState {
  switch (s.state) {
    case 'running':
      if (s.activity === 'needs-input') return 'needs input';
      if (s.activity === 'error') return 'error';
      if (s.activity === 'working') return 'working';
      if (s.activity === 'waiting') return 'waiting';
      return 'running';
    case 'attention':
      return 'attention';
    case 'interrupted':
    case 'backoff':
    case 'resuming':
      return 'interrupted';
    case 'verifying':
      return 'verifying';
    case 'idle':
    case 'starting':
      return 'starting';
    case 'stopped':
      return 'stopped';
    case 'finished':
      return 'finished';
  }
}

/** Lower first: the person is needed, then something is wrong, then busy, then quiet. */
const RANK: Record<DisplayState, number> = {
  'needs input': 0,
  attention: 1,
  error: 2,
  interrupted: 3,
  verifying: 4,
  waiting: 5,
  working: 6,
  running: 7,
  starting: 8,
  stopped: 9,
  finished: 10,
};

/** Whether the state asks for the person (the list marks these, the tray would too). */
export const needsPerson = (d: DisplayState): boolean => RANK[d] <= RANK.error;

/** Sessions in the order the list shows them: by need, failing checks first within a rank, then by name. */
export function orderSessions<T extends Pick<SessionInfo, 'state' | 'activity' | 'name'> & { failingChecks?: number | undefined }>(sessions: readonly T[]): T[] {
  return [...sessions].sort((a, b) => {
    const r = RANK[displayState(a)] - RANK[displayState(b)];
    if (r !== 0) return r;
    const f = (b.failingChecks ?? 0) - (a.failingChecks ?? 0);
    if (f !== 0) return f;
    return a.name.localeCompare(b.name);
  });
}

/** "just now", "4 min ago", "3 h ago", "2 d ago": the list's last-activity column. */
export function ago(thenMs: number, nowMs: number): string {
  const s = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} d ago`;
}
