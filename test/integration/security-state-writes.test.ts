// Nothing Mori writes under a state dir lands outside it through a symlink (or a hard link) the agent
// planted: not the agent's terminal output (a transcript segment, or `transcript/` itself, pointing
// at the person's files), not a service's log, not a work-log entry, not a new session's files.
// Each refusal names the file; the session runs on. Real daemon, real ptys, real services.
import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initShellSession, moriIn, runMoriAsync, tempDir } from '../../testkit/mori-cli.js';
import { UpHarness, until } from '../support/mori-up.js';

const PRECIOUS = '# ~/.bashrc of the person\nexport PATH=$HOME/bin:$PATH\n';
/** A file and a directory of the person's, outside every state dir. */
let outsideDir: string;
let outsideFile: string;

function freshOutside(): void {
  outsideDir = tempDir('outside');
  outsideFile = path.join(tempDir('outside-file'), 'bashrc');
  writeFileSync(outsideFile, PRECIOUS);
}

describe('the agent\'s terminal output (real daemon, real ptys)', () => {
  let h: UpHarness;
  const MARKER = 'agent-output-marker';

  beforeAll(async () => {
    freshOutside();
    h = new UpHarness('writes');
    const script = path.join(h.tmp, 'agent.sh');
    // A second's pause: the supervisor is listening for transcript problems before the first write.
    writeFileSync(script, `sleep 1; echo ${MARKER}; exec cat\n`);
    for (const name of ['good', 'segfile', 'segdir', 'hardseg', 'logsym']) {
      const r = h.mori('init', h.project, '--name', name, '--agent', 'shell', '--command', `sh ${script}`, '--backend', 'direct');
      expect(r.code, r.stderr).toBe(0);
    }
    // A segment numbered past any real one, so it is the one appended to: a symlink to the person's file.
    symlinkSync(outsideFile, path.join(h.stateDir('segfile'), 'transcript', '999999.log'));
    // transcript/ itself a symlink to a directory of the person's.
    const segdir = path.join(h.stateDir('segdir'), 'transcript');
    readdirSync(segdir).forEach((f) => unlinkSync(path.join(segdir, f)));
    spawnSync('rmdir', [segdir]);
    symlinkSync(outsideDir, segdir);
    // A hard link: the same bytes under a second name outside.
    linkSync(outsideFile, path.join(h.stateDir('hardseg'), 'transcript', '999999.log'));
    const up = h.mori('up', '--daemon');
    expect(up.code, up.stderr).toBe(0);
  }, 90_000);

  afterAll(() => h.cleanup());

  it('a symlinked segment: refused and reported in the work log naming it; the file it points at keeps its bytes', { timeout: 60_000 }, async () => {
    const seg = path.join(h.stateDir('segfile'), 'transcript', '999999.log');
    await until('the refusal in the work log', () => h.workLog('segfile').includes('TRANSCRIPT NOT WRITTEN'), () => h.workLog('segfile'));
    expect(h.workLog('segfile')).toContain(seg);
    expect(h.workLog('segfile')).toMatch(/symbolic link/);
    expect(readFileSync(outsideFile, 'utf8')).toBe(PRECIOUS);
    // The session runs on; the good one's output did reach its own transcript (the test can see writes).
    await until('the good transcript', () => readdirSync(path.join(h.stateDir('good'), 'transcript')).some((f) => readFileSync(path.join(h.stateDir('good'), 'transcript', f), 'utf8').includes(MARKER)));
    const ls = JSON.parse(h.mori('ls', '--json').stdout) as { sessions: { stateDir: string; live: { state: string } | null }[] };
    expect(ls.sessions.find((s) => s.stateDir.endsWith('segfile'))?.live?.state).toBe('running');
  });

  it('a symlinked transcript/ directory: nothing is created in the directory it points at', { timeout: 60_000 }, async () => {
    const dir = path.join(h.stateDir('segdir'), 'transcript');
    await until('the refusal in the work log', () => h.workLog('segdir').includes('TRANSCRIPT NOT WRITTEN'), () => h.workLog('segdir'));
    expect(h.workLog('segdir')).toContain(dir);
    expect(readdirSync(outsideDir)).toEqual([]);
  });

  it('a hard-linked segment: refused, the other name keeps its bytes', { timeout: 60_000 }, async () => {
    await until('the refusal in the work log', () => h.workLog('hardseg').includes('TRANSCRIPT NOT WRITTEN'), () => h.workLog('hardseg'));
    expect(h.workLog('hardseg')).toMatch(/hard links/);
    expect(readFileSync(outsideFile, 'utf8')).toBe(PRECIOUS);
  });

  it('a symlinked work_log.md: the supervisor\'s entry is refused, attention(state-invalid) names it, the target keeps its bytes', { timeout: 60_000 }, async () => {
    await until('logsym to start', () => h.workLog('logsym').includes('SESSION STARTED'));
    const log = path.join(h.stateDir('logsym'), 'work_log.md');
    writeFileSync(outsideFile, PRECIOUS);
    unlinkSync(log);
    symlinkSync(outsideFile, log);
    const stop = await runMoriAsync(['stop', 'logsym'], { home: h.home, cwd: h.project, env: h.env });
    expect(stop.code, stop.stderr).toBe(0);
    const ls = JSON.parse(h.mori('ls', '--json').stdout) as { sessions: { stateDir: string; stateProblem?: { reason?: string; message: string } }[] };
    const problem = ls.sessions.find((s) => s.stateDir.endsWith('logsym'))?.stateProblem;
    expect(problem?.reason).toBe('state-invalid');
    expect(problem?.message).toContain(log);
    expect(readFileSync(outsideFile, 'utf8')).toBe(PRECIOUS);
  });
});

