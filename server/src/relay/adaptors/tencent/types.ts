/** Tencent Hunyuan (API 2023-09-01) wire types: PascalCase. https://cloud.tencent.com/document/api/1729/105701 */

export interface HunyuanToolCall {
  Id: string;
  Type: 'function';
  Function: { Name: string; Arguments: string };
  Index?: number;
}

/** One part of a multimodal message (hunyuan-vision): text or a picture by URL (data: URLs accepted). */
export interface HunyuanContent {
  Type: 'text' | 'image_url';
  Text?: string;
  ImageUrl?: { Url: string };
}

export interface HunyuanMessage {
  Role: 'system' | 'user' | 'assistant' | 'tool';
  /** Either Content or Contents, never both. */
  Content?: string;
  Contents?: HunyuanContent[];
  ToolCalls?: HunyuanToolCall[];
  ToolCallId?: string;
}

export interface HunyuanTool {
  Type: 'function';
  /** Parameters is a JSON string, not an object. */
  Function: { Name: string; Description?: string; Parameters: string };
}

export interface HunyuanChatRequest {
  Model: string;
  Messages: HunyuanMessage[];
  Stream: boolean;
  TopP?: number;
  Temperature?: number;
  Tools?: HunyuanTool[];
  ToolChoice?: 'none' | 'auto' | 'custom';
  CustomTool?: HunyuanTool;
}

export interface HunyuanUsage {
  PromptTokens: number;
  CompletionTokens?: number;
  TotalTokens: number;
}

export interface HunyuanError {
  Code: string;
  Message: string;
}

export interface HunyuanChoice {
  FinishReason: string;
  Message?: { Role: string; Content: string; ToolCalls?: HunyuanToolCall[] };
  Delta?: { Role?: string; Content?: string; ToolCalls?: HunyuanToolCall[] };
}

/** Whole answers are wrapped in `Response`; stream events are not. Errors come with HTTP 200. */
export interface HunyuanChatResponse {
  RequestId?: string;
  Id?: string;
  Created?: number;
  Note?: string;
  Choices?: HunyuanChoice[];
  Usage?: HunyuanUsage;
  Error?: HunyuanError;
}

export interface HunyuanEmbeddingResponse {
  RequestId?: string;
  Data?: Array<{ Embedding: number[]; Index: number; Object: string }>;
  Usage?: HunyuanUsage;
  Error?: HunyuanError;
}
