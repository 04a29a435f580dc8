// A checkpoint's snapshot on a big project (DESIGN.md §3, §10): a 10,000-file git repository with
// 100 files changed since the last checkpoint (90 modified, 10 new untracked ones) is checkpointed —
// status, the temporary index (a copy of the person's, so only the changed files are hashed),
// write-tree, commit-tree, update-ref, session.json and the work-log entry. Budget: p95 ≤ 500 ms.
// Then `mori changes S --stat` on it (the files changed since the first checkpoint, a real CLI
// process, Node's start included): median ≤ 300 ms, with a bare `node -e ''` alternating beside it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSession } from '../main/state/state-dir.js';
import { writeCheckpoint } from '../main/supervisor/checkpoints/checkpoint.js';
import { offlineCheckpointPorts } from '../main/cli/offline-session-write.js';
import { median, percentile } from './lib/percentile.js';
import { BIN } from './lib/setup.js';

/** Checkpoints as the CLI takes them, sharing one limiter as one process's do. */
const ports = offlineCheckpointPorts();

const FILES = 10_000;
/** 100 directories of 100 files: a source tree's shape, not one huge directory. */
const DIRS = 100;
const CHANGED = 100;
const RUNS = 5;
const BUDGET_MS = 500;
const STAT_BUDGET_MS = 300;

function gitRepo(dir: string): void {
  const env = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' };
  const git = (...a: string[]) => spawnSync('git', ['-C', dir, ...a], { env, encoding: 'utf8' });
  git('init', '-q');
  for (let d = 0; d < DIRS; d++) {
    mkdirSync(path.join(dir, `m${d}`));
    for (let f = 0; f < FILES / DIRS; f++) writeFileSync(path.join(dir, `m${d}`, `f${f}.ts`), `export const v${d}_${f} = ${f};\n`);
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'start');
  // Packed, as a cloned repository's objects are: 10,000 loose objects would measure the file system.
  git('repack', '-adq');
  git('prune-packed');
}

/** CPU time (user + system) of this process's finished children, ms: git's share, whatever the machine's load. */
function childCpuMs(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    // cutime and cstime are fields 16 and 17 of stat(5), in clock ticks of 10 ms (USER_HZ 100).
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return NaN;
  }
}

/** 90 tracked files rewritten and 10 new ones, spread over the tree. */
function change(dir: string, run: number): void {
  for (let i = 0; i < CHANGED - 10; i++) writeFileSync(path.join(dir, `m${i % DIRS}`, `f${(i * 7 + run) % (FILES / DIRS)}.ts`), `export const changed = ${run}_${i};\n`);
  for (let i = 0; i < 10; i++) writeFileSync(path.join(dir, `m${i * 9}`, `new-${run}-${i}.ts`), `export const added = ${run};\n`);
}


function timedNode(args: string[], env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')}: ${r.stderr}`);
  return performance.now() - start;
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'mori-bench-snapshot-'));
  try {
    const project = path.join(root, 'p');
    mkdirSync(project);
    gitRepo(project);
    const home = path.join(root, 'home');
    const c = await createSession({ projectDir: project, name: 's', profile: 'claude', backend: 'direct', home });
    if (!c.ok) throw new Error(c.message);
    const first = await writeCheckpoint(c.value.stateDir, project, ports); // the session's first: the whole tree's objects exist already
    if (!first.ok) throw new Error(first.message);
    // The person's git refreshes the index now and then; without it every file written in the same
    // second as the index would be hashed again on each checkpoint (racily clean).
    await new Promise((r) => setTimeout(r, 1100));
    spawnSync('git', ['-C', project, 'status', '--porcelain'], { stdio: 'ignore' });
    const runs: number[] = [];
    const cpu: number[] = [];
    let unchangedMs = 0;
    for (let r = 0; r < RUNS; r++) {
      change(project, r);
      const start = performance.now();
      const cpuBefore = childCpuMs();
      const cp = await writeCheckpoint(c.value.stateDir, project, ports);
      runs.push(performance.now() - start);
      cpu.push(childCpuMs() - cpuBefore);
      if (!cp.ok) throw new Error(cp.message);
      if (!cp.value.changed || cp.value.checkpoint.snapshot === null) throw new Error(`run ${r}: no new checkpoint`);
    }
    const start = performance.now();
    const same = await writeCheckpoint(c.value.stateDir, project, ports);
    unchangedMs = performance.now() - start;
    if (!same.ok || same.value.changed) throw new Error('an unchanged tree made a new checkpoint');
    const ms = percentile(runs, 95);
    const env = { ...process.env, MORI_HOME: home };
    const statMs: number[] = [];
    const nodeMs: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      nodeMs.push(timedNode(['-e', ''], env));
      statMs.push(timedNode([BIN, 'changes', c.value.stateDir, '--stat'], env));
    }
    process.stdout.write(
      JSON.stringify({
        name: 'checkpoint-snapshot',
        budget: `a checkpoint of a ${FILES}-file repository with ${CHANGED} changed files p95 <= ${BUDGET_MS} ms; mori changes --stat on it <= ${STAT_BUDGET_MS} ms`,
        pass: ms <= BUDGET_MS && median(statMs) <= STAT_BUDGET_MS,
        files: FILES,
        changed: CHANGED,
        checkpointP95Ms: Math.round(ms),
        checkpointMedianMs: Math.round(median(runs)),
        changesStatMedianMs: Math.round(median(statMs)),
        nodeStartMedianMs: Math.round(median(nodeMs)),
        unchangedCheckpointMs: Math.round(unchangedMs),
        runsMs: runs.map(Math.round),
        gitCpuMs: Math.round(median(cpu)),
        loadAverage1m: Number(os.loadavg()[0]?.toFixed(1)),
      }) + '\n',
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
