// Files an agent can write or create have one reader, main/os/agent-file.ts (DESIGN.md §11): it opens
// them O_NOFOLLOW | O_NONBLOCK, keeps only a regular file and caps what it reads. A plain open of a
// FIFO there held a libuv thread for good (four stopped the daemon), so in the folders that read the
// agents' dirs and hook spools every other way to open, read or stat-then-read a file fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

/** The folders (and files) that read what an agent writes. A new reader there must use the module. */
const AGENT_READERS = [
  'main/agents',
  'main/supervisor/limits',
  'main/supervisor/signals',
  'main/supervisor/launch',
  'main/supervisor/typing',
  // It copies the project's .git/HEAD.
  'main/git/private-git-dir.ts',
];

/** node:fs calls that open, read or stat a file by name; each has its counterpart in agent-file.ts. */
const FORBIDDEN = ['open', 'openSync', 'readFile', 'readFileSync', 'createReadStream', 'readSync', 'readv', 'readvSync', 'stat', 'statSync', 'fstat', 'fstatSync'];

/** Calls allowed in one file, each with why it reads nothing an agent wrote. */
const ALLOWED: Record<string, { calls: string[]; why: string }> = {
  'main/agents/agent-program.ts': { calls: ['statSync'], why: 'whether a program on PATH is a file; nothing is opened or read' },
  'main/agents/gemini/defaults-check.ts': { calls: ['statSync'], why: 'the owner and mode of root-owned system files; nothing is opened or read' },
  'main/git/private-git-dir.ts': { calls: ['statSync'], why: 'whether a repository path it links to is a directory; nothing is opened or read' },
};

function tsFiles(dir: string): string[] {
  if (dir.endsWith('.ts')) return [dir];
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const FS_MODULE = /^(?:node:)?fs(?:\/promises)?$/;

/** The forbidden calls `text` makes through node:fs: named imports, and calls on an fs namespace or default import. */
export function forbiddenCalls(text: string): string[] {
  const found = new Set<string>();
  const namespaces: string[] = [];
  for (const m of text.matchAll(/import\s+([^;]*?)\s+from\s+['"]([^'"]+)['"]/g)) {
    if (!FS_MODULE.test(m[2] as string)) continue;
    const clause = m[1] as string;
    const ns = /^\*\s+as\s+(\w+)$/.exec(clause) ?? /^(\w+)\s*(?:,|$)/.exec(clause);
    if (ns) namespaces.push(ns[1] as string);
    for (const spec of /\{([^}]*)\}/.exec(clause)?.[1]?.split(',') ?? []) {
      const [name, alias] = spec.trim().replace(/^type\s+/, '').split(/\s+as\s+/);
      if (name === 'promises') namespaces.push(alias ?? name);
      else if (name !== undefined && FORBIDDEN.includes(name)) found.add(name);
    }
  }
  for (const ns of namespaces) {
    for (const m of text.matchAll(new RegExp(`\\b${ns}\\.(?:promises\\.)?(\\w+)\\s*\\(`, 'g'))) {
      if (FORBIDDEN.includes(m[1] as string)) found.add(m[1] as string);
    }
  }
  return [...found].sort();
}

describe('reads of agent-writable files', () => {
  it('go through main/os/agent-file.ts in every folder that reads them', () => {
    const offenders = AGENT_READERS.flatMap((dir) => tsFiles(path.join(REPO, dir))).flatMap((file) => {
      const rel = path.relative(REPO, file).split(path.sep).join('/');
      const allowed = ALLOWED[rel]?.calls ?? [];
      const bad = forbiddenCalls(readFileSync(file, 'utf8')).filter((c) => !allowed.includes(c));
      return bad.length === 0 ? [] : [`${rel}: ${bad.join(', ')} (read it through main/os/agent-file.ts)`];
    });
    expect(offenders).toEqual([]);
  });

  it('would catch a plain open, read or stat in any form', () => {
    expect(forbiddenCalls("import { promises as fs } from 'node:fs';\nawait fs.open(file, 'r');")).toEqual(['open']);
    expect(forbiddenCalls("import { open } from 'node:fs/promises';")).toEqual(['open']);
    expect(forbiddenCalls("import { createReadStream, promises as fsp } from 'node:fs';\nfsp.stat(f);")).toEqual(['createReadStream', 'stat']);
    expect(forbiddenCalls("import fs from 'node:fs';\nfs.readFileSync(f, 'utf8');")).toEqual(['readFileSync']);
    expect(forbiddenCalls("import * as fs from 'fs';\nfs.promises.readFile(f);")).toEqual(['readFile']);
    expect(forbiddenCalls("import { openSync as o } from 'node:fs';")).toEqual(['openSync']);
    expect(forbiddenCalls("import { promises as fs } from 'node:fs';\nawait fs.readdir(d); await fs.realpath(d);")).toEqual([]);
    expect(forbiddenCalls("import { readAgentFile } from '../os/agent-file.js';\nawait readAgentFile(f, 10);")).toEqual([]);
  });
});
