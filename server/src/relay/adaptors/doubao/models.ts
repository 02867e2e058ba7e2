/**
 * Doubao (Volcengine Ark) names as one-api lists them. Ark wants an inference endpoint id (`ep-…`) or a
 * versioned model id, so channels map these names with the model mapping.
 */
export const doubaoModels = [
  'Doubao-pro-128k',
  'Doubao-pro-32k',
  'Doubao-pro-4k',
  'Doubao-lite-128k',
  'Doubao-lite-32k',
  'Doubao-lite-4k',
  'Doubao-embedding',
] as const;
