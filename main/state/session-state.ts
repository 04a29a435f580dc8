// Reads session_state.md (DESIGN.md §3, the seed's format) into the parts the resume prompt and the
// UI need. Headings match case-insensitively with synonyms; unknown sections are simply not read here
// (and are never touched by Mori's edits). Runs in any Node process.
import { MarkdownDoc, type SectionItem } from './markdown-doc.js';

/** Heading synonyms per part, already normalised (see headingKey). */
export const SESSION_STATE_HEADINGS = {
  currentTask: ['current task', 'task', 'current work', 'goal', 'objective', 'working on'],
  context: ['context', 'background', 'notes', 'constraints'],
  nextSteps: ['next steps', 'next', 'todo', 'to do', 'to-do', 'plan', 'remaining', 'next actions'],
  decisions: ['decisions', 'key decisions', 'decisions made', 'decided'],
  contextFiles: ['context files', 'files to read', 'read first', 'files to re-read', 'reference files'],
} as const;

export interface TaskState {
  /** Lines of Current Task other than the labelled ones below. */
  task: string[];
  filesTouched: string[];
  lastWorkingState: string | null;
  context: string[];
  nextSteps: string[];
  decisions: string[];
  contextFiles: string[];
}

const FILES_TOUCHED = /^(files touched|files modified|files in progress|files changed|files)\s*:\s*(.*)$/i;
const LAST_STATE = /^(last working state|last state|status|state)\s*:\s*(.*)$/i;

export function parseSessionState(doc: MarkdownDoc): TaskState {
  const texts = (names: readonly string[]): SectionItem[] => doc.findAll(names).flatMap((s) => doc.items(s));
  const state: TaskState = {
    task: [],
    filesTouched: [],
    lastWorkingState: null,
    context: texts(SESSION_STATE_HEADINGS.context).map((i) => i.text),
    nextSteps: texts(SESSION_STATE_HEADINGS.nextSteps).map((i) => i.text),
    decisions: texts(SESSION_STATE_HEADINGS.decisions).map((i) => i.text),
    contextFiles: texts(SESSION_STATE_HEADINGS.contextFiles).map((i) => stripCode(i.text)),
  };
  for (const item of texts(SESSION_STATE_HEADINGS.currentTask)) {
    const files = FILES_TOUCHED.exec(item.text);
    const last = LAST_STATE.exec(item.text);
    if (files) state.filesTouched.push(...splitFileList(files[2] ?? ''));
    else if (last) state.lastWorkingState = (last[2] ?? '').trim();
    else state.task.push(item.text);
  }
  return state;
}

/** `auth.py, middleware.py, tests/test_auth.py` → three paths; backticks removed. */
export function splitFileList(text: string): string[] {
  return text
    .split(/,|;/)
    .map((f) => stripCode(f.trim()))
    .filter((f) => f.length > 0);
}

function stripCode(text: string): string {
  return text.replace(/^`(.*)`$/, '$1').trim();
}
