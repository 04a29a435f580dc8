// The first contents of a new state dir's three markdown files, in the seed's shape (DESIGN.md §3).
// Hints are HTML comments: a person or agent reading the file sees them, and Mori's parser does not
// mistake them for tasks, files or checks. Pure.

export interface TemplateInput {
  name: string;
  task: string | undefined;
  projectDir: string;
  /** AGENTS.md / CLAUDE.md and the like, where present in the project. */
  contextFiles: string[];
}

export function sessionStateTemplate(t: TemplateInput): string {
  return `# Session state: ${t.name}

<!-- Read this file first, every time. Keep it short and current: Mori builds the resume prompt from it
     after a crash, sleep or reboot. Headings are matched case-insensitively; other sections are kept. -->

## Current Task
${t.task ? `- ${t.task}` : '<!-- - What you are doing, in one line. -->'}
<!-- - Files touched: a.py, b.py        (files in progress; Mori checks they still exist)
     - Last working state: tests passing, need to add rate limiting -->

## Context
<!-- - Facts the work depends on: stack, constraints, where things are. -->

## Next Steps
<!-- 1. The next concrete step. -->

## Decisions
<!-- - What was decided and why, so it is not argued again after a resume. -->

## Context Files
${t.contextFiles.length > 0 ? t.contextFiles.map((f) => `- ${f}`).join('\n') : '<!-- - Files to re-read on resume, e.g. AGENTS.md -->'}
`;
}

export function environmentTemplate(t: TemplateInput): string {
  return `# Environment

<!-- What the work needs to be running. Before resuming the agent, Mori derives checks from this file
     and runs them: a test command in backticks, host:port, "on PORT", URLs, (pid N), and
     start: \`command\` for a service Mori may restart. Commands run only after you approve them
     with \`mori trust ${t.name}\`. -->

## Setup
<!-- - Test command: \`npm test\`
     - Database: PostgreSQL running on 5432 -->

## Running Services
<!-- - API server: http://localhost:8000 (pid 1234) start: \`npm run dev\` -->

## Checks
<!-- Explicit checks, one per line:
     - http: http://localhost:8000/health
     - tcp: localhost:5432
     - command: \`npm run lint\` (timeout 120s)
     - file: src/index.ts -->
`;
}

export function workLogTemplate(): string {
  return `# Work log

<!-- Append-only: add an entry per step, never rewrite old ones.
     ## YYYY-MM-DD HH:MM
     - what was done, what was tried, what failed
     Mori's own entries use capitals: SESSION INTERRUPTED, SESSION RESUMED. -->
`;
}
