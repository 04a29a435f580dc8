// The soak's real Claude Code's checks on hand-made requests and work logs (soak/real-claude.ts):
// the texts typed into it read from what reached its API, each arrival counted once however often a
// request repeats the conversation; the kills aimed at it drawn from the seed alone; its invariants
// holding on a run that keeps them and failing on one that breaks them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { aimAtReal, newArrivals, RealClaude, typedTexts } from '../../../soak/real-claude.js';
import { schedule } from '../../../soak/schedule.js';

const NUDGE = 'You were interrupted (connection lost or the machine slept). Re-read session_state.md, then continue.';
const user = (...content: unknown[]): unknown => ({ role: 'user', content });
const text = (t: string): unknown => ({ type: 'text', text: t });
const toolResult = { type: 'tool_result', tool_use_id: 't1', content: '1\tnotes' };
const assistant = { role: 'assistant', content: [text('Read the notes again.')] };
const body = (...messages: unknown[]): Record<string, unknown> => ({ messages });

describe('typed texts', () => {
  it('reads the typed texts of a conversation: claude\'s reminders and tool results left out, a mid-turn text unwrapped', () => {
    const midTurn = `The user sent a new message while you were working:\n${NUDGE}\n\nThis is how Claude Code surfaces messages the user sends mid-turn.`;
    const b = body(user(text('<system-reminder>\nAttribution …\n</system-reminder>\n'), text('Task: soak')), assistant, user(toolResult), assistant, user(toolResult, text(midTurn)), assistant, user(text(NUDGE)));
    expect(typedTexts(b)).toEqual(['Task: soak', NUDGE, NUDGE]);
    expect(typedTexts(body({ role: 'user', content: 'plain' }))).toEqual(['plain']);
    expect(typedTexts(null)).toEqual([]);
  });

  it('counts an arrival once: a retry or the next request repeats the conversation, a second copy is a second arrival, another conversation its own', () => {
    const seen = new Map<string, number>();
    expect(newArrivals(seen, 'a', ['Task', NUDGE])).toEqual(['Task', NUDGE]);
    expect(newArrivals(seen, 'a', ['Task', NUDGE])).toEqual([]);
    expect(newArrivals(seen, 'a', ['Task', NUDGE, NUDGE])).toEqual([NUDGE]);
    expect(newArrivals(seen, 'b', ['Fresh', NUDGE])).toEqual(['Fresh', NUDGE]);
  });
});

describe('kills aimed at the real session', () => {
  it('re-aims about one agent kill in sessions + 1 from the seed alone, and leaves the rest of the schedule as drawn', () => {
    const plan = schedule(11, 2_000, 4);
    const aimed = aimAtReal(plan, 11, 4);
    expect(aimAtReal(plan, 11, 4)).toEqual(aimed);
    expect(aimed.map(({ session: _, ...f }) => f)).toEqual(plan.map(({ session: _, ...f }) => f));
    const moved = aimed.filter((f, k) => f.session !== plan[k]!.session);
    expect(moved.every((f) => f.session === 4 && (f.kind === 'kill-agent' || f.kind === 'kill-group'))).toBe(true);
    const kills = plan.filter((f) => f.kind === 'kill-agent' || f.kind === 'kill-group').length;
    // One in five, within a binomial's spread over some 1,300 kills.
    expect(moved.length / kills).toBeGreaterThan(0.15);
    expect(moved.length / kills).toBeLessThan(0.25);
  });
});

describe('its invariants at the end', () => {
  let root: string | null = null;
  afterEach(() => {
    if (root !== null) rmSync(root, { recursive: true, force: true });
    root = null;
  });

  function real(workLog: string, typed: { at: number; line: string }[]): RealClaude {
    root = mkdtempSync(path.join(os.tmpdir(), 'mori-soak-real-unit-'));
    const r = new RealClaude(root, 2, { bin: '/nowhere/claude', exe: '/nowhere/claude.exe' }, '/nowhere/fake-agent.mjs');
    mkdirSync(r.stateDir, { recursive: true });
    writeFileSync(path.join(r.stateDir, 'work_log.md'), workLog);
    r.typed.push(...typed);
    return r;
  }

  const log = (...lines: string[]): string => `# Work log\n\n${lines.map((l) => `## 2026-12-06 10:00\n${l}\n`).join('\n')}`;

  it('holds: each interruption answered, one nudge per interruption, running with its claude alive', () => {
    const r = real(log('- SESSION INTERRUPTED - network lost', '- SESSION RESUMED - network lost; agent still running, error: nudged to continue'), [
      { at: 1_000, line: 'Task: soak' },
      { at: 5_000, line: NUDGE },
      { at: 9_000, line: NUDGE },
    ]);
    expect(r.check([4_000, 8_000], 1, 'running')).toEqual({ interruptions: [], typedTwice: [], stuck: [] });
    expect(r.check([], 0, 'attention')).toEqual(expect.objectContaining({ stuck: [] }));
  });

  it('fails: an interruption never answered, a nudge twice for one interruption, running with no claude', () => {
    const r = real(log('- SESSION INTERRUPTED - agent crashed (signal SIGKILL)'), [
      { at: 5_000, line: NUDGE },
      { at: 6_000, line: NUDGE },
    ]);
    const found = r.check([4_000], 0, 'running');
    expect(found.interruptions).toEqual([expect.stringContaining('never answered')]);
    expect(found.typedTwice).toEqual([expect.stringContaining('typed twice into claude (1000 ms apart)')]);
    expect(found.stuck).toEqual(['real is running but no claude of it is alive']);
  });
});
