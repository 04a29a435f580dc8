// opencode's usage record (DESIGN.md §5 "Usage"): its SQLite database `opencode.db` (WAL mode, so the
// newest rows are in `opencode.db-wal`), read through usage/wal-database.ts. Each request (a step of
// opencode's loop) is an assistant row of its `message` table whose JSON `data` holds
// `tokens: {input, output, reasoning, cache: {read, write}}`, `modelID`, `providerID` and
// `time: {created, completed}`; opencode 1.18.33 has already taken the cache reads and writes out of
// `input` and the reasoning out of `output` (billed as output, added back here). A row still at zero is
// a step not answered yet. A session's requests are its own and those of the sessions its subagents ran
// under it (`session.parent_id`, the task tool); the context is its own last request's. One database
// serves every session: what was read is kept with both files' size, mtime and inode, and read again
// only when one changed, for every session asked lately at once. Runs in the daemon's process.
import path from 'node:path';
import type { Database } from '@sqlite.org/sqlite-wasm';
import { isAgentFileError, statAgentFile, type AgentFileError, type AgentFileInfo } from '../../os/agent-file.js';
import type { Env } from '../profile.js';
import { priceProvider } from '../usage/usage-cost.js';
import type { StoreUsageSource, UsageRecord } from '../usage/usage-record.js';
import { count } from '../usage/usage-record.js';
import { queryWalDatabase, type WalDatabaseLimits } from '../usage/wal-database.js';
import { OPENCODE_ID_PATTERN, opencodeDataDir } from './sessions.js';

export const LIMITS: WalDatabaseLimits = {
  // A session's messages and its subagents' are a few MiB of pages even after months; the budget stops
  // a query led astray (a damaged or planted database) before it holds the daemon long.
  dbBudget: 256 * 1024 * 1024,
  // SQLite checkpoints the log at 1,000 pages (~4 MiB); a log that grew far past that (a checkpoint
  // held off for long) is refused rather than read whole on every change.
  walMaxBytes: 256 * 1024 * 1024,
};

/**
 * A message whose JSON is larger is not read: an assistant row is a few hundred bytes, while a user
 * row carries the turn's file diffs (megabytes); `octet_length` sizes it without reading it.
 */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** Sessions asked for within this long are read again together when the database changed (a listing asks for each in turn). */
const KEEP_ASKED_MS = 10 * 60 * 1000;

/** The assistant rows of the sessions in ?1 (a JSON array) and of the sessions under them, oldest first. */
const REQUESTS_SQL = `
WITH RECURSIVE tree(root, id) AS (
  SELECT value, value FROM json_each(?1)
  UNION
  SELECT tree.root, session.id FROM session JOIN tree ON session.parent_id = tree.id
)
SELECT tree.root, tree.id, message.time_created, message.data
FROM tree JOIN message ON message.session_id = tree.id
WHERE octet_length(message.data) <= ${MAX_MESSAGE_BYTES} AND json_extract(message.data, '$.role') = 'assistant'
ORDER BY tree.root, message.time_created, message.id`;

interface MessageData {
  modelID?: unknown;
  providerID?: unknown;
  time?: { created?: unknown; completed?: unknown };
  tokens?: { input?: unknown; output?: unknown; reasoning?: unknown; cache?: { read?: unknown; write?: unknown } };
}

