// Reads a state dir's environment.md and session_state.md and derives its checks (derive-checks.ts).
// A missing file gives no checks (with a note); an unreadable one is an error naming the file.
// Runs in the supervisor and the CLI.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DerivedChecks } from '../../common/checks.js';
import { fail, ok, type Result } from '../../common/result.js';
import { parseEnvironment } from '../state/environment-file.js';
import { MarkdownDoc } from '../state/markdown-doc.js';
import { parseSessionState, SESSION_STATE_HEADINGS, splitFileList } from '../state/session-state.js';
import { deriveChecks, ENVIRONMENT_FILE, SESSION_STATE_FILE, type TouchedFile } from './derive-checks.js';

export interface LoadedChecks extends DerivedChecks {
  /** Files that were absent, said plainly (`environment.md: no such file; no checks from it`). */
  notes: string[];
}

export function loadChecks(stateDir: string): Result<LoadedChecks> {
  const notes: string[] = [];
  const env = readDoc(path.join(stateDir, ENVIRONMENT_FILE));
  if (!env.ok) return env;
  const state = readDoc(path.join(stateDir, SESSION_STATE_FILE));
  if (!state.ok) return state;
  if (env.value === null) notes.push(`${ENVIRONMENT_FILE}: no such file; no checks from it`);
  if (state.value === null) notes.push(`${SESSION_STATE_FILE}: no such file; no file checks from it`);
  const environment = env.value ? parseEnvironment(env.value) : { setup: [], services: [], checks: [] };
  const touched = state.value ? touchedFiles(state.value) : [];
  return ok({ ...deriveChecks(environment, touched), notes });
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
    return ok(new MarkdownDoc(readFileSync(file)));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return ok(null);
    return fail('unreadable', `${file}: cannot be read (${code ?? (err as Error).message})`);
  }
}
