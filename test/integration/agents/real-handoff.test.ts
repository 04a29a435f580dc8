// Hand-off at a usage limit and back at its reset (DESIGN.md §5, "Hand-off to another agent") with
// the real CLIs under a real `mori up` (tmux), each against its loopback stand-in: the real Claude
// Code, policy `onUsageLimit: handoff:codex`, meets its limit (the Messages API stand-in's 429 with a
// reset on the next whole minute, 30–90 s ahead); the real Codex CLI takes the session, its first request carrying the
// task, next steps and files touched from session_state.md, and its turn writes a file and a work-log
// entry (a tool call the Responses API stand-in scripts). At the reset Codex is ended and Claude resumes
// by its own id (`--resume <id>` in its argv), its request holding its earlier turns and naming what
// Codex did. Nothing typed into either; one SESSION RESUMED per move. The CLIs come from
// test/support/agent-clis/install.sh; either absent → skipped. Its twin with the fake agent:
// test/integration/supervisor/resume/hand-back.test.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codexEnv, installedCli, screen, sessionJson } from '../../support/agent-clis/real-agents.js';
import { DEADLINE_MS, hasEvent, UpHarness } from '../../support/mori-up.js';
import { endHarness } from '../../support/real-limit-round-trip.js';
import { bodyText } from '../../support/stand-ins/loopback-server.js';
import { responseTurns, startResponsesApi, type LimitableStandIn } from '../../support/stand-ins/responses-api.js';
import { MessagesApiStandIn, messageTexts } from '../../../testkit/messages-api.js';
import { CLAUDE_CODE_PACKAGE, claudeEnv, claudeGatewayToken, claudePid, installedAgentCli, seedClaudeConfig } from '../../../testkit/real-claude.js';
import { until } from '../../../testkit/until.js';

const claudeBin = installedAgentCli(CLAUDE_CODE_PACKAGE, 'claude');
const codex = installedCli('@openai/codex', '0.171.0', 'codex');
const skip = claudeBin === null ? `run test/support/agent-clis/install.sh ${CLAUDE_CODE_PACKAGE}` : 'skip' in codex ? codex.skip : null;

const NAME = 's';
/** Words only the task, the next step and the file touched hold: a request carrying one carries that section. */
const TASK = 'write the pelican parser';
const NEXT = 'handle escaped quotes in the heron lexer';
const TOUCHED = 'src/lexer.ts';
const STATE = `# Session State\n\n## Current Task\n- ${TASK}\n- Files touched: ${TOUCHED}\n\n## Next Steps\n1. ${NEXT}\n`;
/** The message typed while the API refuses: the turn that meets the limit. */
const SECOND = 'now add the osprey tokens';
/** Codex's work in its turn: a file and an entry of its own in the work log. */
const CODEX_FILE = 'src/parser.ts';
const CODEX_ENTRY = 'wrote the parser with codex';
/** The start of the profiles' nudge (agents/first-prompt.ts): never typed here. */
const NUDGE = 'You were interrupted';
const REPLY = 'stand-in reply';
/**
 * The reset at least this far ahead of the refused message (then on the next whole minute, as Claude
 * Code words it: "resets 8:31am"): Claude's limit seen, Codex started and its turn done before it on a
 * busy machine.
 */
const RESET_LEAD_MS = 30_000;
const MINUTE_MS = 60_000;
/** A CLI's start and first answer on a busy 2-core machine. */
const CLI_START_MS = DEADLINE_MS * 2;
/** After the last request, time for one typed twice or sent again to show up at a stand-in. */
const SETTLED_MS = 5_000;

let h: UpHarness | null = null;
let messages: MessagesApiStandIn | null = null;
let responses: LimitableStandIn | null = null;
afterEach(async () => {
  await endHarness(h);
  h = null;
  await messages?.stop();
  messages = null;
  await responses?.close();
  responses = null;
});

const count = (text: string, needle: string): number => text.split(needle).length - 1;
/** The text of each Messages turn (Claude's main loop), oldest first. */
const claudeTurns = (a: MessagesApiStandIn): { text: string; at: number }[] => a.turns().map((r) => ({ text: messageTexts(r.body).map((m) => m.text).join('\n'), at: r.at }));

/** Codex's tool call: the file and a dated work-log entry, as an agent keeps its log. */
function codexWork(): string {
  const log = path.join('.mori', NAME, 'work_log.md');
  return `mkdir -p src && printf 'export const parse = 2;\\n' > ${CODEX_FILE} && printf '\\n## %s\\n- ${CODEX_ENTRY}\\n' "$(date '+%Y-%m-%d %H:%M')" >> ${log}`;
}

