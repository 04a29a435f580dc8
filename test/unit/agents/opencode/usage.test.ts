// opencode's usage reader (main/agents/opencode/usage.ts) on the database the real opencode 1.18.33
// wrote (test/support/fixtures/usage/opencode/, recorded by record-opencode.ts): the first turn's rows
// in opencode.db, the second's only in opencode.db-wal, one of them a subagent's in a session of its
// own. The figures are the stand-in's own as it reported them; what was read is kept until a file
// changes; a FIFO or a symlink planted at either file is refused at once, naming it; the caps hold.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import sqlite3InitModule, { type Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { beforeEach, describe, expect, it } from 'vitest';
import { LIMITS, opencodeDatabase, opencodeRequest, opencodeUsage, OpencodeUsageStore } from '../../../../main/agents/opencode/usage.js';
import { SessionUsageReader } from '../../../../main/agents/usage/session-usage.js';
import { priceProvider, requestCost } from '../../../../main/agents/usage/usage-cost.js';
import type { UsageRecord } from '../../../../main/agents/usage/usage-record.js';
import { queryWalDatabase } from '../../../../main/agents/usage/wal-database.js';
import { isAgentFileError } from '../../../../main/os/agent-file.js';
import { tempDir } from '../../../../testkit/mori-cli.js';
import { quickly } from '../../../support/quickly.js';

const FIXTURE = path.join(import.meta.dirname, '../../..', 'support', 'fixtures', 'usage', 'opencode');
interface Reported {
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
  session: 'main' | 'subagent';
  file: string;
}
const { sessions, requests } = JSON.parse(readFileSync(path.join(FIXTURE, 'requests.json'), 'utf8')) as { sessions: { main: string; subagent: string }; requests: Reported[] };

const sum = (rs: readonly Reported[]): Record<string, number> => ({
  requests: rs.length,
  input: rs.reduce((n, r) => n + r.input, 0),
  output: rs.reduce((n, r) => n + r.output, 0),
  cacheRead: rs.reduce((n, r) => n + r.cacheRead, 0),
  cacheWrite: rs.reduce((n, r) => n + r.cacheWrite, 0),
});


