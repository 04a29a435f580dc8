// The sessions part of the window's sidebar (DESIGN.md §13): a filter box over the list (by session
// name or project folder; Escape clears it, ↓ goes to the list), a toggle between ordering by name
// and by last activity after what needs the person, the list in a steady order
// (common/session-order.ts) grouped by project when there are several. The splitter that resizes
// the sidebar is renderer/sessions/sidebar-splitter.tsx, last in the sidebar's tab order. Runs in the renderer.
import { useState } from 'preact/hooks';
import type { SessionInfo } from '../../common/ipc.js';
import type { SortKey } from '../../common/session-order.js';
import { matchesFilter } from './session-groups.js';
import { SessionList } from './session-list.js';
import { listGroups, setShown } from './shown-order.js';
import { storedSort, storeSort } from './sidebar-prefs.js';
import './sidebar.css';

export function SessionsSidebar(props: {
  sessions: SessionInfo[];
  selected: string | null;
  lastActivity: Map<string, number>;
  now: number;
  onSelect: (id: string) => void;
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
  return (
    <>
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
        <button type="button" class="sort-toggle" aria-pressed={sortKey === 'activity'} title="After the sessions that need you: most recently active first, instead of by name" onClick={toggleSort}>
          Recent first
        </button>
      </div>
      {visible.length === 0 ? (
        <p class="empty" role="status">
          No sessions match “{filter.trim()}”.
        </p>
      ) : (
        <SessionList groups={groups} grouped={grouped} selected={props.selected} lastActivity={props.lastActivity} now={props.now} onSelect={props.onSelect} onEnter={props.onEnter} />
      )}
    </>
  );
}
