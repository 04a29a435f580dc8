// How a usage limit reaches the person: its words and level (common/session-view.ts), the tray's
// "Resume now" / "Don't resume" (main/electron/tray-model.ts), exactly one notification per limit
// from the notification decider and the window's notices, the rows kept from `session.limited`; and
// the jitter and retry rules (main/supervisor/limits/limit-plan.ts).
import { describe, expect, it } from 'vitest';
import type { DaemonEvent, LiveSession } from '../../../../common/ipc.js';
import type { UsageLimitPlan } from '../../../../common/session.js';
import { foldEvent } from '../../../../common/session-list-store.js';
import { clockWords, isLive, preciseState, sessionStatus, stateWord, type WatchedSession } from '../../../../common/session-view.js';
import { decideNotifications, emptyMemory, type DeciderMemory } from '../../../../common/notification-decider.js';
import { trayModel, type TrayItem } from '../../../../main/electron/tray-model.js';
import { jitteredResumeAt, LIMIT_MIN_GAP_MS, limitRetryDelay } from '../../../../main/supervisor/limits/limit-plan.js';
import { sessionsToInterrupt, sessionsToResume } from '../../../../main/supervisor/resume/resume-plan.js';
import { noticeFor } from '../../../../renderer/notices/notices.js';
import { row } from '../../../support/session-rows.js';

const NOW = Date.UTC(2026, 10, 30, 12);
const RESET = NOW + 50 * 60_000;
const plan = (over: Partial<UsageLimitPlan> = {}): UsageLimitPlan => ({ detectedAt: NOW, resetAt: RESET, resumeAt: RESET + 12_345, source: 'screen', text: "You've hit your session limit · resets 12:50pm (UTC)", retries: 0, ...over });
const limited = (name: string, p: UsageLimitPlan = plan(), over: Partial<LiveSession> = {}): WatchedSession => row(name, { state: 'limited', usageLimit: p, ...over });
const labels = (items: readonly TrayItem[]): string[] => items.flatMap((i) => (i.label ? [i.label] : []));

describe('a limited session as the person sees it', () => {
  it('reads "usage limit · resumes HH:MM" (or "retrying" with no reset time), needs the person, is live, and "stopped at usage limit" once they chose not to resume', () => {
    const r = limited('a');
    expect(sessionStatus(r)).toEqual({ level: 'needs-you', words: `usage limit · resumes ${clockWords(RESET + 12_345)}`, notable: 'usage-limit' });
    expect(preciseState(r.info)).toBe(`usage limit · resumes ${clockWords(RESET + 12_345)}`);
    expect(preciseState(limited('b', plan({ resetAt: null })).info)).toBe(`usage limit · retrying ${clockWords(RESET + 12_345)}`);
    expect(stateWord(r.info)).toBe('usage limit');
    expect(isLive('limited')).toBe(true);
    const stopped = row('c', { state: 'stopped', intent: { kind: 'user-stopped' }, usageLimit: plan() });
    expect(sessionStatus(stopped)).toMatchObject({ level: 'ok', words: `stopped at usage limit (resets ${clockWords(RESET)})` });
  });

  it('gives the tray "Resume now" and "Don\'t resume" instead of Stop while limited', () => {
    const v = trayModel({ daemon: { state: 'open', detail: '' }, sessions: [limited('a'), row('b')], notificationsPausedUntil: null, startAtLogin: false, muted: new Set(), now: NOW });
    expect(v.icon).toBe('needs-you');
    const a = v.menu.find((i) => i.label?.startsWith('a —'));
    expect(a?.label).toBe(`a — usage limit · resumes ${clockWords(RESET + 12_345)}`);
    expect(labels(a?.submenu ?? [])).toEqual(['Open', 'Verify now', 'Resume now', "Don't resume", 'Open state folder', 'Mute notifications']);
    expect(a?.submenu?.[2]?.action).toEqual({ kind: 'resume-now', session: 'id-a' });
    expect(a?.submenu?.[3]?.action).toEqual({ kind: 'dont-resume', session: 'id-a' });
    const b = v.menu.find((i) => i.label?.startsWith('b —'));
    expect(labels(b?.submenu ?? [])).toContain('Stop');
  });

  it('notifies exactly once per limit: not again while it stays or its reset time is refined, again for a new limit', () => {
    let memory: DeciderMemory = emptyMemory();
    const step = (rows: WatchedSession[]): string[] => {
      const r = decideNotifications(memory, { rows, events: [], now: NOW, focusedSession: null, muted: new Set(), pausedUntil: null });
      memory = r.memory;
      return r.notices.map((n) => n.title);
    };
    const first = limited('claude');
    expect(step([row('claude')])).toEqual([]);
    expect(step([first])).toEqual([`claude: usage limit, resumes at ${clockWords(RESET + 12_345)}`]);
    expect(step([first])).toEqual([]);
    expect(step([limited('claude', plan({ resumeAt: RESET + 40_000 }))])).toEqual([]);
    expect(step([row('claude')])).toEqual([]);
    expect(step([limited('claude', plan({ detectedAt: NOW + 60 * 60_000, resetAt: null, resumeAt: NOW + 75 * 60_000 }))])).toEqual([`claude: usage limit, retrying at ${clockWords(NOW + 75 * 60_000)}`]);
  });

  it('makes the window one notice for a new limit and none for a refined or restored one; the rows follow the event', () => {
    const ev = (news: 'new' | 'refined' | 'restored'): DaemonEvent => ({ type: 'session.limited', at: NOW, sessionId: 'id-a', name: 'a', plan: plan(), news });
    expect(noticeFor(ev('new'))).toMatchObject({ kind: 'usage-limit', title: `a: usage limit, resumes at ${clockWords(RESET + 12_345)}`, body: plan().text });
    expect(noticeFor(ev('refined'))).toBeNull();
    expect(noticeFor(ev('restored'))).toBeNull();
    const rows = new Map([['id-a', row('a')]]);
    foldEvent(rows, ev('new'));
    expect(rows.get('id-a')?.info).toMatchObject({ state: 'limited', usageLimit: plan() });
  });
});

