// main/os/agent-file.ts on real files: a FIFO, a symlink, a directory and an oversized file are
// refused at once with an error naming the file; a name swapped for a FIFO after a stat is judged by
// the opened handle; ranges, tails, searches and lines read only what they are asked, and a file held
// open for synchronous reads (an SQLite VFS's) no more than its budget.
import { spawnSync } from 'node:child_process';
import { appendFileSync, lstatSync, mkdirSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  agentFileContains,
  AgentFileError,
  forEachAgentFileLine,
  listAgentDir,
  openAgentFileSync,
  readAgentFile,
  readAgentFileAsOpened,
  readAgentFileRange,
  readAgentFileSync,
  readAgentFileTail,
  statAgentFile,
} from '../../../main/os/agent-file.js';
import { tempDir } from '../../../testkit/mori-cli.js';
import { quickly } from '../../support/quickly.js';

function mkfifo(file: string): void {
  const r = spawnSync('mkfifo', [file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mkfifo ${file}: ${r.stderr}`);
}


function refused(v: unknown, file: string, problem: AgentFileError['problem']): void {
  expect(v).toBeInstanceOf(AgentFileError);
  const e = v as AgentFileError;
  expect(e.problem).toBe(problem);
  expect(e.file).toBe(file);
  expect(e.message).toContain(file);
}

describe('agent-file', () => {
  const dir = tempDir('agent-file');

  it('refuses a FIFO at once, whatever the read (no writer ever comes)', async () => {
    const fifo = path.join(dir, 'x.log');
    mkfifo(fifo);
    for (const read of [
      readAgentFile(fifo, 1024),
      readAgentFileRange(fifo, 10, 1024),
      readAgentFileTail(fifo, 1024),
      statAgentFile(fifo),
      agentFileContains(fifo, 'ses_', 1024),
      forEachAgentFileLine(fifo, () => true, 1024),
      readAgentFileAsOpened(fifo, 1024),
    ]) {
      const r = await quickly<unknown>(read);
      refused(r, fifo, 'not-regular');
      expect((r as Error).message).toMatch(/named pipe/);
    }
    refused(readAgentFileSync(fifo, 1024), fifo, 'not-regular');
    refused(openAgentFileSync(fifo, 1024), fifo, 'not-regular');
  });

  it('refuses a symlink (not followed, even to a plain file) and a directory', async () => {
    const target = path.join(dir, 'secret.txt');
    writeFileSync(target, 'the person’s file');
    const link = path.join(dir, 'link.json');
    symlinkSync(target, link);
    refused(await readAgentFile(link, 1024), link, 'symlink');
    refused(readAgentFileSync(link, 1024), link, 'symlink');
    refused(openAgentFileSync(link, 1024), link, 'symlink');
    refused(await readAgentFileAsOpened(link, 1024), link, 'symlink');
    const sub = path.join(dir, 'a-dir.jsonl');
    mkdirSync(sub);
    const r = await readAgentFile(sub, 1024);
    refused(r, sub, 'not-regular');
    expect((r as Error).message).toMatch(/a directory/);
    refused(await readAgentFile(path.join(dir, 'none'), 1024), path.join(dir, 'none'), 'absent');
  });

  it('refuses a whole read past its cap, and reads one within it', async () => {
    const file = path.join(dir, 'big.json');
    writeFileSync(file, 'x'.repeat(2048));
    refused(await readAgentFile(file, 1024), file, 'too-large');
    refused(readAgentFileSync(file, 1024), file, 'too-large');
    expect((await readAgentFile(file, 2048)) as Buffer).toHaveLength(2048);
    expect(readAgentFileSync(file, 2048) as Buffer).toHaveLength(2048);
  });

  it('reads a file as opened (its fstat with it), and a held-open one only within its budget', async () => {
    const file = path.join(dir, 'store.db');
    writeFileSync(file, '0123456789abcdef');
    refused(await readAgentFileAsOpened(file, 8), file, 'too-large');
    const whole = await readAgentFileAsOpened(file, 16);
    if (whole instanceof AgentFileError) throw whole;
    expect([whole.bytes.toString(), whole.size, whole.from]).toEqual(['0123456789abcdef', 16, 0]);
    const f = openAgentFileSync(file, 10);
    if (f instanceof AgentFileError) throw f;
    try {
      const into = new Uint8Array(4);
      expect([f.read(into, 2), Buffer.from(into).toString()]).toEqual([4, '2345']);
      expect(f.read(into, 14)).toBe(2); // short only at the end
      expect(f.info.size).toBe(16);
      appendFileSync(file, 'more');
      expect(f.restat().size).toBe(20);
      // 6 of the 10 bytes spent: four more are too many.
      let thrown: unknown;
      try {
        f.read(new Uint8Array(5), 0);
      } catch (err) {
        thrown = err;
      }
      refused(thrown, file, 'too-large');
    } finally {
      f.close();
    }
  });

  it('judges what it opened: a file swapped for a FIFO after a stat is refused, not waited on', async () => {
    const file = path.join(dir, 'swapped.jsonl');
    writeFileSync(file, '{"ok":true}\n');
    expect(lstatSync(file).isFile()).toBe(true); // what a stat-then-open reader would have trusted
    const fifo = path.join(dir, 'swap.fifo');
    mkfifo(fifo);
    renameSync(fifo, file);
    refused(await quickly(readAgentFile(file, 1024)), file, 'not-regular');
    refused(await quickly(readAgentFileTail(file, 1024)), file, 'not-regular');
    unlinkSync(file);
  });

  it('reads a range from an offset, a tail, and no more than asked', async () => {
    const file = path.join(dir, 'log.txt');
    writeFileSync(file, '0123456789abcdef');
    const range = await readAgentFileRange(file, 4, 6);
    if (range instanceof AgentFileError) throw range;
    expect(range.bytes.toString()).toBe('456789');
    expect(range.from).toBe(4);
    expect(range.size).toBe(16);
    const past = await readAgentFileRange(file, 100, 6);
    if (past instanceof AgentFileError) throw past;
    expect(past.bytes).toHaveLength(0);
    expect(past.from).toBe(16);
    const tail = await readAgentFileTail(file, 5);
    if (tail instanceof AgentFileError) throw tail;
    expect(tail.bytes.toString()).toBe('bcdef');
    expect(tail.from).toBe(11);
    const st = await statAgentFile(file);
    if (st instanceof AgentFileError) throw st;
    expect(st.size).toBe(16);
  });

  it('finds a needle across its 1 MiB chunks, only within its cap', async () => {
    const file = path.join(dir, 'opencode.db');
    const needle = 'ses_0123456789abcdefABCDEFGHIJ';
    const at = 1024 * 1024 - 10; // straddles the first chunk's end
    writeFileSync(file, Buffer.concat([Buffer.alloc(at), Buffer.from(needle), Buffer.alloc(100)]));
    expect(await agentFileContains(file, needle, 4 * 1024 * 1024)).toBe(true);
    expect(await agentFileContains(file, needle, at)).toBe(false);
    expect(await agentFileContains(file, 'ses_absent', 4 * 1024 * 1024)).toBe(false);
  });

  it('visits lines until one is wanted, from an offset and within its cap', async () => {
    const file = path.join(dir, 'chat.jsonl');
    writeFileSync(file, 'a\nb\r\nc\nlast');
    const seen: string[] = [];
    expect(await forEachAgentFileLine(file, (l) => (seen.push(l), false), 1024)).toBe(false);
    expect(seen).toEqual(['a', 'b', 'c', 'last']);
    expect(await forEachAgentFileLine(file, (l) => l === 'c', 1024, 2)).toBe(true);
    expect(await forEachAgentFileLine(file, (l) => l === 'c', 4)).toBe(false);
  });

  it('lists at most the entries asked, and nothing of a FIFO or an absent dir', async () => {
    const many = path.join(dir, 'many');
    mkdirSync(many);
    for (let i = 0; i < 20; i++) writeFileSync(path.join(many, `${i}.json`), '');
    expect(await listAgentDir(many, 5)).toHaveLength(5);
    expect(await listAgentDir(many, 100)).toHaveLength(20);
    const fifo = path.join(dir, 'dir.fifo');
    mkfifo(fifo);
    expect(await quickly(listAgentDir(fifo, 5))).toEqual([]);
    expect(await listAgentDir(path.join(dir, 'nowhere'), 5)).toEqual([]);
  });
});