/** One assistant row as a request, or null when it holds no tokens yet (or is not JSON). Pure. */
export function opencodeRequest(data: string, rowCreatedMs: number, subagent: boolean): UsageRecord | null {
  let m: MessageData;
  try {
    m = JSON.parse(data) as MessageData;
  } catch {
    return null;
  }
  const t = m.tokens;
  const input = count(t?.input);
  const output = count(t?.output) + count(t?.reasoning);
  const cacheRead = count(t?.cache?.read);
  const cacheWrite = count(t?.cache?.write);
  if (input + output + cacheRead + cacheWrite === 0) return null;
  const at = [m.time?.completed, m.time?.created, rowCreatedMs].find((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return {
    atMs: at ?? NaN,
    model: typeof m.modelID === 'string' && m.modelID !== '' ? m.modelID : null,
    input,
    output,
    cacheRead,
    cacheWrite,
    contextTokens: input + cacheRead + cacheWrite,
    contextWindow: null,
    ...(typeof m.providerID === 'string' ? { provider: priceProvider(m.providerID) } : {}),
    ...(subagent ? { subagent } : {}),
  };
}

/** The requests of each session in `ids` that the database holds (a session it lacks is absent from the map). */
function readRequests(db: Database, ids: readonly string[]): Map<string, UsageRecord[]> {
  const out = new Map<string, UsageRecord[]>();
  for (const id of db.selectValues(`SELECT id FROM session WHERE id IN (SELECT value FROM json_each(?1))`, [JSON.stringify(ids)])) {
    if (typeof id === 'string') out.set(id, []);
  }
  for (const [root, id, created, data] of db.selectArrays(REQUESTS_SQL, [JSON.stringify([...out.keys()])])) {
    if (typeof root !== 'string' || typeof data !== 'string') continue;
    const r = opencodeRequest(data, typeof created === 'number' ? created : NaN, id !== root);
    if (r !== null) out.get(root)?.push(r);
  }
  return out;
}

const identity = (f: AgentFileInfo | null): string => (f === null ? '-' : `${f.dev}:${f.ino}:${f.size}:${f.mtimeMs}`);

/** One opencode database's requests per session, kept while its two files are unchanged. */
export class OpencodeUsageStore {
  /** The two files' identities as last read. */
  private key: string | null = null;
  /** The sessions that read looked for, and what it found per session (one absent: not in the database). */
  private lookedFor = new Set<string>();
  private found = new Map<string, readonly UsageRecord[]>();
  /** When each session was last asked for: those asked lately are read together. */
  private readonly asked = new Map<string, number>();
  /** Reads one at a time: a listing's sessions, asked in turn, find the first read's figures. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  /** Session `id`'s requests (the same array while nothing changed), null when the database does not hold it, or the refusal. */
  requests(id: string, nowMs = Date.now()): Promise<readonly UsageRecord[] | null | AgentFileError> {
    const next = this.queue.then(() => this.resolve(id, nowMs));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async resolve(id: string, nowMs: number): Promise<readonly UsageRecord[] | null | AgentFileError> {
    this.asked.set(id, nowMs);
    for (const [k, at] of this.asked) if (nowMs - at > KEEP_ASKED_MS) this.asked.delete(k);
    const db = await statAgentFile(this.file);
    if (isAgentFileError(db)) return db;
    const wal = await statAgentFile(`${this.file}-wal`);
    if (isAgentFileError(wal) && wal.problem !== 'absent') return wal;
    if (`${identity(db)}|${identity(isAgentFileError(wal) ? null : wal)}` !== this.key || !this.lookedFor.has(id)) {
      const ids = [...this.asked.keys()];
      const got = await queryWalDatabase(this.file, LIMITS, (conn) => readRequests(conn, ids));
      if (isAgentFileError(got)) return got;
      this.key = `${identity(got.db)}|${identity(got.wal)}`;
      this.lookedFor = new Set(ids);
      this.found = got.value;
    }
    return this.found.get(id) ?? null;
  }
}

const stores = new Map<string, OpencodeUsageStore>();

/** The database of opencode's data dir in `env` (`$XDG_DATA_HOME/opencode/opencode.db`). */
export const opencodeDatabase = (env: Env): string => path.join(opencodeDataDir(env), 'opencode.db');

export const opencodeUsage: StoreUsageSource = {
  // A request names its provider; one that names none is matched by its model alone.
  provider: '',
  requests(ref, env) {
    const id = ref.agentSessionId;
    if (id === null || !OPENCODE_ID_PATTERN.test(id)) return Promise.resolve(null);
    const file = opencodeDatabase(env);
    let store = stores.get(file);
    if (store === undefined) stores.set(file, (store = new OpencodeUsageStore(file)));
    return store.requests(id);
  },
};
