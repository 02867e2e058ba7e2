/** AWS Bedrock InvokeModel wire types. https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html */

export interface BedrockCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

/** Which body family a Bedrock model speaks. */
export type BedrockFamily = 'claude' | 'llama';

/** What the adaptor sends through the SDK: the model id in the path and the JSON body. */
export interface BedrockInvocation {
  modelId: string;
  family: BedrockFamily;
  body: string;
}

/** Meta Llama request body. */
export interface LlamaRequest {
  prompt: string;
  max_gen_len: number;
  temperature?: number;
  top_p?: number;
}

/** Meta Llama answer, whole or one stream chunk. */
export interface LlamaResponse {
  generation: string;
  prompt_token_count: number | null;
  generation_token_count: number | null;
  stop_reason: string | null;
  'amazon-bedrock-invocationMetrics'?: { inputTokenCount: number; outputTokenCount: number };
}
