// A state file that is a symlink (or a hard link) to a file outside its state dir is refused on every
// write path, named in the error, and the file it points at is never written (DESIGN.md §11): an
// agent that can edit its state dir must not get Mori to write into the person's other files.
import { linkSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeAtomic, writeAtomicSync } from '../../../main/state/atomic-write.js';
import { readSessionFile, updateSessionFile, updateSessionFileAsync, writeSessionFile } from '../../../main/state/session-file.js';
import { UnsafeStateFile } from '../../../main/state/state-file-guard.js';
import { appendEntry, appendEntryAsync, compactWorkLog } from '../../../main/state/work-log.js';
import { writeCheckpoint } from '../../../main/supervisor/checkpoints/checkpoint.js';
import { gitRepo, runMori, tempDir } from '../../../testkit/mori-cli.js';
import { offlineCheckpointPorts } from '../../../main/cli/offline-session-write.js';
import { WORK_LOG, WORK_LOG_ARCHIVE } from '../../../common/state-files.js';

/** Checkpoints as the CLI takes them, sharing one limiter as one process's do. */
const ports = offlineCheckpointPorts();

let home: string;
let project: string;
let stateDir: string;
/** A file of the person's, outside every state dir. */
let outside: string;
const PRECIOUS = '# my notes\nnothing of Mori in here\n';

beforeEach(() => {
  home = tempDir('link-home');
  project = tempDir('link-proj');
  gitRepo(project);
  expect(runMori(['init', project, '--name', 'auth', '--agent', 'claude'], { home }).code).toBe(0);
  stateDir = path.join(project, '.mori', 'auth');
  outside = path.join(tempDir('link-outside'), 'notes.md');
  writeFileSync(outside, PRECIOUS);
});

/** Replaces a state file by a symlink to the outside file. */
function pointAtOutside(name: string, contents = PRECIOUS): string {
  const file = path.join(stateDir, name);
  writeFileSync(outside, contents);
  unlinkSync(file);
  symlinkSync(outside, file);
  return file;
}

function expectRefusal(fn: () => unknown, file: string): void {
  let thrown: unknown = null;
  try {
    fn();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(UnsafeStateFile);
  expect((thrown as Error).message).toContain(file);
}

describe('a symlinked work_log.md', () => {
  it('is refused by `mori log` (exit 3, the file named) and by every append; the target is untouched', async () => {
    const file = pointAtOutside(WORK_LOG);
    const r = runMori(['log', 'auth', 'this must not reach the notes'], { home });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(/symbolic link/);
    expectRefusal(() => appendEntry(stateDir, ['x']), file);
    await expect(appendEntryAsync(stateDir, ['x'])).rejects.toThrow(file);
    expectRefusal(() => compactWorkLog(stateDir, 1), file);
    expect(readFileSync(outside, 'utf8')).toBe(PRECIOUS);
  });

  it('a checkpoint reports it and writes nothing through it', async () => {
    const file = pointAtOutside(WORK_LOG);
    writeFileSync(path.join(project, 'changed.txt'), 'x\n');
    const r = await writeCheckpoint(stateDir, project, ports);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(file);
    expect(readFileSync(outside, 'utf8')).toBe(PRECIOUS);
  });
});

describe('a hard-linked work_log.md', () => {
  it('is refused too: appending would write into the other name', () => {
    const file = path.join(stateDir, WORK_LOG);
    unlinkSync(file);
    linkSync(outside, file);
    const r = runMori(['log', 'auth', 'nope'], { home });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(/hard links/);
    expect(readFileSync(outside, 'utf8')).toBe(PRECIOUS);
  });
});

describe('a symlinked archive', () => {
  it('stops compaction before anything moves', () => {
    const archive = path.join(stateDir, WORK_LOG_ARCHIVE);
    symlinkSync(outside, archive);
    for (let i = 0; i < 40; i++) appendEntry(stateDir, [`step ${i}`], new Date(), Number.MAX_SAFE_INTEGER);
    const before = readFileSync(path.join(stateDir, WORK_LOG), 'utf8');
    expectRefusal(() => compactWorkLog(stateDir, 256), archive);
    expect(readFileSync(path.join(stateDir, WORK_LOG), 'utf8')).toBe(before);
    expect(readFileSync(outside, 'utf8')).toBe(PRECIOUS);
  });
});

describe('a symlinked session_state.md or environment.md', () => {
  it('is refused by the atomic writer that every section edit goes through', async () => {
    for (const name of ['session_state.md', 'environment.md']) {
      const file = pointAtOutside(name);
      expectRefusal(() => writeAtomicSync(file, '## Current Task\n- replaced\n'), file);
      await expect(writeAtomic(file, 'replaced')).rejects.toThrow(file);
      expect(readFileSync(outside, 'utf8')).toBe(PRECIOUS);
      // Still the symlink: not replaced by a regular file either.
      expect(readFileSync(file, 'utf8')).toBe(PRECIOUS);
    }
  });
});

describe('a symlinked session.json', () => {
  it('is refused by every writer, named in the message, and the target keeps its bytes', async () => {
    const valid = readFileSync(path.join(stateDir, 'session.json'), 'utf8');
    const file = pointAtOutside('session.json', valid);
    const current = readSessionFile(stateDir);
    expect(current.ok).toBe(true);
    if (!current.ok) return;
    const sync = updateSessionFile(stateDir, (s) => ({ ...s, task: 'changed' }));
    expect(sync.ok).toBe(false);
    if (!sync.ok) expect([sync.code, sync.message.includes(file)]).toEqual(['unreadable', true]);
    const async = await updateSessionFileAsync(stateDir, (s) => ({ ...s, task: 'changed' }));
    expect(async.ok).toBe(false);
    if (!async.ok) expect([async.code, async.message.includes(file)]).toEqual(['unreadable', true]);
    expectRefusal(() => writeSessionFile(stateDir, { ...current.value, task: 'changed' }), file);
    const cp = await writeCheckpoint(stateDir, project, ports);
    expect(cp.ok).toBe(false);
    expect(readFileSync(outside, 'utf8')).toBe(valid);
    expect(readFileSync(outside, 'utf8')).toBe(valid);
  });
});
