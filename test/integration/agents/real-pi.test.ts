// Pi under a real `mori up` (tmux backend), its model the Responses stand-in on loopback through a
// provider in its own agent dir (PI_CODING_AGENT_DIR, the test's). A new session sends the task with
// the state-file prompt in its first request into the session file Mori named (`--session`), goes
// working → waiting by Mori's extension alone (the screen not read: MORI_TEST_HOOKS_ONLY), its
// SessionStart naming that file; after a SIGKILL the relaunch resumes the same file and its next
// request carries the earlier turn into the same file, from which `mori usage` reads both answers.
// Nothing is written into the project. The CLI comes from
// test/support/agent-clis/install.sh's cache; absent → skipped.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEADLINE_MS, UpHarness, type Up } from '../../support/mori-up.js';
import { activities, killPanes, spoolDir, started, watchCalls } from '../../support/hook-calls.js';
import { until } from '../../../testkit/until.js';
import { installedCli, piEnv, screen, sessionJson } from '../../support/agent-clis/real-agents.js';
import { responseTurns, startResponsesApi, type LimitableStandIn } from '../../support/stand-ins/responses-api.js';
import { bodyText } from '../../support/stand-ins/loopback-server.js';

export const PI_VERSION = '0.73.1';
const found = installedCli('@mariozechner/pi-coding-agent', PI_VERSION, 'pi');
const TASK = 'write the word pelican into notes.txt';
const TASK_WORD = 'pelican';
const REPLY = 'stand-in reply';
/** Pi 0.73.1 starts and sends its first request in ~2 s on an idle 2-core machine: room for a busy one. */
const CLI_START_MS = DEADLINE_MS * 3;
const TEST_TIMEOUT_MS = CLI_START_MS * 4;

let h: UpHarness | null = null;
let api: LimitableStandIn | null = null;
let stopWatching: (() => void) | null = null;
afterEach(async () => {
  stopWatching?.();
  stopWatching = null;
  if (h) killPanes(h);
  h?.cleanup();
  h = null;
  await api?.close();
  api = null;
});

const why = (harness: UpHarness, u: Up) => (): string => `${u.stderr()}\n--- activities: ${activities(u).join(' ')}\n${screen(harness, sessionJson(harness, 's').id)}`;

describe.skipIf('skip' in found)(`Pi ${PI_VERSION} under mori up${'skip' in found ? ` (skipped: ${found.skip})` : ''}`, () => {
  it('sends the task into the session file Mori named, its extension alone saying working and waiting; after a SIGKILL it resumes that file with its history', async () => {
    const t0 = Date.now();
    // Each answer held a moment, so its working is seen before its waiting.
    api = await startResponsesApi(0, { after: 0, calls: [], delayMs: 1_000 });
    const a = api;
    const harness = new UpHarness('pi-crash', { MORI_TEST_HOOKS_ONLY: '1' });
    h = harness;
    Object.assign(harness.env, piEnv(a, harness.tmp), { MORI_AGENT_BIN_PI: (found as { bin: string }).bin });
    const r = harness.mori('init', harness.project, '--name', 's', '--agent', 'pi', '--backend', 'tmux', '--task', TASK);
    if (r.code !== 0) throw new Error(`mori init failed: ${r.stderr}`);
    const u = harness.up();
    const w = why(harness, u);
    await until('the launch', () => existsSync(path.join(harness.home, 'hooks', 'runs', sessionJson(harness, 's').id)), w, CLI_START_MS);
    const calls = watchCalls(spoolDir(harness, 's'));
    stopWatching = () => calls.watcher.close();

    await until('the task in a request', () => responseTurns(a).some((q) => bodyText(q.body).includes(TASK_WORD)), w, CLI_START_MS);
    expect(bodyText(responseTurns(a)[0]!.body)).toContain('session_state.md');
    await until('waiting after the answer', () => activities(u).at(-1) === 'waiting' && activities(u).includes('working'), w, CLI_START_MS);
    // SessionStart says waiting, Busy working, Idle waiting: the extension's words, the screen unread.
    expect(activities(u)).toEqual(['waiting', 'working', 'waiting']);
    expect([...calls.calls.keys()]).toEqual(expect.arrayContaining(['SessionStart', 'Busy', 'Idle']));
    const id = sessionJson(harness, 's').agent.sessionId as string;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(started(u)[0]?.['launch']).toBe('new');
    // Its session file, where Mori named it in Pi's agent dir.
    const file = path.join(harness.tmp, 'pi-home', '.pi', 'agent', 'sessions', 'mori', `${id}.jsonl`);
    await until('its session file holding the answer', () => existsSync(file) && readFileSync(file, 'utf8').includes(`${REPLY} 1`), w);
    const environ = readFileSync(`/proc/${started(u)[0]!['pid'] as number}/environ`, 'utf8').split('\0');
    expect(environ).toEqual(expect.arrayContaining([`PI_CODING_AGENT_DIR=${path.dirname(path.dirname(path.dirname(file)))}`]));
    expect(environ).toEqual(expect.arrayContaining(['PI_TELEMETRY=0', 'PI_SKIP_VERSION_CHECK=1']));

    // A crash: the agent's process group killed outright, as the OOM killer would.
    const before = a.requests.length;
    process.kill(-(started(u)[0]!['pid'] as number), 'SIGKILL');
    await until('the relaunch', () => started(u).length === 2, u.stderr);
    expect(started(u)[1]?.['launch']).toBe('resume');
    const resumed = (): boolean => a.requests.slice(before).some((q) => q.path.startsWith('/v1/responses') && [TASK_WORD, `${REPLY} 1`].every((n) => bodyText(q.body).includes(n)));
    await until('the resumed turn carrying the earlier one', resumed, w, CLI_START_MS);
    expect(sessionJson(harness, 's').agent.sessionId).toBe(id);
    expect(harness.workLog('s')).toContain(`agent relaunched with its resume command (session ${id})`);
    // The same file goes on (Pi names its process "pi", so its argv is not readable from /proc).
    await until('the resumed answer in the same file', () => readFileSync(file, 'utf8').includes(`${REPLY} 2`), w, CLI_START_MS);
    expect(readdirSync(path.dirname(file))).toEqual([`${id}.jsonl`]);
    await until('the resumed agent idle', () => activities(u).filter((x) => x === 'waiting').length >= 3 && activities(u).at(-1) === 'waiting', w, CLI_START_MS);
    // `mori usage` reads both answers from the session file; the stand-in's second is mostly cached.
    const usage = harness.mori('usage', 's', '--json');
    expect(usage.code, usage.stderr).toBe(0);
    const [total] = (JSON.parse(usage.stdout) as { sessions: { total: { requests: number; input: number; output: number; cacheRead: number } }[] }).sessions.map((x) => x.total);
    expect(total?.requests).toBe(2);
    expect(total?.input).toBeGreaterThan(0);
    expect(total?.output).toBe(6 + 7);
    expect(total?.cacheRead).toBeGreaterThan(0);
    // Nothing Mori wrote for it is in the project.
    expect(readdirSync(harness.project).filter((n) => n === '.pi')).toEqual([]);
    console.log(`pi: whole test ${Math.round((Date.now() - t0) / 1000)} s`);
  }, TEST_TIMEOUT_MS);
});
