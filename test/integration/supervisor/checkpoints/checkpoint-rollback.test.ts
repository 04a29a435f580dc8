// Rollback (DESIGN.md §4): files put back as a checkpoint recorded them, all or some, after a
// checkpoint of the current state that undoes it; never through a symbolic link, never an ignored
// file; the agent told in its next prompt; refused while the agent works unless confirmed; and the
// commands through a real `mori`. Real git, real files.
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rollbackNeedsConfirm } from '../../../../common/checkpoints.js';
import { rollbackSessionFiles, takeSessionCheckpoint } from '../../../../main/daemon/api/checkpoints.js';
import type { RequestContext } from '../../../../main/daemon/api/context.js';
import { writeCheckpoint } from '../../../../main/supervisor/checkpoints/checkpoint.js';
import { rollbackSession } from '../../../../main/supervisor/checkpoints/rollback.js';
import { gatherResumeInputs } from '../../../../main/supervisor/resume/resume-inputs.js';
import { buildResumePrompt } from '../../../../main/supervisor/resume/resume-prompt.js';
import { readSessionFile } from '../../../../main/state/session-file.js';
import { moriIn, tempDir } from '../../../../testkit/mori-cli.js';
import { git, projectWithSession, type Project } from '../../../support/snapshot-repo.js';
import { offlineCheckpointPorts } from '../../../../main/cli/offline-session-write.js';
import { WORK_LOG } from '../../../../common/state-files.js';

/** Checkpoints as the CLI takes them, sharing one limiter as one process's do. */
const ports = offlineCheckpointPorts();

async function checkpoint(p: Project): Promise<string> {
  const r = await writeCheckpoint(p.stateDir, p.project, ports);
  if (!r.ok) throw new Error(r.message);
  return r.value.checkpoint.snapshot!.commit;
}

const read = (p: Project, f: string): string | null => (existsSync(path.join(p.project, f)) ? readFileSync(path.join(p.project, f), 'utf8') : null);

/** A project checkpointed clean, then changed: a modified, b deleted, c added, an ignored log written. */
async function changed(name: string): Promise<{ p: Project; start: string }> {
  const p = await projectWithSession(name);
  const start = await checkpoint(p);
  writeFileSync(path.join(p.project, 'a.txt'), 'agent wrote this\n');
  rmSync(path.join(p.project, 'b.txt'));
  writeFileSync(path.join(p.project, 'c.txt'), 'added\n');
  writeFileSync(path.join(p.project, 'keep.log'), 'ignored, never touched\n');
  return { p, start };
}

