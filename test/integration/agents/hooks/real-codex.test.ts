// Codex CLI 0.171.0's hooks under a real `mori up` (DESIGN.md §4 "Hooks"), against the loopback
// stand-in of the Responses API. With the screen not read (MORI_TEST_HOOKS_ONLY) Mori's hooks,
// handed over with their trust as `--config` overrides, alone move the session through working
// (UserPromptSubmit), needs-input within a second of PermissionRequest (an `exec_command` asking to
// run outside the sandbox) and waiting (Stop); a hook of the person's own in their config.toml runs
// beside Mori's, and their config.toml is left as it was. `/new` typed into the real codex moves the
// recorded session id (its SessionStart), and a SIGKILL resumes the new conversation, not the old
// one. The CLI comes from test/support/agent-clis/install.sh's cache; absent → skipped.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UpHarness } from '../../../support/mori-up.js';
import { activities, killPanes, spoolDir, started, timedLines, watchCalls } from '../../../support/hook-calls.js';
import { until } from '../../../../testkit/until.js';
import { codexHookHash } from '../../../../main/agents/codex/hooks.js';
import { allRequestText, codexEnv, installedCli, screen, sessionJson } from '../../../support/agent-clis/real-agents.js';
import { bodyText, type StandIn } from '../../../support/stand-ins/loopback-server.js';
import { responseTurns, startResponsesApi } from '../../../support/stand-ins/responses-api.js';

const codex = installedCli('@openai/codex', '0.171.0', 'codex');
/** Codex starts in seconds, slower on a loaded 2-core machine; each step gets this long. */
const STEP_MS = 40_000;
const TEST_MS = 150_000;
/** The brief's bound from a hook call to the daemon's event. */
const HOOK_TO_EVENT_MS = 1_000;
/** How long a typed slash command gets to show its menu before Enter (and again, if a busy machine's first Enter only closed it). */
const MENU_MS = 1_500;
const NAME = 'hk';
const TASK = 'write the thing';
/** The prompt that makes the first conversation's tool call: a request holding it carries that conversation. */
const OLD_PROMPT = 'please run it';

let h: UpHarness | null = null;
let api: StandIn | null = null;
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

/**
 * The person's own Codex config: approvals on request, and a UserPromptSubmit hook of theirs they
 * trusted (its trust recorded as Codex records it, keyed by their config.toml). Its text.
 */
function theirConfig(file: string, marker: string): string {
  const command = `touch '${marker}'`;
  const hash = codexHookHash('user_prompt_submit', { type: 'command', command, timeout: 3, async: false });
  writeFileSync(file, readFileSync(file, 'utf8').replace('approval_policy = "never"', 'approval_policy = "on-request"'));
  appendFileSync(
    file,
    [
      '[[hooks.UserPromptSubmit]]',
      '[[hooks.UserPromptSubmit.hooks]]',
      'type = "command"',
      `command = ${JSON.stringify(command)}`,
      'timeout = 3',
      '',
      `[hooks.state.${JSON.stringify(`${file}:user_prompt_submit:0:0`)}]`,
      `trusted_hash = ${JSON.stringify(hash)}`,
      '',
    ].join('\n'),
  );
  return readFileSync(file, 'utf8');
}

