// The fake agent's soak mode (FAKE_AGENT_SOAK_DIR; testkit/fake-agent.mjs runs it, soak/ drives it):
// its numbered lines, its own record, its calls to the soak's API stand-in and the usage limit the
// soak sets for it. The screens stay fake-agent.mjs's; this module says what a turn meets.
//   FAKE_AGENT_SOAK_DIR      its record, <dir>/<project>.jsonl, and the soak's control files
//   FAKE_AGENT_SOAK_TURN_MS  a turn's length (default 2000), and the idle time before the next
//   FAKE_AGENT_SOAK_API      host:port of the API stand-in, connected to at each turn's start; a
//                            refused or timed-out connection is a failed request, retried as Claude
//                            Code does (its countdown, RETRY_ATTEMPTS times RETRY_MS), then given up
//                            with its API error at the prompt until something is typed. Unset: no call.
//   FAKE_AGENT_SOAK_RETRY_MS the countdown between attempts instead of RETRY_MS (tests of this mode)
//   <dir>/<project>.limit.json  {text, resetAt}: written by the soak; while resetAt (epoch ms) is
//                            ahead, a turn whose API call went through ends on `text` as Claude Code's
//                            usage-limit line (and its StopFailure hook) and the agent waits for
//                            input; typed before the reset it meets the limit again.
// Plain Node, no dependencies.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** Claude Code's countdown between attempts ("Retrying in 2s") … */
export const RETRY_MS = 2_000;
/** … for this many attempts after the first failure: 10 s of retries before its API error at the prompt. */
export const RETRY_ATTEMPTS = 5;
/** A call that has not connected by then failed: a loopback handshake takes well under a millisecond, a loaded machine's a second. */
const CALL_TIMEOUT_MS = 3_000;

const read = (f) => {
  try {
    return fs.readFileSync(f, 'utf8');
  } catch {
    return '';
  }
};

/** The soak state of this agent: its tag (the project's name), its record, its work log and its next line's number. */
export function soakSetup(dir, env) {
  const tag = path.basename(process.cwd());
  const record = path.join(dir, `${tag}.jsonl`);
  const workLog = path.join(env.MORI_STATE_DIR ?? '.', 'work_log.md');
  let last = 0;
  for (const m of read(record).matchAll(/"event":"line(?:-begin)?","n":(\d+)/g)) last = Math.max(last, Number(m[1]));
  for (const m of read(workLog).matchAll(new RegExp(`^- soak ${tag} #(\\d+) ok$`, 'gm'))) last = Math.max(last, Number(m[1]));
  const api = /^(.+):(\d+)$/.exec(env.FAKE_AGENT_SOAK_API ?? '');
  return {
    tag,
    record,
    workLog,
    limitFile: path.join(dir, `${tag}.limit.json`),
    api: api ? { host: api[1], port: Number(api[2]) } : null,
    next: last + 1,
    turnMs: Number(env.FAKE_AGENT_SOAK_TURN_MS || 2000),
    retryMs: Number(env.FAKE_AGENT_SOAK_RETRY_MS || RETRY_MS),
    timer: null,
    since: Date.now(),
    /** Bumped by every turn: a call or a retry of a turn that was replaced goes no further. */
    turn: 0,
    /** At its limit or its API error: no turn of its own until something is typed. */
    held: false,
  };
}

/**
 * One numbered line: begun, appended in one write, then recorded as written. A write that fails (a
 * full disk) is recorded as `line-failed` and the agent goes on, as a careful agent does; one the disk
 * cut short is taken back first, so no torn line is left for the next line to join.
 */
export function soakLine(soak, record) {
  const n = soak.next++;
  record({ event: 'line-begin', n });
  try {
    appendWhole(soak.workLog, Buffer.from(`- soak ${soak.tag} #${n} ok\n`));
  } catch (err) {
    record({ event: 'line-failed', n, code: err.code ?? String(err) });
    return;
  }
  record({ event: 'line', n });
}

/** Appends `bytes` in one write, or not at all: a short write is cut off again while it is still the file's end. */
function appendWhole(file, bytes) {
  const fd = fs.openSync(file, 'a');
  try {
    const written = fs.writeSync(fd, bytes);
    if (written === bytes.length) return;
    const size = fs.fstatSync(fd).size;
    const tail = Buffer.alloc(written);
    const rfd = fs.openSync(file, 'r');
    try {
      fs.readSync(rfd, tail, 0, written, size - written);
    } finally {
      fs.closeSync(rfd);
    }
    if (tail.equals(bytes.subarray(0, written)) && fs.fstatSync(fd).size === size) fs.ftruncateSync(fd, size - written);
    throw Object.assign(new Error(`short write (${written} of ${bytes.length} bytes)`), { code: 'ENOSPC' });
  } finally {
    fs.closeSync(fd);
  }
}

/** Claude Code's words for a failed connection. */
const connectWords = (code) => (code === 'ECONNREFUSED' ? 'ConnectionRefused' : code === 'ETIMEDOUT' ? 'ConnectionTimeout' : code);

/** One request to the API stand-in (a TCP handshake): null when it answered, else the error code. */
export function callApi(soak) {
  if (soak.api === null) return Promise.resolve(null);
  return new Promise((resolve) => {
    const socket = net.connect(soak.api);
    const done = (code) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(code);
    };
    const timer = setTimeout(() => done('ETIMEDOUT'), CALL_TIMEOUT_MS);
    socket.once('connect', () => done(null));
    socket.once('error', (err) => done(err.code ?? 'ECONNRESET'));
  });
}

/** The usage limit the soak set for this agent, while its reset is ahead; else null. */
export function soakLimit(soak) {
  try {
    const limit = JSON.parse(read(soak.limitFile));
    if (typeof limit?.text === 'string' && typeof limit?.resetAt === 'number' && limit.resetAt > Date.now()) return limit;
  } catch {
    // no control file, or one being written: no limit
  }
  return null;
}

/**
 * A soak turn of `ms`, its working screen already shown: the API called first (while the stand-in is
 * away, Claude Code's retry countdown, then its API error at the prompt, held until input), then the
 * usage limit the soak set met (its line at the prompt, held until input), else the work, which
 * ends with its numbered line. `agent` is fake-agent.mjs's screen and timers.
 */
export function soakTurn(soak, ms, agent) {
  const turn = ++soak.turn;
  soak.since = Date.now();
  soak.held = false;
  const attempt = (k) =>
    callApi(soak).then((code) => {
      // Replaced meanwhile (typed input began another turn) or ended.
      if (turn !== soak.turn || !agent.working()) return;
      if (code !== null) {
        agent.record({ event: 'api-failed', code, attempt: k });
        const why = `Unable to connect to API (${connectWords(code)})`;
        if (k >= RETRY_ATTEMPTS) {
          soak.held = true;
          return agent.fail(why);
        }
        agent.spinner(`✻ ${why} · Retrying in ${Math.ceil(soak.retryMs / 1000)}s · attempt ${k + 1}/${RETRY_ATTEMPTS}`);
        return agent.later(() => attempt(k + 1), soak.retryMs);
      }
      if (k > 0) agent.spinner('✻ Working… (esc to interrupt)');
      const limit = soakLimit(soak);
      if (limit === null) return agent.later(() => agent.done(), ms);
      agent.record({ event: 'limit', resetAt: limit.resetAt, text: limit.text });
      soak.held = true;
      agent.limit(limit.text);
    });
  attempt(0);
}
