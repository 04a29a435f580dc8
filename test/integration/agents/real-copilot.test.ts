// GitHub Copilot CLI under a real `mori up` (tmux backend), its model the Responses stand-in on
// loopback through its own-provider mode, offline. A new session sends the task with the state-file
// prompt in its first request under the session id Mori gave it (`--session-id`), goes working →
// waiting, its events file is on disk and `mori usage` counts its request; after a SIGKILL, and
// again after a reboot (Mori, the agents and tmux gone, a new boot id), the relaunch resumes that
// id with `--resume=<id>` and its next request carries the earlier turns. With the screen not read
// (MORI_TEST_HOOKS_ONLY), Mori's hooks alone (its plugin directory) move it to needs-input within a
// second of its permissionRequest when the model runs a shell command, and nothing is written into
// the project or the person's own Copilot home but what the CLI itself keeps there. The CLI comes
// from test/support/agent-clis/install.sh's cache; absent → skipped.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEADLINE_MS, hasEvent, UpHarness, type Up } from '../../support/mori-up.js';
import { activities, killPanes, spoolDir, started, timedLines, watchCalls } from '../../support/hook-calls.js';
import { until } from '../../../testkit/until.js';
import { copilotEnv, installedCli, requestsSummary, screen, sessionJson } from '../../support/agent-clis/real-agents.js';
import { bodyText } from '../../support/stand-ins/loopback-server.js';
import { responseTurns, startResponsesApi, type LimitableStandIn } from '../../support/stand-ins/responses-api.js';

export const COPILOT_VERSION = '1.0.102';
const found = installedCli('@github/copilot', COPILOT_VERSION, 'copilot');
const TASK = 'write the word pelican into notes.txt';
const TASK_WORD = 'pelican';
const REPLY = 'stand-in reply';
/** Copilot CLI 1.0.102 starts and sends its first request in ~8 s on an idle 2-core machine (after its package is unpacked once): room for a busy one. */
const CLI_START_MS = DEADLINE_MS * 3;
const TEST_TIMEOUT_MS = CLI_START_MS * 4;
/** The bound from a hook call to the daemon's event. */
const HOOK_TO_EVENT_MS = 1_000;

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

function setUp(label: string, extra: NodeJS.ProcessEnv = {}): UpHarness {
  const harness = new UpHarness(`copilot-${label}`, extra);
  h = harness;
  Object.assign(harness.env, copilotEnv(api as LimitableStandIn, harness.tmp, harness.project), { MORI_AGENT_BIN_COPILOT: (found as { bin: string }).bin });
  const r = harness.mori('init', harness.project, '--name', 's', '--agent', 'copilot', '--backend', 'tmux', '--task', TASK);
  if (r.code !== 0) throw new Error(`mori init failed: ${r.stderr}`);
  return harness;
}

const why = (harness: UpHarness, u: Up) => (): string => `${u.stderr()}\n--- activities: ${activities(u).join(' ')}\n${screen(harness, sessionJson(harness, 's').id)}`;

