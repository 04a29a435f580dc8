// Mori's own work-log entries (renderer/work-log/mori-entry.ts): a one-line capitalised entry is read
// as a kind in sentence case and its words; the warnings are told apart; the agent's and the person's
// entries (several lines, lower-case words, a bare capital word) are left as written.
import { describe, expect, it } from 'vitest';
import { moriEntry } from '../../../../renderer/work-log/mori-entry.js';

describe('moriEntry', () => {
  it('reads the kind in sentence case and keeps the rest as written', () => {
    expect(moriEntry(['SESSION STARTED - agent claude (new agent session)'])).toEqual({ kind: 'Session started', tone: 'plain', words: 'agent claude (new agent session)' });
    expect(moriEntry(['REATTACHED - tmux session mori-echo'])).toEqual({ kind: 'Reattached', tone: 'plain', words: 'tmux session mori-echo' });
    expect(moriEntry(['CHECKPOINT - 3 files (abc123)'])?.kind).toBe('Checkpoint');
  });

  it('tells what went wrong or was held back as a warning', () => {
    expect(moriEntry(['SESSION INTERRUPTED - system sleep'])?.tone).toBe('warn');
    expect(moriEntry(['SESSION NEEDS ATTENTION - crash loop'])?.tone).toBe('warn');
    expect(moriEntry(['HOOKS OFF - refused; activity is read from the screen alone'])?.tone).toBe('warn');
    expect(moriEntry(['TRANSCRIPT NOT WRITTEN - disk full'])?.tone).toBe('warn');
    expect(moriEntry(['SESSION RESUMED - after system sleep'])?.tone).toBe('plain');
  });

  it('leaves the agent\'s and the person\'s entries alone', () => {
    expect(moriEntry(['Checked the window by hand'])).toBeNull();
    expect(moriEntry(['SESSION STARTED - agent claude', 'and a second line'])).toBeNull();
    expect(moriEntry(['Fixed the API - it returns 404 now'])).toBeNull();
    expect(moriEntry(['A - one capital is not a kind'])).toBeNull();
    expect(moriEntry(['TODO: finish the parser'])).toBeNull();
    expect(moriEntry([])).toBeNull();
  });
});
