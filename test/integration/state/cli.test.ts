// `mori init | ls | status | log | prompt` as a person runs them: real processes, real files.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { gitRepo, MORI_BIN, runMori, tempDir } from '../../../testkit/mori-cli.js';

let home: string;
let project: string;

beforeEach(() => {
  home = tempDir('home');
  project = tempDir('proj');
});

const init = (...extra: string[]) => runMori(['init', project, '--name', 'auth', '--agent', 'claude', '--task', 'Implement auth middleware', ...extra], { home });

describe('mori init', () => {
  it('creates the state dir in the seed shape and registers the session', () => {
    gitRepo(project);
    writeFileSync(path.join(project, 'AGENTS.md'), '# agents\n');
    const r = runMori(['init', project, '--name', 'auth', '--agent', 'claude', '--task', 'Implement auth middleware', '--json'], { home });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { id: string; stateDir: string };
    const dir = path.join(project, '.mori', 'auth');
    expect(out.stateDir).toBe(dir);
    for (const f of ['session_state.md', 'environment.md', 'work_log.md', 'session.json']) expect(existsSync(path.join(dir, f)), f).toBe(true);
    const state = readFileSync(path.join(dir, 'session_state.md'), 'utf8');
    expect(state).toMatch(/## Current Task\n- Implement auth middleware\n/);
    expect(state).toMatch(/## Context Files\n- AGENTS.md\n/);
    const session = JSON.parse(readFileSync(path.join(dir, 'session.json'), 'utf8')) as Record<string, unknown>;
    expect(session).toMatchObject({ schemaVersion: 1, id: out.id, name: 'auth', agent: { profile: 'claude' }, intent: { kind: 'new' } });
    const registry = JSON.parse(readFileSync(path.join(home, 'registry.json'), 'utf8')) as { sessions: { id: string }[] };
    expect(registry.sessions.map((s) => s.id)).toEqual([out.id]);
    expect(readFileSync(path.join(project, '.git', 'info', 'exclude'), 'utf8')).toMatch(/^\.mori\/$/m);
    // never a tracked file
    expect(existsSync(path.join(project, '.gitignore'))).toBe(false);
  });

  it('does not add .mori/ to the exclude file twice', () => {
    gitRepo(project);
    expect(init().code).toBe(0);
    expect(runMori(['init', project, '--name', 'second', '--agent', 'codex'], { home }).code).toBe(0);
    const exclude = readFileSync(path.join(project, '.git', 'info', 'exclude'), 'utf8');
    expect(exclude.match(/^\.mori\/$/gm)).toHaveLength(1);
  });

  it('refuses an existing name (2), a bad name (2), a missing dir (3), a bad profile (2)', () => {
    expect(init().code).toBe(0);
    const again = init();
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists/);
    const bad = runMori(['init', project, '--name', 'Bad Name', '--agent', 'claude'], { home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a valid session name/);
    // A state dir `.mori/x.app/` would be an app bundle to macOS, launched when opened.
    const bundle = runMori(['init', project, '--name', 'x.app', '--agent', 'claude'], { home });
    expect(bundle.code).toBe(2);
    expect(bundle.stderr).toMatch(/"x\.app" is not a valid session name: it may not end in "\.app"/);
    expect(existsSync(path.join(project, '.mori', 'x.app'))).toBe(false);
    const missing = runMori(['init', path.join(project, 'nope'), '--name', 'x', '--agent', 'claude', '--json'], { home });
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, code: 'not-found' });
    expect(runMori(['init', project, '--name', 'y', '--agent', 'vim'], { home }).code).toBe(2);
    expect(runMori(['init', project, '--name', 'y', '--agent', 'shell'], { home }).stderr).toMatch(/--command is required/);
  });
});

