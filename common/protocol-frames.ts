// How a request looks on the wire (DESIGN.md §12): one JSON object `{ id, method, params }`, ids
// counting from 1 on each connection, the first always `hello` with the protocol's version. Its own
// module, without the schemas, so a short command can put its requests on the wire before it loads
// them (main/daemon-client/early-request.ts) and protocol-client.ts writes the same frames. Pure TypeScript.

/**
 * The protocol's version, sent in `hello` by both ends. Bumped on any change a peer of the previous
 * version would misread; a client meeting a daemon of another version says so instead of failing on
 * a schema (the daemon outlives app updates, DESIGN.md §12).
 */
export const PROTOCOL_VERSION = 1;

/** One request as sent. */
export function requestFrame(id: number, method: string, params: unknown): string {
  return JSON.stringify({ id, method, params });
}

/** The params of a client's `hello`. */
export function helloParams(client: string): { protocol: number; client: string } {
  return { protocol: PROTOCOL_VERSION, client };
}
