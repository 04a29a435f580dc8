// The one way Mori reads a file an agent can write or create (DESIGN.md §11): the agent CLIs' own
// dirs (`$CLAUDE_CONFIG_DIR`/`~/.claude`, `$CODEX_HOME`/`~/.codex`, `~/.gemini`, opencode's data, log
// and state dirs), the hook spools, and the project. Any name there may be a FIFO (whose open or read
// waits for a writer and holds a libuv thread for good: four of them stop the daemon), a symlink to
// one of the person's files, a device, a directory, or a file of any size. So here every file is:
//   - opened O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY (a FIFO opens at once, a symlink fails);
//   - fstat'd on the opened handle, and used only when that handle is a regular file (a name swapped
//     after any earlier stat is judged by what was actually opened);
//   - read only up to a cap given by each call (a whole small file, a range from an offset, a tail,
//     or in all through a handle held open for a reader that cannot wait: SQLite's VFS).
// A refusal is an AgentFileError value naming the file and the problem, never a wait. Imports only
// node; any Node process (the daemon's supervisor, the CLI).
import { closeSync, constants, fstatSync, openSync, promises as fsp, readSync, type Dirent, type Stats } from 'node:fs';

/** Read-only, never through a symlink, never waiting on a FIFO, never taking a terminal as ours. */
export const AGENT_FILE_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

export type AgentFileProblem = 'absent' | 'symlink' | 'not-regular' | 'too-large' | 'unreadable';

/** A file Mori did not read: which, and why. Returned, not thrown, by every reader here. */
export class AgentFileError extends Error {
  readonly kind = 'agent-file-refused';
  constructor(
    readonly file: string,
    readonly problem: AgentFileProblem,
    detail: string,
  ) {
    super(`${file}: ${detail}; Mori does not read it`);
    this.name = 'AgentFileError';
  }
}

export const isAgentFileError = (v: unknown): v is AgentFileError => v instanceof AgentFileError;

/** What the opened handle's fstat said. */
export interface AgentFileInfo {
  size: number;
  mtimeMs: number;
  /** The inode (with the dev, the file's identity): a name replaced by a new file has a new one. */
  ino: number;
  dev: number;
}

/** A regular file opened here: its fstat, and reads at a position (short only at its end). */
export interface OpenedAgentFile {
  readonly file: string;
  readonly info: AgentFileInfo;
  read(position: number, length: number): Promise<Buffer>;
}

/** Bytes read from `from`; `size` is the file's size when opened. */
export interface AgentFileBytes extends AgentFileInfo {
  bytes: Buffer;
  from: number;
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function openError(file: string, err: unknown): AgentFileError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new AgentFileError(file, 'absent', 'does not exist');
  // ELOOP: the last component is a symlink (Linux, macOS); EMLINK: the same on FreeBSD.
  if (code === 'ELOOP' || code === 'EMLINK') return new AgentFileError(file, 'symlink', 'is a symbolic link, not followed');
  // ENXIO: a socket; EISDIR cannot happen read-only but is said plainly if it does.
  if (code === 'ENXIO') return new AgentFileError(file, 'not-regular', 'is a socket or device, not a regular file');
  return new AgentFileError(file, 'unreadable', `cannot be opened (${code ?? String(err)})`);
}

const infoOf = (st: Stats): AgentFileInfo => ({ size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, dev: st.dev });

function checkRegular(file: string, st: Stats): AgentFileError | null {
  return st.isFile() ? null : new AgentFileError(file, 'not-regular', `is ${kindOf(st)}, not a regular file`);
}

