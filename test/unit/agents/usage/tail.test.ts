// The incremental JSONL tail (main/agents/usage/jsonl-tail.ts) on real files: only what was appended
// is read, a partial last line waits for its newline, a file replaced (new inode) or shrunk is read
// from its start, and a FIFO or symlink is refused without a wait.
import { appendFileSync, mkdtempSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonlTail } from '../../../../main/agents/usage/jsonl-tail.js';
import { isAgentFileError } from '../../../../main/os/agent-file.js';

const dir = (): string => mkdtempSync(path.join(os.tmpdir(), 'mori-tail-'));

async function lines(t: JsonlTail): Promise<{ lines: string[]; restarted: boolean }> {
  const r = await t.read();
  if (isAgentFileError(r)) throw r;
  return { lines: r.lines, restarted: r.restarted };
}

describe('JsonlTail', () => {
  it('reads only what was appended, and a partial last line once it is complete', async () => {
    const file = path.join(dir(), 'r.jsonl');
    writeFileSync(file, '{"a":1}\n{"b":');
    const t = new JsonlTail(file);
    expect(await lines(t)).toEqual({ lines: ['{"a":1}'], restarted: false });
    expect((await lines(t)).lines).toEqual([]);
    appendFileSync(file, '2}\n{"c":3}\n');
    expect((await lines(t)).lines).toEqual(['{"b":2}', '{"c":3}']);
    expect((await lines(t)).lines).toEqual([]);
  });

  it('starts again from the beginning when the file is replaced (another inode) or shrinks', async () => {
    const d = dir();
    const file = path.join(d, 'r.jsonl');
    writeFileSync(file, '{"a":1}\n{"a":2}\n');
    const t = new JsonlTail(file);
    expect((await lines(t)).lines).toHaveLength(2);
    // Replaced by a longer file: a size check alone would read it from the old offset.
    writeFileSync(path.join(d, 'new'), '{"n":1}\n{"n":2}\n{"n":3}\n');
    renameSync(path.join(d, 'new'), file);
    expect(await lines(t)).toEqual({ lines: ['{"n":1}', '{"n":2}', '{"n":3}'], restarted: true });
    writeFileSync(file, '{"s":1}\n'); // truncated in place: same inode, smaller
    expect(await lines(t)).toEqual({ lines: ['{"s":1}'], restarted: true });
  });

  it('reads a large record in bounded chunks and within the budget per call', async () => {
    const file = path.join(dir(), 'r.jsonl');
    const line = `{"x":"${'y'.repeat(1000)}"}`;
    writeFileSync(file, `${line}\n`.repeat(10_000)); // ~10 MB: several chunks
    const t = new JsonlTail(file, [], 5_000_000);
    const first = await t.read();
    if (isAgentFileError(first)) throw first;
    expect(first.caughtUp).toBe(false);
    const second = await t.read();
    if (isAgentFileError(second)) throw second;
    expect(first.lines.length + second.lines.length + (second.caughtUp ? 0 : ((await lines(t)).lines.length))).toBe(10_000);
    expect(first.lines.every((l) => l === line)).toBe(true);
  });

  it('refuses a FIFO and a symlink without waiting', async () => {
    const d = dir();
    execFileSync('mkfifo', [path.join(d, 'fifo')]);
    symlinkSync('/etc/passwd', path.join(d, 'link'));
    for (const name of ['fifo', 'link']) {
      const r = await new JsonlTail(path.join(d, name)).read();
      expect(isAgentFileError(r) ? r.problem : 'read').toBe(name === 'fifo' ? 'not-regular' : 'symlink');
    }
  });
});
