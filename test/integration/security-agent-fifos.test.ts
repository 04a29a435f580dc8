// A FIFO planted where a profile reads the agent's own files never blocks the daemon. For each CLI a
// real daemon (`mori up --daemon`) runs four sessions of that profile while FIFOs sit in every place it
// reads: opencode's logs, database and its -wal, and prompt history; codex's rollouts; gemini's
// projects.json and chat files; claude's status files. The sessions' agent is a stand-in that lives
// a few seconds and exits, so the daemon looks for its id (opencode, codex) and, at the relaunch,
// for its conversation (opencode's database, gemini's chats). Throughout, the daemon answers `list`
// within a second, `mori ls` answers, and `mori down` is done within five seconds; ids the real
// files beside the FIFOs hold are still learnt. A plain open of any of these FIFOs held a libuv
// thread for good: four stopped the daemon, and `mori down` hung.
import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ControlClient } from '../../main/daemon-client/control-client.js';
import { pidAlive } from '../../main/os/pid-alive.js';
import { processStartTime } from '../../main/os/process-start.js';
import { client } from '../support/daemon.js';
import { runMoriAsync, type MoriRun } from '../../testkit/mori-cli.js';
import { UpHarness, until } from '../support/mori-up.js';
import { untilValue } from '../../testkit/until.js';

const SESSIONS = 4;
/** How long the stand-in agent lives before it exits 1: the id polls run meanwhile, then a relaunch. */
const AGENT_LIFE_S = 3;

function mkfifo(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const r = spawnSync('mkfifo', [file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mkfifo ${file}: ${r.stderr}`);
}

/** A run of the CLI, or a failure once `ms` have passed (a blocked daemon would keep it waiting). */
async function within(ms: number, run: Promise<MoriRun>, what: string): Promise<MoriRun & { ms: number }> {
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} still running after ${ms} ms`)), ms)));
  try {
    const r = await Promise.race([run, late]);
    return { ...r, ms: Date.now() - t0 };
  } finally {
    clearTimeout(timer);
  }
}

const ymd = (d: Date, utc: boolean): string[] => {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return utc ? [String(d.getUTCFullYear()), pad(d.getUTCMonth() + 1), pad(d.getUTCDate())] : [String(d.getFullYear()), pad(d.getMonth() + 1), pad(d.getDate())];
};

/** A time after any launch of this test: the planted records count as made by its sessions. */
const future = (): Date => new Date(Date.now() + 10 * 60_000);

interface Profile {
  name: 'claude' | 'codex' | 'gemini' | 'opencode';
  /** Plants the FIFOs (and real records beside them) before the daemon starts. */
  before(h: UpHarness): void;
  /** Plants FIFOs named by the sessions' own ids, once they are known. */
  after?(h: UpHarness, ids: string[]): void;
  /** The profile learns its id from the agent's files: each session must have one recorded. */
  learnsId: boolean;
}

const PROFILES: Profile[] = [
  {
    name: 'opencode',
    learnsId: true,
    before(h) {
      const data = path.join(h.tmp, 'xdg-data', 'opencode');
      mkfifo(path.join(data, 'log', '0-planted.log'));
      mkfifo(path.join(data, 'log', 'zz-planted.log'));
      const at = future().toISOString();
      const lines = Array.from({ length: SESSIONS }, (_, i) => `timestamp=${at} level=INFO service=session message=created id=ses_${String(i).padStart(26, 'A')} slug=s${i} directory=${h.project} title=x`);
      writeFileSync(path.join(data, 'log', '2026-12-06T000000.log'), `${lines.join('\n')}\n`);
      mkfifo(path.join(data, 'opencode.db'));
      mkfifo(path.join(data, 'opencode.db-wal'));
      mkfifo(path.join(h.tmp, 'xdg-state', 'opencode', 'prompt-history.jsonl'));
    },
  },
  {
    name: 'codex',
    learnsId: true,
    before(h) {
      const now = new Date();
      const t = future();
      for (const utc of [true, false]) {
        const dir = path.join(h.tmp, 'codex', 'sessions', ...ymd(now, utc));
        mkfifo(path.join(dir, `rollout-2026-12-06T00-00-0${utc ? 0 : 1}-${randomUUID()}.jsonl`));
        if (!utc) continue;
        for (let i = 0; i < SESSIONS; i++) {
          const id = randomUUID();
          const file = path.join(dir, `rollout-2026-12-06T00-00-1${i}-${id}.jsonl`);
          writeFileSync(file, `${JSON.stringify({ timestamp: t.toISOString(), type: 'session_meta', payload: { id, cwd: h.project } })}\n`);
          utimesSync(file, t, t);
        }
      }
    },
  },
  {
    name: 'gemini',
    learnsId: false,
    before(h) {
      mkfifo(path.join(h.tmp, 'gemini-home', '.gemini', 'projects.json'));
    },
    after(h, ids) {
      const chats = path.join(h.tmp, 'gemini-home', '.gemini', 'tmp', createHash('sha256').update(h.project).digest('hex'), 'chats');
      for (const id of ids) {
        mkfifo(path.join(chats, `session-2026-12-06T00-00-${id.slice(0, 8)}.json`));
        mkfifo(path.join(chats, `session-2026-12-06T00-01-${id.slice(0, 8)}.jsonl`));
      }
    },
  },
  {
    name: 'claude',
    learnsId: false,
    before(h) {
      // Status files are read by name from the sessions dir on every activity look: pids no process has.
      for (let i = 0; i < SESSIONS; i++) mkfifo(path.join(h.tmp, 'claude', 'sessions', `${4_000_000 + i}.json`));
    },
  },
];

