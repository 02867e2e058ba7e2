/** AI Proxy knowledge-base ("library") wire types. https://docs.aiproxy.io/dev/library */

export interface LibraryRequest {
  model: string;
  query: string;
  libraryId: string;
  stream: boolean;
}

export interface LibraryDocument {
  title: string;
  url: string;
}

/** Failures come with HTTP 200 and `success: false`. */
export interface LibraryResponse {
  success: boolean;
  answer?: string;
  documents?: LibraryDocument[];
  errCode?: number;
  message?: string;
}

export interface LibraryStreamEvent {
  content: string;
  finish: boolean;
  model?: string;
  documents?: LibraryDocument[];
}
