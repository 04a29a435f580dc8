// The supervisor asks an agent's profile (a capability: hooks, limit sources, status file, id form,
// takesCommand) instead of naming agents (DESIGN.md §5): a CLI's name is compared, switched on or
// used as a map key only in its own folder, main/agents/<name>/ (the folder whose profile.ts
// declares `name: '<name>'`), and in the registry, main/agents/profiles.ts. So adding an agent is a
// folder and a registry line. This fails on `=== 'claude'`, `case 'codex':`, `{ gemini: … }`,
// `.has('opencode')`, `isAgentId('aider', id)` and their kin anywhere else in main/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROFILE_NAMES } from '../../common/session.js';
import { REPO } from '../../testkit/mori-cli.js';

const AGENTS = 'main/agents';
const REGISTRY = 'main/agents/profiles.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(e) ? [p] : [];
  });
}

/** Each agent folder and the profile names its profile.ts declares (the shell folder holds shell and custom). */
function owners(): Map<string, string> {
  const owned = new Map<string, string>();
  for (const e of readdirSync(path.join(REPO, AGENTS))) {
    const file = path.join(REPO, AGENTS, e, 'profile.ts');
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(/^\s*name:\s*'([\w-]+)'/gm)) owned.set(m[1] as string, `${AGENTS}/${e}/`);
  }
  return owned;
}

/** The text without comments (a `//` inside a string cuts the rest of its line: never a false alarm). */
const withoutComments = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** The ways a source names `name` to decide on it: compared, switched on, a map key, a set member, a call's argument. */
function namingPatterns(name: string): RegExp[] {
  const lit = String.raw`(['"\`])${name}\1`;
  return [
    new RegExp(String.raw`[!=]==?\s*${lit}`), // x === 'claude'
    new RegExp(String.raw`${lit}\s*[!=]==?`), // 'claude' === x
    new RegExp(String.raw`\bcase\s+${lit}\s*:`), // case 'claude':
    new RegExp(String.raw`(?:^|[{,])\s*(?:${name}|${lit})\s*:(?!:)`, 'm'), // { claude: … } and 'claude': …
    new RegExp(String.raw`\[\s*${lit}\s*\]`), // map['claude'], { ['claude']: … }
    new RegExp(String.raw`\.(?:has|get|includes|indexOf)\(\s*${lit}\s*\)`), // set.has('claude')
    new RegExp(String.raw`new\s+(?:Set|Map)\(\s*\[[^\]]*${lit}`), // new Set(['claude', …])
    new RegExp(String.raw`\w\s*\(\s*${lit}\s*[,)]`), // isAgentId('claude', id), getProfile('codex')
  ];
}

/** The lines of `text` that name one of `names` to decide on it, as `file:line: text`. */
export function agentNamings(file: string, text: string, names: readonly string[]): string[] {
  const patterns = names.map((n) => [n, namingPatterns(n)] as const);
  return withoutComments(text)
    .split('\n')
    .flatMap((line, i) => patterns.filter(([, res]) => res.some((re) => re.test(line))).map(([n]) => `${file}:${i + 1}: '${n}' in ${line.trim()}`));
}

describe('agent names in main/', () => {
  it('are decided on only in their own folder and the registry', () => {
    const owned = owners();
    // Every profile has a folder: a name without one would be checked nowhere.
    expect(PROFILE_NAMES.filter((n) => !owned.has(n))).toEqual([]);
    const offenders = sourceFiles(path.join(REPO, 'main')).flatMap((abs) => {
      const file = path.relative(REPO, abs).split(path.sep).join('/');
      if (file === REGISTRY) return [];
      const names = PROFILE_NAMES.filter((n) => !file.startsWith(owned.get(n) ?? '\0'));
      return agentNamings(file, readFileSync(abs, 'utf8'), names);
    });
    expect(offenders).toEqual([]);
  });

  it('finds comparisons, switches, maps and set lookups, not text that mentions an agent', () => {
    const hits = (code: string): number => agentNamings('x.ts', code, ['claude', 'codex']).length;
    expect(hits("if (profile === 'claude') return x;")).toBe(1);
    expect(hits('if (rt.profile.name !== "codex") return;')).toBe(1);
    expect(hits("return 'claude' == p;")).toBe(1);
    expect(hits("  case 'codex':")).toBe(1);
    expect(hits('const SHAPES = { claude: [a], codex: [b] };')).toBe(2);
    expect(hits("const HINTS = {\n  'claude': 'npm i',\n};")).toBe(1);
    expect(hits('  codex: [https(x)],')).toBe(1);
    expect(hits("const x = map['claude'];")).toBe(1);
    expect(hits("if (UUIDS.has('claude')) x();")).toBe(1);
    expect(hits("const UUIDS = new Set(['gemini', 'claude']);")).toBe(1);
    expect(hits("if (!isAgentId('claude', id)) return;")).toBe(1);
    expect(hits("const profile = getProfile( 'codex' );")).toBe(1);
    expect(hits("log('the claude profile: ready');")).toBe(0);
    expect(hits('// if (profile === "claude") in a comment')).toBe(0);
    expect(hits("/** { claude: … } in a doc comment */")).toBe(0);
    expect(hits("const label = ok ? 'claude' : 'codex';")).toBe(0);
  });
});
