// The window's shortcuts (renderer/ui/shortcuts.ts): Mod+1…9 select, Mod+F searches, Mod+N opens a new session, F6 leaves only a
// terminal, `?` opens the list only where it would type nothing; ⌘ is the modifier on a Mac and Ctrl
// elsewhere, and everything else (Tab, Escape, plain letters, Ctrl+C) is not the window's.
import { describe, expect, it } from 'vitest';
import { shortcutOf, type KeyPress } from '../../renderer/ui/shortcuts.js';

const key = (k: string, over: Partial<KeyPress> = {}): KeyPress => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...over });
const pc = { typing: false, inTerminal: false, mac: false };
const terminal = { typing: true, inTerminal: true, mac: false };

describe('shortcutOf', () => {
  it('Mod+digit selects, Mod+F searches: Ctrl on Linux and Windows, ⌘ on a Mac', () => {
    expect(shortcutOf(key('3', { ctrlKey: true }), terminal)).toEqual({ kind: 'select', index: 2 });
    expect(shortcutOf(key('f', { ctrlKey: true }), pc)).toEqual({ kind: 'search' });
    expect(shortcutOf(key('k', { ctrlKey: true }), terminal)).toEqual({ kind: 'palette' });
    expect(shortcutOf(key('F', { metaKey: true }), { ...pc, mac: true })).toEqual({ kind: 'search' });
    expect(shortcutOf(key('n', { ctrlKey: true }), terminal)).toEqual({ kind: 'new-session' });
    expect(shortcutOf(key('n', { metaKey: true }), { ...pc, mac: true })).toEqual({ kind: 'new-session' });
    expect(shortcutOf(key('n', { ctrlKey: true, shiftKey: true }), pc)).toBeNull();
    expect(shortcutOf(key('3', { ctrlKey: true }), { ...pc, mac: true })).toBeNull();
    expect(shortcutOf(key('0', { ctrlKey: true }), pc)).toBeNull();
    expect(shortcutOf(key('f', { ctrlKey: true, shiftKey: true }), pc)).toBeNull();
  });

  it('Mod+= (or Mod++, Shift+= on most layouts) and Mod+- step the terminal text, also from inside a terminal', () => {
    expect(shortcutOf(key('=', { ctrlKey: true }), terminal)).toEqual({ kind: 'font-size', step: 1 });
    expect(shortcutOf(key('+', { ctrlKey: true, shiftKey: true }), pc)).toEqual({ kind: 'font-size', step: 1 });
    expect(shortcutOf(key('-', { ctrlKey: true }), terminal)).toEqual({ kind: 'font-size', step: -1 });
    expect(shortcutOf(key('-', { metaKey: true }), { ...pc, mac: true })).toEqual({ kind: 'font-size', step: -1 });
    expect(shortcutOf(key('-', { ctrlKey: true, altKey: true }), pc)).toBeNull();
    expect(shortcutOf(key('='), terminal)).toBeNull();
  });

  it('F6 leaves a terminal only; ? opens the list only where it types nothing', () => {
    expect(shortcutOf(key('F6'), terminal)).toEqual({ kind: 'leave-terminal' });
    expect(shortcutOf(key('F6'), pc)).toBeNull();
    expect(shortcutOf(key('?', { shiftKey: true }), pc)).toEqual({ kind: 'help' });
    expect(shortcutOf(key('?', { shiftKey: true }), terminal)).toBeNull();
    expect(shortcutOf(key('?', { shiftKey: true }), { ...pc, typing: true })).toBeNull();
  });

  it("leaves the agent's keys alone: Tab, Escape, Ctrl+C, letters", () => {
    for (const k of [key('Tab'), key('Escape'), key('c', { ctrlKey: true }), key('a'), key('Enter')]) expect(shortcutOf(k, terminal)).toBeNull();
  });
});
