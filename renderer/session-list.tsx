// The sessions list (DESIGN.md §13): a listbox whose options are the sessions, most in need of the
// person first, each with its project, agent, state, last activity and failing checks. Arrow keys
// move the selection and never reach a terminal; Enter takes the keyboard into the selected session's
// terminal. Runs in the renderer.
import type { SessionInfo } from '../common/ipc.js';
import { needsPerson, orderSessions, stateWord } from '../common/session-view.js';
import { ago } from './time-ago.js';

const baseName = (p: string | undefined): string => (p ? (p.replace(/\/+$/, '').split('/').pop() ?? p) : '');

export function SessionList(props: {
  sessions: SessionInfo[];
  selected: string | null;
  lastActivity: Map<string, number>;
  now: number;
  onSelect: (id: string) => void;
  /** Enter on the list: the person wants to type into the selected session. */
  onEnter: () => void;
}) {
  const ordered = orderSessions(props.sessions);
  const move = (e: KeyboardEvent): void => {
    if (e.key === 'Enter' && props.selected) {
      // Handled here, so the key itself never reaches the terminal the keyboard moves into.
      e.preventDefault();
      props.onEnter();
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const i = ordered.findIndex((s) => s.id === props.selected);
    const next = ordered[Math.min(ordered.length - 1, Math.max(0, i + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (next) props.onSelect(next.id);
  };
  if (ordered.length === 0) return <p class="empty">No sessions yet. Start one with New session.</p>;
  return (
    <ul role="listbox" aria-label="Sessions" class="session-list" tabIndex={0} onKeyDown={move} aria-activedescendant={props.selected ? `session-${props.selected}` : undefined}>
      {ordered.map((s) => {
        const state = stateWord(s);
        const last = props.lastActivity.get(s.id);
        const failing = s.failingChecks ?? 0;
        return (
          <li
            key={s.id}
            id={`session-${s.id}`}
            role="option"
            aria-selected={s.id === props.selected}
            class={`session-item state-${state.replace(' ', '-')}${needsPerson(state) ? ' needs-person' : ''}`}
            onClick={() => props.onSelect(s.id)}
          >
            <span class="dot" aria-hidden="true" />
            <span class="session-name">{s.name}</span>
            <span class="session-state">{state}</span>
            <span class="session-meta">
              {baseName(s.projectDir)}
              {s.profile ? ` · ${s.profile}` : ''}
              {last !== undefined ? ` · ${ago(last, props.now)}` : ''}
            </span>
            {failing > 0 ? <span class="failing">{failing} failing</span> : null}
          </li>
        );
      })}
    </ul>
  );
}
