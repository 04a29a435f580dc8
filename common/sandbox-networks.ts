// How a sandboxed session reaches the network (DESIGN.md §11 "Sandbox"): as the person does, not at
// all, or through a proxy to listed hosts. Apart from session.ts's schemas so the window can offer
// them without loading zod (test/e2e/window-bundle.test.ts). Pure TypeScript.
export const SANDBOX_NETWORKS = ['full', 'none', 'allowlist'] as const;
