// Where `oriel serve --http` listens unless told otherwise: constants the CLI's help and `oriel config --http` need
// without loading the HTTP server itself (./http.ts).

/** The port `oriel serve --http` and `oriel config --http` use unless told otherwise. */
export const DEFAULT_HTTP_PORT = 47_823;
/** The one path MCP is served on. */
export const MCP_PATH = '/mcp';
