// Reads when an agent's usage limit resets from the words its CLI prints, turned into epoch ms.
// Pure. Every pattern is anchored or bounded, so a hostile line costs time linear in its length.
//
// Formats, with the release each was read from (strings in the installed bundles, older ones from
// reports of earlier releases):
// - Claude Code 2.1.332 (bin/claude.exe): `You've hit your ${limit} · resets ${when}` where `when` is
//   `12:50am (America/Los_Angeles)`, `3pm (UTC)`, `Jul 31, 2am (UTC)` (over 24 h out), with
//   `, 2027` after the day when the year differs; `Usage limit reached · resets at 3pm (…)`
//   (workflow pause). 2.1.197 named the five-hour window "session limit", 2.1.332 "5-hour limit".
// - Claude Code 1.0.x: `Claude AI usage limit reached|1749924000` (epoch seconds) and
//   `Claude usage limit reached. Your limit will reset at 5pm (America/New_York).`
// - Codex 0.171.0 (native binary strings): `… or try again at ` + `%-I:%M %p` (`3:42 PM`, local) or
//   `%b %-d<ordinal>, %Y %-I:%M %p` (`Mar 10th, 2026 3:39 AM`); `Try again later.` has no time.
//   Codex 0.27–0.40: `… or try again in 5 days 22 hours 11 minutes.`
// - Gemini CLI 0.61.0: `Access resets at ${time}.`, time from Intl `{hour, minute: '2-digit',
//   timeZoneName: 'short'}` (`3:45 PM PDT`, `3:45 PM GMT+2`, `3:45 PM GMT+5:30`, `3:45 PM UTC`);
//   API errors it relays carry `Please retry in 23.5s`.
// - Qwen Code 0.24.4 relays the provider's own words (`Quota exhausted: … will reset at ${when}`);
//   a machine-made `when` is ISO 8601 (`2026-12-06T11:21:25.934Z`, `2026-12-06 11:21:25+08:00`).
// - OpenCode 1.18.33: `Usage limit reached. It will reset in ${d}` with d `2 days 3 hours`,
//   `4 hours 12 minutes`, `37 minutes` or `less than a minute`.
import { isKnownZone, nextDateTime, nextWallTime, ZONE_ABBREVIATIONS, zonedWallTimeToEpoch, isRealDate, type ResetZone } from './zone-time.js';

export { isKnownZone, zonedWallTimeToEpoch } from './zone-time.js';

