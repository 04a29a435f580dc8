// Agent hooks on the real CLIs under a real `mori up` (DESIGN.md §4 "Hooks"), each CLI against a
// loopback stand-in of its API. With the screen not read (MORI_TEST_HOOKS_ONLY) Claude Code's
// UserPromptSubmit / PermissionRequest / Stop alone move the session through working, needs-input
// (within a second of the hook call, timed from the call's spool file to the daemon's event) and
// waiting, with the person's own settings hooks still running beside Mori's layer and no settings
// file of theirs or the project's written; `/clear` typed into the real claude moves the recorded
// session id, and a SIGKILL resumes the cleared conversation, not the old one; a turn the API
// fails says error by StopFailure. Gemini CLI's BeforeAgent / Notification(ToolPermission) /
// AfterAgent do the same, and its /clear the same, when Mori's home is one it takes a
// system-defaults file from (root's, closed to others); from any other home Mori hands it no layer
// and says so. (Codex CLI's: hooks-real-codex.test.ts.) The CLIs come from
// test/support/agent-clis/install.sh's cache; absent → skipped.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, type FSWatcher } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UpHarness } from '../../../support/mori-up.js';
import { activities, killPanes, spoolDir as spoolOf, started, timedLines, watchCalls as watchSpool } from '../../../support/hook-calls.js';
import { until } from '../../../../testkit/until.js';
import { geminiDefaultsRefusal } from '../../../../main/agents/gemini/defaults-check.js';
import { geminiEnv, installedCli, screen, sessionJson } from '../../../support/agent-clis/real-agents.js';
import { geminiTurns, startGeminiApi } from '../../../support/stand-ins/gemini-api.js';
import { CLAUDE_CODE_PACKAGE, claudeEnv, claudePid, installedAgentCli, seedClaudeConfig } from '../../../../testkit/real-claude.js';
import { messageTexts, MessagesApiStandIn } from '../../../../testkit/messages-api.js';
import { bodyText, type StandIn } from '../../../support/stand-ins/loopback-server.js';

const claudeBin = installedAgentCli(CLAUDE_CODE_PACKAGE, 'claude');
const gemini = installedCli('@google/gemini-cli', '0.61.0', 'gemini');
/** Gemini CLI takes ~15 s from launch to its first request on a busy 2-core machine. */
const GEMINI_START_MS = 50_000;
/** How long a typed command gets to take effect before Enter is pressed again. */
const GEMINI_ENTER_MS = 8_000;
/** Claude Code takes seconds to start on a loaded 2-core machine; each step gets this long. */
const STEP_MS = 40_000;
const TEST_MS = 90_000;
/** The brief's bound from a hook call to the daemon's event. */
const HOOK_TO_EVENT_MS = 1_000;
const NAME = 'hk';

