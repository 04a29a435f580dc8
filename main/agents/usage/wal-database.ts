// Queries an SQLite database an agent keeps in WAL mode (opencode's, DESIGN.md §5 "Usage") without a
// native addon and without SQLite ever opening the person's files: SQLite's official WASM build
// (@sqlite.org/sqlite-wasm, loaded on first use) runs the query over a read-only VFS of Mori's whose
// only files are what main/os/agent-file.ts opened. The database is read a page at a time where
// SQLite asks (a database of gigabytes costs the pages the query touches), on the calling thread as a
// VFS must, up to a budget; its write-ahead log is read whole first (SQLite reads all of it to index
// it), up to a cap. `locking_mode=EXCLUSIVE` keeps the log's index in SQLite's own memory, so the
// `-shm` file is never touched. The agent may checkpoint (write the database) meanwhile: a read during
// which the database changed is done again. Runs in the daemon's process.
import { createRequire } from 'node:module';
import type { Database, Sqlite3Result, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { AgentFileError, isAgentFileError, openAgentFileSync, readAgentFileAsOpened, type AgentFileInfo, type SyncAgentFile } from '../../os/agent-file.js';

/** The bounds of one read. */
export interface WalDatabaseLimits {
  /** Bytes of the database one read may take (its pages the query visits). */
  dbBudget: number;
  /** The write-ahead log is refused past this size (it is read whole). */
  walMaxBytes: number;
}

/** What a query found, and the identities of the two files as read (the WAL null when there was none). */
export interface WalDatabaseRead<T> {
  value: T;
  db: AgentFileInfo;
  wal: AgentFileInfo | null;
}

/** A read during which the database changed is tried again this many times in all. */
const ATTEMPTS = 3;
/** The VFS's name in SQLite's registry. */
const VFS_NAME = 'mori-agent-file';
/** Longest path SQLite may hand the VFS: the names given here are short. */
const MAX_PATHNAME = 512;
/** What xSectorSize says: the usual 4 KiB (SQLite's unix VFS default); nothing is written, so only a formality. */
const SECTOR_SIZE = 4096;

/** A file the VFS serves: its size and reads at a position. */
interface Served {
  size: number;
  read(into: Uint8Array, position: number): number;
}

const served = new Map<string, Served>();
/** The VFS's open files by their sqlite3_file pointer. */
const opened = new Map<number, Served>();
/** The error behind the last failed VFS call (an AgentFileError past the budget, or a read error). */
let lastError: unknown = null;

function installVfs(sqlite3: Sqlite3Static): void {
  const { capi, wasm } = sqlite3;
  const io = new capi.sqlite3_io_methods();
  // The struct's members are `$`-named (the declaration says `iVersion`): version 1, no shared memory or mmap.
  Object.assign(io, { $iVersion: 1 });
  const file = (p: number): Served | undefined => opened.get(p);
  sqlite3.vfs.installVfs({
    io: {
      struct: io,
      methods: {
        xClose: (p) => (opened.delete(p), 0),
        xRead: (p, dest, n, offset) => {
          const f = file(p);
          if (f === undefined) return capi.SQLITE_IOERR_READ;
          try {
            const into = wasm.heap8u().subarray(Number(dest), Number(dest) + n);
            const got = f.read(into, Number(offset));
            if (got === n) return 0;
            into.fill(0, got);
            return capi.SQLITE_IOERR_SHORT_READ;
          } catch (err) {
            lastError = err;
            return capi.SQLITE_IOERR_READ;
          }
        },
        xWrite: () => capi.SQLITE_READONLY,
        xTruncate: () => capi.SQLITE_READONLY,
        xSync: () => 0,
        xFileSize: (p, out) => {
          const f = file(p);
          if (f === undefined) return capi.SQLITE_IOERR_FSTAT;
          wasm.poke64(out, BigInt(f.size));
          return 0;
        },
        // No other process shares these copies' locks: SQLite's own bookkeeping is enough.
        xLock: () => 0,
        xUnlock: () => 0,
        xCheckReservedLock: (_p, out) => (wasm.poke32(out, 0), 0),
        xFileControl: () => capi.SQLITE_NOTFOUND,
        xSectorSize: () => SECTOR_SIZE as Sqlite3Result,
        xDeviceCharacteristics: () => 0,
      },
    },
  });
  const vfs = new capi.sqlite3_vfs();
  const base = new capi.sqlite3_vfs(capi.sqlite3_vfs_find(null));
  vfs.$iVersion = 1;
  vfs.$szOsFile = (capi.sqlite3_file as unknown as { structInfo: { sizeof: number } }).structInfo.sizeof;
  vfs.$mxPathname = MAX_PATHNAME;
  vfs.$zName = wasm.allocCString(VFS_NAME, false);
  // Randomness and time come from the build's own VFS; nothing here depends on them.
  Object.assign(vfs, { $xRandomness: (base as unknown as Record<string, unknown>)['$xRandomness'], $xCurrentTime: (base as unknown as Record<string, unknown>)['$xCurrentTime'] });
  base.dispose();
  sqlite3.vfs.installVfs({
    vfs: {
      struct: vfs,
      methods: {
        xOpen: (_vfs, zName, p, flags, outFlags) => {
          const f = served.get(wasm.cstrToJs(zName) ?? '');
          // Only the two files handed over: no journal, no temp file (temp_store is memory).
          if (f === undefined) return capi.SQLITE_CANTOPEN;
          opened.set(p, f);
          const sf = new capi.sqlite3_file(p);
          sf.$pMethods = io.pointer;
          sf.dispose();
          wasm.poke32(outFlags, (flags & ~capi.SQLITE_OPEN_READWRITE & ~capi.SQLITE_OPEN_CREATE) | capi.SQLITE_OPEN_READONLY);
          return 0;
        },
        xDelete: () => capi.SQLITE_IOERR_DELETE,
        xAccess: (_vfs, zName, _flags, out) => (wasm.poke32(out, served.has(wasm.cstrToJs(zName) ?? '') ? 1 : 0), 0),
        xFullPathname: (_vfs, zName, nOut, out) => (wasm.cstrncpy(out, zName, nOut) < nOut ? 0 : capi.SQLITE_CANTOPEN),
        xSleep: () => 0,
        xGetLastError: () => 0,
      },
    },
  });
}

let engine: Promise<Sqlite3Static> | null = null;

/** SQLite, loaded and its VFS installed once per process; a failed load is tried again next time. */
function sqlite(): Promise<Sqlite3Static> {
  engine ??= (async () => {
    // Required, not imported: the CLI's bundle runs from V8's cached code, where Node 20 loses a dynamic
    // import's loader (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING); Node ≥ 20.19 requires an ES module.
    const { default: init } = createRequire(import.meta.url)('@sqlite.org/sqlite-wasm') as typeof import('@sqlite.org/sqlite-wasm');
    // Its declaration leaves the Emscripten options out; these keep its messages off the daemon's stderr.
    const sqlite3 = await (init as unknown as (o: object) => Promise<Sqlite3Static>)({ print: () => undefined, printErr: () => undefined });
    installVfs(sqlite3);
    return sqlite3;
  })().catch((err: unknown) => {
    engine = null;
    throw err;
  });
  return engine;
}

const bytesServed = (b: Uint8Array): Served => ({
  size: b.length,
  read(into, position) {
    const n = Math.max(0, Math.min(into.length, b.length - position));
    into.set(b.subarray(position, position + n));
    return n;
  },
});

const sameFile = (a: AgentFileInfo, b: AgentFileInfo): boolean => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.dev === b.dev;

let names = 0;

/**
 * Runs `query` on the database `file` and its `-wal`, read as above; its value with the two files'
 * identities, or the refusal naming the file (absent, a symlink, a FIFO, past a cap, or unreadable as
 * SQLite, its message said).
 */
export async function queryWalDatabase<T>(file: string, limits: WalDatabaseLimits, query: (db: Database) => T): Promise<WalDatabaseRead<T> | AgentFileError> {
  let sqlite3: Sqlite3Static;
  try {
    sqlite3 = await sqlite();
  } catch (err) {
    return new AgentFileError(file, 'unreadable', `cannot be read: SQLite (WASM) did not load (${String(err)})`);
  }
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const main = openAgentFileSync(file, limits.dbBudget);
    if (isAgentFileError(main)) return main;
    try {
      const wal = await readAgentFileAsOpened(`${file}-wal`, limits.walMaxBytes);
      if (isAgentFileError(wal) && wal.problem !== 'absent') return wal;
      const value = run(sqlite3, main, isAgentFileError(wal) ? null : wal.bytes, query);
      if (isAgentFileError(value)) return value;
      // A checkpoint that wrote the database while it was read may have mixed two states: read again.
      if (sameFile(main.restat(), main.info)) return { value: value.v, db: main.info, wal: isAgentFileError(wal) ? null : { size: wal.size, mtimeMs: wal.mtimeMs, ino: wal.ino, dev: wal.dev } };
    } finally {
      main.close();
    }
  }
  return new AgentFileError(file, 'unreadable', `was written during each of ${ATTEMPTS} reads in a row; read again later`);
}

function run<T>(sqlite3: Sqlite3Static, main: SyncAgentFile, wal: Buffer | null, query: (db: Database) => T): { v: T } | AgentFileError {
  const name = `/mori-${++names}.db`;
  served.set(name, { size: main.info.size, read: (into, position) => main.read(into, position) });
  // No log (opencode closed and folded it in): an empty one, which SQLite opens read-only where it could not create one.
  served.set(`${name}-wal`, bytesServed(wal ?? new Uint8Array(0)));
  lastError = null;
  try {
    const db = new sqlite3.oo1.DB({ filename: name, flags: 'r', vfs: VFS_NAME });
    try {
      // Before the first read: the log's index in SQLite's memory, no -shm; temp tables in memory.
      db.exec('PRAGMA locking_mode=EXCLUSIVE; PRAGMA temp_store=MEMORY;');
      return { v: query(db) };
    } finally {
      db.close();
    }
  } catch (err) {
    if (isAgentFileError(lastError)) return lastError;
    return new AgentFileError(main.file, 'unreadable', `cannot be read as SQLite (${err instanceof Error ? err.message : String(err)})`);
  } finally {
    served.delete(name);
    served.delete(`${name}-wal`);
  }
}
