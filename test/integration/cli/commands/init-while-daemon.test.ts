// A session `mori init` creates while a daemon runs is listed by the daemon at once, announced with
// `session.registered`, and not started; `init` names `mori start` then (and `mori up` with no
// daemon), and that command starts it. Real CLI processes and a real daemon.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSession } from '../../../../common/ipc.js';
import { client, waitEvent } from '../../../support/daemon.js';
import { moriIn } from '../../../../testkit/mori-cli.js';
import { untilValue } from '../../../../testkit/until.js';

let root: string;
let home: string;
const env = { MORI_START_STAGGER_MS: '0' };

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mori-init-daemon-'));
  home = path.join(root, 'home');
});
afterAll(() => {
  moriIn(home, ['down', '--stop-agents']);
  rmSync(root, { recursive: true, force: true });
});

function init(name: string) {
  const project = path.join(root, name);
  mkdirSync(project, { recursive: true });
  return moriIn(home, ['init', project, '--name', name, '--agent', 'shell', '--command', 'bash', '--backend', 'direct'], env);
}

describe('mori init while a daemon runs', () => {
  it('says `mori up` with no daemon, and `mori start` with one, whose daemon lists the new session at once without starting it', async () => {
    const first = init('first');
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(/then `mori up first`\./);

    const up = moriIn(home, ['up', '--daemon'], env);
    expect(up.code, up.err).toBe(0);
    const { c, events } = await client(home, true);

    const second = init('second');
    expect(second.code, second.err).toBe(0);
    expect(second.out).toMatch(/then `mori start second` \(or Start in the window\)\./);

    await waitEvent(events, 'session.registered for second', (e) => e.type === 'session.registered' && e.name === 'second');
    const listed = await untilValue(
      'second listed',
      async (): Promise<LiveSession | undefined> => {
        const r = await c.request('list', {});
        return r.ok ? r.value.find((s) => s.name === 'second') : undefined;
      },
      (s) => s !== undefined,
    );
    // Listed, not launched: Start is the person's.
    expect(listed?.pid).toBeNull();
    expect(['idle', 'stopped']).toContain(listed?.state);
    expect(events.some((e) => e.type === 'session.started' && e.name === 'second')).toBe(false);

    // The command init named works.
    const start = moriIn(home, ['start', 'second'], env);
    expect(start.code, start.err).toBe(0);
    await waitEvent(events, 'second started', (e) => e.type === 'session.started' && e.name === 'second');
    c.close();
  });
});
