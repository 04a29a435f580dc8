// deliverText against a scripted fake input box that behaves as the real CLIs were seen to: a long
// burst of keys is read as a paste whose CR is dropped (Claude Code, Codex), a bracketed paste is
// taken whole, the screen repaints a moment after input, Enter on its own submits and the agent goes
// busy. Proves type → shown → Enter alone → busy → one retry → not-submitted, and that nothing is
// typed while the agent retries by itself. Time is the manual clock (test/support/fakes/manual-time.ts),
// moved on while a delivery is under way: its real timeouts and polls cost no real time.
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentActivity } from '../../../../common/agent-activity.js';
import { CLAUDE_TYPING } from '../../../../main/agents/claude/profile.js';
import { GEMINI_TYPING } from '../../../../main/agents/gemini/profile.js';
import { PLAIN_TYPING } from '../../../../main/agents/shell/profile.js';
import type { TypingRules } from '../../../../main/agents/typing.js';
import { CONFIRM_TIMEOUT_MS, deliverText, SHOW_TIMEOUT_MS, type DeliveryOutcome, type DeliveryTarget } from '../../../../main/supervisor/typing/typed-input.js';
import { ManualTime } from '../../../support/fakes/manual-time.js';

/** Manual time moves in steps this small, under the 30 ms repaint lag and the 100 ms poll, so no wait is skipped over. */
const STEP_MS = 5;

let time: ManualTime;
beforeEach(() => {
  time = new ManualTime();
});

/** deliverText on the manual clock, which moves on while the delivery's promise is pending. */
function deliver(target: DeliveryTarget, text: string, rules: TypingRules): Promise<DeliveryOutcome> {
  return time.driveUntilSettled(deliverText(target, text, rules, { clock: time, scheduler: time }), STEP_MS);
}
const NUDGE =
  'You were interrupted (connection lost or the machine slept). Re-read .mori/s/session_state.md, then continue where you left off and keep .mori/s/work_log.md current.';

interface FakeOptions {
  /** A burst of keys longer than this is a paste: its CRs are dropped (0: never). */
  pasteBurstChars?: number;
  /** Screen repaint lag after input. */
  renderMs?: number;
  /** The first N lone Enters are lost (a CLI that was still busy with the paste). */
  dropEnters?: number;
  /** The agent never reports busy (its turn cannot start). */
  neverBusy?: boolean;
  /** Typed text is not echoed (a modal, a program that hides input). */
  noEcho?: boolean;
  /** A retry countdown on screen. */
  retrying?: boolean;
  /** Lines already on screen (an earlier turn). */
  history?: string[];
  /** Busy is only in the status (screen and activity say nothing). */
  statusOnly?: boolean;
}

/** A one-line input box over a history, drawn like Claude Code's. */
class FakeAgent {
  readonly writes: { data: string; at: number; screen: string }[] = [];
  readonly submitted: string[] = [];
  private box = '';
  private painted = '';
  private busyNow = false;
  private wentBusy = false;
  private dropEnters: number;
  readonly history: string[];

  constructor(private readonly o: FakeOptions = {}) {
    this.dropEnters = o.dropEnters ?? 0;
    this.history = [...(o.history ?? [])];
    this.painted = this.render();
  }

  private render(): string {
    const retry = this.o.retrying ? ['✻ Unable to connect to API (ConnectionRefused) · Retrying in 5s · attempt 3/10'] : [];
    const spinner = this.busyNow && !this.o.statusOnly ? ['✻ Working… (esc to interrupt)'] : [];
    // The box wraps at 60 columns with a two-space indent, as a TUI would.
    const wrapped = (this.o.noEcho ? '' : this.box).match(/.{1,60}/gs) ?? [''];
    return [...this.history, ...retry, ...spinner, '─'.repeat(60), ...wrapped.map((l, i) => (i === 0 ? `❯ ${l}` : `  ${l}`)), '─'.repeat(60)].join('\n');
  }

  private repaint(): void {
    time.after(this.o.renderMs ?? 30, () => (this.painted = this.render()));
  }

  private submit(): void {
    if (this.box === '') return;
    this.submitted.push(this.box);
    this.history.push(`❯ ${this.box}`);
    this.box = '';
    if (this.o.neverBusy) return;
    this.busyNow = true;
    this.wentBusy = true;
    time.after(200, () => {
      this.busyNow = false;
      this.history.push('● OK.');
      this.repaint();
    });
  }

  readonly target: DeliveryTarget = {
    write: (data) => {
      this.writes.push({ data, at: time.monoMs(), screen: this.painted });
      if (data.startsWith('\x1b[200~') && data.endsWith('\x1b[201~')) {
        this.box += data.slice(6, -6);
      } else if (this.o.pasteBurstChars && data.length > this.o.pasteBurstChars) {
        this.box += data.replace(/\r/g, ''); // read as a paste: the CR inside is lost
      } else {
        for (const ch of data) {
          if (ch !== '\r') this.box += ch;
          else if (this.dropEnters > 0) this.dropEnters--;
          else if (!this.o.retrying) this.submit();
        }
      }
      this.repaint();
    },
    screenText: () => Promise.resolve(this.painted),
    activity: (): AgentActivity => (this.busyNow && !this.o.statusOnly ? 'working' : 'waiting'),
    busy: () => Promise.resolve(this.busyNow || this.wentBusy),
  };
}

