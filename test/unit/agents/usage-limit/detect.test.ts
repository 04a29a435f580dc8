// Usage limits found on an agent's screen (main/agents/usage-limit/limit-detect.ts): each CLI's own
// message shapes, the last one on screen, wrapped and two-line messages, and the person's own prompt
// echo that must never count.
import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../../../main/agents/profiles.js';
import type { ProfileName } from '../../../../common/session.js';
import { isLimitLine, screenUsageLimit } from '../../../../main/agents/usage-limit/limit-detect.js';

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

const NOW = Date.parse('2026-07-15T12:00:00Z');
const iso = (ms: number | null | undefined): string | null => (ms == null ? null : new Date(ms).toISOString());

interface Row { cli: string; profile: ProfileName; screen: string; zone: string; want: string | null; text: string }

// Each row: the CLI and release the screen comes from, what the screen shows (newest line last),
// the machine's zone, and the reset instant and message text the reader must give.
const fires: Row[] = [
  {
    cli: 'claude 2.1.332', profile: 'claude', zone: 'UTC', want: '2026-07-16T07:50:00.000Z',
    text: "You've hit your session limit · resets 12:50am (America/Los_Angeles)",
    screen: "❯ fix the failing test\n\n⏺ Looking at the test first.\n  ⎿  You've hit your session limit · resets 12:50am (America/Los_Angeles)\n     /upgrade to increase your usage limit.\n\n❯ \n",
  },
  {
    cli: 'claude 2.1.332', profile: 'claude', zone: 'America/Los_Angeles', want: '2026-07-15T22:00:00.000Z',
    text: '5-hour limit reached ∙ resets 3pm',
    screen: '✻ Working…\n  ⎿  5-hour limit reached ∙ resets 3pm\n',
  },
  {
    cli: 'claude 2.1.332', profile: 'claude', zone: 'UTC', want: '2026-07-31T02:00:00.000Z',
    text: "You've hit your weekly limit · resets Jul 31, 2am (UTC)",
    screen: "❯ go on\n  ⎿  You've hit your weekly limit · resets Jul 31, 2am (UTC)",
  },
  {
    cli: 'claude 1.0.24', profile: 'claude', zone: 'UTC', want: '2025-06-14T18:00:00.000Z',
    text: 'Claude AI usage limit reached|1749924000',
    screen: '> hello\n⏺ Claude AI usage limit reached|1749924000\n',
  },
  {
    cli: 'claude 1.0.58 (wrapped)', profile: 'claude', zone: 'UTC', want: '2026-07-15T20:00:00.000Z',
    text: 'Claude usage limit reached. Your limit will reset',
    screen: '> go on\n  ⎿  Claude usage limit reached. Your limit will reset\n     at 3pm (America/Chicago).\n',
  },
  {
    cli: 'claude 2.1.332 (no reset given)', profile: 'claude', zone: 'UTC', want: null,
    text: 'Usage limit reached',
    screen: '⏺ Usage limit reached\n',
  },
  {
    cli: 'codex 0.171.0', profile: 'codex', zone: 'America/New_York', want: '2026-07-15T19:42:00.000Z',
    text: "You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 3:42 PM.",
    screen: "› add a test\n\n■ You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 3:42 PM.\n\n› \n",
  },
  {
    cli: 'codex 0.171.0', profile: 'codex', zone: 'Europe/Berlin', want: '2026-03-10T02:39:00.000Z',
    text: "You've hit your usage limit. Upgrade to Plus to continue using Codex (https://chatgpt.com/explore/plus), or try again at Mar 10th, 2026 3:39 AM.",
    screen: "■ You've hit your usage limit. Upgrade to Plus to continue using Codex (https://chatgpt.com/explore/plus), or try again at Mar 10th, 2026 3:39 AM.",
  },
  {
    cli: 'codex 0.39.0 (wrapped at 120 columns)', profile: 'codex', zone: 'UTC', want: '2026-07-21T10:11:00.000Z',
    text: "You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing) or try again in 5 days 22 hours 11",
    screen: "▌ hi\n\n■ You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing) or try again in 5 days 22 hours 11\nminutes.\n",
  },
  {
    cli: 'codex 0.171.0', profile: 'codex', zone: 'UTC', want: null,
    text: "Usage limit reached. You've reached your usage limit. Increase your limits to continue using codex.",
    screen: "■ Usage limit reached. You've reached your usage limit. Increase your limits to continue using codex.",
  },
  {
    cli: 'gemini 0.61.0 (dialog)', profile: 'gemini', zone: 'UTC', want: '2026-07-15T22:45:00.000Z',
    text: 'Usage limit reached for gemini-2.5-pro.',
    screen: '│ > refactor the parser                              │\n╭──────────────────────────────────────────╮\n│ Usage limit reached for gemini-2.5-pro.  │\n│ Access resets at 3:45 PM PDT.            │\n│ /stats model for usage details           │\n│ /model to switch models.                 │\n╰──────────────────────────────────────────╯\n',
  },
  {
    cli: 'gemini 0.61.0 (GMT offset)', profile: 'gemini', zone: 'UTC', want: '2026-07-16T07:05:00.000Z',
    text: 'Usage limit reached for gemini-3-pro-preview.',
    screen: 'Usage limit reached for gemini-3-pro-preview.\nAccess resets at 9:05\u202fAM GMT+2.\n/stats model for usage details\n',
  },
  {
    cli: 'gemini 0.1.10', profile: 'gemini', zone: 'UTC', want: null,
    text: 'You have reached your daily quota limit.',
    screen: '  ⚡ You have reached your daily quota limit.\n  ⚡ Automatically switching from gemini-2.5-pro to gemini-2.5-flash for the remainder of this session.\n',
  },
  {
    cli: 'opencode 1.18.33', profile: 'opencode', zone: 'UTC', want: '2026-07-17T15:00:00.000Z',
    text: 'Go usage limit reached. It will reset in 2 days 3 hours. To continue using this model now, enable usage from your available balance - https://opencode.ai/workspace/w/go',
    screen: '┃ Go usage limit reached. It will reset in 2 days 3 hours. To continue using this model now, enable usage from your available balance - https://opencode.ai/workspace/w/go\n',
  },
  {
    cli: 'opencode 1.18.33', profile: 'opencode', zone: 'UTC', want: null,
    text: 'Free usage exceeded, subscribe to Go',
    screen: 'Free usage exceeded, subscribe to Go',
  },
];

