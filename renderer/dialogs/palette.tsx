// The command palette (Mod+K): a dialog with a combobox whose listbox holds the sessions and the
// window's actions (verify, start/stop, new session, settings…), each with its shortcut when it has
// one. Typing filters, ↑/↓ move, Enter runs, Escape closes. Runs in the renderer.
import { useState } from 'preact/hooks';
import { Modal } from '../ui/modal.js';

export interface PaletteItem {
  id: string;
  label: string;
  /** Its shortcut, in the words the shortcuts list uses ("Ctrl+1"), when it has one. */
  keys?: string;
  run: () => void;
}

export function Palette(props: { items: PaletteItem[]; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const q = query.trim().toLowerCase();
  const shown = props.items.filter((i) => i.label.toLowerCase().includes(q));
  const at = Math.min(active, Math.max(0, shown.length - 1));
  const run = (item: PaletteItem | undefined): void => {
    if (!item) return;
    props.onClose();
    item.run();
  };
  return (
    <Modal title="Command palette" onClose={props.onClose}>
      <input
        type="text"
        role="combobox"
        aria-label="Go to a session or run an action"
        aria-expanded="true"
        aria-controls="palette-list"
        aria-activedescendant={shown[at] ? `palette-${shown[at].id}` : undefined}
        aria-autocomplete="list"
        class="palette-input"
        placeholder="Session or action"
        value={query}
        onInput={(e) => {
          setQuery((e.target as HTMLInputElement).value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            const n = shown.length;
            if (n > 0) setActive((at + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
          } else if (e.key === 'Enter') {
            e.preventDefault();
            run(shown[at]);
          }
        }}
      />
      <ul role="listbox" id="palette-list" aria-label="Sessions and actions" class="palette-list">
        {shown.map((item, i) => (
          <li key={item.id} id={`palette-${item.id}`} role="option" aria-selected={i === at} class="palette-item" onClick={() => run(item)}>
            <span>{item.label}</span>
            {item.keys ? <kbd class="palette-keys">{item.keys}</kbd> : null}
          </li>
        ))}
        {shown.length === 0 ? <li class="muted">Nothing matches.</li> : null}
      </ul>
    </Modal>
  );
}
