// PDF.js ships no types for its worker module; the hub only hands the module to PDF.js (broker/mcp/pdf-text.ts).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
