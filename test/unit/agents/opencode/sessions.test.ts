// opencode's sessions on disk (main/agents/opencode/sessions.ts): the session a launch created, read
// from opencode's log lines as 1.18.33 writes them (its directory, its time, ids other sessions hold
// skipped, forged lines of another form ignored), and whether a session is in its database's bytes,
// the WAL included and a match across two read chunks found.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findOpencodeSession, opencodeSessionExists, parseCreatedSessions } from '../../../../main/agents/opencode/sessions.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'mori-opencode-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const A = 'ses_dd006de6bffe2iYDZkrcJ5uqVC';
const B = 'ses_dd0058b19ffeOWu6ARVeePw7c0';
const C = 'ses_dd004e645ffezHF0xRSqL30iL8';
/** A creation line as opencode 1.18.33 logs it. */
const created = (at: string, id: string, dir: string): string =>
  `timestamp=${at} level=INFO run=7ae6a934 message=created id=${id} slug=happy-engine version=1.18.33 projectID=global directory=${dir} path="" workspaceID=undefined parentID=undefined`;

describe('opencode sessions', () => {
  it('parses creation lines, a quoted directory with a space included, and nothing else', () => {
    const text = [
      'timestamp=2026-12-01T04:59:15.743Z level=INFO run=7ae6a934 message=init',
      created('2026-12-01T04:59:45.948Z', A, '/work/p'),
      created('2026-12-01T05:00:00.000Z', B, '"/work/my project"'),
      created('2026-12-01T05:00:01.000Z', 'ses_short', '/work/p'),
      `timestamp=not-a-time level=INFO message=created id=${C} directory=/work/p`,
    ].join('\n');
    expect(parseCreatedSessions(text)).toEqual([
      { id: A, atMs: Date.parse('2026-12-01T04:59:45.948Z'), directory: '/work/p' },
      { id: B, atMs: Date.parse('2026-12-01T05:00:00.000Z'), directory: '/work/my project' },
    ]);
  });

  it("finds the first session created in the launch's directory since the launch, skipping taken ids", async () => {
    const data = path.join(root, 'find');
    const project = path.join(root, 'project');
    mkdirSync(path.join(data, 'opencode', 'log'), { recursive: true });
    mkdirSync(project, { recursive: true });
    const env = { XDG_DATA_HOME: data, HOME: root };
    const launched = Date.parse('2026-12-01T05:00:00.000Z');
    writeFileSync(
      path.join(data, 'opencode', 'log', 'opencode.log'),
      [
        created('2026-12-01T04:50:00.000Z', C, project), // before this launch
        created('2026-12-01T05:00:03.000Z', A, path.join(root, 'elsewhere')),
        created('2026-12-01T05:00:05.000Z', B, project),
        created('2026-12-01T05:00:09.000Z', A, project),
      ].join('\n'),
    );
    expect(await findOpencodeSession(env, project, launched)).toBe(B);
    expect(await findOpencodeSession(env, project, launched, [B])).toBe(A);
    expect(await findOpencodeSession(env, project, Date.parse('2026-12-01T05:01:00.000Z'))).toBeNull();
    expect(await findOpencodeSession({ XDG_DATA_HOME: path.join(root, 'none'), HOME: root }, project, launched)).toBeNull();
  });

  it('knows a session is on disk by its id in opencode.db or its WAL, also across a chunk boundary', async () => {
    const data = path.join(root, 'db');
    mkdirSync(path.join(data, 'opencode'), { recursive: true });
    const env = { XDG_DATA_HOME: data, HOME: root };
    const db = path.join(data, 'opencode', 'opencode.db');
    // The id straddles the 1 MiB chunk boundary the search reads in.
    writeFileSync(db, Buffer.concat([Buffer.alloc(1024 * 1024 - 10, 0), Buffer.from(A), Buffer.alloc(100, 0)]));
    writeFileSync(`${db}-wal`, Buffer.concat([Buffer.alloc(50, 1), Buffer.from(B)]));
    expect(await opencodeSessionExists(env, A)).toBe(true);
    expect(await opencodeSessionExists(env, B)).toBe(true);
    expect(await opencodeSessionExists(env, C)).toBe(false);
    expect(await opencodeSessionExists(env, 'ses_')).toBe(false); // not an id: never searched
    expect(await opencodeSessionExists({ XDG_DATA_HOME: path.join(root, 'none'), HOME: root }, A)).toBe(false);
  });
});
