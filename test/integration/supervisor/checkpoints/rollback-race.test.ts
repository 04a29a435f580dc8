// Rollback against an agent racing it (DESIGN.md §11, rollback): a process swaps a project directory
// and a symbolic link to a directory outside the project (renameat2 RENAME_EXCHANGE, through python's
// ctypes) as fast as it can, while the project is rolled back 200 times in process and a few times
// through a real `mori rollback --yes`. Whatever each rollback does or refuses, nothing outside the
// project is written, deleted or created. Real git, real files, a real swapping process.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeCheckpoint } from '../../../../main/supervisor/checkpoints/checkpoint.js';
import { rollbackSession } from '../../../../main/supervisor/checkpoints/rollback.js';
import { moriIn, tempDir } from '../../../../testkit/mori-cli.js';
import { git, projectWithSession, type Project } from '../../../support/snapshot-repo.js';
import { until } from '../../../../testkit/until.js';
import { offlineCheckpointPorts } from '../../../../main/cli/offline-session-write.js';

/** Checkpoints as the CLI takes them, sharing one limiter as one process's do. */
const ports = offlineCheckpointPorts();

/** Exchanges two paths atomically, forever; says `ready` once it runs. */
const SWAPPER = `
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
RENAME_EXCHANGE = 2
print('ready', flush=True)
while True:
    libc.renameat2(-100, a, -100, b, RENAME_EXCHANGE)
`;

const ROLLBACKS = 200;
const CLI_ROLLBACKS = 5;

/** Every entry below `dir` with its type, mode and contents (or link target): what must not move. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    const at = path.join(dir, rel);
    const st = lstatSync(at);
    const mode = (st.mode & 0o7777).toString(8);
    if (st.isSymbolicLink()) out[rel] = `link ${readlinkSync(at)}`;
    else if (st.isDirectory()) {
      out[rel] = `dir ${mode}`;
      for (const e of readdirSync(at).sort()) walk(path.join(rel, e));
    } else out[rel] = `file ${mode} ${st.nlink} ${createHash('sha256').update(readFileSync(at)).digest('hex')}`;
  };
  walk('.');
  return out;
}

let swapper: ChildProcess | null = null;
afterEach(() => {
  swapper?.kill('SIGKILL');
  swapper = null;
});

function processState(pid: number): string {
  // /proc/<pid>/stat: "pid (comm) S ...": the state letter follows the command's closing parenthesis.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

async function startSwapper(a: string, b: string): Promise<ChildProcess> {
  const child = spawn('python3', ['-c', SWAPPER, a, b], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the swapper exited (${code})`)));
  });
  return child;
}

/** Holds the swapper still (a stopped process between two exchanges: each is atomic). */
async function pause(child: ChildProcess): Promise<void> {
  child.kill('SIGSTOP');
  await until('the swapper to stop', () => processState(child.pid!) === 'T');
}

/** The project as the attack starts each time: `d` a real directory changed since the checkpoint, `swap` a link out. */
function reset(p: Project, target: string): void {
  for (const name of ['d', 'swap']) rmSync(path.join(p.project, name), { recursive: true, force: true }); // a link is removed, never followed
  mkdirSync(path.join(p.project, 'd'));
  writeFileSync(path.join(p.project, 'd', 'x.txt'), 'agent wrote this\n');
  writeFileSync(path.join(p.project, 'd', 'keep.txt'), 'keep\n');
  writeFileSync(path.join(p.project, 'd', 'new.txt'), 'added since\n');
  symlinkSync(target, path.join(p.project, 'swap'));
}

describe.runIf(process.platform === 'linux')('rollback while a directory is swapped for a link out of the project', () => {
  it('writes, deletes and creates nothing outside the project in 200 rollbacks and through the CLI', async () => {
    const outside = tempDir('race-outside');
    const victimDir = path.join(outside, 'victim-dir');
    mkdirSync(victimDir);
    // The names the rollback writes and deletes in `d`, so a followed link would hit them.
    writeFileSync(path.join(victimDir, 'x.txt'), 'victim x\n');
    writeFileSync(path.join(victimDir, 'new.txt'), 'victim new\n');
    writeFileSync(path.join(victimDir, 'keep.txt'), 'victim keep\n');
    writeFileSync(path.join(outside, 'victim-file'), 'precious\n');
    const before = fingerprint(outside);

    const p = await projectWithSession('race');
    writeFileSync(path.join(p.project, '.gitignore'), '*.log\nbuild/\nswap\n');
    mkdirSync(path.join(p.project, 'd'));
    writeFileSync(path.join(p.project, 'd', 'x.txt'), 'checkpointed\n');
    writeFileSync(path.join(p.project, 'd', 'keep.txt'), 'keep\n');
    git(p.project, 'add', '-A');
    git(p.project, 'commit', '-q', '-m', 'd');
    const start = await writeCheckpoint(p.stateDir, p.project, ports);
    if (!start.ok) throw new Error(start.message);

    reset(p, victimDir);
    swapper = await startSwapper(path.join(p.project, 'd'), path.join(p.project, 'swap'));
    const outcomes = new Map<string, number>();
    const count = (what: string): void => void outcomes.set(what, (outcomes.get(what) ?? 0) + 1);
    const roll = async (i: number, how: () => Promise<string>): Promise<void> => {
      await pause(swapper!);
      reset(p, victimDir);
      swapper!.kill('SIGCONT');
      count(await how());
      expect(fingerprint(outside), `outside the project after ${i} rollbacks (${JSON.stringify(Object.fromEntries(outcomes))})`).toEqual(before);
    };
    for (let i = 1; i <= ROLLBACKS; i++) {
      await roll(i, async () => {
        const r = await rollbackSession({ stateDir: p.stateDir, to: 'start' }, ports);
        return r.ok ? 'rolled back' : /stopped there/.test(r.message) ? 'stopped' : r.code;
      });
    }
    for (let i = 1; i <= CLI_ROLLBACKS; i++) {
      await roll(ROLLBACKS + i, async () => {
        const r = moriIn(p.home, ['rollback', 'race', 'start', '--yes']);
        return `cli ${r.code === 0 ? 'rolled back' : /stopped there/.test(r.err) ? 'stopped' : r.code}`;
      });
    }
    // The race was live: some rollbacks met the link and were refused, some went through.
    expect(outcomes.get('rolled back') ?? 0, JSON.stringify(Object.fromEntries(outcomes))).toBeGreaterThan(0);
    expect((outcomes.get('forbidden') ?? 0) + (outcomes.get('stopped') ?? 0), JSON.stringify(Object.fromEntries(outcomes))).toBeGreaterThan(0);
  }, 300_000);
});
