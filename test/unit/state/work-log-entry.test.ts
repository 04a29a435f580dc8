// A work-log entry as Mori writes it: each line under the time heading, and the control characters
// an entry may quote from an agent's file (a NUL in a broken session.json, an ESC) written as escapes,
// so the log stays a text file for the agent's tools and a terminal that prints it.
import { describe, expect, it } from 'vitest';
import { formatEntry } from '../../../main/state/work-log.js';

describe('formatEntry', () => {
  const at = new Date(Date.UTC(2026, 11, 6, 10, 0));
  it('writes each line of an entry as a list item under its heading', () => {
    expect(formatEntry(at, ['SESSION RESUMED - system sleep', 'two\r\nlines'])).toMatch(/^\n## .+\n- SESSION RESUMED - system sleep\n- two\n- lines\n$/);
  });
  it('writes NUL, ESC, DEL and C1 controls as \\xHH, keeps a tab and every other character', () => {
    const entry = formatEntry(at, ['VERIFIED - session.json: not valid JSON (Unexpected token \u0000 at 3)\u001b[31m red\u007f \u0085\tnext é ✓']);
    expect(entry).toContain('- VERIFIED - session.json: not valid JSON (Unexpected token \\x00 at 3)\\x1b[31m red\\x7f \\x85\tnext é ✓');
    expect(entry).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});
