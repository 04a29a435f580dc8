// The transcript's write buffers (terminals/transcript.ts): output is copied into buffers that go
// back to a pool shared by every transcript of the process once written. These tests write to real
// files and check every byte: many transcripts at once, chunks larger than a buffer, text with
// characters of several bytes, segments filling up inside a batch.
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTranscript, Transcript, TRANSCRIPT_FLUSH_BYTES } from '../../../main/terminals/transcript.js';

/** A deterministic byte pattern per transcript, so a byte in the wrong transcript shows. */
function chunk(owner: number, n: number, size: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = 32 + ((owner * 31 + n * 7 + i) % 90);
  return b;
}

describe('transcript write buffers', () => {
  it('keeps every byte of many transcripts written at once, in order, through shared buffers', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mori-transcript-'));
    const count = 6;
    const transcripts = Array.from({ length: count }, (_, i) => new Transcript({ dir: path.join(dir, `t${i}`) }));
    const expected: Buffer[][] = transcripts.map(() => []);
    // Sizes around the buffer's: small reads, one filling a buffer exactly, some spanning three.
    const sizes = [1, 4095, TRANSCRIPT_FLUSH_BYTES, 17, TRANSCRIPT_FLUSH_BYTES * 2 + 5, 65_536, 3];
    for (let round = 0; round < 12; round++) {
      for (let t = 0; t < count; t++) {
        const size = sizes[(round + t) % sizes.length] as number;
        if ((round + t) % 3 === 0) {
          // Text: encoded as UTF-8 (two-, three- and four-byte characters).
          const text = `r${round}·日本🙂`.repeat(Math.max(1, Math.floor(size / 16)));
          transcripts[t]?.append(text);
          expected[t]?.push(Buffer.from(text, 'utf8'));
        } else {
          const data = chunk(t, round, size);
          transcripts[t]?.append(data);
          expected[t]?.push(Buffer.from(data));
          // The caller may reuse its buffer once append returned: what was appended is kept.
          data.fill(0);
        }
      }
      // Some flushes while others are still writing: buffers go back to the pool mid-run.
      if (round % 4 === 1) await transcripts[round % count]?.flush();
    }
    await Promise.all(transcripts.map((t) => t.close()));
    for (let t = 0; t < count; t++) {
      const want = Buffer.concat(expected[t] ?? []);
      const got = readTranscript(path.join(dir, `t${t}`), 64 * 1024 * 1024);
      expect(got.totalBytes).toBe(want.length);
      expect(got.data.equals(want)).toBe(true);
    }
  });

  it('splits a batch where a segment fills up, and keeps the newest bytes over its budget', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'mori-transcript-')), 'transcript');
    // 100,000 bytes a segment: a 256 KB buffer spans three segments.
    const transcript = new Transcript({ dir, maxBytes: 400_000 });
    const parts: Buffer[] = [];
    for (let n = 0; n < 40; n++) {
      const data = chunk(1, n, 30_011 + n * 997);
      parts.push(data);
      transcript.append(data);
    }
    await transcript.close();
    const all = Buffer.concat(parts);
    const segments = readdirSync(dir).sort();
    expect(segments.length).toBeLessThanOrEqual(4);
    for (const f of segments.slice(0, -1)) expect(statSync(path.join(dir, f)).size).toBe(100_000);
    const kept = readTranscript(dir, 64 * 1024 * 1024);
    expect(kept.data.length).toBeGreaterThan(300_000);
    expect(kept.data.equals(all.subarray(all.length - kept.data.length))).toBe(true);
  });
});
