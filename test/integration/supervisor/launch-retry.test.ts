// A launch whose terminal could not be started because its tmux server was killed meanwhile is tried
// again, not left in attention all night (DESIGN.md §4). A real `mori up` runs its tmux through a
// `tmux` first on its PATH that, on the first `new-session`s, SIGKILLs the real server and answers as
// tmux does when its server dies under it; after that it is the real tmux. A launch that keeps failing
// asks for attention after its retries, naming the failure.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../../../testkit/until.js';
import { DEADLINE_MS, hasEvent, UpHarness, type Up } from '../../support/mori-up.js';

const REAL_TMUX = execFileSync('sh', ['-c', 'command -v tmux'], { encoding: 'utf8' }).trim();

let h: UpHarness;
beforeEach(() => {
  h = new UpHarness('launch-retry');
});
afterEach(() => h.cleanup());

/** A PATH holding a `tmux` whose new-sessions after the first `spared` kill the server (`failures` of them) and fail as its death makes them. */
function killingTmux(failures: number, spared = 0): string {
  const bin = path.join(h.tmp, 'bin');
  mkdirSync(bin);
  const count = path.join(h.tmp, 'new-sessions');
  writeFileSync(
    path.join(bin, 'tmux'),
    `#!/bin/sh
case " $* " in
  *" new-session "*)
    n=$(cat '${count}' 2>/dev/null || echo 0)
    echo $((n + 1)) > '${count}'
    if [ "$n" -ge ${spared} ] && [ "$n" -lt ${spared + failures} ]; then
      pid=$('${REAL_TMUX}' -L '${h.socketName}' display -p '#{pid}' 2>/dev/null) && kill -9 "$pid"
      echo "server exited unexpectedly" >&2
      exit 1
    fi ;;
esac
exec '${REAL_TMUX}' "$@"
`,
  );
  chmodSync(path.join(bin, 'tmux'), 0o755);
  return `${bin}:${process.env.PATH ?? ''}`;
}

const wait = (what: string, cond: () => boolean, u: Up): Promise<void> => until(what, cond, () => u.stderr(), DEADLINE_MS);

describe("a launch whose tmux server was killed under it", () => {
  it('is tried again and the agent starts, the failure on record', async () => {
    // Two sessions: the second's launch kills the server the first's agent runs in.
    h.init('one', 'tmux');
    h.init('two', 'tmux');
    const up = h.up([], { PATH: killingTmux(1, 1) });
    const waiting = (name: string): boolean => hasEvent(up, 'session.activity', { name, to: 'waiting' });
    await wait('both agents at their prompts', () => waiting('one') && waiting('two'), up);
    expect(hasEvent(up, 'session.attention')).toBe(false);
    const logs = h.workLog('one') + h.workLog('two');
    expect(logs).toMatch(/SESSION NOTE - the agent's terminal could not be started \(tmux could not start .*server exited unexpectedly\); trying again in 1s/);
    expect(logs).not.toContain('NEEDS ATTENTION');
    // The server was killed under a running agent: a third start at least (the killed one's restart, or the retried one).
    expect(h.starts().length).toBeGreaterThanOrEqual(2);
  });

  it('asks for attention, naming the failure, when every try fails', async () => {
    h.init('broken', 'tmux');
    const up = h.up([], { PATH: killingTmux(100) });
    await wait('attention', () => hasEvent(up, 'session.attention', { name: 'broken' }), up);
    const attention = up.lines().find((e) => e['type'] === 'session.attention') ?? {};
    expect(attention['reason']).toBe('launch-failed');
    expect(String(attention['message'])).toContain('server exited unexpectedly');
    expect(h.starts()).toHaveLength(0);
    expect(h.workLog('broken').match(/trying again in \d+s/g)).toEqual(['trying again in 1s', 'trying again in 3s']);
  });
});
