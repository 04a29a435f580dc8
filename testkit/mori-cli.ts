// Test helpers: run the built `mori` command as a real child process, with its own MORI_HOME.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('..', import.meta.url));
export const MORI_BIN = path.join(REPO, 'bin', 'mori.js');

export interface MoriRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `mori-${prefix}-`));
}

export function runMori(args: string[], opts: { home: string; cwd?: string; env?: NodeJS.ProcessEnv; input?: string }): MoriRun {
  const r = spawnSync(process.execPath, [MORI_BIN, ...args], {
    cwd: opts.cwd ?? opts.home,
    env: { ...process.env, MORI_HOME: opts.home, ...opts.env },
    encoding: 'utf8',
    input: opts.input ?? '',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function runMoriAsync(args: string[], opts: { home: string; cwd?: string; env?: NodeJS.ProcessEnv }): Promise<MoriRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MORI_BIN, ...args], {
      cwd: opts.cwd ?? opts.home,
      env: { ...process.env, MORI_HOME: opts.home, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A git repository with one commit, for tests that need HEAD and a status. */
export function gitRepo(dir: string): void {
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  const git = (...a: string[]) => spawnSync('git', ['-C', dir, ...a], { env, encoding: 'utf8' });
  git('init', '-q');
  git('commit', '-q', '--allow-empty', '-m', 'start');
}

export interface MoriResult {
  code: number;
  out: string;
  err: string;
  json: () => Record<string, unknown>;
}

/** Runs `mori` from the repo with its own MORI_HOME; stdout parsed on demand. */
export function moriIn(home: string, args: string[], env: NodeJS.ProcessEnv = {}): MoriResult {
  const r = spawnSync(process.execPath, [MORI_BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, MORI_HOME: home, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 90_000,
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr, json: () => JSON.parse(r.stdout) as Record<string, unknown> };
}

/** A fresh project `<root>/<name>` with a shell-profile session of that name; returns its state dir. */
export function initShellSession(root: string, home: string, name: string): string {
  const project = path.join(root, name);
  mkdirSync(project, { recursive: true });
  const r = moriIn(home, ['init', project, '--name', name, '--agent', 'shell', '--command', 'bash', '--backend', 'direct', '--json']);
  if (r.code !== 0) throw new Error(`mori init failed: ${r.err}`);
  return String(r.json().stateDir);
}
