// Codex CLI and Gemini CLI under a real `mori up` (tmux backend), each against a loopback stand-in
// of its API (test/support/stand-ins/), nothing reaching any other address. Per CLI: a new session sends the
// task in its first request and Mori records the agent's session id; a SIGKILL and a reboot each
// relaunch it with its own id and the next request carries the earlier turn; an API outage leaves
// the agent retrying by itself, which a network resume must not type into, and it finishes the turn
// once the API is back; a SIGSTOP'd sleep ends in a nudge that reaches the API with the history.
// The CLIs come from test/support/agent-clis/install.sh (a shared cache, not node_modules); absent → skipped.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEADLINE_MS, hasEvent, UpHarness, type Up } from '../../support/mori-up.js';
import { until } from '../../../testkit/until.js';
import { codexEnv, geminiEnv, installedCli, requestWith, requestsSummary, screen, sessionJson, allRequestText } from '../../support/agent-clis/real-agents.js';
import { startGeminiApi } from '../../support/stand-ins/gemini-api.js';
import type { StandIn } from '../../support/stand-ins/loopback-server.js';
import { startResponsesApi } from '../../support/stand-ins/responses-api.js';

/** A word only the task holds, so a request carrying it carries the first turn. */
const TASK = 'write the word pelican into notes.txt';
const TASK_WORD = 'pelican';
/** Every stand-in answer starts so: a request holding it carries an earlier answer. */
const REPLY = 'stand-in reply';
const NUDGE_WORDS = 'You were interrupted';
/** Gemini CLI takes ~15 s from launch to its first request on a busy 2-core machine: room for that. */
const CLI_START_MS = DEADLINE_MS * 2;
/** Three CLI starts at most per test, with room. */
const TEST_TIMEOUT_MS = 150_000;

interface Cli {
  profile: 'codex' | 'gemini';
  found: { bin: string } | { skip: string };
  startApi: () => Promise<StandIn>;
  env: (api: StandIn, h: { tmp: string; project: string }) => Record<string, string | undefined>;
  /** What the screen shows while the CLI retries an unreachable API by itself. */
  retrying: RegExp;
  /** The agent's own record of the session holds the first answer (it is written a little after the screen shows it). */
  recordExists: (h: UpHarness, id: string) => boolean;
}

/** Whether a file under `dir` whose name passes `pred` has a line holding the stand-in's answer that passes `line`. */
const recordWithReply = (dir: string, pred: (name: string) => boolean, line: (l: string) => boolean = () => true): boolean => {
  if (!existsSync(dir)) return false;
  return readdirSync(dir, { withFileTypes: true, recursive: true }).some(
    (e) => e.isFile() && pred(e.name) && readFileSync(path.join(e.parentPath, e.name), 'utf8').split('\n').some((l) => l.includes(REPLY) && line(l)),
  );
};

