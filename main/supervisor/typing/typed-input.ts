// How text reaches an agent: the one path every typed input takes (the nudge after an interruption,
// `mori send`, the first prompt typed into agents that take none on argv). Text with Enter goes
// through prompt-delivery.ts (the profile's typing rules, shown, entered, confirmed taken); keys
// without Enter are written as they are; an input that did not get through is logged (Typist). Runs
// in the supervisor's process.
import type { Env } from '../../agents/profile.js';
import { detectActivity } from '../../agents/screen-activity.js';
import type { Terminal } from '../../terminals/terminal.js';
import { deliverText, type DeliveryOutcome, type DeliveryTarget } from './prompt-delivery.js';
import type { SessionRuntime } from '../session/session-runtime.js';
import type { SessionStore } from '../session/session-store.js';

export type TypedInputOutcome = DeliveryOutcome;

/** What a typed input is for, for the work log when it does not get through. */
export type TypedInputPurpose = 'nudge' | 'send' | 'first prompt';

export async function typeInto(rt: SessionRuntime, terminal: Terminal, text: string, enter: boolean, env: Env): Promise<TypedInputOutcome> {
  if (terminal.exit !== null) return { kind: 'not-submitted', why: 'the agent has exited' };
  if (!enter) {
    terminal.write(text);
    return { kind: 'submitted' };
  }
  return deliverText(deliveryTarget(rt, terminal, env), text, rt.profile.typing);
}

/**
 * The terminal as delivery sees it. Busy: the agent exited (it acted on the input), its screen shows
 * it working, or its own record on disk says it took a prompt since delivery began (tookInputSince).
 */
function deliveryTarget(rt: SessionRuntime, t: Terminal, env: Env): DeliveryTarget {
  const since = Date.now();
  const agentId = rt.session.agent.sessionId;
  const agentCwd = rt.session.agent.cwd ?? rt.projectDir;
  return {
    write: (data) => t.write(data),
    screenText: () => t.screenText(),
    activity: () => rt.activity,
    busy: async () => {
      if (t.exit !== null || rt.terminal !== t) return true;
      if (detectActivity(rt.profile, await t.screenText()) === 'working') return true;
      return rt.profile.tookInputSince !== undefined && agentId !== null ? rt.profile.tookInputSince({ agentSessionId: agentId, cwd: agentCwd }, env, since) : false;
    },
  };
}

/** What typing needs: the agents' environment, and the work log for an input that did not get through. */
export interface TypistPorts {
  env: Env;
  store: Pick<SessionStore, 'log'>;
}

/** The one way typed text reaches an agent; an input that did not get through is logged. */
export class Typist {
  constructor(private readonly ports: TypistPorts) {}

  async type(rt: SessionRuntime, text: string, purpose: TypedInputPurpose, enter = true): Promise<TypedInputOutcome> {
    const { env, store } = this.ports;
    const t = rt.terminal;
    const outcome: TypedInputOutcome = t ? await typeInto(rt, t, text, enter, env) : { kind: 'not-submitted', why: 'the agent is not running' };
    if (outcome.kind === 'not-submitted') store.log(rt, `INPUT NOT SUBMITTED - ${purpose}: ${outcome.why}`);
    else if (outcome.kind === 'agent-retrying' && purpose !== 'nudge') store.log(rt, `INPUT NOT SUBMITTED - ${purpose}: the agent was retrying a request by itself`);
    return outcome;
  }
}