describe.skipIf('skip' in found)(`Copilot CLI ${COPILOT_VERSION} under mori up${'skip' in found ? ` (skipped: ${found.skip})` : ''}`, () => {
  it('sends the task under the id Mori gave it; after a SIGKILL and after a reboot it resumes that id with --resume and its history', async () => {
    const t0 = Date.now();
    api = await startResponsesApi();
    const a = api;
    const harness = setUp('crash', { MORI_BOOT_ID: 'boot-a' });
    const u = harness.up();
    const w = why(harness, u);
    await until('the task in a request', () => responseTurns(a).some((r) => bodyText(r.body).includes(TASK_WORD)), w, CLI_START_MS);
    expect(bodyText(responseTurns(a)[0]!.body)).toContain('session_state.md');
    await until('waiting after the answer', () => activities(u).at(-1) === 'waiting' && activities(u).includes('working'), w, CLI_START_MS);
    const id = sessionJson(harness, 's').agent.sessionId as string;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(started(u)[0]?.['launch']).toBe('new');
    const events = path.join(harness.tmp, 'copilot-home', 'session-state', id, 'events.jsonl');
    await until('its events holding the answer', () => existsSync(events) && readFileSync(events, 'utf8').includes(`${REPLY} 1`), w);
    // Its request's tokens, read from its events file by the daemon's usage book.
    let usage: Record<string, unknown> | undefined;
    await until('its usage in mori usage', () => {
      const r = harness.mori('usage', 's', '--json');
      usage = r.code === 0 ? (JSON.parse(r.stdout) as { sessions: { total: Record<string, unknown> }[] }).sessions[0]?.total : undefined;
      return typeof usage?.['requests'] === 'number' && usage['requests'] >= 1;
    }, () => JSON.stringify(usage));
    expect(usage?.['input']).toEqual(expect.any(Number));
    expect(usage?.['input'] as number).toBeGreaterThan(0);

    // A crash: the agent's process group killed outright, as the OOM killer would.
    const before = a.requests.length;
    process.kill(-(started(u)[0]!['pid'] as number), 'SIGKILL');
    await until('the relaunch', () => started(u).length === 2, u.stderr);
    expect(started(u)[1]?.['launch']).toBe('resume');
    const needles = ['session_state.md', TASK_WORD, `${REPLY} 1`];
    const resumed = (): boolean => a.requests.slice(before).some((r) => needles.every((n) => bodyText(r.body).includes(n)));
    await until('the resumed turn carrying the earlier one', resumed, () => `${requestsSummary(a, needles)}\n${w()}`, CLI_START_MS);
    expect(sessionJson(harness, 's').agent.sessionId).toBe(id);
    expect(harness.workLog('s')).toContain(`agent relaunched with its resume command (session ${id})`);
    const argv = readFileSync(`/proc/${started(u)[1]!['pid'] as number}/cmdline`, 'utf8').split('\0');
    expect(argv).toContain(`--resume=${id}`);
    await until('the resumed agent idle', () => u.lines().filter((e) => e['type'] === 'session.activity' && e['to'] === 'waiting').length >= 2, w, CLI_START_MS);
    // Nothing Mori wrote for it is in the project or in the person's own Copilot home.
    expect(existsSync(path.join(harness.project, '.github'))).toBe(false);
    expect(existsSync(path.join(harness.tmp, 'copilot-home', 'hooks'))).toBe(false);
    expect(readFileSync(path.join(harness.tmp, 'copilot-home', 'config.json'), 'utf8')).not.toContain(harness.home);

    // A reboot: Mori and every agent gone (the tmux server too), a new boot id.
    u.child.kill('SIGKILL');
    await u.exited;
    killPanes(harness);
    spawnSync('tmux', ['-L', harness.socketName, 'kill-server'], { stdio: 'ignore' });
    const afterReboot = a.requests.length;
    const u2 = harness.up([], { MORI_BOOT_ID: 'boot-b' });
    await until('the relaunch after the reboot', () => started(u2).length === 1, u2.stderr);
    expect(started(u2)[0]?.['launch']).toBe('resume');
    const again = (): boolean => a.requests.slice(afterReboot).some((r) => needles.every((n) => bodyText(r.body).includes(n)));
    await until('the turn after the reboot carrying the earlier ones', again, () => `${requestsSummary(a, needles, afterReboot)}\n${u2.stderr()}`, CLI_START_MS);
    expect(sessionJson(harness, 's').agent.sessionId).toBe(id);
    expect(harness.workLog('s')).toMatch(/SESSION RESUMED - reboot; [^\n]*agent relaunched with its resume command/);
    console.log(`copilot: first turn, crash, resume and reboot: ${Math.round((Date.now() - t0) / 1000)} s`);
  }, TEST_TIMEOUT_MS);

  it('its hooks alone: needs-input within a second of the permission it asks for a shell command, working once allowed, then waiting', async () => {
    const t0 = Date.now();
    api = await startResponsesApi(0, { after: 0, calls: [{ name: 'bash', arguments: { command: 'touch made-by-tool.txt', description: 'make a file' } }] });
    const harness = setUp('hooks', { MORI_TEST_HOOKS_ONLY: '1' });
    const u = harness.up();
    const timed = timedLines(u);
    const w = why(harness, u);
    await until('the launch', () => existsSync(path.join(harness.home, 'hooks', 'runs', sessionJson(harness, 's').id)), w, CLI_START_MS);
    const calls = watchCalls(spoolDir(harness, 's'));
    stopWatching = () => calls.watcher.close();

    await until('needs-input', () => activities(u).includes('needs-input'), w, CLI_START_MS);
    const asked = calls.calls.get('permissionRequest')?.[0];
    expect(asked, `calls seen: ${[...calls.calls.keys()].join(' ')}`).toBeDefined();
    const event = timed.find((t) => t.e['type'] === 'session.activity' && t.e['to'] === 'needs-input')!;
    const latency = event.at - (asked as number);
    expect(latency).toBeLessThanOrEqual(HOOK_TO_EVENT_MS);
    await until('its permission dialog', () => /Do you want to run this command\?/.test(screen(harness, sessionJson(harness, 's').id)), w);
    expect(existsSync(path.join(harness.project, 'made-by-tool.txt'))).toBe(false);

    // The person allows it at the terminal (Enter on "Yes"): the command runs, the turn ends. (A
    // refusal with Esc ends the turn with no hook call at all: the screen says waiting then.)
    spawnSync('tmux', ['-L', harness.socketName, 'send-keys', '-t', `mori-${sessionJson(harness, 's').id}`, 'Enter']);
    await until('waiting after the command', () => activities(u).at(-1) === 'waiting' && activities(u).length > 3, w, CLI_START_MS);
    // sessionStart says waiting, userPromptSubmitted working, permissionRequest needs-input, postToolUse working, agentStop waiting.
    expect(activities(u)).toEqual(['waiting', 'working', 'needs-input', 'working', 'waiting']);
    expect(existsSync(path.join(harness.project, 'made-by-tool.txt'))).toBe(true);
    expect(hasEvent(u, 'session.activity', { to: 'error' })).toBe(false);
    // The layer is Mori's own plugin directory, named on its command line; the project has no .github of its own.
    const argv = readFileSync(`/proc/${started(u)[0]!['pid'] as number}/cmdline`, 'utf8').split('\0');
    expect(argv[argv.indexOf('--plugin-dir') + 1]).toContain(path.join(harness.home, 'hooks'));
    expect(readdirSync(harness.project).filter((n) => n === '.github')).toEqual([]);
    console.log(`copilot: permissionRequest spool file → session.activity needs-input: ${latency} ms; whole test ${Math.round((Date.now() - t0) / 1000)} s`);
  }, TEST_TIMEOUT_MS);
});