const CLIS: Cli[] = [
  {
    profile: 'codex',
    found: installedCli('@openai/codex', '0.171.0', 'codex'),
    startApi: () => startResponsesApi(),
    env: (api, h) => codexEnv(api, h.tmp, h.project),
    retrying: /Reconnecting\.\.\. waiting for network/,
    // The turn's end (`task_complete`), not its first mention of the answer: Codex logs the answer
    // as an event a few ms before the history item a resume is built from, and a kill between the two
    // resumes without it.
    recordExists: (h, id) => recordWithReply(path.join(h.tmp, 'codex-home', 'sessions'), (n) => n.endsWith(`-${id}.jsonl`), (l) => l.includes('"type":"task_complete"')),
  },
  {
    profile: 'gemini',
    found: installedCli('@google/gemini-cli', '0.61.0', 'gemini'),
    startApi: () => startGeminiApi(),
    env: (api, h) => geminiEnv(api, h.tmp),
    retrying: /Thinking\.\.\. \(esc to cancel/,
    recordExists: (h, id) => recordWithReply(path.join(h.tmp, 'gemini-home', '.gemini', 'tmp'), (n) => n.startsWith('session-') && n.includes(id.slice(0, 8))),
  },
];

function listen(port = 0): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((s) => s.destroy());
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
const close = (s: net.Server): Promise<void> => new Promise((r) => s.close(() => r()));

/**
 * Every agent on the test's tmux server killed with its process group, then the server: a reboot's
 * worth of ending (Gemini CLI ignores the SIGHUP that killing the server alone sends).
 */
function killAgents(harness: UpHarness): void {
  const panes = spawnSync('tmux', ['-L', harness.socketName, 'list-panes', '-a', '-F', '#{pane_pid}'], { encoding: 'utf8' });
  for (const pid of (panes.stdout ?? '').split('\n').filter(Boolean).map(Number)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  spawnSync('tmux', ['-L', harness.socketName, 'kill-server'], { stdio: 'ignore' });
}

let h: UpHarness | null = null;
let api: StandIn | null = null;
afterEach(async () => {
  if (h) killAgents(h);
  h?.cleanup();
  h = null;
  await api?.close();
  api = null;
});

const started = (u: Up): Record<string, unknown>[] => u.lines().filter((e) => e['type'] === 'session.started');

for (const cli of CLIS) {
  const skip = 'skip' in cli.found ? cli.found.skip : null;
  describe.skipIf(skip !== null)(`${cli.profile} CLI under mori up${skip !== null ? ` (skipped: ${skip})` : ''}`, () => {
    /** A harness whose mori runs this CLI against a fresh stand-in, and one session `s` of it. */
    async function setUp(label: string, extra: NodeJS.ProcessEnv = {}): Promise<{ h: UpHarness; api: StandIn; name: string }> {
      api = await cli.startApi();
      const harness = new UpHarness(`${cli.profile}-${label}`);
      h = harness;
      Object.assign(harness.env, cli.env(api, harness), { [`MORI_AGENT_BIN_${cli.profile.toUpperCase()}`]: (cli.found as { bin: string }).bin }, extra);
      const r = harness.mori('init', harness.project, '--name', 's', '--agent', cli.profile, '--backend', 'tmux', '--task', TASK);
      if (r.code !== 0) throw new Error(`mori init failed: ${r.stderr}`);
      return { h: harness, api, name: 's' };
    }

    /** Up, the first turn answered, the agent idle again and its id in session.json: the id. */
    /** How long the agent must stay at its prompt before the test freezes it. */
    const SETTLED_MS = 3_000;

    async function firstTurn(t: { h: UpHarness; api: StandIn; name: string }, u: Up): Promise<string> {
      const why = (): string => `${u.stderr()}\n${screen(t.h, sessionJson(t.h, t.name).id)}`;
      await until('the task in a request', () => requestWith(t.api, [TASK_WORD]), why, CLI_START_MS);
      await until('the agent idle after its answer', () => hasEvent(u, 'session.activity', { to: 'waiting' }), why);
      await until('the agent session id in session.json', () => sessionJson(t.h, t.name).agent.sessionId !== null, why);
      const id = sessionJson(t.h, t.name).agent.sessionId as string;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      await until('the agent record of its session', () => cli.recordExists(t.h, id), why);
      return id;
    }

    it('records the id from the first turn; after a SIGKILL and after a reboot it resumes that session with its history', async () => {
      const t = await setUp('crash', { MORI_BOOT_ID: 'boot-a' });
      const u = t.h.up();
      const id = await firstTurn(t, u);
      expect(started(u)[0]?.['launch']).toBe('new');

      // A crash: the agent's process group killed outright, as the OOM killer would.
      const before = t.api.requests.length;
      process.kill(-(started(u)[0]!['pid'] as number), 'SIGKILL');
      await until('the relaunch', () => started(u).length === 2, u.stderr);
      expect(started(u)[1]?.['launch']).toBe('resume');
      await until('the resumed turn carrying the earlier one', () => requestWith(t.api, [TASK_WORD, REPLY], before), () => `${requestsSummary(t.api, [TASK_WORD, REPLY], 0)}\n${screen(t.h, sessionJson(t.h, t.name).id)}`, CLI_START_MS);
      expect(sessionJson(t.h, t.name).agent.sessionId).toBe(id);
      expect(t.h.workLog(t.name)).toContain(`agent relaunched with its resume command (session ${id})`);
      await until('the resumed agent idle', () => u.lines().filter((e) => e['type'] === 'session.activity' && e['to'] === 'waiting').length >= 2, u.stderr, CLI_START_MS);

      // A reboot: Mori and every agent gone, a new boot id.
      u.child.kill('SIGKILL');
      await u.exited;
      killAgents(t.h);
      const afterReboot = t.api.requests.length;
      const u2 = t.h.up([], { MORI_BOOT_ID: 'boot-b' });
      // What the new supervisor did instead, should it not relaunch: its events and the work log's end.
      const after = (): string => `${u2.stderr()}\nevents: ${u2.lines().map((e) => `${String(e['type'])}${e['to'] ? `→${String(e['to'])}` : ''}`).join(' ')}\nwork log: ${t.h.workLog(t.name).slice(-1500)}`;
      await until('the relaunch after the reboot', () => started(u2).length === 1, after);
      expect(started(u2)[0]?.['launch']).toBe('resume');
      await until('the turn after the reboot carrying the earlier ones', () => requestWith(t.api, [TASK_WORD, REPLY], afterReboot), () => `${requestsSummary(t.api, [TASK_WORD, REPLY], 0)}\n${screen(t.h, sessionJson(t.h, t.name).id)}`, CLI_START_MS);
      expect(sessionJson(t.h, t.name).agent.sessionId).toBe(id);
      expect(t.h.workLog(t.name)).toMatch(/SESSION RESUMED - reboot; [^\n]*agent relaunched with its resume command/);
    }, TEST_TIMEOUT_MS);

    it.skipIf(cli.profile !== 'codex')('when the agent cannot resume its session (its record is gone) Mori starts it fresh at once and says why', async () => {
      const t = await setUp('gone');
      const u = t.h.up();
      const id = await firstTurn(t, u);
      const rollouts = path.join(t.h.tmp, 'codex-home', 'sessions');
      // Mori held still (well under the sleep detector's 5 s) while the agent dies and its rollout
      // goes: only the thread in state_5.sqlite is left, which `codex resume` cannot use (exit 1).
      const upPid = u.child.pid as number;
      const before = t.api.requests.length;
      process.kill(upPid, 'SIGSTOP');
      try {
        process.kill(-(started(u)[0]!['pid'] as number), 'SIGKILL');
        for (const e of readdirSync(rollouts, { withFileTypes: true, recursive: true })) {
          if (e.isFile() && e.name.endsWith(`-${id}.jsonl`)) rmSync(path.join(e.parentPath, e.name));
        }
      } finally {
        process.kill(upPid, 'SIGCONT');
      }
      await until('the relaunch', () => started(u).length === 2, u.stderr);
      expect(started(u)[1]?.['launch']).toBe('fresh');
      expect(t.h.workLog(t.name)).toContain(`agent started fresh with the resume prompt (Codex CLI cannot resume session ${id}: its record of it is not on disk)`);
      // The full resume prompt reaches the API, and the new Codex session's id replaces the old one.
      await until('the fresh turn', () => requestWith(t.api, [TASK_WORD, 'session_state.md'], before), () => screen(t.h, sessionJson(t.h, t.name).id), CLI_START_MS);
      await until('the new id', () => ![null, id].includes(sessionJson(t.h, t.name).agent.sessionId), u.stderr);
      expect(t.h.workLog(t.name)).not.toContain('resume failed');
    }, TEST_TIMEOUT_MS);

    it.skipIf(cli.profile !== 'codex')('a Mori that ended before it learnt the id learns it when it re-attaches the running agent', async () => {
      const t = await setUp('reattach');
      const u = t.h.up();
      await until('the launch', () => started(u).length === 1, u.stderr);
      // Mori frozen before the agent has written its session, then gone: nothing recorded the id.
      process.kill(u.child.pid as number, 'SIGSTOP');
      u.child.kill('SIGKILL');
      await u.exited;
      const rollouts = path.join(t.h.tmp, 'codex-home', 'sessions');
      let id = '';
      await until('the agent to write its session', () => {
        const f = existsSync(rollouts) ? readdirSync(rollouts, { recursive: true }).map(String).find((n) => n.endsWith('.jsonl')) : undefined;
        id = /([0-9a-f-]{36})\.jsonl$/.exec(f ?? '')?.[1] ?? '';
        return id !== '';
      }, () => screen(t.h, sessionJson(t.h, t.name).id), CLI_START_MS);
      expect(sessionJson(t.h, t.name).agent.sessionId).toBeNull();
      const u2 = t.h.up();
      await until('the re-attach', () => started(u2).length === 1, u2.stderr);
      expect(started(u2)[0]?.['launch']).toBe('reattach');
      await until('the id learnt after the re-attach', () => sessionJson(t.h, t.name).agent.sessionId === id, u2.stderr);
    }, TEST_TIMEOUT_MS);

    it('while the API is unreachable the agent retries by itself: the network resume types nothing, the turn completes once the API is back', async () => {
      const probe = await listen();
      const probePort = (probe.address() as net.AddressInfo).port;
      const t = await setUp('outage', { MORI_PROBE: `127.0.0.1:${probePort}`, MORI_PROBE_INTERVAL_MS: '1000' });
      await t.api.setMode('down');
      let probeAgain: net.Server | null = null;
      try {
        const u = t.h.up();
        const moriId = (): string => sessionJson(t.h, t.name).id;
        await until('the agent retrying on its own', () => cli.retrying.test(screen(t.h, moriId())), () => screen(t.h, moriId()), CLI_START_MS);
        await until('working', () => hasEvent(u, 'session.activity', { to: 'working' }), () => screen(t.h, moriId()));
        // Mori sees the network go and come back while the agent is still retrying.
        await close(probe);
        await until('offline', () => hasEvent(u, 'session.interrupted', { reason: 'network' }), u.stderr);
        probeAgain = await listen(probePort);
        await until('the network resume', () => hasEvent(u, 'session.resumed'), u.stderr);
        expect(t.h.workLog(t.name)).toMatch(/SESSION RESUMED - network lost[^\n]*agent still running \(working\)/);
        expect(screen(t.h, moriId())).toMatch(cli.retrying);
        expect(screen(t.h, moriId())).not.toContain(NUDGE_WORDS);
        expect(u.lines().some((e) => e['type'] === 'session.activity' && e['to'] === 'error')).toBe(false);

        // The API is back: the agent finishes the task's turn by itself, and nothing was ever typed.
        await t.api.setMode('up');
        await until('the task reaching the API', () => requestWith(t.api, [TASK_WORD]), () => screen(t.h, moriId()), DEADLINE_MS * 2);
        await until('the turn done', () => u.lines().filter((e) => e['type'] === 'session.activity' && e['to'] === 'waiting').length >= 1, () => screen(t.h, moriId()));
        expect(allRequestText(t.api)).not.toContain(NUDGE_WORDS);
        expect(started(u)).toHaveLength(1);
      } finally {
        if (probeAgain) await close(probeAgain);
        else await close(probe).catch(() => undefined);
      }
    }, TEST_TIMEOUT_MS);

    it('after a sleep (agent and Mori frozen) the idle agent is nudged and its next request carries the earlier turn', async () => {
      const t = await setUp('sleep');
      const u = t.h.up();
      const id = await firstTurn(t, u);
      // Gemini may make a follow-up request after its answer (working again for a moment): freeze it
      // only once it has stayed at its prompt, so the wake finds it idle rather than mid-request.
      // Settled: waiting for SETTLED_MS with no request to the API meanwhile (a follow-up would be one).
      let requests = t.api.requests.length;
      let quietSince = Date.now();
      await until('the agent settled at its prompt', () => {
        if (t.api.requests.length !== requests) {
          requests = t.api.requests.length;
          quietSince = Date.now();
        }
        const last = u.lines().filter((e) => e['type'] === 'session.activity').at(-1);
        return last?.['to'] === 'waiting' && Date.now() - Math.max(last['at'] as number, quietSince) > SETTLED_MS;
      }, u.stderr);
      const agentPid = started(u)[0]!['pid'] as number;
      const upPid = u.child.pid as number;
      const before = t.api.requests.length;
      // Longer than the drift detector's 5 s threshold: a sleep as a frozen process sees it.
      process.kill(-agentPid, 'SIGSTOP');
      process.kill(upPid, 'SIGSTOP');
      await new Promise((r) => setTimeout(r, 7_000));
      process.kill(-agentPid, 'SIGCONT');
      process.kill(upPid, 'SIGCONT');
      await until('the wake resume', () => hasEvent(u, 'session.resumed'), u.stderr);
      expect(t.h.workLog(t.name)).toMatch(/SESSION RESUMED - system sleep[^\n]*agent still running, waiting: nudged to continue/);
      const moriId = sessionJson(t.h, t.name).id;
      await until('the nudge reaching the API with the history', () => requestWith(t.api, [NUDGE_WORDS, TASK_WORD, REPLY], before), () => screen(t.h, moriId));
      expect(started(u)).toHaveLength(1);
      expect(sessionJson(t.h, t.name).agent.sessionId).toBe(id);
    }, TEST_TIMEOUT_MS);
  });
}
