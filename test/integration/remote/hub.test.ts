// The app's remotes (main/remote/remote-hub.ts) with the system's real ssh against a port nothing
// listens on: a remote shows `unreachable` with ssh's reason and is tried again; remotes.json edited
// while the hub runs starts and stops connections; a corrupt file is named once and the remotes
// already followed stay.
import { rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { remotesPath } from '../../../main/remote/remotes-store.js';
import { RemoteHub } from '../../../main/remote/remote-hub.js';
import { tempDir } from '../../../testkit/mori-cli.js';
import { freePort, SKIP_WITHOUT_SSHD } from '../../../testkit/sshd.js';
import { until } from '../../../testkit/until.js';

const hubs: RemoteHub[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const h of hubs.splice(0)) h.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const remote = (name: string, port: number) => ({ name, destination: '127.0.0.1', sshOptions: ['-F', '/dev/null', '-p', String(port)], remoteCommand: 'mori bridge' });

// The ssh client comes with the server's packages: skipped where the remote tests are.
describe.skipIf(SKIP_WITHOUT_SSHD)('RemoteHub', () => {
  it('follows remotes.json as it changes; a remote nothing answers for is unreachable with ssh\'s reason and tried again', { timeout: 60_000 }, async () => {
    const home = tempDir('hub');
    dirs.push(home);
    const port = await freePort();
    writeFileSync(remotesPath(home), JSON.stringify({ schemaVersion: 1, remotes: [remote('a', port)] }));
    const logs: string[] = [];
    const changes: string[] = [];
    const hub = new RemoteHub({ home, rereadMs: 100, reconnectFirstMs: 100, reconnectMaxMs: 200, log: (l) => logs.push(l) });
    hubs.push(hub);
    hub.onChange((name) => changes.push(name));
    hub.start();
    expect(hub.views()).toMatchObject([{ name: 'a', status: 'connecting', sessions: [] }]);
    await until('a unreachable', () => hub.views()[0]?.status === 'unreachable', () => JSON.stringify(hub.views()));
    expect(hub.views()[0]?.message).toMatch(/^a \(127\.0\.0\.1\) cannot be reached through ssh: .*refused/);
    // Tried again: something now answers on the port, and hangs up on ssh, which says so instead.
    const rude = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => rude.listen(port, '127.0.0.1', r));
    try {
      await until('the new reason', () => !/refused/.test(hub.views()[0]?.message ?? 'refused'), () => JSON.stringify(hub.views()));
      expect(hub.views()[0]).toMatchObject({ status: 'unreachable', message: expect.stringMatching(/cannot be reached through ssh/) });
    } finally {
      rude.close();
    }

    writeFileSync(remotesPath(home), '{"schemaVersion": 1, "remotes": [');
    await until('the corrupt file named', () => logs.length > 0);
    await new Promise((r) => setTimeout(r, 500)); // several more reads
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/remotes\.json: not valid JSON/);
    expect(hub.views().map((v) => v.name)).toEqual(['a']);

    writeFileSync(remotesPath(home), JSON.stringify({ schemaVersion: 1, remotes: [remote('b', port)] }));
    await until('a replaced by b', () => hub.views().map((v) => v.name).join() === 'b', () => JSON.stringify(hub.views()));
    await until('b unreachable', () => hub.views()[0]?.status === 'unreachable');
    expect(changes).toContain('a');
    expect(changes).toContain('b');
  });
});
