// Back or stay at a usage limit's reset (DESIGN.md §5, "Hand-off to another agent") under a real
// `mori up`, the fake agent behind both the claude and the codex profiles. `handoff:codex`: claude
// meets its limit (its epoch form, a reset seconds ahead), codex takes the session, works (a file, a
// work-log entry), and at the reset codex is ended and claude resumes by its own id, told the entries
// and the files codex changed since the hand-off and nothing of claude's own before it; one SESSION
// RESUMED and one session.handedOff per move, nothing typed. `handoff:codex:stay`: codex keeps it. A
// limit first seen with no reset (a retry banner) is handed over only once its reset is known.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { clockWords } from '../../../../common/session-view.js';
import { DEADLINE_MS, FAKE_AGENT, UpHarness, type Up } from '../../../support/mori-up.js';
import { until } from '../../../../testkit/until.js';

let h: UpHarness | null = null;
afterEach(() => {
  h?.cleanup();
  h = null;
});

const STATE = `# Session State

## Current Task
- write the parser
- Files touched: src/lexer.ts

## Next Steps
1. handle escaped quotes
`;

interface AgentRecord {
  event: string;
  sessionId: string | null;
  resumeId: string | null;
  prompt: string | null;
  at?: number;
}

/** Both profiles run the fake agent; codex's home is the test's, so no real rollout is read. The jitter after a reset: a second. */
function harness(prefix: string): UpHarness {
  const made = new UpHarness(prefix, { MORI_AGENT_BIN_CODEX: FAKE_AGENT, MORI_LIMIT_JITTER_MS: '1000' });
  made.env['CODEX_HOME'] = path.join(made.tmp, 'codex');
  mkdirSync(made.env['CODEX_HOME'], { recursive: true });
  return made;
}

const records = (u: UpHarness): AgentRecord[] =>
  (existsSync(u.record) ? readFileSync(u.record, 'utf8') : '')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AgentRecord);
const starts = (u: UpHarness): AgentRecord[] => records(u).filter((r) => r.event === 'start');

const sessionJson = (u: UpHarness, name: string) =>
  JSON.parse(readFileSync(path.join(u.stateDir(name), 'session.json'), 'utf8')) as { agent: { profile: string; sessionId: string | null; previousIds: string[] }; handedOver: { until: number } | null };

const count = (text: string, needle: RegExp): number => text.match(needle)?.length ?? 0;
const events = (u: Up, type: string) => u.lines().filter((e) => e['type'] === type);

/** An entry as an agent appends one to its work log. */
function agentLogs(u: UpHarness, name: string, line: string): void {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  appendFileSync(path.join(u.stateDir(name), 'work_log.md'), `\n## ${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}\n- ${line}\n`);
}

/** A session of claude with the policy, running under `mori up`, its limit met `resetInSec` ahead: returns the up, claude's id and the reset. */
async function handedToCodex(name: string, policy: string, resetInSec: number): Promise<{ u: Up; claudeId: string; resetMs: number }> {
  const hh = h!;
  hh.init(name, 'direct');
  writeFileSync(path.join(hh.stateDir(name), 'session_state.md'), STATE);
  expect(hh.mori('set', name, `onUsageLimit=${policy}`).code).toBe(0);
  const u = hh.up([name]);
  await until('the claude agent', () => starts(hh).length === 1 && sessionJson(hh, name).agent.sessionId !== null, () => u.stderr() + hh.workLog(name), DEADLINE_MS);
  const claudeId = sessionJson(hh, name).agent.sessionId!;
  // Claude's own work before its limit: neither its file nor its entry is told back to it as codex's.
  mkdirSync(path.join(hh.project, 'src'), { recursive: true });
  writeFileSync(path.join(hh.project, 'src', 'lexer.ts'), 'export const lex = 1;\n');
  agentLogs(hh, name, 'wrote the lexer');
  const resetSec = Math.ceil(Date.now() / 1000) + resetInSec;
  expect(hh.mori('send', name, `limit:Claude AI usage limit reached|${resetSec}`).code).toBe(0);
  await until('the codex agent', () => starts(hh).length === 2, () => u.stderr() + hh.workLog(name), DEADLINE_MS);
  return { u, claudeId, resetMs: resetSec * 1000 };
}

