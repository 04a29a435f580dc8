// One session's usage reader (DESIGN.md §5 "Usage"): finds the agent's record of its current agent
// session through the profile's usage capability, tails it (jsonl-tail.ts) and tallies what was
// appended. Held by the daemon per session, so each listing reads only what the agent wrote since
// the last. A record replaced or shrunk is tallied again from its start. Runs in the daemon's process.
import { isAgentFileError } from '../../os/agent-file.js';
import type { AgentSessionRef, Env } from '../profile.js';
import { JsonlTail } from './jsonl-tail.js';
import type { UsageLineParser, UsageSource } from './usage-record.js';
import { UsageTally } from './usage-tally.js';

export class SessionUsageReader {
  private tail: JsonlTail | null = null;
  private parser: UsageLineParser | null = null;
  private tally_: UsageTally;
  private refKey: string | null = null;
  private problem_: string | null = null;

  constructor(
    private readonly source: UsageSource,
    private readonly env: Env,
    private readonly zone: string,
  ) {
    this.tally_ = new UsageTally(source.provider, zone);
  }

  /**
   * Reads what was appended to the record of `ref` (another agent session starts the figures over);
   * true when read up to its end (false: more than one read's budget was waiting, or no record).
   */
  async refresh(ref: AgentSessionRef): Promise<boolean> {
    const key = `${ref.agentSessionId ?? ''}\n${ref.cwd}`;
    if (key !== this.refKey) {
      this.restart();
      this.tail = null;
      this.refKey = key;
    }
    if (this.tail === null) {
      if (ref.agentSessionId === null) {
        this.problem_ = 'no agent session yet';
        return true;
      }
      const file = await this.source.file(ref, this.env);
      if (file === null) {
        this.problem_ = 'the agent has not written its record of this session yet';
        return true;
      }
      this.tail = new JsonlTail(file, this.source.needles);
    }
    const read = await this.tail.read();
    if (isAgentFileError(read)) {
      this.problem_ = read.message;
      return true;
    }
    this.problem_ = null;
    if (read.restarted) this.restart();
    const parser = (this.parser ??= this.source.parser());
    for (const line of read.lines) {
      const r = parser.line(line);
      if (r !== null) this.tally_.add(r);
    }
    return read.caughtUp;
  }

  private restart(): void {
    this.parser = null;
    this.tally_ = new UsageTally(this.source.provider, this.zone);
  }

  get tally(): UsageTally {
    return this.tally_;
  }

  /** Why the last refresh found no figures, or null. */
  get problem(): string | null {
    return this.problem_;
  }
}
