// The on-disk transcript of one terminal (DESIGN.md §6): every byte of output, appended in batches
// to numbered segment files under `<stateDir>/transcript/`, oldest segments deleted past a byte
// budget. Views page older output from it. The transcript dir and its segments are opened only as
// plain files and directories of the state dir (state-file-guard.ts): a segment or a `transcript/`
// that is a symlink, a hard link or a FIFO is a write failure, reported, and the terminal runs on.
// Runs in the supervisor's process.
import { closeSync, fstatSync, lstatSync, readdirSync, readSync, unlinkSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { background } from '../background.js';
import { ensureStateSubdir, openRegularSync, openStateFile } from '../state/state-file-guard.js';

/** Total budget of a transcript: a day of a busy agent's output, small next to any project. */
export const TRANSCRIPT_DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
/** The budget is split over this many segments, so rotation drops a quarter of history at a time. */
export const TRANSCRIPT_SEGMENTS = 4;
/** Flush at least this often: a crash of the app loses at most this much of the transcript. */
export const TRANSCRIPT_FLUSH_MS = 200;
/** ...or as soon as this much is buffered: large writes, memory bounded during a flood. */
export const TRANSCRIPT_FLUSH_BYTES = 256 * 1024;
/**
 * Output is copied into write buffers of TRANSCRIPT_FLUSH_BYTES, and a written buffer is kept for the
 * next batch, up to this many for the whole process (1 MB): during a flood the same few buffers go
 * round, already mapped and warm in the cache. Holding the pty's own chunks until they were written
 * (4 KB each, 64 per batch) or copying them into a fresh buffer per batch cost twice as much of a
 * flood's throughput (pages faulted in and freed again for every batch). A terminal holds a buffer
 * only while it has output not yet written, so idle terminals hold none.
 */
export const TRANSCRIPT_SPARE_BUFFERS = 4;
const spareBuffers: Buffer[] = [];
const takeBuffer = (): Buffer => spareBuffers.pop() ?? Buffer.allocUnsafe(TRANSCRIPT_FLUSH_BYTES);
const giveBack = (buffer: Buffer): void => {
  if (spareBuffers.length < TRANSCRIPT_SPARE_BUFFERS) spareBuffers.push(buffer);
};

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
  /** The write buffer being filled (text is encoded as UTF-8 into it), and how much of it is. */
  private buffer: Buffer | null = null;
  private filled = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private handle: FileHandle | null = null;
  private segment = 0;
  private segmentSize = 0;
  private closed = false;
  /** The transcript dir could not be made or is not a plain directory of the state dir. */
  private setupError: Error | null = null;
  /** Last write error, if any; the transcript never takes the terminal down with it. */
  error: Error | null = null;
  /** The last batch failed: the next failure is not reported again. */
  private failing = false;
  private readonly onError: ((error: Error) => void) | undefined;

  constructor(options: TranscriptOptions) {
    this.dir = options.dir;
    this.onError = options.onError;
    this.segmentBytes = Math.max(4096, Math.floor((options.maxBytes ?? TRANSCRIPT_DEFAULT_MAX_BYTES) / TRANSCRIPT_SEGMENTS));
    try {
      ensureStateSubdir(path.dirname(this.dir), path.basename(this.dir));
    } catch (err) {
      // Reported by the first write, through onError, like any other write failure.
      this.setupError = err instanceof Error ? err : new Error(String(err));
    }
    const last = this.setupError ? undefined : listSegments(this.dir).at(-1);
    this.segment = last ?? 1;
    // lstat: a segment that is not a plain file is refused when it is opened, not followed here.
    this.segmentSize = last === undefined ? 0 : (lstatSync(path.join(this.dir, segmentName(last)), { throwIfNoEntry: false })?.size ?? 0);
  }

  append(data: string | Buffer): void {
    if (this.closed || data.length === 0) return;
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let at = 0; at < bytes.length; ) {
      this.buffer ??= takeBuffer();
      const copied = bytes.copy(this.buffer, this.filled, at);
      this.filled += copied;
      at += copied;
      if (this.filled === this.buffer.length) background(this.flush(), `writing the transcript in ${this.dir}`);
    }
    if (this.filled > 0) this.timer ??= setTimeout(() => void this.flush(), TRANSCRIPT_FLUSH_MS);
  }

  /** Starts writing what is buffered; resolves once everything appended so far is on disk. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.buffer && this.filled > 0) {
      const buffer = this.buffer;
      const batch = buffer.subarray(0, this.filled);
      this.buffer = null;
      this.filled = 0;
      this.writing = this.writing
        .then(() => this.writeBatch(batch))
        .finally(() => giveBack(buffer))
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

  /** Writes the batch in order, split where a segment fills up. */
  private async writeBatch(batch: Buffer): Promise<void> {
    let at = 0;
    while (at < batch.length) {
      if (this.segmentSize >= this.segmentBytes) await this.rotate();
      const handle = await this.open();
      const end = Math.min(batch.length, at + this.segmentBytes - this.segmentSize);
      // A write may write less than asked (a full disk, a signal): the rest goes again, in order.
      while (at < end) {
        const r = await handle.write(batch, at, end - at);
        if (r.bytesWritten <= 0) throw new Error(`${this.dir}: a transcript write made no progress`);
        at += r.bytesWritten;
        this.segmentSize += r.bytesWritten;
      }
    }
  }

  private async open(): Promise<FileHandle> {
    if (this.setupError) throw this.setupError;
    this.handle ??= await openStateFile(path.join(this.dir, segmentName(this.segment)), path.dirname(this.dir));
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
    const st = lstatSync(file, { throwIfNoEntry: false });
    // Only plain files count: a FIFO would block the read, a symlink is not the transcript's.
    return { file, size: st?.isFile() ? st.size : 0 };
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
      const fd = openRegularSync(s.file, false);
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
