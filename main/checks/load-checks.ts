// Reads a state dir's environment.md and session_state.md and derives its checks (derive-checks.ts).
// A missing file gives no checks (with a note), as does what lies past the part of a very large one
// that is parsed (markdown-doc.ts); an unreadable one is an error naming the file.
// Runs in the supervisor and the CLI.
import path from 'node:path';
import type { DerivedChecks } from '../../common/checks.js';
import { fail, ok, type Result } from '../../common/result.js';
import { ENVIRONMENT_HEADINGS, type EnvironmentFile, type EnvironmentLine } from '../state/environment-file.js';
import { MARKDOWN_PARSE_MAX_BYTES, MarkdownDoc, type Section } from '../state/markdown-doc.js';
import { parseSessionState, SESSION_STATE_HEADINGS, splitFileList } from '../state/session-state.js';
import { deriveChecks, type TouchedFile } from './derive-checks.js';
import { readRegularFileSync } from '../state/state-file-guard.js';
import { ENVIRONMENT, SESSION_STATE } from '../../common/state-files.js';

export interface LoadedChecks extends DerivedChecks {
  /** Files that were absent, said plainly (`environment.md: no such file; no checks from it`). */
  notes: string[];
}

export function loadChecks(stateDir: string): Result<LoadedChecks> {
  const notes: string[] = [];
  const env = readDoc(path.join(stateDir, ENVIRONMENT));
  if (!env.ok) return env;
  const state = readDoc(path.join(stateDir, SESSION_STATE));
  if (!state.ok) return state;
  if (env.value === null) notes.push(`${ENVIRONMENT}: no such file; no checks from it`);
  if (state.value === null) notes.push(`${SESSION_STATE}: no such file; no file checks from it`);
  for (const [name, doc] of [[ENVIRONMENT, env.value], [SESSION_STATE, state.value]] as const) {
    if (doc?.truncated) notes.push(`${name}: ${doc.bytes.length.toLocaleString('en-US')} bytes; only its first ${MARKDOWN_PARSE_MAX_BYTES.toLocaleString('en-US')} are read`);
  }
  const environment = env.value ? environmentLines(env.value) : { setup: [], services: [], checks: [] };
  const touched = state.value ? touchedFiles(state.value) : [];
  return ok({ ...deriveChecks(environment, touched), notes });
}

/**
 * The setup, services and checks lines of environment.md. A section whose heading is a synonym but
 * which holds the others (a `# Environment` title over `## Setup` …) contributes only the lines
 * before its first such subsection, so no line is read twice.
 */
export function environmentLines(doc: MarkdownDoc): EnvironmentFile {
  const all = [...ENVIRONMENT_HEADINGS.setup, ...ENVIRONMENT_HEADINGS.services, ...ENVIRONMENT_HEADINGS.checks];
  const matched = doc.findAll(all);
  const own = (s: Section): Section => {
    const inner = matched.find((o) => o !== s && o.headingLine >= s.bodyStart && o.headingLine < s.bodyEnd);
    return inner ? { ...s, bodyEnd: inner.headingLine } : s;
  };
  const lines = (names: readonly string[]): EnvironmentLine[] =>
    doc.findAll(names).flatMap((s) => doc.items(own(s)).map((i) => ({ text: i.text, line: i.line + 1 })));
  return { setup: lines(ENVIRONMENT_HEADINGS.setup), services: lines(ENVIRONMENT_HEADINGS.services), checks: lines(ENVIRONMENT_HEADINGS.checks) };
}

/** "Files touched" paths of session_state.md with the line each is on. */
export function touchedFiles(doc: MarkdownDoc): TouchedFile[] {
  const wanted = new Set(parseSessionState(doc).filesTouched);
  const out: TouchedFile[] = [];
  for (const section of doc.findAll(SESSION_STATE_HEADINGS.currentTask)) {
    for (const item of doc.items(section)) {
      const m = /^[^:]*\bfiles?\b[^:]*:\s*(.*)$/i.exec(item.text);
      if (!m) continue;
      for (const f of splitFileList(m[1] ?? '')) {
        if (wanted.has(f) && !out.some((o) => o.path === f)) out.push({ path: f, line: item.line + 1 });
      }
    }
  }
  return out;
}

function readDoc(file: string): Result<MarkdownDoc | null> {
  try {
    return ok(new MarkdownDoc(readRegularFileSync(file)));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return ok(null);
    return fail('unreadable', `${file}: cannot be read (${code ?? (err as Error).message})`);
  }
}
