// The sessions list (DESIGN.md §13): a listbox whose options are the sessions in the order and groups
// it is given (renderer/sessions/sessions-sidebar.tsx decides them), each with its precise state (a
// badge when it needs the person), its current task's first line, project, agent, last activity and
// failing checks. With more than one project the options sit in one group per
// project folder, named by it. Arrow keys move the selection across all options, groups or not, and
// never reach a terminal; Home and End go to the first and last; Enter takes the keyboard into the
// selected session's terminal. Runs in the renderer.
import type { LiveSession } from '../../common/ipc.js';
import { needsPerson, preciseState, stateWord } from '../../common/session-view.js';
import type { ProjectGroup } from './session-groups.js';
import { ago } from '../../common/time-words.js';
import { Shown, shown } from '../ui/shown-text.js';

const baseName = (p: string | undefined): string => (p ? (p.replace(/\/+$/, '').split('/').pop() ?? p) : '');

export interface SessionListProps {
  groups: ProjectGroup<LiveSession>[];
  /** Group headings shown: more than one project is present. */
  grouped: boolean;
  selected: string | null;
  lastActivity: Map<string, number>;
  now: number;
  /** The arrow keys moved the selection. */
  onSelect: (id: string) => void;
  /** A row clicked or tapped: chosen (on a phone, its screen opens). */
  onOpen: (id: string) => void;
  /** Enter on the list: the person wants to type into the selected session. */
  onEnter: () => void;
}

export function SessionList(props: SessionListProps) {
  const flat = props.groups.flatMap((g) => g.sessions);
  const shownSelected = flat.some((s) => s.id === props.selected) ? props.selected : null;
  const move = (e: KeyboardEvent): void => {
    if (e.key === 'Enter' && shownSelected) {
      // Handled here, so the key itself never reaches the terminal the keyboard moves into.
      e.preventDefault();
      props.onEnter();
      return;
    }
    const i = flat.findIndex((s) => s.id === shownSelected);
    const to: Record<string, number> = { ArrowDown: i + 1, ArrowUp: i === -1 ? 0 : i - 1, Home: 0, End: flat.length - 1 };
    if (!(e.key in to) || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const next = flat[Math.min(flat.length - 1, Math.max(0, to[e.key] ?? 0))];
    if (next) {
      props.onSelect(next.id);
      document.getElementById(`session-${next.id}`)?.scrollIntoView({ block: 'nearest' });
    }
  };
  const option = (s: LiveSession) => {
    const state = stateWord(s);
    const precise = preciseState(s);
    const last = props.lastActivity.get(s.id);
    const failing = s.failingChecks ?? 0;
    return (
      <div
        key={s.id}
        id={`session-${s.id}`}
        role="option"
        aria-selected={s.id === props.selected}
        class={`session-item state-${state.replace(' ', '-')}${needsPerson(state) ? ' needs-person' : ''}`}
        onClick={() => props.onOpen(s.id)}
      >
        <span class="dot" aria-hidden="true" />
        <span class="session-name">{s.name}</span>
        <span class="session-state" title={precise}>
          {precise}
        </span>
        {s.task ? (
          <span class="session-task" title={shown(s.task)}>
            <Shown text={s.task} />
          </span>
        ) : null}
        {/* Under a project heading the folder's name would only repeat it. */}
        <span class="session-meta">{shown([props.grouped ? '' : baseName(s.projectDir), s.profile ?? '', last !== undefined ? ago(last, props.now) : ''].filter(Boolean).join(' · '))}</span>
        {failing > 0 ? <span class="failing">{failing} failing</span> : null}
      </div>
    );
  };
  return (
    <div role="listbox" aria-label="Sessions" class="session-list" tabIndex={0} onKeyDown={move} aria-activedescendant={shownSelected ? `session-${shownSelected}` : undefined}>
      {props.grouped
        ? props.groups.map((g) => (
            <div key={`${g.host}\n${g.dir}`} role="group" aria-label={shown(g.label)} class="session-group">
              <div class="session-group-heading" aria-hidden="true" title={g.dir ? shown(g.host ? `${g.host}: ${g.dir}` : g.dir) : undefined}>
                {shown(g.label)}
              </div>
              {g.sessions.map(option)}
            </div>
          ))
        : flat.map(option)}
    </div>
  );
}
