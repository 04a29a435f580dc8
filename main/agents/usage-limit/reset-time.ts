// Reads when an agent's usage limit resets from the words it prints ("resets 12:50am
// (America/Los_Angeles)", "…|1749924000"): a wall time in a named zone (or the machine's own) turned
// into epoch ms, the next such time after now. Pure.

/** The offset of `zone` from UTC at the instant `utcMs`, in ms (what Intl says the wall clock reads there). */
function zoneOffsetMs(utcMs: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(utcMs));
  const n = (t: string): number => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - Math.floor(utcMs / 1000) * 1000;
}

/** Epoch ms of a wall time in `zone`; in a DST gap the later reading, in an overlap the earlier. */
export function zonedWallTimeToEpoch(wall: { year: number; month: number; day: number; hour: number; minute: number }, zone: string): number {
  const naive = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const first = naive - zoneOffsetMs(naive, zone);
  return naive - zoneOffsetMs(first, zone);
}

/** Whether Intl knows this IANA zone name. */
export function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The date a wall clock in `zone` shows at `utcMs`. */
function zonedDate(utcMs: number, zone: string): { year: number; month: number; day: number } {
  const d = new Date(utcMs + zoneOffsetMs(utcMs, zone));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** The next time after `nowMs` that a clock in `zone` reads hour:minute (today's, else tomorrow's). */
export function nextWallTime(hour: number, minute: number, zone: string, nowMs: number): number {
  const today = zonedDate(nowMs, zone);
  const at = zonedWallTimeToEpoch({ ...today, hour, minute }, zone);
  if (at > nowMs) return at;
  const tomorrow = zonedDate(nowMs + 24 * 3_600_000, zone);
  return zonedWallTimeToEpoch({ ...tomorrow, hour, minute }, zone);
}

/** `12:50am`, `3pm`, `3:42 PM` → 24-hour clock; null when it is not a time. */
export function parseClock(text: string): { hour: number; minute: number } | null {
  const m = /^(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?$/i.exec(text.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const minute = m[2] !== undefined ? Number(m[2]) : 0;
  if (h < 1 || h > 12 || minute > 59) return null;
  const pm = m[3]?.toLowerCase() === 'p';
  return { hour: (h % 12) + (pm ? 12 : 0), minute };
}

/**
 * The reset time in `text` as epoch ms, or null when it names none this reader knows.
 * `localZone` is the machine's zone (times printed without one are local).
 */
export function parseResetTime(text: string, nowMs: number, localZone: string): number | null {
  // Older Claude Code: "Claude AI usage limit reached|1749924000" (epoch seconds).
  const epoch = /usage limit reached\|(\d{9,11})\b/i.exec(text);
  if (epoch) return Number(epoch[1]) * 1000;
  // Claude Code: "resets 12:50am (America/Los_Angeles)", "resets 3pm".
  const resets = /\bresets (?:at )?(\d{1,2}(?::\d{2})?\s*[ap]m)\b(?:\s*\(([A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*)\))?/i.exec(text);
  if (resets) {
    const clock = parseClock(resets[1] ?? '');
    const zone = resets[2] !== undefined && isKnownZone(resets[2]) ? resets[2] : localZone;
    if (clock) return nextWallTime(clock.hour, clock.minute, zone, nowMs);
  }
  return null;
}
