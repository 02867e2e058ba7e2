const baseModels = [
  'command',
  'command-nightly',
  'command-light',
  'command-light-nightly',
  'command-r',
  'command-r-plus',
];

/** Cohere's built-in models as one-api lists them: each also with `-internet` (web-search connector). */
export const cohereModels = [...baseModels, ...baseModels.map((model) => `${model}-internet`)];
