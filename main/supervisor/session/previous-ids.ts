// The agent's earlier conversations a session keeps (session.json's agent.previousIds): a fresh start
// leaves the old one behind so the person can go back to it. Pure; runs in the supervisor's process.
import type { SessionRecord } from '../../../common/session.js';

/** Earlier agent session ids kept: a person goes back a few conversations, not hundreds (session.ts's bound). */
export const PREVIOUS_IDS_KEPT = 50;

/** The agent record once a fresh start left `oldId` behind: kept last in previousIds (once), oldest dropped past the bound. */
export function leaveBehind(agent: SessionRecord['agent'], oldId: string | null): SessionRecord['agent'] {
  if (oldId === null) return agent;
  const ids = [...agent.previousIds.filter((x) => x !== oldId), oldId].slice(-PREVIOUS_IDS_KEPT);
  return { ...agent, previousIds: ids };
}