function mkfifo(file: string): void {
  const r = spawnSync('mkfifo', [file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mkfifo ${file}: ${r.stderr}`);
}

let env: Record<string, string>;
let db: string;
const cwd = '/fixture/project';

beforeEach(() => {
  const data = tempDir('opencode-usage');
  env = { HOME: data, XDG_DATA_HOME: path.join(data, 'share') };
  db = opencodeDatabase(env);
  mkdirSync(path.dirname(db), { recursive: true });
  for (const name of ['opencode.db', 'opencode.db-wal']) writeFileSync(path.join(path.dirname(db), name), gunzipSync(readFileSync(path.join(FIXTURE, `${name}.gz`))));
});

async function tally(id: string): Promise<SessionUsageReader> {
  const reader = new SessionUsageReader(opencodeUsage, env, 'UTC');
  expect(await reader.refresh({ agentSessionId: id, cwd })).toBe(true);
  return reader;
}

describe('opencode usage', () => {
  it('counts every request the stand-in answered, the rows only in the WAL and the subagent’s included', async () => {
    expect(new Set(requests.map((r) => r.file))).toEqual(new Set(['opencode.db', 'opencode.db-wal']));
    const reader = await tally(sessions.main);
    expect(reader.problem).toBeNull();
    expect(reader.tally.total()).toMatchObject({ ...sum(requests), unpriced: requests.length, models: ['claude-stand-in'] });
    // The context is the main session's last request's whole prompt, the subagent's left out.
    const last = requests.filter((r) => r.session === 'main').at(-1) as Reported;
    expect(reader.tally.last).toMatchObject({ model: 'claude-stand-in', contextTokens: last.input + last.cacheRead + last.cacheWrite });
    // The subagent's own session, on its own.
    const sub = await tally(sessions.subagent);
    expect(sub.tally.total()).toMatchObject(sum(requests.filter((r) => r.session === 'subagent')));
    // Without its log the database holds the first turn alone: the second's rows were read from the WAL.
    rmSync(`${db}-wal`);
    const old = await tally(sessions.main);
    expect(old.tally.total()).toMatchObject(sum(requests.filter((r) => r.file === 'opencode.db')));
  });

  it('says a session the database lacks is not written yet, and one without an id has no session', async () => {
    const none = await tally('ses_0000000000000000000000none');
    expect([none.problem, none.tally.total().requests]).toEqual(['the agent has not written its record of this session yet', 0]);
    const reader = new SessionUsageReader(opencodeUsage, env, 'UTC');
    await reader.refresh({ agentSessionId: null, cwd });
    expect(reader.problem).toBe('no agent session yet');
    rmSync(db);
    expect((await tally(sessions.main)).problem).toBe('the agent has not written its record of this session yet');
  });

  it('keeps what it read while neither file changed, and reads again when one did', async () => {
    const store = new OpencodeUsageStore(db);
    const mine = await store.requests(sessions.main);
    expect(Array.isArray(mine) && mine.length).toBe(requests.length);
    // Another session asked for: one read for both, kept for each.
    const sub = await store.requests(sessions.subagent);
    const kept = await store.requests(sessions.main);
    expect(kept).toEqual(mine);
    expect(await store.requests(sessions.main)).toBe(kept);
    expect(await store.requests(sessions.subagent)).toBe(sub);
    // The WAL written (its mtime moved on): read again, the same figures.
    const later = new Date(Date.now() + 60_000);
    utimesSync(`${db}-wal`, later, later);
    const again = await store.requests(sessions.main);
    expect(again).not.toBe(kept);
    expect(again).toEqual(kept);
    utimesSync(db, later, new Date(Date.now() + 120_000));
    expect(await store.requests(sessions.main)).not.toBe(again);
  });

  it('refuses a FIFO or a symlink planted at the database or its log at once, naming it, and never reads through one', async () => {
    // Another database, the first turn alone: read through a symlink, it would give other figures.
    const other = path.join(path.dirname(db), 'other.db');
    writeFileSync(other, readFileSync(db));
    const held = await tally(sessions.main);
    const all = sum(requests);
    expect(held.tally.total()).toMatchObject(all);
    for (const [planted, make, problem] of [
      [db, mkfifo, 'not-regular'],
      [`${db}-wal`, mkfifo, 'not-regular'],
      [db, (f: string) => symlinkSync(other, f), 'symlink'],
      [`${db}-wal`, (f: string) => symlinkSync(`${db}.saved`, f), 'symlink'],
    ] as const) {
      const saved = readFileSync(planted);
      writeFileSync(`${db}.saved`, saved);
      rmSync(planted);
      make(planted);
      const got = await quickly(new OpencodeUsageStore(db).requests(sessions.main), 5_000);
      expect(isAgentFileError(got) && [got.file, got.problem]).toEqual([planted, problem]);
      // The daemon's reader, which had read the database before: the refusal said, nothing else read.
      await quickly(held.refresh({ agentSessionId: sessions.main, cwd }), 5_000);
      expect(held.problem).toContain(planted);
      expect(held.tally.total()).toMatchObject(all);
      const fresh = await tally(sessions.main);
      expect([fresh.problem?.includes(planted), fresh.tally.total().requests]).toEqual([true, 0]);
      rmSync(planted);
      writeFileSync(planted, saved);
    }
    expect((await tally(sessions.main)).tally.total()).toMatchObject(all);
  });

  it('holds its caps: a log past its size and a query past its budget are refused, naming the file', async () => {
    const ids = (conn: Parameters<Parameters<typeof queryWalDatabase>[2]>[0]): unknown[] => conn.selectValues('SELECT id FROM session');
    const wal = await queryWalDatabase(db, { dbBudget: 1 << 30, walMaxBytes: 1024 }, ids);
    expect(isAgentFileError(wal) && [wal.file, wal.problem]).toEqual([`${db}-wal`, 'too-large']);
    const budget = await queryWalDatabase(db, { dbBudget: 4096, walMaxBytes: 1 << 30 }, (conn) => conn.selectValues('SELECT data FROM part'));
    expect(isAgentFileError(budget) && [budget.file, budget.problem]).toEqual([db, 'too-large']);
    const read = await queryWalDatabase(db, { dbBudget: 1 << 30, walMaxBytes: 1 << 30 }, ids);
    expect(isAgentFileError(read) ? read.message : read.value).toEqual(expect.arrayContaining([sessions.main, sessions.subagent]));
  });

  it('reads a database written during each read again, then says so', async () => {
    let reads = 0;
    const got = await queryWalDatabase(db, { dbBudget: 1 << 30, walMaxBytes: 1 << 30 }, (conn) => {
      reads++;
      // A checkpoint writing the database while the query runs.
      const at = new Date(Date.now() + reads * 1000);
      utimesSync(db, at, at);
      return conn.selectValue('SELECT count(*) FROM message');
    });
    expect(isAgentFileError(got) && got.message).toMatch(/was written during each of 3 reads/);
    expect(reads).toBe(3);
  });

  it('never reads a user row’s diffs: a message of megabytes costs its size, not its bytes', async () => {
    // The fixture folded into one file, with a 4 MiB user message added to the main session.
    const sqlite3 = await (sqlite3InitModule as unknown as (o: object) => Promise<Sqlite3Static>)({ print: () => undefined, printErr: () => undefined });
    sqlite3.capi.sqlite3_js_posix_create_file('/big.db', new Uint8Array(readFileSync(db)));
    sqlite3.capi.sqlite3_js_posix_create_file('/big.db-wal', new Uint8Array(readFileSync(`${db}-wal`)));
    const conn = new sqlite3.oo1.DB('/big.db', 'w');
    conn.exec('PRAGMA locking_mode=EXCLUSIVE; PRAGMA wal_checkpoint(TRUNCATE);');
    const diff = JSON.stringify({ role: 'user', time: { created: 1 }, summary: { diffs: [{ file: 'big.txt', before: 'x'.repeat(4 * 1024 * 1024), after: '' }] } });
    conn.exec({ sql: 'INSERT INTO message VALUES (?, ?, ?, ?, ?)', bind: ['msg_big', sessions.main, 1, 1, diff] });
    writeFileSync(db, sqlite3.capi.sqlite3_js_db_export(conn));
    conn.close();
    rmSync(`${db}-wal`);
    const rows = await queryWalDatabase(db, { dbBudget: 1024 * 1024, walMaxBytes: 0 }, (c) => c.selectValue("SELECT count(*) FROM message WHERE id = 'msg_big'"));
    expect(isAgentFileError(rows) ? rows.message : rows.value).toBe(1);
    // Its requests within a budget of 1 MiB: the 4 MiB row is sized, never read.
    const saved = LIMITS.dbBudget;
    LIMITS.dbBudget = 1024 * 1024;
    try {
      const got = await new OpencodeUsageStore(db).requests(sessions.main);
      expect(isAgentFileError(got) ? got.message : got?.length).toBe(requests.length);
    } finally {
      LIMITS.dbBudget = saved;
    }
  });
});

describe('an opencode request', () => {
  it('adds its reasoning to its output, takes its provider and time, and skips a step not answered yet', () => {
    const data = (tokens: unknown, extra: object = {}): string => JSON.stringify({ role: 'assistant', modelID: 'claude-sonnet-4-5', providerID: 'opencode', time: { created: 5, completed: 9 }, tokens, ...extra });
    const r = opencodeRequest(data({ input: 10, output: 3, reasoning: 4, cache: { read: 100, write: 20 } }), 1, false) as UsageRecord;
    expect(r).toEqual({ atMs: 9, model: 'claude-sonnet-4-5', input: 10, output: 7, cacheRead: 100, cacheWrite: 20, contextTokens: 130, contextWindow: null, provider: '' });
    expect(opencodeRequest(data({ input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }), 1, false)).toBeNull();
    expect(opencodeRequest('not json', 1, false)).toBeNull();
    expect(opencodeRequest(JSON.stringify({ tokens: { input: 1 } }), 7, true)).toMatchObject({ atMs: 7, model: null, subagent: true });
  });

  it('is priced by its own provider when the table knows it, else by its model alone', () => {
    expect([priceProvider('anthropic'), priceProvider('openrouter'), priceProvider('opencode'), priceProvider('')]).toEqual(['anthropic', 'openrouter', '', '']);
    const r: UsageRecord = { atMs: Date.parse('2026-01-05T00:00:00Z'), model: 'claude-sonnet-4-5', input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, contextTokens: 1000, contextWindow: null };
    expect(requestCost(r, priceProvider('opencode'))).toBeCloseTo(requestCost(r, 'anthropic') as number, 9);
    expect(requestCost(r, 'anthropic')).toBeGreaterThan(0);
  });
});
