// Checkpoints read git without blocking the event loop (DESIGN.md §4, §8: a blocked loop reads as a
// sleep to the drift detector). A `git` earlier on PATH that sleeps before running the real one
// stands in for a slow repository; a `git` that never answers stands in for a hung one.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSession } from '../../../main/state/state-dir.js';
import { readSessionFile } from '../../../main/state/session-file.js';
import { CHECKPOINT_CONCURRENCY, writeCheckpoint } from '../../../main/supervisor/checkpoints/checkpoint.js';
import { gitRepo, tempDir } from '../../../testkit/mori-cli.js';
import { offlineCheckpointPorts } from '../../../main/cli/offline-session-write.js';
import { WORK_LOG } from '../../../common/state-files.js';

/** Checkpoints as the CLI takes them, sharing one limiter as one process's do. */
const ports = offlineCheckpointPorts();

const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
let savedPath: string | undefined;

beforeEach(() => {
  savedPath = process.env['PATH'];
});
afterEach(() => {
  process.env['PATH'] = savedPath;
});

/** Puts a `git` script first on this process's PATH. */
function shadowGit(body: string): string {
  const bin = tempDir('git-shim');
  const file = path.join(bin, 'git');
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  process.env['PATH'] = `${bin}${path.delimiter}${savedPath ?? ''}`;
  return bin;
}

async function sessions(n: number, home: string): Promise<{ stateDir: string; project: string }[]> {
  const out: { stateDir: string; project: string }[] = [];
  for (let i = 0; i < n; i++) {
    const project = tempDir(`cp-proj${i}`);
    gitRepo(project);
    writeFileSync(path.join(project, `work-${i}.txt`), 'changed\n');
    const c = await createSession({ projectDir: project, name: `s${i}`, profile: 'claude', backend: 'direct', home });
    if (!c.ok) throw new Error(c.message);
    out.push({ stateDir: c.value.stateDir, project });
  }
  return out;
}

