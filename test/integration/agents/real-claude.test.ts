// The real Claude Code under `mori up` (tmux backend), talking to the Messages API stand-in on
// loopback: a fresh start whose task reaches the first request; a SIGKILL and a resume of the same
// conversation; an outage mid-turn ended by a nudge that is submitted; a frozen machine (agent and
// supervisor SIGSTOPped 10 s) resumed; a 170+ character `mori send` submitted (to the claude of the
// fresh start: one launch for both). Claude Code is taken
// from the cache test/support/agent-clis/install.sh fills (.ci/run installs it); absent, these skip and say so.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hasEvent, UpHarness, type Up } from '../../support/mori-up.js';
import { until } from '../../../testkit/until.js';
import { DEFAULT_SETTLE_MS } from '../../../main/agents/activity-debouncer.js';
import { screen, sessionJson } from '../../support/agent-clis/real-agents.js';
import { CLAUDE_CODE_PACKAGE, claudeEnv, claudePid, claudeReplies, claudeStatus, claudeTranscript, installedAgentCli, seedClaudeConfig } from '../../../testkit/real-claude.js';
import { messageTexts, MessagesApiStandIn, type LoggedRequest, type ScriptedTurn } from '../../../testkit/messages-api.js';

const bin = installedAgentCli(CLAUDE_CODE_PACKAGE, 'claude');
const skipped = bin === null ? ` (skipped: not installed; run \`test/support/agent-clis/install.sh ${CLAUDE_CODE_PACKAGE}\`)` : '';
/** Claude Code takes seconds to start on a loaded 2-core machine; each step gets this long. */
const STEP_MS = 40_000;
const NAME = 'rc';

let api: MessagesApiStandIn | null = null;
let h: UpHarness | null = null;
afterEach(async () => {
  await endRig(h, api);
  h = null;
  api = null;
});

