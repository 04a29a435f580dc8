// `npm run build:app` (electron-vite) for real: the built main creates windows with context isolation
// and the sandbox on and Node off (read off the bundle and evaluated, not grepped), the preload is
// CommonJS that exposes exactly the MoriApi methods as `moriApi` and nothing else, and the daemon
// entry runs as the `mori` CLI in plain Node, where it loads SQLite's WASM build (its module and
// sqlite3.wasm from node_modules) to read opencode's usage from the database the real opencode wrote.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { EventEmitter } from 'node:events';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { moriIn, REPO, tempDir } from '../../../testkit/mori-cli.js';
import { until } from '../../../testkit/until.js';

/**
 * A build of its own, beside the shared one: a build empties each output folder first, and
 * out/renderer is what the window tests' pages are loading from meanwhile. Under out/ so the daemon
 * entry still finds node_modules.
 */
const OUT = path.join(REPO, 'out', 'electron-build-test');

beforeAll(() => {
  rmSync(OUT, { recursive: true, force: true });
  const r = spawnSync('npm', ['run', 'build:app', '--', '--outDir', OUT], { cwd: REPO, encoding: 'utf8', timeout: 240_000 });
  if (r.status !== 0) throw new Error(`npm run build:app failed:\n${r.stdout}\n${r.stderr}`);
}, 300_000);

describe('npm run build:app', () => {
  it('builds a main whose windows have context isolation and the sandbox on and Node integration off', () => {
    const main = readFileSync(path.join(OUT, 'main', 'index.js'), 'utf8');
    const fn = /function securePreferences\(preload\) \{[\s\S]*?\n\}/.exec(main)?.[0];
    expect(fn, 'securePreferences in out/main/index.js').toBeDefined();
    const prefs = new Function(`${fn}; return securePreferences('/p/index.cjs');`)() as Record<string, unknown>;
    expect(prefs).toMatchObject({ preload: '/p/index.cjs', contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false });
    expect(main).toMatch(/webPreferences: securePreferences\(/);
    // Every new window is denied (its http/https link goes to the default browser instead); none is ever allowed.
    expect(main).toMatch(/setWindowOpenHandler\(\(\{ url \}\) => \{[^}]*return \{ action: "deny" \};\s*\}\)/);
    expect(main).not.toMatch(/action: "allow"/);
  });

  it('builds the preload as CommonJS exposing exactly MoriApi as window.moriApi', () => {
    const code = readFileSync(path.join(OUT, 'preload', 'index.cjs'), 'utf8');
    const exposed = new Map<string, Record<string, unknown>>();
    const ipcRenderer = Object.assign(new EventEmitter(), { send: () => undefined, invoke: async () => ({ ok: true, value: [] }) });
    const electron = { contextBridge: { exposeInMainWorld: (k: string, v: Record<string, unknown>) => exposed.set(k, v) }, ipcRenderer };
    const req = (m: string): unknown => {
      if (m === 'electron') return electron;
      throw new Error(`a sandboxed preload can only require electron, not ${m}`);
    };
    vm.runInNewContext(code, { require: req, module: { exports: {} }, exports: {}, console });
    expect([...exposed.keys()]).toEqual(['moriApi']);
    expect(Object.keys(exposed.get('moriApi') ?? {}).sort()).toEqual(['attach', 'call', 'close', 'onConnection', 'onEvent', 'onHosts', 'openLink', 'openStateDir']);
  });

  it('builds the daemon entry: the mori CLI, run by plain Node', () => {
    const r = spawnSync(process.execPath, [path.join(OUT, 'main', 'daemon.js'), '--version'], { encoding: 'utf8', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
    expect(r.stdout.trim()).toBe('0.1.0');
  });

  it('builds a daemon that reads opencode’s usage through SQLite’s WASM build', async () => {
    const root = tempDir('built-daemon');
    const home = path.join(root, 'home');
    const project = path.join(root, 'project');
    mkdirSync(project);
    const fixture = path.join(REPO, 'test', 'support', 'fixtures', 'usage', 'opencode');
    const { sessions, requests } = JSON.parse(readFileSync(path.join(fixture, 'requests.json'), 'utf8')) as { sessions: { main: string }; requests: unknown[] };
    const data = path.join(root, 'share', 'opencode');
    mkdirSync(path.join(data, 'log'), { recursive: true });
    for (const name of ['opencode.db', 'opencode.db-wal']) writeFileSync(path.join(data, name), gunzipSync(readFileSync(path.join(fixture, `${name}.gz`))));
    // The line opencode logs when it creates a session, an hour ahead so it follows the launch: Mori learns the fixture's id from it.
    const at = new Date(Date.now() + 3_600_000).toISOString();
    writeFileSync(path.join(data, 'log', 'opencode.log'), `timestamp=${at} level=INFO run=x message=created id=${sessions.main} slug=x version=1.18.33 projectID=x directory=${project} path="" title=x\n`);
    const env = { XDG_DATA_HOME: path.join(root, 'share'), MORI_AGENT_BIN_OPENCODE: path.join(REPO, 'testkit', 'fake-agent.mjs'), FAKE_AGENT_NO_HOOKS: '1', MORI_START_STAGGER_MS: '0', MORI_PROBE: 'none' };
    expect(moriIn(home, ['init', project, '--name', 's', '--agent', 'opencode', '--backend', 'direct'], env).code).toBe(0);
    const daemon = spawn(process.execPath, [path.join(OUT, 'main', 'daemon.js'), 'up'], { env: { ...process.env, ...env, MORI_HOME: home, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    daemon.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      let said = '';
      await until('opencode’s requests in mori usage', () => {
        const r = moriIn(home, ['usage', 's', '--json'], env);
        said = `${r.out}${r.err}`;
        return r.code === 0 && (JSON.parse(r.out) as { sessions: { total: { requests: number } }[] }).sessions[0]?.total.requests === requests.length;
      }, () => `${said}\n${stderr}`, 60_000);
    } finally {
      moriIn(home, ['down', '--stop-agents'], env);
      daemon.kill('SIGKILL');
    }
  }, 120_000);
});
