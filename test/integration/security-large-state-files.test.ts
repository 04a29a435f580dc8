// An agent writes a state file of any size (threat model: everything the agent can write is hostile
// input). The markdown parser is slow and, on many short lists, quadratic: a 5 MB session_state.md
// once froze the daemon's event loop at every resume's verification (minutes, the CLI's `mori down`
// timed out). Only the head of a file is parsed (MARKDOWN_PARSE_MAX_BYTES): checked on the parser
// itself, on the checks it feeds, and through a real daemon that wakes from a sleep with such a file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadChecks } from '../../main/checks/load-checks.js';
import { MARKDOWN_PARSE_MAX_BYTES, MarkdownDoc } from '../../main/state/markdown-doc.js';
import { pidAlive } from '../../main/os/pid-alive.js';
import { parseSessionState } from '../../main/state/session-state.js';
import { UpHarness, until } from '../support/mori-up.js';

/** The size the window's large-file test uses: far past what anyone writes by hand. */
const BIG_BYTES = 5 * 1024 * 1024;

/**
 * A session_state.md of about `bytes` in the parser's worst shape found (short sections, each with a
 * short list), with a `## Next Steps` far past the parsed head that must not be read.
 */
function hostileState(bytes: number): string {
  const parts = ['# session_state.md\n\n## Current Task\n- Keep the daemon answering\n- Files touched: src/app.ts\n\n## Next Steps\n- the real next step\n\n## Notes\n'];
  let size = parts[0]?.length ?? 0;
  for (let i = 0; size < bytes; i++) {
    const block = `\n### Note ${i}\n- a line of notes about step ${i}\n- another line\n`;
    parts.push(block);
    size += block.length;
  }
  parts.push('\n## Next Steps\n- rm -rf the smuggled step\n');
  return parts.join('');
}

describe('a state file far larger than a state file', () => {
  it('is parsed only up to its head: the head read as always, nothing past it, the file left whole', () => {
    const bytes = Buffer.from(hostileState(BIG_BYTES));
    const doc = new MarkdownDoc(bytes);
    expect(doc.truncated).toBe(true);
    expect(doc.bytes).toBe(bytes);
    expect(doc.lines.length).toBeGreaterThan(doc.parsedLines);
    expect(Buffer.concat(doc.lines.slice(0, doc.parsedLines)).length).toBeLessThanOrEqual(MARKDOWN_PARSE_MAX_BYTES);
    const state = parseSessionState(doc);
    expect(state.task).toEqual(['Keep the daemon answering']);
    expect(state.filesTouched).toEqual(['src/app.ts']);
    expect(state.nextSteps).toEqual(['the real next step']);
    // The last section found ends where the parse ended, not at the end of the file.
    const last = doc.sections.at(-1);
    expect(last?.bodyEnd).toBe(doc.parsedLines);
    expect(doc.sections.some((s) => s.headingLine >= doc.parsedLines)).toBe(false);
    // A file within the limit is parsed whole.
    const small = MarkdownDoc.fromString(hostileState(8 * 1024));
    expect(small.truncated).toBe(false);
    expect(parseSessionState(small).nextSteps).toEqual(['the real next step', 'rm -rf the smuggled step']);
  });

  describe('through the checks and a daemon', () => {
    let h: UpHarness;
    beforeEach(() => {
      h = new UpHarness('large-state');
    });
    afterEach(() => h.cleanup());
    const daemonLog = (): string => (existsSync(path.join(h.home, 'logs', 'daemon.log')) ? readFileSync(path.join(h.home, 'logs', 'daemon.log'), 'utf8') : '');

    it('gives the checks of the head with a note naming the file; a daemon waking from a sleep still answers and stops', { timeout: 90_000 }, async () => {
      h.init('big', 'direct');
      const file = path.join(h.stateDir('big'), 'session_state.md');
      writeFileSync(file, hostileState(BIG_BYTES));
      const checks = loadChecks(h.stateDir('big'));
      if (!checks.ok) throw new Error(checks.message);
      expect(checks.value.notes.find((n) => n.startsWith('session_state.md: '))).toMatch(/^session_state\.md: 5,24\d,\d{3} bytes; only its first 65,536 are read$/);

      // Without a daemon: the command reads the file itself.
      expect(h.mori('status', 'big').stdout).toMatch(/Keep the daemon answering/);
      const up = h.mori('up', '--daemon');
      expect(up.code, up.stderr).toBe(0);
      const pid = Number(/pid (\d+)/.exec(up.stdout)?.[1]);
      await until('the agent to start', () => h.starts().length === 1);
      // Frozen past the drift detector's 5 s: on waking it interrupts the session and verifies it,
      // which reads session_state.md for the files touched.
      process.kill(pid, 'SIGSTOP');
      await new Promise((r) => setTimeout(r, 6_500));
      process.kill(pid, 'SIGCONT');
      await until('the wake to be verified', () => daemonLog().includes('"verify.finished"'));
      const ls = h.mori('ls', '--json');
      expect(ls.code, ls.stderr).toBe(0);
      expect(ls.stdout).toContain('Keep the daemon answering');
      const down = h.mori('down');
      expect(down.code, down.stderr).toBe(0);
      expect(down.stdout).toMatch(/Stopped the Mori supervisor/);
      expect(pidAlive(pid)).toBe(false);
    });
  });
});