/** The harness's processes and files gone, then the stand-in. */
async function endRig(harness: UpHarness | null, standIn: MessagesApiStandIn | null): Promise<void> {
  const tmp = harness?.tmp;
  try {
    harness?.cleanup();
  } catch {
    // claude still writing its files on its way out: try again once it is gone
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    if (tmp) rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
  await standIn?.stop();
}

interface Rig {
  api: MessagesApiStandIn;
  h: UpHarness;
  u: Up;
  configDir: string;
}

/**
 * The stand-in, a harness whose claude talks to it, `mori up` started. `probe`: the network probe
 * watches the stand-in. Ended after the test unless `shared` (then its describe block's afterAll ends it).
 */
async function rig(prefix: string, options: { turns?: ScriptedTurn[]; probe?: boolean; shared?: boolean } = {}): Promise<Rig> {
  const a = await MessagesApiStandIn.start({ defaultText: 'OK.' });
  a.enqueue(...(options.turns ?? []));
  const harness = new UpHarness(prefix);
  if (options.shared !== true) [api, h] = [a, harness];
  Object.assign(harness.env, claudeEnv(bin as string, a.url, path.join(harness.tmp, 'user-home')));
  // A probe a second apart sees the outage and the return within a second or two.
  if (options.probe) Object.assign(harness.env, { MORI_PROBE: `127.0.0.1:${a.port}`, MORI_PROBE_INTERVAL_MS: '1000' });
  const configDir = String(harness.env['CLAUDE_CONFIG_DIR']);
  seedClaudeConfig(configDir, harness.project);
  harness.init(NAME, 'tmux');
  const u = harness.up();
  return { api: a, h: harness, u, configDir };
}

const lastUserText = (r: LoggedRequest): string => messageTexts(r.body).filter((m) => m.role === 'user').at(-1)?.text ?? '';
const agentSessionId = (r: Rig): string | null =>
  (JSON.parse(readFileSync(path.join(r.h.stateDir(NAME), 'session.json'), 'utf8')) as { agent: { sessionId: string | null } }).agent.sessionId;
const details = (r: Rig) => (): string =>
  `\n--- events: ${r.u.lines().map((e) => `${String(e['type'])}${e['to'] ? `>${String(e['to'])}` : ''}`).join(' ')}\n--- stderr: ${r.u.stderr()}\n--- log: ${safeLog(r)}\n--- status: ${safeStatus(r)}\n--- screen:\n${safeScreen(r)}`;
const safeScreen = (r: Rig): string => {
  try {
    return screen(r.h, sessionJson(r.h, NAME).id);
  } catch {
    return '(none)';
  }
};
const safeStatus = (r: Rig): string => {
  const id = agentSessionId(r);
  return id === null ? '(no id)' : String(claudeStatus(r.configDir, id));
};
const safeLog = (r: Rig): string => {
  try {
    return r.h.workLog(NAME);
  } catch {
    return '(none)';
  }
};
/** Claude back at its prompt after `replies` turns: their replies in its transcript, its status file idle, and the supervisor seeing it wait. */
const idleAfter = (r: Rig, replies: number) => (): boolean => {
  const id = agentSessionId(r);
  const seen = r.u.lines().filter((e) => e['type'] === 'session.activity');
  return id !== null && claudeReplies(r.configDir, r.h.project, id) >= replies && claudeStatus(r.configDir, id) === 'idle' && seen.at(-1)?.['to'] === 'waiting';
};
/**
 * idleAfter, still true after the activity debouncer's settle time has passed twice: a turn shorter than
 * the settle time can leave a `working` reading pending that is emitted just after idleAfter first holds.
 */
const settledIdleAfter = async (r: Rig, replies: number): Promise<void> => {
  await until('idle after the first turn', idleAfter(r, replies), details(r), STEP_MS);
  await new Promise((resolve) => setTimeout(resolve, 2 * DEFAULT_SETTLE_MS));
  await until('idle after the first turn, settled', idleAfter(r, replies), details(r), STEP_MS);
};
const turnWith = (r: Rig, text: string) => (): boolean => r.api.turns().some((t) => lastUserText(t).includes(text));

describe.skipIf(bin === null)(`Claude Code ${CLAUDE_CODE_PACKAGE} under mori up${skipped}`, () => {
  describe('one claude for a fresh start and a long mori send (neither ends or disturbs it)', () => {
    let one: Rig | null = null;
    const shared = (): Rig => {
      if (one === null) throw new Error('the shared rig did not start');
      return one;
    };
    beforeAll(async () => {
      one = await rig('rc-fresh', { shared: true });
    });
    afterAll(async () => {
      await endRig(one?.h ?? null, one?.api ?? null);
      one = null;
    });

    it('starts fresh with --session-id: the task reaches the first request, the transcript is where the profile looks', async () => {
      const r = shared();
      await until('the first request', () => r.api.turns().length >= 1, details(r), STEP_MS);
      const first = lastUserText(r.api.turns()[0]!);
      expect(first).toContain('Task: write the thing');
      expect(first).toContain('session_state.md');
      const id = agentSessionId(r);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const transcript = claudeTranscript(r.configDir, r.h.project, id as string);
      await until('the transcript', () => existsSync(transcript), details(r), STEP_MS);
      await until('idle', idleAfter(r, 1), details(r), STEP_MS);
    }, 90_000);

    it('mori send of a 170+ character text: submitted, and the text reaches the API whole', async () => {
      const r = shared();
      await until('idle after the first turn', idleAfter(r, 1), details(r), STEP_MS);
      const text = `Please look at the build once more, ${'and then check every test file carefully, '.repeat(3)}then write down in the work log which one failed first and why.`;
      expect(text.length).toBeGreaterThan(170);
      const sent = r.h.mori('send', NAME, text);
      expect(sent.code, sent.stderr).toBe(0);
      await until('the text at the API', turnWith(r, text), details(r), STEP_MS);
    }, 90_000);
  });

  it('a SIGKILLed claude is resumed with --resume <same id>: the next request carries the earlier turns', async () => {
    const r = await rig('rc-kill', { turns: [{ text: 'Noted: the code word is PELICAN.' }] });
    await until('idle after the first turn', idleAfter(r, 1), details(r), STEP_MS);
    const id = agentSessionId(r) as string;
    const pid = claudePid(r.configDir, id);
    expect(pid).not.toBeNull();
    // Claude may send a request of its own besides the turn (a title, a check): the resumed turn is
    // the first request that arrives after the kill.
    const before = r.api.turns().length;
    process.kill(pid as number, 'SIGKILL');
    await until('the resumed turn', () => r.api.turns().length > before, details(r), STEP_MS);
    const resumed = messageTexts(r.api.turns()[before]!.body);
    const all = resumed.map((m) => m.text).join('\n');
    expect(all).toContain('Task: write the thing');
    expect(all).toContain('PELICAN');
    expect(resumed.filter((m) => m.role === 'assistant').map((m) => m.text)).toContain('Noted: the code word is PELICAN.');
    expect(agentSessionId(r)).toBe(id);
    expect(r.h.workLog(NAME)).toMatch(/SESSION RESUMED - [^\n]*resum/);
  }, 90_000);

  it('an outage mid-turn: claude fails its turn, the API comes back, the nudge is submitted and reaches the API', async () => {
    const r = await rig('rc-outage', { probe: true, turns: [{ text: '', hang: true }] });
    await until('the first request', () => r.api.turns().length >= 1, details(r), STEP_MS);
    await r.api.stop();
    await until('the error screen', () => hasEvent(r.u, 'session.activity', { to: 'error' }), details(r), STEP_MS);
    await until('the network interruption', () => hasEvent(r.u, 'session.interrupted', { reason: 'network' }), details(r), STEP_MS);
    await r.api.restart();
    await until('the nudge at the API', turnWith(r, 'You were interrupted'), details(r), STEP_MS);
    // Logged once the supervisor saw claude go busy on it.
    await until('the nudge logged', () => /SESSION RESUMED - network lost[^\n]*agent still running, error: nudged to continue/.test(safeLog(r)), details(r), STEP_MS);
    expect(r.u.lines().filter((e) => e['type'] === 'session.started')).toHaveLength(1); // the same claude, not restarted
  }, 90_000);

  it('a machine frozen 10 s (claude and the supervisor SIGSTOPped): the wake nudges claude and the nudge reaches the API', async () => {
    const r = await rig('rc-sleep');
    // The freeze must find the supervisor reading claude as waiting, or the wake has no reason to nudge.
    await settledIdleAfter(r, 1);
    const pid = claudePid(r.configDir, agentSessionId(r) as string) as number;
    const pgid = Number(spawnSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim());
    const upPid = r.u.child.pid as number;
    process.kill(-pgid, 'SIGSTOP');
    process.kill(upPid, 'SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    process.kill(-pgid, 'SIGCONT');
    process.kill(upPid, 'SIGCONT');
    await until('the nudge at the API', turnWith(r, 'You were interrupted'), details(r), STEP_MS);
    await until('the nudge logged', () => /SESSION RESUMED - system sleep[^\n]*agent still running, waiting: nudged to continue/.test(safeLog(r)), details(r), STEP_MS);
    expect(r.u.lines().filter((e) => e['type'] === 'session.started')).toHaveLength(1);
  }, 90_000);
});
