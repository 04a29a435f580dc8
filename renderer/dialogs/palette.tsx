// The command palette (Mod+K): a dialog with a combobox whose listbox holds the sessions and the
// window's actions (verify, start/stop, new session, settings…), each with its shortcut when it has
// one. Typing filters fuzzily (fuzzy-match.ts: "fr" finds fix-refunds, best first, the matched
// letters marked), ↑/↓ move, Enter runs, Escape closes. Runs in the renderer.
import { useState } from 'preact/hooks';
import { Modal } from '../ui/modal.js';
import { fuzzyFilter } from './fuzzy-match.js';

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
  const matches = fuzzyFilter(props.items, query, (i) => i.label);
  const shown = matches.map((m) => m.item);
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
        {matches.map(({ item, positions }, i) => (
          <li key={item.id} id={`palette-${item.id}`} role="option" aria-selected={i === at} class="palette-item" onClick={() => run(item)}>
            <Marked text={item.label} positions={positions} />
            {item.keys ? <kbd class="palette-keys">{item.keys}</kbd> : null}
          </li>
        ))}
        {shown.length === 0 ? <li class="muted">Nothing matches.</li> : null}
      </ul>
    </Modal>
  );
}

/** The label with its matched letters marked (bold), in runs. */
function Marked(props: { text: string; positions: number[] }) {
  const marked = new Set(props.positions);
  const runs: { text: string; on: boolean }[] = [];
  props.text.split('').forEach((c, i) => {
    const on = marked.has(i);
    const last = runs.at(-1);
    if (last && last.on === on) last.text += c;
    else runs.push({ text: c, on });
  });
  return <span>{runs.map((r, i) => (r.on ? <mark key={i}>{r.text}</mark> : r.text))}</span>;
}
