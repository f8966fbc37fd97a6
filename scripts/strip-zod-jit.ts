// Vite plugin for the extension build (vite.config.ts): removes zod's compiled fast path — its two Function-constructor
// sites — from every bundle, the content-script IIFE that @crxjs/vite-plugin builds on its own included.
// The extension runs zod jitless (extension/zod-jitless.ts), so both sites are dead code; shipping them still draws
// `DANGEROUS_EVAL` from `web-ext lint` and stores' reviewers. test/unit/store-package.test.ts checks the result.
import type { Plugin } from 'vite';

/** Text that marks a bundle holding zod's core (the jitless switch it reads). */
const ZOD_MARKER = 'globalConfig.jitless';

/** What stands where zod named the Function constructor: a constructor that always refuses, as a CSP would. */
const REFUSE = '(function () { throw new EvalError("zod runs jitless in Oriel: its compiler is not shipped"); })';

/**
 * zod's Function-constructor sites as the bundler writes them: the `allowsEval` probe of zod/v4/core/util.js (inlined
 * from `const F = Function; new F("")`) and `Doc.compile` of zod/v4/core/doc.js (`const F = Function;`). Literal
 * matches: evaluate's own `new Function(\`…\`)` (extension/background/ops/evaluate.ts) never matches.
 */
const SITES = [
  { text: 'new Function("")', with: `new ${REFUSE}("")` },
  { text: 'const F = Function;', with: `const F = ${REFUSE};` },
] as const;

/** Replaces zod's Function-constructor sites in one bundle's text; `replaced` counts them (0 for text without zod). */
export function stripZodJit(code: string): { code: string; replaced: number } {
  if (!code.includes(ZOD_MARKER)) return { code, replaced: 0 };
  let out = code;
  let replaced = 0;
  for (const site of SITES) {
    const parts = out.split(site.text);
    replaced += parts.length - 1;
    out = parts.join(site.with);
  }
  return { code: out, replaced };
}

/**
 * The plugin: rewrites every JavaScript chunk and asset once the bundle is complete.
 * @throws Error (failing the build) when the bundle holds zod but none of the sites: zod or the bundler changed shape,
 * and this plugin must learn the new one rather than let the compiler ship. A site it misses in part is caught by
 * test/unit/store-package.test.ts, which looks for every Function constructor in dist/.
 */
export function stripZodJitPlugin(): Plugin {
  return {
    name: 'oriel:strip-zod-jit',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      let zodSeen = false;
      let replaced = 0;
      for (const file of Object.values(bundle)) {
        if (!file.fileName.endsWith('.js')) continue;
        const text = file.type === 'chunk' ? file.code : typeof file.source === 'string' ? file.source : new TextDecoder().decode(file.source);
        if (!text.includes(ZOD_MARKER)) continue;
        zodSeen = true;
        const result = stripZodJit(text);
        replaced += result.replaced;
        if (file.type === 'chunk') file.code = result.code;
        else file.source = result.code;
      }
      if (zodSeen && replaced === 0) {
        this.error("zod's Function-constructor sites no longer match scripts/strip-zod-jit.ts: update its SITES so the compiler does not ship");
      }
    },
  };
}
