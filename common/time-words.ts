// A moment in words, the same in the window and the `mori` command: how long ago ("4 min ago"), and
// the local date and time beside it ("2026-12-06 07:46", on hover in the window, before it in a
// terminal). Pure: runs in the renderer and the CLI.

/** "just now", "4 min ago", "3 h ago", "2 d ago": the list's last-activity column. */
export function ago(thenMs: number, nowMs: number): string {
  // Under 45 s rounds to "just now": a count of seconds would change on every redraw.
  const s = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  // Hours up to two days: "30 h ago" reads better than "1 d ago" for yesterday afternoon.
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} d ago`;
}

/** The local date and minute, "2026-12-06 07:46": sortable, and the same in every locale's terminal. */
export function localStamp(ms: number): string {
  const d = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * A terminal's way of saying a moment: "2026-12-06 07:46, 4 min ago" (a comma, not brackets: it is
 * often said inside brackets already); a text that is not a time stays as given.
 */
export function momentText(at: string | number, nowMs: number): string {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  return Number.isFinite(ms) ? `${localStamp(ms)}, ${ago(ms, nowMs)}` : String(at);
}
