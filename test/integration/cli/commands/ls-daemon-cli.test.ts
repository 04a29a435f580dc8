// `mori ls` with a daemon running asks it for the listing (`sessions.listing`) instead of reading
// every session's files itself: the JSON is the very listing the files give (same fields, same
// order), with each session's live view, and a session whose state file cannot be read is still
// listed with its error. Real CLI processes and a real daemon.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSession } from '../../../../common/ipc.js';
import { listRegisteredSessions } from '../../../../main/supervisor/session/session-listing.js';
import { client } from '../../../support/daemon.js';
import { initShellSession, MORI_BIN, moriIn } from '../../../../testkit/mori-cli.js';
import { untilValue } from '../../../../testkit/until.js';

/**
 * The modules a traced run loaded, by source path: a file of the bundled CLI (out/cli/main/lean/)
 * holds several, each opened by a `// out/cli/<path>` or `// node_modules/<path>` line.
 */
function modulesLoaded(trace: string): string[] {
  const files = [...trace.matchAll(/^loaded (\/\S+)$/gm)].map((m) => m[1] ?? '');
  return files.flatMap((file) => {
    if (!file.includes(`${path.sep}lean${path.sep}`)) return [file];
    return [...readFileSync(file, 'utf8').matchAll(/^\/\/ (?:out\/cli\/|node_modules\/)(\S+)$/gm)].map((m) => m[1] ?? '');
  });
}

let root: string;
let home: string;
const env = { MORI_START_STAGGER_MS: '0' };

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mori-ls-daemon-'));
  home = path.join(root, 'home');
});
afterAll(() => {
  moriIn(home, ['down', '--stop-agents']);
  rmSync(root, { recursive: true, force: true });
});

describe('mori ls with a daemon running', () => {
  it('prints the listing the state files give, with each live view, from the daemon', async () => {
    initShellSession(root, home, 'alpha');
    const beta = initShellSession(root, home, 'beta');
    // beta's session_state.md is a directory: its task cannot be read, and ls says so for it.
    unlinkSync(path.join(beta, 'session_state.md'));
    mkdirSync(path.join(beta, 'session_state.md'));

    const offline = moriIn(home, ['ls', '--json'], env);
    expect(offline.code, offline.err).toBe(0);
    expect(offline.json()['supervisor']).toBeNull();

    const up = moriIn(home, ['up', '--daemon'], env);
    expect(up.code, up.err).toBe(0);
    const { c } = await client(home);
    const live = await untilValue(
      'both sessions running',
      async (): Promise<LiveSession[]> => {
        const r = await c.request('list', {});
        return r.ok ? r.value : [];
      },
      (l) => l.filter((s) => s.state === 'running').length === 2,
      60_000,
    );
    c.close();

    const r = moriIn(home, ['ls', '--json'], env);
    expect(r.code, r.err).toBe(0);
    const printed = r.json() as { supervisor: { pid: number } | null; sessions: Record<string, unknown>[] };
    expect(printed.supervisor?.pid).toBeGreaterThan(0);
    // What this process reads of the same files, with the live views the daemon gave.
    const local = listRegisteredSessions(home, new Map(live.map((s) => [s.id, s])));
    if (!local.ok) throw new Error(local.message);
    expect(printed.sessions.map((s) => Object.keys(s))).toEqual(local.value.map((s) => Object.keys(s)));
    const withoutLive = (s: Record<string, unknown>) => ({ ...s, live: (s['live'] as { id: string } | null)?.id ?? null });
    expect(printed.sessions.map(withoutLive)).toEqual(JSON.parse(JSON.stringify(local.value.map((s) => withoutLive(s as unknown as Record<string, unknown>)))));
    const betaEntry = printed.sessions.find((s) => s['stateDir'] === beta);
    expect(String(betaEntry?.['error'])).toContain('session_state.md');
    expect(printed.sessions.every((s) => (s['live'] as { state: string } | null)?.state === 'running')).toBe(true);

    // The CLI itself loaded no state-file reader or markdown parser: the daemon read the files.
    // The CLI is CommonJS (bin/, the bundle): every file it loads passes Module.prototype.load.
    const trace = path.join(root, 'trace.cjs');
    writeFileSync(
      trace,
      "const M = require('node:module'); const load = M.prototype.load; M.prototype.load = function (f) { process.stderr.write(`loaded ${f}\\n`); return load.call(this, f); };\n" +
        "process.on('exit', () => process.stderr.write(`builtins ${process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ')}\\n`));\n" +
        "const net = require('node:net'); const write = net.Socket.prototype.write; net.Socket.prototype.write = function (d, ...rest) { if (typeof d === 'string' && d.includes('sessions.listing')) process.stderr.write('wrote the listing request\\n'); return write.call(this, d, ...rest); };\n",
    );
    const traced = spawnSync(process.execPath, ['--require', trace, MORI_BIN, 'ls', '--json'], { env: { ...process.env, MORI_HOME: home, ...env }, encoding: 'utf8' });
    expect(traced.status, traced.stderr).toBe(0);
    const modules = modulesLoaded(traced.stderr);
    expect(modules).toContain('main/daemon-client/control-client.js');
    expect(modules.filter((m) => /session-summary\.js|markdown-doc\.js|micromark/.test(m))).toEqual([]);
    // No remotes.json: the remotes' schemas are not loaded. Nothing starts a process: commander's
    // child_process (for subcommands that are programs) is loaded only when it spawns one.
    expect(modules).not.toContain('main/remote/remotes-store.js');
    const builtins = (/^builtins (.*)$/m.exec(traced.stderr)?.[1] ?? '').split(' ');
    expect(builtins).toContain('net');
    expect(builtins).not.toContain('child_process');
    // The listing is asked for before the protocol's schemas load: the daemon lists while they do.
    const lines = traced.stderr.split('\n');
    const asked = lines.indexOf('wrote the listing request');
    const schemas = lines.findIndex((l) => l.startsWith('loaded ') && modulesLoaded(l).includes('common/ipc.js'));
    expect(asked).toBeGreaterThan(0);
    expect(schemas).toBeGreaterThan(asked);

    const text = moriIn(home, ['ls'], env);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toMatch(/^alpha {2}(running|waiting|working), pid \d+/m);
    expect(text.out).not.toContain('No Mori supervisor is running');
    // Two agents started by a daemon, then five CLI processes: a loaded 2-core machine needs more than the default.
  }, 90_000);
});
