// Types of testkit/fake-agent-soak.mjs for the TypeScript that reads its constants (the soak's
// schedule tests hold an API outage inside an agent's retries). The module is plain Node.

/** Claude Code's countdown between attempts, ms. */
export const RETRY_MS: number;
/** Attempts after the first failure before the agent gives up with its API error. */
export const RETRY_ATTEMPTS: number;

export interface Soak {
  tag: string;
  record: string;
  workLog: string;
  limitFile: string;
  api: { host: string; port: number } | null;
  next: number;
  turnMs: number;
  retryMs: number;
  since: number;
  turn: number;
  held: boolean;
}

export function soakSetup(dir: string, env: Record<string, string | undefined>): Soak;
export function soakLine(soak: Soak, record: (obj: Record<string, unknown>) => void): void;
export function callApi(soak: Soak): Promise<string | null>;
export function soakLimit(soak: Soak): { text: string; resetAt: number } | null;
export function soakTurn(soak: Soak, ms: number, agent: Record<string, unknown>): void;
