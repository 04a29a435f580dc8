// opencode 1.18.33's hooks under a real `mori up` (DESIGN.md §4 "Hooks"): Mori's plugin, handed over
// in OPENCODE_CONFIG_CONTENT, against the loopback stand-in of the Messages API. With the screen not
// read (MORI_TEST_HOOKS_ONLY) the plugin's calls alone move the session through working (the turn
// starts), needs-input within a second of the plugin's call when opencode asks to run a bash command
// (the person's own config says `bash: ask`), working again once the person allows it, and waiting
// when the turn ends. The person's own plugin (in their global plugins dir) runs beside Mori's, their
// opencode.json is left as it was, and nothing is written into the project. One opencode start (its
// first start is the slow part). The CLI comes from test/support/agent-clis/install.sh's cache; absent → skipped.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEADLINE_MS, UpHarness } from '../../../support/mori-up.js';
import { activities, killPanes, spoolDir, timedLines, watchCalls } from '../../../support/hook-calls.js';
import { until } from '../../../../testkit/until.js';
import { installedCli, opencodeEnv, screen, sessionJson } from '../../../support/agent-clis/real-agents.js';
import { MessagesApiStandIn } from '../../../../testkit/messages-api.js';

const opencode = installedCli('opencode-ai', '1.18.33', 'opencode');
/**
 * opencode's first start in a fresh data dir: 17-35 s to the permission asked on a 2-core machine
 * (its npm registry on loopback: opencodeEnv), a busy machine several times that.
 */
const FIRST_START_MS = DEADLINE_MS * 6;
/** Each later step: opencode answers in seconds once started. */
const STEP_MS = 40_000;
const TEST_MS = FIRST_START_MS + STEP_MS * 3;
/** The brief's bound from a hook call to the daemon's event. */
const HOOK_TO_EVENT_MS = 1_000;
const NAME = 'hk';
const TASK = 'make the file';

let h: UpHarness | null = null;
let api: MessagesApiStandIn | null = null;
let stopWatching: (() => void) | null = null;
afterEach(async () => {
  stopWatching?.();
  stopWatching = null;
  if (h) killPanes(h);
  h?.cleanup();
  h = null;
  await api?.stop();
  api = null;
});