let h: UpHarness | null = null;
let claudeApi: MessagesApiStandIn | null = null;
let api: StandIn | null = null;
let watcher: FSWatcher | null = null;
afterEach(async () => {
  watcher?.close();
  watcher = null;
  if (h) killPanes(h);
  const tmp = h?.tmp;
  try {
    h?.cleanup();
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    if (tmp) rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
  h = null;
  for (const dir of closedHomes.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  await claudeApi?.stop();
  claudeApi = null;
  await api?.close();
  api = null;
});

const spoolDir = (harness: UpHarness, home = harness.home): string => spoolOf(harness, NAME, home);
function watchCalls(dir: string): Map<string, number[]> {
  const w = watchSpool(dir);
  watcher = w.watcher;
  return w.calls;
}

/**
 * A Mori home Gemini CLI would read a system-defaults file from: every directory down to it root's
 * and closed to group and others. Only root can have one (under its own home); null otherwise.
 */
function closedHome(): string | null {
  if (process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(path.join(os.homedir(), '.mori-hooks-test-'));
  closedHomes.push(dir);
  return geminiDefaultsRefusal(path.join(dir, 'probe')) === null ? dir : null;
}
const closedHomes: string[] = [];

const fileOrNull = (file: string): string | null => (existsSync(file) ? readFileSync(file, 'utf8') : null);

describe.skipIf(claudeBin === null)(`Claude Code ${CLAUDE_CODE_PACKAGE} hooks under mori up${claudeBin === null ? ' (skipped: not installed)' : ''}`, () => {
  /** The stand-in, a harness whose claude talks to it, the person's own settings (an ask rule for Bash and a hook of theirs). */
  async function rig(prefix: string, env: NodeJS.ProcessEnv = {}) {
    claudeApi = await MessagesApiStandIn.start({ defaultText: 'OK.' });
    const harness = new UpHarness(prefix, env);
    h = harness;
    const home = path.join(harness.tmp, 'user-home');
    Object.assign(harness.env, claudeEnv(claudeBin as string, claudeApi.url, home));
    const configDir = String(harness.env['CLAUDE_CONFIG_DIR']);
    seedClaudeConfig(configDir, harness.project);
    // Auto mode (2.1.332's default) runs a harmless Bash call unasked; an ask rule of the person's
    // makes claude ask. Their own UserPromptSubmit hook proves Mori's layer adds to theirs.
    const marker = path.join(harness.tmp, 'their-hook-ran');
    const theirs = `${JSON.stringify({ permissions: { ask: ['Bash'] }, hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch '${marker}'` }] }] } }, null, 2)}\n`;
    writeFileSync(path.join(configDir, 'settings.json'), theirs);
    harness.init(NAME, 'tmux');
    return { api: claudeApi, h: harness, configDir, home, marker, theirs };
  }

  it('hooks alone: working on the prompt, needs-input within a second of PermissionRequest, waiting on Stop; no settings of the person or project written', async () => {
    const r = await rig('hk-claude', { MORI_TEST_HOOKS_ONLY: '1' });
    r.api.enqueue({ text: 'Ready.' }, { text: 'Running it.', toolUse: { name: 'Bash', input: { command: 'touch made-by-tool.txt', description: 'make a file' } } });
    const u = r.h.up();
    const timed = timedLines(u);
    const why = (): string => `${activities(u).join(' ')}\n${u.stderr()}\n${screen(r.h, sessionJson(r.h, NAME).id)}`;
    // SessionStart → waiting, then the task's turn: UserPromptSubmit → working, Stop → waiting, with no screen read.
    await until('waiting after the first turn', () => r.api.turns().length >= 1 && activities(u).includes('working') && activities(u).at(-1) === 'waiting', why, STEP_MS);
    expect(activities(u)).toEqual(['waiting', 'working', 'waiting']);
    const calls = watchCalls(spoolDir(r.h));

    expect(r.h.mori('send', NAME, 'please run it').code).toBe(0);
    await until('needs-input', () => activities(u).includes('needs-input'), why, STEP_MS);
    const asked = calls.get('PermissionRequest')?.[0];
    expect(asked, `hook calls seen: ${[...calls.keys()].join(' ')}`).toBeDefined();
    const event = timed.find((t) => t.e['type'] === 'session.activity' && t.e['to'] === 'needs-input')!;
    const latency = event.at - (asked as number);
    console.log(`claude: PermissionRequest spool file → session.activity needs-input: ${latency} ms; calls: ${[...calls.keys()].join(' ')}`);
    expect(latency).toBeLessThanOrEqual(HOOK_TO_EVENT_MS);
    // Working came before it, from UserPromptSubmit/PreToolUse.
    const seq = activities(u);
    expect(seq.slice(3, seq.indexOf('needs-input'))).toContain('working');
    const lsStart = Date.now();
    const ls = r.h.mori('ls', '--json');
    expect(ls.stdout).toContain('"needs-input"');
    console.log(`claude: mori ls --json took ${Date.now() - lsStart} ms`);

    // Mori types no answer to a question (approvals are the person's); the person answers at the terminal.
    // The hook says needs-input as the request is made, a moment before claude draws its menu: a "1"
    // sent before the menu is there is an ordinary prompt, which Mori rightly types.
    await until('the permission menu on screen', () => /Do you want to proceed\?/.test(screen(r.h, sessionJson(r.h, NAME).id)), why, STEP_MS);
    const refused = r.h.mori('send', NAME, '1');
    expect(refused.code, refused.stderr).not.toBe(0);
    spawnSync('tmux', ['-L', r.h.socketName, 'send-keys', '-t', `mori-${sessionJson(r.h, NAME).id}`, '1']);
    await until('the tool ran', () => existsSync(path.join(r.h.project, 'made-by-tool.txt')), why, STEP_MS);
    await until('waiting after the answer', () => activities(u).at(-1) === 'waiting' && activities(u).length > activities(u).indexOf('needs-input') + 1, why, STEP_MS);

    // Their hook ran beside Mori's; nothing of theirs or the project's was written.
    expect(existsSync(r.marker)).toBe(true);
    // (claude itself moves `autoUpdates: false` into it as env.DISABLE_AUTOUPDATER: not Mori's doing.)
    const after = readFileSync(path.join(r.configDir, 'settings.json'), 'utf8');
    expect(after).not.toContain(r.h.home);
    const was = JSON.parse(r.theirs) as Record<string, unknown>;
    const now = JSON.parse(after) as Record<string, unknown>;
    expect([now['hooks'], now['permissions']]).toEqual([was['hooks'], was['permissions']]);
    expect(fileOrNull(path.join(r.home, '.claude', 'settings.json'))).toBeNull();
    expect(existsSync(path.join(r.h.project, '.claude'))).toBe(false);
    expect(existsSync(path.join(r.configDir, 'settings.local.json'))).toBe(false);
  }, TEST_MS);

  it('hooks alone: a turn the API fails ends in StopFailure, which says error within a second', async () => {
    const r = await rig('hk-fail', { MORI_TEST_HOOKS_ONLY: '1' });
    const u = r.h.up();
    const timed = timedLines(u);
    const why = (): string => `${activities(u).join(' ')}\n${u.stderr()}\n${screen(r.h, sessionJson(r.h, NAME).id)}`;
    await until('waiting after the first turn', () => r.api.turns().length >= 1 && activities(u).at(-1) === 'waiting' && activities(u).includes('working'), why, STEP_MS);
    const calls = watchCalls(spoolDir(r.h));
    await r.api.stop();
    expect(r.h.mori('send', NAME, 'one more thing').code).toBe(0);
    await until('error', () => activities(u).includes('error'), why, STEP_MS);
    const failed = calls.get('StopFailure')?.[0];
    expect(failed, `hook calls seen: ${[...calls.keys()].join(' ')}`).toBeDefined();
    const event = timed.find((t) => t.e['type'] === 'session.activity' && t.e['to'] === 'error')!;
    console.log(`claude: StopFailure spool file → session.activity error: ${event.at - (failed as number)} ms`);
    expect(event.at - (failed as number)).toBeLessThanOrEqual(HOOK_TO_EVENT_MS);
  }, TEST_MS);

  it('/clear typed into claude: the new session id is recorded, and a SIGKILL resumes the cleared conversation', async () => {
    const r = await rig('hk-clear');
    r.api.enqueue({ text: 'Noted: the code word is PELICAN.' });
    const u = r.h.up();
    const why = (): string => `${activities(u).join(' ')}\n${u.stderr()}\n${screen(r.h, sessionJson(r.h, NAME).id)}`;
    await until('the first turn over', () => r.api.turns().length >= 1 && activities(u).at(-1) === 'waiting', why, STEP_MS);
    const first = sessionJson(r.h, NAME).agent.sessionId as string;
    expect(first).toMatch(/^[0-9a-f-]{36}$/);

    expect(r.h.mori('send', NAME, '/clear').code).toBe(0);
    await until('the new id in session.json', () => ![null, first].includes(sessionJson(r.h, NAME).agent.sessionId), why, STEP_MS);
    const cleared = sessionJson(r.h, NAME).agent.sessionId as string;
    // The entry follows session.json at once, or a moment later when another writer held the work log's lock.
    // Two signals name the new id, whichever comes first: the SessionStart hook (source clear) and
    // claude's status file (read for the screen's activity, which follows a /clear with hooks off); one entry.
    const changedLine = new RegExp(`AGENT SESSION CHANGED - Claude Code session ${first} → ${cleared}: (the conversation was cleared \\(/clear\\)|its status file names a new conversation)`);
    await until('the change in the work log', () => changedLine.test(r.h.workLog(NAME)), () => r.h.workLog(NAME).slice(-2000), STEP_MS);
    expect(r.h.workLog(NAME).match(/AGENT SESSION CHANGED/g)).toHaveLength(1);

    // A turn after /clear, then claude killed outright.
    r.api.enqueue({ text: 'Noted: the new code word is OSPREY.' });
    const beforeTurn = r.api.turns().length;
    expect(r.h.mori('send', NAME, 'the new code word is OSPREY').code).toBe(0);
    await until('the post-clear turn answered', () => r.api.turns().length > beforeTurn && activities(u).at(-1) === 'waiting', why, STEP_MS);
    const postClear = messageTexts(r.api.turns().at(-1)!.body).map((m) => m.text).join('\n');
    expect(postClear).toContain('OSPREY');
    expect(postClear).not.toContain('PELICAN');
    const pid = claudePid(r.configDir, cleared);
    expect(pid).not.toBeNull();
    const before = r.api.turns().length;
    process.kill(pid as number, 'SIGKILL');

    await until('the resumed turn', () => r.api.turns().length > before, why, STEP_MS);
    const resumed = messageTexts(r.api.turns()[before]!.body).map((m) => m.text).join('\n');
    expect(resumed).toContain('OSPREY');
    expect(resumed).not.toContain('PELICAN');
    const again = started(u).at(-1)?.['pid'] as number;
    expect(started(u)).toHaveLength(2);
    expect(again).not.toBe(pid);
    const argv = readFileSync(`/proc/${again}/cmdline`, 'utf8').split('\0');
    expect(argv.slice(argv.indexOf('--resume'), argv.indexOf('--resume') + 2)).toEqual(['--resume', cleared]);
    expect(sessionJson(r.h, NAME).agent.sessionId).toBe(cleared);
  }, TEST_MS);
});

describe.skipIf('skip' in gemini)(`Gemini CLI hooks under mori up${'skip' in gemini ? ` (skipped: ${gemini.skip})` : ''}`, () => {
  /** The stand-in (its second turn asks for a shell command), a harness for a gemini session, Mori's home `home`. */
  async function rig(prefix: string, home: string | null, standIn?: StandIn): Promise<UpHarness> {
    api = standIn ?? (await startGeminiApi(0, { after: 1, calls: [{ functionCall: { name: 'run_shell_command', args: { command: 'touch made-by-tool.txt', description: 'make a file' } } }] }));
    const harness = new UpHarness(prefix, { MORI_TEST_HOOKS_ONLY: '1', ...(home !== null ? { MORI_HOME: home } : {}) });
    h = harness;
    // Folder trust off in its settings: the project counts as trusted, so its hooks run.
    Object.assign(harness.env, geminiEnv(api, harness.tmp), { MORI_AGENT_BIN_GEMINI: (gemini as { bin: string }).bin });
    const init = harness.mori('init', harness.project, '--name', NAME, '--agent', 'gemini', '--backend', 'tmux', '--task', 'write the thing');
    expect(init.code, init.stderr).toBe(0);
    return harness;
  }
  const userSettings = (harness: UpHarness): string => path.join(harness.tmp, 'gemini-home', '.gemini', 'settings.json');

  it('hooks alone, Mori home root-owned and closed: working on BeforeAgent, needs-input within a second of Notification(ToolPermission), waiting on AfterAgent', async () => {
    const home = closedHome();
    const harness = await rig('hk-gemini', home);
    if (home === null) {
      // Not root: no home Gemini CLI would take the layer from; Mori says so instead of handing it over.
      const u = harness.up();
      await until('HOOKS OFF', () => existsSync(path.join(harness.stateDir(NAME), 'work_log.md')) && /HOOKS OFF - Gemini CLI/.test(harness.workLog(NAME)), u.stderr, STEP_MS);
      return;
    }
    const u = harness.up();
    const timed = timedLines(u);
    const why = (): string => `${activities(u).join(' ')}\n${u.stderr()}\n${screen(harness, sessionJson(harness, NAME).id)}`;
    await until('waiting after the first turn', () => geminiTurns(api!).length >= 1 && activities(u).includes('working') && activities(u).at(-1) === 'waiting', why, GEMINI_START_MS);
    expect(activities(u)).toEqual(['waiting', 'working', 'waiting']);
    const calls = watchCalls(spoolDir(harness, home));

    expect(harness.mori('send', NAME, 'please run it').code).toBe(0);
    await until('needs-input', () => activities(u).includes('needs-input'), why, STEP_MS);
    const asked = calls.get('Notification')?.[0];
    expect(asked, `hook calls seen: ${[...calls.keys()].join(' ')}`).toBeDefined();
    const event = timed.find((t) => t.e['type'] === 'session.activity' && t.e['to'] === 'needs-input')!;
    console.log(`gemini: Notification spool file → session.activity needs-input: ${event.at - (asked as number)} ms; calls: ${[...calls.keys()].join(' ')}`);
    expect(event.at - (asked as number)).toBeLessThanOrEqual(HOOK_TO_EVENT_MS);
    expect(activities(u).slice(3, activities(u).indexOf('needs-input'))).toContain('working');
    expect(harness.mori('ls', '--json').stdout).toContain('"needs-input"');

    // The person allows it once (the highlighted choice): the command runs, the turn ends.
    spawnSync('tmux', ['-L', harness.socketName, 'send-keys', '-t', `mori-${sessionJson(harness, NAME).id}`, 'Enter']);
    await until('the tool ran', () => existsSync(path.join(harness.project, 'made-by-tool.txt')), why, STEP_MS);
    await until('waiting after the answer', () => activities(u).at(-1) === 'waiting' && activities(u).length > activities(u).indexOf('needs-input') + 1, why, STEP_MS);
    // (Gemini CLI rewrites its own settings file, dropping keys it has retired: not Mori's doing.)
    const after = readFileSync(userSettings(harness), 'utf8');
    expect(after).not.toContain('hooks');
    expect(after).not.toContain(home);
    expect(existsSync(path.join(harness.project, '.gemini'))).toBe(false);
  }, TEST_MS);

  it('/clear typed into gemini: the new session id is recorded, and a SIGKILL resumes the cleared conversation', async () => {
    const home = closedHome();
    api = await startGeminiApi();
    const harness = await rig('hk-gemini-clear', home, api);
    const u = harness.up();
    if (home === null) {
      await until('HOOKS OFF', () => existsSync(path.join(harness.stateDir(NAME), 'work_log.md')) && /HOOKS OFF - Gemini CLI/.test(harness.workLog(NAME)), u.stderr, STEP_MS);
      return;
    }
    const why = (): string => `${activities(u).join(' ')}\n${u.stderr()}\n${screen(harness, sessionJson(harness, NAME).id)}`;
    const turns = (): number => geminiTurns(api!).length;
    await until('the first turn over', () => turns() >= 1 && activities(u).at(-1) === 'waiting' && activities(u).includes('working'), why, GEMINI_START_MS);
    const first = sessionJson(harness, NAME).agent.sessionId as string;
    // Typed at the terminal: `mori send` waits for the agent to start working after Enter, and /clear starts no turn.
    const pane = `mori-${sessionJson(harness, NAME).id}`;
    const changed = (): boolean => ![null, first].includes(sessionJson(harness, NAME).agent.sessionId);
    spawnSync('tmux', ['-L', harness.socketName, 'send-keys', '-t', pane, '-l', '/clear']);
    // Gemini's completion menu opens on `/`: Enter once it shows, and again (as a person would) if a
    // busy machine's first Enter only closed the menu.
    await until('the completion menu', () => screen(harness, sessionJson(harness, NAME).id).includes('Clear the screen'), why, STEP_MS);
    for (let tries = 0; tries < 3 && !changed(); tries++) {
      spawnSync('tmux', ['-L', harness.socketName, 'send-keys', '-t', pane, 'Enter']);
      await until('the new id in session.json', changed, why, GEMINI_ENTER_MS).catch(() => undefined);
    }
    expect(changed(), why()).toBe(true);
    const cleared = sessionJson(harness, NAME).agent.sessionId as string;
    const changedLine = `AGENT SESSION CHANGED - Gemini CLI session ${first} → ${cleared}: the conversation was cleared (/clear)`;
    await until('the change in the work log', () => harness.workLog(NAME).includes(changedLine), () => harness.workLog(NAME).slice(-2000), STEP_MS);

    // Turn 2 after /clear (its reply: `stand-in reply 2`), then gemini killed with its process group.
    expect(harness.mori('send', NAME, 'the new code word is OSPREY').code).toBe(0);
    await until('the post-clear turn answered', () => turns() >= 2 && activities(u).at(-1) === 'waiting', why, STEP_MS);
    expect(bodyText(geminiTurns(api).at(-1)!.body)).not.toContain('stand-in reply 1');
    const pid = started(u)[0]!['pid'] as number;
    process.kill(-pid, 'SIGKILL');
    await until('the resumed turn', () => turns() >= 3, why, GEMINI_START_MS);
    const resumed = bodyText(geminiTurns(api)[2]!.body);
    expect(resumed).toContain('OSPREY');
    expect(resumed).toContain('stand-in reply 2');
    expect(resumed).not.toContain('stand-in reply 1');
    expect(harness.workLog(NAME)).toContain(`agent relaunched with its resume command (session ${cleared})`);
  }, TEST_MS);

  it('a Mori home Gemini CLI would not read its layer from (under /tmp): hooks off and said so, no warning on its screen', async () => {
    const harness = await rig('hk-gemini-open', null);
    const u = harness.up();
    const why = (): string => `${u.stderr()}\n${screen(harness, sessionJson(harness, NAME).id)}`;
    await until('the first turn', () => geminiTurns(api!).length >= 1, why, GEMINI_START_MS);
    expect(harness.workLog(NAME)).toMatch(/HOOKS OFF - Gemini CLI reads a system-defaults file [^\n]*only when it and every directory above it are owned by root and writable by no one else, and \/[^\n]* is (writable by group or others|not owned by root)/);
    expect(screen(harness, sessionJson(harness, NAME).id)).not.toContain('Skipping system defaults');
    expect(readdirSync(path.join(harness.home, 'hooks')).filter((n) => n.endsWith('.json'))).toEqual([]);
  }, TEST_MS);
});
