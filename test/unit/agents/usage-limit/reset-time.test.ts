// Reset times read from each CLI's limit wording (main/agents/usage-limit/reset-time.ts), every
// format in several zones, across DST changes and year ends, and against hostile text.
import { describe, expect, it } from 'vitest';
import { parseClock, parseDuration, parseResetTime, parseZone } from '../../../../main/agents/usage-limit/reset-time.js';
import { nextWallTime, zonedWallTimeToEpoch } from '../../../../main/agents/usage-limit/zone-time.js';

/**
 * The fastest of three runs, in ms: the machine is shared, so one run can be descheduled; a
 * super-linear reader is slow on every run and still fails.
 */
function fastestMs(run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const at = (s: string): number => Date.parse(s);

interface Row { cli: string; text: string; now: string; zone: string; want: string | null }

// Each row: the CLI and release the wording comes from, the text, when it was read, the machine's
// zone, and the instant it names.
const rows: Row[] = [
  // Claude Code 2.1.185–2.1.332: named zone, time today or tomorrow.
  { cli: 'claude 2.1.332', text: "You've hit your session limit · resets 12:50am (America/Los_Angeles)", now: '2026-07-15T12:00:00Z', zone: 'UTC', want: '2026-07-16T07:50:00.000Z' },
  { cli: 'claude 2.1.332', text: "You've hit your 5-hour limit · resets 8:30pm (Asia/Tokyo)", now: '2026-07-15T05:00:00Z', zone: 'Europe/Berlin', want: '2026-07-15T11:30:00.000Z' },
  { cli: 'claude 2.1.185', text: "You've hit your session limit · resets 11:20am (Europe/Budapest)", now: '2026-06-22T06:00:00Z', zone: 'America/New_York', want: '2026-06-22T09:20:00.000Z' },
  { cli: 'claude 2.1.30', text: "You've hit your limit · resets 10pm (America/New_York)", now: '2026-02-03T20:00:00Z', zone: 'UTC', want: '2026-02-04T03:00:00.000Z' },
  // Claude Code retry banner: no zone, the machine's own.
  { cli: 'claude 2.1.332', text: '5-hour limit reached ∙ resets 3pm', now: '2026-07-15T12:00:00Z', zone: 'America/Los_Angeles', want: '2026-07-15T22:00:00.000Z' },
  { cli: 'claude 2.1.332', text: '5-hour limit reached ∙ resets 3pm', now: '2026-07-15T12:00:00Z', zone: 'Asia/Kolkata', want: '2026-07-16T09:30:00.000Z' },
  { cli: 'claude 2.1.332', text: 'Usage limit reached · resets at 3pm (UTC). Workflow paused', now: '2026-07-15T12:00:00Z', zone: 'Asia/Tokyo', want: '2026-07-15T15:00:00.000Z' },
  // Claude Code: a date when over 24 h out, with the year only when it differs.
  { cli: 'claude 2.1.332', text: "You've hit your weekly limit · resets Jul 31, 2am (UTC)", now: '2026-07-15T12:00:00Z', zone: 'America/Chicago', want: '2026-07-31T02:00:00.000Z' },
  { cli: 'claude 2.1.332', text: "You've hit your weekly limit · resets Jul 31, 2am (America/Los_Angeles)", now: '2026-07-15T12:00:00Z', zone: 'UTC', want: '2026-07-31T09:00:00.000Z' },
  { cli: 'claude 2.1.332', text: "You've hit your weekly limit · resets Jan 1, 2am (UTC)", now: '2026-12-31T10:00:00Z', zone: 'UTC', want: '2027-01-01T02:00:00.000Z' },
  { cli: 'claude 2.1.332', text: "You've hit your Opus limit · resets Jan 1, 2027, 2:30am (Europe/Berlin)", now: '2026-12-28T10:00:00Z', zone: 'UTC', want: '2027-01-01T01:30:00.000Z' },
  // Claude Code 1.0.x.
  { cli: 'claude 1.0.24', text: 'Claude AI usage limit reached|1749924000', now: '2025-06-14T17:56:00Z', zone: 'UTC', want: '2025-06-14T18:00:00.000Z' },
  { cli: 'claude 1.0.58', text: 'Claude usage limit reached. Your limit will reset at 9am (America/Chicago).', now: '2025-12-22T02:00:00Z', zone: 'UTC', want: '2025-12-22T15:00:00.000Z' },
  { cli: 'claude 1.0.x', text: 'Your limit will reset at 5pm (America/New_York)', now: '2026-01-10T12:00:00Z', zone: 'Asia/Tokyo', want: '2026-01-10T22:00:00.000Z' },
  { cli: 'claude 1.0.24', text: 'Claude usage limit reached. Your limit will reset at 1pm (Etc/GMT+5).', now: '2025-06-14T12:00:00Z', zone: 'UTC', want: '2025-06-14T18:00:00.000Z' },
  // Codex 0.171.0: local time, no zone.
  { cli: 'codex 0.171.0', text: "■ You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), or try again at 3:42 PM.", now: '2026-07-15T12:00:00Z', zone: 'America/New_York', want: '2026-07-15T19:42:00.000Z' },
  { cli: 'codex 0.171.0', text: "■ You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), or try again at 3:42 PM.", now: '2026-07-15T12:00:00Z', zone: 'Europe/Berlin', want: '2026-07-15T13:42:00.000Z' },
  { cli: 'codex 0.171.0', text: "You've hit your usage limit. Upgrade to Plus to continue using Codex (https://chatgpt.com/explore/plus), or try again at Mar 10th, 2026 3:39 AM.", now: '2026-03-05T00:00:00Z', zone: 'America/Los_Angeles', want: '2026-03-10T10:39:00.000Z' },
  { cli: 'codex 0.171.0', text: 'or try again at May 11th, 2026 1:36 PM.', now: '2026-05-04T00:00:00Z', zone: 'Europe/Madrid', want: '2026-05-11T11:36:00.000Z' },
  { cli: 'codex 0.171.0', text: 'or try again at Jul 2nd, 2026 8:19 PM.', now: '2026-06-05T00:00:00Z', zone: 'UTC', want: '2026-07-02T20:19:00.000Z' },
  // Codex 0.27–0.40: durations.
  { cli: 'codex 0.39.0', text: "■ You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing) or try again in 5 days 22 hours 11 minutes.", now: '2025-09-19T10:00:00Z', zone: 'UTC', want: '2025-09-25T08:11:00.000Z' },
  { cli: 'codex 0.27.0', text: "🖐  You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing) or try again in 3 hours 2 minutes.", now: '2025-09-01T10:00:00Z', zone: 'UTC', want: '2025-09-01T13:02:00.000Z' },
  { cli: 'codex 0.40.0', text: 'or try again in 37 minutes.', now: '2025-09-23T10:00:00Z', zone: 'UTC', want: '2025-09-23T10:37:00.000Z' },
  { cli: 'codex 0.23.0', text: "🖐 You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing), or wait for limits to reset (every 5h and every week.).", now: '2025-08-25T10:00:00Z', zone: 'UTC', want: null },
  { cli: 'codex 0.171.0', text: "You've hit your usage limit. Try again later.", now: '2026-07-15T12:00:00Z', zone: 'UTC', want: null },
  // Gemini CLI 0.61.0: Intl short zone names, abbreviations and GMT offsets (narrow no-break space before PM as Node's ICU prints it).
  { cli: 'gemini 0.61.0', text: 'Access resets at 3:45 PM PDT.', now: '2026-07-15T12:00:00Z', zone: 'UTC', want: '2026-07-15T22:45:00.000Z' },
  { cli: 'gemini 0.61.0', text: 'Access resets at 3:45\u202fPM EST.', now: '2026-01-15T12:00:00Z', zone: 'Asia/Tokyo', want: '2026-01-15T20:45:00.000Z' },
  { cli: 'gemini 0.61.0', text: 'Access resets at 9:05 AM GMT+2.', now: '2026-07-15T12:00:00Z', zone: 'UTC', want: '2026-07-16T07:05:00.000Z' },
  { cli: 'gemini 0.61.0', text: 'Access resets at 11:30 PM GMT+5:30.', now: '2026-07-15T12:00:00Z', zone: 'UTC', want: '2026-07-15T18:00:00.000Z' },
  { cli: 'gemini 0.61.0', text: 'Access resets at 4:00 PM UTC.', now: '2026-07-15T12:00:00Z', zone: 'America/Denver', want: '2026-07-15T16:00:00.000Z' },
  { cli: 'gemini 0.61.0', text: 'Access resets at 4:00 PM JST.', now: '2026-07-15T12:00:00Z', zone: 'UTC', want: '2026-07-16T07:00:00.000Z' },
  { cli: 'gemini 0.61.0', text: 'Access resets at 4:00 PM CEST.', now: '2026-07-15T12:00:00Z', zone: 'UTC', want: '2026-07-15T14:00:00.000Z' },
  { cli: 'gemini 0.61.0', text: 'Access resets at 4:00 PM QQQ.', now: '2026-07-15T12:00:00Z', zone: 'America/New_York', want: '2026-07-15T20:00:00.000Z' },
  { cli: 'gemini 0.x API error', text: 'Quota exceeded for metric … Please retry in 23.5s.', now: '2026-07-15T12:00:00Z', zone: 'UTC', want: '2026-07-15T12:00:23.500Z' },
  { cli: 'gemini (duration form)', text: 'Your quota will reset after 2h30m.', now: '2026-07-15T12:00:00Z', zone: 'UTC', want: '2026-07-15T14:30:00.000Z' },
  // OpenCode 1.18.33.
  { cli: 'opencode 1.18.33', text: 'Go usage limit reached. It will reset in 2 days 3 hours. To continue using this model now, enable usage', now: '2026-07-15T12:00:00Z', zone: 'UTC', want: '2026-07-17T15:00:00.000Z' },
  { cli: 'opencode 1.18.33', text: 'Usage limit reached. It will reset in 4 hours 12 minutes.', now: '2026-07-15T12:00:00Z', zone: 'UTC', want: '2026-07-15T16:12:00.000Z' },
  { cli: 'opencode 1.18.33', text: 'Usage limit reached. It will reset in less than a minute.', now: '2026-07-15T12:00:00Z', zone: 'UTC', want: '2026-07-15T12:01:00.000Z' },
  // Nothing a reader knows.
  { cli: 'none', text: 'resets whenever it likes', now: '2026-07-15T12:00:00Z', zone: 'UTC', want: null },
  { cli: 'none', text: 'resets 13pm (UTC)', now: '2026-07-15T12:00:00Z', zone: 'UTC', want: null },
  { cli: 'none', text: 'try again at Feb 30th, 2026 3:39 AM', now: '2026-07-15T12:00:00Z', zone: 'UTC', want: null },
];

describe('parseResetTime, per CLI format', () => {
  it.each(rows)('$cli: $text (now $now, local $zone)', ({ text, now, zone, want }) => {
    expect(iso(parseResetTime(text, at(now), zone))).toBe(want);
  });
});

describe('reset times across the clock and the calendar', () => {
  it('a time already passed today is tomorrow’s (claude 2.1.332)', () => {
    const r = parseResetTime("You've hit your session limit · resets 9am (America/New_York)", at('2026-07-15T15:00:00Z'), 'UTC');
    expect(iso(r)).toBe('2026-07-16T13:00:00.000Z');
  });

  it('a time passed within the grace is the one just passed, not tomorrow’s (screen read late)', () => {
    const r = parseResetTime("You've hit your session limit · resets 11am (America/New_York)", at('2026-07-15T15:05:00Z'), 'UTC');
    expect(iso(r)).toBe('2026-07-15T15:00:00.000Z');
  });

  it('a year-less date already passed this year is next year’s (claude 2.1.332, Dec 31 → Jan 1)', () => {
    expect(iso(parseResetTime('resets Jan 1, 2am (America/Los_Angeles)', at('2026-12-31T20:00:00Z'), 'UTC'))).toBe('2027-01-01T10:00:00.000Z');
  });

  it('a time after midnight read late in the evening is the next day in that zone, not in UTC', () => {
    // 23:30 in Los Angeles is 06:30 UTC the next day; "resets 1am" is 1 am LA, 1.5 h later.
    expect(iso(parseResetTime('resets 1am (America/Los_Angeles)', at('2026-07-16T06:30:00Z'), 'UTC'))).toBe('2026-07-16T08:00:00.000Z');
  });

  // Spring forward: 2026-03-08 in Los Angeles (02:00 → 03:00 at 10:00Z), 2026-03-29 in Berlin (02:00 → 03:00 at 01:00Z).
  it.each([
    { zone: 'America/Los_Angeles', now: '2026-03-08T08:00:00Z', want: '2026-03-08T10:30:00.000Z' },
    { zone: 'Europe/Berlin', now: '2026-03-28T23:00:00Z', want: '2026-03-29T01:30:00.000Z' },
  ])('2:30am on the spring-forward day in $zone (never on the clock) is the instant after the jump', ({ zone, now, want }) => {
    expect(iso(parseResetTime(`resets 2:30am (${zone})`, at(now), 'UTC'))).toBe(want);
    expect(iso(parseResetTime('or try again at 2:30 AM.', at(now), zone))).toBe(want);
  });

  // Fall back: 2026-11-01 in Los Angeles (01:00–02:00 twice), 2026-10-25 in Berlin (02:00–03:00 twice).
  it.each([
    { zone: 'America/Los_Angeles', text: 'resets 1:30am', now: '2026-11-01T06:00:00Z', want: '2026-11-01T09:30:00.000Z' },
    { zone: 'Europe/Berlin', text: 'resets 2:30am', now: '2026-10-24T22:00:00Z', want: '2026-10-25T01:30:00.000Z' },
  ])('a time in the fall-back overlap in $zone is its later reading', ({ zone, text, now, want }) => {
    expect(iso(parseResetTime(`${text} (${zone})`, at(now), 'UTC'))).toBe(want);
  });

  it('wall times either side of a DST change convert with their own offsets', () => {
    expect(iso(zonedWallTimeToEpoch({ year: 2026, month: 3, day: 8, hour: 1, minute: 59 }, 'America/Los_Angeles'))).toBe('2026-03-08T09:59:00.000Z');
    expect(iso(zonedWallTimeToEpoch({ year: 2026, month: 3, day: 8, hour: 3, minute: 0 }, 'America/Los_Angeles'))).toBe('2026-03-08T10:00:00.000Z');
    expect(iso(zonedWallTimeToEpoch({ year: 2026, month: 10, day: 25, hour: 3, minute: 30 }, 'Europe/Berlin'))).toBe('2026-10-25T02:30:00.000Z');
  });

  it('the day after a 23-hour spring-forward day is counted on the calendar, not as 24 h', () => {
    // 23:30 CET on Mar 28 2026; "3:30am" is 3:30 CEST on Mar 29, two hours later, not Mar 30.
    expect(iso(parseResetTime('resets 3:30am (Europe/Berlin)', at('2026-03-28T22:30:00Z'), 'UTC'))).toBe('2026-03-29T01:30:00.000Z');
  });

  it('the next 2am on the spring-forward eve is the instant after the jump (nextWallTime)', () => {
    expect(iso(nextWallTime(2, 0, { kind: 'iana', name: 'America/Los_Angeles' }, at('2026-03-08T09:00:00Z')))).toBe('2026-03-08T10:00:00.000Z');
  });

  it('an unknown machine zone falls back to UTC rather than failing', () => {
    expect(iso(parseResetTime('resets 3pm', at('2026-07-15T12:00:00Z'), 'Not/AZone'))).toBe('2026-07-15T15:00:00.000Z');
  });
});

describe('the small readers', () => {
  it.each([
    ['12:50am', { hour: 0, minute: 50 }], ['12pm', { hour: 12, minute: 0 }], ['3:42 PM', { hour: 15, minute: 42 }],
    ['3:42\u202fPM', { hour: 15, minute: 42 }], ['11 p.m.', { hour: 23, minute: 0 }], ['15:42', { hour: 15, minute: 42 }],
    ['0am', null], ['13pm', null], ['3:60pm', null], ['24:00', null], ['soon', null],
  ])('parseClock(%j)', (text, want) => expect(parseClock(text)).toEqual(want));

  it.each([
    ['5 days 22 hours 11 minutes', ((5 * 24 + 22) * 60 + 11) * 60_000], ['2h30m', 150 * 60_000], ['2h 5m', 125 * 60_000],
    ['23.5s', 23_500], ['500ms', 500], ['1 hour, 2 minutes and 3 seconds', 3_723_000], ['less than a minute', 60_000], ['a while', null],
  ])('parseDuration(%j)', (text, want) => expect(parseDuration(text)).toBe(want));

  it.each([
    ['PDT', { kind: 'fixed', offsetMinutes: -420 }], ['cest', { kind: 'fixed', offsetMinutes: 120 }], ['GMT+5:30', { kind: 'fixed', offsetMinutes: 330 }],
    ['UTC-3', { kind: 'fixed', offsetMinutes: -180 }], ['America/Los_Angeles', { kind: 'iana', name: 'America/Los_Angeles' }],
    ['GMT+15', null], ['Mars/Olympus', null], ['../../etc', null],
  ])('parseZone(%j)', (name, want) => expect(parseZone(name)).toEqual(want));
});

describe('hostile text', () => {
  const now = at('2026-07-15T12:00:00Z');
  const attacks: [string, string][] = [
    ['1 MB of anchors', 'resets '.repeat(150_000)],
    ['1 MB of "try again at" with near-dates', 'try again at Mar 1'.repeat(60_000)],
    ['1 MB of digits', '9'.repeat(1_000_000)],
    ['1 MB of duration parts', 'resets in ' + '1h'.repeat(500_000)],
    ['1 MB of an unclosed zone', 'resets 3pm (' + 'A/'.repeat(500_000)],
    ['1 MB of spaces between words', 'resets' + ' '.repeat(1_000_000) + '3pm'],
    ['1 MB of epoch lookalikes', 'usage limit reached|'.repeat(50_000)],
  ];
  it.each(attacks)('%s is read in well under 50 ms', (_name, text) => {
    expect(text.length).toBeGreaterThanOrEqual(1_000_000);
    text.indexOf('\n'); // Flattened before timing: a caller's text is one string.
    expect(fastestMs(() => parseResetTime(text, now, 'America/Los_Angeles'))).toBeLessThan(50);
  });

  it('a reset time past the first 4096 characters of a line is not read', () => {
    expect(parseResetTime('x'.repeat(5000) + ' resets 3pm', now, 'UTC')).toBeNull();
  });
});

// The CLIs' own formatting code, re-run here on this machine's Intl: what they print for an
// instant must read back as that instant.
describe('round trip through the CLIs’ own formatting', () => {
  const zones = ['America/Los_Angeles', 'America/New_York', 'Europe/Berlin', 'Europe/London', 'Asia/Kolkata', 'Asia/Tokyo', 'Australia/Adelaide', 'UTC'];
  const instants = ['2026-07-15T22:45:00Z', '2026-03-08T11:00:00Z', '2026-03-29T01:30:00Z', '2026-11-01T09:30:00Z', '2026-12-31T23:15:00Z'];
  const cases = zones.flatMap((zone) => instants.map((instant) => ({ zone, instant })));

  // Claude Code 2.1.332 (JN in bin/claude.exe): toLocaleTimeString/toLocaleString en-US, am/pm lowered, " (zone)".
  const claudeWhen = (reset: Date, now: Date, zone: string): string => {
    const zoneMinute = Number(new Intl.DateTimeFormat('en-US', { timeZone: zone, minute: 'numeric' }).format(reset));
    const minute = zoneMinute === 0 ? undefined : '2-digit';
    const lower = (s: string): string => s.replace(/[ \u202f]([AP]M)/i, (_m, ap: string) => ap.toLowerCase());
    if (reset.getTime() - now.getTime() > 24 * 3_600_000) {
      const year = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric' });
      const opts: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', hour: 'numeric', minute, hour12: true, timeZone: zone };
      if (year.format(reset) !== year.format(now)) opts.year = 'numeric';
      return `${lower(reset.toLocaleString('en-US', opts))} (${zone})`;
    }
    return `${lower(reset.toLocaleTimeString('en-US', { hour: 'numeric', minute, hour12: true, timeZone: zone }))} (${zone})`;
  };

  it.each(cases)('claude 2.1.332: a reset 3 h and 3 days out in $zone at $instant', ({ zone, instant }) => {
    const reset = new Date(instant);
    for (const lead of [3 * 3_600_000, 3 * 86_400_000]) {
      const now = new Date(reset.getTime() - lead);
      const text = `You've hit your session limit · resets ${claudeWhen(reset, now, zone)}`;
      expect(iso(parseResetTime(text, now.getTime(), 'UTC')), text).toBe(reset.toISOString());
    }
  });

  // Gemini CLI 0.61.0 (getResetTimeMessage): Intl en-US {hour, minute: '2-digit', timeZoneName: 'short'} in the machine's zone.
  it.each(cases)('gemini 0.61.0: a reset 3 h out printed on a machine in $zone at $instant', ({ zone, instant }) => {
    const reset = new Date(instant);
    const when = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZoneName: 'short', timeZone: zone }).format(reset);
    const text = `Access resets at ${when}.`;
    expect(iso(parseResetTime(text, reset.getTime() - 3 * 3_600_000, zone)), text).toBe(reset.toISOString());
  });
});
