// A state file the agent replaced by a symlink to a file outside the project, or by a FIFO, is named
// by the session's summary (`mori ls`'s and `mori status`'s problem) until a regular file is back,
// and the summary leaves it in place: reads may go through a symlink, so nothing else says it.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { summarize, summarizeCached } from '../../../main/state/session-summary.js';
import { createSession } from '../../../main/state/state-dir.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'mori-summary-defect-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function session(name: string): Promise<string> {
  const project = path.join(root, name);
  mkdirSync(project);
  const created = await createSession({ projectDir: project, name, profile: 'claude', backend: 'direct', home: path.join(root, 'home'), task: 'a task' });
  if (!created.ok) throw new Error(created.message);
  return created.value.stateDir;
}

describe('a state file that is not a regular file of its state dir', () => {
  it.each(['environment.md', 'session_state.md', 'session.json'])('is named when %s is a symlink to a file outside, and named no more once put back', async (name) => {
    const dir = await session(`link-${name.replace(/\W/g, '')}`);
    const file = path.join(dir, name);
    const good = readFileSync(file);
    const outside = path.join(root, `outside-${name}`);
    writeFileSync(outside, good);
    unlinkSync(file);
    symlinkSync(outside, file);
    for (const s of [summarize(dir), summarizeCached(dir)]) {
      expect(s.error).toContain(`${file}: is a symbolic link (to ${outside})`);
    }
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readFileSync(outside)).toEqual(good);
    writeFileSync(`${file}.tmp`, good);
    renameSync(`${file}.tmp`, file);
    for (const s of [summarize(dir), summarizeCached(dir)]) expect(s.error).toBeUndefined();
  });

  it('is named when environment.md is a FIFO, and reading the summary does not wait on it', async () => {
    const dir = await session('fifo');
    const file = path.join(dir, 'environment.md');
    unlinkSync(file);
    execFileSync('mkfifo', [file]);
    expect(summarizeCached(dir).error).toContain(`${file}: is a named pipe`);
    expect(lstatSync(file).isFIFO()).toBe(true);
  });
});
