// Claude Code's status dir after killed claudes (DESIGN.md §5): a claude removes its `sessions/<pid>.json`
// only on a clean exit, and a resumed conversation keeps its id, so files of dead processes name the
// same conversation as the live one. The live process's file is the one read: real files, real pids
// (dead ones are of processes run here and reaped), listed before the live one.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findClaudeAgentStatus, findClaudeStatus, readClaudeStatusFile, type StatusSearch } from '../../../../main/agents/claude/session-status.js';
import { listAgentDir } from '../../../../main/os/agent-file.js';
import { pidAlive } from '../../../../main/os/pid-alive.js';
import { innerPidsUnder } from '../../../../main/os/process-tree.js';

const UUID = '0b9f6a4e-4c1d-4e8b-9a57-3c2d1e0f9a8b';
/** Stale files written at first: enough that the directory lists some before the live one, whatever its order. */
const STALE = 10;
/** A hard bound on stale files added until one is listed before the live one (never near it in practice). */
const MAX_STALE = 200;
let tmp: string;
let env: Record<string, string>;
let dir: string;

beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'mori-claude-status-'));
  env = { HOME: path.join(tmp, 'home') };
  dir = path.join(env.HOME as string, '.claude', 'sessions');
  mkdirSync(dir, { recursive: true });
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

/** Linux's pids never reach 2^22 (the highest pid_max there is): a file named above it is of no process, anywhere. */
const NO_PROCESS = 2 ** 22 + 1;
/** Files left by killed claudes after a night of kills (411 were counted after a 1,000-fault soak). */
const NIGHT = 400;

/** A pid of a process that ran here and is gone (reaped). */
function deadPid(): number {
  const pid = spawnSync('true').pid;
  expect(pidAlive(pid)).toBe(false);
  return pid;
}

function writeStatus(pid: number, status: string, ageMs: number, sessionId = UUID): string {
  const file = path.join(dir, `${pid}.json`);
  writeFileSync(file, JSON.stringify({ pid, sessionId, cwd: tmp, status }));
  const at = new Date(Date.now() - ageMs);
  utimesSync(file, at, at);
  return `${pid}.json`;
}

/** Dead claudes' files on the same conversation, added until the dir lists one before `live`. */
async function staleBefore(live: string, ageMs: (i: number) => number): Promise<void> {
  for (let i = 0; i < MAX_STALE; i++) {
    writeStatus(deadPid(), 'busy', ageMs(i));
    const names = (await listAgentDir(dir, 10_000)).map((d) => d.name);
    if (i >= STALE && names.indexOf(live) > 0) return;
  }
  throw new Error('the dir never listed a stale file before the live one');
}

describe("claude's status files of killed claudes on the same conversation", () => {
  it('takes the live process over stale files listed before it, older or newer', async () => {
    const live = writeStatus(process.pid, 'idle', 30_000);
    // Half the stale files are older than the live one's, half newer: liveness decides, not the time.
    await staleBefore(live, (i) => (i % 2 === 0 ? 60_000 + i * 1000 : 1000 + i * 100));
    expect(await findClaudeStatus(env, UUID)).toMatchObject({ pid: process.pid, status: 'idle' });
    expect((await findClaudeAgentStatus(env, UUID, process.ppid))?.activity).toBe('waiting');
  });

  it('with every claude dead, takes the file written last', async () => {
    const newest = writeStatus(deadPid(), 'waiting', 500);
    await staleBefore(newest, (i) => 10_000 + i * 1000);
    expect(await findClaudeStatus(env, UUID)).toMatchObject({ status: 'waiting', pid: Number(newest.split('.')[0]) });
  });

  it("of two live claudes on it, takes the one under the terminal's process", async () => {
    // This test process is the claude under the terminal (the root); its parent, alive, is not under it.
    const under = writeStatus(process.pid, 'idle', 30_000);
    writeStatus(process.ppid, 'busy', 1000);
    await staleBefore(under, (i) => 60_000 + i * 1000);
    expect((await findClaudeAgentStatus(env, UUID, process.pid))?.activity).toBe('waiting');
    // Without the terminal's pid, both are alive: the one written last.
    expect((await findClaudeStatus(env, UUID))?.pid).toBe(process.ppid);
  });

  describe('after a night of kills (hundreds of files of processes that are gone)', () => {
    /** The real readers, counted: which files a look read, and how often the process table was listed. */
    function counted(root?: number): { search: StatusSearch; reads: string[]; listings: () => number } {
      const reads: string[] = [];
      let listings = 0;
      const search: StatusSearch = {
        ...(root === undefined ? {} : { root }),
        read: (file) => {
          reads.push(path.basename(file));
          return readClaudeStatusFile(file);
        },
        pidsUnder: (r) => {
          listings++;
          return innerPidsUnder(r);
        },
      };
      return { search, reads, listings: () => listings };
    }

    it("reads only the live processes' files, and next time only the one found under the terminal", async () => {
      for (let i = 0; i < NIGHT; i++) writeStatus(NO_PROCESS + i, 'busy', 1000 + i);
      const live = writeStatus(process.pid, 'idle', 30_000);
      // Another live claude, on another conversation: read on the first look, not after.
      const other = writeStatus(process.ppid, 'busy', 1000, '11111111-2222-4333-8444-555555555555');
      const first = counted(process.pid);
      expect(await findClaudeStatus(env, UUID, first.search)).toMatchObject({ pid: process.pid, status: 'idle' });
      expect(first.reads.sort()).toEqual([live, other].sort());
      expect(first.listings()).toBe(0);
      const next = counted(process.pid);
      for (let look = 0; look < 3; look++) expect(await findClaudeStatus(env, UUID, next.search)).toMatchObject({ pid: process.pid });
      expect(next.reads).toEqual([live, live, live]);
      expect(next.listings()).toBe(0);
    });

    it('once the claude under the terminal is gone, falls back to the whole dir: the file written last', async () => {
      // A process standing for the terminal's claude, then killed (its file stays, as a killed claude's does).
      const child = spawn('sleep', ['60'], { stdio: 'ignore' });
      const pid = child.pid as number;
      try {
        for (let i = 0; i < NIGHT; i++) writeStatus(NO_PROCESS + i, 'busy', 10_000 + i);
        writeStatus(pid, 'idle', 500);
        expect(await findClaudeStatus(env, UUID, counted(pid).search)).toMatchObject({ pid, status: 'idle' });
      } finally {
        child.kill('SIGKILL');
      }
      await new Promise((r) => child.once('exit', r));
      await waitGone(pid);
      const after = counted(pid);
      expect(await findClaudeStatus(env, UUID, after.search)).toMatchObject({ pid, status: 'idle' });
      // The remembered file first (its process gone: not taken as is), then every file: none is of a live process.
      expect(after.reads).toHaveLength(1 + NIGHT + 1);
      // With another live claude on it (not under the terminal), the live one is taken and the gone ones are not read.
      const live = writeStatus(process.pid, 'busy', 60_000);
      const again = counted(pid);
      expect(await findClaudeStatus(env, UUID, again.search)).toMatchObject({ pid: process.pid, status: 'busy' });
      expect(again.reads).toEqual([live]);
    });
  });
});

/** Waits until `pid` is reaped (kill(0) fails): a killed child's exit event may come before. */
async function waitGone(pid: number): Promise<void> {
  for (let i = 0; i < 100 && pidAlive(pid); i++) await new Promise((r) => setTimeout(r, 20));
  expect(pidAlive(pid)).toBe(false);
}