/** The longest gap between ticks of a 10 ms interval while `work` runs. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number; tookMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 10);
  const start = performance.now();
  try {
    const value = await work();
    const tookMs = performance.now() - start;
    // One more tick, so a stall at the very end (or a work that never yielded) is measured too.
    await new Promise((r) => setTimeout(r, 30));
    return { value, stallMs, tookMs };
  } finally {
    clearInterval(timer);
  }
}

describe('checkpoints', () => {
  it('keep the event loop responsive while git is slow, and still record HEAD and the changed files', async () => {
    const home = tempDir('cp-home');
    const all = await sessions(6, home);
    const log = path.join(tempDir('git-calls'), 'calls');
    // Each git call takes 0.6 s, and records when it ran so the concurrency can be checked.
    shadowGit(`echo "start $(date +%s%N)" >> ${log}\nsleep 0.6\n"${realGit}" "$@"\ns=$?\necho "end $(date +%s%N)" >> ${log}\nexit $s`);
    const { value, stallMs, tookMs } = await longestStall(() => Promise.all(all.map((s) => writeCheckpoint(s.stateDir, s.project, ports))));
    // 6 checkpoints of 9 git calls of 0.6 s, at most 2 at once: about 16 s of git, while timers kept firing.
    expect(tookMs).toBeGreaterThan(4_500);
    expect(stallMs).toBeLessThan(400);
    for (const [i, r] of value.entries()) {
      expect(r.ok, r.ok ? '' : r.message).toBe(true);
      if (!r.ok) continue;
      expect(r.value.checkpoint.gitHead).toMatch(/^[0-9a-f]{40}$/);
      expect(r.value.checkpoint.changedFiles).toEqual([`work-${i}.txt`]);
      expect(r.value.changed).toBe(true);
      const stored = readSessionFile(all[i]!.stateDir);
      expect(stored.ok && stored.value.lastCheckpoint?.changedFiles).toEqual([`work-${i}.txt`]);
      expect(readFileSync(path.join(all[i]!.stateDir, WORK_LOG), 'utf8')).toMatch(new RegExp(`CHECKPOINT [0-9a-f]{7} - 1 file changed: work-${i}\\.txt`));
    }
    // Never more than CHECKPOINT_CONCURRENCY git processes at once.
    let running = 0;
    let most = 0;
    const marks = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' ') as [string, string]);
    for (const [kind] of marks.sort((a, b) => Number(BigInt(a[1]) - BigInt(b[1])))) {
      running += kind === 'start' ? 1 : -1;
      most = Math.max(most, running);
    }
    // Nine git runs per first checkpoint: the repository paths, its config (read, never used as is),
    // HEAD, add and write-tree into a temporary index, the files changed against HEAD, the ref
    // listing, commit-tree, update-ref.
    expect(marks).toHaveLength(6 * 2 * 9);
    expect(most).toBeLessThanOrEqual(CHECKPOINT_CONCURRENCY);
  }, 60_000);

  it('kill a git that never answers and leave session.json as it was', async () => {
    const home = tempDir('cp-hung-home');
    const [s] = await sessions(1, home);
    const pidFile = path.join(tempDir('git-hung'), 'pid');
    shadowGit(`echo $$ > ${pidFile}\nexec sleep 600`);
    const before = readFileSync(path.join(s!.stateDir, 'session.json'), 'utf8');
    const { value, stallMs } = await longestStall(() => writeCheckpoint(s!.stateDir, s!.project, ports));
    expect(value.ok).toBe(false);
    if (!value.ok) expect(value.message).toMatch(/git did not answer within \d+ ms \(killed\)/);
    expect(stallMs).toBeLessThan(400);
    expect(readFileSync(path.join(s!.stateDir, 'session.json'), 'utf8')).toBe(before);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    // Killed with its process group: the `sleep` it became is gone.
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const deadline = Date.now() + 5_000;
    while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(alive()).toBe(false);
    expect(existsSync(pidFile)).toBe(true);
  }, 60_000);

  it('of sessions in one project taken together share one read of the work tree, each recorded under its own ref', async () => {
    const home = tempDir('cp-shared-home');
    const project = tempDir('cp-shared');
    gitRepo(project);
    writeFileSync(path.join(project, 'work.txt'), 'changed\n');
    const dirs: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      const c = await createSession({ projectDir: project, name, profile: 'claude', backend: 'direct', home });
      if (!c.ok) throw new Error(c.message);
      dirs.push(c.value.stateDir);
    }
    const log = path.join(tempDir('git-shared-calls'), 'calls');
    shadowGit(`for a in "$@"; do case "$a" in add|write-tree|diff-tree|commit-tree) echo "$a" >> ${log};; esac; done\nexec "${realGit}" "$@"`);
    const results = await Promise.all(dirs.map((d) => writeCheckpoint(d, project, ports)));
    const snaps = results.map((r) => (r.ok ? r.value.checkpoint.snapshot : null));
    expect(snaps.every((s) => s !== null && s.tree === snaps[0]!.tree)).toBe(true);
    expect(results.map((r) => r.ok && r.value.checkpoint.changedFiles)).toEqual([['work.txt'], ['work.txt'], ['work.txt']]);
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    // One scan, one tree and one diff against HEAD for the three; a commit each (its own number and reason).
    expect(calls.filter((c) => c === 'add')).toHaveLength(1);
    expect(calls.filter((c) => c === 'write-tree')).toHaveLength(1);
    expect(calls.filter((c) => c === 'diff-tree')).toHaveLength(1);
    expect(calls.filter((c) => c === 'commit-tree')).toHaveLength(3);
    for (const d of dirs) expect(readFileSync(path.join(d, WORK_LOG), 'utf8')).toMatch(/CHECKPOINT [0-9a-f]{7} - 1 file changed: work\.txt/);
    // A checkpoint asked for after that read reads again: the file changed since is in it.
    writeFileSync(path.join(project, 'later.txt'), 'x\n');
    const later = await writeCheckpoint(dirs[0]!, project, ports);
    expect(later.ok && later.value.checkpoint.changedFiles.sort()).toEqual(['later.txt', 'work.txt']);
  }, 60_000);
});