/** Longest text read for a reset time: every CLI's limit message is under 400 characters; the rest of a longer line is not one. */
const MAX_SCAN = 4096;
/** Anchors ("resets", "try again", …) tried per text: a real message has one or two; more is noise or an attack. */
const MAX_ANCHORS = 32;
/** Characters after an anchor that can hold its time ("at Mar 10th, 2026 3:39 AM (America/Argentina/Buenos_Aires)"). */
const TAIL = 120;
/** Duration parts read after "in": days, hours, minutes, seconds and a spare. */
const MAX_DURATION_PARTS = 6;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** `12:50am`, `3pm`, `3:42 PM`, `15:42` → 24-hour clock; null when it is not a time. */
export function parseClock(text: string): { hour: number; minute: number } | null {
  const t = text.replace(/[\u00a0\u202f]/g, ' ').trim();
  const m = /^(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?$/i.exec(t);
  if (m) {
    const h = Number(m[1]);
    const minute = m[2] !== undefined ? Number(m[2]) : 0;
    if (h < 1 || h > 12 || minute > 59) return null;
    return { hour: (h % 12) + (m[3]?.toLowerCase() === 'p' ? 12 : 0), minute };
  }
  const h24 = /^(\d{1,2}):(\d{2})$/.exec(t);
  if (!h24) return null;
  const hour = Number(h24[1]);
  const minute = Number(h24[2]);
  return hour <= 23 && minute <= 59 ? { hour, minute } : null;
}

/** A zone the way a CLI names it: `America/New_York`, `UTC`, `PDT`, `GMT+5:30`; null when unknown. */
export function parseZone(name: string): ResetZone | null {
  const n = name.trim();
  const offset = /^(?:GMT|UTC)([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(n);
  if (offset) {
    const minutes = Number(offset[2]) * 60 + Number(offset[3] ?? 0);
    if (minutes > 14 * 60) return null; // No zone on Earth is more than 14 h from UTC.
    return { kind: 'fixed', offsetMinutes: offset[1] === '-' ? -minutes : minutes };
  }
  const abbr = ZONE_ABBREVIATIONS[n.toUpperCase()];
  if (/^[A-Za-z]{1,5}$/.test(n) && abbr !== undefined) return { kind: 'fixed', offsetMinutes: abbr };
  if (/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+){0,3}$/.test(n) && isKnownZone(n)) return { kind: 'iana', name: n };
  return null;
}

/** The zone written after a time (`(America/Los_Angeles)`, ` PDT`, ` GMT+2`), read from the start of `rest`. */
function zoneAfter(rest: string): ResetZone | null {
  const paren = /^\s*\(([^()\n]{1,64})\)/.exec(rest);
  if (paren) return parseZone(paren[1] ?? '');
  const word = /^\s+((?:GMT|UTC)[+-]\d{1,2}(?::?\d{2})?|[A-Z]{2,5})(?![A-Za-z0-9])/.exec(rest);
  return word ? parseZone(word[1] ?? '') : null;
}

/** `5 days 22 hours 11 minutes`, `2h30m`, `23.5s`, `less than a minute` → ms; null when none. */
export function parseDuration(text: string): number | null {
  if (/^\s*less than a minute/i.test(text)) return 60_000;
  const part = /\s*(?:,\s*|and\s+)?(\d{1,6}(?:\.\d{1,3})?)\s*(days?|d|hours?|hrs?|h|ms|minutes?|mins?|m|seconds?|secs?|s)(?![a-z])/iy;
  let total = 0;
  let parts = 0;
  while (parts < MAX_DURATION_PARTS) {
    const m = part.exec(text);
    if (!m) break;
    parts++;
    const n = Number(m[1]);
    const unit = (m[2] ?? '').toLowerCase();
    if (unit === 'ms') total += n;
    else if (unit.startsWith('d')) total += n * 86_400_000;
    else if (unit.startsWith('h')) total += n * 3_600_000;
    else if (unit.startsWith('m')) total += n * 60_000;
    else total += n * 1000;
  }
  return parts > 0 ? Math.round(total) : null;
}

/** A date and/or time at the start of `tail` (what follows "resets"/"at"), as epoch ms. */
function parseWhen(tail: string, nowMs: number, localZone: ResetZone): number | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?(?![0-9A-Za-z])/i.exec(tail);
  if (iso) {
    const [year, month, day, hour, minute, second] = [iso[1], iso[2], iso[3], iso[4], iso[5], iso[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
    if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
    const offset = iso[7];
    if (offset === undefined) return zonedWallTimeToEpoch({ year, month, day, hour, minute }, localZone) + second * 1000;
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = offset.replace(/[^0-9]/g, '');
    const offsetMinutes = offset.toUpperCase() === 'Z' ? 0 : sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
    return Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000;
  }
  const clockRe = String.raw`(\d{1,2}(?::\d{2})?\s?[ap]\.?m\.?|\d{1,2}:\d{2})(?![0-9A-Za-z])`;
  const dated = new RegExp(String.raw`^([A-Za-z]{3})[a-z]{0,6}\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(?:(\d{4}),?\s+)?(?:at\s+)?` + clockRe, 'i').exec(tail);
  if (dated) {
    const month = MONTHS.indexOf((dated[1] ?? '').toLowerCase()) + 1;
    const day = Number(dated[2]);
    const clock = parseClock(dated[4] ?? '');
    if (month === 0 || clock === null) return null;
    const zone = zoneAfter(tail.slice(dated[0].length)) ?? localZone;
    if (dated[3] === undefined) return nextDateTime(month, day, clock.hour, clock.minute, zone, nowMs);
    const year = Number(dated[3]);
    if (!isRealDate(year, month, day)) return null;
    return zonedWallTimeToEpoch({ year, month, day, hour: clock.hour, minute: clock.minute }, zone);
  }
  const timed = new RegExp('^' + clockRe, 'i').exec(tail);
  if (!timed) return null;
  const clock = parseClock(timed[1] ?? '');
  if (clock === null) return null;
  const zone = zoneAfter(tail.slice(timed[0].length)) ?? localZone;
  return nextWallTime(clock.hour, clock.minute, zone, nowMs);
}

/**
 * The reset time in `text` as epoch ms, or null when it names none this reader knows.
 * `localZone` is the machine's IANA zone (times printed without one are local); `nowMs` is when the
 * text was printed, so a bare clock time is the next one after it.
 */
export function parseResetTime(text: string, nowMs: number, localZone: string): number | null {
  const s = (text.length > MAX_SCAN ? text.slice(0, MAX_SCAN) : text).replace(/[\u00a0\u202f]/g, ' ');
  const epoch = /usage limit reached\|(\d{9,11})(?!\d)/i.exec(s);
  if (epoch) return Number(epoch[1]) * 1000;
  const local: ResetZone = isKnownZone(localZone) ? { kind: 'iana', name: localZone } : { kind: 'fixed', offsetMinutes: 0 };
  const anchor = /\b(?:resets?|try again|retry)\s+(?:(at|in|after)\s+)?/gi;
  for (let i = 0; i < MAX_ANCHORS; i++) {
    const m = anchor.exec(s);
    if (!m) break;
    const tail = s.slice(anchor.lastIndex, anchor.lastIndex + TAIL);
    const word = m[1]?.toLowerCase();
    if (word === 'in' || word === 'after') {
      const ms = parseDuration(tail);
      if (ms !== null) return nowMs + ms;
      continue;
    }
    const at = parseWhen(tail, nowMs, local);
    if (at !== null) return at;
  }
  return null;
}
