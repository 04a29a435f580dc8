// A directory name reaches tmux as a start directory, where tmux expands formats: `#(cmd)` would run
// `cmd` in the tmux server. session.json's projectDir and agent.cwd are agent-writable, and a dir
// named `x#(touch m)` is legal inside a project. Real tmux on a private socket, a real `mori up`.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeTranscriptPath } from '../../main/agents/claude/transcript.js';
import { TmuxBackend } from '../../main/terminals/tmux/tmux-backend.js';
import { collect, tempDir, testEnv, testSocketName, waitFor } from '../support/fixtures/terminals/harness.js';
import { hasEvent, until, UpHarness } from '../support/mori-up.js';

/** The format job's shell sees the server's global environment: the marker's path comes from there (not MORI_*: agents never get those). */
const MARKER_VAR = 'SECURITY_TEST_MARKER';
const JOB = `#(touch $${MARKER_VAR})`;
/** A format job starts at once; this is ample for `touch` on a busy machine. */
const JOB_GRACE_MS = 1_000;

let h: UpHarness | null = null;
afterEach(() => {
  h?.cleanup();
  h = null;
});

type Json = Record<string, unknown> & { agent: Record<string, unknown> };
const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;

describe('a start directory with tmux format syntax', () => {
  it('runs nothing in the tmux server, and the program starts in that very directory', async () => {
    const tmp = tempDir('tmux-format');
    const marker = path.join(tmp.dir, 'marker');
    // The server starts with this process's environment, as the supervisor's does.
    process.env[MARKER_VAR] = marker;
    const backend = new TmuxBackend({ socketName: testSocketName('format') });
    try {
      const dir = path.join(tmp.dir, `x${JOB}`);
      const braces = path.join(tmp.dir, 'y#{pane_id}##');
      mkdirSync(dir);
      mkdirSync(braces);
      const printed: string[] = [];
      for (const cwd of [dir, braces]) {
        const r = await backend.spawn({
          id: randomUUID(),
          command: 'sh',
          args: ['-c', 'echo "cwd=$(pwd)."; read x'],
          cwd,
          env: { ...testEnv(tmp.dir), [MARKER_VAR]: marker },
          cols: 200,
          rows: 24,
          transcriptDir: null,
        });
        if (!r.ok) throw new Error(r.message);
        const out = collect(r.value);
        await waitFor(() => out.text().includes('cwd='), 'the program to say where it runs');
        printed.push(out.text());
        await r.value.kill();
        await r.value.dispose();
      }
      // tmux runs a format's job in the background: give one time to run before looking.
      await new Promise((resolve) => setTimeout(resolve, JOB_GRACE_MS));
      expect(existsSync(marker)).toBe(false);
      expect(printed[0]).toContain(`cwd=${dir}.`);
      expect(printed[1]).toContain(`cwd=${braces}.`);
    } finally {
      delete process.env[MARKER_VAR];
      await backend.server.killServer();
      tmp.cleanup();
    }
  });
});

