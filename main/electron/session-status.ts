// What one session looks like to the person, decided from what the daemon says about it: its
// lifecycle state and activity (`list`), the last attention reason and the last verification
// (events). Shared by the tray, the notifications and their tests. Pure: runs in the Electron main
// process, imports no Electron.
import type { DaemonEvent, SessionInfo } from '../../common/ipc.js';

/** What the daemon has said about one session, folded from `list` and the event stream. */
export interface SessionRow {
  info: SessionInfo;
  /** The last `session.attention`, while the session is in `attention`. */
  attention: { reason: string; message: string } | null;
  /** The last finished verification; cleared when a new one starts. */
  verify: { ok: boolean; summary: string } | null;
  /** Why it was last interrupted (sleep, network, crash…), kept until it is resumed. */
  interrupted: string | null;
}

/** Worst first: the tray icon shows the worst level of all sessions (DESIGN.md §13). */
export const LEVELS = ['failing', 'needs-you', 'working', 'ok'] as const;
export type Level = (typeof LEVELS)[number];

export interface SessionStatus {
  level: Level;
  /** A few words: "needs input", "crash loop", "verification failed", "working"… */
  words: string;
  /** Set when the status is one the person is told about (a notification); equal keys are the same condition. */
  notable: 'needs-input' | 'crash-loop' | 'verify-failed' | 'attention' | 'usage-limit' | null;
}

export function sessionStatus(row: SessionRow): SessionStatus {
  const { info } = row;
  if (info.state === 'attention') {
    const reason = row.attention?.reason ?? (info.intent.kind === 'attention' ? info.intent.reason : 'attention');
    if (reason === 'crash-loop') return { level: 'failing', words: 'crash loop', notable: 'crash-loop' };
    if (reason === 'usage-limit') return { level: 'needs-you', words: 'usage limit', notable: 'usage-limit' };
    return { level: 'needs-you', words: `needs you: ${reason}`, notable: 'attention' };
  }
  if (row.verify && !row.verify.ok && info.state !== 'stopped' && info.state !== 'finished') {
    return { level: 'failing', words: 'verification failed', notable: 'verify-failed' };
  }
  switch (info.state) {
    case 'running':
      if (info.activity === 'needs-input') return { level: 'needs-you', words: 'needs input', notable: 'needs-input' };
      if (info.activity === 'error') return { level: 'failing', words: 'error', notable: null };
      if (info.activity === 'working') return { level: 'working', words: 'working', notable: null };
      return { level: 'ok', words: info.activity === 'waiting' ? 'waiting' : 'running', notable: null };
    case 'starting':
    case 'resuming':
    case 'verifying':
      return { level: 'working', words: info.state, notable: null };
    case 'backoff':
    case 'interrupted':
      return { level: 'working', words: row.interrupted ? `interrupted (${row.interrupted})` : info.state, notable: null };
    default:
      return { level: 'ok', words: info.state, notable: null };
  }
}

export function worstLevel(levels: readonly Level[]): Level {
  let worst: Level = 'ok';
  for (const l of levels) if (LEVELS.indexOf(l) < LEVELS.indexOf(worst)) worst = l;
  return worst;
}

/** Folds one event into the rows it concerns (the `list` refresh brings state and activity). */
export function foldEvent(rows: Map<string, SessionRow>, e: DaemonEvent): void {
  if (!('sessionId' in e)) return;
  const row = rows.get(e.sessionId);
  if (!row) return;
  switch (e.type) {
    case 'session.attention':
      row.attention = { reason: e.reason, message: e.message };
      row.info = { ...row.info, state: 'attention' };
      break;
    case 'session.activity':
      row.info = { ...row.info, activity: e.to };
      break;
    case 'session.interrupted':
      row.interrupted = e.reason;
      break;
    case 'session.started':
    case 'session.resumed':
      row.attention = null;
      row.interrupted = null;
      break;
    case 'session.stopped':
      row.attention = null;
      row.verify = null;
      break;
    case 'verify.started':
      row.verify = null;
      break;
    case 'verify.finished':
      row.verify = { ok: e.ok, summary: e.summary };
      break;
    default:
      break;
  }
}
