// Command templates of the shell and custom profiles (DESIGN.md §5): a command line such as
// `my-agent --session {id} {prompt}` split into words like a POSIX shell would (quotes and
// backslashes, no expansion), then `{prompt}` and `{id}` replaced inside each word. The result is
// an argv, never given to a shell, so a prompt cannot inject commands. Pure.
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
