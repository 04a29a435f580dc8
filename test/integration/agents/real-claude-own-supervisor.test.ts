// The real Claude Code beside its own supervision, under `mori up` (tmux) against the Messages API
// stand-in. In its default `auto` permission mode and in `default` (set by the person's settings), a
// command it asks for is needs-input within a second of its PermissionRequest hook, and `mori status`
// says the mode its transcript records; in `default` its offer after the first turn to make auto mode
// the default is needs-input too (claude says itself idle meanwhile). A conversation its own background service holds (`claude --bg
// --resume <id>` after `mori stop`) is not resumed by `mori start`: attention(held-by-agent-daemon)
// names `claude attach <short>`, and no second claude runs the conversation. `mori init --adopt
// claude:<short>` takes a background session up by attaching to it: a `mori send` reaches its
// conversation in the same claude; an id it does not hold is refused. (In auto mode against a
// stand-in claude refuses a risky command instead of asking: its safety check runs on Anthropic's
// server, which the stand-in is not; an ask rule of the person's is what makes it ask here.) Claude
// Code comes from test/support/agent-clis/install.sh's cache; absent, these skip and say so.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasEvent, UpHarness, type Up } from '../../support/mori-up.js';
import { activities, killPanes, spoolDir, timedLines, watchCalls } from '../../support/hook-calls.js';
import { screen, sessionJson } from '../../support/agent-clis/real-agents.js';
import { until } from '../../../testkit/until.js';
import { CLAUDE_CODE_PACKAGE, claudeEnv, claudePid, claudeTranscript, installedAgentCli, seedClaudeConfig } from '../../../testkit/real-claude.js';
import { MessagesApiStandIn } from '../../../testkit/messages-api.js';
import { listProcesses } from '../../../main/os/process-tree.js';

const bin = installedAgentCli(CLAUDE_CODE_PACKAGE, 'claude');
const skipped = bin === null ? ` (skipped: not installed; run \`test/support/agent-clis/install.sh ${CLAUDE_CODE_PACKAGE}\`)` : '';
/** Claude Code takes seconds to start on a loaded 2-core machine; each step gets this long. */
const STEP_MS = 40_000;
const TEST_MS = 120_000;
/** The bound from a hook call to the daemon's event. */
const HOOK_TO_EVENT_MS = 1_000;
const NAME = 'os';

let api: MessagesApiStandIn | null = null;
let h: UpHarness | null = null;
/** Claude's own background service, started by a test: its processes are ended after it. */
let daemonPid: number | null = null;
const watchers: { close(): void }[] = [];
afterEach(async () => {
  for (const w of watchers.splice(0)) w.close();
  if (daemonPid !== null) endTree(daemonPid);
  daemonPid = null;
  if (h) killPanes(h);
  const tmp = h?.tmp;
  try {
    h?.cleanup();
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    if (tmp) rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
  await api?.stop();
  [h, api] = [null, null];
});

/** SIGKILLs `root` and every process under it (claude's daemon, its pty hosts and the claudes in them). */
function endTree(root: number): void {
  const procs = listProcesses();
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) {
      if (!tree.has(p.ppid) || tree.has(p.pid)) continue;
      tree.add(p.pid);
      grew = true;
    }
  }
  for (const pid of tree) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** The stand-in, a harness whose claude talks to it with the person's `settings`, and the session made. */
