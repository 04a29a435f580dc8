// No import cycle in main/ (DESIGN.md §2): among its files, none through the imports that load code;
// among the parts of main/supervisor/, none at all, types included, so the parts read bottom up as the
// import table of eslint.config.js orders them. The imports are read with TypeScript's own parser.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

interface Edge {
  to: string;
  /** Erased when compiled (`import type`, or only type specifiers): loads nothing. */
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? sourceFiles(p) : e.endsWith('.ts') ? [p] : [];
  });
}

/** The relative imports and re-exports of one file, as repository paths of .ts files. */
function importsOf(file: string): Edge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const edges: Edge[] = [];
  for (const s of source.statements) {
    let spec: ts.Expression | undefined;
    let typeOnly = false;
    if (ts.isImportDeclaration(s)) {
      spec = s.moduleSpecifier;
      const clause = s.importClause;
      const named = clause?.namedBindings;
      typeOnly = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)));
    } else if (ts.isExportDeclaration(s) && s.moduleSpecifier !== undefined) {
      spec = s.moduleSpecifier;
      typeOnly = s.isTypeOnly || (s.exportClause !== undefined && ts.isNamedExports(s.exportClause) && s.exportClause.elements.every((e) => e.isTypeOnly));
    }
    if (spec === undefined || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) continue;
    edges.push({ to: path.relative(REPO, path.resolve(path.dirname(file), spec.text.replace(/\.js$/, '.ts'))), typeOnly });
  }
  return edges;
}

const graph = new Map(sourceFiles(path.join(REPO, 'main')).map((f) => [path.relative(REPO, f), importsOf(f)] as const));

/** Every cycle of `edges` (strongly connected components of more than one node, or a node importing itself), each as a path. */
function cycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = stack.splice(stack.indexOf(v));
    if (component.length > 1 || edges.get(v)?.has(v)) found.push(component);
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** `graph` with each file named by `node` (null: left out), and the edges `keep` accepts. */
function project(node: (file: string) => string | null, keep: (e: Edge) => boolean): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const [file, out] of graph) {
    const from = node(file);
    if (from === null) continue;
    const set = edges.get(from) ?? edges.set(from, new Set()).get(from)!;
    for (const e of out) {
      const to = node(e.to);
      if (to !== null && keep(e) && to !== from) set.add(to);
    }
  }
  return edges;
}

/** The part of main/supervisor/ a file is in: its subfolder, or the Supervisor's own files at the top. */
const supervisorPart = (file: string): string | null => {
  const m = /^main\/supervisor\/(?:([^/]+)\/)?[^/]+$/.exec(file.split(path.sep).join('/'));
  return m === null ? null : (m[1] ?? 'supervisor.ts and its files');
};

describe('import cycles in main/', () => {
  it('reads every file of main/ (the graph is not empty)', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get(path.join('main', 'supervisor', 'supervisor.ts'))?.length).toBeGreaterThan(5);
  });

  it('has none among its files through imports that load code', () => {
    // A type-only import is erased when compiled: it orders no loading. Folders are kept in order by the import table.
    const found = cycles(project((f) => f, (e) => !e.typeOnly));
    expect(found.map((c) => [...c, c[0]].join(' → '))).toEqual([]);
  });

  it('has none among the parts of main/supervisor/, types included', () => {
    const found = cycles(project(supervisorPart, () => true));
    expect(found.map((c) => c.join(' ⇄ '))).toEqual([]);
  });
});