async function openChecked(file: string): Promise<{ handle: fsp.FileHandle; info: AgentFileInfo } | AgentFileError> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, AGENT_FILE_FLAGS);
  } catch (err) {
    return openError(file, err);
  }
  try {
    const st = await handle.stat();
    const refused = checkRegular(file, st);
    if (refused === null) return { handle, info: infoOf(st) };
    await handle.close().catch(() => undefined);
    return refused;
  } catch (err) {
    await handle.close().catch(() => undefined);
    return new AgentFileError(file, 'unreadable', `cannot be examined (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

/** Reads `length` bytes at `position` (fewer only at the end of the file). */
async function readAt(handle: fsp.FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(Math.max(0, length));
  let got = 0;
  while (got < buf.length) {
    const { bytesRead } = await handle.read(buf, got, buf.length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return buf.subarray(0, got);
}

/**
 * Opens `file` as described above and runs `use` on it, closing it after. Returns what `use`
 * returned, or the refusal (an error `use` throws while reading is a refusal `unreadable` too).
 */
export async function withAgentFile<T>(file: string, use: (f: OpenedAgentFile) => Promise<T>): Promise<T | AgentFileError> {
  const opened = await openChecked(file);
  if (isAgentFileError(opened)) return opened;
  const { handle, info } = opened;
  try {
    return await use({ file, info, read: (position, length) => readAt(handle, position, length) });
  } catch (err) {
    return new AgentFileError(file, 'unreadable', `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The whole file, refused as too-large when it holds more than `maxBytes`. */
export async function readAgentFile(file: string, maxBytes: number): Promise<Buffer | AgentFileError> {
  return withAgentFile(file, async (f) => {
    if (f.info.size > maxBytes) return new AgentFileError(file, 'too-large', `holds ${f.info.size} bytes, more than the ${maxBytes} read`);
    // One byte more than allowed: a file that grew past the cap since its fstat is refused too.
    const bytes = await f.read(0, maxBytes + 1);
    if (bytes.length > maxBytes) return new AgentFileError(file, 'too-large', `grew past the ${maxBytes} bytes read`);
    return bytes;
  });
}

/**
 * The file as its fstat found it (the bytes up to that size, with that fstat), refused as too-large
 * when it held more than `maxBytes`: for a file that is only appended to meanwhile (a write-ahead log).
 */
export async function readAgentFileAsOpened(file: string, maxBytes: number): Promise<AgentFileBytes | AgentFileError> {
  return withAgentFile(file, async (f) => {
    if (f.info.size > maxBytes) return new AgentFileError(file, 'too-large', `holds ${f.info.size} bytes, more than the ${maxBytes} read`);
    return { ...f.info, bytes: await f.read(0, f.info.size), from: 0 };
  });
}

/** At most `maxBytes` from offset `from` (none past the size it had when opened): incremental reading. */
export async function readAgentFileRange(file: string, from: number, maxBytes: number): Promise<AgentFileBytes | AgentFileError> {
  return withAgentFile(file, async (f) => {
    const start = Math.min(Math.max(0, from), f.info.size);
    const bytes = await f.read(start, Math.min(maxBytes, f.info.size - start));
    return { ...f.info, bytes, from: start };
  });
}

/** The last `maxBytes` of the file (all of it when smaller). */
export async function readAgentFileTail(file: string, maxBytes: number): Promise<AgentFileBytes | AgentFileError> {
  return withAgentFile(file, async (f) => {
    const start = Math.max(0, f.info.size - maxBytes);
    const bytes = await f.read(start, f.info.size - start);
    return { ...f.info, bytes, from: start };
  });
}

/** Size and mtime of `file`, when it is a regular file (from the opened handle, not the name). */
export async function statAgentFile(file: string): Promise<AgentFileInfo | AgentFileError> {
  return withAgentFile(file, (f) => Promise.resolve(f.info));
}

/** Chunk size of the searches and line reads below: a large file never sits in memory whole. */
const CHUNK_BYTES = 1024 * 1024;

/** Whether `needle` occurs in the first `maxBytes` of `file`, read a chunk at a time (a match across chunks counts). */
export async function agentFileContains(file: string, needle: string, maxBytes: number): Promise<boolean | AgentFileError> {
  const want = Buffer.from(needle, 'utf8');
  return withAgentFile(file, async (f) => {
    const end = Math.min(f.info.size, maxBytes);
    let carry = Buffer.alloc(0);
    for (let at = 0; at < end; at += CHUNK_BYTES) {
      const chunk = await f.read(at, Math.min(CHUNK_BYTES, end - at));
      if (chunk.length === 0) return false;
      const both = Buffer.concat([carry, chunk]);
      if (both.includes(want)) return true;
      carry = both.subarray(Math.max(0, both.length - (want.length - 1)));
    }
    return false;
  });
}

/**
 * Calls `visit` with each line (without its `\n`) of the first `maxBytes` of `file` from offset
 * `from`, until it returns true. Resolves to whether it did (a line cut by the cap is not visited).
 */
export async function forEachAgentFileLine(file: string, visit: (line: string) => boolean, maxBytes: number, from = 0): Promise<boolean | AgentFileError> {
  return withAgentFile(file, async (f) => {
    const end = Math.min(f.info.size, from + maxBytes);
    let rest = '';
    for (let at = from; at < end; at += CHUNK_BYTES) {
      const chunk = await f.read(at, Math.min(CHUNK_BYTES, end - at));
      if (chunk.length === 0) break;
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (visit(line.replace(/\r$/, ''))) return true;
    }
    return end === f.info.size && rest !== '' ? visit(rest) : false;
  });
}

/**
 * The entries of directory `dir`, at most `maxEntries` (a dir of millions is not listed whole); an
 * empty list when it is absent or not a directory. Listing opens no file in it.
 */
export async function listAgentDir(dir: string, maxEntries: number): Promise<Dirent[]> {
  const out: Dirent[] = [];
  try {
    const d = await fsp.opendir(dir);
    for await (const e of d) {
      out.push(e);
      if (out.length >= maxEntries) break; // leaving the loop closes the dir
    }
  } catch {
    // absent, not a directory, or unreadable: nothing listed
  }
  return out;
}

/** readAgentFile on the calling thread, for a small file read where no await is possible. */
export function readAgentFileSync(file: string, maxBytes: number): Buffer | AgentFileError {
  let fd: number;
  try {
    fd = openSync(file, AGENT_FILE_FLAGS);
  } catch (err) {
    return openError(file, err);
  }
  try {
    const refused = checkRegular(file, fstatSync(fd));
    if (refused !== null) return refused;
    const buf = Buffer.alloc(maxBytes + 1);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    if (got > maxBytes) return new AgentFileError(file, 'too-large', `holds more than the ${maxBytes} bytes read`);
    return buf.subarray(0, got);
  } catch (err) {
    return new AgentFileError(file, 'unreadable', `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  } finally {
    closeSync(fd);
  }
}

/**
 * A regular file held open for reads on the calling thread, for a reader that cannot wait (an SQLite
 * VFS, whose reads are synchronous): a page at a time wherever the reader asks, at most `budget` bytes
 * in all. Closed by its user.
 */
export interface SyncAgentFile {
  readonly file: string;
  /** Its fstat when opened. */
  readonly info: AgentFileInfo;
  /** Fills `into` from `position`; the count read (fewer only at the end). Throws an AgentFileError past the budget. */
  read(into: Uint8Array, position: number): number;
  /** Its fstat now, from the open handle (a write since it was opened shows as another size or mtime). */
  restat(): AgentFileInfo;
  close(): void;
}

/** Opens `file` as described at the top for reads on the calling thread, `budget` bytes at most in all. */
export function openAgentFileSync(file: string, budget: number): SyncAgentFile | AgentFileError {
  let fd: number;
  try {
    fd = openSync(file, AGENT_FILE_FLAGS);
  } catch (err) {
    return openError(file, err);
  }
  let st: Stats;
  try {
    st = fstatSync(fd);
  } catch (err) {
    closeSync(fd);
    return new AgentFileError(file, 'unreadable', `cannot be examined (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const refused = checkRegular(file, st);
  if (refused !== null) {
    closeSync(fd);
    return refused;
  }
  let spent = 0;
  let open = true;
  return {
    file,
    info: infoOf(st),
    read(into, position) {
      if (spent + into.length > budget) throw new AgentFileError(file, 'too-large', `took more than the ${budget} bytes one reading may take`);
      let got = 0;
      while (got < into.length) {
        const n = readSync(fd, into, got, into.length - got, position + got);
        if (n === 0) break;
        got += n;
      }
      spent += got;
      return got;
    },
    restat: () => infoOf(fstatSync(fd)),
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

/** The last `maxBytes` of `file` (all of it when smaller), on the calling thread, opened as above. */
export function readAgentFileTailSync(file: string, maxBytes: number): Buffer | AgentFileError {
  let fd: number;
  try {
    fd = openSync(file, AGENT_FILE_FLAGS);
  } catch (err) {
    return openError(file, err);
  }
  try {
    const st = fstatSync(fd);
    const refused = checkRegular(file, st);
    if (refused !== null) return refused;
    const from = Math.max(0, st.size - maxBytes);
    const buf = Buffer.alloc(Math.min(st.size, maxBytes));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, from + got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } catch (err) {
    return new AgentFileError(file, 'unreadable', `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  } finally {
    closeSync(fd);
  }
}
