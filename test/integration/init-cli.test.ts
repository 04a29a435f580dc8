// `mori init` warns when the agent's program is not found, and says how to install it; the session
// is created either way. Real CLI process with a PATH holding only a temp dir.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moriIn } from '../helpers/mori-cli.js';

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
