// Real git repositories with a Mori session in them, for the checkpoint snapshot tests: the test's
// own git (not Mori's), a project with tracked, untracked and ignored files, and the facts about a
// repository a snapshot must leave as they were.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSession } from '../../main/state/state-dir.js';
import { tempDir } from '../../testkit/mori-cli.js';

const commitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

/** The test's own git; throws with git's message on failure. */
export function git(dir: string, ...args: string[]): string {
  const r = spawnSync('git', ['-C', dir, ...args], { env: commitEnv, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

export interface Project {
  project: string;
  stateDir: string;
  sessionId: string;
  home: string;
}

/** A committed project (a.txt, b.txt, .gitignore of *.log and build/) with a session; `commit` false leaves it without commits. */
export async function projectWithSession(name: string, commit = true): Promise<Project> {
  const project = tempDir(`snap-${name}`);
  git(project, 'init', '-q');
  writeFileSync(path.join(project, 'a.txt'), 'one\ntwo\n');
  writeFileSync(path.join(project, 'b.txt'), 'bee\n');
  writeFileSync(path.join(project, '.gitignore'), '*.log\nbuild/\n');
  if (commit) {
    git(project, 'add', '-A');
    git(project, 'commit', '-q', '-m', 'start');
  }
  const home = tempDir(`snap-${name}-home`);
  const c = await createSession({ projectDir: project, name, profile: 'shell', backend: 'direct', home, command: 'bash' });
  if (!c.ok) throw new Error(c.message);
  const session = JSON.parse(readFileSync(path.join(c.value.stateDir, 'session.json'), 'utf8')) as { id: string };
  return { project, stateDir: c.value.stateDir, sessionId: session.id, home };
}

function sha(file: string): string | null {
  return existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : null;
}

/** Every file under a dir with its contents' hash (the reflogs). */
function tree(dir: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) Object.assign(out, Object.fromEntries(Object.entries(tree(p)).map(([k, v]) => [`${e}/${k}`, v])));
    else out[e] = sha(p);
  }
  return out;
}

/** What a snapshot must not change: HEAD, the index, branches and tags, the stash, reflogs, status. */
export function repoFacts(project: string, withStatus = true): Record<string, unknown> {
  const g = (...a: string[]): string => spawnSync('git', ['-C', project, ...a], { encoding: 'utf8' }).stdout;
  return {
    head: g('rev-parse', '--symbolic-full-name', 'HEAD') + g('rev-parse', 'HEAD'),
    index: sha(path.join(project, '.git', 'index')),
    refs: g('for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/tags', 'refs/stash'),
    stash: g('stash', 'list'),
    reflogs: tree(path.join(project, '.git', 'logs')),
    // Mori's own state files (ignored) come and go with every checkpoint; the rest must not move.
    // A plain status runs whatever a hostile config names: left out there.
    status: !withStatus ? null : g('status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignored').split('\0').filter((e) => !e.startsWith('!! .mori/')),
  };
}

/** Paths in a commit's tree, with their modes. */
export function treeOf(project: string, commit: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of git(project, 'ls-tree', '-r', '-z', commit).split('\0')) {
    const m = /^(\d+) \w+ [0-9a-f]+\t(.*)$/s.exec(line);
    if (m) out.set(m[2] ?? '', m[1] ?? '');
  }
  return out;
}
