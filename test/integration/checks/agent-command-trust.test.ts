// The shell/custom agent command comes from session.json, which the agent or a cloned repository can
// write: `mori up` starts it only when the person approved that exact command line (at `mori init
// --command`, or with `mori trust`). A real `mori up`, a real shell command leaving a marker file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasEvent, UpHarness } from '../../support/mori-up.js';
import { until } from '../../../testkit/until.js';

let h: UpHarness | null = null;
afterEach(() => {
  h?.cleanup();
  h = null;
});

describe('the agent command of a shell session', () => {
  it('does not start after session.json changed it, says why, and starts once `mori trust` approves it', async () => {
    h = new UpHarness('agent-trust');
    const marker = path.join(h.tmp, 'marker');
    const plainMarker = path.join(h.tmp, 'plain');
    const command = (word: string) => `sh -c "echo ${word} >> '${marker}'; exec sleep 600"`;
    // The command given at init is approved there: it starts without asking.
    const plain = h.mori('init', h.project, '--name', 'sh0', '--agent', 'shell', '--command', `sh -c "echo plain > '${plainMarker}'; exec sleep 600"`, '--backend', 'direct');
    expect(plain.code, plain.stderr).toBe(0);
    const init = h.mori('init', h.project, '--name', 'sh1', '--agent', 'shell', '--command', command('approved'), '--backend', 'direct');
    expect(init.code, init.stderr).toBe(0);
    const file = path.join(h.stateDir('sh1'), 'session.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as { agent: { command: string } };
    json.agent.command = command('changed');
    writeFileSync(file, JSON.stringify(json, null, 2));

    const up = h.up(['sh0', 'sh1']);
    await until('attention', () => hasEvent(up, 'session.attention'), () => up.stderr());
    await until('sh0 started', () => hasEvent(up, 'session.started', { name: 'sh0' }) && existsSync(plainMarker), () => up.stderr());
    const attention = up.lines().find((e) => e['type'] === 'session.attention') ?? {};
    expect(attention['reason']).toBe('needs-trust');
    expect(String(attention['message'])).toMatch(/agent command .*changed since it was approved.*mori trust sh1/);
    expect(hasEvent(up, 'session.started', { name: 'sh1' })).toBe(false);
    expect(existsSync(marker)).toBe(false);

    const shown = h.mori('trust', 'sh1');
    expect(shown.code).toBe(1); // no terminal, no --yes: shown, not approved
    expect(shown.stdout).toContain(command('changed'));
    expect(h.mori('trust', 'sh1', '--yes').code).toBe(0);
    const start = h.mori('start', 'sh1');
    expect(start.code, start.stderr).toBe(0);
    await until('sh1 started', () => hasEvent(up, 'session.started', { name: 'sh1' }), () => up.stderr());
    await until('marker', () => existsSync(marker));
    expect(readFileSync(marker, 'utf8').trim()).toBe('changed');

    up.child.kill('SIGTERM');
    expect(await up.exited).toBe(0);
  });
});
