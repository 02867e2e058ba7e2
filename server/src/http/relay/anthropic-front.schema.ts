// The Messages API's request schemas live in the shared wire package (they describe /v1 for the OpenAPI document).
export { anthropicBodyProblem, anthropicCountTokensBody, anthropicMessagesBody } from '@modelgate/wire';