describe('when a limited session resumes', () => {
  it('spreads resumes planned for the same reset at least a second apart, within the jitter, whatever the random draw', () => {
    for (const draw of [0, 0.5, 0.999]) {
      const planned: number[] = [];
      for (let k = 0; k < 30; k++) planned.push(jitteredResumeAt(RESET, 60_000, planned, () => draw));
      const sorted = [...planned].sort((a, b) => a - b);
      expect(sorted[0]).toBeGreaterThanOrEqual(RESET);
      expect(sorted.at(-1)).toBeLessThanOrEqual(RESET + 60_000);
      for (let k = 1; k < sorted.length; k++) expect((sorted[k] ?? 0) - (sorted[k - 1] ?? 0), `draw ${draw}`).toBeGreaterThanOrEqual(LIMIT_MIN_GAP_MS);
    }
  });

  it('a named slot (tests: MORI_LIMIT_JITTER_SLOT) puts the resume at the start of the first or last free slot, whatever the draw', () => {
    for (const draw of [0, 0.5, 0.999]) {
      expect(jitteredResumeAt(RESET, 130_000, [], () => draw, 'first')).toBe(RESET);
      expect(jitteredResumeAt(RESET, 130_000, [], () => draw, 'last')).toBe(RESET + 128_000);
      expect(jitteredResumeAt(RESET, 130_000, [RESET + 128_000], () => draw, 'last')).toBe(RESET + 126_000);
      expect(jitteredResumeAt(RESET, 0, [], () => draw, 'last')).toBe(RESET);
    }
  });

  it('is left alone by a suspend or a network loss; a wake hands it to the supervisor (which resumes it only when its time passed)', () => {
    const base = { alive: true, activity: 'waiting' as const, needsNetwork: true, userStopped: false };
    const views = [
      { ...base, id: 'lim', state: 'limited' as const, interruptedFor: 'usage-limit' as const },
      { ...base, id: 'cut', state: 'interrupted' as const, interruptedFor: 'usage-limit' as const },
      { ...base, id: 'run', state: 'running' as const, interruptedFor: null },
    ];
    expect(sessionsToInterrupt(views, 'sleep')).toEqual(['run']);
    expect(sessionsToInterrupt(views, 'network')).toEqual(['run']);
    expect(sessionsToResume(views, 'sleep')).toEqual(['lim', 'cut']);
    expect(sessionsToResume(views, 'network')).toEqual([]);
  });

  it('retries a limit with no reset time after 15 min, doubling to at most 2 h', () => {
    expect([0, 1, 2, 3, 4, 10].map((k) => limitRetryDelay(k) / 60_000)).toEqual([15, 30, 60, 120, 120, 120]);
  });
});
