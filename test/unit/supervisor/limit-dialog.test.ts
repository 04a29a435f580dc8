// A Gemini CLI session whose limit shows in its dialog (test/support/fixtures/agent-screens/gemini-usage-limit-plan.txt),
// on the real Supervisor with the in-memory backend and the manual clock: nothing is typed while it is
// limited; at the reset the dialog is answered Stop with its key ("2", never Enter, which would pick
// "Keep trying" and resend the refused turn), and once the agent is back at its prompt the nudge is
// typed, once. A claude session at its limit gets no such key.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveSession } from '../../../common/ipc.js';
import { createSession } from '../../../main/state/state-dir.js';
import type { Supervisor } from '../../../main/supervisor/supervisor.js';
import { FakeBackend, type FakeTerminal } from '../../support/fakes/fake-backend.js';
import { ManualTime } from '../../support/fakes/manual-time.js';
import { FAKE_AGENT, SupervisorHarness } from '../../support/supervisor-harness.js';

const DIALOG = readFileSync(new URL('../../support/fixtures/agent-screens/gemini-usage-limit-plan.txt', import.meta.url), 'utf8');
/** The manual clock starts at 15:00 UTC; the dialog's reset, moved to 15:05 UTC. */
const RESET_AT = Date.UTC(2026, 10, 30, 15, 5, 0);
/** What Gemini CLI prints once Stop is picked: the refused request's error, then its prompt. */
const STOPPED = [
  '',
  '✕ [API Error: You have exhausted your quota on this model. Your quota will reset after 44s.]',
  'ℹ This request failed. Press F12 for diagnostics.',
  '                                                        ? for shortcuts',
  ' >   Type your message or @path/to/file',
  '',
].join('\n');
/** The harness's activity read delay and settle time, with room. */
const READ_MS = 50;
const SETTLE_MS = 400;

let h: SupervisorHarness;
let time: ManualTime;
let backend: FakeBackend;
let s: Supervisor;

beforeEach(() => {
  h = new SupervisorHarness('sup-limit-dialog');
  time = new ManualTime();
  backend = new FakeBackend();
  s = h.supervisor({ env: h.env({ MORI_AGENT_BIN_GEMINI: FAKE_AGENT }), direct: backend, clock: time, scheduler: time, random: () => 0.5, verify: false, checkpointIntervalMs: 24 * 60 * 60_000 });
});
afterEach(async () => {
  await s.checkpointsSettled();
  await h.cleanup();
});

async function until(ok: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 3_000;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
const drain = (): Promise<void> => new Promise((r) => setTimeout(r, 50));
const info = (name: string): LiveSession => {
  const i = s.list().find((x) => x.name === name);
  if (!i) throw new Error(`no session ${name}`);
  return i;
};

/**
 * The fake agent: at Gemini's dialog "2" picks Stop (the dialog gives way to the refused request's
 * error and the prompt); typed text shows in its composer, Enter starts a turn (its busy line).
 */
function agent(t: FakeTerminal, profile: 'gemini' | 'claude'): FakeTerminal {
  const write = t.write.bind(t);
  let composer = '';
  t.write = (data: string) => {
    write(data);
    const text = data.replace(/\x1b\[20[01]~/g, '');
    if (profile === 'gemini' && text === '2' && composer === '') return t.redraw(`${DIALOG.slice(0, DIALOG.indexOf('╭'))}${STOPPED}`);
    if (text.includes('\r')) {
      t.output(profile === 'gemini' ? `\n> ${composer}\n\n ⠏ Thinking... (esc to cancel, 0s)\n` : `\n❯ ${composer}\n✻ Working… (esc to interrupt)\n`);
      composer = '';
    } else if (text !== '') {
      composer += text;
      t.output(profile === 'gemini' ? `\n >   ${composer}\n` : `\n❯ ${composer}`);
    }
  };
  return t;
}

async function limitedSession(profile: 'gemini' | 'claude', name: string): Promise<FakeTerminal> {
  const created = await createSession({ projectDir: h.project, name, profile, backend: 'direct', home: h.home, task: 'test task' });
  if (!created.ok) throw new Error(created.message);
  expect((await s.start()).ok).toBe(true);
  await until(() => backend.launches.length === 1 && info(name).state === 'running', 'the first launch');
  const t = agent(backend.last, profile);
  const rule = '─'.repeat(40);
  // Claude's limit at its prompt, a "2. Stop" line under it that is no dialog of its.
  const claude = `❯ go on\n  ⎿  You've hit your session limit · resets 3:05pm (UTC)\n  │ 2. Stop │\n${rule}\n❯ \n${rule}\n  ? for shortcuts\n`;
  t.output(profile === 'gemini' ? DIALOG.replace('6:07 AM UTC', '3:05 PM UTC') : claude);
  time.advance(READ_MS);
  await until(() => info(name).state === 'limited', 'limited');
  time.advance(SETTLE_MS);
  await drain();
  expect(info(name).usageLimit?.resetAt).toBe(RESET_AT);
  return t;
}

/** Moves the manual clock in small steps (the resume's waits are on it) until `ok`. */
async function stepUntil(ok: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100 && !ok(); i++) {
    time.advance(100);
    await drain();
  }
  expect(ok(), what).toBe(true);
}

describe('a usage limit shown in the agent\'s dialog', () => {
  it('is answered Stop at the reset, then the agent is nudged at its prompt, once', async () => {
    const t = await limitedSession('gemini', 'gem');
    const plan = info('gem').usageLimit;
    if (!plan) throw new Error('no plan');
    time.advance(plan.resumeAt - time.wallMs() - 1);
    await drain();
    expect(t.written).toEqual([]);

    time.advance(1);
    await stepUntil(() => t.written.join('').includes('You were interrupted'), 'the nudge typed');
    // The dialog's Stop key alone first, before any of the nudge; never a bare Enter at the dialog.
    expect(t.written[0]).toBe('2');
    expect(t.written[1]).not.toBe('\r');
    await stepUntil(() => h.workLog('gem').includes('SESSION RESUMED - after usage limit'), 'the resume entry');
    const log = h.workLog('gem');
    expect(log).toContain('SESSION NOTE - the agent\'s usage-limit dialog answered "Stop" (key 2)');
    expect(log.split('- SESSION RESUMED').length - 1).toBe(1);
    expect(t.written.filter((w) => w === '2')).toHaveLength(1);
    expect(backend.launches).toHaveLength(1);
  });

  it('a claude session at its limit gets no dialog key, whatever its screen shows', async () => {
    const t = await limitedSession('claude', 'cl');
    const plan = info('cl').usageLimit;
    if (!plan) throw new Error('no plan');
    time.advance(plan.resumeAt - time.wallMs());
    await stepUntil(() => t.written.join('').includes('You were interrupted'), 'the nudge typed');
    expect(t.written).not.toContain('2');
  });
});
