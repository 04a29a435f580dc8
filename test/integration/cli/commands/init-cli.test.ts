// `mori init` warns when the agent's program is not found, and says how to install it; the session
// is created either way; `--resume` and `mori set S resume=…` set how its relaunches take up the
// conversation. Real CLI process with a PATH holding only a temp dir.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moriIn } from '../../../../testkit/mori-cli.js';

let root: string;
let home: string;
let bin: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mori-init-'));
  home = path.join(root, 'home');
  bin = path.join(root, 'bin');
  mkdirSync(bin);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function init(name: string, agent: string, extra: string[] = []) {
  const project = path.join(root, name);
  mkdirSync(project);
  return moriIn(home, ['init', project, '--name', name, '--agent', agent, '--backend', 'direct', ...extra], { PATH: bin });
}

describe('mori init', () => {
  it('warns that the agent program is missing, with the install command, and still creates the session', () => {
    const r = init('cx', 'codex');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/Created session "cx"/);
    expect(r.err).toMatch(/warning: "codex" \(the codex agent's program\) is not found on PATH; install it: npm install -g @openai\/codex/);

    const j = init('ai', 'aider', ['--json']);
    expect(j.code).toBe(0);
    expect(j.err).toBe('');
    expect(j.json()['warnings']).toEqual([`"aider" (the aider agent's program) is not found on PATH; install it: python -m pip install aider-install && aider-install`]);
  });

  it('says nothing when the program is on PATH', () => {
    const fake = path.join(bin, 'claude');
    writeFileSync(fake, '#!/bin/sh\nexit 0\n');
    chmodSync(fake, 0o755);
    const r = init('cl', 'claude', ['--json']);
    expect(r.code).toBe(0);
    expect(r.json()['warnings']).toEqual([]);
  });

  it('looks up the first word of a shell command line', () => {
    const r = init('sh', 'shell', ['--command', 'no-such-agent-program --flag {prompt}']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/"no-such-agent-program" \(the shell agent's program\) is not found on PATH/);
  });
});

describe('the resume mode', () => {
  const resumeOf = (name: string): unknown => (JSON.parse(readFileSync(path.join(root, name, '.mori', name, 'session.json'), 'utf8')) as Record<string, unknown>)['resume'];
  const set = (...args: string[]) => moriIn(home, ['set', path.join(root, 'rm1', '.mori', 'rm1'), ...args], { PATH: bin });

  it('mori init --resume sets it, mori set changes it or gives it back to the default; a wrong one is refused by name', () => {
    expect(init('rm1', 'claude', ['--resume', 'fresh']).code).toBe(0);
    expect(resumeOf('rm1')).toBe('fresh');
    expect(init('rm2', 'claude').code).toBe(0);
    expect(resumeOf('rm2')).toBeUndefined();
    const bad = init('rm3', 'claude', ['--resume', 'sometimes']);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/--resume: "sometimes" is not a resume mode; use one of auto, by-id, fresh/);

    const r = set('resume=by-id', '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.json()).toMatchObject({ ok: true, name: 'rm1', resume: 'by-id' });
    expect(resumeOf('rm1')).toBe('by-id');
    expect(set('resume=default').out).toMatch(/rm1: resume as the daemon's default/);
    expect(resumeOf('rm1')).toBeUndefined();
    const wrong = set('resume=never');
    expect(wrong.code).not.toBe(0);
    expect(wrong.err).toMatch(/resume: "never" is not a resume mode/);
    expect(set('colour=blue').err).toMatch(/"colour" is not a session setting; use one of resume/);
    expect(resumeOf('rm1')).toBeUndefined();
  });
});