describe('screenUsageLimit finds each CLI’s own limit message', () => {
  it.each(fires)('$cli', ({ profile, screen, zone, want, text }) => {
    const s = screenUsageLimit(PROFILES[profile], screen, NOW, zone);
    expect(s).not.toBeNull();
    expect(s?.source).toBe('screen');
    expect(s?.profile).toBe(profile);
    expect(iso(s?.resetAtMs)).toBe(want);
    expect(s?.text).toBe(text.slice(0, 200));
  });

  it('the last limit line on screen wins (claude 2.1.332: an old limit scrolled up, a newer one below)', () => {
    const screen = [
      "  ⎿  You've hit your session limit · resets 3am (UTC)",
      '❯ continue',
      "  ⎿  You've hit your weekly limit · resets Jul 20, 9am (UTC)",
    ].join('\n');
    expect(iso(screenUsageLimit(PROFILES.claude, screen, NOW, 'UTC')?.resetAtMs)).toBe('2026-07-20T09:00:00.000Z');
  });

  it('a signal’s text is one line of at most 200 characters', () => {
    const s = screenUsageLimit(PROFILES.claude, `⎿ You've hit your session limit · resets 3pm ${'x'.repeat(500)}`, NOW, 'UTC');
    expect(s?.text.length).toBe(200);
  });
});

interface Quiet { cli: string; profile: ProfileName; screen: string }

