// A removal or a rename against the registry's watch, for real in this process (real files, the
// registry's real lock): the supervisor lets go of the session before the registry is rewritten, and
// a watch tick in between (forced here by holding the registry's lock while the tick runs) must not
// load the session again from its old entry — a ghost listed by the supervisor and holding the state
// dir's lock — nor report it as unloadable.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tryLock } from '../../../../main/state/pid-lock.js';
import { SESSION_LOCK } from '../../../../main/state/session-summary.js';
import type { Supervisor } from '../../../../main/supervisor/supervisor.js';
import { until } from '../../../../testkit/until.js';
import { SupervisorHarness } from '../../../support/supervisor-harness.js';

let h: SupervisorHarness;
beforeEach(() => {
  h = new SupervisorHarness('registry-race');
});
afterEach(() => h.cleanup());

/** A supervisor holding session `name`, loaded (registered after its start, as `mori init` does) and not started. */
async function loadedSession(name: string): Promise<{ s: Supervisor; stateDir: string }> {
  const s = h.supervisor({ env: h.env(), verify: false });
  expect((await s.start()).ok).toBe(true);
  const stateDir = await h.session(name);
  expect(s.loadSession(name).ok).toBe(true);
  return { s, stateDir };
}

/**
 * Runs `change` with the registry's lock held by this test until the supervisor has let go of
 * session `name`; then runs one tick of the registry's watch, lets the registry be written and
 * returns the change's answer and what the tick did.
 */
async function withTickBetween<T>(s: Supervisor, name: string, change: () => Promise<T>): Promise<{ result: T; tick: ReturnType<Supervisor['loadNewlyRegistered']> }> {
  const registryLock = tryLock(path.join(h.home, 'registry.lock'), 'test: the registry write waits');
  if (!registryLock.ok) throw new Error('the registry lock is held');
  const pending = change();
  await until(`the supervisor to let go of ${name}`, () => !s.list().some((l) => l.name === name));
  const tick = s.loadNewlyRegistered();
  registryLock.release();
  return { result: await pending, tick };
}

describe('the registry watch during a removal or a rename', () => {
  it('does not load a session being removed again (no ghost holding its lock)', async () => {
    const { s, stateDir } = await loadedSession('gone');
    const { result, tick } = await withTickBetween(s, 'gone', () => s.admin.remove('gone', false));
    expect(result.ok, result.ok ? '' : result.message).toBe(true);
    expect(tick.ok && tick.value).toEqual({ loaded: [], skipped: [] });
    expect(s.list().map((l) => l.name)).toEqual([]);
    // Nobody holds the kept state dir's lock.
    const lock = tryLock(path.join(stateDir, SESSION_LOCK), 'test');
    expect(lock.ok).toBe(true);
    if (lock.ok) lock.release();
  });

  it('does not load a session being renamed from its old entry, and it is listed once under its new name', async () => {
    const { s } = await loadedSession('before');
    const id = s.list()[0]?.id;
    const { result, tick } = await withTickBetween(s, 'before', () => s.admin.rename('before', 'after'));
    expect(result.ok, result.ok ? '' : result.message).toBe(true);
    expect(tick.ok && tick.value).toEqual({ loaded: [], skipped: [] });
    expect(s.list().map((l) => [l.id, l.name])).toEqual([[id, 'after']]);
    // A later tick finds nothing new.
    const later = s.loadNewlyRegistered();
    expect(later.ok && later.value).toEqual({ loaded: [], skipped: [] });
  });
});
