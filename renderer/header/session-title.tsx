// The session header's title: the name, its state badge, the profile, backend and project folder, and
// the branch of the session's own git worktree when it has one. Runs in the window.
import type { SessionInfo } from '../../common/ipc.js';
import { stateWord } from '../../common/session-view.js';
import { Shown, shown } from '../ui/shown-text.js';

export function SessionTitle({ info }: { info: SessionInfo }) {
  const word = stateWord(info);
  return (
    <div class="session-title">
      <h1>{info.name}</h1>
      <span class={`badge state-${word.replace(' ', '-')}`}>{word}</span>
      {info.branch ? (
        <span class="session-branch" title={`git worktree on branch ${shown(info.branch)}`}>
          ⎇ {shown(info.branch)}
        </span>
      ) : null}
      <span class="muted">
        {info.profile ?? ''} · {info.backend} · <Shown text={info.projectDir ?? info.stateDir} />
      </span>
    </div>
  );
}
