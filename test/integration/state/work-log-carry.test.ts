// An entry of Mori's appended while the agent renamed a new work log over the old one (an editor's
// save) is carried to the new log (main/state/work-log-carry.ts): not lost in the old file, not
// written twice when the rewriter took it along, never written through a link. The rename is made
// at the moment between the append's open and its write, through the real file system.
import { execFileSync } from 'node:child_process';
import fs, { closeSync, existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { carryOver } from '../../../main/state/work-log-carry.js';
import { openForAppend } from '../../../main/state/work-log-files.js';
import { UnsafeStateFile } from '../../../main/state/state-file-guard.js';
import { appendEntry, appendEntryAsync, formatEntry } from '../../../main/state/work-log.js';
import { tempDir } from '../../../testkit/mori-cli.js';
import { WORK_LOG } from '../../../common/state-files.js';

const START = '# Work log\n\n## 2026-12-06 20:00\n- SESSION STARTED - agent claude\n';
const NOTE = '\n- the agent tidied this log\n';

/** A state dir with a work log; the log's path. */
function log(): string {
  const dir = path.join(tempDir('carry'), '.mori', 's');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, WORK_LOG);
  writeFileSync(file, START);
  return file;
}

/** The agent's save: `text` written to a new file renamed over the log. */
function save(file: string, text: string): void {
  writeFileSync(`${file}.new`, text);
  renameSync(`${file}.new`, file);
}

const count = (hay: string, needle: string): number => hay.split(needle).length - 1;

afterEach(() => {
  vi.restoreAllMocks();
  syncBuiltinESMExports();
});

describe('an entry written into a work log renamed over meanwhile', () => {
  it('is appended to the new log, once', () => {
    const file = log();
    const entry = Buffer.from(formatEntry(new Date(2026, 11, 6, 20, 5), ['SESSION INTERRUPTED - system sleep']));
    const fd = openForAppend(file);
    try {
      save(file, START + NOTE);
      writeSync(fd, entry);
      const size = carryOver(fd, file, entry);
      const now = readFileSync(file, 'utf8');
      expect(now).toBe(START + NOTE + entry.toString());
      expect(size).toBe(Buffer.byteLength(now));
    } finally {
      closeSync(fd);
    }
  });

  it('is not written twice when the rewriter read it and took it along', () => {
    const file = log();
    const entry = Buffer.from(formatEntry(new Date(2026, 11, 6, 20, 6), ['SESSION RESUMED - system sleep; agent relaunched']));
    const fd = openForAppend(file);
    try {
      writeSync(fd, entry);
      save(file, readFileSync(file, 'utf8') + NOTE);
      carryOver(fd, file, entry);
      expect(count(readFileSync(file, 'utf8'), entry.toString())).toBe(1);
    } finally {
      closeSync(fd);
    }
  });

  it('leaves a log that was not replaced as it is', () => {
    const file = log();
    const entry = Buffer.from(formatEntry(new Date(2026, 11, 6, 20, 7), ['VERIFIED - checks passed']));
    const fd = openForAppend(file);
    try {
      writeSync(fd, entry);
      expect(carryOver(fd, file, entry)).toBeNull();
      expect(readFileSync(file, 'utf8')).toBe(START + entry.toString());
    } finally {
      closeSync(fd);
    }
  });

  it('is never written through a symlink renamed in: refused, for the caller to hold', () => {
    const file = log();
    const outside = path.join(path.dirname(path.dirname(path.dirname(file))), 'outside.md');
    writeFileSync(outside, '# the person\'s notes\n');
    const entry = Buffer.from(formatEntry(new Date(2026, 11, 6, 20, 8), ['SESSION INTERRUPTED - agent crashed']));
    const fd = openForAppend(file);
    try {
      writeSync(fd, entry);
      symlinkSync(outside, `${file}.link`);
      renameSync(`${file}.link`, file);
      expect(() => carryOver(fd, file, entry)).toThrow(UnsafeStateFile);
      expect(readFileSync(outside, 'utf8')).toBe('# the person\'s notes\n');
    } finally {
      closeSync(fd);
    }
  });

  it('is never written into a FIFO renamed in: refused at once, nothing blocks', () => {
    const file = log();
    const entry = Buffer.from(formatEntry(new Date(2026, 11, 6, 20, 8), ['SESSION INTERRUPTED - agent crashed']));
    const fd = openForAppend(file);
    try {
      writeSync(fd, entry);
      execFileSync('mkfifo', [`${file}.fifo`]);
      renameSync(`${file}.fifo`, file);
      expect(() => carryOver(fd, file, entry)).toThrow(file);
    } finally {
      closeSync(fd);
    }
  });

  it('through the supervisor\'s append: the agent saves between its open and its write, and the entry is in the log', async () => {
    const file = log();
    // The file handle's write, the real one, is let run once the agent's save is made: the moment
    // an entry goes into the old file.
    const probe = await open(`${file}.probe`, 'w');
    const proto = Object.getPrototypeOf(probe) as { write: (...a: unknown[]) => Promise<unknown> };
    await probe.close();
    const write = proto.write;
    let saved = false;
    vi.spyOn(proto, 'write').mockImplementation(function (this: unknown, ...args: unknown[]) {
      if (!saved) {
        saved = true;
        save(file, START + NOTE);
      }
      return write.apply(this, args);
    });
    await appendEntryAsync(path.dirname(file), ['SESSION INTERRUPTED - agent exited around a sleep (signal SIGKILL); restarting in 1s'], new Date(2026, 11, 6, 20, 9));
    expect(saved).toBe(true);
    const now = readFileSync(file, 'utf8');
    expect(now.startsWith(START + NOTE)).toBe(true);
    expect(count(now, 'SESSION INTERRUPTED - agent exited around a sleep')).toBe(1);
    expect(existsSync(`${file}.new`)).toBe(false);
  });

  it('through an append of `mori log` or the agent\'s hook: the same, on the synchronous path', () => {
    const file = log();
    // node:fs's own writeSync, let run once the save is made (named imports follow the module's object once synced).
    const write = fs.writeSync;
    let saved = false;
    vi.spyOn(fs, 'writeSync').mockImplementation(((...args: Parameters<typeof fs.writeSync>) => {
      if (!saved && String(args[1]).includes('SESSION NOTE')) {
        saved = true;
        save(file, START + NOTE);
      }
      return write(...args);
    }) as typeof fs.writeSync);
    syncBuiltinESMExports();
    appendEntry(path.dirname(file), ['SESSION NOTE - the person wrote this'], new Date(2026, 11, 6, 20, 10));
    expect(saved).toBe(true);
    const now = readFileSync(file, 'utf8');
    expect(now.startsWith(START + NOTE)).toBe(true);
    expect(count(now, 'SESSION NOTE - the person wrote this')).toBe(1);
  });
});
