// Checkpoint snapshots (DESIGN.md §3): the work tree recorded as a commit under
// refs/mori/<session id>/cp/<n> with nothing of the person's repository touched, unchanged trees
// recording nothing, the first and last N kept, odd repositories handled, and what changed since a
// checkpoint read back. Real git, real files.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSession } from '../../../../main/state/state-dir.js';
import { sessionChanges, sessionCheckpoints, sessionDiff } from '../../../../main/supervisor/checkpoints/changes.js';
import { writeCheckpoint } from '../../../../main/supervisor/checkpoints/checkpoint.js';
import { moriIn, tempDir } from '../../../../testkit/mori-cli.js';
import { git, projectWithSession, repoFacts, treeOf } from '../../../support/snapshot-repo.js';
import { offlineCheckpointPorts } from '../../../../main/cli/offline-session-write.js';
import { WORK_LOG } from '../../../../common/state-files.js';

/** Checkpoints as the CLI takes them, sharing one limiter as one process's do. */
const ports = offlineCheckpointPorts();

async function checkpoint(p: { stateDir: string; project: string }, keep?: number) {
  const r = await writeCheckpoint(p.stateDir, p.project, ports, new Date(), keep !== undefined ? { keep } : {});
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

/** The repository's loose objects by id. */
const looseObjects = (project: string): string[] =>
  readdirSync(path.join(project, '.git', 'objects'))
    .filter((d) => /^[0-9a-f]{2}$/.test(d))
    .flatMap((d) => readdirSync(path.join(project, '.git', 'objects', d)).map((f) => d + f));

const refs = (project: string, id: string): string[] => git(project, 'for-each-ref', '--format=%(refname)', `refs/mori/${id}/`).split('\n').filter(Boolean);

describe('a checkpoint snapshot', () => {
  it('records tracked changes and untracked files that are not ignored, and leaves HEAD, index, branches, stash, reflogs and status as they were', async () => {
    const p = await projectWithSession('plain');
    writeFileSync(path.join(p.project, 'stashed.txt'), 'x\n');
    git(p.project, 'stash', '-u', '-q');
    git(p.project, 'branch', 'side');
    writeFileSync(path.join(p.project, 'a.txt'), 'one\nTWO\n');
    rmSync(path.join(p.project, 'b.txt'));
    writeFileSync(path.join(p.project, 'c.txt'), 'new\n');
    writeFileSync(path.join(p.project, 'debug.log'), 'ignored\n');
    mkdirSync(path.join(p.project, 'build'));
    writeFileSync(path.join(p.project, 'build', 'out.js'), 'ignored\n');
    git(p.project, 'add', 'c.txt'); // something staged in the person's index
    const before = repoFacts(p.project);

    const cp = await checkpoint(p);
    expect(repoFacts(p.project)).toEqual(before);
    const snap = cp.checkpoint.snapshot!;
    expect(snap.seq).toBe(1);
    expect(refs(p.project, p.sessionId)).toEqual([`refs/mori/${p.sessionId}/cp/1`]);
    const files = treeOf(p.project, snap.commit);
    expect([...files.keys()].sort()).toEqual(['.gitignore', 'a.txt', 'c.txt']);
    expect(git(p.project, 'show', `${snap.commit}:a.txt`)).toBe('one\nTWO\n');
    // HEAD is its parent; the message says what it was.
    expect(git(p.project, 'rev-parse', `${snap.commit}^`).trim()).toBe(git(p.project, 'rev-parse', 'HEAD').trim());
    expect(cp.checkpoint.changedFiles.sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
    const log = readFileSync(path.join(p.stateDir, WORK_LOG), 'utf8');
    expect(log).toContain(`CHECKPOINT ${snap.commit.slice(0, 7)} - 3 files changed: `);
    expect(JSON.parse(readFileSync(path.join(p.stateDir, 'session.json'), 'utf8')).lastCheckpoint.snapshot).toEqual(snap);
  });

  it('records nothing new while the tree is unchanged, and a new one when a file changes', async () => {
    const p = await projectWithSession('same');
    const first = await checkpoint(p);
    const logged = readFileSync(path.join(p.stateDir, WORK_LOG), 'utf8');
    const again = await checkpoint(p);
    expect(again.changed).toBe(false);
    expect(again.checkpoint.snapshot).toEqual(first.checkpoint.snapshot);
    expect(refs(p.project, p.sessionId)).toHaveLength(1);
    expect(readFileSync(path.join(p.stateDir, WORK_LOG), 'utf8')).toBe(logged);
    writeFileSync(path.join(p.project, 'a.txt'), 'changed\n');
    const third = await checkpoint(p);
    expect(third.changed).toBe(true);
    expect(third.checkpoint.snapshot!.seq).toBe(2);
  });

  it('logs one CHECKPOINT line per new snapshot: none for two racing on an unchanged tree, none when only HEAD moved', async () => {
    const p = await projectWithSession('race');
    const lines = (): string[] => readFileSync(path.join(p.stateDir, WORK_LOG), 'utf8').match(/CHECKPOINT [0-9a-f]{7} - [^\n]*/g) ?? [];
    // The session's first two at once (a suspend's and a resume's): one snapshot, one line.
    const [a, b] = await Promise.all([checkpoint(p), checkpoint(p)]);
    expect([a.changed, b.changed].sort()).toEqual([false, true]);
    expect(refs(p.project, p.sessionId)).toHaveLength(1);
    expect(lines()).toEqual([`CHECKPOINT ${a.checkpoint.snapshot!.commit.slice(0, 7)} - no uncommitted changes`]);
    writeFileSync(path.join(p.project, 'a.txt'), 'changed\n');
    const edited = await checkpoint(p);
    expect(edited.changed).toBe(true);
    // The agent commits exactly that tree: HEAD moves, the snapshot is the same, nothing is logged.
    git(p.project, 'commit', '-q', '-am', 'edit');
    const committed = await checkpoint(p);
    expect(committed.changed).toBe(false);
    expect(committed.checkpoint.snapshot).toEqual(edited.checkpoint.snapshot);
    expect(committed.checkpoint.gitHead).toBe(git(p.project, 'rev-parse', 'HEAD').trim());
    expect(committed.checkpoint.changedFiles).toEqual([]);
    expect(lines()).toHaveLength(2);
  });

  it('keeps the first and the last N, dropping the rest from the refs so gc can collect them', async () => {
    const p = await projectWithSession('keep');
    const commits: string[] = [];
    for (let i = 0; i < 7; i++) {
      writeFileSync(path.join(p.project, 'a.txt'), `version ${i}\n`);
      commits.push((await checkpoint(p, 3)).checkpoint.snapshot!.commit);
    }
    expect(refs(p.project, p.sessionId).map((r) => Number(r.split('/').pop())).sort((a, b) => a - b)).toEqual([1, 5, 6, 7]);
    const reachable = git(p.project, 'rev-list', '--all');
    for (const dropped of commits.slice(1, 4)) expect(reachable).not.toContain(dropped);
    for (const kept of [commits[0]!, ...commits.slice(4)]) expect(reachable).toContain(kept);
    const listed = await sessionCheckpoints(p.stateDir);
    expect(listed.ok && listed.value.map((c) => c.seq)).toEqual([1, 5, 6, 7]);
    if (listed.ok) expect(listed.value[3]!.logLine).toBe(`CHECKPOINT ${commits[6]!.slice(0, 7)} - 1 file changed: a.txt`);
  });

  it('works in a repository without commits (no parent) and on a detached HEAD (HEAD stays detached)', async () => {
    const fresh = await projectWithSession('fresh', false);
    const cp = await checkpoint(fresh);
    expect(cp.checkpoint.gitHead).toBeNull();
    expect([...treeOf(fresh.project, cp.checkpoint.snapshot!.commit).keys()].sort()).toEqual(['.gitignore', 'a.txt', 'b.txt']);
    expect(git(fresh.project, 'rev-list', '--parents', '-n1', cp.checkpoint.snapshot!.commit).trim().split(' ')).toHaveLength(1);

    const detached = await projectWithSession('detached');
    git(detached.project, 'checkout', '-q', '--detach');
    const before = repoFacts(detached.project);
    writeFileSync(path.join(detached.project, 'a.txt'), 'detached\n');
    const d = await checkpoint(detached);
    expect(git(detached.project, 'rev-parse', `${d.checkpoint.snapshot!.commit}^`).trim()).toBe(git(detached.project, 'rev-parse', 'HEAD').trim());
    expect(repoFacts(detached.project).head).toEqual(before['head']);
  });

  it('records a submodule as its gitlink, never its files', async () => {
    const sub = tempDir('snap-submodule-src');
    git(sub, 'init', '-q');
    writeFileSync(path.join(sub, 'inner.txt'), 'inner\n');
    git(sub, 'add', '-A');
    git(sub, 'commit', '-q', '-m', 'inner');
    const p = await projectWithSession('withsub');
    git(p.project, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'lib');
    git(p.project, 'commit', '-q', '-m', 'submodule');
    writeFileSync(path.join(p.project, 'lib', 'inner.txt'), 'changed inside\n');
    writeFileSync(path.join(p.project, 'lib', 'untracked-inside.txt'), 'x\n');
    const cp = await checkpoint(p);
    const files = treeOf(p.project, cp.checkpoint.snapshot!.commit);
    expect(files.get('lib')).toBe('160000');
    expect([...files.keys()].filter((f) => f.startsWith('lib/'))).toEqual([]);
  });

  it("reads the person's index only as the regular file it opened: a FIFO or a link out there is refused by name, at once", async () => {
    const p = await projectWithSession('index');
    const outside = tempDir('index-outside');
    writeFileSync(path.join(outside, 'secret'), 'not an index\n');
    const index = path.join(p.project, '.git', 'index');
    rmSync(index);
    execFileSync('mkfifo', [index]);
    const fifo = await writeCheckpoint(p.stateDir, p.project, ports);
    expect(fifo.ok ? 'ok' : fifo.message).toMatch(/\.git\/index: is a named pipe, not a regular file; Mori does not read it/);
    rmSync(index);
    symlinkSync(path.join(outside, 'secret'), index);
    const link = await writeCheckpoint(p.stateDir, p.project, ports);
    expect(link.ok ? 'ok' : link.message).toMatch(/\.git\/index: is a symbolic link, not followed; Mori does not read it/);
    expect(readFileSync(path.join(outside, 'secret'), 'utf8')).toBe('not an index\n');
    rmSync(index);
    git(p.project, 'reset', '-q'); // the index back as git writes it
    expect((await writeCheckpoint(p.stateDir, p.project, ports)).ok).toBe(true);
  });

  it('outside a git repository records no snapshot and says so when asked for checkpoints', async () => {
    const project = tempDir('snap-nogit');
    const c = await createSession({ projectDir: project, name: 'nogit', profile: 'shell', backend: 'direct', home: tempDir('snap-nogit-home'), command: 'bash' });
    if (!c.ok) throw new Error(c.message);
    const cp = await writeCheckpoint(c.value.stateDir, project, ports);
    expect(cp.ok && cp.value.checkpoint.snapshot).toBeNull();
    const listed = await sessionCheckpoints(c.value.stateDir);
    expect(listed.ok ? '' : listed.message).toContain('no checkpoints: not a git repository');
  });
});

describe('changes since a checkpoint', () => {
  it('lists files added, modified and deleted with their line counts, binary files marked, and gives both sides of text', async () => {
    const p = await projectWithSession('changes');
    await checkpoint(p);
    writeFileSync(path.join(p.project, 'a.txt'), 'one\nTWO\nthree\n');
    rmSync(path.join(p.project, 'b.txt'));
    writeFileSync(path.join(p.project, 'c.txt'), 'new\n');
    writeFileSync(path.join(p.project, 'd.bin'), Buffer.from([0, 1, 2, 0, 255]));
    writeFileSync(path.join(p.project, 'skip.log'), 'ignored\n');
    const before = repoFacts(p.project);
    const r = await sessionChanges(p.stateDir, 'start');
    expect(r.ok, r.ok ? '' : r.message).toBe(true);
    if (!r.ok) return;
    expect(r.value.files.map((f) => [f.path, f.kind, f.added, f.deleted, f.binary])).toEqual([
      ['a.txt', 'modified', 2, 1, false],
      ['b.txt', 'deleted', 0, 1, false],
      ['c.txt', 'added', 1, 0, false],
      ['d.bin', 'added', null, null, true],
    ]);
    expect([r.value.added, r.value.deleted]).toEqual([3, 2]);
    const d = await sessionDiff(p.stateDir, '1', ['a.txt', 'd.bin']);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    const [a, bin] = d.value.files;
    expect(a!.before).toBe('one\ntwo\n');
    expect(a!.after).toBe('one\nTWO\nthree\n');
    expect(a!.patch).toContain('-two\n+TWO\n+three');
    expect(bin!.binary).toBe(true);
    expect(bin!.before).toBeNull();
    expect(bin!.after).toBeNull();
    // Nothing recorded and nothing of the person's touched by looking.
    expect(repoFacts(p.project)).toEqual(before);
    const listed = await sessionCheckpoints(p.stateDir);
    expect(listed.ok && listed.value).toHaveLength(1);
  });

  it('`mori changes --stat` lists a modified file, a deleted one and new untracked ones without writing a snapshot: no ref, no tree', async () => {
    const p = await projectWithSession('live');
    await checkpoint(p);
    writeFileSync(path.join(p.project, 'a.txt'), 'one\nTWO\nthree\n');
    rmSync(path.join(p.project, 'b.txt'));
    writeFileSync(path.join(p.project, 'c.txt'), 'new\n');
    mkdirSync(path.join(p.project, 'src'));
    writeFileSync(path.join(p.project, 'src', 'd.ts'), 'export {};\n');
    writeFileSync(path.join(p.project, 'skip.log'), 'ignored\n');
    const before = repoFacts(p.project);
    const objectsBefore = new Set(looseObjects(p.project));
    const r = moriIn(p.home, ['changes', 'live', '--stat', '--json']);
    expect(r.code, r.err).toBe(0);
    const files = (r.json()['files'] as { path: string; kind: string; added: number; deleted: number }[]).map((f) => [f.path, f.kind, f.added, f.deleted]);
    expect(files).toEqual([
      ['a.txt', 'modified', 2, 1],
      ['b.txt', 'deleted', 0, 1],
      ['c.txt', 'added', 1, 0],
      ['src/d.ts', 'added', 1, 0],
    ]);
    const text = moriIn(p.home, ['changes', 'live', '--stat']);
    expect(text.out).toMatch(/^Since checkpoint [0-9a-f]{7} \(#1, [^)]+\): 4 files changed, \+4 -2\n/);
    expect(text.out).toMatch(/deleted\s+\+0 -1\s+b\.txt/);
    // Nothing recorded: the same refs, no tree object (only the new files' contents), the person's repository as it was.
    expect(refs(p.project, p.sessionId)).toHaveLength(1);
    const written = looseObjects(p.project).filter((o) => !objectsBefore.has(o));
    expect(written.map((o) => git(p.project, 'cat-file', '-t', o).trim())).not.toContain('tree');
    expect(repoFacts(p.project)).toEqual(before);
  }, 30_000);
});
