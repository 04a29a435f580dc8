// When a rollback waits for the person's confirmation, apart from checkpoints.ts's zod schemas so the
// window's entry can ask it without the schema library. Pure TypeScript.

/** Why a rollback waits for the person's confirmation: the agent is mid-turn and would write over it. */
export function rollbackNeedsConfirm(live: { state: string; activity: string } | null | undefined): boolean {
  return live != null && live.state === 'running' && live.activity === 'working';
}
