/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Version of this console build; when set, a differing server version shows the new-version notice. */
  readonly VITE_APP_VERSION?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
