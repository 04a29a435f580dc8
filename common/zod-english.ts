// zod's messages in English for the schemas built with zod/mini (every schema module in common/ and
// main/ but the Electron layer's): classic zod sets its English locale when it loads, mini does not,
// so a process that loads only mini schemas would say "Invalid input" without what was expected.
// Imported for its effect by each mini schema module. Pure TypeScript.
import en from 'zod/v4/locales/en.js';
import { config } from 'zod/mini';

config(en());
