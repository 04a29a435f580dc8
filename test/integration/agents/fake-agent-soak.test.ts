// The fake agent's soak mode (testkit/fake-agent-soak.mjs) as the soak's network faults use it, in a
// real pty read by a real headless xterm, its screens read by the claude profile's own patterns: a
// turn whose API stand-in (soak/stand-ins.ts, a real loopback listener) is away shows Claude Code's
// retry countdown, goes on when the API is back within its attempts and ends on its API error past
// them, held until something is typed; a usage limit the soak sets ends a turn on a limit line the
// profile reads with its reset, held until something is typed after the reset.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import xtermHeadless from '@xterm/headless';
import { spawn, type IPty } from 'node-pty';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLAUDE_TYPING } from '../../../main/agents/claude/profile.js';
import { PROFILES } from '../../../main/agents/profiles.js';
import { currentTurnText, detectActivity } from '../../../main/agents/screen-activity.js';
import { isRetrying } from '../../../main/agents/typing.js';
import { screenUsageLimit } from '../../../main/agents/usage-limit/limit-detect.js';
import { limitLine } from '../../../soak/faults/usage-limit.js';
import { NetStandIns } from '../../../soak/stand-ins.js';
import { untilValue } from '../../../testkit/until.js';

const { Terminal } = xtermHeadless;
const FAKE = fileURLToPath(new URL('../../../testkit/fake-agent.mjs', import.meta.url));
/** Short turns and retries: the behaviours, not the soak's pace. */
const TURN_MS = 300;
const RETRY_MS = 300;
/** Claude Code's attempts after the first failure (fake-agent-soak.mjs RETRY_ATTEMPTS). */
const ATTEMPTS = 5;
/** Longer than two turns and their idle times: an agent not held would have written a line by then. */
const HELD_MS = 4 * TURN_MS + 500;
/** Generous: two cores shared with other test runs. */
const DEADLINE_MS = 15_000;

let tmp: string;
let net: NetStandIns;
let pty: IPty | null = null;

beforeEach(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'mori-fake-soak-'));
  for (const d of ['s0', 'records', 'state']) mkdirSync(path.join(tmp, d));
  net = new NetStandIns();
  await net.start();
});
afterEach(async () => {
  try {
    pty?.kill('SIGKILL');
  } catch {
    // already gone
  }
  pty = null;
  await net.stop();
  rmSync(tmp, { recursive: true, force: true });
});

interface Run {
  screen: () => string;
  type: (text: string) => void;
}

function start(): Run {
  const term = new Terminal({ cols: 120, rows: 30, allowProposedApi: true });
  const env = {
    ...(process.env as Record<string, string>),
    ...net.env(),
    CLAUDE_CONFIG_DIR: path.join(tmp, 'claude'),
    MORI_STATE_DIR: path.join(tmp, 'state'),
    FAKE_AGENT_SOAK_DIR: path.join(tmp, 'records'),
    FAKE_AGENT_SOAK_TURN_MS: String(TURN_MS),
    FAKE_AGENT_SOAK_RETRY_MS: String(RETRY_MS),
    FAKE_AGENT_RECORD: '',
    FAKE_AGENT_SCRIPT: '',
  };
  pty = spawn(process.execPath, [FAKE, '--session-id', '5c0ffee0-1234-4abc-8def-0123456789ab'], { cwd: path.join(tmp, 's0'), env, cols: 120, rows: 30, name: 'xterm-256color' });
  pty.onData((d) => term.write(d));
  const screen = (): string => {
    const b = term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < term.rows; i++) lines.push(b.getLine(b.viewportY + i)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  return { screen, type: (text) => pty?.write(`${text}\r`) };
}

const records = (): { event: string; n?: number; resetAt?: number; code?: string }[] => {
  let text = '';
  try {
    text = readFileSync(path.join(tmp, 'records', 's0.jsonl'), 'utf8');
  } catch {
    return [];
  }
  return text
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { event: string });
};
const count = (event: string): number => records().filter((r) => r.event === event).length;
const until = <T>(what: string, probe: () => T, ok: (v: T) => boolean): Promise<T> => untilValue(what, probe, ok, DEADLINE_MS, (last) => `last: ${JSON.stringify(last)}`);
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('the fake agent in soak mode', () => {
  it("with its API away, retries on Claude Code's countdown (read as working, retrying) and goes on once the API is back", async () => {
    await net.away(['api']);
    const run = start();
    await until('the retry countdown', run.screen, (s) => isRetrying(s, CLAUDE_TYPING));
    expect(detectActivity(PROFILES.claude, run.screen())).toBe('working');
    expect(records().find((r) => r.event === 'api-failed')?.code).toBe('ECONNREFUSED');
    expect(count('line')).toBe(0);
    await net.back(['api']);
    await until('a line after the API came back', () => count('line'), (n) => n >= 1);
  }, 30_000);

  it('past its attempts, stops on its API error (read as error) and takes no turn of its own until something is typed', async () => {
    await net.away(['api']);
    const run = start();
    await until('its API error', () => detectActivity(PROFILES.claude, run.screen()), (a) => a === 'error');
    expect(run.screen()).toContain('API Error: Unable to connect to API (ConnectionRefused)');
    expect(count('api-failed')).toBe(ATTEMPTS + 1);
    await net.back(['api']);
    await pause(HELD_MS);
    expect(count('api-failed')).toBe(ATTEMPTS + 1);
    expect(count('line')).toBe(0);
    run.type('go on');
    await until('a line after the nudge', () => count('line'), (n) => n >= 1);
  }, 30_000);

  it("at the usage limit the soak set: Claude Code's line, read with its reset; held until typed after the reset, meeting it again when typed before", async () => {
    // The reset a few seconds ahead, in claude's epoch form (the soak's is a minute ahead).
    const limit = limitLine(Date.now(), 5_000, 0);
    const file = path.join(tmp, 'records', 's0.limit.json');
    writeFileSync(`${file}.tmp`, JSON.stringify(limit));
    renameSync(`${file}.tmp`, file);
    const run = start();
    await until('the limit met', () => count('limit'), (n) => n === 1);
    const seen = await until('its line on screen', () => screenUsageLimit(PROFILES.claude, currentTurnText(PROFILES.claude.patterns, run.screen()), Date.now(), 'UTC'), (s) => s !== null);
    expect(seen?.resetAtMs).toBe(limit.resetAt);
    expect(records().find((r) => r.event === 'limit')?.resetAt).toBe(limit.resetAt);
    await until('waiting at its prompt', () => detectActivity(PROFILES.claude, run.screen()), (a) => a === 'waiting');
    await pause(HELD_MS);
    expect(count('line')).toBe(0);
    // Typed before the reset: the limit again, no work.
    run.type('go on');
    await until('the limit met again', () => count('limit'), (n) => n === 2);
    expect(count('line')).toBe(0);
    await pause(Math.max(0, limit.resetAt - Date.now()) + 200);
    await pause(HELD_MS);
    expect(count('line')).toBe(0);
    run.type('go on');
    await until('a line after the reset', () => count('line'), (n) => n >= 1);
    expect(count('limit')).toBe(2);
  }, 30_000);
});