describe.skipIf(skip !== null)(`claude handed to codex at its usage limit and back at the reset${skip !== null ? ` (skipped: ${skip})` : ''}`, () => {
  it('codex starts with the task, next steps and files touched; at the reset claude resumes by its own id, told what codex did', async () => {
    const a = (messages = await MessagesApiStandIn.start({ defaultText: `${REPLY}.` }));
    const r = (responses = await startResponsesApi(0, { after: 0, calls: [{ name: 'exec_command', arguments: { cmd: codexWork() } }] }));
    const harness = (h = new UpHarness('real-handoff'));
    Object.assign(harness.env, claudeEnv(claudeBin as string, a.url, path.join(harness.tmp, 'user-home')), {
      // The 429 is worded as a plan limit only for a gateway token (an API key gets "Request rejected (429)").
      ANTHROPIC_API_KEY: undefined,
      ANTHROPIC_AUTH_TOKEN: claudeGatewayToken(),
    });
    Object.assign(harness.env, codexEnv(r, harness.tmp, harness.project), { MORI_AGENT_BIN_CODEX: (codex as { bin: string }).bin, MORI_LIMIT_JITTER_MS: '0' });
    // Codex's sandbox helper (codex-linux-sandbox under bwrap) is not on this install's PATH: its command runs unsandboxed.
    const codexConfig = path.join(harness.tmp, 'codex-home', 'config.toml');
    writeFileSync(codexConfig, readFileSync(codexConfig, 'utf8').replace('sandbox_mode = "workspace-write"', 'sandbox_mode = "danger-full-access"'));
    seedClaudeConfig(String(harness.env['CLAUDE_CONFIG_DIR']), harness.project);
    const init = harness.mori('init', harness.project, '--name', NAME, '--agent', 'claude', '--backend', 'tmux', '--task', TASK);
    expect(init.code, init.stderr).toBe(0);
    writeFileSync(path.join(harness.stateDir(NAME), 'session_state.md'), STATE);
    expect(harness.mori('set', NAME, 'onUsageLimit=handoff:codex').code).toBe(0);

    const u = harness.up();
    const log = (): string => {
      try {
        return harness.workLog(NAME);
      } catch {
        return '';
      }
    };
    const why = (): string => `${u.stderr()}\n--- screen ---\n${screen(harness, sessionJson(harness, NAME).id)}\n--- work log ---\n${log()}`;
    mkdirSync(path.join(harness.project, 'src'));
    await until('claude answered the task', () => claudeTurns(a).some((t) => t.text.includes(TASK)), why, CLI_START_MS);
    await until('claude at its prompt after the answer', () => hasEvent(u, 'session.activity', { to: 'waiting' }) && sessionJson(harness, NAME).agent.sessionId !== null, why, CLI_START_MS);
    const claudeId = sessionJson(harness, NAME).agent.sessionId as string;

    // Claude's own work before its limit: the file it touched (not codex's to tell back).
    writeFileSync(path.join(harness.project, TOUCHED), 'export const lex = 1;\n');
    // Its limit, the reset 30–90 s ahead on a whole minute.
    const resetMs = Math.ceil((Date.now() + RESET_LEAD_MS) / MINUTE_MS) * MINUTE_MS;
    a.limitUntil(resetMs);
    const sentAt = Date.now();
    expect(harness.mori('send', NAME, SECOND).code).toBe(0);
    await until('codex took the session', () => responseTurns(r).length >= 1, why, CLI_START_MS);
    const handedAt = Date.now();
    expect(handedAt, 'the hand-off came after the reset: RESET_LEAD_MS is too short for this machine').toBeLessThan(resetMs);
    // Claude is ended: the API may answer it again, and it sends nothing until Mori brings it back.
    a.limitUntil(null);
    const claudeTurnsAtHandoff = claudeTurns(a).length;
    expect(sessionJson(harness, NAME).agent.profile).toBe('codex');

    // Codex's first request: the hand-off's words, the task, the next steps and the files touched.
    const first = bodyText(responseTurns(r)[0]!.body);
    expect(first).toContain('Mori handed this session to you (Codex CLI): Claude Code worked on it before you');
    expect(first).toContain(`- ${TASK}`);
    expect(first).toContain(`1. ${NEXT}`);
    expect(first).toMatch(/Files in progress[^]*- src\/lexer\.ts/);
    expect(first).not.toContain(NUDGE);

    // Codex's turn: its tool call wrote the file and its entry, and it answered.
    await until('codex did its work', () => log().includes(CODEX_ENTRY) && responseTurns(r).length >= 2, why, CLI_START_MS);
    expect(readFileSync(path.join(harness.project, CODEX_FILE), 'utf8')).toContain('parse');

    // At the reset: claude back by its own id, with its conversation and what codex did.
    const resumedAt = (): { text: string; at: number } | undefined => claudeTurns(a).slice(claudeTurnsAtHandoff).find((t) => t.text.includes('Mori handed this session back to you'));
    await until('claude resumed at the reset', () => resumedAt() !== undefined, why, resetMs - Date.now() + CLI_START_MS);
    const back = resumedAt()!;
    expect(back.at).toBeGreaterThanOrEqual(resetMs);
    const pid = claudePid(String(harness.env['CLAUDE_CONFIG_DIR']), claudeId);
    expect(pid, 'the resumed claude runs its own conversation id').not.toBeNull();
    const argv = readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').split('\0');
    expect(argv[argv.indexOf('--resume') + 1]).toBe(claudeId);
    // Its earlier turns: the task, its answer, the refused message.
    expect(back.text).toContain(TASK);
    expect(back.text).toContain(REPLY);
    expect(back.text).toContain(SECOND);
    // What codex did since the hand-off, and only that.
    const files = back.text.indexOf('Files changed since the hand-off:');
    const did = back.text.slice(back.text.indexOf("Codex CLI's work log entries since the hand-off:"), back.text.indexOf('\n\n', files));
    expect(did).toContain(CODEX_ENTRY);
    expect(did).toMatch(/Files changed since the hand-off:\n- src\/parser\.ts \(added\)/);
    expect(did).not.toContain(TOUCHED);
    expect(count(back.text, 'Mori handed this session back to you')).toBe(1);

    // Nothing typed twice: one resumed turn of claude's, none of codex's since, no nudge anywhere.
    const codexTurns = responseTurns(r).length;
    await until('the hand-back logged', () => /SESSION HANDED BACK/.test(log()) && count(log(), '- SESSION RESUMED') === 2, why, DEADLINE_MS);
    await new Promise((resolve) => setTimeout(resolve, SETTLED_MS));
    const after = claudeTurns(a).slice(claudeTurnsAtHandoff);
    expect(after.map((t) => t.at >= resetMs)).toEqual([true]);
    expect(responseTurns(r)).toHaveLength(codexTurns);
    expect(claudeTurns(a).some((t) => t.text.includes(NUDGE))).toBe(false);
    expect(responseTurns(r).some((t) => bodyText(t.body).includes(NUDGE))).toBe(false);
    for (const t of responseTurns(r)) expect(count(bodyText(t.body), 'Mori handed this session to you')).toBe(1);

    // One entry per move, each move's launch one SESSION RESUMED.
    const text = log();
    expect(count(text, '- SESSION HANDED OFF - claude → codex (usage limit reached, resets ')).toBe(1);
    expect(count(text, "- SESSION HANDED BACK - codex → claude (claude's usage limit reset)")).toBe(1);
    expect(count(text, '- SESSION RESUMED')).toBe(2);
    expect(text).toMatch(/SESSION HANDED OFF[^\n]*\n(?:\n## [^\n]*\n)?- SESSION RESUMED - after usage limit[^\n]*; agent started fresh with the resume prompt/);
    expect(text).toMatch(new RegExp(`SESSION HANDED BACK[^\\n]*\\n(?:\\n## [^\\n]*\\n)?- SESSION RESUMED - after usage limit[^\\n]*relaunched with its resume command \\(session ${claudeId}\\)`));
    expect(text).not.toMatch(/SESSION (CRASHED|RESTARTED)/);
    expect(u.lines().filter((e) => e['type'] === 'session.handedOff').map((e) => `${String(e['from'])}→${String(e['to'])}`)).toEqual(['claude→codex', 'codex→claude']);
    expect(sessionJson(harness, NAME).agent).toMatchObject({ profile: 'claude', sessionId: claudeId });
    console.log(`hand-off: codex's first request ${((handedAt - sentAt) / 1000).toFixed(1)} s after the refused message; claude's resumed request ${((back.at - resetMs) / 1000).toFixed(1)} s after the reset`);
  }, 200_000);
});
