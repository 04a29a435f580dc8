// Screen patterns that match nothing: with them the screen always reads `unknown`, so activity comes
// from the agent's hooks alone (SupervisorOptions.activity.hooksOnly, a test setting that proves the
// hooks carry the activity by themselves). Pure.
import type { ScreenPatterns } from '../../agents/profile.js';

export const NO_SCREEN_PATTERNS: ScreenPatterns = { needsInput: [], error: [], working: [], waiting: [] };
