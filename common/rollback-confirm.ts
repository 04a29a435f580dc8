// When a rollback waits for the person's confirmation and what Mori says then, apart from
// checkpoints.ts's zod schemas so the window's entry and the CLI's `changes` ask it without building
// them. Pure TypeScript.

/** Why a rollback waits for the person's confirmation: the agent is mid-turn and would write over it. */
export function rollbackNeedsConfirm(live: { state: string; activity: string } | null | undefined): boolean {
  return live != null && live.state === 'running' && live.activity === 'working';
}

export const BUSY_MESSAGE = 'the agent is working: rolling back now could mix its edits with the restored files; confirm (`--yes`) to go ahead anyway, or wait';
