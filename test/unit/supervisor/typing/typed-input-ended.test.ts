// An agent that ends on the input it was typed (a `/exit`, a crash command) closes its terminal's
// mirror, and that can come before its exit is recorded: delivery counts it as taken, never as "the
// terminal went away". The race is a matter of microseconds with a real pty, so the terminal here
// is a scripted one whose mirror closes on Enter while its exit is still unknown. Time is the manual
// clock, moved on while a delivery is under way.
import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../../../main/agents/profiles.js';
import type { SessionRuntime } from '../../../../main/supervisor/session/session-runtime.js';
import { deliverText, typeInto, type DeliveryTarget } from '../../../../main/supervisor/typing/typed-input.js';
import { CLAUDE_TYPING } from '../../../../main/agents/claude/profile.js';
import type { Terminal } from '../../../../main/terminals/terminal.js';
import { ManualTime } from '../../../support/fakes/manual-time.js';

/** Manual time's step while a delivery is pending: under the delivery's 100 ms poll. */
const STEP_MS = 5;

/** Runs `start` on a manual clock that moves on until the promise it returns settles. */
function onManualTime<T>(start: (time: ManualTime) => Promise<T>): Promise<T> {
  const time = new ManualTime();
  return time.driveUntilSettled(start(time), STEP_MS);
}

/** Echoes what is typed under Claude's prompt footer; Enter closes the mirror, the exit not yet known. */
function endingTerminal(): Terminal {
  let typed = '';
  let closed = false;
  const t = {
    exit: null,
    write(data: string): void {
      if (data === '\r') closed = true;
      else typed += data.replace(/\x1b\[20[01]~/g, '');
    },
    screenText: (): Promise<string> => (closed ? Promise.reject(new Error('the terminal mirror is closed')) : Promise.resolve(`❯ ${typed}\n${'─'.repeat(60)}\n  ? for shortcuts`)),
  };
  return t as unknown as Terminal;
}

describe('typing into an agent that ends on Enter', () => {
  it('is taken when the mirror closes before the exit is recorded', async () => {
    const terminal = endingTerminal();
    const rt = {
      terminal,
      activity: 'waiting',
      projectDir: '/nowhere',
      profile: PROFILES.claude,
      session: { agent: { sessionId: null, cwd: null } },
    } as unknown as SessionRuntime;
    expect(await onManualTime((time) => typeInto(rt, terminal, 'crash', true, {}, { clock: time, scheduler: time }))).toEqual({ kind: 'submitted' });
  });
});

describe('delivery to a terminal that closes after Enter', () => {
  it('is taken when the screen can no longer be read between two looks', async () => {
    let typed = '';
    let entered = false;
    let reads = 0;
    const target: DeliveryTarget = {
      write: (data) => {
        if (data === '\r') entered = true;
        else typed += data.replace(/\x1b\[20[01]~/g, '');
      },
      // After Enter, the first look still reads the screen; the terminal is gone by the second.
      screenText: () => (entered && ++reads > 1 ? Promise.reject(new Error('the terminal mirror is closed')) : Promise.resolve(`❯ ${typed}\n${'─'.repeat(60)}\n  ? for shortcuts`)),
      activity: () => 'waiting',
      busy: async () => {
        if (entered) await target.screenText();
        return false;
      },
    };
    expect(await onManualTime((time) => deliverText(target, 'crash', CLAUDE_TYPING, { clock: time, scheduler: time }))).toEqual({ kind: 'submitted' });
  });
});
