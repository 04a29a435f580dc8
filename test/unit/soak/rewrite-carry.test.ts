// The soak's rewrite of a work log (soak/faults/bad-input.ts notCarried): of the bytes appended to the
// old file after it was read, an entry of Mori's that Mori already carried to the new file is not
// carried again; the agent's own lines, and entries not carried, are.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { notCarried } from '../../../soak/faults/bad-input.js';

const ENTRY = '\n## 2026-12-06 20:06\n- SESSION RESUMED - system sleep; agent relaunched\n';
const OTHER = '\n## 2026-12-06 20:06\n- VERIFIED - checks passed\n';
/** The log as the agent read it: OTHER's words are in it already, from an earlier check. */
const OLD = `# Work log\n${OTHER}- soak s1 #1 ok\n`;
const NOTE = '\n- the agent tidied this log\n';

/** The new log: the old text, the note, then what came since the rename. */
function newLog(since: string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'mori-rewrite-')), 'work_log.md');
  writeFileSync(file, OLD + NOTE + since);
  return file;
}

describe('notCarried', () => {
  it('drops an entry Mori carried to the new file, keeps the agent lines around it', () => {
    const late = Buffer.from(`- soak s1 #2 ok\n${ENTRY}- soak s1 #3 ok\n`);
    expect(notCarried(late, newLog(ENTRY), (OLD + NOTE).length).toString()).toBe('- soak s1 #2 ok\n- soak s1 #3 ok\n');
  });

  it('keeps an entry not carried, and one only in the old text (the same words earlier in the log)', () => {
    const late = Buffer.from(`${ENTRY}${OTHER}`);
    const file = newLog('');
    expect(notCarried(late, file, (OLD + NOTE).length).toString()).toBe(`${ENTRY}${OTHER}`);
    expect(notCarried(Buffer.from(OTHER), newLog(ENTRY), (OLD + NOTE).length).toString()).toBe(OTHER);
  });
});
