// Command templates of the shell and custom profiles (DESIGN.md §5): a command line such as
// `my-agent --session {id} {prompt}` split into words like a POSIX shell would (quotes and
// backslashes, no expansion), then `{prompt}` and `{id}` replaced inside each word. The result is
// an argv, never given to a shell by Mori. A template may itself run a shell (`sh -c '…'`): there a
// placeholder inside script text would become code, so checkTemplatePlaceholders refuses any
// placeholder that shares its word with text a shell could read. Pure.
import { fail, ok, type Result } from '../../common/result.js';
import { promptArgument } from './typing.js';

/** Splits a command line into words: '…' is literal, "…" honours \" \\ \$ \`, a bare \ escapes one char. */
export function splitCommandLine(line: string): Result<string[]> {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return fail('usage', `unterminated ' in command: ${line}`);
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      for (;;) {
        if (i >= line.length) return fail('usage', `unterminated " in command: ${line}`);
        const d = line[i] as string;
        if (d === '"') break;
        if (d === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1] as string)) {
          word += line[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      inWord = true;
      i++;
    } else if (c === '\\') {
      if (i + 1 >= line.length) return fail('usage', `trailing \\ in command: ${line}`);
      word += line[i + 1];
      inWord = true;
      i += 2;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return ok(words);
}

export interface TemplateValues {
  prompt: string | null;
  id: string | null;
}

/**
 * Expands a template into argv. A word that is exactly `{prompt}` or `{id}` is dropped when its value
 * is null (so `agent {prompt}` starts bare without a prompt); inside a longer word a null value is ''.
 * A word that is exactly `{prompt}` is an argument of its own, so the prompt gets promptArgument's
 * rule (a leading '-' is not read as a flag); inside a longer word (`--message={prompt}`) it needs none.
 */
export function expandTemplate(template: string, values: TemplateValues): Result<{ file: string; args: string[] }> {
  const split = splitCommandLine(template);
  if (!split.ok) return split;
  const argv: string[] = [];
  for (const word of split.value) {
    if (word === '{prompt}' && values.prompt === null) continue;
    if (word === '{id}' && values.id === null) continue;
    if (word === '{prompt}' && values.prompt !== null) {
      argv.push(promptArgument(values.prompt));
      continue;
    }
    argv.push(word.replace(/\{(prompt|id)\}/g, (_m, key: string) => (key === 'prompt' ? values.prompt : values.id) ?? ''));
  }
  const [file, ...args] = argv;
  if (file === undefined || file === '') return fail('usage', 'the command template is empty');
  return ok({ file, args });
}

/** Whether the template asks for the agent session id, so Mori can pre-assign one. */
export const templateUsesId = (template: string): boolean => template.includes('{id}');

/** Programs that read an argument as shell code (`sh -c SCRIPT`); a template running one hands its words to a shell. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'fish', 'csh', 'tcsh', 'busybox', 'pwsh']);
/** Programs that run the rest of their words as a command: the shell may come after them (`env X=1 sh -c …`). */
const WRAPPERS = new Set(['env', 'exec', 'command', 'nohup', 'setsid', 'nice', 'time', 'stdbuf', 'timeout']);
/** What may share a word with a placeholder (`--session={id}`, `-m{prompt}`): nothing a shell or a word splitter reads. */
const PLAIN_AROUND_PLACEHOLDER = /^[A-Za-z0-9_./:=@%+,-]*$/;
const PLACEHOLDER = /\{(prompt|id)\}/g;

/** Whether the template's program (past `env`, `nohup` and the like, and their options) is a shell. */
function runsShell(words: readonly string[]): boolean {
  for (const word of words) {
    const base = word.slice(word.lastIndexOf('/') + 1);
    if (SHELLS.has(base)) return true;
    // A wrapper, its options, a variable assignment or a wrapper's number (`nice -n 5`, `timeout 60`): look on.
    if (WRAPPERS.has(base) || word.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || /^[0-9.]+[smhd]?$/.test(word)) continue;
    return false;
  }
  return false;
}

/**
 * Refuses a template where `{prompt}` or `{id}` is part of a larger word that a shell could read as
 * code: any word of a template that runs a shell (`sh -c 'agent --resume {id}'`), and any word with
 * spaces, quotes or shell metacharacters around the placeholder. A placeholder that is a whole word
 * (`sh -c 'agent --resume "$1"' sh {id}`) reaches the program as one argument, and is allowed.
 */
export function checkTemplatePlaceholders(template: string): Result<void> {
  const split = splitCommandLine(template);
  if (!split.ok) return split;
  const shell = runsShell(split.value);
  for (const word of split.value) {
    if (word === '{prompt}' || word === '{id}') continue;
    const placeholders = word.match(PLACEHOLDER);
    if (placeholders === null) continue;
    const around = word.replace(PLACEHOLDER, '');
    if (!shell && PLAIN_AROUND_PLACEHOLDER.test(around)) continue;
    const why = shell ? 'the command runs a shell, which would read the value as code' : 'the text around it could be read by a shell as code';
    return fail(
      'usage',
      `${placeholders[0]} is inside the word ${JSON.stringify(word)} of the command ${JSON.stringify(template)}: ${why}. Make the placeholder a word of its own, e.g. sh -c 'agent --resume "$1"' sh ${placeholders[0]}`,
    );
  }
  return ok(undefined);
}
