// `mori report` over a night written to real files: two sessions' work logs (a crash loop left in
// attention; an outage resumed by id with a check gone red, a usage limit resumed fresh with it
// back), three real checkpoints of a git project and its files changed, session_state.md. The real
// CLI reads them, names each in order with its outcome, puts what needs the person first, shows the
// agent's text with its control characters escaped, and keeps the person's last-looked mark.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRepo, initShellSession, moriIn } from '../../../../testkit/mori-cli.js';
import { appendEntry } from '../../../../main/state/work-log.js';
import { updateSessionFile } from '../../../../main/state/session-file.js';
import { writeCheckpoint } from '../../../../main/supervisor/checkpoints/checkpoint.js';
import { offlineCheckpointPorts } from '../../../../main/cli/offline-session-write.js';
import { at, NIGHT, NIGHT_CHECKPOINTS } from '../../../support/fixtures/away-night.js';

let root: string;
let home: string;
/** The night began 10 hours ago, so it ended an hour ago. */
const base = new Date(Date.now() - 10 * 3_600_000);
const stamp = (d: Date): string => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mori-report-'));
  home = path.join(root, 'home');
  for (const name of ['api', 'web'] as const) {
    mkdirSync(path.join(root, name));
    gitRepo(path.join(root, name));
    const stateDir = initShellSession(root, home, name);
    for (const e of NIGHT[name]) appendEntry(stateDir, e.lines, at(e.minutes, base));
    if (name === 'api') expect(updateSessionFile(stateDir, (s) => ({ ...s, intent: { kind: 'attention', reason: 'crash-loop' } })).ok).toBe(true);
    else {
      writeFileSync(path.join(stateDir, 'session_state.md'), '## Current Task\n- Parser for the config language\n## Next Steps\n1. Error messages with positions\n');
      for (const [i, m] of NIGHT_CHECKPOINTS.entries()) {
        writeFileSync(path.join(root, name, `step${i}.ts`), `export const step = ${i};\n`);
        const r = await writeCheckpoint(stateDir, path.join(root, name), offlineCheckpointPorts(), at(m, base), { reason: 'periodic' });
        expect(r.ok && r.value.changed).toBe(true);
      }
      writeFileSync(path.join(root, name, 'after.ts'), 'export {};\n');
    }
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('mori report', () => {
  it('names each interruption, check run and checkpoint of the night in order, what needs the person first', () => {
    const r = moriIn(home, ['report', '--since', stamp(base)]);
    expect(r.code, r.err).toBe(0);
    const out = r.out;
    expect(out).toMatch(/^While you were away, since \(/);
    expect(out).toContain('Needs you now:\n  api: needs attention (crash-loop): crash-loop: 3 crashes within 10 min of awake time; not restarted\n');
    // api before web: it needs the person.
    expect(out.indexOf('\napi (shell)')).toBeLessThan(out.indexOf('\nweb (shell)'));
    expect(out).toContain('crash loop (3 crashes) → still in attention: crash-loop');
    const web = out.slice(out.indexOf('\nweb (shell)'));
    const order = ['checkpoint #1', 'network lost → resumed by id', 'went red: npm test', 'checkpoint #2', 'reached its usage limit → resumed fresh', 'came back: npm test', 'checkpoint #3'];
    const found = order.map((words) => web.indexOf(words));
    expect(found.every((i) => i >= 0), web).toBe(true);
    expect([...found].sort((a, b) => a - b)).toEqual(found);
    expect(web).toContain('checks before: checks 2/2 passed · now: checks 2/2 passed');
    // The period's changes are counted from its first checkpoint (none came before it).
    expect(web).toContain('files changed since checkpoint #1: after.ts, step1.ts, step2.ts (mori changes web --since 1)');
    expect(web).toContain('task now: Parser for the config language');
    expect(web).toContain('next steps: Error messages with positions');
    expect(web).toContain('usage: no Mori supervisor is running (usage is read by it)');
    // The agent's own line, its escape sequence shown, never sent.
    expect(web).toContain('log: Parser: tokens for strings \\e[31mdone\\e[0m');
    expect(web).not.toContain('log: CHECKPOINT');
    expect(out).not.toContain('\u001b');
  });

  it('gives the same as JSON, the agent text as written', () => {
    const j = moriIn(home, ['report', '--since', stamp(base), '--json']).json() as { ok: boolean; needsYou: unknown[]; sessions: { name: string; timeline: { kind: string; outcome?: string }[]; account: { logLines: string[] } }[] };
    expect(j.ok).toBe(true);
    const web = j.sessions.find((s) => s.name === 'web');
    expect(web?.timeline.map((i) => i.outcome ?? i.kind)).toEqual(['checkpoint', 'resumed-by-id', 'checks', 'checkpoint', 'resumed-fresh', 'checks', 'checkpoint']);
    expect(web?.account.logLines[0]).toBe('Parser: tokens for strings \u001b[31mdone\u001b[0m');
  });

  it('reports since the last look when no moment is given, and moves the mark', () => {
    const first = moriIn(home, ['report']);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain('in the last 8 hours (no earlier look)');
    const marks = JSON.parse(readFileSync(path.join(home, 'last-looked.json'), 'utf8')) as Record<string, number>;
    expect(Date.now() - (marks['cli'] ?? 0)).toBeLessThan(60_000);
    const second = moriIn(home, ['report']);
    expect(second.out).toContain('since you last looked');
    // Nothing happened since: the night is not told again; api still needs the person.
    expect(second.out).not.toContain('checkpoint #');
    expect(second.out).toContain('api: needs attention (crash-loop)');
  });

  it('refuses a moment it cannot read, and a mark file it cannot read is named and left as it is', () => {
    const bad = moriIn(home, ['report', '--since', 'yesterday-ish']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--since "yesterday-ish" is neither a span');
    writeFileSync(path.join(home, 'last-looked.json'), '{broken');
    const r = moriIn(home, ['report']);
    expect(r.code).toBe(0);
    expect(r.err).toContain(`${path.join(home, 'last-looked.json')}: not JSON`);
    expect(readFileSync(path.join(home, 'last-looked.json'), 'utf8')).toBe('{broken');
  });
});
