/** PaLM 2 generateMessage wire types (v1beta2, retired by Google; kept for old deployments and mirrors). */

export interface PalmMessage {
  author: string;
  content: string;
}

export interface PalmRequest {
  prompt: { context?: string; messages: PalmMessage[] };
  temperature?: number;
  candidateCount?: number;
  topP?: number;
  topK?: number;
}

export interface PalmResponse {
  candidates?: PalmMessage[];
  messages?: PalmMessage[];
  filters?: { reason: string; message?: string }[];
}