async function rig(prefix: string, settings: Record<string, unknown>, init = true) {
  api = await MessagesApiStandIn.start({ defaultText: 'OK.' });
  const harness = new UpHarness(prefix);
  h = harness;
  Object.assign(harness.env, claudeEnv(bin as string, api.url, path.join(harness.tmp, 'user-home')));
  const configDir = String(harness.env['CLAUDE_CONFIG_DIR']);
  seedClaudeConfig(configDir, harness.project);
  writeFileSync(path.join(configDir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  if (init) harness.init(NAME, 'tmux');
  return { api, h: harness, configDir };
}

/** `claude --bg <args>` run as the person would in the project: its short id; its daemon is ended after the test. */
async function background(harness: UpHarness, configDir: string, args: string[]): Promise<string> {
  const bg = spawnSync(bin as string, ['--bg', ...args], { cwd: harness.project, env: { ...process.env, ...harness.env }, encoding: 'utf8', timeout: STEP_MS });
  const short = /backgrounded · ([0-9a-z]+)/.exec(bg.stdout)?.[1];
  expect(short, `${bg.stdout}\n${bg.stderr}`).toBeDefined();
  const lock = (): { pid?: number } | null => {
    try {
      return JSON.parse(readFileSync(path.join(configDir, 'daemon.lock'), 'utf8')) as { pid?: number };
    } catch {
      return null;
    }
  };
  await until("claude's daemon", () => typeof lock()?.pid === 'number', () => bg.stdout, STEP_MS);
  daemonPid = lock()?.pid as number;
  return short as string;
}

const agentId = (harness: UpHarness): string | null => (JSON.parse(readFileSync(path.join(harness.stateDir(NAME), 'session.json'), 'utf8')) as { agent: { sessionId: string | null } }).agent.sessionId;
const why = (harness: UpHarness, u: Up) => (): string => `${activities(u).join(' ')}\n${u.stderr()}\n${safeScreen(harness)}`;
const safeScreen = (harness: UpHarness): string => {
  try {
    return screen(harness, sessionJson(harness, NAME).id);
  } catch {
    return '(none)';
  }
};

/** A command claude asks for becomes needs-input within a second of its PermissionRequest hook; `mori status` says `mode`. */
async function asksIn(prefix: string, settings: Record<string, unknown>, mode: string): Promise<void> {
  const r = await rig(prefix, settings);
  r.api.enqueue({ text: 'Ready.' }, { text: 'Removing it.', toolUse: { name: 'Bash', input: { command: 'rm -rf build-output', description: 'remove the build output' } } });
  const u = r.h.up();
  const timed = timedLines(u);
  if (mode === 'default') {
    // In manual mode claude offers, after the first turn, to make auto mode the default: a question.
    await until('needs-input on the auto-mode offer', () => activities(u).at(-1) === 'needs-input' && /Make auto mode your default/.test(safeScreen(r.h)), why(r.h, u), STEP_MS);
    spawnSync('tmux', ['-L', r.h.socketName, 'send-keys', '-t', `mori-${sessionJson(r.h, NAME).id}`, 'Down']);
    await until('the second choice picked', () => /❯ No, keep manual mode/.test(safeScreen(r.h)), why(r.h, u), STEP_MS);
    spawnSync('tmux', ['-L', r.h.socketName, 'send-keys', '-t', `mori-${sessionJson(r.h, NAME).id}`, 'Enter']);
  }
  const seen = activities(u).length;
  await until('waiting after the first turn', () => r.api.turns().length >= 1 && activities(u).includes('working') && activities(u).at(-1) === 'waiting' && !/Make auto mode your default/.test(safeScreen(r.h)), why(r.h, u), STEP_MS);
  const w = watchCalls(spoolDir(r.h, NAME));
  watchers.push(w.watcher);
  const sent = r.h.mori('send', NAME, 'please clean the build');
  expect(sent.code, `${sent.stderr}${why(r.h, u)()}`).toBe(0);
  await until('needs-input', () => activities(u).slice(seen).includes('needs-input'), why(r.h, u), STEP_MS);
  const asked = w.calls.get('PermissionRequest')?.[0];
  expect(asked, `hook calls seen: ${[...w.calls.keys()].join(' ')}`).toBeDefined();
  const event = timed.filter((t) => t.e['type'] === 'session.activity' && t.e['to'] === 'needs-input').at(-1)!;
  console.log(`claude (${mode} mode): PermissionRequest spool file → needs-input: ${event.at - (asked as number)} ms`);
  expect(event.at - (asked as number)).toBeLessThanOrEqual(HOOK_TO_EVENT_MS);
  await until(`mori status says ${mode}`, () => r.h.mori('status', NAME).stdout.includes(`permission mode: ${mode}\n`), () => r.h.mori('status', NAME).stdout, STEP_MS);
  const json = JSON.parse(r.h.mori('status', NAME, '--json').stdout) as { live: { permissionMode?: string } };
  expect(json.live.permissionMode).toBe(mode);
}

describe.skipIf(bin === null)(`Claude Code ${CLAUDE_CODE_PACKAGE} beside its own supervision${skipped}`, () => {
  it('auto mode (its default): a command an ask rule covers is needs-input within a second of the hook; mori status says auto', async () => {
    await asksIn('os-auto', { permissions: { ask: ['Bash(rm:*)'] } }, 'auto');
  }, TEST_MS);

  it('default mode (the person\'s settings): a command is needs-input within a second of the hook; mori status says default', async () => {
    await asksIn('os-default', { permissions: { defaultMode: 'default' } }, 'default');
  }, TEST_MS);

  it('a conversation its background service holds is not resumed: attention(held-by-agent-daemon) with claude attach, no copy started', async () => {
    const r = await rig('os-held', {});
    const u = r.h.up();
    await until('waiting after the first turn', () => r.api.turns().length >= 1 && activities(u).at(-1) === 'waiting', why(r.h, u), STEP_MS);
    const id = agentId(r.h) as string;
    expect(r.h.mori('stop', NAME).code).toBe(0);
    await until("Mori's claude gone", () => claudePid(r.configDir, id) === null, why(r.h, u), STEP_MS);
    // The person hands the conversation to Claude's own background service.
    const short = await background(r.h, r.configDir, ['--resume', id]);
    await until('the background claude on the conversation', () => claudePid(r.configDir, id) !== null, () => short, STEP_MS);
    const held = claudePid(r.configDir, id);
    const turns = r.api.turns().length;

    expect(r.h.mori('start', NAME).code).toBe(0);
    await until('attention(held-by-agent-daemon)', () => hasEvent(u, 'session.attention', { reason: 'held-by-agent-daemon' }), why(r.h, u), STEP_MS);
    const event = u.lines().find((e) => e['type'] === 'session.attention' && e['reason'] === 'held-by-agent-daemon')!;
    expect(String(event['message'])).toContain(`claude attach ${short as string}`);
    expect(r.h.workLog(NAME)).toContain('SESSION NEEDS ATTENTION - held-by-agent-daemon');
    expect(r.h.mori('status', NAME).stdout).toContain('held-by-agent-daemon');
    // No copy: Mori started no claude, and the conversation is still the background one's alone.
    expect(u.lines().filter((e) => e['type'] === 'session.started')).toHaveLength(1);
    expect(claudePid(r.configDir, id)).toBe(held);
    expect(r.api.turns().length).toBe(turns);
  }, TEST_MS);

  it('mori init --adopt claude:<short> takes up a background session by attaching to it: a mori send reaches its conversation, no copy made', async () => {
    const r = await rig('os-adopt', {}, false);
    const short = await background(r.h, r.configDir, ['remember the word HERON']);
    await until('the background turn', () => r.api.turns().some((t) => JSON.stringify(t.body).includes('HERON')), () => short, STEP_MS);
    const made = r.h.mori('init', '--name', NAME, '--adopt', `claude:${short}`, '--backend', 'tmux', '--json');
    expect(made.code, made.stderr).toBe(0);
    const record = sessionJson(r.h, NAME) as unknown as { agent: { sessionId: string; cwd: string; fromOwnSupervisor?: boolean } };
    const id = record.agent.sessionId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(record.agent).toMatchObject({ fromOwnSupervisor: true, cwd: r.h.project });
    const held = claudePid(r.configDir, id);
    expect(held).not.toBeNull();
    const u = r.h.up();
    await until('attached', () => hasEvent(u, 'session.started', {}) && /HERON/.test(safeScreen(r.h)), why(r.h, u), STEP_MS);
    expect(r.h.workLog(NAME)).toContain(`claude attach ${short}`);
    // Opened by attaching, not by a resume that claude may or may not turn into one.
    const started = spawnSync('tmux', ['-L', r.h.socketName, 'list-panes', '-a', '-F', '#{pane_start_command}'], { encoding: 'utf8' }).stdout;
    expect(started).toMatch(new RegExp(`attach.{0,4}${short}`));
    expect(started).not.toContain('--resume');
    const before = r.api.turns().length;
    const sent = r.h.mori('send', NAME, 'what was the word?');
    expect(sent.code, `${sent.stderr}${why(r.h, u)()}`).toBe(0);
    await until('the question at the API', () => r.api.turns().slice(before).some((t) => JSON.stringify(t.body).includes('what was the word?')), why(r.h, u), STEP_MS);
    // The same conversation, in the same claude: its request carries the earlier turn; no second transcript.
    const asked = r.api.turns().slice(before).find((t) => JSON.stringify(t.body).includes('what was the word?'))!;
    expect(JSON.stringify(asked.body)).toContain('HERON');
    expect(claudePid(r.configDir, id)).toBe(held);
    const transcripts = readdirSync(path.dirname(claudeTranscript(r.configDir, r.h.project, id))).filter((f) => f.endsWith('.jsonl'));
    expect(transcripts).toEqual([`${id}.jsonl`]);
  }, TEST_MS);

  it('mori init --adopt of an id no background session holds fails, naming claude agents, and creates nothing', async () => {
    const r = await rig('os-adopt-none', {}, false);
    const made = r.h.mori('init', '--name', NAME, '--adopt', 'claude:0123abcd');
    expect(made.code).not.toBe(0);
    expect(made.stderr).toContain('holds no running session "0123abcd" (`claude agents` lists those it holds)');
    expect(existsSync(r.h.stateDir(NAME))).toBe(false);
  }, TEST_MS);
});
