// `mori init` adds `.mori/` to the project's .git/info/exclude, a file in the agent-writable git dir:
// a symlink there (to a file of the person's) or a FIFO is left alone, named in a warning, and the
// session is still created. Real git repositories, real CLI.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moriIn } from '../../testkit/mori-cli.js';

let root: string;
let home: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mori-git-exclude-'));
  home = path.join(root, 'home');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function repo(name: string): string {
  const project = path.join(root, name);
  mkdirSync(project);
  execFileSync('git', ['init', '-q', project]);
  return project;
}

describe('mori init and .git/info/exclude', () => {
  it('appends .mori/ to a plain exclude file', () => {
    const project = repo('plain');
    const r = moriIn(home, ['init', project, '--name', 'plain', '--agent', 'shell', '--command', 'sh', '--backend', 'direct']);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(path.join(project, '.git', 'info', 'exclude'), 'utf8')).toMatch(/^\.mori\/$/m);
  });

  it('leaves a symlinked exclude file (and what it points at) alone and says so', () => {
    const project = repo('linked');
    const outside = path.join(root, 'bashrc');
    writeFileSync(outside, 'export PS1=x\n');
    const exclude = path.join(project, '.git', 'info', 'exclude');
    rmSync(exclude, { force: true });
    symlinkSync(outside, exclude);
    const r = moriIn(home, ['init', project, '--name', 'linked', '--agent', 'shell', '--command', 'sh', '--backend', 'direct', '--json']);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(outside, 'utf8')).toBe('export PS1=x\n');
    const warnings = r.json()['warnings'] as string[];
    expect(warnings.join('\n')).toContain(exclude);
    expect(warnings.join('\n')).toMatch(/symbolic link/);
  });

  it('does not block on a FIFO in place of the exclude file', () => {
    const project = repo('fifo');
    const exclude = path.join(project, '.git', 'info', 'exclude');
    rmSync(exclude, { force: true });
    execFileSync('mkfifo', [exclude]);
    const started = Date.now();
    const r = moriIn(home, ['init', project, '--name', 'fifo', '--agent', 'shell', '--command', 'sh', '--backend', 'direct', '--json']);
    expect(r.code, r.err).toBe(0);
    // A blocked open would hang until the CLI helper's own timeout; a refusal answers at once.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((r.json()['warnings'] as string[]).join('\n')).toMatch(/named pipe|not a regular file/);
  });
});