it('handoff:codex goes back at the reset: codex ended, claude resumed by its own id and told what codex did since the hand-off', { timeout: 120_000 }, async () => {
  h = harness('hand-back');
  const { u, claudeId, resetMs } = await handedToCodex('hb', 'handoff:codex', 15);
  const codex = starts(h)[1]!;
  expect(codex.resumeId).toBeNull();
  expect(codex.prompt).toContain('Claude Code worked on it before you');
  const handed = sessionJson(h, 'hb');
  expect(handed.agent.profile).toBe('codex');
  expect(handed.handedOver?.until).toBeGreaterThanOrEqual(resetMs);
  // The words say whom codex stands in for, and until when.
  const words = `codex (for claude until ${clockWords(handed.handedOver!.until)})`;
  expect(h.mori('ls').stdout).toContain(`${words}/direct`);
  expect(h.mori('status', 'hb').stdout).toContain(words);

  // Codex works: a file and a work-log entry of its own.
  writeFileSync(path.join(h.project, 'src', 'parser.ts'), 'export const parse = 2;\n');
  agentLogs(h, 'hb', 'wrote the parser with codex');

  await until('claude back', () => starts(h!).length === 3, () => u.stderr() + h!.workLog('hb'), 40_000);
  const back = starts(h)[2]!;
  expect(back.at ?? 0).toBeGreaterThanOrEqual(resetMs);
  // By its own id, with a prompt naming what codex did, and only that.
  expect(back.resumeId).toBe(claudeId);
  const prompt = back.prompt ?? '';
  expect(prompt).toContain('Mori handed this session back to you (Claude Code): your usage limit reset.');
  const did = prompt.slice(prompt.indexOf("Codex CLI's work log entries since the hand-off:"), prompt.indexOf('\n\n', prompt.indexOf('Files changed since the hand-off:')));
  expect(did).toContain('wrote the parser with codex');
  expect(did).toContain('Files changed since the hand-off:\n- src/parser.ts (added)');
  expect(did).not.toContain('wrote the lexer');
  expect(did).not.toContain('src/lexer.ts');
  expect(did).not.toContain('SESSION');

  await until('the hand-back logged', () => /SESSION HANDED BACK/.test(h!.workLog('hb')) && count(h!.workLog('hb'), /- SESSION RESUMED/g) === 2, () => h!.workLog('hb'), DEADLINE_MS);
  const log = h.workLog('hb');
  expect(count(log, /- SESSION HANDED OFF - claude → codex \(usage limit reached, resets /g)).toBe(1);
  expect(count(log, /- SESSION HANDED BACK - codex → claude \(claude's usage limit reset\)/g)).toBe(1);
  // One SESSION RESUMED per move: codex fresh with the resume prompt, then claude by id.
  expect(log).toMatch(/SESSION HANDED OFF[^\n]*\n(?:\n## [^\n]*\n)?- SESSION RESUMED - after usage limit[^\n]*; agent started fresh with the resume prompt/);
  expect(log).toMatch(new RegExp(`SESSION HANDED BACK[^\\n]*\\n(?:\\n## [^\\n]*\\n)?- SESSION RESUMED - after usage limit[^\\n]*relaunched with its resume command \\(session ${claudeId}\\)`));
  expect(count(log, /- SESSION RESUMED/g)).toBe(2);
  // One notice per move.
  expect(events(u, 'session.handedOff').map((e) => `${String(e['from'])}→${String(e['to'])}`)).toEqual(['claude→codex', 'codex→claude']);

  const after = sessionJson(h, 'hb');
  expect(after.agent.profile).toBe('claude');
  expect(after.agent.sessionId).toBe(claudeId);
  expect(after.agent.previousIds).not.toContain(claudeId);
  expect(after.handedOver).toBeNull();
  expect(h.mori('ls').stdout).toMatch(/hb {2}[^\n]* {2}claude\/direct/);
  // Nothing typed into any agent but the test's own limit line; nothing more started.
  expect(records(h).filter((r) => r.event === 'input').map((r) => (r as { line?: string }).line)).toEqual([expect.stringMatching(/^limit:/)]);
  await new Promise((r) => setTimeout(r, 2_000));
  expect(starts(h)).toHaveLength(3);
});

it('handoff:codex:stay keeps codex past the reset, and says nothing of claude', { timeout: 90_000 }, async () => {
  h = harness('hand-stay');
  const { u, resetMs } = await handedToCodex('st', 'handoff:codex:stay', 3);
  expect(sessionJson(h, 'st').handedOver).toBeNull();
  expect(h.mori('ls').stdout).toMatch(/st {2}[^\n]* {2}codex\/direct/);
  // Past the reset and its jitter, with room: codex still has it.
  await new Promise((r) => setTimeout(r, Math.max(0, resetMs + 4_000 - Date.now())));
  expect(starts(h)).toHaveLength(2);
  expect(sessionJson(h, 'st').agent.profile).toBe('codex');
  const log = h.workLog('st');
  expect(log).not.toMatch(/HANDED BACK/);
  expect(count(log, /- SESSION RESUMED/g)).toBe(1);
  expect(events(u, 'session.handedOff')).toHaveLength(1);
});

it('a limit first seen with no reset is handed over once its reset is known, the way back kept for it', { timeout: 90_000 }, async () => {
  h = harness('hand-wait');
  h.init('w', 'direct');
  writeFileSync(path.join(h.stateDir('w'), 'session_state.md'), STATE);
  expect(h.mori('set', 'w', 'onUsageLimit=handoff:codex').code).toBe(0);
  const u = h.up(['w']);
  await until('the claude agent', () => starts(h!).length === 1 && sessionJson(h!, 'w').agent.sessionId !== null, () => u.stderr() + h!.workLog('w'), DEADLINE_MS);
  // Claude Code's retry banner first: a limit that names no reset yet.
  expect(h.mori('send', 'w', 'limit:5-hour limit reached ∙ retrying…').code).toBe(0);
  await until('limited with no reset', () => /no reset time given/.test(h!.workLog('w')), () => u.stderr() + h!.workLog('w'), DEADLINE_MS);
  await new Promise((r) => setTimeout(r, 2_000));
  expect(starts(h)).toHaveLength(1);
  // Its record then names the reset: handed over now, the way back kept for that reset.
  const resetSec = Math.ceil(Date.now() / 1000) + 30;
  expect(h.mori('send', 'w', `limit:Claude AI usage limit reached|${resetSec}`).code).toBe(0);
  await until('the codex agent', () => starts(h!).length === 2, () => u.stderr() + h!.workLog('w'), DEADLINE_MS);
  const until_ = sessionJson(h, 'w').handedOver?.until ?? 0;
  expect(until_).toBeGreaterThanOrEqual(resetSec * 1000);
  // Within the jitter of a second after it.
  expect(until_).toBeLessThanOrEqual(resetSec * 1000 + 1_000);
  expect(h.workLog('w')).toContain(`- SESSION HANDED OFF - claude → codex (usage limit reached, resets ${clockWords(resetSec * 1000)})`);
  expect(count(h.workLog('w'), /- SESSION HANDED OFF/g)).toBe(1);
  expect(events(u, 'session.handedOff')).toHaveLength(1);
});
