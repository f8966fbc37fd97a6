// Types for the part of web-ext's Node API that test/unit/store-package.test.ts uses (web-ext ships none).
// https://extensionworkshop.com/documentation/develop/web-ext-command-reference/#web-ext-lint
declare module 'web-ext' {
  /** One finding of addons-linter, which `web-ext lint` runs. */
  export interface LintMessage {
    _type: 'error' | 'warning' | 'notice';
    code: string;
    message: string;
    description?: string;
    /** Path inside the extension, e.g. `assets/index.ts-abc.js`. */
    file?: string;
    line?: number;
    column?: number;
  }
  export interface LintResult {
    count: number;
    summary: { errors: number; notices: number; warnings: number };
    errors: LintMessage[];
    notices: LintMessage[];
    warnings: LintMessage[];
  }
  export interface LintParams {
    sourceDir: string;
    artifactsDir: string;
    ignoreFiles?: string[];
    /** `none` prints nothing and only returns the result. */
    output?: 'text' | 'json' | 'none';
    selfHosted?: boolean;
    warningsAsErrors?: boolean;
  }
  const webExt: {
    cmd: { lint(params: LintParams, options?: { shouldExitProgram?: boolean }): Promise<LintResult> };
  };
  export default webExt;
}
