// Qwen Code under a real `mori up` (tmux backend), its model the Chat Completions stand-in on loopback
// through its default auth type. A new session sends the task with the state-file prompt in its first
// request under the session id Mori gave it (`--session-id`), goes working → waiting, and its record is
// on disk; after a SIGKILL the relaunch resumes that id with `--resume` and its next request carries the
// earlier turn. With the screen not read (MORI_TEST_HOOKS_ONLY), Mori's hooks alone (its system-defaults
// layer) move it to needs-input within a second of its PermissionRequest when the model runs a shell
// command in its default approval mode (`auto`: its classifier, asking the same stand-in, cannot
// decide, so it asks the person), and nothing is written into the project's or the
// person's own Qwen settings. The CLI comes from test/support/agent-clis/install.sh's cache; absent → skipped.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEADLINE_MS, hasEvent, UpHarness, type Up } from '../../support/mori-up.js';
import { activities, killPanes, spoolDir, started, timedLines, watchCalls } from '../../support/hook-calls.js';
import { until } from '../../../testkit/until.js';
import { installedCli, qwenEnv, screen, sessionJson } from '../../support/agent-clis/real-agents.js';
import { chatTurns, startChatCompletionsApi } from '../../support/stand-ins/chat-completions-api.js';
import { bodyText, type LoggedRequest } from '../../support/stand-ins/loopback-server.js';
import type { LimitableStandIn } from '../../support/stand-ins/responses-api.js';

export const QWEN_VERSION = '0.24.4';
const found = installedCli('@qwen-code/qwen-code', QWEN_VERSION, 'qwen');
const TASK = 'write the word pelican into notes.txt';
const TASK_WORD = 'pelican';
const REPLY = 'stand-in reply';
/** A tool only the agent's own turns offer: its side agents (memory extraction, prompt suggestions) ask the same API without it. */
const MAIN_TOOL = 'ask_user_question';
/** Qwen Code 0.24.4 starts and sends its first request in ~5 s on an idle 2-core machine: room for a busy one. */
const CLI_START_MS = DEADLINE_MS * 3;
const TEST_TIMEOUT_MS = CLI_START_MS * 4;
/** Quiet time after a turn before the crash: its side agents' requests come within a second or two of its answer. */
const SETTLED_MS = 3_000;
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

/** Whether a request is one of the agent's own turns (not a side agent's). */
const mainTurn = (r: LoggedRequest): boolean => {
  const tools = (r.body as { tools?: { function?: { name?: string } }[] } | null)?.tools ?? [];
  return tools.some((t) => t.function?.name === MAIN_TOOL);
};
const mainTurns = (a: LimitableStandIn): LoggedRequest[] => chatTurns(a).filter(mainTurn);

function setUp(label: string, extra: NodeJS.ProcessEnv = {}): UpHarness {
  const harness = new UpHarness(`qwen-${label}`, extra);
  h = harness;
  Object.assign(harness.env, qwenEnv(api as LimitableStandIn, harness.tmp), { MORI_AGENT_BIN_QWEN: (found as { bin: string }).bin });
  const r = harness.mori('init', harness.project, '--name', 's', '--agent', 'qwen', '--backend', 'tmux', '--task', TASK);
  if (r.code !== 0) throw new Error(`mori init failed: ${r.stderr}`);
  return harness;
}

/** Each request in one line: its tools, its last user message's start, the stand-in replies it carries. */
const requestLines = (a: LimitableStandIn): string =>
  a.requests
    .map((r, i) => {
      const b = r.body as { tools?: unknown[]; messages?: { role?: string; content?: unknown }[] } | null;
      const lastUser = [...(b?.messages ?? [])].reverse().find((m) => m.role === 'user');
      return `#${i} tools=${b?.tools?.length ?? 0} main=${mainTurn(r)} user="${bodyText(lastUser?.content).slice(0, 60).replace(/\n/g, ' ')}" replies=${[...new Set(bodyText(r.body).match(/stand-in reply \d+/g) ?? [])].join(',')}`;
    })
    .join('\n');

const why = (harness: UpHarness, u: Up) => (): string => `${u.stderr()}\n--- activities: ${activities(u).join(' ')}\n${screen(harness, sessionJson(harness, 's').id)}`;

