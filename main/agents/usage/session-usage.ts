// One session's usage reader (DESIGN.md §5 "Usage"): finds the agent's record of its current agent
// session through the profile's usage capability, tails it (jsonl-tail.ts) and tallies what was
// appended. Held by the daemon per session, so each listing reads only what the agent wrote since
// the last. A record replaced or shrunk is tallied again from its start. An agent whose sessions
// share a store (opencode's database) hands over all of a session's requests at each read: they are
// tallied again when they are not the list the last read gave. Runs in the daemon's process.
import { isAgentFileError } from '../../os/agent-file.js';
import type { AgentSessionRef, Env } from '../profile.js';
import { JsonlTail } from './jsonl-tail.js';
import type { StoreUsageSource, UsageLineParser, UsageRecord, UsageSource } from './usage-record.js';
import { UsageTally } from './usage-tally.js';

const NO_SESSION = 'no agent session yet';
const NOT_WRITTEN = 'the agent has not written its record of this session yet';

export class SessionUsageReader {
  private tail: JsonlTail | null = null;
  private parser: UsageLineParser | null = null;
  private tally_: UsageTally;
  private refKey: string | null = null;
  private problem_: string | null = null;
  /** The requests a store gave at the last read, tallied. */
  private tallied: readonly UsageRecord[] | null = null;

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
    const source = this.source;
    if ('requests' in source) return this.refreshStore(source, ref);
    if (this.tail === null) {
      if (ref.agentSessionId === null) {
        this.problem_ = NO_SESSION;
        return true;
      }
      const file = await source.file(ref, this.env);
      if (file === null) {
        this.problem_ = NOT_WRITTEN;
        return true;
      }
      this.tail = new JsonlTail(file, source.needles);
    }
    const read = await this.tail.read();
    if (isAgentFileError(read)) {
      this.problem_ = read.message;
      return true;
    }
    this.problem_ = null;
    if (read.restarted) this.restart();
    const parser = (this.parser ??= source.parser());
    for (const line of read.lines) {
      const r = parser.line(line);
      if (r !== null) this.tally_.add(r);
    }
    return read.caughtUp;
  }

  /** A store's read: the session's requests, tallied again when they changed. Always read up to its end. */
  private async refreshStore(source: StoreUsageSource, ref: AgentSessionRef): Promise<boolean> {
    if (ref.agentSessionId === null) {
      this.problem_ = NO_SESSION;
      return true;
    }
    const got = await source.requests(ref, this.env);
    if (got === null || isAgentFileError(got)) {
      // An absent store is a record not written yet; a refused one says why.
      this.problem_ = got === null || got.problem === 'absent' ? NOT_WRITTEN : got.message;
      return true;
    }
    this.problem_ = null;
    if (got !== this.tallied) {
      this.restart();
      for (const r of got) this.tally_.add(r);
      this.tallied = got;
    }
    return true;
  }

  private restart(): void {
    this.parser = null;
    this.tallied = null;
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
