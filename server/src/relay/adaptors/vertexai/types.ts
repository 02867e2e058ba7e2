/** The parts of a Google service-account key file that token minting needs. */
export interface ServiceAccountKey {
  type?: string;
  project_id?: string;
  private_key_id?: string;
  private_key: string;
  client_email: string;
  token_uri?: string;
}

/** Where and as whom a Vertex channel calls. */
export interface VertexSettings {
  region: string;
  projectId: string;
  serviceAccount: ServiceAccountKey;
}

/** Vertex text-embedding `:predict` wire shapes. https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api */
export interface VertexEmbeddingRequest {
  instances: { content: string; task_type?: string }[];
  parameters?: { outputDimensionality?: number };
}

export interface VertexEmbeddingResponse {
  predictions: { embeddings: { values: number[]; statistics?: { token_count?: number; truncated?: boolean } } }[];
}
