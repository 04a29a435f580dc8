// `mori changes` runs git for its work only: the repository lookup is remembered between processes
// (main/git/remembered-repos.ts) and used only while what it came from is unchanged — the config,
// a `.git` appearing between the folder and the top level, an entry that is not one Mori wrote — and
// never hands git a config key that names a program, whatever the entry holds; and a session given
// by its state dir's path has its work tree scanned while the command loads (scan-ahead.ts), with the
// same answer as by name, a corrupt session file still refused, and no private git dir left behind.
// Real git (each run's subcommand logged by a PATH shim that hands it on to the real git), real
// files, the real CLI in processes of its own.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRepoGit } from '../../../main/git/repo-git.js';
import { rememberReposIn } from '../../../main/git/remembered-repos.js';
import { MORI_BIN, tempDir } from '../../../testkit/mori-cli.js';

const commitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const REAL_GIT = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();

function git(dir: string, ...args: string[]): string {
  const r = spawnSync(REAL_GIT, ['-C', dir, ...args], { env: commitEnv, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A `git` that appends its subcommand (the argument after `-C <dir>`, as git-policy.ts puts it) to `log`, then runs the real one. */
function gitShim(log: string): string {
  const bin = tempDir('git-shim');
  const shim = path.join(bin, 'git');
  writeFileSync(shim, `#!/bin/sh\nnext=''\nfor a in "$@"; do\n  if [ "$next" = 2 ]; then echo "$a" >> "${log}"; break; fi\n  if [ -n "$next" ]; then next=2; elif [ "$a" = "-C" ]; then next=1; fi\ndone\nexec "${REAL_GIT}" "$@"\n`);
  chmodSync(shim, 0o755);
  return bin;
}

interface Fixture {
  repo: string;
  /** The project (the repository's top level unless a test says otherwise). */
  project: string;
  cache: string;
  log: string;
  env: NodeJS.ProcessEnv;
}

/** A committed repository with a shell session in `sub` (or at the top), its first checkpoint taken. */
function fixture(sub = ''): Fixture {
  const repo = tempDir('remembered-repo');
  git(repo, 'init', '-q');
  const project = path.join(repo, sub);
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(project, 'a.txt'), 'a\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'start');
  const cache = tempDir('remembered-xdg');
  const log = path.join(tempDir('git-log'), 'runs');
  const env = { ...process.env, MORI_HOME: tempDir('remembered-home'), XDG_CACHE_HOME: cache, PATH: `${gitShim(log)}${path.delimiter}${process.env.PATH ?? ''}` };
  const f = { repo, project, cache, log, env };
  const init = mori(f, 'init', project, '--name', 's', '--agent', 'shell', '--command', 'cat', '--backend', 'direct');
  expect(init.status, init.stderr).toBe(0);
  const cp = mori(f, 'checkpoint', stateDir(f));
  expect(cp.status, cp.stderr).toBe(0);
  return f;
}

const stateDir = (f: Fixture): string => path.join(f.project, '.mori', 's');
const mori = (f: Fixture, ...args: string[]) => spawnSync(process.execPath, [MORI_BIN, ...args], { env: f.env, encoding: 'utf8' });
const runs = (f: Fixture): string[] => readFileSync(f.log, 'utf8').split('\n').filter(Boolean);
const entries = (f: Fixture): string[] => readdirSync(path.join(f.cache, 'mori', 'repos')).map((name) => path.join(f.cache, 'mori', 'repos', name));

/** `mori changes S --stat --json`: its output and the git subcommands it ran. */
function changes(f: Fixture): { code: number | null; out: string; err: string; runs: string[] } {
  const before = runs(f).length;
  const r = mori(f, 'changes', stateDir(f), '--stat', '--json');
  return { code: r.status, out: r.stdout, err: r.stderr, runs: runs(f).slice(before) };
}

const LOOKUP = ['rev-parse', 'config'];
/** The work tree's scan starts before the checkpoints' listing (changes.ts): it is the longer. */
const WORK = ['add', 'for-each-ref', 'diff-index'];

describe('`mori changes` remembers which repository a project is in', () => {
  it('looks the repository up once, then answers from the cache folder with the same listing', () => {
    const f = fixture();
    writeFileSync(path.join(f.project, 'a.txt'), 'a\nb\n');
    writeFileSync(path.join(f.project, 'new.txt'), 'n\n');
    // The checkpoint before remembered the lookup already: a fresh cache folder shows the first run.
    f.env.XDG_CACHE_HOME = f.cache = tempDir('remembered-xdg');
    const first = changes(f);
    expect(first.code, first.err).toBe(0);
    expect(first.runs).toEqual([...LOOKUP, ...WORK]);
    expect(entries(f)).toHaveLength(1);
    const second = changes(f);
    expect(second.runs).toEqual(WORK);
    expect(second.out).toBe(first.out);
    const files = (JSON.parse(first.out) as { files: { path: string; kind: string }[] }).files;
    expect(files.map((x) => `${x.kind} ${x.path}`)).toEqual(['modified a.txt', 'added new.txt']);
  });

  it('looks it up again once the config changes', () => {
    const f = fixture();
    expect(changes(f).runs).toEqual(WORK);
    git(f.repo, 'config', 'core.autocrlf', 'input');
    expect(changes(f).runs).toEqual([...LOOKUP, ...WORK]);
    expect(changes(f).runs).toEqual(WORK);
  });

  it('looks it up again when a repository appears between the project and the top level', async () => {
    const f = fixture(path.join('sub', 'project'));
    expect(changes(f).runs).toEqual(WORK);
    git(path.join(f.repo, 'sub'), 'init', '-q');
    const after = changes(f);
    expect(after.runs.slice(0, 2)).toEqual(LOOKUP);
    // The new repository has none of the session's checkpoints.
    expect(after.code).not.toBe(0);
    expect(after.out).toMatch(/no checkpoints yet/);
  });

  it('ignores an entry that is not what it writes, and writes its own', () => {
    const f = fixture();
    const [file] = entries(f);
    writeFileSync(file ?? '', '{"dir": 3, "paths": ');
    const r = changes(f);
    expect(r.code, r.err).toBe(0);
    expect(r.runs).toEqual([...LOOKUP, ...WORK]);
    expect(JSON.parse(readFileSync(file ?? '', 'utf8'))).toMatchObject({ dir: f.project });
  });
});

describe('a remembered lookup read in this process', () => {
  afterEach(() => rememberReposIn(null));
  let f: Fixture;
  beforeEach(() => {
    f = fixture();
  });

  /** The private git dir's config that runs on `f.project` get, opened here (first time in this process for that folder). */
  async function privateConfig(): Promise<string> {
    rememberReposIn(path.join(f.cache, 'mori'));
    const before = runs(f).length;
    const r = await openRepoGit(f.project);
    if (!r.ok) throw new Error(`${f.project}: not opened`);
    try {
      expect(runs(f).slice(before)).toEqual([]); // read from the entry the CLI wrote
      return readFileSync(path.join(r.git.scratch, 'config'), 'utf8');
    } finally {
      r.git.close();
    }
  }

  it('never hands git a config key that names a program, whatever the entry holds', async () => {
    const [file] = entries(f);
    const data = JSON.parse(readFileSync(file ?? '', 'utf8')) as { config: string };
    // Only the entry changed, so it is still used: its config is filtered again as it is read.
    data.config += 'filter.evil.clean\ntouch /tmp/pwned\0core.fsmonitor\n/bin/evil\0core.ignorecase\nfalse\0';
    writeFileSync(file ?? '', JSON.stringify(data));
    const saved = process.env.PATH;
    process.env.PATH = f.env.PATH;
    try {
      const config = await privateConfig();
      expect(config).not.toMatch(/filter|fsmonitor|evil|pwned/);
      expect(config).toMatch(/ignorecase = "false"/);
    } finally {
      process.env.PATH = saved;
    }
  });
});

describe('a session given by its state dir path is scanned while the command loads', () => {
  /** `mori changes S [--stat] --json` with S as given, in its own TMPDIR (where private git dirs are made). */
  function changesOf(f: Fixture, spec: string, ...extra: string[]): { code: number | null; out: string; tmp: string } {
    const tmp = tempDir('changes-tmp');
    const r = spawnSync(process.execPath, [MORI_BIN, 'changes', spec, ...extra, '--json'], { env: { ...f.env, TMPDIR: tmp }, encoding: 'utf8' });
    return { code: r.status, out: r.stdout, tmp };
  }

  it('gives the same listing and patch as by name, leaving no private git dir', () => {
    const f = fixture();
    writeFileSync(path.join(f.project, 'a.txt'), 'a\nchanged\n');
    writeFileSync(path.join(f.project, 'b.txt'), 'new\n');
    for (const extra of [['--stat'], []]) {
      const byPath = changesOf(f, stateDir(f), ...extra);
      const byName = changesOf(f, 's', ...extra);
      expect(byPath.code, byPath.out).toBe(0);
      expect(byPath.out).toBe(byName.out);
      expect(JSON.parse(byPath.out)).toMatchObject({ files: [{ path: 'a.txt', added: 1 }, { path: 'b.txt', kind: 'added' }] });
      for (const run of [byPath, byName]) expect(readdirSync(run.tmp)).toEqual([]);
    }
  });

  it('still refuses a corrupt session file, naming it, and leaves no private git dir', () => {
    const f = fixture();
    writeFileSync(path.join(stateDir(f), 'session.json'), '{"id": ');
    const before = runs(f).length;
    const r = changesOf(f, stateDir(f), '--stat');
    // The scan began before the session file was read, and was dropped when it was refused.
    expect(runs(f).slice(before)).toEqual(['add']);
    expect(r.code).toBe(3);
    expect(r.out).toContain(path.join(stateDir(f), 'session.json'));
    expect(readdirSync(r.tmp)).toEqual([]);
  });

  it('says a project that is not a git repository has no checkpoints', () => {
    const project = tempDir('not-a-repo');
    const f: Fixture = { repo: project, project, cache: tempDir('remembered-xdg'), log: path.join(tempDir('git-log'), 'runs'), env: {} };
    f.env = { ...process.env, MORI_HOME: tempDir('remembered-home'), XDG_CACHE_HOME: f.cache, PATH: `${gitShim(f.log)}${path.delimiter}${process.env.PATH ?? ''}` };
    expect(mori(f, 'init', project, '--name', 's', '--agent', 'shell', '--command', 'cat', '--backend', 'direct').status).toBe(0);
    const r = changesOf(f, stateDir(f), '--stat');
    expect(r.code).not.toBe(0);
    expect(r.out).toContain('no checkpoints: not a git repository');
    expect(readdirSync(r.tmp)).toEqual([]);
  });
});
