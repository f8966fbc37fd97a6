// Oriel's version as the broker reports it (serverInfo, `oriel --version`, the native host's hello to the extension).
/** Version reported in serverInfo and by the CLI. */
export const SERVER_VERSION = '0.1.0';
