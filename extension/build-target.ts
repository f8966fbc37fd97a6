// Which browser this bundle was built for: vite.config.ts defines __ORIEL_BROWSER__ per build, so code only one browser
// can run (trusted input's chrome.debugger, Chromium only) is left out of the other browser's bundle.
declare const __ORIEL_BROWSER__: 'chrome' | 'firefox';

/** True in the Chromium build; false in the Firefox build and outside a build (unit tests). */
export const CHROMIUM_BUILD: boolean = typeof __ORIEL_BROWSER__ !== 'undefined' && __ORIEL_BROWSER__ === 'chrome';
