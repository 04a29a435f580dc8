// The sessions list's filter and its project groups (DESIGN.md §13): which sessions a filter text
// keeps (by name or project folder, any case), and the sessions in their list order gathered under
// one heading per project folder — per host and folder for a remote's sessions (`box:work`, whose
// folder is on box), headed `box: folder` — the groups in a stable order: this host's first, then by
// host, by heading, sessions with no project folder last; a state change never moves a group. Pure:
// runs in the renderer and in unit tests.
import type { LiveSession } from '../../common/ipc.js';

export interface ProjectGroup<T> {
  /** The remote the folder is on ('' for this host's). */
  host: string;
  /** The project folder, or '' for sessions that name none. */
  dir: string;
  /** The heading: the folder's name, with its parent's when two projects share a name. */
  label: string;
  sessions: T[];
}

type Filterable = Pick<LiveSession, 'name' | 'projectDir'>;

/** Whether the session matches the filter text: every word is in its name or its project folder. */
export function matchesFilter(s: Filterable, text: string): boolean {
  const hay = `${s.name}\n${s.projectDir ?? ''}`.toLowerCase();
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

/** One collator for every comparison of headings. */
const collator = new Intl.Collator();

const trimmed = (dir: string): string => dir.replace(/\/+$/, '');
const tail = (dir: string, parts: number): string => trimmed(dir).split('/').slice(-parts).join('/');

/** The remote of a session named `host:name` (a session's own name has no colon); '' for this host's. */
const hostOf = (name: string): string => (name.includes(':') ? name.slice(0, name.indexOf(':')) : '');

/** The sessions gathered by host and project folder, keeping their order; groups by host, then heading. */
export function groupByProject<T extends Filterable>(ordered: readonly T[]): ProjectGroup<T>[] {
  const groups = new Map<string, ProjectGroup<T>>();
  for (const s of ordered) {
    const host = hostOf(s.name);
    const dir = trimmed(s.projectDir ?? '');
    const key = `${host}\n${dir}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { host, dir, label: '', sessions: [] }));
    g.sessions.push(s);
  }
  const list = [...groups.values()];
  for (const g of list) {
    const name = tail(g.dir, 1);
    // Two folders of one name on one host read apart by their parent's name too.
    const sameName = list.filter((o) => o.host === g.host && tail(o.dir, 1) === name).length;
    const folder = g.dir === '' ? 'No project folder' : sameName > 1 ? tail(g.dir, 2) : name;
    g.label = g.host === '' ? folder : `${g.host}: ${folder}`;
  }
  return list.sort((a, b) => collator.compare(a.host, b.host) || Number(a.dir === '') - Number(b.dir === '') || collator.compare(a.label, b.label) || collator.compare(a.dir, b.dir));
}
