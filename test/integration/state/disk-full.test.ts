// A full disk under a session's state dir (a real tmpfs of a few MB; skipped with the reason where
// none can be mounted): a write that fails leaves each file as it was — no torn work-log entry, no
// empty or half session.json, no empty lock marker or temp file left — and says ENOSPC.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createSession } from '../../../main/state/state-dir.js';
import { readSessionFile, updateSessionFile, updateSessionFileAsync } from '../../../main/state/session-file.js';
import { appendEntry, appendEntryAsync } from '../../../main/state/work-log.js';
import { fill, freeUp, mountSmallDisk, release, unmountSmallDisk, type Mounted } from '../../../testkit/small-disk.js';
import { tempDir } from '../../../testkit/mori-cli.js';
import { SESSION_FILE, WORK_LOG } from '../../../common/state-files.js';

/** A disk this small fills in a few milliseconds. */
const DISK_BYTES = 1024 * 1024;
/** tmpfs counts space in pages: a file's last page takes appends until it is full, each new page is a block. */
const PAGE = 4096;

const root = tempDir('disk-full');
const disk = mountSmallDisk(path.join(root, 'disk'), DISK_BYTES);
const skipped = 'skipped' in disk ? disk.skipped : null;
if (skipped) process.stderr.write(`disk-full tests skipped: ${skipped}\n`);
afterAll(() => {
  if (!skipped) unmountSmallDisk(disk as Mounted);
});

let stateDir = '';
let n = 0;
beforeEach(async () => {
  if (skipped) return;
  release((disk as Mounted).dir);
  const project = path.join((disk as Mounted).dir, `p${n++}`);
  (await import('node:fs')).mkdirSync(project);
  const created = await createSession({ projectDir: project, name: 'full', profile: 'claude', backend: 'direct', home: tempDir('disk-full-home') });
  if (!created.ok) throw new Error(created.message);
  stateDir = created.value.stateDir;
});

/** The agent's own lines, until the log ends `room` bytes before a page boundary. */
function padLog(room: number): void {
  const file = path.join(stateDir, WORK_LOG);
  const size = statSync(file).size;
  const want = Math.ceil((size + room + 32) / PAGE) * PAGE - room;
  writeFileSync(file, `${'x'.repeat(want - size - 1)}\n`, { flag: 'a' });
}

/** What Mori leaves beside its files mid-write: lock markers, temp files. */
const leftovers = (): string[] => readdirSync(stateDir).filter((f) => /^work_log\.(appending|waiting)\.|\.tmp$/.test(f));

const cases = [
  ['appendEntry', async (lines: string[]) => appendEntry(stateDir, lines)],
  ['appendEntryAsync', (lines: string[]) => appendEntryAsync(stateDir, lines)],
] as const;

describe.skipIf(skipped !== null)('a full disk under the state dir', () => {
  describe.each(cases)('%s', (_, append) => {
    it('leaves no empty lock marker behind when the disk has no block left', async () => {
      const before = readFileSync(path.join(stateDir, WORK_LOG));
      fill((disk as Mounted).dir);
      await expect(append(['SESSION INTERRUPTED - the disk is full'])).rejects.toMatchObject({ code: 'ENOSPC' });
      expect(leftovers()).toEqual([]);
      expect(readFileSync(path.join(stateDir, WORK_LOG))).toEqual(before);
    });

    it('takes back an entry the disk cut short: the log as it was, the next entry whole', async () => {
      padLog(10);
      const before = readFileSync(path.join(stateDir, WORK_LOG));
      fill((disk as Mounted).dir);
      // One block free: the lock's marker takes it, and the entry has only the log's last 10 bytes.
      freeUp((disk as Mounted).dir, PAGE);
      await expect(append(['SESSION INTERRUPTED - the disk is nearly full'])).rejects.toMatchObject({ code: 'ENOSPC' });
      expect(readFileSync(path.join(stateDir, WORK_LOG))).toEqual(before);
      expect(leftovers()).toEqual([]);
      release((disk as Mounted).dir);
      await append(['SESSION RESUMED - space again']);
      const after = readFileSync(path.join(stateDir, WORK_LOG), 'utf8');
      expect(after.slice(0, before.length)).toBe(before.toString('utf8'));
      expect(after.slice(before.length)).toMatch(/^\n## [\d-]+ [\d:]+\n- SESSION RESUMED - space again\n$/);
    });
  });

  it('session.json stays as it was when its new version cannot be written, with no temp file left', async () => {
    const file = path.join(stateDir, SESSION_FILE);
    const before = readFileSync(file);
    fill((disk as Mounted).dir);
    const sync = updateSessionFile(stateDir, (s) => ({ ...s, task: 'written on a full disk' }));
    const async = await updateSessionFileAsync(stateDir, (s) => ({ ...s, task: 'written on a full disk' }));
    expect([sync.ok, async.ok]).toEqual([false, false]);
    expect(!sync.ok && sync.message).toMatch(/ENOSPC/);
    expect(readFileSync(file)).toEqual(before);
    expect(readSessionFile(stateDir).ok).toBe(true);
    expect(leftovers()).toEqual([]);
    release((disk as Mounted).dir);
    expect(updateSessionFile(stateDir, (s) => ({ ...s, task: 'written once space came back' })).ok).toBe(true);
  });
});