const harnesses: UpHarness[] = [];
/** Each daemon started, with its start time: by afterAll its pid may be another test's process (pid_max is 32768 here). */
const daemons: { pid: number; start: string | null }[] = [];
const clients: ControlClient[] = [];

afterAll(() => {
  for (const c of clients) c.close();
  // A daemon stuck on a FIFO (the bug this guards against) would ignore `mori down`: ended by pid.
  for (const { pid, start } of daemons) if (start !== null && processStartTime(pid) === start) process.kill(pid, 'SIGKILL');
  for (const h of harnesses) h.cleanup();
});

describe.each(PROFILES)('FIFOs where the $name profile reads', (p) => {
  it(`keep nothing waiting: ${SESSIONS} sessions run, the daemon answers at once and stops when asked`, { timeout: 120_000 }, async () => {
    const h = new UpHarness(`agent-fifo-${p.name}`);
    harnesses.push(h);
    const agent = path.join(h.tmp, 'agent.sh');
    writeFileSync(agent, `#!/bin/sh\necho stand-in agent up\nsleep ${AGENT_LIFE_S}\nexit 1\n`);
    chmodSync(agent, 0o755);
    Object.assign(h.env, {
      [`MORI_AGENT_BIN_${p.name.toUpperCase()}`]: agent,
      CODEX_HOME: path.join(h.tmp, 'codex'),
      GEMINI_CLI_HOME: path.join(h.tmp, 'gemini-home'),
      XDG_DATA_HOME: path.join(h.tmp, 'xdg-data'),
      XDG_STATE_HOME: path.join(h.tmp, 'xdg-state'),
    });
    p.before(h);
    const names = Array.from({ length: SESSIONS }, (_, i) => `${p.name}-${i}`);
    for (const name of names) {
      const r = h.mori('init', h.project, '--name', name, '--agent', p.name, '--backend', 'direct', '--task', 'write the thing');
      expect(r.code, r.stderr).toBe(0);
    }
    const up = h.mori('up', '--daemon');
    expect(up.code, up.stderr).toBe(0);
    const pid = Number(/pid (\d+)/.exec(up.stdout)?.[1]);
    daemons.push({ pid, start: processStartTime(pid) });
    const { c } = await client(h.home);
    clients.push(c);
    for (const name of names) await until(`${name} to start`, () => /^- SESSION STARTED/m.test(h.workLog(name)), () => h.workLog(name));
    const agentIds = (): (string | null)[] => names.map((n) => (JSON.parse(readFileSync(path.join(h.stateDir(n), 'session.json'), 'utf8')) as { agent: { sessionId: string | null } }).agent.sessionId);
    if (p.after) {
      const ids = agentIds();
      expect(ids.every((id) => id !== null), JSON.stringify(ids)).toBe(true);
      p.after(h, ids as string[]);
    }

    // While the agents run, exit and are relaunched (id polls, then the relaunch's look for the
    // conversation), the daemon answers within a second. Whether every relaunch came is asserted
    // after `mori ls` and `mori down`, so a daemon held by a FIFO shows there first.
    const slowest = { ms: 0 };
    const relaunched = await untilValue(
      'every session to be relaunched once',
      async () => {
        const t0 = Date.now();
        const r = await c.request('list', {});
        expect(r.ok).toBe(true);
        slowest.ms = Math.max(slowest.ms, Date.now() - t0);
        expect(slowest.ms).toBeLessThan(1_000);
        return names.every((n) => /^- SESSION RESUMED/m.test(h.workLog(n)));
      },
      (done) => done,
      30_000,
    ).catch((err: Error) => err);

    const ls = await within(5_000, runMoriAsync(['ls', '--json'], { home: h.home, cwd: h.project, env: h.env }), 'mori ls');
    expect(ls.code, ls.stderr).toBe(0);
    expect((JSON.parse(ls.stdout) as { sessions: unknown[] }).sessions).toHaveLength(SESSIONS);
    const t0 = Date.now();
    const down = await within(5_000, runMoriAsync(['down'], { home: h.home, cwd: h.project, env: h.env }), 'mori down');
    expect(down.code, down.stderr).toBe(0);
    await until('the daemon to be gone', () => !pidAlive(pid));
    const downMs = Date.now() - t0;
    expect(downMs).toBeLessThan(5_000);
    expect(relaunched, names.map((n) => h.workLog(n)).join('\n----\n')).toBe(true);
    // The ids the real records beside the FIFOs hold were learnt: the FIFOs were passed over, not waited on.
    if (p.learnsId) for (const [i, id] of agentIds().entries()) expect(id, `${names[i]}'s id`).toMatch(p.name === 'opencode' ? /^ses_/ : /^[0-9a-f-]{36}$/);
    console.log(`${p.name}: slowest list ${slowest.ms} ms, mori ls ${ls.ms} ms, mori down ${downMs} ms`);
  });
});
