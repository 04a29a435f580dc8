// The window's shortcuts (renderer/ui/shortcuts.ts) taken from the page's key presses: caught before
// xterm sees them (capture phase), so the agent never receives them; every other key in a terminal
// (Tab, Escape…) stays the agent's, and an open dialog keeps its keys. Runs in the renderer.
import { useEffect, useRef } from 'preact/hooks';
import { shortcutOf, type ShortcutAction } from '../ui/shortcuts.js';

export function useWindowKeys(onAction: (action: ShortcutAction) => void): void {
  const handler = useRef(onAction);
  handler.current = onAction;
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const el = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      const inTerminal = el?.closest('.terminal-region') != null;
      const typing = inTerminal || el?.isContentEditable === true || el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;
      const action = shortcutOf(e, { typing, inTerminal, mac: /Mac/.test(navigator.platform) });
      if (!action || document.querySelector('dialog[open]')) return;
      e.preventDefault();
      e.stopPropagation();
      handler.current(action);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
}
