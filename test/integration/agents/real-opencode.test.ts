// opencode under a real `mori up` (tmux backend), its model the Messages API stand-in on loopback
// through its built-in anthropic provider: a new session sends the task in its first request, goes
// working → waiting, and Mori records opencode's own session id (`ses_…`, learnt from its log); after a
// SIGKILL the relaunch resumes that id with `--session`, the resume prompt typed into it is submitted,
// and that request carries the earlier turn. `mori usage` and `mori status` count each turn's tokens as
// the stand-in reported them, read from opencode's SQLite database (the rows still in its WAL).
// opencode comes from the cache test/support/agent-clis/install.sh fills (.ci/run installs it); absent → skipped.
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { DEADLINE_MS, hasEvent, UpHarness } from '../../support/mori-up.js';
import { until } from '../../../testkit/until.js';
import { installedCli, opencodeEnv, screen, sessionJson } from '../../support/agent-clis/real-agents.js';
import { messageTexts, MessagesApiStandIn } from '../../../testkit/messages-api.js';
import type { UsageTotals } from '../../../common/usage.js';
import { compactTokens, totalTokens } from '../../../common/usage-figures.js';

export const OPENCODE_VERSION = '1.18.33';
const found = installedCli('opencode-ai', OPENCODE_VERSION, 'opencode');
const TASK = 'write the word pelican into notes.txt';
const REPLY = 'Noted: the code word is PELICAN.';
/**
 * opencode 1.18.33's first start in a fresh data dir takes 20 s to initialise and another 30-40 s
 * before its first model request (seen on an idle 2-core machine: 67 s from launch to the turn); a busy
 * machine can double that.
 */
const FIRST_START_MS = DEADLINE_MS * 6;
const TEST_TIMEOUT_MS = FIRST_START_MS * 3;

/** The four counts and requests the stand-in reported for the turns opencode made (it keeps no title request). */
function reported(api: MessagesApiStandIn): Pick<UsageTotals, 'requests' | 'input' | 'output' | 'cacheRead' | 'cacheWrite'> {
  const us = api.requests.flatMap((r) => (r.kind === 'turn' && r.usage !== undefined ? [r.usage] : []));
  const add = (k: 'input' | 'output' | 'cacheRead' | 'cacheWrite'): number => us.reduce((n, u) => n + u[k], 0);
  return { requests: us.length, input: add('input'), output: add('output'), cacheRead: add('cacheRead'), cacheWrite: add('cacheWrite') };
}

/** `mori usage s --json`'s total, once it counts `requests`. */
async function usageTotal(h: UpHarness, requests: number, why: () => string): Promise<UsageTotals> {
  let total: UsageTotals | undefined;
  let said = '';
  await until('the turns in mori usage', () => {
    const r = h.mori('usage', 's', '--json');
    said = `${r.stdout}${r.stderr}`;
    total = r.code === 0 ? (JSON.parse(r.stdout) as { sessions: { total: UsageTotals }[] }).sessions[0]?.total : undefined;
    return total?.requests === requests;
  }, () => `${said}\n${why()}`);
  return total as UsageTotals;
}

