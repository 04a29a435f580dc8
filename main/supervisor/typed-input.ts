// How text reaches an agent: the one path every typed input takes (the nudge after an interruption,
// `mori send`, the first prompt typed into agents that take none on argv). Today it writes the text
// and Enter; the typing rules and the submission check of prompt-delivery.ts take its place here, and
// every caller follows. Runs in the supervisor's process.
import type { Terminal } from '../terminals/terminal.js';

export type TypedInputOutcome = { kind: 'submitted' } | { kind: 'not-submitted'; why: string };

/** What a typed input is for, for the work log when it does not get through. */
export type TypedInputPurpose = 'nudge' | 'send' | 'first prompt';

export async function typeInto(terminal: Terminal, text: string, enter: boolean): Promise<TypedInputOutcome> {
  if (terminal.exit !== null) return { kind: 'not-submitted', why: 'the agent has exited' };
  terminal.write(enter ? `${text}\r` : text);
  return { kind: 'submitted' };
}
