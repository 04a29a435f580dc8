// A long Claude Code conversation written as the CLI writes its transcript (one JSON line per user
// message and per assistant reply, each chained to the one before by `parentUuid`, the last prompt
// and leaf named at the end), so `claude --resume <id>` loads it as one it recorded itself. The
// lines carry the fields the CLI's own lines carry (the recorded usage fixtures show them); the text
// is generated, deterministic, and long enough to reach the tokens asked for. Runs in a bench's process.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Conversation {
  /** Where the transcript goes (testkit/real-claude.ts's claudeTranscript). */
  file: string;
  sessionId: string;
  cwd: string;
  /** The CLI version written on each line, as the CLI writes its own. */
  version: string;
  /** Tokens of text to write, counted as the stand-in counts them (characters / 4). */
  tokens: number;
}

/** A word in every reply no fresh start can carry: the resumed request holds it only if it holds the conversation. */
export const CONVERSATION_MARK = 'TURNMARK';

const WORDS = [
  'parser', 'stream', 'chunk', 'quote', 'field', 'row', 'buffer', 'offset', 'escape', 'delimiter', 'header',
  'test', 'fixture', 'error', 'line', 'column', 'encoding', 'newline', 'state', 'token', 'yield', 'async',
  'iterator', 'benchmark', 'memory', 'allocation', 'slice', 'boundary', 'carriage', 'return', 'trailing',
];

/** Deterministic filler prose of about `chars` characters, seeded by `seed`. */
function prose(seed: number, chars: number): string {
  // Knuth's multiplicative hash spreads the seeds; the C library's LCG constants draw the words.
  let x = seed * 2_654_435_761 >>> 0;
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    const sentence: string[] = [];
    // Eight to sixteen words a sentence: prose, not a word list.
    const n = 8 + (x % 9);
    for (let i = 0; i < n; i++) {
      x = (x * 1_103_515_245 + 12_345) >>> 0;
      sentence.push(WORDS[x % WORDS.length] ?? 'parser');
    }
    const text = `${sentence.join(' ')}.`;
    out.push(text.charAt(0).toUpperCase() + text.slice(1));
    length += text.length + 1;
  }
  return out.join(' ');
}

/**
 * Writes the transcript: turns of a person's question (~1 KB) and a long answer (~5 KB) until the
 * text holds `tokens` tokens. Returns the number of turns written.
 */
export function writeClaudeConversation(c: Conversation): number {
  // A question and its answer: a few lines asked, a few screens answered, as in a long coding session.
  const [askChars, answerChars] = [1_000, 5_000];
  const turns = Math.ceil((c.tokens * 4) / (askChars + answerChars));
  const base = { isSidechain: false, userType: 'external', entrypoint: 'cli', cwd: c.cwd, sessionId: c.sessionId, version: c.version, gitBranch: 'main' };
  // A turn a minute, its answer 20 s after its question, ending now.
  const start = Date.now() - turns * 60_000;
  const lines: string[] = [];
  let parent: string | null = null;
  let lastPrompt = '';
  let context = 0;
  for (let i = 0; i < turns; i++) {
    const at = (k: number): string => new Date(start + i * 60_000 + k * 20_000).toISOString();
    lastPrompt = `Step ${i + 1}: look at src/csv/part-${i}.ts again. ${prose(2 * i + 1, askChars)}`;
    const [userUuid, assistantUuid] = [randomUUID(), randomUUID()];
    const user = { parentUuid: parent, ...base, type: 'user', message: { role: 'user', content: lastPrompt }, uuid: userUuid, timestamp: at(0) };
    const answer = `${CONVERSATION_MARK}-${i} Done with part ${i}. ${prose(2 * i + 2, answerChars)}`;
    context += Math.ceil((lastPrompt.length + answer.length) / 4);
    const assistant = {
      parentUuid: userUuid,
      ...base,
      message: {
        id: `msg_recorded_${i}`, type: 'message', role: 'assistant', model: 'claude-opus-5-5',
        content: [{ type: 'text', text: answer }], stop_reason: 'end_turn', stop_sequence: null,
        usage: { input_tokens: 3, cache_creation_input_tokens: Math.ceil(answer.length / 4), cache_read_input_tokens: context, output_tokens: Math.ceil(answer.length / 4) },
      },
      requestId: `req_recorded_${i}`,
      type: 'assistant',
      uuid: assistantUuid,
      timestamp: at(1),
    };
    lines.push(JSON.stringify(user), JSON.stringify(assistant));
    parent = assistantUuid;
  }
  lines.push(JSON.stringify({ type: 'last-prompt', lastPrompt, leafUuid: parent, sessionId: c.sessionId }));
  mkdirSync(path.dirname(c.file), { recursive: true });
  writeFileSync(c.file, `${lines.join('\n')}\n`);
  return turns;
}
