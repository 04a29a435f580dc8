// How every `mori` command reports: `--json` prints one JSON document on stdout (errors as
// { ok: false, code, message }); otherwise text on stdout and errors as `mori: …` on stderr.
// Exit codes per DESIGN.md §9. Text goes out through `visibleLines`: a session's name, task, state
// file lines or paths quoted in it cannot drive the person's terminal (fields a person approves are
// shown exactly, by `visibleText`, where the text is made). Runs in the CLI process.
import { exitCodeFor, type Failure } from '../../common/result.js';
import { visibleLines } from '../../common/visible-text.js';

export interface OutputOptions {
  json?: boolean;
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** Reports a failure and sets the exit code; the command then returns. */
export function reportFailure(f: Failure, opts: OutputOptions): void {
  if (opts.json) printJson(f);
  else process.stderr.write(`mori: ${visibleLines(f.message)}\n`);
  process.exitCode = exitCodeFor(f.code);
}

/** Prints a success: the JSON value with --json, else the text (made only then, when given as a function). */
export function reportSuccess(value: unknown, text: string | (() => string), opts: OutputOptions): void {
  if (opts.json) return printJson(value);
  const said = visibleLines(typeof text === 'function' ? text() : text);
  if (said.length > 0) process.stdout.write(said.endsWith('\n') ? said : said + '\n');
}
