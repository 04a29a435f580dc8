// The app's session rows kept current (DESIGN.md §13): a `list` answer replaces what each row says of
// its state and activity, and each daemon event adds what `list` does not carry (the attention
// reason, the last verification, why it was interrupted). Pure TypeScript; the rows are the
// caller's map, changed in place.
import type { DaemonEvent, LiveSession } from './ipc.js';
import type { WatchedSession } from './session-view.js';

/** Folds one event into the row it concerns (the next `list` brings state and activity). */
export function foldEvent(rows: Map<string, WatchedSession>, e: DaemonEvent): void {
  if (!('sessionId' in e)) return;
  const row = rows.get(e.sessionId);
  if (!row) return;
  switch (e.type) {
    case 'session.attention':
      row.attention = { reason: e.reason, message: e.message };
      row.info = { ...row.info, state: 'attention' };
      break;
    case 'session.limited':
      row.info = { ...row.info, state: 'limited', usageLimit: e.plan };
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
    case 'session.handedOff':
      row.info = { ...row.info, profile: e.to };
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

/** Applies a `list` answer: sessions gone are dropped, known ones take the new info, new ones get a row. */
export function applyList(rows: Map<string, WatchedSession>, list: readonly LiveSession[]): void {
  const ids = new Set(list.map((s) => s.id));
  for (const id of [...rows.keys()]) if (!ids.has(id)) rows.delete(id);
  for (const info of list) {
    const row = rows.get(info.id);
    if (row) {
      row.info = info;
      if (info.state !== 'attention') row.attention = null;
      else row.attention ??= info.attention ?? null;
    } else rows.set(info.id, { info, attention: info.attention ?? null, verify: null, interrupted: info.intent.kind === 'interrupted' ? info.intent.reason : null });
  }
}
