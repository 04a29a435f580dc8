// The control API's methods for notices off the machine (DESIGN.md §13 "Notices off the machine"):
// their params and results, spread into ipc.ts's table. Pure TypeScript, shared by every process.
import * as z from 'zod/mini';
import { NotifyTarget } from './daemon-settings.js';

export const NOTIFY_METHODS = {
  /** The targets off the machine (DESIGN.md §13 "Notices off the machine"), each URL masked. */
  'notify.list': () => ({ params: z.object({}), result: z.array(NotifyTarget) }),
  /** Adds a target (an approval): its events default to all but `resumed`; the value is the target, masked. */
  'notify.add': () => ({
    params: z.object({ kind: NotifyTarget.shape.kind, url: NotifyTarget.shape.url, events: z.optional(NotifyTarget.shape.events) }),
    result: NotifyTarget,
  }),
  /** Removes a target by id or by its 1-based place in the listing (an approval); the value is the target removed, masked. */
  'notify.remove': () => ({ params: z.object({ target: z.string().check(z.minLength(1), z.maxLength(40)) }), result: NotifyTarget }),
  /** Sends one test notice to every target now (no retries), and says how each answered. */
  'notify.test': () => ({ params: z.object({}), result: z.array(z.object({ id: z.string(), url: z.string(), ok: z.boolean(), detail: z.string() })) }),
};
