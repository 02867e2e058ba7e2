/** Replicate predictions API wire types. https://replicate.com/docs/reference/http */

export type PredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

export interface Prediction {
  id: string;
  model: string;
  version?: string;
  input: Record<string, unknown>;
  output: string | string[] | null;
  error: string | null;
  status: PredictionStatus;
  logs?: string;
  urls: { get: string; cancel: string; stream?: string };
  metrics?: { predict_time?: number; input_token_count?: number; output_token_count?: number };
}

export interface PredictionRequest {
  input: Record<string, unknown>;
  stream?: boolean;
}
