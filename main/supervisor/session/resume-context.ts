// What an interruption that a resume ends looked like, for the log entry and the resume prompt: the
// wake or the network's return hands it to the resume path, a usage limit's resume and a relaunch
// carry it on. A type only. Runs in the supervisor's process.

export interface ResumeContext {
  /** How long the session was away (asleep or offline), when known. */
  awayMs: number | null;
  /** What a verification already done for this resume found; null: verify now (unless verification is off). */
  checks: string | null;
  /** Aborts the verification (a new sleep or network loss): the session goes back to interrupted. */
  signal?: AbortSignal;
}
