// The sessions part of the window's sidebar (DESIGN.md §13): the "Needs you" group on top (a button
// per session that needs the person, most urgent first; the sessions keep their places in the list
// too, so Mod+1…9 never change meaning), a filter box over the list (by session name or project
// folder; Escape clears it, ↓ goes to the list), a toggle between ordering by name and by last
// activity, the list in a stable order (common/session-order.ts) grouped by project when there are
// several. The splitter that resizes
// the sidebar is renderer/sessions/sidebar-splitter.tsx, last in the sidebar's tab order. Runs in the renderer.
import { useState } from 'preact/hooks';
import type { LiveSession } from '../../common/ipc.js';
import { needsYouRows, type SortKey } from '../../common/session-order.js';
import { preciseState } from '../../common/session-view.js';
import { matchesFilter } from './session-groups.js';
import { SessionList } from './session-list.js';
import { listGroups, setShown } from './shown-order.js';
import { storedSort, storeSort } from './sidebar-prefs.js';
import './sidebar.css';

export function SessionsSidebar(props: {
  sessions: LiveSession[];
  selected: string | null;
  lastActivity: Map<string, number>;
  now: number;
  /** The selection moved (arrow keys, the filter's ↓). */
  onSelect: (id: string) => void;
  /** A session chosen with a click or tap (on a phone, its screen opens). */
  onOpen: (id: string) => void;
  onEnter: () => void;
}) {
  const [filter, setFilter] = useState('');
  const [sortKey, setSortKey] = useState<SortKey>(storedSort);

  const allGroups = listGroups(props.sessions, sortKey, props.lastActivity);
  const grouped = allGroups.length > 1;
  const groups = allGroups.map((g) => ({ ...g, sessions: g.sessions.filter((s) => matchesFilter(s, filter)) })).filter((g) => g.sessions.length > 0);
  const visible = groups.flatMap((g) => g.sessions);
  setShown(visible.map((s) => s.id));

  const onFilterKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape' && filter !== '') {
      e.preventDefault();
      e.stopPropagation();
      setFilter('');
    } else if (e.key === 'ArrowDown' && visible.length > 0) {
      // Down from the box goes to the list, on the selected match or the first one.
      e.preventDefault();
      const first = visible[0];
      if (first && !visible.some((s) => s.id === props.selected)) props.onSelect(first.id);
      document.querySelector<HTMLElement>('[role="listbox"].session-list')?.focus();
    }
  };
  const toggleSort = (): void => {
    const next: SortKey = sortKey === 'name' ? 'activity' : 'name';
    setSortKey(next);
    storeSort(next);
  };

  if (props.sessions.length === 0) return <p class="empty">No sessions yet. Start one with New session.</p>;
  const needing = needsYouRows(props.sessions);
  return (
    <>
      {needing.length > 0 ? (
        <section class="needs-you" aria-labelledby="needs-you-heading">
          <h2 id="needs-you-heading" class="session-group-heading">
            Needs you <span class="needs-you-count">{needing.length}</span>
          </h2>
          <ul>
            {needing.map((s) => (
              <li key={s.id}>
                <button type="button" class="needs-you-item" aria-current={s.id === props.selected ? 'true' : undefined} onClick={() => props.onOpen(s.id)}>
                  <span class="session-name">{s.name}</span>
                  <span class="needs-you-state">{preciseState(s)}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div class="sidebar-tools">
        <input
          type="search"
          class="session-filter"
          aria-label="Filter sessions"
          placeholder="Filter" title="Filter by name or project folder"
          value={filter}
          onInput={(e) => setFilter(e.currentTarget.value)}
          onKeyDown={onFilterKey}
        />
        <button type="button" class="sort-toggle" aria-pressed={sortKey === 'activity'} title="Most recently active first, instead of by name (rows stay where they are once placed)" onClick={toggleSort}>
          Recent first
        </button>
      </div>
      {visible.length === 0 ? (
        <p class="empty" role="status">
          No sessions match “{filter.trim()}”.
        </p>
      ) : (
        <SessionList groups={groups} grouped={grouped} selected={props.selected} lastActivity={props.lastActivity} now={props.now} onSelect={props.onSelect} onOpen={props.onOpen} onEnter={props.onEnter} />
      )}
    </>
  );
}