describe('session.json paths at `mori up`', () => {
  it('a projectDir other than the project is refused as state-invalid; the other session starts; nothing runs', async () => {
    const markerDir = tempDir('tmux-projectdir-marker');
    const marker = path.join(markerDir.dir, 'marker');
    h = new UpHarness('tmux-projectdir', { [MARKER_VAR]: marker });
    h.init('good', 'tmux');
    h.init('forged', 'tmux');
    // A dir that exists, so nothing but the check stands between it and tmux's -c.
    const forgedDir = path.join(markerDir.dir, `elsewhere${JOB}`);
    mkdirSync(forgedDir);
    const file = path.join(h.stateDir('forged'), 'session.json');
    const json = readJson(file);
    json['projectDir'] = forgedDir;
    writeFileSync(file, JSON.stringify(json, null, 2));

    const up = h.up(['good', 'forged']);
    await until('good started', () => hasEvent(up, 'session.started', { name: 'good' }), () => up.stderr());
    await new Promise((resolve) => setTimeout(resolve, JOB_GRACE_MS));
    expect(existsSync(marker)).toBe(false);
    await until('forged needs attention', () => hasEvent(up, 'session.attention', { name: 'forged' }), () => up.stderr());
    const attention = up.lines().find((e) => e['type'] === 'session.attention' && e['name'] === 'forged') ?? {};
    expect(attention['reason']).toBe('state-invalid');
    expect(String(attention['message'])).toContain(`${file}: projectDir: `);
    expect(String(attention['message'])).toContain(`is not the project this state dir is in (${h.project})`);
    expect(hasEvent(up, 'session.started', { name: 'forged' })).toBe(false);
    expect(h.workLog('forged')).toContain('SESSION NEEDS ATTENTION - state-invalid');
    // The forged field is left for the person to see and correct.
    expect(readJson(file)['projectDir']).toBe(forgedDir);
    // The supervisor still answers.
    const ls = h.mori('ls', '--json');
    expect(ls.code, ls.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);

    up.child.kill('SIGTERM');
    expect(await up.exited).toBe(0);
    expect(existsSync(marker)).toBe(false);
    markerDir.cleanup();
  });

  it('an agent.cwd inside the project named like a tmux format is where the agent resumes; one outside is refused', async () => {
    const markerDir = tempDir('tmux-cwd-marker');
    const marker = path.join(markerDir.dir, 'marker');
    h = new UpHarness('tmux-cwd', { [MARKER_VAR]: marker });
    const cwd = path.join(h.project, `sub${JOB}`);
    mkdirSync(cwd);
    h.init('inside', 'tmux');
    h.init('outside', 'tmux');
    const id = randomUUID();
    const forge = (name: string, agentCwd: string): string => {
      const file = path.join(h!.stateDir(name), 'session.json');
      const json = readJson(file);
      json.agent = { ...json.agent, sessionId: id, cwd: agentCwd };
      json['intent'] = { kind: 'interrupted', reason: 'crash' };
      writeFileSync(file, JSON.stringify(json, null, 2));
      return file;
    };
    forge('inside', cwd);
    const outsideFile = forge('outside', markerDir.dir);
    // The agent's record of its session, so the relaunch resumes it in its recorded directory.
    const transcript = claudeTranscriptPath({ CLAUDE_CONFIG_DIR: h.env['CLAUDE_CONFIG_DIR'] }, cwd, id);
    mkdirSync(path.dirname(transcript), { recursive: true });
    writeFileSync(transcript, '{}\n');

    const up = h.up(['inside', 'outside']);
    await until('inside started', () => hasEvent(up, 'session.started', { name: 'inside' }), () => up.stderr());
    await new Promise((resolve) => setTimeout(resolve, JOB_GRACE_MS));
    expect(existsSync(marker)).toBe(false);
    await until('outside needs attention', () => hasEvent(up, 'session.attention', { name: 'outside' }), () => up.stderr());
    await until('the agent recorded its start', () => h!.starts().length > 0);
    const start = h.starts()[0] as unknown as { cwd: string; resumeId: string | null };
    expect(start.cwd).toBe(cwd);
    expect(start.resumeId).toBe(id);
    const attention = up.lines().find((e) => e['type'] === 'session.attention' && e['name'] === 'outside') ?? {};
    expect(attention['reason']).toBe('state-invalid');
    expect(String(attention['message'])).toContain(`${outsideFile}: agent.cwd: ${JSON.stringify(markerDir.dir)}`);
    expect(String(attention['message'])).toContain(`not inside the project ${h.project}`);
    expect(existsSync(marker)).toBe(false);

    up.child.kill('SIGTERM');
    expect(await up.exited).toBe(0);
    expect(existsSync(marker)).toBe(false);
    markerDir.cleanup();
  });
});
