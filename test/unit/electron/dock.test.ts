// The macOS Dock (main/electron/dock.ts): Mori shows there only while its window is open, badged with
// the sessions that need the person (needs you or failing); without a Dock (other platforms) nothing.
import { describe, expect, it } from 'vitest';
import { row } from '../../support/session-rows.js';
import { FakeDock } from '../../support/fakes/electron.js';
import { DockController, needYouCount } from '../../../main/electron/dock.js';

const needsInput = row('b', { activity: 'needs-input' });
const crashLoop = row('c', { state: 'attention', intent: { kind: 'attention', reason: 'crash-loop' } });

describe('the Dock', () => {
  it('counts the sessions that need the person', () => {
    expect(needYouCount([row('a'), row('w', { activity: 'working' })])).toBe(0);
    expect(needYouCount([row('a'), needsInput, crashLoop])).toBe(2);
  });

  it('shows Mori with the badge while the window is open, and nothing once it is hidden', () => {
    const dock = new FakeDock();
    const c = new DockController(dock);
    c.sessions([row('a'), needsInput]);
    expect(dock.visible).toBe(false);
    expect(dock.badge).toBe('');
    c.window(true);
    expect(dock.visible).toBe(true);
    expect(dock.badge).toBe('1');
    c.sessions([row('a'), needsInput, crashLoop]);
    expect(dock.badge).toBe('2');
    c.sessions([row('a')]);
    expect(dock.badge).toBe('');
    c.sessions([needsInput]);
    c.window(false);
    expect(dock.visible).toBe(false);
    expect(dock.badge).toBe('');
  });

  it('does nothing where there is no Dock', () => {
    const c = new DockController(undefined);
    expect(() => {
      c.window(true);
      c.sessions([needsInput]);
    }).not.toThrow();
  });
});
