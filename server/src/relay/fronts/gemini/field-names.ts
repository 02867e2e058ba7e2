import { isObject } from '../../adaptors/openai-kit/json.js';

/**
 * Fields whose value is the client's own data (function arguments, schemas, labels): their keys are names the
 * client chose, never Google's field names, so they are left as they are.
 */
const clientData: ReadonlySet<string> = new Set([
  'args',
  'response',
  'parameters',
  'parametersJsonSchema',
  'responseSchema',
  'responseJsonSchema',
  'labels',
]);

const camel = (name: string) => name.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/**
 * A request with Google's snake_case field names (`system_instruction`, `inline_data`, `function_call`) in
 * camelCase, as Google's JSON reader accepts both and its own examples use either. The conversion reads the
 * camelCase names; Gemini channels get the body as it was sent.
 */
export function withCamelCaseFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withCamelCaseFields);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      const name = camel(key);
      return [name, clientData.has(name) ? inner : withCamelCaseFields(inner)];
    }),
  );
}
