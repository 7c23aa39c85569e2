/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Origin of the REST facade that serves /tracker.js, for the tracking snippet. */
  readonly VITE_TRACKER_ORIGIN?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