// The person's prompt echoed back, the agent talking about limits, and other CLIs' limits: none count.
const quiet: Quiet[] = [
  { cli: 'claude 2.1.332 prompt echo', profile: 'claude', screen: '❯ why did I hit my usage limit?\n\n⏺ Let me check your usage.\n' },
  { cli: 'claude 2.1.332 prompt echo of the message itself', profile: 'claude', screen: "❯ You've hit your session limit · resets 3pm (UTC) — what does this mean?" },
  { cli: 'claude 2.1.332 quoted prompt', profile: 'claude', screen: "> Claude usage limit reached. Your limit will reset at 5pm\n⏺ That message means…" },
  { cli: 'claude 2.1.332 agent prose', profile: 'claude', screen: "⏺ When you see that you've hit your session limit, Claude Code waits for the reset." },
  { cli: 'claude 2.1.332 fast mode (not a usage limit)', profile: 'claude', screen: "  ⎿  You've hit your fast limit · resets in 5m" },
  { cli: 'claude 2.1.332 context limit', profile: 'claude', screen: '  ⎿  Context limit reached · /compact or /clear to continue' },
  { cli: 'claude 2.1.332 notice of its own continuation', profile: 'claude', screen: '  ⎿  Usage limit reached · set to continue automatically at 2:29am' },
  { cli: 'claude 2.1.332 near the limit', profile: 'claude', screen: "  ⎿  You're close to your usage limit" },
  { cli: 'codex 0.171.0 user line', profile: 'codex', screen: "› You've hit your usage limit. try again at 3:42 PM — why?\n\n• Working (3s • esc to interrupt)\n" },
  { cli: 'codex 0.40.0 user line', profile: 'codex', screen: "▌ why did I hit my usage limit?\n" },
  { cli: 'codex 0.171.0 status tip', profile: 'codex', screen: '  Remaining usage on the 5-hour usage limit (omitted when unavailable)' },
  { cli: 'gemini 0.61.0 prompt box', profile: 'gemini', screen: '│ > Usage limit reached for gemini-2.5-pro. what now?  │' },
  { cli: 'gemini 0.61.0 capacity (not a usage limit)', profile: 'gemini', screen: 'We are currently experiencing high demand for gemini-2.5-pro.\nAccess resets at 3:45 PM PDT.\n' },
  { cli: 'opencode 1.18.33 prompt', profile: 'opencode', screen: '> Usage limit reached. It will reset in 2 hours. Explain this' },
  { cli: 'claude message on a codex screen', profile: 'codex', screen: "  ⎿  You've hit your session limit · resets 3pm (UTC)" },
  { cli: 'an unknown profile', profile: 'shell', screen: "■ You've hit your usage limit." },
];

describe('screenUsageLimit ignores what is not the CLI’s own limit message', () => {
  it.each(quiet)('$cli', ({ profile, screen }) => {
    expect(screenUsageLimit(PROFILES[profile], screen, NOW, 'UTC')).toBeNull();
  });

  it('a wrapped message never takes its reset from the person’s next prompt', () => {
    const s = screenUsageLimit(PROFILES.claude, "⎿  You've hit your session limit\n❯ resets 3pm (UTC)", NOW, 'UTC');
    expect(s?.resetAtMs).toBeNull();
  });
});

describe('hostile screens', () => {
  const huge: [string, ProfileName, string][] = [
    ['a 1 MB line of glyphs', 'claude', '⎿'.repeat(1_000_000)],
    ['a 1 MB line of spaces then the message', 'claude', ' '.repeat(1_000_000) + "You've hit your session limit · resets 3pm"],
    ['a 1 MB line repeating the message', 'codex', "■ You've hit your usage limit. or try again at 3:42 PM. ".repeat(20_000)],
    ['a 1 MB line of unfinished words', 'opencode', 'usage limit reached. It will reset in '.repeat(27_000)],
    ['a 1 MB line of box borders', 'gemini', '│ '.repeat(500_000) + 'x'],
    ['1 MB of empty lines', 'claude', '\n'.repeat(1_000_000)],
    ['1 MB of short prompt lines', 'codex', '› usage limit\n'.repeat(80_000)],
  ];
  it.each(huge)('%s is read in well under 50 ms', (_name, profile, line) => {
    expect(line.length).toBeGreaterThanOrEqual(1_000_000);
    const screen = `${line}\n${line}`;
    screen.indexOf('\n'); // Flattened before the clock starts: the caller's screen is one string.
    expect(fastestMs(() => screenUsageLimit(PROFILES[profile], screen, NOW, 'UTC'))).toBeLessThan(50);
  });

  it('only the last 2000 lines are read', () => {
    const old = "■ You've hit your usage limit. or try again at 3:42 PM.";
    expect(screenUsageLimit(PROFILES.codex, `${old}\n${'› ok\n'.repeat(1998)}`, NOW, 'UTC')).not.toBeNull();
    expect(screenUsageLimit(PROFILES.codex, `${old}\n${'› ok\n'.repeat(2000)}`, NOW, 'UTC')).toBeNull();
  });

  it('isLimitLine reads only the head of a line', () => {
    expect(isLimitLine(PROFILES.codex, "■ You've hit your usage limit.")).toBe(true);
    expect(isLimitLine(PROFILES.codex, `${' '.repeat(600)}■ You've hit your usage limit.`)).toBe(false);
  });
});
