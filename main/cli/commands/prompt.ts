// `mori prompt S`: prints the resume prompt Mori would give the agent now. Runs in the CLI process.
import type { Command } from 'commander';
import { openSession } from '../../state/resolve-session.js';
import { buildResumePrompt } from '../../supervisor/resume/resume-prompt.js';
import { gatherResumeInputs } from '../../supervisor/resume/resume-inputs.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';

export function registerPrompt(program: Command): void {
  program
    .command('prompt <session>')
    .description('print the resume prompt built from the state files')
    .option('--json', 'print JSON')
    .action((spec: string, opts: OutputOptions) => {
      const opened = openSession(spec);
      if (!opened.ok) return reportFailure(opened, opts);
      const inputs = gatherResumeInputs(opened.value.stateDir, opened.value.session);
      if (!inputs.ok) return reportFailure(inputs, opts);
      const prompt = buildResumePrompt(inputs.value);
      reportSuccess({ ok: true, prompt, chars: prompt.length }, prompt, opts);
    });
}
