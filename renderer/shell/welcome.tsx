// What the window shows with no session open: what Mori does, the first step (New session, or
// `mori init` in a terminal), what the three state files beside each agent are for, and what happens
// when the lid closes. Words only: the one New session button stays the sidebar's. Runs in the renderer.

export function Welcome() {
  return (
    <div class="welcome">
      <h1>Mori</h1>
      <p class="welcome-lead">Keeps coding agents working through crashes, sleep, network drops and restarts.</p>
      <ol class="welcome-steps">
        <li>
          <h2>Start a session</h2>
          <p>
            <strong>New session</strong> (Ctrl+N) asks for a project folder, an agent — Claude Code, Codex, Gemini CLI, opencode, or any command — and the task in a sentence. From a
            terminal: <code>mori init ~/code/shop --name fix-refunds --agent claude</code>.
          </p>
        </li>
        <li>
          <h2>Let it work from its files</h2>
          <p>The agent runs in its own terminal here, and keeps three files in the project's <code>.mori/&lt;session&gt;/</code>:</p>
          <dl class="welcome-files">
            <dt>session_state.md</dt>
            <dd>the task, the next steps, the decisions made, the files touched</dd>
            <dt>environment.md</dt>
            <dd>how to run the tests, which services the work needs</dd>
            <dt>work_log.md</dt>
            <dd>what was done, one dated entry per step</dd>
          </dl>
          <p>After an interruption it resumes from them, not from a long conversation.</p>
        </li>
        <li>
          <h2>Close the lid</h2>
          <p>
            Sleep, a crash, a dropped network, a usage limit or a reboot: Mori writes it in the work log, runs the checks you trusted again, and resumes the agent where it left off.
            Notifications say what happened while you were away.
          </p>
        </li>
      </ol>
    </div>
  );
}