describe('rollback', () => {
  it('restores every file, deletes the added ones that are not ignored, and is undone by rolling back to the checkpoint it took first', async () => {
    const { p, start } = await changed('all');
    const dry = await rollbackSession({ stateDir: p.stateDir, to: start.slice(0, 7), dryRun: true }, ports);
    expect(dry.ok && dry.value.actions).toEqual([
      { path: 'a.txt', action: 'restore' },
      { path: 'b.txt', action: 'restore' },
      { path: 'c.txt', action: 'delete' },
    ]);
    expect(read(p, 'a.txt')).toBe('agent wrote this\n'); // a dry run changes nothing

    const r = await rollbackSession({ stateDir: p.stateDir, to: 'start' }, ports);
    expect(r.ok, r.ok ? '' : r.message).toBe(true);
    if (!r.ok) return;
    expect([read(p, 'a.txt'), read(p, 'b.txt'), read(p, 'c.txt'), read(p, 'keep.log')]).toEqual(['one\ntwo\n', 'bee\n', null, 'ignored, never touched\n']);
    expect(git(p.project, 'status', '--porcelain')).toBe('');
    expect(readFileSync(path.join(p.stateDir, WORK_LOG), 'utf8')).toContain(`ROLLBACK to ${start.slice(0, 7)} - 3 files`);
    const before = r.value.before!;
    expect(before.reason).toBe('before rollback');

    const undo = await rollbackSession({ stateDir: p.stateDir, to: before.id }, ports);
    expect(undo.ok, undo.ok ? '' : undo.message).toBe(true);
    expect([read(p, 'a.txt'), read(p, 'b.txt'), read(p, 'c.txt'), read(p, 'keep.log')]).toEqual(['agent wrote this\n', null, 'added\n', 'ignored, never touched\n']);
  });

  it('restores only the chosen files', async () => {
    const { p } = await changed('some');
    const r = await rollbackSession({ stateDir: p.stateDir, to: '1', files: ['a.txt'] }, ports);
    expect(r.ok && r.value.actions).toEqual([{ path: 'a.txt', action: 'restore' }]);
    expect([read(p, 'a.txt'), read(p, 'b.txt'), read(p, 'c.txt')]).toEqual(['one\ntwo\n', null, 'added\n']);
  });

  it('never deletes a file that is ignored, even one tracked since the checkpoint', async () => {
    const p = await projectWithSession('ignored');
    const start = await checkpoint(p);
    writeFileSync(path.join(p.project, 'forced.log'), 'tracked but ignored\n');
    git(p.project, 'add', '-f', 'forced.log');
    const r = await rollbackSession({ stateDir: p.stateDir, to: start }, ports);
    expect(r.ok && r.value.actions).toEqual([{ path: 'forced.log', action: 'skip', why: 'ignored' }]);
    expect(read(p, 'forced.log')).toBe('tracked but ignored\n');
  });

  it('refuses a path whose parent is a symbolic link (writing nothing), and restores a symlink as a link, never through it', async () => {
    const outside = tempDir('rollback-outside');
    writeFileSync(path.join(outside, 'f.txt'), 'outside\n');
    writeFileSync(path.join(outside, 'secret'), 'secret\n');
    const p = await projectWithSession('links');
    mkdirSync(path.join(p.project, 'dir'));
    writeFileSync(path.join(p.project, 'dir', 'f.txt'), 'inside\n');
    symlinkSync(path.join(outside, 'secret'), path.join(p.project, 'link'));
    const start = await checkpoint(p);
    writeFileSync(path.join(p.project, 'a.txt'), 'changed\n');
    rmSync(path.join(p.project, 'dir'), { recursive: true });
    symlinkSync(outside, path.join(p.project, 'dir'));
    const refused = await rollbackSession({ stateDir: p.stateDir, to: start }, ports);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.message).toMatch(/dir is a symbolic link/);
    expect(readFileSync(path.join(outside, 'f.txt'), 'utf8')).toBe('outside\n');
    expect(read(p, 'a.txt')).toBe('changed\n');

    rmSync(path.join(p.project, 'dir'));
    rmSync(path.join(p.project, 'link'));
    writeFileSync(path.join(p.project, 'link'), 'a plain file now\n');
    const r = await rollbackSession({ stateDir: p.stateDir, to: start }, ports);
    expect(r.ok, r.ok ? '' : r.message).toBe(true);
    expect(lstatSync(path.join(p.project, 'link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(p.project, 'link'))).toBe(path.join(outside, 'secret'));
    expect(readFileSync(path.join(outside, 'secret'), 'utf8')).toBe('secret\n');
    expect(read(p, 'dir/f.txt')).toBe('inside\n');
  });

  it('leaves a note the next resume prompt carries', async () => {
    const { p, start } = await changed('notice');
    const r = await rollbackSession({ stateDir: p.stateDir, to: start }, ports);
    expect(r.ok).toBe(true);
    const s = readSessionFile(p.stateDir);
    if (!s.ok) throw new Error(s.message);
    expect(s.value.rollbackNotice?.checkpoint).toBe(start.slice(0, 7));
    const inputs = gatherResumeInputs(p.stateDir, s.value);
    if (!inputs.ok) throw new Error(inputs.message);
    expect(buildResumePrompt(inputs.value)).toContain(`Files were rolled back to checkpoint ${start.slice(0, 7)} by the person`);
  });

  it('waits for a confirmation while the agent is working (the control API answers `busy`)', async () => {
    const { p, start } = await changed('busy');
    expect(rollbackNeedsConfirm({ state: 'running', activity: 'working' })).toBe(true);
    expect(rollbackNeedsConfirm({ state: 'running', activity: 'waiting' })).toBe(false);
    expect(rollbackNeedsConfirm(null)).toBe(false);
    // The supervisor's answer about the session is all the handler asks of it.
    const info = { id: p.sessionId, name: 'busy', stateDir: p.stateDir, state: 'running', activity: 'working' };
    const ctx = { supervisor: { list: () => [info], checkpointPorts: ports }, home: p.home } as unknown as RequestContext;
    const refused = await rollbackSessionFiles({ session: 'busy', to: start, files: [], dryRun: false, confirm: false }, ctx);
    expect(refused.ok ? 'ok' : refused.code).toBe('busy');
    expect(read(p, 'a.txt')).toBe('agent wrote this\n');
    const confirmed = await rollbackSessionFiles({ session: 'busy', to: start, files: [], dryRun: false, confirm: true }, ctx);
    expect(confirmed.ok, confirmed.ok ? '' : confirmed.message).toBe(true);
    expect(read(p, 'a.txt')).toBe('one\ntwo\n');
  });
});

describe('a checkpoint taken through the control API', () => {
  it('is announced on the event stream as a periodic one is, and an unchanged tree is announced as unchanged', async () => {
    const p = await projectWithSession('take');
    const emitted: Record<string, unknown>[] = [];
    const info = { id: p.sessionId, name: 'take', stateDir: p.stateDir, state: 'running', activity: 'waiting' };
    const ctx = { supervisor: { list: () => [info], checkpointPorts: ports }, home: p.home, events: { emit: (e: Record<string, unknown>) => emitted.push(e) } } as unknown as RequestContext;
    const first = await takeSessionCheckpoint({ session: 'take', message: 'by hand' }, ctx);
    expect(first.ok, first.ok ? '' : first.message).toBe(true);
    expect(emitted).toEqual([expect.objectContaining({ type: 'checkpoint.written', sessionId: p.sessionId, name: 'take', changed: true })]);
    const again = await takeSessionCheckpoint({ session: 'take' }, ctx);
    expect(again.ok && again.value.created).toBe(false);
    expect(emitted.map((e) => e['changed'])).toEqual([true, false]);
  });
});

describe('through a real mori', () => {
  it('checkpoint, checkpoints, changes, rollback --dry-run and rollback', async () => {
    const project = tempDir('rollback-cli');
    git(project, 'init', '-q');
    writeFileSync(path.join(project, 'a.txt'), 'one\n');
    git(project, 'add', '-A');
    git(project, 'commit', '-q', '-m', 'start');
    const home = tempDir('rollback-cli-home');
    expect(moriIn(home, ['init', project, '--name', 'cli', '--agent', 'shell', '--command', 'bash', '--backend', 'direct']).code).toBe(0);
    const first = moriIn(home, ['checkpoint', 'cli', '--json']);
    expect(first.code, first.err).toBe(0);
    const id = String(first.json()['id']);
    writeFileSync(path.join(project, 'a.txt'), 'two\n');
    writeFileSync(path.join(project, 'new.txt'), 'new\n');
    const second = moriIn(home, ['checkpoint', 'cli', '-m', 'after edits']);
    expect(second.out).toMatch(/^Checkpoint [0-9a-f]{7} \(#2\)/);
    expect(moriIn(home, ['checkpoint', 'cli']).out).toMatch(/^Unchanged since checkpoint/);
    const list = moriIn(home, ['checkpoints', 'cli', '--json']).json()['checkpoints'] as { seq: number; message: string; logLine: string }[];
    expect(list.map((c) => [c.seq, c.message])).toEqual([[1, ''], [2, 'after edits']]);
    expect(list[1]!.logLine).toMatch(/^CHECKPOINT [0-9a-f]{7} - 2 files changed: a\.txt, new\.txt$/);
    const stat = moriIn(home, ['changes', 'cli', '--stat']);
    expect(stat.out).toContain(`Since checkpoint ${id} (#1`);
    expect(stat.out).toMatch(/modified\s+\+1 -1\s+a\.txt/);
    expect(stat.out).toMatch(/added\s+\+1 -0\s+new\.txt/);
    expect(moriIn(home, ['changes', 'cli']).out).toContain('-one\n+two');
    const dry = moriIn(home, ['rollback', 'cli', id, '--dry-run']);
    expect(dry.out).toContain('2 files would change:\n  restore  a.txt\n  delete   new.txt');
    expect(readFileSync(path.join(project, 'a.txt'), 'utf8')).toBe('two\n');
    const done = moriIn(home, ['rollback', 'cli', id]);
    expect(done.code, done.err).toBe(0);
    expect(done.out).toContain('will change:\n  restore  a.txt\n  delete   new.txt');
    expect(done.out).toMatch(/Undo: mori rollback cli [0-9a-f]{7}/);
    expect(readFileSync(path.join(project, 'a.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(path.join(project, 'new.txt'))).toBe(false);
    expect(moriIn(home, ['prompt', 'cli']).out).toContain(`rolled back to checkpoint ${id} by the person`);

    const plain = tempDir('rollback-cli-nogit');
    expect(moriIn(home, ['init', plain, '--name', 'nogit', '--agent', 'shell', '--command', 'bash', '--backend', 'direct']).code).toBe(0);
    const none = moriIn(home, ['checkpoints', 'nogit']);
    expect(none.code).toBe(1);
    expect(none.err).toContain('no checkpoints: not a git repository');
  }, 60_000);
});
