// The Responses API's request schema lives in the shared wire package (it describes /v1 for the OpenAPI document).
export { responsesBodyProblem, responsesCreateBody } from '@modelgate/wire';
