// session.json has one writer in the supervisor's process: its SessionStore. Checkpoints, a rollback's
// notice and a verification's results hand their change to it (SessionWrite); no other file of main/
// calls the functions that write the file. The exceptions are each named with why.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

/** The files that may call a writer of session.json, and why each may. */
const ALLOWED: Record<string, string> = {
  'main/supervisor/session/session-store.ts': 'the one writer in the supervisor',
  'main/state/session-file.ts': 'implements the writers',
  'main/state/state-dir.ts': 'creates a state dir, whose first session.json no store holds yet',
  'main/state/session-move.ts': 'renames a session (its folder and its name in session.json), the one implementation the daemon and the CLI both call',
  'main/cli/offline-session-write.ts': '`mori checkpoint`, `mori rollback`, `mori verify` and `mori set` write from their own process, daemon or none (never undoing a write made meanwhile)',
};

/** A call of one of session-file.ts's writers. */
const WRITER_CALL = /\b(?:updateSessionFile|updateSessionFileAsync|writeSessionFile)\s*\(/;
/** A whole-line comment, where a writer's name is prose. */
const COMMENT = /^\s*(?:\/\/|\/?\*)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.(ts|tsx|mjs|js)$/.test(p) ? [p] : [];
  });
}

/** `file:line: text` for each line calling a writer of session.json. */
function writerCalls(file: string): string[] {
  const text = readFileSync(path.join(REPO, file), 'utf8');
  return text.split('\n').flatMap((line, i) => (!COMMENT.test(line) && WRITER_CALL.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('session.json', () => {
  it('is written by the SessionStore, and outside it only by the files named with their reason', () => {
    const files = sourceFiles(path.join(REPO, 'main')).map((f) => path.relative(REPO, f).split(path.sep).join('/'));
    for (const allowed of Object.keys(ALLOWED)) expect(files, allowed).toContain(allowed);
    // The pattern sees the writes it guards.
    expect(writerCalls('main/supervisor/session/session-store.ts').length).toBeGreaterThan(0);
    expect(files.filter((f) => !(f in ALLOWED)).flatMap(writerCalls)).toEqual([]);
  });

  it('the pattern catches the writers and not their names in passing', () => {
    for (const line of ['updateSessionFile(dir, (s) => s)', 'await updateSessionFileAsync(stateDir, change)', 'writeSessionFile (dir, data)']) expect(WRITER_CALL.test(line), line).toBe(true);
    for (const line of ["import { readSessionFile } from './session-file.js'", '// see updateSessionFileAsync', 'readSessionFile(dir)', 'const updateSessionFiles = 1;']) {
      expect(WRITER_CALL.test(line) && !COMMENT.test(line), line).toBe(false);
    }
  });
});
