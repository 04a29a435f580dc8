// A limit sentence inside a tool's output (a file the agent printed, a command's output) is text the
// agent read, never its CLI's own message: for each CLI, its own tool-output frame holding a limit
// sentence reports no limit, and the same frame beside the CLI's real limit message (the captured
// screens of test/support/fixtures/agent-screens/) leaves that message reported with its own reset. Read
// through the screen source the supervisor uses (ScreenLimitWatch, from the latest turn start down).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ProfileName } from '../../../../common/session.js';
import { PROFILES } from '../../../../main/agents/profiles.js';
import { ScreenLimitWatch } from '../../../../main/supervisor/limits/screen-limit-watch.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../support/fixtures/agent-screens/${name}.txt`, import.meta.url), 'utf8');
const CAPTURED = Date.parse('2026-12-01T05:10:00Z');
const iso = (ms: number | null | undefined): string | null => (ms == null ? null : new Date(ms).toISOString());
const read = (profile: ProfileName, screen: string): ReturnType<ScreenLimitWatch['observe']> => new ScreenLimitWatch(profile, PROFILES[profile].patterns, 'UTC').observe(screen, CAPTURED);
/** Puts `block` on its own rows after the first row containing `marker`. */
const after = (screen: string, marker: string, block: string): string => {
  const at = screen.indexOf('\n', screen.indexOf(marker));
  return `${screen.slice(0, at + 1)}${block}${screen.slice(at + 1)}`;
};

// Each CLI's frame around a `cat README.md` whose file holds limit sentences (a reset at 9pm UTC, so
// a forged reset would show as 21:00), first row and later rows, after blank rows.
const claudeTool = [
  '● Bash(cat README.md)',
  "  ⎿  You've hit your session limit · resets 9pm (UTC)",
  '',
  "     You've hit your weekly limit · resets 9pm (UTC)",
  "     ⎿  You've hit your 5-hour limit · resets 9pm (UTC)",
  '',
  '● Read(README.md)',
  "  ⎿  Claude AI usage limit reached|1764622800",
  '',
].join('\n');
const codexTool = [
  '• Ran cat README.md',
  "  └ ■ You've hit your usage limit. Try again at 9:00 PM.",
  "    You've hit your usage limit. Try again at 9:00 PM.",
  '',
  "    ■ Usage limit reached. You've reached your usage limit.",
  '',
].join('\n');
const geminiTool = [
  '╭──────────────────────────────────────────────────────────╮',
  '│ ✓  Shell cat README.md                                   │',
  '│                                                          │',
  '│ Usage limit reached for gemini-2.5-pro.                  │',
  '│ Access resets at 9:00 PM UTC.                            │',
  '│                                                          │',
  '│ ⊷  ReadFile README.md                                    │',
  '│ ⚡ You have reached your daily quota limit.               │',
  '╰──────────────────────────────────────────────────────────╯',
  '',
].join('\n');
const opencodeTool = [
  '  ┃',
  '  ┃     # Print the readme',
  '  ┃',
  '  ┃  $ cat README.md',
  '  ┃',
  '  ┃  Usage limit reached. It will reset in 2 hours.',
  '  ┃  Free usage exceeded, subscribe to Go',
  '  ┃',
  '',
].join('\n');

describe('a limit sentence inside a tool\'s output', () => {
  it.each([
    ['claude', `❯ show me the readme\n\n${claudeTool}`],
    ['codex', `› show me the readme\n\n${codexTool}`],
    ['gemini', `> show me the readme\n\n${geminiTool}`],
    ['opencode', `  ┃\n  ┃  show me the readme\n  ┃\n\n${opencodeTool}`],
  ] as const)('%s: its tool-output frame reports no limit', (profile, screen) => {
    expect(read(profile, screen)).toBeNull();
  });

  it.each([
    // The real screens, with the tool's frame below the CLI's own message (searched first, bottom up).
    ['claude', after(fixture('claude-usage-limit'), "You've hit your 5-hour limit", `\n${claudeTool}`), "You've hit your 5-hour limit · resets 5:20am (UTC)", '2026-12-01T05:20:00.000Z'],
    ['codex', after(fixture('codex-usage-limit'), 'hit your usage limit', `\n${codexTool}`), 'You’ve hit your usage limit. Try again at 5:20 AM.', '2026-12-01T05:20:00.000Z'],
    ['gemini', after(fixture('gemini-usage-limit'), '/model to switch models', geminiTool), 'Usage limit reached for gemini-3.5-flash-lite.', '2026-12-01T05:30:00.000Z'],
    ['opencode', `${opencodeTool}\n  ┃\n  ┃ Go usage limit reached. It will reset in 2 days 3 hours.\n  ┃\n\n${opencodeTool}`, 'Go usage limit reached. It will reset in 2 days 3 hours.', '2026-12-03T08:10:00.000Z'],
  ] as const)('%s: beside it, the CLI\'s own limit message is still reported with its reset', (profile, screen, text, resetAt) => {
    const s = read(profile, screen);
    expect(s?.text).toBe(text);
    expect(iso(s?.resetAtMs)).toBe(resetAt);
  });

  it('claude: a new message after a tool\'s output (its top margin, `  ⎿  ` at column 2) is the CLI\'s own', () => {
    const s = read('claude', `❯ go on\n\n● Bash(ls)\n  ⎿  notes.txt\n\n  ⎿  You've hit your session limit · resets 5:20am (UTC)\n`);
    expect(iso(s?.resetAtMs)).toBe('2026-12-01T05:20:00.000Z');
  });
});