describe('a service restart', () => {
  let root: string;
  let home: string;

  beforeAll(() => {
    root = tempDir('writes-svc');
    home = path.join(root, 'home');
  });

  /** A port nothing listens on right now. */
  async function freePort(): Promise<number> {
    const s = net.createServer();
    const port = await new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as net.AddressInfo).port)));
    await new Promise<void>((r) => s.close(() => r()));
    return port;
  }

  /** A trusted session whose failing service would `touch` a marker if it were started. */
  async function serviceSession(name: string): Promise<{ dir: string; started: string }> {
    const dir = initShellSession(root, home, name);
    const started = path.join(root, `${name}-started`);
    writeFileSync(path.join(dir, 'environment.md'), `## Running Services\n- Tiny: 127.0.0.1:${await freePort()} start: \`touch ${started}\`\n`);
    expect(moriIn(home, ['trust', name, '--yes']).code).toBe(0);
    return { dir, started };
  }

  function verify(name: string): { action: string; detail: string } {
    const r = moriIn(home, ['verify', name, '--restart-services', '--json']);
    const svc = (JSON.parse(r.out) as { services: { action: string; detail: string }[] }).services[0];
    if (!svc) throw new Error(r.out + r.err);
    return svc;
  }

  it('with its log symlinked to the person\'s file: not started, a clear error names the log, the file keeps its bytes', async () => {
    freshOutside();
    const { dir, started } = await serviceSession('svclog');
    const log = path.join(dir, 'transcript', 'service-tiny.log');
    symlinkSync(outsideFile, log);
    const svc = verify('svclog');
    expect(svc.action).toBe('failed');
    expect(svc.detail).toContain(log);
    expect(svc.detail).toMatch(/symbolic link/);
    expect(readFileSync(outsideFile, 'utf8')).toBe(PRECIOUS);
    expect(() => readFileSync(started)).toThrow();
  });

  it('with transcript/ symlinked to a directory of the person\'s: nothing is created there', async () => {
    freshOutside();
    const { dir, started } = await serviceSession('svcdir');
    const t = path.join(dir, 'transcript');
    spawnSync('rm', ['-rf', t]);
    symlinkSync(outsideDir, t);
    const svc = verify('svcdir');
    expect(svc.action).toBe('failed');
    expect(svc.detail).toContain(t);
    expect(readdirSync(outsideDir)).toEqual([]);
    expect(() => readFileSync(started)).toThrow();
  });

  it('with its lock a FIFO: a clear error names the lock, nothing blocks', async () => {
    const { dir, started } = await serviceSession('svclock');
    const lock = path.join(dir, 'service-tiny.lock');
    spawnSync('mkfifo', [lock]);
    const t0 = Date.now();
    const svc = verify('svclock');
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(svc.action).toBe('failed');
    expect(svc.detail).toContain(lock);
    expect(svc.detail).toMatch(/named pipe/);
    expect(() => readFileSync(started)).toThrow();
  });
});

describe('a symlinked .mori or state dir', () => {
  it('`mori init` makes nothing through a .mori that points elsewhere', () => {
    freshOutside();
    const home = path.join(tempDir('writes-init'), 'home');
    const project = tempDir('writes-init-proj');
    symlinkSync(outsideDir, path.join(project, '.mori'));
    const r = moriIn(home, ['init', project, '--name', 'x', '--agent', 'shell', '--command', 'bash', '--backend', 'direct']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain(path.join(project, '.mori'));
    expect(readdirSync(outsideDir)).toEqual([]);
  });

  it('`mori log` and `mori verify` refuse a state dir moved elsewhere and symlinked back; its files keep their bytes', () => {
    const root = tempDir('writes-moved');
    const home = path.join(root, 'home');
    const dir = initShellSession(root, home, 'moved');
    const elsewhere = path.join(tempDir('writes-elsewhere'), 'moved');
    mkdirSync(path.dirname(elsewhere), { recursive: true });
    renameSync(dir, elsewhere);
    symlinkSync(elsewhere, dir);
    const before = readFileSync(path.join(elsewhere, 'work_log.md'), 'utf8');
    const r = moriIn(home, ['log', 'moved', 'must not land elsewhere']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain(dir);
    expect(r.err).toMatch(/symbolic link/);
    expect(readFileSync(path.join(elsewhere, 'work_log.md'), 'utf8')).toBe(before);
    // A verification records its results in session.json: not through the symlinked dir either.
    const session = readFileSync(path.join(elsewhere, 'session.json'), 'utf8');
    const v = moriIn(home, ['verify', 'moved', '--json']);
    expect(v.code).not.toBe(0);
    expect(v.out + v.err).toContain(dir);
    expect(readFileSync(path.join(elsewhere, 'session.json'), 'utf8')).toBe(session);
    expect(readdirSync(elsewhere).filter((f) => f.endsWith('.tmp') || f.endsWith('.bak'))).toEqual([]);
  });
});