let h: UpHarness | null = null;
let api: MessagesApiStandIn | null = null;
afterEach(async () => {
  if (h) {
    const panes = spawnSync('tmux', ['-L', h.socketName, 'list-panes', '-a', '-F', '#{pane_pid}'], { encoding: 'utf8' });
    for (const pid of (panes.stdout ?? '').split('\n').filter(Boolean).map(Number)) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  h?.cleanup();
  h = null;
  await api?.stop();
  api = null;
});


describe.skipIf('skip' in found)(`opencode ${OPENCODE_VERSION} under mori up${'skip' in found ? ` (skipped: ${found.skip})` : ''}`, () => {
  it('records its ses_ id from the first turn; after a SIGKILL it resumes that session with --session and its history', async () => {
    api = await MessagesApiStandIn.start({ defaultText: 'OK.' });
    api.enqueue({ text: REPLY, delayMs: 2_000 });
    const harness = new UpHarness('opencode');
    h = harness;
    Object.assign(harness.env, opencodeEnv(api.url, harness.tmp), { MORI_AGENT_BIN_OPENCODE: (found as { bin: string }).bin });
    const init = harness.mori('init', harness.project, '--name', 's', '--agent', 'opencode', '--backend', 'tmux', '--task', TASK);
    expect(init.code, init.stderr).toBe(0);
    const u = harness.up();
    const stand = api;
    const why = (): string => `${u.stderr()}\n--- events: ${u.lines().map((e) => `${String(e['type'])}${e['to'] ? `>${String(e['to'])}` : ''}`).join(' ')}\n${screen(harness, sessionJson(harness, 's').id)}`;
    const turnWith = (text: string, from = 0): boolean => stand.turns().slice(from).some((r) => messageTexts(r.body).some((m) => m.text.includes(text)));

    await until('the task in a request', () => turnWith('pelican'), why, FIRST_START_MS);
    const first = messageTexts(stand.turns()[0]!.body).map((m) => m.text).join('\n');
    expect(first).toContain('session_state.md');
    await until('working', () => hasEvent(u, 'session.activity', { to: 'working' }), why, FIRST_START_MS);
    await until('waiting after the answer', () => u.lines().filter((e) => e['type'] === 'session.activity').at(-1)?.['to'] === 'waiting' && screen(harness, sessionJson(harness, 's').id).includes('PELICAN'), why, FIRST_START_MS);
    await until('the opencode session id in session.json', () => sessionJson(harness, 's').agent.sessionId !== null, why, FIRST_START_MS);
    const id = sessionJson(harness, 's').agent.sessionId as string;
    expect(id).toMatch(/^ses_[0-9A-Za-z]{26}$/);
    // The turn's tokens, from opencode's database, as the stand-in reported them.
    const firstTurn = reported(stand);
    expect(firstTurn.requests).toBeGreaterThan(0);
    const total = await usageTotal(harness, firstTurn.requests, why);
    expect(total).toMatchObject({ ...firstTurn, models: ['claude-stand-in'] });
    const status = harness.mori('status', 's');
    expect(status.stdout).toContain(`usage: ${compactTokens(totalTokens(total))} tokens today, ${compactTokens(totalTokens(total))} in all`);

    const before = stand.turns().length;
    // A crash: the agent's process group killed outright, as the OOM killer would.
    process.kill(-(u.lines().find((e) => e['type'] === 'session.started')?.['pid'] as number), 'SIGKILL');
    await until('the resumed turn', () => stand.turns().length > before, why, FIRST_START_MS);
    const resumed = messageTexts(stand.turns()[before]!.body);
    const all = resumed.map((m) => m.text).join('\n');
    expect(all).toContain('pelican');
    // The resume prompt, typed into the TUI (opencode ignores --prompt for an existing session), was submitted.
    expect(resumed.filter((m) => m.role === 'user').at(-1)?.text).toContain('session_state.md');
    expect(resumed.filter((m) => m.role === 'assistant').map((m) => m.text).join('\n')).toContain('PELICAN');
    expect(sessionJson(harness, 's').agent.sessionId).toBe(id);
    expect(u.lines().filter((e) => e['type'] === 'session.started')).toHaveLength(2);
    expect(harness.workLog('s')).toMatch(/SESSION RESUMED - [^\n]*resum/);
    // The resumed turn adds to the same session's figures.
    await until('the resumed turn answered', () => stand.requests.filter((r) => r.kind === 'turn' && r.usage !== undefined).length > firstTurn.requests, why, FIRST_START_MS);
    const both = reported(stand);
    expect(await usageTotal(harness, both.requests, why)).toMatchObject(both);
  }, TEST_TIMEOUT_MS);
});
