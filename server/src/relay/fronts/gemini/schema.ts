import { isObject } from '../../adaptors/openai-kit/json.js';

/** Keys of Gemini's OpenAPI-subset Schema that JSON Schema has no word for. */
const geminiOnlyKeys: ReadonlySet<string> = new Set(['nullable', 'propertyOrdering', 'example']);

/** Schema keys whose value is a map of schemas by name. */
const schemaMaps: ReadonlySet<string> = new Set(['properties', '$defs', 'definitions']);

/**
 * A Gemini `Schema` (OpenAPI 3.0 subset: `type: "OBJECT"`, `nullable`, `propertyOrdering`) as the JSON Schema
 * OpenAI's function parameters and response formats take: types in lower case, `nullable` as a `null` type.
 */
export function geminiSchemaToJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(geminiSchemaToJsonSchema);
  if (!isObject(schema)) return schema;
  const converted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (geminiOnlyKeys.has(key)) continue;
    if (key === 'type' && typeof value === 'string') converted.type = value.toLowerCase();
    else if (schemaMaps.has(key) && isObject(value))
      converted[key] = Object.fromEntries(
        Object.entries(value).map(([name, inner]) => [name, geminiSchemaToJsonSchema(inner)]),
      );
    else converted[key] = geminiSchemaToJsonSchema(value);
  }
  if (schema.nullable === true && typeof converted.type === 'string') converted.type = [converted.type, 'null'];
  return converted;
}
