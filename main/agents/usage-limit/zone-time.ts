// Wall-clock maths for reset times: a wall time read in a zone (an IANA name through Intl, or a
// fixed offset such as "PDT" or "GMT+5:30") turned into epoch ms, and "the next such time after
// now". Pure; no date library, Intl's zone data is the only source of rules.

/** A zone a reset time is read in: an IANA name, or a fixed offset from UTC in minutes. */
export type ResetZone = { kind: 'iana'; name: string } | { kind: 'fixed'; offsetMinutes: number };

const HOUR_MS = 3_600_000;

/**
 * Zone abbreviations the CLIs print (Gemini CLI formats with `timeZoneName: 'short'`, which gives an
 * abbreviation for US zones and UTC, and "GMT+1"-style offsets elsewhere) mapped to fixed offsets in
 * minutes. Ambiguous ones take the reading en-US Intl itself prints: CST is US Central (not China),
 * IST is India (Intl prints Irish summer time as "GMT+1"), BST is British Summer Time.
 */
export const ZONE_ABBREVIATIONS: Readonly<Record<string, number>> = {
  UTC: 0, GMT: 0, Z: 0, WET: 0, WEST: 60, BST: 60,
  CET: 60, CEST: 120, MET: 60, MEST: 120, EET: 120, EEST: 180, MSK: 180,
  IST: 330, PKT: 300, SGT: 480, HKT: 480, AWST: 480, JST: 540, KST: 540,
  ACST: 570, ACDT: 630, AEST: 600, AEDT: 660, NZST: 720, NZDT: 780,
  HST: -600, AKST: -540, AKDT: -480, PST: -480, PDT: -420, MST: -420, MDT: -360,
  CST: -360, CDT: -300, EST: -300, EDT: -240, AST: -240, ADT: -180, NST: -210, NDT: -150,
};

/** Whether Intl knows this IANA zone name. */
export function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Intl formatters are costly to build; one per zone is kept (zones come from a small closed set per machine). */
const formatters = new Map<string, Intl.DateTimeFormat>();
/** More distinct zones than any real screen names; a hostile stream of names cannot grow the cache past it. */
const MAX_FORMATTERS = 64;

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f !== undefined) return f;
  f = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  });
  if (formatters.size >= MAX_FORMATTERS) formatters.clear();
  formatters.set(zone, f);
  return f;
}

/** The offset of `zone` from UTC at the instant `utcMs`, in ms. */
export function zoneOffsetMs(utcMs: number, zone: ResetZone): number {
  if (zone.kind === 'fixed') return zone.offsetMinutes * 60_000;
  const parts = formatterFor(zone.name).formatToParts(new Date(utcMs));
  const n = (t: string): number => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - Math.floor(utcMs / 1000) * 1000;
}

export interface WallTime { year: number; month: number; day: number; hour: number; minute: number }

/**
 * Epoch ms of a wall time in `zone`. A wall time read twice (the fall-back overlap) gives the later
 * instant and one that never happens (the spring-forward gap) the instant after the jump, so a
 * resume planned from it never comes before the reset.
 */
export function zonedWallTimeToEpoch(wall: WallTime, zone: ResetZone | string): number {
  const z: ResetZone = typeof zone === 'string' ? { kind: 'iana', name: zone } : zone;
  const naive = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  // 12 h either side lies outside any one DST change yet inside the same day's pair of offsets.
  const before = naive - zoneOffsetMs(naive - 12 * HOUR_MS, z);
  const after = naive - zoneOffsetMs(naive + 12 * HOUR_MS, z);
  const valid = [before, after].filter((t) => t + zoneOffsetMs(t, z) === naive);
  return valid.length > 0 ? Math.max(...valid) : Math.max(before, after);
}

/** The date a wall clock in `zone` shows at `utcMs`. */
export function zonedDate(utcMs: number, zone: ResetZone): { year: number; month: number; day: number } {
  const d = new Date(utcMs + zoneOffsetMs(utcMs, zone));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/**
 * How long after a printed reset time it is still read as that time rather than the next day's:
 * a limit line read a few minutes after it was printed names a reset that has just passed, and
 * tomorrow's would strand the agent a day. Claude Code prints a date for any reset over 24 h out,
 * so a bare clock time is never a day away.
 */
export const PASSED_GRACE_MS = 15 * 60_000;

/** The next time (or one passed within the grace) that a clock in `zone` reads hour:minute. */
export function nextWallTime(hour: number, minute: number, zone: ResetZone, nowMs: number): number {
  const today = zonedDate(nowMs, zone);
  let at = nowMs;
  // Days are counted on the calendar, not as 24 h: a spring-forward day is 23 h long.
  for (let k = 0; k <= 2; k++) {
    const d = new Date(Date.UTC(today.year, today.month - 1, today.day + k));
    at = zonedWallTimeToEpoch({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour, minute }, zone);
    if (at > nowMs - PASSED_GRACE_MS) return at;
  }
  return at;
}

/** The next month/day at hour:minute in `zone` when the year is not printed: this year's, else next year's. */
export function nextDateTime(month: number, day: number, hour: number, minute: number, zone: ResetZone, nowMs: number): number | null {
  const year = zonedDate(nowMs, zone).year;
  for (const y of [year, year + 1]) {
    if (!isRealDate(y, month, day)) continue;
    const at = zonedWallTimeToEpoch({ year: y, month, day, hour, minute }, zone);
    if (at > nowMs - PASSED_GRACE_MS) return at;
  }
  return null;
}

/** Whether year-month-day names a day on the calendar (Feb 30 does not). */
export function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
}
