// The way back at a usage limit's reset (DESIGN.md §5, "Hand-off"): a session handed to another
// agent at its first agent's limit, under the policy `handoff:<profile>` (back), goes back when that
// limit's planned resume comes. The other agent is ended (its own id kept in previousIds), the first
// one resumes by its own id, told what the other did (the work log's entries and the files changed
// since the hand-off's checkpoint: hand-back-words.ts), and the work log says `SESSION HANDED BACK -
// codex → claude (claude's usage limit reset)` before the launch's one SESSION RESUMED. The time is
// kept in session.json (`handedOver.until`): armed at the hand-off, and again when Mori starts.
// Runs in the supervisor's process.
import type { SupervisorEvent } from '../../../common/events.js';
import type { HandedOver, SessionRecord } from '../../../common/session.js';
import type { Env } from '../../agents/profile.js';
import { PROFILES } from '../../agents/profiles.js';
import { background } from '../../background.js';
import type { PowerClock, Scheduler } from '../../power/clock.js';
import { atWallTime } from '../../power/long-timer.js';
import { readTailEntries } from '../../state/work-log.js';
import { sessionChanges } from '../checkpoints/changes.js';
import type { ExitHandler } from '../exits/exit-handler.js';
import type { AgentLauncher } from '../launch/agent-launcher.js';
import { handBackDue } from '../limits/limit-fallback.js';
import type { MachineState } from '../session/machine-state.js';
import { leaveBehind } from '../session/previous-ids.js';
import type { SessionRuntime } from '../session/session-runtime.js';
import type { SessionStore } from '../session/session-store.js';
import { endAgent } from './handoff.js';
import { entriesSinceHandoff, handBackPreface, type HandBackInput } from './hand-back-words.js';
import { planRelaunchLaunch } from './launch-plan.js';

/** Work-log entries read back for the other agent's: its steps over a few hours, with Mori's own between them. */
const ENTRIES_READ = 100;

export interface HandBackPorts {
  home: string;
  env: Env;
  clock: PowerClock;
  scheduler: Scheduler;
  machine: Readonly<MachineState>;
  store: Pick<SessionStore, 'update' | 'log'>;
  launcher: Pick<AgentLauncher, 'launch' | 'ids'>;
  exits: Pick<ExitHandler, 'detach'>;
  emit(e: SupervisorEvent): void;
}

/** session.json once back with its first agent: its own id and directory again, the other's id kept, the hand-over and any limit of the other's gone. */
function backWith(s: SessionRecord, h: HandedOver, otherId: string | null): SessionRecord {
  const agent = leaveBehind(s.agent, otherId);
  const { command: _other, ...rest } = agent;
  return {
    ...s,
    agent: { ...rest, profile: h.from, sessionId: h.fromId, cwd: h.fromCwd, previousIds: rest.previousIds.filter((id) => id !== h.fromId) },
    intent: { kind: 'interrupted', reason: 'usage-limit' },
    handedOver: null,
    usageLimit: null,
    failedResume: null,
  };
}

export class HandBack {
  constructor(private readonly ports: HandBackPorts) {}

  /** Sets the session's way back for its time (at once when it passed); nothing when it is not handed over. */
  arm(rt: SessionRuntime): void {
    const { ports } = this;
    const due = handBackDue(rt.session, ports.clock.wallMs());
    if (due.kind === 'none') return rt.timers.clear('hand-back');
    const go = (): void => background(this.goBack(rt), `handing ${rt.name} back to its first agent`);
    if (due.kind === 'back') return go();
    const at = due.atMs;
    rt.timers.set(
      'hand-back',
      atWallTime(ports.clock, ports.scheduler, at, () => {
        rt.timers.fired('hand-back');
        go();
      }, true),
    );
  }

  /** The session goes back to its first agent, if it is still handed over and its time came. */
  async goBack(rt: SessionRuntime): Promise<void> {
    const { ports } = this;
    const h = rt.session.handedOver;
    const due = handBackDue(rt.session, ports.clock.wallMs());
    if (h === null || due.kind !== 'back' || ports.machine.shuttingDown) return;
    // Asleep: the wake's timers fire again (long-timer.ts), and this runs then.
    const gen = rt.takeCharge();
    rt.timers.clear('retry', 'limit', 'stuck', 'hand-back');
    rt.cancelRetry();
    const other = rt.profile;
    const back = PROFILES[h.from];
    const otherId = await ports.launcher.ids.discover(rt);
    await endAgent(ports, rt, `the session goes back to ${back.label}`);
    if (gen !== rt.generation || ports.machine.shuttingDown) return;
    const preface = handBackPreface(await this.whatTheOtherDid(rt, h, otherId));
    const written = await ports.store.update(rt.stateDir, (s) => backWith(s, h, otherId));
    if (!written.ok) return;
    rt.handOver(back);
    const reason = `${back.name}'s usage limit reset`;
    ports.store.log(rt, `SESSION HANDED BACK - ${other.name} → ${back.name} (${reason})${otherId === null ? '' : `; ${other.name} session ${otherId} kept in previousIds`}`);
    ports.emit({ type: 'session.handedOff', at: ports.clock.wallMs(), sessionId: rt.id, name: rt.name, from: other.name, to: back.name, reason });
    const plan = await planRelaunchLaunch({
      ...{ profile: back, home: ports.home, stateDir: rt.stateDir, session: written.value, reason: 'usage-limit', env: ports.env, failedResume: null },
      preface,
      byId: true,
    });
    if (gen !== rt.generation || ports.machine.shuttingDown) return;
    await ports.launcher.launch(rt, plan, { reason: 'usage-limit', context: null, gen, handedOff: true });
  }

  /** The other agent's entries since the hand-off, and the files changed since its checkpoint. */
  private async whatTheOtherDid(rt: SessionRuntime, h: HandedOver, otherId: string | null): Promise<HandBackInput> {
    let entries: HandBackInput['entries'] = [];
    try {
      entries = entriesSinceHandoff(readTailEntries(rt.stateDir, ENTRIES_READ), h);
    } catch (err) {
      this.ports.store.log(rt, `SESSION NOTE - the work log could not be read for the hand-back: ${String(err)}`);
    }
    const base = { back: PROFILES[h.from], other: rt.profile, otherId, entries };
    if (h.checkpoint === null) return { ...base, files: null, filesUnknown: 'no checkpoint was taken at the hand-off' };
    const changes = await sessionChanges(rt.stateDir, h.checkpoint);
    return changes.ok ? { ...base, files: changes.value.files } : { ...base, files: null, filesUnknown: changes.message };
  }
}
