/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the JSON API; a relative path resolves against the page origin. Default '/api'. */
  readonly VITE_API_URL?: string;
  /** Origin that serves uploaded images (paths like /uploads/x.svg). Default: the API's origin. */
  readonly VITE_SERVER_ORIGIN?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
