// Batches one terminal's output before it goes to views and listeners (like VS Code's
// TerminalDataBufferer): many small pty reads become one frame every few milliseconds, so IPC and
// rendering cost per frame, not per read. Runs in the supervisor's process.

/** Short enough to be invisible when typing, long enough to merge a burst of reads into one frame. */
export const OUTPUT_BATCH_MS = 5;

export class OutputBatcher {
  private parts: string[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deliver: (data: string) => void,
    private readonly delayMs = OUTPUT_BATCH_MS,
  ) {}

  push(data: string): void {
    if (data.length === 0) return;
    this.parts.push(data);
    this.timer ??= setTimeout(() => this.flush(), this.delayMs);
  }

  /** Delivers what is pending now (e.g. before an exit event, so output always precedes it). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.parts.length === 0) return;
    // Concatenated, not joined: `+` makes a rope that is copied flat only if a view's frame is
    // serialized, while join copies every byte at once — at pty speed that copy (into fresh pages)
    // cost more than reading the output, for listeners that only note that output came.
    let data = '';
    for (const part of this.parts) data += part;
    this.parts = [];
    this.deliver(data);
  }

  dispose(): void {
    this.flush();
  }
}
