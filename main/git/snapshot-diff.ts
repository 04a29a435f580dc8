// What differs between two snapshot trees (snapshot.ts): each file added, modified or deleted with its
// line counts, its unified patch, and the blobs on either side. Tree against tree only — never the
// work tree (a tree against a temporary index at most) — with no diff driver, textconv or external
// diff (git-policy.ts adds --no-ext-diff --no-textconv to every diff-tree and diff-index). Any Node process.
import { GitFailed } from './snapshot.js';
import type { RepoGit } from './repo-git.js';

export type ChangeKind = 'added' | 'modified' | 'deleted' | 'type-changed';

export interface FileChange {
  path: string;
  kind: ChangeKind;
  /** Lines added and deleted; null for a binary file. */
  added: number | null;
  deleted: number | null;
  binary: boolean;
  /** Git modes before and after ('000000' where there was none): 100644, 100755, 120000 (symlink), 160000 (submodule). */
  oldMode: string;
  newMode: string;
  oldBlob: string;
  newBlob: string;
}

const KINDS: Record<string, ChangeKind> = { A: 'added', M: 'modified', D: 'deleted', T: 'type-changed' };

async function run(git: RepoGit, args: readonly string[]): Promise<string> {
  const r = await git.run(args);
  if (r.code !== 0) throw new GitFailed(args[0] ?? '', r);
  return r.stdout;
}

/** The state dirs never count as a change: rollback leaves them alone, so listing them would mislead. */
function isStatePath(p: string): boolean {
  return p === '.mori' || p.startsWith('.mori/') || p.includes('/.mori/');
}

/** `--raw --numstat -z` output (raw records and numstat records, in any order) → changes sorted by path. */
export function parseRawNumstat(out: string): FileChange[] {
  const counts = new Map<string, { added: number | null; deleted: number | null }>();
  const raws: { m: RegExpExecArray; file: string }[] = [];
  const parts = out.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? '';
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])\d*$/.exec(part);
    if (m) {
      raws.push({ m, file: parts[++i] ?? '' });
      continue;
    }
    const n = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(part);
    if (n) counts.set(n[3] ?? '', { added: n[1] === '-' ? null : Number(n[1]), deleted: n[2] === '-' ? null : Number(n[2]) });
  }
  const changes: FileChange[] = [];
  for (const { m, file } of raws) {
    if (isStatePath(file)) continue;
    const kind = KINDS[m[5] ?? ''] ?? 'modified';
    const c = counts.get(file) ?? { added: null, deleted: null };
    const gitlink = m[1] === '160000' || m[2] === '160000';
    changes.push({ path: file, kind, added: c.added, deleted: c.deleted, binary: !gitlink && c.added === null, oldMode: m[1] ?? '', newMode: m[2] ?? '', oldBlob: m[3] ?? '', newBlob: m[4] ?? '' });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every file that differs between two trees, sorted by path. */
export async function diffTrees(git: RepoGit, from: string, to: string): Promise<FileChange[]> {
  return parseRawNumstat(await run(git, ['diff-tree', '-r', '-z', '--raw', '--numstat', from, to]));
}

/**
 * Every file that differs between a tree and a temporary index (snapshot.ts stageWorkTree): the same
 * answer as diffTrees against the index's tree, without writing that tree. Never reads the work tree.
 */
export async function diffTreeToIndex(git: RepoGit, from: string, index: string): Promise<FileChange[]> {
  const r = await git.run(['diff-index', '-r', '-z', '--raw', '--numstat', from], { index });
  if (r.code !== 0) throw new GitFailed('diff-index', r);
  return parseRawNumstat(r.stdout);
}

/** The unified patch of the given paths (all when none) between two trees; binary files say so. */
export async function patchOf(git: RepoGit, from: string, to: string, paths: readonly string[] = []): Promise<string> {
  return run(git, ['diff-tree', '-r', '-p', '--binary', '--full-index', from, to, '--', ...paths.map((p) => `:(literal)${p}`)]);
}

/** The contents of blobs by id, as stored (no smudge filter: cat-file --batch); a missing one is absent. */
export async function readBlobs(git: RepoGit, oids: readonly string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const wanted = [...new Set(oids.filter((o) => /^[0-9a-f]{40,64}$/.test(o) && !/^0+$/.test(o)))];
  if (wanted.length === 0) return out;
  const r = await git.run(['cat-file', '--batch'], { input: wanted.join('\n') + '\n' });
  if (r.code !== 0 || r.bytes === undefined) throw new GitFailed('cat-file', r);
  const bytes = r.bytes;
  let at = 0;
  while (at < bytes.length) {
    const nl = bytes.indexOf(0x0a, at);
    if (nl < 0) break;
    const header = bytes.subarray(at, nl).toString('utf8');
    const m = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
    if (!m) {
      at = nl + 1; // "<oid> missing"
      continue;
    }
    const size = Number(m[3]);
    if (m[2] === 'blob') out.set(m[1] ?? '', bytes.subarray(nl + 1, nl + 1 + size));
    at = nl + 1 + size + 1; // the contents end with a newline of their own
  }
  return out;
}

/** Whether bytes look like text: no NUL in the first 8 KB, as git decides. */
export function isText(b: Buffer): boolean {
  return !b.subarray(0, 8000).includes(0);
}
