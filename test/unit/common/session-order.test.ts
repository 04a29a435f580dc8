// The sessions list's stable order (common/session-order.ts): by name or by last activity; rows keep
// their places whatever their state does, and the sessions that need the person are gathered apart
// (the "Needs you" group) without moving. Also the list's filter and project groups
// (renderer/sessions/session-groups.ts) and the sidebar's width bounds.
import { describe, expect, it } from 'vitest';
import type { AgentActivity } from '../../../common/agent-activity.js';
import type { RuntimeState } from '../../../common/events.js';
import { compareSessions, needsYouRows, steadyOrder, type OrderMemory, type SortKey } from '../../../common/session-order.js';
import { orderSessions } from '../../../common/session-view.js';
import { groupByProject, matchesFilter } from '../../../renderer/sessions/session-groups.js';
import { clampWidth, MAX_WIDTH, MIN_WIDTH } from '../../../renderer/sessions/sidebar-prefs.js';

interface S {
  id: string;
  name: string;
  state: RuntimeState;
  activity: AgentActivity;
  projectDir?: string;
}
const s = (name: string, activity: AgentActivity = 'waiting', state: RuntimeState = 'running', projectDir = '/p/one'): S => ({ id: `id-${name}`, name, state, activity, projectDir });
const names = (xs: readonly S[]): string[] => xs.map((x) => x.name);

/** Runs the order over successive lists, as the window does on each `list` answer. */
function orders(lists: S[][], key: SortKey = 'name', last = new Map<string, number>()): string[][] {
  let memory: OrderMemory | null = null;
  return lists.map((list) => {
    const r = steadyOrder(list, key, last, memory);
    memory = r.memory;
    return names(r.order);
  });
}

describe('the steady order', () => {
  it('from scratch: by name, whatever the states', () => {
    const list = [s('zed', 'working'), s('bee', 'waiting'), s('asks', 'needs-input'), s('loop', 'unknown', 'attention'), s('stop', 'unknown', 'stopped'), s('apple', 'working')];
    const [first] = orders([list]);
    expect(first).toEqual(['apple', 'asks', 'bee', 'loop', 'stop', 'zed']);
  });

  it('keeps every row in place when states change, into needing the person and out of it', () => {
    const a = [s('api'), s('cli', 'working'), s('docs'), s('web', 'working')];
    const b = [s('api', 'working'), s('cli', 'waiting'), s('docs', 'needs-input'), s('web', 'unknown', 'attention')];
    const c = [s('api', 'waiting'), s('cli', 'unknown', 'interrupted'), s('docs', 'error'), s('web', 'working')];
    const [x, y, z] = orders([a, b, c]);
    expect(x).toEqual(['api', 'cli', 'docs', 'web']);
    expect(y).toEqual(x);
    expect(z).toEqual(x);
  });

  it('gathers the sessions that need the person, most urgent first, for the Needs you group', () => {
    const list = [s('zed', 'working'), s('loop', 'unknown', 'attention'), s('asks', 'needs-input'), s('bee', 'waiting'), s('lim', 'unknown', 'limited'), s('broke', 'error')];
    expect(names(needsYouRows(list))).toEqual(['asks', 'loop', 'broke', 'lim']);
    expect(names(needsYouRows(list))).toEqual(names(orderSessions(needsYouRows(list))));
  });

  it('by last activity: newest first at first, then steady; a new session is placed, a removed one leaves', () => {
    const last = new Map([
      ['id-old', 1],
      ['id-new', 3],
      ['id-mid', 2],
    ]);
    const first = [s('old'), s('new', 'working'), s('mid')];
    let memory: OrderMemory | null = null;
    let r = steadyOrder(first, 'activity', last, memory);
    expect(names(r.order)).toEqual(['new', 'mid', 'old']);
    memory = r.memory;
    // old works again (its activity is newest now) but stays where it was: no jumps on each event.
    last.set('id-old', 10);
    last.set('id-fresh', 5);
    r = steadyOrder([s('old', 'working'), s('new'), s('fresh')], 'activity', last, memory);
    expect(names(r.order)).toEqual(['fresh', 'new', 'old']);
    // Choosing the order again places every row afresh.
    r = steadyOrder([s('old', 'working'), s('new'), s('fresh')], 'name', last, r.memory);
    expect(names(r.order)).toEqual(['fresh', 'new', 'old']);
    r = steadyOrder([s('old', 'working'), s('new'), s('fresh')], 'activity', last, r.memory);
    expect(names(r.order)).toEqual(['old', 'fresh', 'new']);
  });

  it('places a renamed session again, and breaks ties between equal names by id', () => {
    const [, renamed] = orders([[s('api'), s('mid'), s('web')], [s('api'), { ...s('mid'), name: 'zoo' }, s('web')]]);
    expect(renamed).toEqual(['api', 'web', 'zoo']);
    expect(compareSessions({ ...s('a'), id: 'x1' }, { ...s('a'), id: 'x2' }, 'name', new Map())).toBeLessThan(0);
  });
});

describe('the filter and the project groups', () => {
  it('matches every word in the name or the project folder, in any case', () => {
    expect(matchesFilter(s('api-server', 'waiting', 'running', '/home/me/Shop'), 'shop API')).toBe(true);
    expect(matchesFilter(s('api-server', 'waiting', 'running', '/home/me/Shop'), 'web')).toBe(false);
    expect(matchesFilter(s('api'), '   ')).toBe(true);
  });

  it('gathers sessions by folder, groups by heading with no folder last, telling apart folders of one name', () => {
    const groups = groupByProject([s('a', 'needs-input', 'running', '/w/shop/'), s('b', 'waiting', 'running', '/w/blog'), s('c', 'waiting', 'running', '/w/shop'), s('d', 'waiting', 'running', '/x/blog'), { ...s('e'), projectDir: undefined }]);
    expect(groups.map((g) => [g.label, names(g.sessions)])).toEqual([
      ['shop', ['a', 'c']],
      ['w/blog', ['b']],
      ['x/blog', ['d']],
      ['No project folder', ['e']],
    ]);
  });

  it("heads a remote's sessions with its host, apart from a folder of the same path here", () => {
    const groups = groupByProject([s('a', 'waiting', 'running', '/w/shop'), s('box:b', 'waiting', 'running', '/w/shop'), s('box:c', 'waiting', 'running', '/srv/api')]);
    expect(groups.map((g) => [g.label, names(g.sessions)])).toEqual([
      ['shop', ['a']],
      ['box: api', ['box:c']],
      ['box: shop', ['box:b']],
    ]);
  });

  it('keeps the sidebar between its narrowest and widest', () => {
    expect(clampWidth(10)).toBe(MIN_WIDTH);
    expect(clampWidth(5000)).toBe(MAX_WIDTH);
    expect(clampWidth(333.4)).toBe(333);
  });
});
