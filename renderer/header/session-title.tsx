// The session header's title: the name, its precise state as a badge, the profile, backend and project
// folder, the agent's permission mode when its record says one, the branch of the session's own git worktree when it has one, "sandboxed" with its network
// when its agent runs in a sandbox, and under them the current task's first line. Runs in the window.
import type { LiveSession } from '../../common/ipc.js';
import { preciseState, profileWords, stateWord } from '../../common/session-view.js';
import { Shown, shown } from '../ui/shown-text.js';

/** What each network mode of a sandbox lets the agent reach, for the badge's tooltip. */
const NETWORK_WORDS = {
  full: 'the network as you do',
  none: 'no network',
  allowlist: "only its API's hosts and those the settings allow, through a proxy",
} as const;

export function SessionTitle({ info }: { info: LiveSession }) {
  const word = stateWord(info);
  return (
    <div class="session-heading">
      <div class="session-title">
        <h1>{info.name}</h1>
        <span class={`badge state-${word.replace(' ', '-')}`}>{preciseState(info)}</span>
        {info.branch ? (
          <span class="session-branch" title={`git worktree on branch ${shown(info.branch)}`}>
            ⎇ {shown(info.branch)}
          </span>
        ) : null}
        {info.sandboxed ? (
          <span class="session-sandbox" title={`Its agent runs in a sandbox: its project read-write, your home read-only, Mori and other sessions out of reach; ${NETWORK_WORDS[info.sandboxNetwork ?? 'full']}.`}>
            sandboxed{info.sandboxNetwork ? ` · ${info.sandboxNetwork} network` : ''}
          </span>
        ) : null}
        <span class="muted">
          {info.profile ? profileWords(info.profile, info.handedOver) : ''}
          {info.permissionMode ? <span title="The permission mode its agent's record says it runs in"> ({shown(info.permissionMode)} mode)</span> : null} · {info.backend} · <Shown text={info.projectDir ?? info.stateDir} />
        </span>
      </div>
      {info.task ? (
        <p class="session-heading-task" title={shown(info.task)}>
          <Shown text={info.task} />
        </p>
      ) : null}
    </div>
  );
}
