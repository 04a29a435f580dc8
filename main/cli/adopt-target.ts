// `mori init --adopt <agent>:<id>`: a conversation an agent CLI's own supervisor holds (Claude Code's
// background service: `claude agents` lists them), found through its profile, so a Mori session can
// take it up by opening it there (`claude attach`), never by a copy. Runs in the CLI process.
import { fail, ok, type Result } from '../../common/result.js';
import { ProfileName } from '../../common/session.js';
import type { Env, HeldConversation } from '../agents/profile.js';
import { PROFILES } from '../agents/profiles.js';

/** `claude:3b8ccf36` or `claude:<uuid>`; ids are short and plain, so nothing odd reaches a file or a command line. */
const ADOPT_FORM = /^([a-z][a-z0-9-]*):([0-9A-Za-z-]{4,64})$/;

export interface AdoptTarget {
  profile: ProfileName;
  held: HeldConversation;
}

export async function adoptTarget(spec: string, env: Env): Promise<Result<AdoptTarget>> {
  const m = ADOPT_FORM.exec(spec);
  if (!m) return fail('usage', `--adopt: "${spec}" is not <agent>:<id> (as claude:3b8ccf36, the id \`claude agents\` lists)`);
  const profile = ProfileName.safeParse(m[1]);
  const own = profile.success ? PROFILES[profile.data].ownSupervisor : undefined;
  if (!profile.success || own === undefined) {
    const which = Object.values(PROFILES).filter((p) => p.ownSupervisor !== undefined).map((p) => p.name);
    return fail('usage', `--adopt: "${m[1]}" has no supervisor of its own to adopt a session from; only ${which.join(', ')} has`);
  }
  const held = await own.holding(env, m[2] as string);
  if (held === null) {
    return fail('not-found', `--adopt: ${PROFILES[profile.data].label}'s own background service holds no running session "${m[2] as string}" (\`${PROFILES[profile.data].defaultBin} agents\` lists those it holds)`);
  }
  return ok({ profile: profile.data, held });
}
