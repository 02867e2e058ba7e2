// Gemini's request schemas live in the shared wire package (they describe /v1beta for the OpenAPI document).
export {
  geminiBatchEmbedContentsBody,
  geminiBodyProblem,
  geminiCountTokensBody,
  geminiEmbedContentBody,
  geminiGenerateContentBody,
} from '@modelgate/wire';
