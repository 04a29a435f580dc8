// How long ago something happened, in the few words the sessions list shows ("4 min ago"). Pure.
// Runs in the renderer.

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
