// Reads environment.md (DESIGN.md §3, the seed's format plus an optional `## Checks` section) into
// its setup lines, running services and explicit check lines, each with its line number so a derived
// check can say where it came from. Deriving checks from these lines is main/checks/' job. Any process.
import { MarkdownDoc } from './markdown-doc.js';

export const ENVIRONMENT_HEADINGS = {
  setup: ['setup', 'environment', 'project setup', 'tooling'],
  services: ['running services', 'services', 'processes'],
  checks: ['checks', 'verification', 'verify'],
} as const;

export interface EnvironmentLine {
  text: string;
  /** 1-based line number in environment.md, for messages like `environment.md:7`. */
  line: number;
}

export interface EnvironmentFile {
  setup: EnvironmentLine[];
  services: EnvironmentLine[];
  checks: EnvironmentLine[];
}

export function parseEnvironment(doc: MarkdownDoc): EnvironmentFile {
  const lines = (names: readonly string[]): EnvironmentLine[] =>
    doc.findAll(names).flatMap((s) => doc.items(s).map((i) => ({ text: i.text, line: i.line + 1 })));
  return {
    setup: lines(ENVIRONMENT_HEADINGS.setup),
    services: lines(ENVIRONMENT_HEADINGS.services),
    checks: lines(ENVIRONMENT_HEADINGS.checks),
  };
}
