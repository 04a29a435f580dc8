// The on-disk transcript of one terminal (DESIGN.md §6): every byte of output, appended in batches
// to numbered segment files under `<stateDir>/transcript/`, oldest segments deleted past a byte
// budget. Views page older output from it. Runs in the supervisor's process.
import { closeSync, mkdirSync, openSync, readdirSync, readSync, statSync, unlinkSync, fstatSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { background } from '../background.js';

/** Total budget of a transcript: a day of a busy agent's output, small next to any project. */
export const TRANSCRIPT_DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
/** The budget is split over this many segments, so rotation drops a quarter of history at a time. */
export const TRANSCRIPT_SEGMENTS = 4;
/** Flush at least this often: a crash of the app loses at most this much of the transcript. */
export const TRANSCRIPT_FLUSH_MS = 200;
/** ...or as soon as this much is buffered: large writes, memory bounded during a flood. */
export const TRANSCRIPT_FLUSH_BYTES = 256 * 1024;

const SEGMENT = /^(\d{6})\.log$/;
const segmentName = (n: number): string => `${String(n).padStart(6, '0')}.log`;

/** Segment numbers present in `dir`, oldest first. */
export function listSegments(dir: string): number[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((n) => SEGMENT.exec(n)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

export interface TranscriptOptions {
  dir: string;
  maxBytes?: number;
  /** A write failed, after the last one succeeded (or the first one): once per run of failures. */
  onError?: (error: Error) => void;
}

export class Transcript {
  readonly dir: string;
  private readonly segmentBytes: number;
  private pending: string[] = [];
  /** Characters buffered (a lower bound of their UTF-8 bytes; cheap to keep on the hot path). */
  private pendingChars = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private handle: FileHandle | null = null;
  private segment = 0;
  private segmentSize = 0;
  private closed = false;
  /** Last write error, if any; the transcript never takes the terminal down with it. */
  error: Error | null = null;
  /** The last batch failed: the next failure is not reported again. */
  private failing = false;
  private readonly onError: ((error: Error) => void) | undefined;

  constructor(options: TranscriptOptions) {
    this.dir = options.dir;
    this.onError = options.onError;
    this.segmentBytes = Math.max(4096, Math.floor((options.maxBytes ?? TRANSCRIPT_DEFAULT_MAX_BYTES) / TRANSCRIPT_SEGMENTS));
    mkdirSync(this.dir, { recursive: true });
    const existing = listSegments(this.dir);
    const last = existing.at(-1);
    this.segment = last ?? 1;
    this.segmentSize = last === undefined ? 0 : statSync(path.join(this.dir, segmentName(last))).size;
  }

  append(data: string): void {
    if (this.closed || data.length === 0) return;
    this.pending.push(data);
    this.pendingChars += data.length;
    if (this.pendingChars >= TRANSCRIPT_FLUSH_BYTES) background(this.flush(), `writing the transcript in ${this.dir}`);
    else this.timer ??= setTimeout(() => void this.flush(), TRANSCRIPT_FLUSH_MS);
  }

  /** Starts writing what is buffered; resolves once everything appended so far is on disk. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pendingChars > 0) {
      const batch = this.pending;
      this.pending = [];
      this.pendingChars = 0;
      this.writing = this.writing
        .then(() => this.writeBatch(batch))
        .then(
          () => {
            this.failing = false;
          },
          (e: unknown) => {
            this.error = e instanceof Error ? e : new Error(String(e));
            // A handle to a segment that failed may be broken: the next batch opens it anew.
            if (this.handle) background(this.handle.close(), `closing a transcript segment in ${this.dir}`);
            this.handle = null;
            if (this.failing) return;
            this.failing = true;
            this.onError?.(this.error);
          },
        );
    }
    return this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    await this.writing;
    await this.handle?.close().catch(() => undefined);
    this.handle = null;
  }

  private async writeBatch(batch: string[]): Promise<void> {
    let data = Buffer.from(batch.join(''), 'utf8');
    while (data.length > 0) {
      if (this.segmentSize >= this.segmentBytes) await this.rotate();
      const handle = await this.open();
      const room = this.segmentBytes - this.segmentSize;
      const part = data.length <= room ? data : data.subarray(0, room);
      await handle.write(part);
      this.segmentSize += part.length;
      data = data.subarray(part.length);
    }
  }

  private async open(): Promise<FileHandle> {
    this.handle ??= await open(path.join(this.dir, segmentName(this.segment)), 'a');
    return this.handle;
  }

  private async rotate(): Promise<void> {
    await this.handle?.close();
    this.handle = null;
    this.segment += 1;
    this.segmentSize = 0;
    for (const old of listSegments(this.dir)) {
      if (old <= this.segment - TRANSCRIPT_SEGMENTS) unlinkSync(path.join(this.dir, segmentName(old)));
    }
  }
}

/**
 * Reads up to `maxBytes` of the transcript ending `beforeEnd` bytes before its end (0 = the newest
 * output), across segments. A view pages older history by growing `beforeEnd`. The first bytes may
 * start inside a UTF-8 character or an escape sequence; callers start rendering after a newline.
 */
export function readTranscript(dir: string, maxBytes: number, beforeEnd = 0): { data: Buffer; totalBytes: number } {
  const segments = listSegments(dir).map((n) => {
    const file = path.join(dir, segmentName(n));
    return { file, size: statSync(file).size };
  });
  const totalBytes = segments.reduce((sum, s) => sum + s.size, 0);
  const end = Math.max(0, totalBytes - beforeEnd);
  const start = Math.max(0, end - maxBytes);
  const out = Buffer.alloc(end - start);
  let offset = 0;
  let written = 0;
  for (const s of segments) {
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + s.size);
    if (from < to) {
      const fd = openSync(s.file, 'r');
      try {
        const size = fstatSync(fd).size;
        written += readSync(fd, out, written, Math.min(to - from, size - (from - offset)), from - offset);
      } finally {
        closeSync(fd);
      }
    }
    offset += s.size;
  }
  return { data: out.subarray(0, written), totalBytes };
}