describe('mori ls, status, log, prompt', () => {
  it('finds a session by name, id and path, and logs to it', () => {
    const id = (JSON.parse(init('--json').stdout) as { id: string }).id;
    const dir = path.join(project, '.mori', 'auth');
    for (const spec of ['auth', id, dir]) {
      const s = runMori(['status', spec, '--json'], { home });
      expect(s.code, s.stderr).toBe(0);
      expect(JSON.parse(s.stdout)).toMatchObject({ ok: true, task: 'Implement auth middleware', session: { id } });
    }
    expect(runMori(['log', 'auth', 'Added', 'middleware.py'], { home }).code).toBe(0);
    const status = JSON.parse(runMori(['status', 'auth', '--json'], { home }).stdout) as { lastLog: { lines: string[] } };
    expect(status.lastLog.lines).toEqual(['Added middleware.py']);
    const ls = JSON.parse(runMori(['ls', '--json'], { home }).stdout) as { sessions: { session: { name: string } }[] };
    expect(ls.sessions.map((s) => s.session.name)).toEqual(['auth']);
    expect(runMori(['status', 'nobody'], { home }).code).toBe(3);
  });

  it('ends quietly when the reader of its output goes away (`mori status S --json | head`)', () => {
    init();
    const state = path.join(project, '.mori', 'auth', 'session_state.md');
    // More than a pipe holds: the reader is gone before the last of it is written.
    writeFileSync(state, readFileSync(state, 'utf8').replace('- Implement auth middleware', `- ${'y'.repeat(200_000)}`));
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${MORI_BIN}" status auth --json 2>"$ERR" | head -c 100 >/dev/null; exit \${PIPESTATUS[0]}`], {
      env: { ...process.env, MORI_HOME: home, ERR: path.join(home, 'stderr') },
    });
    expect(readFileSync(path.join(home, 'stderr'), 'utf8')).toBe('');
    expect(r.status).toBe(0);
  });

  it('builds the resume prompt from the files', () => {
    init();
    const dir = path.join(project, '.mori', 'auth');
    writeFileSync(
      path.join(dir, 'session_state.md'),
      readFileSync(new URL('../../support/fixtures/seed/session_state.md', import.meta.url)).toString() + '\n## Decisions\n- JWT in the Authorization header\n',
    );
    runMori(['log', 'auth', 'Tried a token bucket; too coarse'], { home });
    const r = runMori(['prompt', 'auth', '--json'], { home });
    expect(r.code, r.stderr).toBe(0);
    const { prompt } = JSON.parse(r.stdout) as { prompt: string };
    expect(prompt).toContain(`${dir}/session_state.md: read this first`);
    expect(prompt).toContain('- Implementing user auth middleware');
    expect(prompt).toContain('1. Add rate limiting decorator');
    expect(prompt).toContain('- JWT in the Authorization header');
    expect(prompt).toContain('Tried a token bucket; too coarse');
    expect(prompt).toContain('- auth.py');
    expect(prompt.length).toBeLessThanOrEqual(6000);
  });
});

describe('a corrupt state file', () => {
  it('is reported with its path (exit 3), left untouched, and other sessions keep working', () => {
    init();
    expect(runMori(['init', project, '--name', 'other', '--agent', 'codex'], { home }).code).toBe(0);
    const file = path.join(project, '.mori', 'auth', 'session.json');
    const broken = '{"schemaVersion": 1, "id": oops';
    writeFileSync(file, broken);
    const r = runMori(['status', 'auth'], { home });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(/not valid JSON/);
    expect(runMori(['log', 'auth', 'x'], { home }).code).toBe(0); // the log is a separate file
    expect(runMori(['prompt', 'auth'], { home }).code).toBe(3);
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(runMori(['status', 'other'], { home }).code).toBe(0);
    const ls = runMori(['ls', '--json'], { home });
    expect(ls.code).toBe(0);
    const sessions = (JSON.parse(ls.stdout) as { sessions: { ok: boolean; error?: string }[] }).sessions;
    expect(sessions.filter((s) => !s.ok)[0]?.error).toContain(file);
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });

  it('a registry that is not JSON is reported and left in place', () => {
    writeFileSync(path.join(home, 'registry.json'), 'garbage');
    const r = runMori(['ls'], { home });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(path.join(home, 'registry.json'));
    expect(init().code).toBe(3);
    expect(readFileSync(path.join(home, 'registry.json'), 'utf8')).toBe('garbage');
  });
});