describe.skipIf('skip' in codex)(`Codex CLI hooks under mori up${'skip' in codex ? ` (skipped: ${codex.skip})` : ''}`, () => {
  it('hooks alone: working, needs-input within a second of PermissionRequest, waiting on Stop; /new moves the id and a SIGKILL resumes the new conversation', async () => {
    // The second model turn asks to run a command outside the sandbox: Codex asks the person first.
    api = await startResponsesApi(0, {
      after: 1,
      calls: [{ name: 'exec_command', arguments: { cmd: 'touch made-by-tool.txt', sandbox_permissions: 'require_escalated', justification: 'make a file' } }],
    });
    const harness = new UpHarness('hk-codex', { MORI_TEST_HOOKS_ONLY: '1' });
    h = harness;
    Object.assign(harness.env, codexEnv(api, harness.tmp, harness.project), { MORI_AGENT_BIN_CODEX: (codex as { bin: string }).bin });
    const configFile = path.join(harness.tmp, 'codex-home', 'config.toml');
    const marker = path.join(harness.tmp, 'their-hook-ran');
    const theirs = theirConfig(configFile, marker);
    const init = harness.mori('init', harness.project, '--name', NAME, '--agent', 'codex', '--backend', 'tmux', '--task', TASK);
    expect(init.code, init.stderr).toBe(0);
    const u = harness.up();
    const timed = timedLines(u);
    const pane = (): string => `mori-${sessionJson(harness, NAME).id}`;
    const why = (): string => `${activities(u).join(' ')}\n${u.stderr()}\n${screen(harness, sessionJson(harness, NAME).id)}`;

    // The task's turn: UserPromptSubmit → working, Stop → waiting, with no screen read.
    await until('waiting after the first turn', () => responseTurns(api!).length >= 1 && activities(u).at(-1) === 'waiting', why, STEP_MS);
    expect(activities(u)).toEqual(['working', 'waiting']);
    await until('the session id', () => sessionJson(harness, NAME).agent.sessionId !== null, why, STEP_MS);
    const first = sessionJson(harness, NAME).agent.sessionId as string;
    const w = watchCalls(spoolDir(harness, NAME));
    stopWatching = () => w.watcher.close();

    expect(harness.mori('send', NAME, OLD_PROMPT).code).toBe(0);
    await until('needs-input', () => activities(u).includes('needs-input'), why, STEP_MS);
    const asked = w.calls.get('PermissionRequest')?.[0];
    expect(asked, `hook calls seen: ${[...w.calls.keys()].join(' ')}`).toBeDefined();
    const event = timed.find((t) => t.e['type'] === 'session.activity' && t.e['to'] === 'needs-input')!;
    const latency = event.at - (asked as number);
    console.log(`codex: PermissionRequest spool file → session.activity needs-input: ${latency} ms; calls: ${[...w.calls.keys()].join(' ')}`);
    expect(latency).toBeLessThanOrEqual(HOOK_TO_EVENT_MS);
    expect(activities(u).slice(2, activities(u).indexOf('needs-input'))).toContain('working');
    expect(harness.mori('ls', '--json').stdout).toContain('"needs-input"');

    // The person allows it once at the terminal: the command runs (PostToolUse), the turn ends (Stop).
    // The hook says needs-input as codex asks, before its dialog takes keys: the person answers what
    // they see (a key sent earlier was lost under load).
    await until('the approval dialog', () => screen(harness, sessionJson(harness, NAME).id).includes('Yes, proceed'), why, STEP_MS);
    spawnSync('tmux', ['-L', harness.socketName, 'send-keys', '-t', pane(), 'y']);
    await until('the tool ran', () => existsSync(path.join(harness.project, 'made-by-tool.txt')), why, STEP_MS);
    await until('waiting after the answer', () => activities(u).at(-1) === 'waiting' && activities(u).length > activities(u).indexOf('needs-input') + 1, why, STEP_MS);
    expect(w.calls.has('PostToolUse')).toBe(true);

    // Their hook ran beside Mori's; their config.toml keeps every line they wrote and nothing of
    // Mori's (codex adds its own `[tui]` notes to it: not Mori's doing); nothing in the project.
    expect(existsSync(marker)).toBe(true);
    const after = readFileSync(configFile, 'utf8');
    expect(theirs.split('\n').filter((l) => !after.split('\n').includes(l))).toEqual([]);
    expect(after).not.toContain(harness.home);
    expect(readdirSync(harness.project).filter((n) => n === '.codex')).toEqual([]);

    // `/new` at the terminal, then a turn in the new conversation: its SessionStart names the new id.
    spawnSync('tmux', ['-L', harness.socketName, 'send-keys', '-t', pane(), '-l', '/new']);
    for (let tries = 0; tries < 3 && screen(harness, sessionJson(harness, NAME).id).includes('stand-in reply'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, MENU_MS));
      spawnSync('tmux', ['-L', harness.socketName, 'send-keys', '-t', pane(), 'Enter']);
      await until('the new conversation on screen', () => !screen(harness, sessionJson(harness, NAME).id).includes('stand-in reply'), why, MENU_MS * 2).catch(() => undefined);
    }
    expect(screen(harness, sessionJson(harness, NAME).id)).not.toContain('stand-in reply');
    const beforeNew = responseTurns(api).length;
    expect(harness.mori('send', NAME, 'the new code word is OSPREY').code).toBe(0);
    await until('the new id in session.json', () => ![null, first].includes(sessionJson(harness, NAME).agent.sessionId), why, STEP_MS);
    const second = sessionJson(harness, NAME).agent.sessionId as string;
    const changedLine = `AGENT SESSION CHANGED - Codex CLI session ${first} → ${second}: the agent started a new session`;
    await until('the change in the work log', () => harness.workLog(NAME).includes(changedLine), () => harness.workLog(NAME).slice(-2000), STEP_MS);
    await until('the post-/new turn answered', () => responseTurns(api!).length > beforeNew && activities(u).at(-1) === 'waiting', why, STEP_MS);
    const postNew = bodyText(responseTurns(api).at(-1)!.body);
    expect(postNew).toContain('OSPREY');
    expect(postNew).not.toContain(OLD_PROMPT);

    // Codex killed outright: Mori resumes the conversation the person is in.
    const pid = started(u)[0]!['pid'] as number;
    const before = responseTurns(api).length;
    process.kill(-pid, 'SIGKILL');
    await until('the resumed turn', () => responseTurns(api!).length > before, () => `${why()}\n${allRequestText(api!).slice(-2000)}`, STEP_MS);
    const resumed = bodyText(responseTurns(api)[before]!.body);
    expect(resumed).toContain('OSPREY');
    // (Mori's resume prompt names the task; the old conversation's own turns are not there.)
    expect(resumed).not.toContain(OLD_PROMPT);
    expect(started(u)).toHaveLength(2);
    const argv = readFileSync(`/proc/${started(u)[1]!['pid'] as number}/cmdline`, 'utf8').split('\0');
    expect(argv).toContain('resume');
    expect(argv).toContain(second);
    expect(argv.filter((a) => a.startsWith('hooks.')).length).toBeGreaterThan(0);
    expect(sessionJson(harness, NAME).agent.sessionId).toBe(second);
  }, TEST_MS);
});