describe('deliverText', () => {
  it('the fake drops the CR of a long burst, as Claude Code does (text + CR in one write stays in the box)', () => {
    const agent = new FakeAgent({ pasteBurstChars: 60 });
    agent.target.write(`${NUDGE}\r`);
    expect(agent.submitted).toEqual([]);
  });

  it('claude: pastes the text, waits until it shows, sends Enter alone, and sees the agent go busy', async () => {
    const agent = new FakeAgent({ pasteBurstChars: 60, history: ['❯ earlier turn', '● Done.'] });
    expect(await deliver(agent.target, NUDGE, CLAUDE_TYPING)).toEqual({ kind: 'submitted' });
    expect(agent.submitted).toEqual([NUDGE]);
    expect(agent.writes.map((w) => w.data)).toEqual([`\x1b[200~${NUDGE}\x1b[201~`, '\r']);
    // Enter went only once the wrapped text was on screen.
    expect(agent.writes[1]!.screen.replace(/\s/g, '')).toContain(NUDGE.replace(/\s/g, '').slice(-60));
  });

  it('an earlier echo of the same text does not count: Enter waits for the new one to show', async () => {
    const agent = new FakeAgent({ pasteBurstChars: 60, renderMs: 300, history: [`❯ ${NUDGE}`, '● OK.'] });
    expect(await deliver(agent.target, NUDGE, CLAUDE_TYPING)).toEqual({ kind: 'submitted' });
    const typedAt = agent.writes[0]!.at;
    expect(agent.writes[1]!.at - typedAt).toBeGreaterThanOrEqual(280);
  });

  it('a lost Enter is sent once more', async () => {
    const agent = new FakeAgent({ pasteBurstChars: 60, dropEnters: 1 });
    expect(await deliver(agent.target, NUDGE, CLAUDE_TYPING)).toEqual({ kind: 'submitted' });
    expect(agent.writes.map((w) => w.data).slice(1)).toEqual(['\r', '\r']);
    expect(agent.submitted).toEqual([NUDGE]);
  });

  it('an agent that never goes busy: not submitted after two Enters', async () => {
    const agent = new FakeAgent({ pasteBurstChars: 60, dropEnters: 5 });
    const r = await deliver(agent.target, NUDGE, CLAUDE_TYPING);
    expect(r).toEqual({ kind: 'not-submitted', why: expect.stringContaining('did not start working') as string });
    expect(agent.writes.map((w) => w.data).slice(1)).toEqual(['\r', '\r']);
    // Enter went again only once the agent had had its full time to go busy.
    expect(agent.writes[2]!.at - agent.writes[1]!.at).toBeGreaterThanOrEqual(CONFIRM_TIMEOUT_MS);
  });

  it('busy seen only in the status (a turn over before the screen repainted) counts', async () => {
    const agent = new FakeAgent({ pasteBurstChars: 60, statusOnly: true });
    expect(await deliver(agent.target, 'continue', CLAUDE_TYPING)).toEqual({ kind: 'submitted' });
  });

  it('types nothing while the agent retries by itself', async () => {
    const agent = new FakeAgent({ pasteBurstChars: 60, retrying: true });
    expect(await deliver(agent.target, NUDGE, CLAUDE_TYPING)).toEqual({ kind: 'agent-retrying' });
    expect(agent.writes).toEqual([]);
  });

  it('text that never shows is not followed by Enter (it could answer a menu)', async () => {
    const agent = new FakeAgent({ noEcho: true });
    const r = await deliver(agent.target, NUDGE, CLAUDE_TYPING);
    expect(r).toEqual({ kind: 'not-submitted', why: expect.stringContaining('did not show') as string });
    expect(time.monoMs() - agent.writes[0]!.at).toBeGreaterThanOrEqual(SHOW_TIMEOUT_MS);
    expect(agent.writes.map((w) => w.data)).toEqual([`\x1b[200~${NUDGE}\x1b[201~`]);
  });

  it('a screen that collapses a long paste into a placeholder counts as showing it', async () => {
    const agent = new FakeAgent({ noEcho: true });
    const long = 'x'.repeat(1_000);
    const target: DeliveryTarget = {
      ...agent.target,
      screenText: () => Promise.resolve(agent.writes.length > 0 ? '❯ [Pasted text #1]' : '❯ '),
    };
    expect(await deliver(target, long, CLAUDE_TYPING)).toEqual({ kind: 'submitted' });
  });

  it('gemini: the first character alone, a pause, then the rest; Enter after', async () => {
    const agent = new FakeAgent();
    expect(await deliver(agent.target, 'why? and how?', GEMINI_TYPING)).toEqual({ kind: 'submitted' });
    const data = agent.writes.map((w) => w.data);
    expect(data).toEqual(['w', 'hy? and how?', '\r']);
    expect(agent.writes[1]!.at - agent.writes[0]!.at).toBeGreaterThanOrEqual(GEMINI_TYPING.firstCharAloneMs - 5);
    expect(agent.submitted).toEqual(['why? and how?']);
  });

  it('a shell: typed and entered, nothing to wait for', async () => {
    const agent = new FakeAgent({ noEcho: true, neverBusy: true });
    expect(await deliver(agent.target, 'make test', PLAIN_TYPING)).toEqual({ kind: 'submitted' });
    expect(agent.writes.map((w) => w.data)).toEqual(['make test', '\r']);
  });

  it('a terminal that goes away mid-delivery is reported, not thrown', async () => {
    const agent = new FakeAgent();
    const target: DeliveryTarget = { ...agent.target, screenText: () => Promise.reject(new Error('mirror disposed')) };
    const rules: TypingRules = CLAUDE_TYPING;
    expect(await deliver(target, 'hi', rules)).toEqual({ kind: 'not-submitted', why: expect.stringContaining('mirror disposed') as string });
  });
});