/** The person's own opencode setup: bash commands need their yes, and a plugin of theirs that leaves `marker` when a turn starts. Their opencode.json's text. */
function theirSetup(configDir: string, marker: string): string {
  const file = path.join(configDir, 'opencode.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...config, permission: { bash: 'ask' } }, null, 2));
  mkdirSync(path.join(configDir, 'plugins'), { recursive: true });
  writeFileSync(
    path.join(configDir, 'plugins', 'theirs.js'),
    [
      "import { writeFileSync } from 'node:fs';",
      'export const Theirs = async () => ({',
      `  event: async ({ event }) => { if (event.type === 'session.status') writeFileSync(${JSON.stringify(marker)}, 'ran'); },`,
      '});',
      '',
    ].join('\n'),
  );
  return readFileSync(file, 'utf8');
}

describe.skipIf('skip' in opencode)(`opencode hooks under mori up${'skip' in opencode ? ` (skipped: ${opencode.skip})` : ''}`, () => {
  it("its plugin alone: working, needs-input within a second of a permission asked, working once allowed, waiting at the turn's end; the person's plugin runs too", async () => {
    const t0 = Date.now();
    api = await MessagesApiStandIn.start({ defaultText: 'All done.' });
    // The task's turn asks to run a command: opencode asks the person first (their `bash: ask`).
    api.enqueue({ text: 'Making it.', toolUse: { name: 'bash', input: { command: 'touch made-by-tool.txt', description: 'make a file' } } });
    const harness = new UpHarness('hk-opencode', { MORI_TEST_HOOKS_ONLY: '1' });
    h = harness;
    Object.assign(harness.env, opencodeEnv(api.url, harness.tmp), { MORI_AGENT_BIN_OPENCODE: (opencode as { bin: string }).bin });
    const configDir = path.join(harness.tmp, 'opencode-home', '.config', 'opencode');
    const marker = path.join(harness.tmp, 'their-plugin-ran');
    const theirs = theirSetup(configDir, marker);
    const init = harness.mori('init', harness.project, '--name', NAME, '--agent', 'opencode', '--backend', 'tmux', '--task', TASK);
    expect(init.code, init.stderr).toBe(0);
    const u = harness.up();
    const timed = timedLines(u);
    const pane = (): string => `mori-${sessionJson(harness, NAME).id}`;
    const why = (): string => `${activities(u).join(' ')}\n${u.stderr()}\n${screen(harness, sessionJson(harness, NAME).id)}`;

    // The spool dir exists from the launch on: watch it before opencode's first event.
    await until('the launch', () => existsSync(path.join(harness.home, 'hooks', 'runs', sessionJson(harness, NAME).id)), why, STEP_MS);
    const w = watchCalls(spoolDir(harness, NAME));
    stopWatching = () => w.watcher.close();

    await until('needs-input', () => activities(u).includes('needs-input'), why, FIRST_START_MS);
    const firstStartS = Math.round((Date.now() - t0) / 1000);
    expect(activities(u)).toEqual(['working', 'needs-input']);
    const asked = w.calls.get('PermissionAsked')?.[0];
    expect(asked, `calls seen: ${[...w.calls.keys()].join(' ')}`).toBeDefined();
    const event = timed.find((t) => t.e['type'] === 'session.activity' && t.e['to'] === 'needs-input')!;
    const latency = event.at - (asked as number);
    expect(latency).toBeLessThanOrEqual(HOOK_TO_EVENT_MS);
    expect(harness.mori('ls', '--json').stdout).toContain('"needs-input"');
    expect(existsSync(path.join(harness.project, 'made-by-tool.txt'))).toBe(false);

    // The person allows it once at the terminal (the dialog's first choice): the command runs, the turn ends.
    spawnSync('tmux', ['-L', harness.socketName, 'send-keys', '-t', pane(), 'Enter']);
    await until('the tool ran', () => existsSync(path.join(harness.project, 'made-by-tool.txt')), why, STEP_MS);
    await until('waiting after the turn', () => activities(u).at(-1) === 'waiting', why, STEP_MS);
    expect(activities(u)).toEqual(['working', 'needs-input', 'working', 'waiting']);
    expect([...w.calls.keys()].sort()).toEqual(['Answered', 'Busy', 'Idle', 'PermissionAsked']);

    // Their plugin ran beside Mori's; their opencode.json is as they wrote it; nothing in the project.
    expect(existsSync(marker)).toBe(true);
    expect(readFileSync(path.join(configDir, 'opencode.json'), 'utf8')).toBe(theirs);
    expect(readdirSync(harness.project).filter((n) => n === '.opencode' || n.startsWith('opencode.'))).toEqual([]);
    // opencode installs its plugin package into config dirs it finds: Mori's hooks dir is not one.
    const hooksDir = readdirSync(path.join(harness.home, 'hooks')).sort();
    expect(hooksDir.filter((n) => !/^(report\.sh|runs|[0-9a-f]{32}(\.mjs)?)$/.test(n))).toEqual([]);
    expect(hooksDir.filter((n) => n.endsWith('.mjs'))).toHaveLength(1);
    const environ = readFileSync(`/proc/${u.lines().find((e) => e['type'] === 'session.started')?.['pid'] as number}/environ`, 'utf8').split('\0');
    expect(environ.find((v) => v.startsWith('OPENCODE_CONFIG_CONTENT='))).toContain(path.join(harness.home, 'hooks'));
    console.log(`opencode: launch → needs-input ${firstStartS} s; PermissionAsked spool file → session.activity needs-input: ${latency} ms; whole test ${Math.round((Date.now() - t0) / 1000)} s`);
  }, TEST_MS);
});