describe.skipIf('skip' in found)(`Qwen Code ${QWEN_VERSION} under mori up${'skip' in found ? ` (skipped: ${found.skip})` : ''}`, () => {
  it('sends the task under the id Mori gave it; after a SIGKILL it resumes that id with --resume and its history', async () => {
    api = await startChatCompletionsApi();
    const a = api;
    const harness = setUp('crash');
    const u = harness.up();
    const w = why(harness, u);
    await until('the task in a request', () => mainTurns(a).some((r) => bodyText(r.body).includes(TASK_WORD)), w, CLI_START_MS);
    const first = bodyText(mainTurns(a)[0]!.body);
    expect(first).toContain('session_state.md');
    await until('waiting after the answer', () => activities(u).at(-1) === 'waiting' && activities(u).includes('working'), w, CLI_START_MS);
    const id = sessionJson(harness, 's').agent.sessionId as string;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(started(u)[0]?.['launch']).toBe('new');
    // Its record of the session, under the person's Qwen home, keyed by the project dir.
    const chat = path.join(harness.tmp, 'qwen-home', '.qwen', 'projects', harness.project.replace(/[^a-zA-Z0-9]/g, '-'), 'chats', `${id}.jsonl`);
    await until('its chat holding the answer', () => existsSync(chat) && readFileSync(chat, 'utf8').includes(`${REPLY} 1`), w);

    // Its turn settled: no request (its side agents' included) for SETTLED_MS. Qwen Code 0.24.4
    // killed within a moment of its answer resumed without that answer in the history it sent.
    let seen = a.requests.length;
    let quietSince = Date.now();
    await until('the agent settled', () => {
      if (a.requests.length !== seen) [seen, quietSince] = [a.requests.length, Date.now()];
      return Date.now() - quietSince > SETTLED_MS;
    }, w);

    // A crash: the agent's process group killed outright, as the OOM killer would.
    const before = a.requests.length;
    process.kill(-(started(u)[0]!['pid'] as number), 'SIGKILL');
    await until('the relaunch', () => started(u).length === 2, u.stderr);
    expect(started(u)[1]?.['launch']).toBe('resume');
    const resumed = (): boolean => a.requests.slice(before).some((r) => mainTurn(r) && ['session_state.md', TASK_WORD, `${REPLY} 1`].every((n) => bodyText(r.body).includes(n)));
    await until('the resumed turn carrying the earlier one', resumed, () => `${requestLines(a)}\n${w()}`, CLI_START_MS);
    expect(sessionJson(harness, 's').agent.sessionId).toBe(id);
    expect(harness.workLog('s')).toContain(`agent relaunched with its resume command (session ${id})`);
    const argv = readFileSync(`/proc/${started(u)[1]!['pid'] as number}/cmdline`, 'utf8').split('\0');
    expect(argv).toContain('--resume');
    expect(argv[argv.indexOf('--resume') + 1]).toBe(id);
    await until('the resumed agent idle', () => u.lines().filter((e) => e['type'] === 'session.activity' && e['to'] === 'waiting').length >= 2, w, CLI_START_MS);
    // Nothing Mori wrote for it is in the project or in the person's own Qwen settings.
    expect(existsSync(path.join(harness.project, '.qwen'))).toBe(false);
    const own = path.join(harness.tmp, 'qwen-home', '.qwen', 'settings.json');
    expect(existsSync(own) ? readFileSync(own, 'utf8') : '').not.toContain('hooks');
  }, TEST_TIMEOUT_MS);

  it('its hooks alone: needs-input within a second of the permission it asks for a shell command, waiting once refused', async () => {
    const t0 = Date.now();
    api = await startChatCompletionsApi(0, { after: 0, mainTool: MAIN_TOOL, calls: [{ name: 'run_shell_command', arguments: { command: 'touch made-by-tool.txt', description: 'make a file' } }] });
    const harness = setUp('hooks', { MORI_TEST_HOOKS_ONLY: '1' });
    const u = harness.up();
    const timed = timedLines(u);
    const w = why(harness, u);
    await until('the launch', () => existsSync(path.join(harness.home, 'hooks', 'runs', sessionJson(harness, 's').id)), w, CLI_START_MS);
    const calls = watchCalls(spoolDir(harness, 's'));
    stopWatching = () => calls.watcher.close();

    await until('needs-input', () => activities(u).includes('needs-input'), w, CLI_START_MS);
    const asked = calls.calls.get('PermissionRequest')?.[0];
    expect(asked, `calls seen: ${[...calls.calls.keys()].join(' ')}`).toBeDefined();
    const event = timed.find((t) => t.e['type'] === 'session.activity' && t.e['to'] === 'needs-input')!;
    const latency = event.at - (asked as number);
    expect(latency).toBeLessThanOrEqual(HOOK_TO_EVENT_MS);
    // The hook comes first; its dialog is drawn a moment later.
    await until('its permission dialog', () => /Allow execution of/.test(screen(harness, sessionJson(harness, 's').id)), w);
    expect(existsSync(path.join(harness.project, 'made-by-tool.txt'))).toBe(false);

    // The person refuses at the terminal (Esc): the turn ends, and the hooks say waiting.
    spawnSync('tmux', ['-L', harness.socketName, 'send-keys', '-t', `mori-${sessionJson(harness, 's').id}`, 'Escape']);
    await until('waiting after the refusal', () => activities(u).at(-1) === 'waiting', w, CLI_START_MS);
    // SessionStart says waiting, UserPromptSubmit working, PermissionRequest needs-input, Stop waiting.
    expect(activities(u)).toEqual(['waiting', 'working', 'needs-input', 'waiting']);
    expect(existsSync(path.join(harness.project, 'made-by-tool.txt'))).toBe(false);
    expect(hasEvent(u, 'session.activity', { to: 'error' })).toBe(false);
    // The layer is Mori's own file, named in the agent's environment; the project has no .qwen of its own.
    const environ = readFileSync(`/proc/${started(u)[0]!['pid'] as number}/environ`, 'utf8').split('\0');
    expect(environ.find((v) => v.startsWith('QWEN_CODE_SYSTEM_DEFAULTS_PATH='))).toContain(path.join(harness.home, 'hooks'));
    expect(readdirSync(harness.project).filter((n) => n === '.qwen')).toEqual([]);
    console.log(`qwen: PermissionRequest spool file → session.activity needs-input: ${latency} ms; whole test ${Math.round((Date.now() - t0) / 1000)} s`);
  }, TEST_TIMEOUT_MS);
});
