/**
 * What the map page adds to `window` (public/map/main.js), as the callbacks these tests run inside the page see it.
 * Only this folder's type-check (test/e2e/browser/tsconfig.json, with the DOM library) reads it.
 */
import type { Map as MapLibreMap } from 'maplibre-gl';

declare global {
  interface Window {
    /** The page's MapLibre map. */
    __map: MapLibreMap;
    /** The CSP violations the test's init script collected, `directive blocked-URI` each. */
    __csp?: string[];
  }
}
